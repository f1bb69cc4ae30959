"""Generic test machinery shared by every game: random playouts, state machines, CrossHair.

Each game's tests call these with its own ``Game`` record and config strategy; the rules
themselves are tested per game, one class per transition.
"""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from copa_ref.core import Game, IllegalActionError, MalformedInputError, MoverKind, RuleViolation

ROOT = Path(__file__).resolve().parent.parent

AnyGame = Game[Any, Any, Any, Any]


def memo_legal(game: AnyGame) -> Callable[[Any, Any], tuple[Any, ...]]:
    """``legal_actions`` memoised on the (hashable) state: tests ask for it repeatedly."""

    @functools.lru_cache(maxsize=4096)
    def legal(state: Any, seat: Any) -> tuple[Any, ...]:
        return game.legal_actions(state, seat)

    return legal


def choose(game: AnyGame, state: Any, draw: Callable[[st.SearchStrategy[Any]], Any],
           legal: Callable[[Any, Any], tuple[Any, ...]]) -> Any:
    """Draw one action at any kind of node (chance sampled from a drawn generator)."""
    mover = game.to_move(state)
    if mover.kind is MoverKind.CHANCE:
        rng = draw(st.randoms(use_true_random=False))
        return game.sample_chance(state, rng)
    if mover.kind is MoverKind.JOINT:
        assert game.joint is not None
        parts = tuple(draw(st.sampled_from(legal(state, s))) for s in mover.seats)
        return game.joint(state, parts)
    return draw(st.sampled_from(legal(state, None)))


def check_step(game: AnyGame, before: Any, action: Any) -> Any:
    """Apply *action*, then check every invariant of the transition and the new state."""
    after = game.apply(before, action)
    game.check_invariants(before, action, after)
    assert game.well_formed(after), f"not well formed after {action!r}"
    mover = game.to_move(after)
    assert mover.is_over == (game.outcome(after) is not None)
    if mover.kind in (MoverKind.SEAT, MoverKind.ANY):
        assert game.legal_actions(after, None), "a decision node with no legal action"
    # JSON round trip of both the state and the action.
    assert game.state_from_json(game.to_json(after)) == after
    assert game.action_from_json(game.to_json(action)) == action
    return after


def play_random(game: AnyGame, config: Any, rng: random.Random, *,
                max_steps: int = 100_000, check: bool = True) -> list[tuple[Any, Any]]:
    """Play one random game to its end; return its (state, action) steps.

    With *check*, every transition is checked with :func:`check_step`.
    """
    state = game.new_game(config)
    steps: list[tuple[Any, Any]] = []
    for _ in range(max_steps):
        if game.to_move(state).is_over:
            return steps
        action = game.random_action(state, rng)
        steps.append((state, action))
        state = check_step(game, state, action) if check else game.apply(state, action)
    msg = f"game did not end within {max_steps} steps"
    raise AssertionError(msg)


def assert_legal_iff_accepted(game: AnyGame, state: Any, candidates: Iterable[Any]) -> None:
    """At a decision node: every listed action is accepted, every other candidate refused."""
    mover = game.to_move(state)
    legal = set(game.legal_actions(state, None))
    if mover.kind is MoverKind.JOINT:
        return
    for action in candidates:
        try:
            game.apply(state, action)
            accepted = True
        except RuleViolation:
            accepted = False
        assert accepted == (action in legal), (
            f"apply {'accepted' if accepted else 'refused'} {action!r}, "
            f"legal_actions {'lists' if action in legal else 'omits'} it"
        )


def playout_machine(game: AnyGame, configs: st.SearchStrategy[Any],
                    candidates: Callable[[Any], Iterable[Any]] | None = None
                    ) -> type[RuleBasedStateMachine]:
    """A state machine playing legal random steps and checking every invariant after each.

    Nothing-legal is handled inside the rule (no ``@precondition``; see TOOLCHAIN.md).
    With *candidates*, each decision node also checks that ``legal_actions`` and ``apply``
    agree on those candidate actions.
    """
    legal = memo_legal(game)

    class Machine(RuleBasedStateMachine):
        state: Any = None

        @initialize(config=configs)
        def start(self, config: Any) -> None:
            self.state = game.new_game(config)
            game.check_state(self.state)

        @rule(data=st.data())
        def step(self, data: st.DataObject) -> None:
            if game.to_move(self.state).is_over:
                return
            if candidates is not None:
                assert_legal_iff_accepted(game, self.state, candidates(self.state))
            action = choose(game, self.state, data.draw, legal)
            self.state = check_step(game, self.state, action)

        @invariant()
        def well_formed(self) -> None:
            if self.state is not None:
                assert game.well_formed(self.state)

    Machine.__name__ = f"{game.name.title()}Machine"
    return Machine


def crosshair(*targets: str, timeout: float = 5.0, max_uninteresting: int | None = None
              ) -> subprocess.CompletedProcess[str]:
    """Run ``crosshair check`` on *targets* with a bounded per-condition timeout.

    Always ``--report_all`` (see TOOLCHAIN.md: default effort can miss real bugs).
    """
    args = [sys.executable, "-m", "crosshair", "check", "--report_all",
            f"--per_condition_timeout={timeout}"]
    if max_uninteresting is not None:
        args.append(f"--max_uninteresting_iterations={max_uninteresting}")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([*args, *targets], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=600, check=False)


def assert_refused(game: AnyGame, state: Any, action: Any, rule: str) -> IllegalActionError:
    """Apply *action*: expect a refusal naming *rule* (also first in the message), a state
    left exactly as it was, and ``is_legal`` agreeing."""
    before = game.dumps(state)
    try:
        game.apply(state, action)
    except IllegalActionError as err:
        assert err.rule == rule, str(err)
        assert str(err).startswith(f"{rule}: ")
        assert game.dumps(state) == before
        assert not game.is_legal(state, action)
        return err
    msg = f"{action!r} was accepted; expected a refusal under {rule}"
    raise AssertionError(msg)


def assert_malformed(game: AnyGame, state: Any, action: Any) -> MalformedInputError:
    """Apply *action*: expect a :class:`MalformedInputError` (not a rule: the action is not
    even shaped right), a state left exactly as it was, and ``is_legal`` agreeing."""
    before = game.dumps(state)
    try:
        game.apply(state, action)
    except MalformedInputError as err:
        assert game.dumps(state) == before
        assert not game.is_legal(state, action)
        return err
    msg = f"{action!r} was accepted; expected a MalformedInputError"
    raise AssertionError(msg)
