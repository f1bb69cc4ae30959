"""RONDA's diagnosis code: the predicates and the context its rule entries (:mod:`.rules`)
refer to, ``legal_rule`` and ``check_public``.

The public view (RONDA-14) shows the lifted cups with their beans, what the last lift
showed, the total in the circle, the black cup, the beans out of the game, every supply, the
phase and the seat to move; the arrangement is hidden. A view rule's ``when`` is a predicate
on the divergence; the ``full_pair`` ladder's checks read a :class:`FullPair`, the
``settled`` ladder's a :class:`Settled`. Rule IDs refer to ``specs/ronda.md``.
"""

from __future__ import annotations

import attrs

from copa_ref.conformance.predicates import phases_after, reaches
from copa_ref.conformance.vocabulary import Divergence
from copa_ref.core import JSON, InvariantViolation
from copa_ref.ronda import (
    Action,
    Add,
    Again,
    Arrange,
    Config,
    Keep,
    Lift,
    Observation,
    Phase,
    State,
    Stop,
)
from copa_ref.ronda.state import CIRCLE_BEANS

__all__ = ["FullPair", "Settled", "check_public", "legal_rule"]

RondaDivergence = Divergence[State, Action, Config, Observation]


def _second_lift(d: RondaDivergence) -> bool:
    return isinstance(d.action, Lift) and len(d.before.lifted) == 1


def _match(d: RondaDivergence) -> bool:
    """A second lift that shows the same number (in the reference or as reported)."""
    return _second_lift(d) and Phase.ADD in phases_after(d)


def _mismatch(d: RondaDivergence) -> bool:
    return _second_lift(d) and d.expected.phase is not Phase.ADD


def _full_pair(d: RondaDivergence) -> bool:
    """An add onto two groups of the maximum."""
    return isinstance(d.action, Add) and len(d.before.lifted) == 2 and all(
        d.before.cups[c] == d.before.config.max_beans for c in d.before.lifted)


def _full_pair_black_holds(d: RondaDivergence) -> bool:
    return _full_pair(d) and d.before.config.penalty_beans and d.before.black > 0


def _full_pair_no_penalty(d: RondaDivergence) -> bool:
    return _full_pair(d) and not d.before.config.penalty_beans


def _full_pair_max_four(d: RondaDivergence) -> bool:
    return _full_pair(d) and d.before.config.max_beans == 4


def _penalty_step(d: RondaDivergence) -> bool:
    return _mismatch(d) and d.before.black > 0


_over = reaches(Phase.OVER)


@attrs.frozen
class FullPair:
    """A pair of the maximum settled (an add onto two groups of the maximum): what the
    reported view sent to the middle, which the full-pair ladder (:data:`FULL_PAIR`)
    compares with the rules."""

    top: int
    """The maximum in force (5, or 4 under simpler rule 2)."""
    penalty_beans: bool
    black_before: int
    """What the black cup held before the step."""
    into_black: int
    """The beans the black cup took, as reported."""
    out: int
    """The beans that left the game, as reported."""
    choosing: bool
    """Whether the engine reports a choice still due (``choose``)."""

    @property
    def middle(self) -> int:
        """The beans that went to the middle (the black cup and out of the game)."""
        return self.into_black + self.out


def _full_pair_context(d: RondaDivergence) -> FullPair | None:
    """The full-pair ladder's context: a pair of the maximum, with a decoded report."""
    seen = d.reported_view
    if seen is None or d.action is None or not _full_pair(d):
        return None
    config = d.before.config
    return FullPair(top=config.max_beans, penalty_beans=config.penalty_beans,
                    black_before=d.before.black, into_black=seen.black - d.before.black,
                    out=seen.out - d.before.out, choosing=seen.phase is Phase.CHOOSE)


def _black_without_penalties(f: FullPair) -> bool:
    return not f.penalty_beans and f.into_black > 0


def _black_while_holding(f: FullPair) -> bool:
    return f.penalty_beans and f.black_before > 0 and f.into_black > 0


def _group_without_bean(f: FullPair) -> bool:
    return f.middle == f.top


def _both_stayed(f: FullPair) -> bool:
    return f.choosing or f.middle == 0


def _both_stayed_four(f: FullPair) -> bool:
    return _both_stayed(f) and f.top == 4


def _other_size(f: FullPair) -> bool:
    return f.middle != f.top + 1


def _other_size_four(f: FullPair) -> bool:
    return _other_size(f) and f.top == 4


def _stayed_says(f: FullPair) -> str:
    return (f"two groups of {f.top} stayed in the circle: one goes to the middle with the "
            "added bean")


def _other_size_says(f: FullPair) -> str:
    # The middle took a group of another size: the rule that sets the group's size (the
    # maximum in force) is broken, whatever the bean count says (RONDA-15 comes after).
    return (f"{f.middle} beans went to the middle, not {f.top + 1}: a group of {f.top} goes "
            "with the added bean")


class Settled:
    """A step's decoded report with what the settled ladder compares: the beans the
    reported view holds against those of the game, the seat the turn passes to against the
    next and the previous seat."""

    def __init__(self, d: RondaDivergence, seen: Observation) -> None:
        config = d.before.config
        self.d, self.seen, self.players = d, seen, config.players
        self.total = seen.circle + seen.black + sum(seen.supplies) + seen.out
        self.beans = CIRCLE_BEANS + config.players * config.beans_per_player
        self.next = (d.before.turn + 1) % config.players
        self.previous = (d.before.turn - 1) % config.players


def _settled(d: RondaDivergence) -> Settled | None:
    """The settled ladder's context: a step with an action and a decoded report."""
    seen = d.reported_view
    return None if seen is None or d.action is None else Settled(d, seen)


def _beans_differ(s: Settled) -> bool:
    return s.total != s.beans


def _turn_to_previous(s: Settled) -> bool:
    return s.players > 2 and s.d.expected.turn == s.next and s.seen.turn == s.previous


_LEGAL_BY: tuple[tuple[type, str], ...] = (
    (Arrange, "RONDA-3"), (Lift, "RONDA-5"), (Add, "RONDA-7"), (Stop, "RONDA-8"),
    (Keep, "RONDA-8"), (Again, "RONDA-16"),
)


def legal_rule(state: State, action: Action) -> str | None:
    """The rule that makes a legal RONDA action legal here: the arrangement (RONDA-3), a
    lift (RONDA-5), a bean added on a match (RONDA-7), stopping or keeping a cup
    (RONDA-8), lifting two again (RONDA-16)."""
    for kind, rule in _LEGAL_BY:
        if isinstance(action, kind):
            return rule
    return None


def check_public(before: JSON | None, action: JSON | None, after: JSON) -> None:
    """Beans add up in a reported public view: circle + black cup + supplies + out of the
    game = 20 + the beans dealt (RONDA-15); at most two cups lifted, none twice (RONDA-5);
    no lifted cup over the maximum (RONDA-10, RONDA-17); the black cup holds at most one
    group and its bean (RONDA-12)."""
    config = after["config"]
    expected = CIRCLE_BEANS + config["players"] * config["beans_per_player"]
    total = after["circle"] + after["black"] + sum(after["supplies"]) + after["out"]
    if total != expected:
        msg = f"{total} beans in the circle, the black cup, the supplies and out, not {expected}"
        raise InvariantViolation("RONDA-15", msg)
    places = [pair[0] for pair in after["lifted"]]
    if len(places) > 2 or len(set(places)) != len(places):
        raise InvariantViolation("RONDA-5", f"lifted cups {places}")
    top = config["max_beans"]
    if any(pair[1] > top for pair in after["lifted"]):
        rule = "RONDA-17" if top == 4 else "RONDA-10"
        raise InvariantViolation(rule, f"a lifted cup holds more than {top} beans")
    if after["black"] > top + 1:
        raise InvariantViolation("RONDA-12", f"the black cup holds {after['black']} beans")
