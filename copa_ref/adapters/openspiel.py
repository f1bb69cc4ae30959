"""Every game of the reference as an OpenSpiel Python game, after an explicit
:func:`~copa_ref.adapters.openspiel.register`.

The example and the action mapping are in the documentation (``docs/adapters``).

Game ``copa_ref_<name>`` plays the registered game ``<name>`` under its default config.
Integer action ``i`` at a decision node is the ``i``-th action of the game's
``action_space(config)`` (``copa_ref.adapters.action_space``). A game with a joint node
(DA CAPO) is a simultaneous-move game; a seat with no part to play there (one that is out)
has the single action ``len(action_space)``, "no part". At an any-of node (HOPPER's
shoot-out) the lowest listed seat with a legal action is the current player.

Chance nodes list their outcomes with exact probabilities (as floats). A game with a
``chance_step(state, prefix)`` function is dealt in small steps (Copas one card at a time,
RONDA one cup at a time), the chance action being the small id the game gives; a game with
``chance_outcomes(state)`` has chance action ``k`` for the ``k``-th outcome listed there; a
game with chance nodes and neither cannot be expressed and raises ``ValueError``.

Observation strings are the canonical JSON text of ``observe(state, seat)``; the
information-state string of a seat is every observation it has had so far, with its own
choices, one per line (perfect recall). Returns at the end: +1 for each winner, -1 for each
loser the outcome names, 0 for the others (general-sum).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no type hints

from copa_ref.adapters import action_space, rules_function
from copa_ref.core import Game
from copa_ref.core.types import MoverKind, Seat

__all__ = ["MAX_CHANCE_OUTCOMES", "MAX_GAME_LENGTH", "register", "short_name"]

MAX_CHANCE_OUTCOMES = 256
"""The chance action ids every game's chance nodes stay below."""
MAX_GAME_LENGTH = 100_000
"""The declared bound on a game's length (chance steps included), as
:data:`copa_ref.core.loop.MAX_STEPS`: several games have no bound of their own."""

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
    config = game.default_config()
    players = game.num_players(config)
    actions = action_space(game, config)
    simultaneous = game.joint is not None
    facts = game.facts
    hidden = facts.hidden_information or simultaneous
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
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=len(actions) + (1 if simultaneous else 0),
        max_chance_outcomes=MAX_CHANCE_OUTCOMES if facts.chance else 0,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=None,
        max_game_length=MAX_GAME_LENGTH,
    )
    index = {a: i for i, a in enumerate(actions)}
    chance_step = rules_function(game, "chance_step")

    class CopaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel.Game is untyped
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self) -> Any:
            return CopaState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return _Observer(perfect_recall)

    class CopaState(pyspiel.State):  # type: ignore[misc]  # pyspiel.State is untyped
        def __init__(self, py_game: Any) -> None:
            super().__init__(py_game)
            self.held = _Held(game.new_game(config), (), ((),) * players)
            self._note()

        # The values, immutable, are shared by clones rather than copied.

        @property
        def state(self) -> Any:
            return self.held.state

        @property
        def prefix(self) -> tuple[int, ...]:
            return self.held.prefix

        @property
        def seen(self) -> tuple[tuple[str, ...], ...]:
            return self.held.seen

        def _hold(self, state: Any = None, prefix: tuple[int, ...] | None = None,
                  seen: tuple[tuple[str, ...], ...] | None = None) -> None:
            self.held = _Held(self.state if state is None else state,
                              self.prefix if prefix is None else prefix,
                              self.seen if seen is None else seen)

        # -- what each seat has known ---------------------------------------------------

        def _note(self, chosen: dict[int, str] | None = None) -> None:
            seen = []
            for seat, before in enumerate(self.seen):
                after = before
                if chosen and seat in chosen:
                    after = (*after, f"I chose {chosen[seat]}")
                text = game.dumps(game.observe(self.state, Seat(seat)))
                if not after or after[-1] != text:
                    after = (*after, text)
                seen.append(after)
            self._hold(seen=tuple(seen))

        # -- who acts --------------------------------------------------------------------

        def current_player(self) -> int:
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
            return game.to_move(self.state).kind is MoverKind.NOBODY

        def _legal_actions(self, player: int) -> list[int]:
            mover = game.to_move(self.state)
            if mover.kind is MoverKind.JOINT:
                if player not in mover.seats:
                    return [len(actions)]
                return sorted(index[a] for a in game.legal_actions(self.state, Seat(player)))
            if player != self.current_player():
                return []
            seat = None if mover.kind is MoverKind.SEAT else Seat(player)
            return sorted(index[a] for a in game.legal_actions(self.state, seat))

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
            self._hold(state=game.apply(self.state, action))
            self._note(chosen)

        def _apply_action(self, action: int) -> None:
            if game.to_move(self.state).kind is MoverKind.CHANCE:
                if chance_step is None:
                    assert game.chance_outcomes is not None
                    self._play(game.chance_outcomes(self.state)[action][0])
                    return
                prefix = (*self.prefix, action)
                step = chance_step(self.state, prefix)
                if isinstance(step, tuple):
                    self._hold(prefix=prefix)
                else:
                    self._hold(prefix=())
                    self._play(step)
                return
            player = self.current_player()
            self._play(actions[action], {player: game.dumps(actions[action])})

        def _apply_actions(self, chosen: list[int]) -> None:
            mover = game.to_move(self.state)
            assert game.joint is not None
            parts = tuple(actions[chosen[s]] for s in mover.seats)
            self._play(game.joint(self.state, parts),
                       {s: game.dumps(actions[chosen[s]]) for s in mover.seats})

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                return f"chance {action}"
            if action == len(actions):
                return "no part"
            return str(game.dumps(actions[action]))

        def returns(self) -> list[float]:
            outcome = game.outcome(self.state) if self.is_terminal() else None
            if outcome is None:
                return [0.0] * players
            return [1.0 if s in outcome.winners else -1.0 if s in outcome.losers else 0.0
                    for s in range(players)]

        def __str__(self) -> str:
            return str(game.render(self.state))

    CopaGame.__name__ = CopaState.__name__ = f"Copa{game.name.title()}"
    pyspiel.register_game(game_type, CopaGame)
    return CopaGame


@attrs.frozen
class _Held:
    """A state's values, immutable: a clone shares them (``deepcopy`` gives the same)."""

    state: Any
    prefix: tuple[int, ...]
    seen: tuple[tuple[str, ...], ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return self


class _Observer:
    """Strings only: a seat's observation (the canonical JSON of ``observe``), or with
    perfect recall its information state."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: Any, player: int) -> None:
        """Nothing to fill: the observations are strings only (no tensor)."""

    def string_from(self, state: Any, player: int) -> str:
        if self.perfect_recall:
            return "\n".join(state.seen[player])
        return str(state.seen[player][-1]) if state.seen[player] else ""
