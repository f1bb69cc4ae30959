"""Every game of the reference as an OpenSpiel Python game, after an explicit
:func:`~copa_ref.adapters.openspiel.register`.

The example, the parameters and each game's tensor layout and action ids are in the
documentation (``docs/adapters``).

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

from fractions import Fraction
from typing import Any

import attrs
import numpy as np
import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no type hints

from copa_ref.adapters import (
    Returns,
    action_space,
    config_from_parameters,
    default_truncation,
    parameters,
    returns_scheme,
    rules_function,
)
from copa_ref.adapters.tensors import ActionIds, Encoder, encoder
from copa_ref.core import Game
from copa_ref.core.types import MoverKind, Seat, ToMove

__all__ = ["INITIAL", "LENGTH", "MAX_CHANCE_OUTCOMES", "MAX_GAME_LENGTH", "ONE_DEAL",
           "register", "short_name"]

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
deal it starts in is scored, with that deal's scores as returns
(:func:`~copa_ref.adapters.returns_scheme`)."""
INITIAL = "initial_state"
"""The adapter's own parameter: the canonical JSON text of a reference state (``;`` for
``,``) to start from instead of the game's start ("" for the start); its config must be
the game's."""

_REGISTERED: dict[str, Any] = {}

_TERMINAL = -4  # pyspiel.PlayerId values, as plain ints (faster than the enum each time)
_CHANCE = -1
_SIMULTANEOUS = -2


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


def dealt_in_rounds(game: Game[Any, Any, Any, Any]) -> bool:
    """Whether *game*'s states count rounds and score each (``round`` and ``last_round``):
    the games that take :data:`ONE_DEAL`."""
    fields = attrs.fields_dict(game.state_type)
    return "round" in fields and "last_round" in fields


def _make(game: Game[Any, Any, Any, Any]) -> Any:
    facts = game.facts
    simultaneous = game.joint is not None
    hidden = facts.hidden_information or simultaneous
    rounds = dealt_in_rounds(game)
    specification: dict[str, Any] = dict(parameters(game))
    for own in (LENGTH, ONE_DEAL, INITIAL):
        if own in specification:
            msg = f"{game.title}: a config option is named {own}"
            raise ValueError(msg)
    specification[LENGTH] = default_truncation(game) or 0
    specification[INITIAL] = ""
    if rounds:
        specification[ONE_DEAL] = False
    probe = encoder(game, game.default_config())
    chance_step = rules_function(game, "chance_step")

    def game_type(scheme: Returns) -> Any:
        return pyspiel.GameType(
            short_name=short_name(game),
            long_name=f"copa-ref {game.title}",
            dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous
                      else pyspiel.GameType.Dynamics.SEQUENTIAL),
            chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if facts.chance
                         else pyspiel.GameType.ChanceMode.DETERMINISTIC),
            information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                         else pyspiel.GameType.Information.PERFECT_INFORMATION),
            utility=getattr(pyspiel.GameType.Utility, scheme.utility),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=facts.max_players,
            min_num_players=facts.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=probe.information is not None,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=specification,
        )

    registered_type = game_type(returns_scheme(game, game.default_config(), False, 0))

    class CopaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel.Game is untyped
        def __init__(self, params: Any = None) -> None:
            given = dict(params or {})
            limit = int(given.pop(LENGTH, specification[LENGTH]))
            one_deal = bool(given.pop(ONE_DEAL, False))
            initial = str(given.pop(INITIAL, ""))
            if limit < 0:
                msg = f"{game.title}: {LENGTH} must be 0 (none) or positive, not {limit}"
                raise ValueError(msg)
            self.config = config_from_parameters(game, given)
            self.start = game.new_game(self.config)
            if initial:
                self.start = game.state_from_json(game.loads(initial.replace(";", ","), dict))
                game.check_state(self.start)
                if self.start.config != self.config:
                    msg = f"{game.title}: {INITIAL} has another config than the parameters"
                    raise ValueError(msg)
            self.limit = limit
            self.one_deal = one_deal
            self.players = game.num_players(self.config)
            self.coder: Encoder = encoder(game, self.config)
            self.ids = ActionIds(action_space(game, self.config), self.players, self.coder)
            self.scheme = returns_scheme(game, self.config, one_deal, limit or MAX_GAME_LENGTH)
            game_info = pyspiel.GameInfo(
                num_distinct_actions=len(self.ids) + (1 if simultaneous else 0),
                max_chance_outcomes=MAX_CHANCE_OUTCOMES if facts.chance else 0,
                num_players=self.players,
                min_utility=self.scheme.low,
                max_utility=self.scheme.high,
                utility_sum=self.scheme.total,
                max_game_length=limit or MAX_GAME_LENGTH,
            )
            normalised = {**parameters(game, self.config), LENGTH: limit, INITIAL: initial}
            if rounds:
                normalised[ONE_DEAL] = one_deal
            super().__init__(game_type(self.scheme), game_info, normalised)

        def new_initial_state(self) -> Any:
            return CopaState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            if params:
                msg = f"{game.title}: observation parameters are not supported, got {params}"
                raise ValueError(msg)
            perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return _Observer(self.coder, perfect_recall)

    class CopaState(pyspiel.State):  # type: ignore[misc]  # pyspiel.State is untyped
        def __init__(self, py_game: Any) -> None:
            super().__init__(py_game)
            self.table = _Table(py_game.players, py_game.ids, py_game.limit, py_game.coder,
                                py_game.one_deal, py_game.scheme)
            start = py_game.start
            self.held = _Held(_Trail(None, start, None), (), 0,
                              start.round if rounds else 0)

        # The values, immutable, are shared by clones rather than copied.

        @property
        def players(self) -> int:
            return self.table.players

        @property
        def state(self) -> Any:
            return self.held.trail.state

        @property
        def prefix(self) -> tuple[int, ...]:
            return self.held.prefix

        @property
        def truncated(self) -> bool:
            """Whether the adapter's ``max_game_length`` cut the game short (not a rule)."""
            return bool(self.table.limit) and self.held.length >= self.table.limit

        @property
        def deal_over(self) -> bool:
            """With :data:`ONE_DEAL`: whether the deal the episode started in is scored."""
            if not self.table.one_deal:
                return False
            state = self.held.trail.state
            return bool(state.round != self.held.round)

        def observation_text(self, seat: int) -> str:
            """The canonical JSON of ``observe(state, seat)``."""
            return game.dumps(self.held.trail.view(game, seat))

        def information_text(self, seat: int) -> str:
            """The compact text of *seat*'s view and memory."""
            trail, coder = self.held.trail, self.table.coder
            memory = trail.memory(game, coder, seat) if coder.remembers else None
            return (f"p{seat} {coder.brief(trail.view(game, seat), seat)}"
                    f"{coder.brief_memory(memory)}")

        # -- who acts --------------------------------------------------------------------

        def _mover(self) -> ToMove:
            held = self.held
            mover = held.mover
            if mover is None:
                mover = held.mover = game.to_move(held.trail.state)
            return mover

        def _over(self) -> bool:
            return (self._mover().kind is MoverKind.NOBODY or self.truncated
                    or self.deal_over)

        def current_player(self) -> int:
            if self._over():
                return _TERMINAL
            mover = self._mover()
            kind = mover.kind
            if kind is MoverKind.SEAT:
                return int(mover.seats[0])
            if kind is MoverKind.CHANCE:
                return _CHANCE
            if kind is MoverKind.JOINT:
                return _SIMULTANEOUS
            able = [s for s in mover.seats if self._legal(s)]
            return int(able[0] if able else mover.seats[0])

        def is_terminal(self) -> bool:
            return self._over()

        def _legal(self, seat: int) -> list[int]:
            """*seat*'s legal action ids at a decision node (kept for the state)."""
            held = self.held
            found = held.legal.get(seat)
            if found is None:
                mover = self._mover()
                which = None if mover.kind is MoverKind.SEAT else Seat(seat)
                number = self.table.ids.id
                found = sorted({number[a] for a in game.legal_actions(held.trail.state, which)})
                held.legal[seat] = found
            return found

        def _legal_actions(self, player: int) -> list[int]:
            if self._over():
                return []
            mover = self._mover()
            if mover.kind is MoverKind.JOINT:
                if player not in mover.seats:
                    return [len(self.table.ids)]
                return list(self._legal(player))
            if player != self.current_player():
                return []
            return list(self._legal(player))

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

        def _play(self, action: Any, public: Any) -> None:
            held = self.held
            after = game.apply(held.trail.state, action)
            self.held = _Held(_Trail(held.trail, after, public), (), held.length + 1,
                              held.round)

        def _apply_action(self, action: int) -> None:
            mover = self._mover()
            if mover.kind is MoverKind.CHANCE:
                if chance_step is None:
                    assert game.chance_outcomes is not None
                    self._play(game.chance_outcomes(self.state)[action][0], None)
                    return
                prefix = (*self.prefix, action)
                step = chance_step(self.state, prefix)
                if isinstance(step, tuple):
                    held = self.held
                    self.held = _Held(held.trail, prefix, held.length + 1, held.round,
                                      held.mover)
                else:
                    self._play(step, None)
                return
            player = self.current_player()
            if action not in self._legal(player):
                msg = (f"{game.title}: action {action} ({self._action_to_string(player, action)})"
                       f" is not legal for player {player}")
                raise ValueError(msg)
            chosen = self.table.ids.action(action, player)
            self._play(chosen, chosen)

        def _apply_actions(self, chosen: list[int]) -> None:
            mover = self._mover()
            assert game.joint is not None
            parts = tuple(self.table.ids.action(chosen[s], s) for s in mover.seats)
            joint = game.joint(self.state, parts)
            self._play(joint, joint)

        def _action_to_string(self, player: int, action: int) -> str:
            if player == _CHANCE:
                return f"chance {action}"
            if action == len(self.table.ids):
                return "no part"
            return self.table.ids.names[action]

        def returns(self) -> list[float]:
            if not self._over():
                return [0.0] * self.players
            return list(self.table.scheme.returns(game, self.state, self.deal_over))

        def __str__(self) -> str:
            return str(game.render(self.state))

    CopaGame.__name__ = CopaState.__name__ = f"Copa{game.name.title()}"
    pyspiel.register_game(registered_type, CopaGame)
    return CopaGame


@attrs.frozen
class _Table:
    """What every state of one game instance shares: a clone shares it too."""

    players: int
    ids: ActionIds
    limit: int
    coder: Encoder
    one_deal: bool
    scheme: Returns

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return self


@attrs.frozen
class _Trail:
    """A state and how the game came to it: the trail before and the public action that
    led here (``None`` after chance); the seats' views and memories are read lazily."""

    before: _Trail | None
    state: Any
    action: Any
    views: dict[int, Any] = attrs.field(factory=dict, eq=False, repr=False)
    """Each seat's observation here, once asked for (a cache)."""
    memories: dict[int, Any] = attrs.field(factory=dict, eq=False, repr=False)
    """Each seat's memory here, once asked for (a cache)."""

    def view(self, game: Game[Any, Any, Any, Any], seat: int) -> Any:
        found = self.views.get(seat)
        if found is None:
            found = self.views[seat] = game.observe(self.state, Seat(seat))
        return found

    def memory(self, game: Game[Any, Any, Any, Any], coder: Encoder, seat: int) -> Any:
        """*seat*'s memory here, folded from the nearest trail that has it."""
        todo: list[_Trail] = []
        trail: _Trail | None = self
        while trail is not None and seat not in trail.memories:
            todo.append(trail)
            trail = trail.before
        memory = None if trail is None else trail.memories[seat]
        for trail in reversed(todo):
            if trail.before is not None:
                memory = coder.remember(memory, trail.before.view(game, seat), trail.action,
                                        trail.view(game, seat), seat)
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


@attrs.define
class _Held:
    """A state's values: a clone shares them (``deepcopy`` gives the same); only its caches
    (who moves, the legal ids) are filled in later."""

    trail: _Trail
    prefix: tuple[int, ...]
    length: int
    """The actions applied so far, chance steps included (OpenSpiel's game length)."""
    round: int
    """The round the episode started in (for :data:`ONE_DEAL`)."""
    mover: ToMove | None = None
    legal: dict[int, list[int]] = attrs.field(factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return self


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
        self.dict: dict[str, Any] = {} if layout is None else layout.views(self.tensor)

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
