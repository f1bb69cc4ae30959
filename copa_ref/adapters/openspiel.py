"""Every game of the reference as an OpenSpiel Python game, after an explicit
:func:`~copa_ref.adapters.openspiel.register`.

The example and the action mapping are in the documentation (``docs/adapters``).

Game ``copa_ref_<name>`` plays the registered game ``<name>``; its game parameters are the
options of the game's ``Config`` (:func:`copa_ref.adapters.parameters`: a flag, number or
enum as itself, an optional integer as an integer with -1 for none, any other value as
JSON text with ``;`` for ``,``), decoded and checked by the game's JSON config codec, and
the adapter's own :data:`LENGTH`; a loaded game's ``config`` is the ``Config`` value, a
state's ``state`` the reference's state. Integer action ``i`` at a decision node is the ``i``-th
action of the game's ``action_space(config)`` (``copa_ref.adapters.action_space``). A game
with a joint node (DA CAPO) is a simultaneous-move game; a seat with no part to play there
(one that is out) has the single action ``len(action_space)``, "no part". At an any-of node
(HOPPER's shoot-out) the lowest listed seat with a legal action is the current player.

Chance nodes list their outcomes with exact probabilities (as floats). A game with a
``chance_step(state, prefix)`` function is dealt in small steps (Copas one card at a time,
RONDA one cup at a time), the chance action being the small id the game gives; a game with
``chance_outcomes(state)`` has chance action ``k`` for the ``k``-th outcome listed there; a
game with chance nodes and neither cannot be expressed and raises ``ValueError``.

Observations are built from ``observe(state, seat)`` alone, so they reveal nothing the seat
may not know: the observation string is its canonical JSON text, the observation tensor
that text's UTF-8 bytes zero-padded to :data:`~copa_ref.adapters.OBSERVATION_BYTES`; the
information-state string of a seat is every observation it has had so far, with its own
choices, one per line (perfect recall; no information-state tensor, a history having no
fixed size). Returns at the end: +1 for each winner, -1 for each loser the outcome names, 0
for the others (general-sum); 0 for every seat in a game cut short by :data:`LENGTH`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import numpy as np
import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no type hints

from copa_ref.adapters import (
    OBSERVATION_BYTES,
    action_space,
    config_from_parameters,
    default_truncation,
    padded,
    parameters,
    rewards_of,
    rules_function,
)
from copa_ref.core import Game
from copa_ref.core.types import MoverKind, Seat

__all__ = ["LENGTH", "MAX_CHANCE_OUTCOMES", "MAX_GAME_LENGTH", "register", "short_name"]

MAX_CHANCE_OUTCOMES = 256
"""The chance action ids every game's chance nodes stay below."""
MAX_GAME_LENGTH = 100_000
"""The declared bound on a game's length (chance steps included), as
:data:`copa_ref.core.loop.MAX_STEPS`: several games have no bound of their own."""

LENGTH = "max_game_length"
"""The adapter's own game parameter (besides the config's options): truncate the game after
this many actions, chance steps included; 0, the default for a game whose random play ends,
is no limit (:data:`MAX_GAME_LENGTH` is declared). Not a rule: a truncated game is terminal
with every return 0 (undecided). Kopa's default is
:data:`~copa_ref.adapters.TRUNCATED_LENGTH`, as its random play need not end."""

_REGISTERED: dict[str, Any] = {}


def short_name(game: Game[Any, Any, Any, Any]) -> str:
    """The OpenSpiel name of *game*: ``copa_ref_<name>``."""
    return f"copa_ref_{game.name}"


def register(games: dict[str, Game[Any, Any, Any, Any]] | None = None) -> tuple[str, ...]:
    """Register every game (default: every registered game) with OpenSpiel, once;
    return their OpenSpiel names."""
    if games is None:
        from copa_ref.games import GAMES

        games = GAMES
    names = []
    for game in games.values():
        name = short_name(game)
        if name not in _REGISTERED:
            _REGISTERED[name] = _make(game)
        names.append(name)
    return tuple(names)


def _make(game: Game[Any, Any, Any, Any]) -> Any:
    facts = game.facts
    simultaneous = game.joint is not None
    hidden = facts.hidden_information or simultaneous
    specification: dict[str, Any] = dict(parameters(game))
    if LENGTH in specification:
        msg = f"{game.title}: a config option is named {LENGTH}"
        raise ValueError(msg)
    specification[LENGTH] = default_truncation(game) or 0
    game_type = pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"copa-ref {game.title}",
        dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous
                  else pyspiel.GameType.Dynamics.SEQUENTIAL),
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if facts.chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=facts.max_players,
        min_num_players=facts.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=specification,
    )
    chance_step = rules_function(game, "chance_step")

    class CopaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel.Game is untyped
        def __init__(self, params: Any = None) -> None:
            given = dict(params or {})
            limit = int(given.pop(LENGTH, specification[LENGTH]))
            if limit < 0:
                msg = f"{game.title}: {LENGTH} must be 0 (none) or positive, not {limit}"
                raise ValueError(msg)
            self.config = config_from_parameters(game, given)
            self.limit = limit
            self.players = game.num_players(self.config)
            self.actions = action_space(game, self.config)
            self.index = {a: i for i, a in enumerate(self.actions)}
            game_info = pyspiel.GameInfo(
                num_distinct_actions=len(self.actions) + (1 if simultaneous else 0),
                max_chance_outcomes=MAX_CHANCE_OUTCOMES if facts.chance else 0,
                num_players=self.players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=limit or MAX_GAME_LENGTH,
            )
            normalised = {**parameters(game, self.config), LENGTH: limit}
            super().__init__(game_type, game_info, normalised)

        def new_initial_state(self) -> Any:
            return CopaState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            if params:
                msg = f"{game.title}: observation parameters are not supported, got {params}"
                raise ValueError(msg)
            perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return _Observer(game, perfect_recall)

    class CopaState(pyspiel.State):  # type: ignore[misc]  # pyspiel.State is untyped
        def __init__(self, py_game: Any) -> None:
            super().__init__(py_game)
            self.table = _Table(py_game.players, py_game.actions, py_game.index, py_game.limit)
            self.held = _Held(_Trail(None, game.new_game(py_game.config), {}), (), 0)

        # The values, immutable, are shared by clones rather than copied.

        @property
        def players(self) -> int:
            return self.table.players

        @property
        def actions(self) -> tuple[Any, ...]:
            return self.table.actions

        @property
        def index(self) -> dict[Any, int]:
            return self.table.index

        @property
        def limit(self) -> int:
            return self.table.limit

        @property
        def state(self) -> Any:
            return self.held.trail.state

        @property
        def prefix(self) -> tuple[int, ...]:
            return self.held.prefix

        @property
        def truncated(self) -> bool:
            """Whether the adapter's ``max_game_length`` cut the game short (not a rule)."""
            return bool(self.limit) and self.held.length >= self.limit

        def observation_text(self, seat: int) -> str:
            """The canonical JSON of ``observe(state, seat)``."""
            return self.held.trail.observation(game, seat)

        def information_text(self, seat: int) -> str:
            """Every observation *seat* has had, with its own choices, one per line."""
            return self.held.trail.information(game, seat)

        # -- who acts --------------------------------------------------------------------

        def current_player(self) -> int:
            if self.truncated:
                return int(pyspiel.PlayerId.TERMINAL)
            mover = game.to_move(self.state)
            kind = mover.kind
            if kind is MoverKind.NOBODY:
                return int(pyspiel.PlayerId.TERMINAL)
            if kind is MoverKind.CHANCE:
                return int(pyspiel.PlayerId.CHANCE)
            if kind is MoverKind.JOINT:
                return int(pyspiel.PlayerId.SIMULTANEOUS)
            if kind is MoverKind.ANY:
                able = [s for s in mover.seats if game.legal_actions(self.state, s)]
                return int(able[0] if able else mover.seats[0])
            return int(mover.seats[0])

        def is_terminal(self) -> bool:
            return self.truncated or game.to_move(self.state).kind is MoverKind.NOBODY

        def _legal_actions(self, player: int) -> list[int]:
            if self.is_terminal():
                return []
            mover = game.to_move(self.state)
            if mover.kind is MoverKind.JOINT:
                if player not in mover.seats:
                    return [len(self.actions)]
                return sorted(self.index[a] for a in game.legal_actions(self.state, Seat(player)))
            if player != self.current_player():
                return []
            seat = None if mover.kind is MoverKind.SEAT else Seat(player)
            return sorted(self.index[a] for a in game.legal_actions(self.state, seat))

        # -- chance ----------------------------------------------------------------------

        def _outcomes(self) -> tuple[tuple[int, Fraction], ...]:
            if chance_step is not None:
                step = chance_step(self.state, self.prefix)
                if not isinstance(step, tuple):
                    msg = f"{game.title}: chance_step gave an action for an open prefix"
                    raise ValueError(msg)
                return step
            if game.chance_outcomes is None:
                msg = f"{game.title} has chance nodes but no chance_step or chance_outcomes"
                raise ValueError(msg)
            listed = game.chance_outcomes(self.state)
            return tuple((k, p) for k, (_, p) in enumerate(listed))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            outcomes = self._outcomes()
            if any(not 0 <= k < MAX_CHANCE_OUTCOMES for k, _ in outcomes):
                msg = f"{game.title}: a chance id outside 0..{MAX_CHANCE_OUTCOMES - 1}"
                raise ValueError(msg)
            return [(k, float(p)) for k, p in outcomes]

        # -- moves -----------------------------------------------------------------------

        def _play(self, action: Any, chosen: dict[int, str] | None = None) -> None:
            after = game.apply(self.state, action)
            self.held = _Held(_Trail(self.held.trail, after, chosen or {}), (),
                              self.held.length + 1)

        def _apply_action(self, action: int) -> None:
            if game.to_move(self.state).kind is MoverKind.CHANCE:
                if chance_step is None:
                    assert game.chance_outcomes is not None
                    self._play(game.chance_outcomes(self.state)[action][0])
                    return
                prefix = (*self.prefix, action)
                step = chance_step(self.state, prefix)
                if isinstance(step, tuple):
                    self.held = attrs.evolve(self.held, prefix=prefix,
                                             length=self.held.length + 1)
                else:
                    self._play(step)
                return
            player = self.current_player()
            self._play(self.actions[action], {player: game.dumps(self.actions[action])})

        def _apply_actions(self, chosen: list[int]) -> None:
            mover = game.to_move(self.state)
            assert game.joint is not None
            parts = tuple(self.actions[chosen[s]] for s in mover.seats)
            self._play(game.joint(self.state, parts),
                       {s: game.dumps(self.actions[chosen[s]]) for s in mover.seats})

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                return f"chance {action}"
            if action == len(self.actions):
                return "no part"
            return str(game.dumps(self.actions[action]))

        def returns(self) -> list[float]:
            outcome = game.outcome(self.state) if self.is_terminal() else None
            if outcome is None:  # playing, or truncated: undecided
                return [0.0] * self.players
            return list(rewards_of(outcome, self.players))

        def __str__(self) -> str:
            return str(game.render(self.state))

    CopaGame.__name__ = CopaState.__name__ = f"Copa{game.name.title()}"
    pyspiel.register_game(game_type, CopaGame)
    return CopaGame


@attrs.frozen
class _Table:
    """What every state of one game instance shares: a clone shares it too."""

    players: int
    actions: tuple[Any, ...]
    index: dict[Any, int]
    limit: int

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return self


@attrs.frozen
class _Trail:
    """A state and how the game came to it: the trail before, and what each seat chose on
    the way here (the seats' information states are read along it, lazily)."""

    before: _Trail | None
    state: Any
    chosen: dict[int, str]
    texts: dict[int, str] = attrs.field(factory=dict, eq=False, repr=False)
    """Each seat's observation text here, once asked for (a cache)."""
    recalled: dict[int, tuple[str, ...]] = attrs.field(factory=dict, eq=False, repr=False)
    """Each seat's information state here as lines, once asked for (a cache)."""

    def observation(self, game: Game[Any, Any, Any, Any], seat: int) -> str:
        text = self.texts.get(seat)
        if text is None:
            text = self.texts[seat] = game.dumps(game.observe(self.state, Seat(seat)))
        return text

    def information(self, game: Game[Any, Any, Any, Any], seat: int) -> str:
        return "\n".join(self.lines(game, seat))

    def lines(self, game: Game[Any, Any, Any, Any], seat: int) -> tuple[str, ...]:
        """*seat*'s information state as lines, from the nearest trail that has them."""
        todo: list[_Trail] = []
        trail: _Trail | None = self
        while trail is not None and seat not in trail.recalled:
            todo.append(trail)
            trail = trail.before
        lines = () if trail is None else trail.recalled[seat]
        for trail in reversed(todo):
            if seat in trail.chosen:
                lines = (*lines, f"I chose {trail.chosen[seat]}")
            text = trail.observation(game, seat)
            if not lines or lines[-1] != text:
                lines = (*lines, text)
            trail.recalled[seat] = lines
        return lines

    def path(self) -> list[_Trail]:
        """The trails from the start to this one."""
        found: list[_Trail] = []
        trail: _Trail | None = self
        while trail is not None:
            found.append(trail)
            trail = trail.before
        return found[::-1]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Trail:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled flat (a long game's trail would nest too deep)."""
        return _unpath, ([(t.state, t.chosen) for t in self.path()],)


def _unpath(steps: list[tuple[Any, dict[int, str]]]) -> _Trail:
    trail: _Trail | None = None
    for state, chosen in steps:
        trail = _Trail(trail, state, chosen)
    assert trail is not None
    return trail


@attrs.frozen
class _Held:
    """A state's values, immutable: a clone shares them (``deepcopy`` gives the same)."""

    trail: _Trail
    prefix: tuple[int, ...]
    length: int
    """The actions applied so far, chance steps included (OpenSpiel's game length)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return self


class _Observer:
    """A seat's observation: the string is the canonical JSON of ``observe``, or with
    perfect recall its information state (strings only); the tensor is that JSON text's
    UTF-8 bytes, zero-padded to :data:`~copa_ref.adapters.OBSERVATION_BYTES`."""

    def __init__(self, game: Game[Any, Any, Any, Any], perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor: Any = None if perfect_recall else np.zeros(OBSERVATION_BYTES, np.float32)
        self.dict: dict[str, Any] = {} if perfect_recall else {"observation": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        if self.tensor is None:
            return  # no information-state tensor: a history of unbounded length
        text = state.observation_text(player)
        self.tensor[:] = np.frombuffer(padded(text), dtype=np.uint8)

    def string_from(self, state: Any, player: int) -> str:
        if self.perfect_recall:
            return str(state.information_text(player))
        return str(state.observation_text(player))
