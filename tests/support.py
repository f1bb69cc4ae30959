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

import attrs
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from copa_ref.core import (
    Game,
    IllegalActionError,
    MalformedInputError,
    MoverKind,
    RuleViolation,
    next_action,
    steps,
    uniform,
)

ROOT = Path(__file__).resolve().parent.parent

AnyGame = Game[Any, Any, Any, Any]


def memo_legal(game: AnyGame) -> Callable[[Any, Any], tuple[Any, ...]]:
    """``legal_actions`` memoised on the (hashable) state: tests ask for it repeatedly."""

    @functools.lru_cache(maxsize=4096)
    def legal(state: Any, seat: Any) -> tuple[Any, ...]:
        return game.legal_actions(state, seat)

    return legal


def choose(game: AnyGame, state: Any, draw: Callable[[st.SearchStrategy[Any]], Any]) -> Any:
    """Draw one action at any kind of node with the generic loop's
    :func:`~copa_ref.core.next_action`: each seat's choice drawn by Hypothesis, chance (and
    the seat at an any-of node) sampled from a drawn generator."""
    kind = game.to_move(state).kind
    rng = (draw(st.randoms(use_true_random=False))
           if kind in (MoverKind.CHANCE, MoverKind.ANY) else random.Random(0))

    def drawn(state: Any, seat: Any, options: tuple[Any, ...], rng: random.Random) -> Any:
        return draw(st.sampled_from(options))

    return next_action(game, state, drawn, rng)


def check_step(game: AnyGame, before: Any, action: Any) -> Any:
    """Apply *action*, then check every invariant of the transition and the new state."""
    after = game.apply(before, action)
    check_transition(game, before, action, after)
    return after


def check_transition(game: AnyGame, before: Any, action: Any, after: Any) -> None:
    """Check every invariant of a transition made by ``apply``, and the new state."""
    game.check_invariants(before, action, after)
    assert game.well_formed(after), f"not well formed after {action!r}"
    mover = game.to_move(after)
    assert mover.is_over == (game.outcome(after) is not None)
    if mover.kind in (MoverKind.SEAT, MoverKind.ANY):
        assert game.legal_actions(after, None), "a decision node with no legal action"
    # JSON round trip of both the state and the action.
    assert game.state_from_json(game.to_json(after)) == after
    assert game.action_from_json(game.to_json(action)) == action


RANDOM_CUT = 1500
"""Where :func:`play_random` cuts a game whose random play need not end."""


def play_random(game: AnyGame, config: Any, rng: random.Random, *,
                max_steps: int = 100_000, check: bool = True,
                start: Any = None) -> list[tuple[Any, Any]]:
    """Play one random game to its end (from *start*, default a new game under *config*)
    with :func:`copa_ref.core.play`'s loop; return its (state, action) steps.

    With *check*, every transition is checked with :func:`check_transition`. For a game whose
    random play need not end (``Game.random_play_ends`` false) the game is cut after
    :data:`RANDOM_CUT` steps instead.
    """
    ends = game.random_play_ends
    if not ends:
        max_steps = min(max_steps, RANDOM_CUT)
    played: list[tuple[Any, Any]] = []
    final = game.new_game(config) if start is None else start
    for step in steps(game, uniform, rng, state=final, max_steps=max_steps):
        if check:
            check_transition(game, step.before, step.action, step.after)
        played.append((step.before, step.action))
        final = step.after
    if game.outcome(final) is None and ends:
        msg = f"game did not end within {max_steps} steps"
        raise AssertionError(msg)
    return played


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

    Nothing-legal is handled inside the rule (no ``@precondition``).
    With *candidates*, each decision node also checks that ``legal_actions`` and ``apply``
    agree on those candidate actions.
    """
    memo = attrs.evolve(game, legal_actions=memo_legal(game))

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
            action = choose(memo, self.state, data.draw)
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

    Always ``--report_all`` (CrossHair's default effort can miss real bugs).
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


def count_shape_checks(monkeypatch: Any, rules: Any) -> list[object]:
    """The states the entry check's shape test of a rules module (its ``_CHECKS``) reads from
    now on, in order (a list that grows as they are read)."""
    seen: list[object] = []
    shape = rules._CHECKS.shape

    def counted(state: object) -> None:
        seen.append(state)
        shape(state)

    monkeypatch.setattr(rules, "_CHECKS", attrs.evolve(rules._CHECKS, shape=counted))
    return seen
