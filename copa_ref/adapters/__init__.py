"""Adapters that offer every game of the reference through other projects' APIs.

Each adapter is generic over the :class:`~copa_ref.core.Game` record and imports its
third-party package only when its own module is imported (the core library keeps its
runtime dependencies as they are):

- :mod:`copa_ref.adapters.pettingzoo`: a PettingZoo AEC environment per game
  (``pip install 'copa-ref[pettingzoo]'``).
- :mod:`copa_ref.adapters.openspiel`: every game as an OpenSpiel Python game, after an
  explicit :func:`copa_ref.adapters.openspiel.register` (``pip install 'copa-ref[openspiel]'``).

Both use the same seat-independent integer action ids
(:class:`copa_ref.adapters.tensors.ActionIds`, made from the game's ``action_space``), the
same per-game observation tensors (:mod:`copa_ref.adapters.tensors`) and the same returns
(:func:`returns_scheme`).
"""

from __future__ import annotations

import functools
import json
import typing
from collections.abc import Callable
from types import ModuleType
from typing import Any

import attrs

from copa_ref import copas, da_capo, hopper, kala, kopa, ronda
from copa_ref.core import Game
from copa_ref.core.codec import JSON, canonical_json
from copa_ref.core.types import Outcome, Seat

__all__ = [
    "NULL_INT",
    "RULES",
    "TRUNCATED_LENGTH",
    "Parameter",
    "Returns",
    "action_space",
    "config_from_parameters",
    "dealt_in_rounds",
    "default_truncation",
    "episode_over",
    "parameters",
    "returns_scheme",
    "rewards_of",
    "rules_function",
]


RULES: dict[str, ModuleType] = {
    "copas": copas.rules, "da_capo": da_capo.rules, "hopper": hopper.rules,
    "kala": kala.rules, "kopa": kopa.rules, "ronda": ronda.rules}
"""Each game's rules module, by the game's registry name."""


def rules_function(game: Game[Any, Any, Any, Any], name: str) -> Callable[..., Any] | None:
    """The function *name* of the game: the ``Game`` field of that name when the record
    has one and it is set, else the function of that name in the game's rules module
    (:data:`RULES`), else ``None``."""
    found = getattr(game, name, None)
    if callable(found):
        field: Callable[..., Any] = found
        return field
    rules = RULES.get(game.name)
    found = None if rules is None else getattr(rules, name, None)
    if callable(found):
        function: Callable[..., Any] = found
        return function
    return None


def action_space(game: Game[Any, Any, Any, Any], config: Any) -> tuple[Any, ...]:
    """The integer action space of *game* under *config*: integer ``i`` is action ``i``.

    :raises ValueError: when the game has no ``action_space`` function.
    """
    function = rules_function(game, "action_space")
    if function is None:
        msg = f"{game.title} has no action_space(config) in its rules"
        raise ValueError(msg)
    actions: tuple[Any, ...] = tuple(function(config))
    return actions


# -- a config as flat parameters ------------------------------------------------------------

Parameter = int | bool | str
"""One flat parameter value (what OpenSpiel's game parameters can carry)."""

NULL_INT = -1
"""The integer that stands for ``null`` in an optional integer option (``first_dealer``)."""


def _kind(game: Game[Any, Any, Any, Any], option: attrs.Attribute[Any], default: JSON) -> str:
    """How *option* is carried: ``"bool"``, ``"int"``, ``"str"``, ``"optional_int"`` (an int,
    :data:`NULL_INT` for null) or ``"json"`` (JSON text, ``;`` for ``,``)."""
    declared = option.type
    if isinstance(declared, str):
        hints = typing.get_type_hints(game.config_type)
        declared = hints[option.name]
    if set(typing.get_args(declared)) == {int, type(None)}:
        return "optional_int"
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "int"
    if isinstance(default, str):
        return "str"
    return "json"


def _options(game: Game[Any, Any, Any, Any], config: Any) -> dict[str, JSON]:
    """*config*'s JSON with every option, solver variants at their default too (P-8)."""
    data = game.to_json(config)
    assert isinstance(data, dict)
    return {option.name: data.get(option.name, option.default)
            for option in attrs.fields(game.config_type)}


def _kinds(game: Game[Any, Any, Any, Any]) -> dict[str, tuple[str, JSON]]:
    data = _options(game, game.default_config())
    return {option.name: (_kind(game, option, data[option.name]), data[option.name])
            for option in attrs.fields(game.config_type)}


def _encode(kind: str, value: JSON, game: Game[Any, Any, Any, Any]) -> Parameter:
    if kind == "optional_int":
        return NULL_INT if value is None else typing.cast(int, value)
    if kind == "json":
        text = canonical_json(value)
        if ";" in text:
            msg = f"{game.title}: an option's JSON text {text} holds a ';'"
            raise ValueError(msg)
        return text.replace(",", ";")
    return typing.cast(Parameter, value)


def parameters(game: Game[Any, Any, Any, Any], config: Any = None) -> dict[str, Parameter]:
    """*config* (default: the default reading) as flat parameters, one per ``Config`` option:
    a flag, a number or a string option as itself (an enum by its JSON value), an optional
    integer as an integer (:data:`NULL_INT` for none), any other value (HOPPER's
    ``shot_model``) as its canonical JSON text with ``;`` in place of ``,`` (OpenSpiel's
    game strings split on commas)."""
    data = _options(game, game.default_config() if config is None else config)
    return {name: _encode(kind, data[name], game) for name, (kind, _) in _kinds(game).items()}


def config_from_parameters(game: Game[Any, Any, Any, Any], params: dict[str, Any]) -> Any:
    """The config that flat *params* (:func:`parameters`; any left out keep their default)
    stand for, decoded and checked by the game's JSON config codec.

    :raises ValueError: naming the parameter for an unknown one or a misshapen value;
        ``MalformedInputError`` or ``InvalidStateError`` (with the rule) from the codec for
        a value the game refuses.
    """
    kinds = _kinds(game)
    unknown = sorted(set(params) - set(kinds))
    if unknown:
        msg = f"{game.title}: unknown parameters {unknown}; known: {sorted(kinds)}"
        raise ValueError(msg)
    data: dict[str, JSON] = {name: default for name, (_, default) in kinds.items()}
    for name, value in params.items():
        kind = kinds[name][0]
        if kind == "optional_int" and type(value) is int:
            data[name] = None if value == NULL_INT else value
        elif kind == "json" and isinstance(value, str):
            try:
                data[name] = json.loads(value.replace(";", ","))
            except ValueError as err:
                msg = f"{game.title}: parameter {name}={value!r} is not JSON text ({err})"
                raise ValueError(msg) from None
        else:
            data[name] = value
    return game.config_from_json(data)


# -- truncation -----------------------------------------------------------------------------------

TRUNCATED_LENGTH = 2000
"""The default truncation, in actions, of a game whose random play need not end
(``Game.random_play_ends`` false: Kopa, about thirteen random rounds). An adapter's limit,
not a rule: a truncated match is undecided."""


def default_truncation(game: Game[Any, Any, Any, Any]) -> int | None:
    """The adapters' default limit on a game's length: :data:`TRUNCATED_LENGTH` for a game
    whose random play need not end, else none (the game's own end)."""
    return None if game.random_play_ends else TRUNCATED_LENGTH


def rewards_of(outcome: Outcome, players: int) -> tuple[float, ...]:
    """+1 for each winner, -1 for each loser the outcome names, 0 for the other seats."""
    return tuple(1.0 if s in outcome.winners else -1.0 if s in outcome.losers else 0.0
                 for s in range(players))


# -- returns ----------------------------------------------------------------------------------


@attrs.frozen
class Returns:
    """How a game's end is scored for learning, and what OpenSpiel is told of it.

    ``kind`` is one of:

    - ``"win_share"``: a seat's share of the win minus the average share, scaled so that a
      two-player win is +1 and a loss -1: a winner of ``w`` gets ``n/(n-1) * (1/w - 1/n)``,
      a non-winner ``-1/(n-1)``; a win shared by everyone is 0 each. Zero-sum.
    - ``"ranked"``: +1 each winner, -1 each loser the outcome names, 0 the others (Copas,
      whose outcome has three tiers). General-sum.
    - ``"deal"``: one-deal episodes: each seat's score change from the episode's start
      (``scores`` now minus ``scores`` then), negated where the game counts minus points
      (Copas). The episode runs to the booking of the deal it starts in
      (:func:`episode_over`): for Copas a deal whose ten copas are pending (COPAS-17) is
      booked at the end of the bonus round that follows (COPAS-18), so that round belongs to
      the episode. General-sum.

    A game cut short by a truncation is undecided: every return 0.
    """

    kind: str
    utility: str
    """OpenSpiel's ``GameType.Utility`` member name."""
    low: float
    high: float
    total: float | None
    sign: int = 1

    def returns(self, game: Game[Any, Any, Any, Any], state: Any, deal_over: bool,
                start: Any = None) -> tuple[float, ...]:
        """The returns at *state*; *deal_over*: a one-deal episode's booking is done;
        *start*: the episode's first state (for ``"deal"``)."""
        players = game.num_players(state.config)
        if self.kind == "deal":
            outcome = game.outcome(state)
            if not deal_over and outcome is None:
                return (0.0,) * players
            before = start.scores if start is not None else (0,) * players
            return tuple(float(self.sign * (a - b))
                         for a, b in zip(state.scores, before, strict=True))
        outcome = game.outcome(state)
        if outcome is None:
            return (0.0,) * players
        if self.kind == "ranked":
            return rewards_of(outcome, players)
        return win_share(outcome, players)


def dealt_in_rounds(game: Game[Any, Any, Any, Any]) -> bool:
    """Whether *game*'s states count rounds and score each (``round`` and ``last_round``):
    the games that take one-deal episodes."""
    fields = attrs.fields_dict(game.state_type)
    return "round" in fields and "last_round" in fields


def episode_over(state: Any, start_round: int) -> bool:
    """Whether a one-deal episode that started in round *start_round* is over at *state*:
    the deal it started in is booked. A deal is booked when a later round has begun and no
    ten are pending (Copas' ``pending``, COPAS-17): a pending ten's value is decided by the
    bonus round that follows (booked, or erased when the pending seat takes no copas,
    COPAS-18), so that round belongs to the episode (specs/ambiguities.md, the adapters'
    one-deal episodes)."""
    return bool(state.round != start_round and getattr(state, "pending", None) is None)


def win_share(outcome: Outcome, players: int) -> tuple[float, ...]:
    """The zero-sum win share of each seat (see :class:`Returns`)."""
    return _win_share(outcome.winners, players)


@functools.cache
def _win_share(winners: tuple[Seat, ...], n: int) -> tuple[float, ...]:
    """:func:`win_share` of the seats *winners* among *n* (kept: a few sets of winners per
    number of seats, asked for at every game's end)."""
    w, scale = len(winners), n / (n - 1)
    return tuple(scale * ((1 / w if s in winners else 0.0) - 1 / n) for s in range(n))


DEAL_SIGN = {"copas": -1, "kopa": 1}
"""The sign of a deal's score change as a return: Copas books minus points."""
RANKED = frozenset({"copas"})
"""The games whose outcome ranks seats in three tiers (winners, others, losers)."""


def returns_scheme(game: Game[Any, Any, Any, Any], config: Any, one_deal: bool,
                   length: int) -> Returns:
    """The returns of *game* under *config* (*one_deal*: one-deal episodes; *length*: the
    bound on a game's actions, which bounds Kopa's penalties)."""
    players = game.num_players(config)
    if one_deal:
        if game.name == "copas":  # a seat under 51 books at most 20 a round (COPAS-16 to
            # COPAS-20): at most 70 minus points over a deal and its bonus rounds
            return Returns("deal", "GENERAL_SUM", -70.0, 0.0, None, -1)
        if game.name == "kopa":  # gains of up to 59 cards; at most 5 penalty points an action
            return Returns("deal", "GENERAL_SUM", -5.0 * length, 59.0, None, 1)
        msg = f"{game.title} has no one-deal episodes"
        raise ValueError(msg)
    if game.name in RANKED:
        return Returns("ranked", "GENERAL_SUM", -1.0, 1.0, None)
    return Returns("win_share", "ZERO_SUM", -1.0 / (players - 1), 1.0, 0.0)
