"""Predicates and policies several games' conformance folders share.

On a :class:`~copa_ref.conformance.vocabulary.Divergence` (the ``when`` of a view rule, a
diagnosis's context): :func:`at_start`, :func:`action_is`, :func:`reaches`, :func:`leaves`,
:func:`phases_after`.
On a scenario's step (a :data:`~copa_ref.conformance.vocabulary.Step`, when a scenario or
a count fires): :func:`step_into`. On a scenario's choice at a node (a
:data:`~copa_ref.conformance.vocabulary.Policy`): :func:`first_of`, :func:`first_deal`.
Each game's own predicates stay in its folder.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from copa_ref.core import MoverKind

__all__ = ["action_is", "at_start", "first_deal", "first_of", "leaves", "phases_after",
           "reaches", "step_into"]

Predicate = Callable[[Any], bool]


def at_start(d: Any) -> bool:
    """The initial position (step 0)."""
    return bool(d.step == 0)


def action_is(*kinds: type) -> Predicate:
    """The step's action is one of *kinds* (a deal, say)."""
    def holds(d: Any) -> bool:
        return isinstance(d.action, kinds)
    holds.__name__ = "_" + "_or_".join(k.__name__.lower() for k in kinds)
    return holds


def reaches(phase: Any) -> Predicate:
    """The position after the step is in *phase*, in the reference or as reported."""
    def holds(d: Any) -> bool:
        reported = d.reported_view
        return bool(d.expected.phase is phase
                    or (reported is not None and reported.phase is phase))
    holds.__name__ = f"_reaches_{phase.value}"
    return holds


def leaves(*phases: Any) -> Predicate:
    """The step leaves *phases* (from one of them to none of them), in the reference or as
    reported (a round's end)."""
    def holds(d: Any) -> bool:
        reported = d.reported_view
        return bool(d.before.phase in phases and (
            d.expected.phase not in phases
            or (reported is not None and reported.phase not in phases)))
    holds.__name__ = "_leaves_" + "_or_".join(p.value for p in phases)
    return holds


def phases_after(d: Any) -> set[Any]:
    """The phases after the step, in the reference and as reported."""
    found = {d.expected.phase}
    if d.reported_view is not None:
        found.add(d.reported_view.phase)
    return found


Step = Callable[[Any, Any, Any, tuple[Any, ...]], bool]


def step_into(phase: Any, test: Callable[[Any], bool] | None = None) -> Step:
    """A step whose position after is in *phase* (and passes *test*, when given)."""
    def fires(before: Any, action: Any, after: Any, earlier: tuple[Any, ...]) -> bool:
        return bool(after.phase is phase and (test is None or test(after)))
    return fires


Policy = Callable[[Any, Any, Any], Any]


def first_of(*policies: Policy) -> Policy:
    """The first of *policies* that chooses (returns an action) at a node."""
    def policy(game: Any, state: Any, rng: Any) -> Any:
        for p in policies:
            found = p(game, state, rng)
            if found is not None:
                return found
        return None
    return policy


def first_deal(deal: Callable[[Any, Any], Any]) -> Policy:
    """A policy choosing the first round's deal, ``deal(game, state)``; random play
    elsewhere."""
    def policy(game: Any, state: Any, rng: Any) -> Any:
        if game.to_move(state).kind is not MoverKind.CHANCE or state.round != 1:
            return None
        return deal(game, state)
    return policy
