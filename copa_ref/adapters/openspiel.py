"""Every game of the reference as an OpenSpiel Python game, after an explicit
:func:`~copa_ref.adapters.openspiel.register`.

The example, the parameters and each game's tensor layout and action ids are in the
documentation (``docs/adapters``).

Written as OpenSpiel's own Python games are (``open_spiel/python/games/kuhn_poker.py``): a
``pyspiel.Game`` subclass and a ``pyspiel.State`` subclass (:class:`CopaGame`,
:class:`CopaState`, with each game's own pair at module level, :class:`CopaKalaGame` and
:class:`CopaKalaState` and so on), the registered types in ``_GAME_TYPE``, registered
with ``pyspiel.register_game``; games and states pickle (an unpickled one registers its
game first).

Game ``copa_ref_<name>`` plays the registered game ``<name>``; its game parameters are the
options of the game's ``Config`` (:func:`copa_ref.adapters.parameters`), decoded and checked
by the game's JSON config codec, and the adapter's own: :data:`LENGTH` (a truncation),
:data:`INITIAL` (start from a given position) and, for a game dealt in rounds (Copas, Kopa),
:data:`ONE_DEAL` (the episode is one deal). A loaded game's ``config`` is the ``Config``
value, a state's ``state`` the reference's state.

Integer action ``i`` is the ``i``-th **seat-independent** action
(:class:`~copa_ref.adapters.tensors.ActionIds`: a card is one id whatever seat plays it),
named by ``action_to_string``. A game with a joint node (DA CAPO) is a simultaneous-move
game; a seat with no part to play there (one that is out) has the single action
``num_distinct_actions() - 1``, "no part". At an any-of node (HOPPER's shoot-out) the lowest
listed seat with a legal action is the current player.

Chance nodes list their outcomes with exact probabilities (as floats): a game with a
``chance_step(state, prefix)`` function is dealt in small steps (Copas one card at a time,
RONDA one cup at a time), a game with ``chance_outcomes(state)`` has chance action ``k`` for
the ``k``-th outcome listed there.

Observations are built from ``observe(state, seat)`` alone, so they reveal nothing the seat
may not know: the observation tensor is the game's feature layout
(:mod:`copa_ref.adapters.tensors`), the observation string the canonical JSON of the view;
the information-state tensor (where the game gives one) adds the seat's bounded memory, and
the information-state string is a compact text of the view and that memory.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, ClassVar

import attrs
import numpy as np
import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no type hints

from copa_ref.adapters import (
    Returns,
    config_from_parameters,
    dealt_in_rounds,
    default_truncation,
    episode_over,
    parameters,
    returns_scheme,
    rules_function,
)
from copa_ref.adapters.tensors import ActionIds, Encoder, LegalIds, encoder, tables
from copa_ref.core import Game
from copa_ref.core.entry import carry_mark
from copa_ref.core.types import MoverKind, Seat, ToMove

__all__ = ["INITIAL", "LENGTH", "MAX_CHANCE_OUTCOMES", "MAX_GAME_LENGTH", "ONE_DEAL",
           "CopaCopasGame", "CopaCopasState", "CopaDaCapoGame", "CopaDaCapoState",
           "CopaGame", "CopaHopperGame", "CopaHopperState", "CopaKalaGame",
           "CopaKalaState", "CopaKopaGame", "CopaKopaState", "CopaRondaGame",
           "CopaRondaState", "CopaState", "class_title", "classes", "game_type", "register",
           "short_name", "specification"]

MAX_CHANCE_OUTCOMES = 256
"""The chance action ids every game's chance nodes stay below."""
MAX_GAME_LENGTH = 100_000
"""The declared bound on a game's length (chance steps included), as
:data:`copa_ref.core.loop.MAX_STEPS`: several games have no bound of their own."""

LENGTH = "max_game_length"
"""The adapter's own game parameter: truncate the game after this many actions, chance
steps included; 0 is no limit (:data:`MAX_GAME_LENGTH` is declared). Not a rule: a truncated
game is terminal with every return 0 (undecided). Kopa's default is
:data:`~copa_ref.adapters.TRUNCATED_LENGTH`, as its random play need not end."""
ONE_DEAL = "one_deal"
"""The adapter's own flag for a game dealt in rounds (Copas, Kopa): the episode ends when the
deal it starts in is booked (:func:`~copa_ref.adapters.episode_over`: a Copas deal whose ten
are pending runs on through its bonus round), with the points booked as returns
(:func:`~copa_ref.adapters.returns_scheme`)."""
INITIAL = "initial_state"
"""The adapter's own parameter: the canonical JSON text of a reference state (``;`` for
``,``) to start from instead of the game's start ("" for the start); its config must be
the game's."""

_TERMINAL = -4  # pyspiel.PlayerId values, as plain ints (faster than the enum each time)
_UNKNOWN = -100  # no player id: the current player not worked out yet
_CHANCE = -1
_SIMULTANEOUS = -2
_SEAT, _CHANCE_NODE, _JOINT, _NOBODY = (MoverKind.SEAT, MoverKind.CHANCE, MoverKind.JOINT,
                                       MoverKind.NOBODY)

_GAME_TYPE: dict[str, Any] = {}
"""Each registered game's ``pyspiel.GameType`` (under its default config), by OpenSpiel
name: what ``_GAME_TYPE`` is in one of OpenSpiel's Python games, filled by
:func:`register`. A loaded game's type and ``GameInfo`` follow its parameters (the
players, the action ids and the returns depend on the config)."""


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
        if name not in _GAME_TYPE:
            game_class, _ = classes(game)
            _GAME_TYPE[name] = game_type(game, returns_scheme(game, game.default_config(),
                                                              False, 0))
            pyspiel.register_game(_GAME_TYPE[name], game_class)
        names.append(name)
    return tuple(names)


def specification(game: Game[Any, Any, Any, Any]) -> dict[str, Any]:
    """*game*'s parameter specification: its config options
    (:func:`~copa_ref.adapters.parameters`) and the adapter's own, with their defaults."""
    found: dict[str, Any] = dict(parameters(game))
    for own in (LENGTH, ONE_DEAL, INITIAL):
        if own in found:
            msg = f"{game.title}: a config option is named {own}"
            raise ValueError(msg)
    found[LENGTH] = default_truncation(game) or 0
    found[INITIAL] = ""
    if dealt_in_rounds(game):
        found[ONE_DEAL] = False
    return found


def game_type(game: Game[Any, Any, Any, Any], scheme: Returns) -> Any:
    """*game*'s ``pyspiel.GameType``, its utility from *scheme*."""
    facts = game.facts
    simultaneous = game.joint is not None
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"copa-ref {game.title}",
        dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous
                  else pyspiel.GameType.Dynamics.SEQUENTIAL),
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if facts.chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION
                     if facts.hidden_information or simultaneous
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=getattr(pyspiel.GameType.Utility, scheme.utility),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=facts.max_players,
        min_num_players=facts.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=encoder(
            game, game.default_config()).information is not None,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=specification(game),
    )


class CopaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel.Game is untyped
    """A game of the reference as an OpenSpiel game. Each game has its subclass
    (:class:`CopaKalaGame`, …) that names it (:attr:`name`); its ``config`` is the
    ``Config`` value its parameters stand for."""

    name: ClassVar[str]
    """The reference game's registry name."""
    state_class: ClassVar[type[CopaState]]

    def __init__(self, params: Any = None) -> None:
        from copa_ref.games import get_game

        game = get_game(self.name)
        given = dict(params or {})
        spec = specification(game)
        limit = int(given.pop(LENGTH, spec[LENGTH]))
        one_deal = bool(given.pop(ONE_DEAL, False))
        initial = str(given.pop(INITIAL, ""))
        if limit < 0:
            msg = f"{game.title}: {LENGTH} must be 0 (none) or positive, not {limit}"
            raise ValueError(msg)
        self.config = config_from_parameters(game, given)
        start = game.new_game(self.config)
        if initial:
            start = game.state_from_json(game.loads(initial.replace(";", ","), dict))
            game.check_state(start)
            game.to_move(start)  # marked checked: the inner functions may take it
            if start.config != self.config:
                msg = f"{game.title}: {INITIAL} has another config than the parameters"
                raise ValueError(msg)
        players = game.num_players(self.config)
        coder, ids = tables(game, self.config)
        scheme = returns_scheme(game, self.config, one_deal, limit or MAX_GAME_LENGTH)
        simultaneous = game.joint is not None
        game_info = pyspiel.GameInfo(
            num_distinct_actions=len(ids) + (1 if simultaneous else 0),
            max_chance_outcomes=MAX_CHANCE_OUTCOMES if game.facts.chance else 0,
            num_players=players,
            min_utility=scheme.low,
            max_utility=scheme.high,
            utility_sum=scheme.total,
            max_game_length=limit or MAX_GAME_LENGTH,
        )
        normalised = {**parameters(game, self.config), LENGTH: limit, INITIAL: initial}
        if ONE_DEAL in spec:
            normalised[ONE_DEAL] = one_deal
        super().__init__(game_type(game, scheme), game_info, normalised)
        self.table = _Table(game, players, ids, limit, coder, one_deal, scheme, start,
                            str(self))

    def new_initial_state(self) -> CopaState:
        """The state at the game's start (or at its ``initial_state``)."""
        return self.state_class(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """A seat's observation, or with perfect recall its information state."""
        if params:
            msg = (f"{self.table.game.title}: observation parameters are not supported, "
                   f"got {params}")
            raise ValueError(msg)
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self.table.coder, perfect_recall)

    def __setstate__(self, data: Any) -> None:
        """Unpickled by its game string: its game registered first (a new process)."""
        _register_name(self.name)
        super().__setstate__(data)


class CopaState(pyspiel.State):  # type: ignore[misc]  # pyspiel.State is untyped
    """A state of a :class:`CopaGame`: ``state`` is the reference's state. The values,
    immutable, are shared by clones rather than copied (``_Held``)."""

    name: ClassVar[str]
    """The reference game's registry name."""
    __slots__ = ("_held", "table")
    """``table``: the game's ``_Table``, set by ``__init__``, so a clone's too: OpenSpiel's
    ``Clone`` makes a new state and deep-copies each attribute in ``__dict__``, and
    ``held`` is the one there (a depth-3 tree walk on one-deal Copas 1.04x as fast, min
    1.03, max 1.10, 6 rounds interleaved). ``_held``: the same values as ``held``, read
    from a slot (several times a step; an attribute in pyspiel's ``__dict__`` takes the
    slow path); :attr:`held`'s setter writes both."""

    def __init__(self, game: CopaGame) -> None:
        super().__init__(game)
        self.table: _Table = game.table
        start = self.table.start
        self.held = _Held(_Trail(None, start, None), (), 0,
                          start.round if self.table.rounds else 0)

    @property
    def held(self) -> _Held:
        """The state's values (shared by clones: immutable, but for their caches)."""
        return self._held

    @held.setter
    def held(self, held: _Held) -> None:
        """Set the values, with the current player worked out (once a state: OpenSpiel
        asks for it several times a step): in ``__dict__`` too, which OpenSpiel's ``Clone``
        copies to a new state and its ``Serialize`` pickles (both write ``held`` back, so
        through here)."""
        self._held = held
        self.__dict__["held"] = held
        if held.player == _UNKNOWN:
            held.player = self._find_player()

    @property
    def players(self) -> int:
        return self.table.players

    @property
    def state(self) -> Any:
        return self._held.trail.state

    @property
    def prefix(self) -> tuple[int, ...]:
        return self._held.prefix

    @property
    def truncated(self) -> bool:
        """Whether the adapter's ``max_game_length`` cut the game short (not a rule)."""
        return bool(self.table.limit) and self._held.length >= self.table.limit

    @property
    def deal_over(self) -> bool:
        """With :data:`ONE_DEAL`: whether the deal the episode started in is scored."""
        if not self.table.one_deal:
            return False
        return episode_over(self._held.trail.state, self._held.round)

    def observation_text(self, seat: int) -> str:
        """The canonical JSON of ``observe(state, seat)``."""
        game = self.table.game
        return game.dumps(self._held.trail.view(game, seat))

    def information_text(self, seat: int) -> str:
        """The compact text of *seat*'s view and memory."""
        trail, coder, game = self._held.trail, self.table.coder, self.table.game
        memory = trail.memory(game, coder, seat) if coder.remembers else None
        return (f"p{seat} {coder.brief(trail.view(game, seat), seat)}"
                f"{coder.brief_memory(memory)}")

    # -- who acts: worked out once per state (OpenSpiel asks several times a step) ---------

    def _mover(self) -> ToMove:
        held = self._held
        mover = held.mover
        if mover is None:
            mover = held.mover = self.table.to_move(held.trail.state)
        return mover

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance, simultaneous or terminal player (worked
        out once, when the state takes its values: ``_find_player``)."""
        return self._held.player

    def _find_player(self) -> int:
        """:meth:`current_player`'s answer in the values just set."""
        held, table = self._held, self.table
        if (table.limit and held.length >= table.limit) or (
                table.one_deal and episode_over(held.trail.state, held.round)):
            player = _TERMINAL  # cut short (truncated), or the deal is booked (one deal)
        else:
            mover = self._mover()
            kind = mover.kind
            if kind is _SEAT:
                player = int(mover.seats[0])
            elif kind is _CHANCE_NODE:
                player = _CHANCE
            elif kind is _JOINT:
                player = _SIMULTANEOUS
            elif kind is _NOBODY:
                player = _TERMINAL
            else:  # any of the seats: the lowest one with a legal action
                able = [s for s in mover.seats if self._entry(s).ids]
                player = int(able[0] if able else mover.seats[0])
        return player

    def is_terminal(self) -> bool:
        return self._held.player == _TERMINAL

    def is_chance_node(self) -> bool:
        """OpenSpiel's own test (the current player is chance), without the round trip
        through C++ and back for the current player."""
        return self._held.player == _CHANCE

    def is_simultaneous_node(self) -> bool:
        """OpenSpiel's own test (the current player is the simultaneous one), without the
        round trip through C++."""
        return self._held.player == _SIMULTANEOUS

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``legal_actions``; the usual calls, the current player's own at a
        decision node and a seat's own at a simultaneous node, answered here without the
        round trip through C++ (OpenSpiel's random play on KALA 1.21x as fast, min 1.15,
        max 1.59; on DA CAPO the simultaneous call 1.31x more, min 1.27, max 2.10; rounds
        interleaved); every other call is OpenSpiel's own."""
        current = self._held.player
        if current >= 0 and (player is None or player == current):
            return list(self._entry(current).ids)
        if current == _SIMULTANEOUS and player is not None and player >= 0:
            return self._legal_actions(player)  # each seat's own at a joint node
        if player is None:
            found: list[int] = pyspiel.State.legal_actions(self)
        else:
            found = pyspiel.State.legal_actions(self, player)
        return found

    def _legal_actions(self, player: int) -> list[int]:
        """*player*'s legal ids at a decision node (OpenSpiel asks for the current player,
        and at a simultaneous node for each): a seat with no part to play at a joint node
        has the one action "no part"."""
        if self._held.player == _SIMULTANEOUS and player not in self._mover().seats:
            return [len(self.table.ids)]
        return list(self._entry(player).ids)

    def _entry(self, seat: int) -> LegalIds:
        """*seat*'s legal actions at a decision node, by id (kept for the state)."""
        held = self._held
        entry = held.legal.get(seat)
        if entry is None:
            table = self.table  # at a one-seat node the mover's, at another the seat's own
            entry = held.legal[seat] = table.ids.legal(table.legal_of(
                held.trail.state,
                None if (held.mover or self._mover()).kind is _SEAT else Seat(seat)))
        return entry

    # -- chance --------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes here, as (id, probability): the steps of a
        ``chance_step`` game's deal, else the ``k``-th outcome of ``chance_outcomes``."""
        held = self._held
        listed = held.outcomes  # kept for the state: OpenSpiel asks more than once
        if listed is None:
            outcomes = self.table.outcomes(self.state, self.prefix)
            listed = held.outcomes = tuple((k, float(p)) for k, p in outcomes)
            held.outcome_ids = frozenset(k for k, _ in listed)
        return list(listed)

    # -- moves ---------------------------------------------------------------------------

    def _play(self, action: Any, public: Any, produced: bool) -> None:
        """Apply *action*: through the game's inner ``apply`` when the game produced it
        for this state (its legal actions, its joint), else the public, checked one."""
        held, table = self._held, self.table
        trail = held.trail
        before = trail.state
        if produced:
            after = table.apply(before, action)
            carry_mark(before, after)  # built from a checked state: valid
        else:
            after = table.game.apply(before, action)
        self.held = _Held(_Trail(trail, after, public), (), held.length + 1, held.round)

    def _apply_action(self, action: int) -> None:
        player = self._held.player
        if player == _CHANCE:
            self._chance(action)
            return
        chosen = self._entry(player).by_id.get(action) if player >= 0 else None
        if chosen is None:
            msg = (f"{self.table.game.title}: action {action} "
                   f"({self._action_to_string(player, action)}) is not legal for "
                   f"player {player}")
            raise ValueError(msg)
        self._play(chosen, chosen, True)

    def _chance(self, action: int) -> None:
        held, table = self._held, self.table
        if held.outcome_ids is None:
            self.chance_outcomes()
        if action not in held.outcome_ids:  # type: ignore[operator]  # set just above
            msg = (f"{table.game.title}: chance outcome {action} is not one of those "
                   "listed here")
            raise ValueError(msg)
        if table.chance_step is None:
            assert table.game.chance_outcomes is not None
            self._play(table.game.chance_outcomes(self.state)[action][0], None, False)
            return
        prefix = (*held.prefix, action)
        step = table.chance_step(self.state, prefix)
        if isinstance(step, tuple):  # the deal goes on: a step of it
            self.held = _Held(held.trail, prefix, held.length + 1, held.round, held.mover)
        else:
            self._play(step, None, False)

    def _apply_actions(self, chosen: list[int]) -> None:
        table = self.table
        mover = self._mover()
        found = [self._entry(s).by_id.get(chosen[s]) for s in mover.seats]
        if table.joint is not None and None not in found:
            joint = table.joint(self.state, tuple(found))
            self._play(joint, joint, True)
            return
        # a part not legal: the public joint names the rule it breaks
        assert table.game.joint is not None
        parts = tuple(table.ids.action(chosen[s], s) for s in mover.seats)
        joint = table.game.joint(self.state, parts)
        self._play(joint, joint, False)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"chance {action}"
        names = self.table.ids.names
        if action == len(names):
            return "no part"
        return names[action] if 0 <= action < len(names) else "no such id"

    def returns(self) -> list[float]:
        if self.current_player() != _TERMINAL:
            return [0.0] * self.players
        table = self.table
        return list(table.scheme.returns(table.game, self.state, self.deal_over,
                                         table.start))

    def __str__(self) -> str:
        return str(self.table.game.render(self.state))

    def __setstate__(self, data: Any) -> None:
        """Unpickled with its game string: its game registered first (a new process);
        ``held`` comes back in ``__dict__`` (its slot read from there), the table from the
        game."""
        _register_name(self.name)
        super().__setstate__(data)
        self.table = self.get_game().table
        self.held = self.__dict__["held"]


def _register_name(name: str) -> None:
    from copa_ref.games import get_game

    register({name: get_game(name)})


# Each game's own classes, as OpenSpiel's Python games have theirs (they pickle by name).


class CopaKalaState(CopaState):
    """A KALA state."""

    name = "kala"


class CopaKalaGame(CopaGame):
    """KALA as an OpenSpiel game."""

    name = "kala"
    state_class = CopaKalaState


class CopaRondaState(CopaState):
    """A RONDA state."""

    name = "ronda"


class CopaRondaGame(CopaGame):
    """RONDA as an OpenSpiel game."""

    name = "ronda"
    state_class = CopaRondaState


class CopaHopperState(CopaState):
    """A HOPPER state."""

    name = "hopper"


class CopaHopperGame(CopaGame):
    """HOPPER as an OpenSpiel game."""

    name = "hopper"
    state_class = CopaHopperState


class CopaDaCapoState(CopaState):
    """A DA CAPO state."""

    name = "da_capo"


class CopaDaCapoGame(CopaGame):
    """DA CAPO as an OpenSpiel game."""

    name = "da_capo"
    state_class = CopaDaCapoState


class CopaKopaState(CopaState):
    """A Kopa state."""

    name = "kopa"


class CopaKopaGame(CopaGame):
    """Kopa as an OpenSpiel game."""

    name = "kopa"
    state_class = CopaKopaState


class CopaCopasState(CopaState):
    """A Copas state."""

    name = "copas"


class CopaCopasGame(CopaGame):
    """Copas as an OpenSpiel game."""

    name = "copas"
    state_class = CopaCopasState


def class_title(game: Game[Any, Any, Any, Any]) -> str:
    """The stem of *game*'s class names here: ``CopaDaCapo`` (``CopaDaCapoGame``,
    ``CopaDaCapoState``)."""
    return "Copa" + "".join(part.title() for part in game.name.split("_"))


def classes(game: Game[Any, Any, Any, Any]) -> tuple[type[CopaGame], type[CopaState]]:
    """*game*'s game and state classes: the module's own for a game of the reference,
    else two made for it (named the same way)."""
    title = class_title(game)
    found = globals().get(f"{title}Game"), globals().get(f"{title}State")
    if found[0] is not None and found[1] is not None:
        return found[0], found[1]
    state_class = type(f"{title}State", (CopaState,), {"name": game.name})
    game_class = type(f"{title}Game", (CopaGame,),
                      {"name": game.name, "state_class": state_class})
    return game_class, state_class


@attrs.frozen
class _Table:
    """What every state of one game instance shares: a clone shares it too."""

    game: Game[Any, Any, Any, Any]
    players: int
    ids: ActionIds
    limit: int
    coder: Encoder
    one_deal: bool
    scheme: Returns
    start: Any
    """The game's first state (a one-deal episode's returns count from its scores)."""
    loaded: str
    """The game's string (``copa_ref_kala(...)``): a pickled table is the loaded game's."""
    rounds: bool = attrs.field(init=False)
    """Whether the game is dealt in rounds (one-deal episodes)."""
    chance_step: Callable[..., Any] | None = attrs.field(init=False)
    # The game's inner functions, for the states the game built and the actions it listed
    # for them (as the generic loop calls them); the states they build are marked checked.
    to_move: Callable[[Any], ToMove] = attrs.field(init=False)
    legal_of: Callable[..., Any] = attrs.field(init=False)
    apply: Callable[[Any, Any], Any] = attrs.field(init=False)
    joint: Callable[[Any, Any], Any] | None = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        inner = self.game.trusted
        for name, value in (("rounds", dealt_in_rounds(self.game)),
                            ("chance_step", rules_function(self.game, "chance_step")),
                            ("to_move", inner.to_move), ("legal_of", inner.legal_actions),
                            ("apply", inner.apply), ("joint", inner.joint)):
            object.__setattr__(self, name, value)

    def outcomes(self, state: Any,
                 prefix: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
        """The chance outcomes at *state* after the deal's steps *prefix*.

        :raises ValueError: for a game that lists none, or an id outside the chance ids.
        """
        game = self.game
        if self.chance_step is not None:
            step = self.chance_step(state, prefix)
            if not isinstance(step, tuple):
                msg = f"{game.title}: chance_step gave an action for an open prefix"
                raise ValueError(msg)
            found: tuple[tuple[int, Fraction], ...] = step
        elif game.chance_outcomes is None:
            msg = f"{game.title} has chance nodes but no chance_step or chance_outcomes"
            raise ValueError(msg)
        else:
            found = tuple((k, p) for k, (_, p) in enumerate(game.chance_outcomes(state)))
        if any(not 0 <= k < MAX_CHANCE_OUTCOMES for k, _ in found):
            msg = f"{game.title}: a chance id outside 0..{MAX_CHANCE_OUTCOMES - 1}"
            raise ValueError(msg)
        return found

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the game's string: the unpickled state shares its game's table."""
        return _table_of, (self.loaded,)


def _table_of(loaded: str) -> _Table:
    table: _Table = pyspiel.load_game(loaded).table
    return table


class _Trail:
    """A state and how the game came to it: the trail before and the public action that
    led here (``None`` after chance); the seats' views and memories are read lazily."""

    __slots__ = ("action", "before", "memories", "state", "views")

    def __init__(self, before: _Trail | None, state: Any, action: Any) -> None:
        self.before = before
        self.state = state
        self.action = action
        self.views: dict[int, Any] | None = None
        """Each seat's observation here, once asked for (a cache)."""
        self.memories: dict[int, Any] | None = None
        """Each seat's memory here, once asked for (a cache)."""

    def view(self, game: Game[Any, Any, Any, Any], seat: int) -> Any:
        views = self.views
        if views is None:
            views = self.views = {}
        found = views.get(seat)
        if found is None:
            found = views[seat] = game.observe(self.state, Seat(seat))
        return found

    def memory(self, game: Game[Any, Any, Any, Any], coder: Encoder, seat: int) -> Any:
        """*seat*'s memory here, folded from the nearest trail that has it."""
        todo: list[_Trail] = []
        trail: _Trail | None = self
        while trail is not None and (trail.memories is None or seat not in trail.memories):
            todo.append(trail)
            trail = trail.before
        memory = None if trail is None or trail.memories is None else trail.memories[seat]
        for trail in reversed(todo):
            if trail.before is not None:
                memory = coder.remember(memory, trail.before.view(game, seat), trail.action,
                                        trail.view(game, seat), seat)
            if trail.memories is None:
                trail.memories = {}
            trail.memories[seat] = memory
        return memory

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
        return _unpath, ([(t.state, t.action) for t in self.path()],)


def _unpath(steps: list[tuple[Any, Any]]) -> _Trail:
    trail: _Trail | None = None
    for state, action in steps:
        trail = _Trail(trail, state, action)
    assert trail is not None
    return trail


class _Held:
    """A state's values: a clone shares them (``deepcopy`` gives the same); only its caches
    are filled in later, each once: who moves and the current player when a state takes
    the values, the legal ids and chance outcomes when first asked for."""

    __slots__ = ("legal", "length", "mover", "outcome_ids", "outcomes", "player", "prefix",
                 "round", "trail")

    def __init__(self, trail: _Trail, prefix: tuple[int, ...], length: int, round: int,
                 mover: ToMove | None = None) -> None:
        self.trail = trail
        self.prefix = prefix
        self.length = length
        """The actions applied so far, chance steps included (OpenSpiel's game length)."""
        self.round = round
        """The round the episode started in (for :data:`ONE_DEAL`)."""
        self.mover = mover
        self.player = _UNKNOWN
        """The current player (:meth:`CopaState.current_player`), worked out when a state
        takes these values."""
        self.legal: dict[int, LegalIds] = {}
        self.outcomes: tuple[tuple[int, float], ...] | None = None
        """The chance outcomes here, once asked for."""
        self.outcome_ids: frozenset[int] | None = None
        """Their ids (a chance action must be one)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled without its caches."""
        return _Held, (self.trail, self.prefix, self.length, self.round)


class _Observer:
    """A seat's observation (or, with perfect recall, its information state): the tensor in
    the game's layout, its segments as ``dict``; the string the canonical JSON of the view
    (or the compact information-state text)."""

    def __init__(self, coder: Encoder, perfect_recall: bool) -> None:
        self.coder = coder
        self.perfect_recall = perfect_recall
        layout = coder.information if perfect_recall else coder.observation
        self.layout = layout
        self.tensor: Any = None if layout is None else np.zeros(layout.size, np.float32)
        self.dict: dict[str, Any] = {} if layout is None else dict(layout.views(self.tensor))

    def set_from(self, state: Any, player: int) -> None:
        if self.tensor is None:
            return  # no information-state tensor: the observation is the whole position
        self.tensor.fill(0.0)
        trail = state.held.trail
        view = trail.view(state.table.coder.game, player)
        if self.perfect_recall:
            coder = self.coder
            memory = trail.memory(coder.game, coder, player) if coder.remembers else None
            coder.encode_information(view, memory, player, self.tensor)
        else:
            self.coder.encode(view, player, self.tensor)

    def string_from(self, state: Any, player: int) -> str:
        if self.perfect_recall:
            return str(state.information_text(player))
        return str(state.observation_text(player))
