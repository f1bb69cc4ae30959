"""RONDA: which rule decides which part of the public view (RONDA-1 … RONDA-18).

The public view (RONDA-14) shows the lifted cups with their beans, what the last lift
showed, the total in the circle, the black cup, the beans out of the game, every supply, the
phase and the seat to move; the arrangement is hidden. Rule IDs refer to
``specs/ronda.md``. The order is from the most specific rule to the most general: the
conservation of RONDA-15 comes last.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from copa_ref.conformance.ladder import Check, Ladder
from copa_ref.conformance.predicates import action_is, at_start, phases_after, reaches
from copa_ref.conformance.vocabulary import Divergence, Finding, ViewRule
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

__all__ = ["FULL_PAIR", "VIEW_RULES", "check_public", "diagnose", "legal_rule"]

RondaDivergence = Divergence[State, Action, Config, Observation]
RondaView = ViewRule[State, Action, Config, Observation]


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


VIEW_RULES: tuple[RondaView, ...] = (
    ViewRule(part="outcome", rule="RONDA-13",
             says="the first player to get rid of all his beans wins"),
    ViewRule(part="public", rule="RONDA-13", when=_over,
             says="the game is over the moment a player has no beans left"),
    ViewRule(part="public.circle", rule="RONDA-1", when=at_start,
             says="twenty beans fill the cups of the circle"),
    ViewRule(part="public.supplies", rule="RONDA-2", when=at_start,
             says="each player receives his beans (10, or 9)"),
    ViewRule(part="public", rule="RONDA-18", when=_full_pair_no_penalty,
             says="without penalty beans a dissolved group leaves the game with the bean"),
    ViewRule(part="public", rule="RONDA-12", when=_full_pair_black_holds,
             says="a group of six leaves the game while the black cup holds beans"),
    ViewRule(part="public", rule="RONDA-17", when=_full_pair_max_four,
             says="under simpler rule 2 two fours and the bean go to the middle"),
    ViewRule(part="public", rule="RONDA-10", when=_full_pair,
             says="two fives: one group and the added bean go to the middle, the turn ends"),
    ViewRule(part="public.black", rule="RONDA-11", when=_penalty_step,
             says="a mismatch while the black cup holds beans costs a penalty bean"),
    ViewRule(part="public.supplies", rule="RONDA-11", when=_penalty_step,
             says="the penalty bean goes into the mistaken player's supply"),
    ViewRule(part="public.shown", rule="RONDA-14", when=action_is(Lift),
             says="what a lifted cup holds is shown to everyone, also after a mismatch"),
    ViewRule(part="public", rule="RONDA-7", when=_match,
             says="two lifted cups with the identical number: a bean must be added"),
    ViewRule(part="legal", rule="RONDA-7", when=_match,
             says="after a match the only actions add a bean to one of the two cups"),
    ViewRule(part="legal", rule="RONDA-7", when=action_is(Add),
             says="the bean goes onto one of the two matched cups"),
    ViewRule(part="public", rule="RONDA-6", when=_mismatch,
             says="different numbers: both covered, the next player's turn"),
    ViewRule(part="public", rule="RONDA-9", when=action_is(Stop),
             says="missing a go covers both groups and passes the turn"),
    ViewRule(part="public", rule="RONDA-16", when=action_is(Again),
             says="under simpler rule 1 both groups are covered and two cups lifted anew"),
    ViewRule(part="public", rule="RONDA-8", when=action_is(Keep),
             says="one group stays open and a new cup is lifted"),
    ViewRule(part="legal", rule="RONDA-8", when=action_is(Keep),
             says="after keeping a group any covered cup may be lifted"),
    ViewRule(part="legal", rule="RONDA-5",
             says="any covered cup of the circle may be lifted, one at a time"),
    ViewRule(part="public.lifted", rule="RONDA-5",
             says="a lifted cup stays open until covered; never more than two"),
    ViewRule(part="public.turn", rule="RONDA-4", says="play goes on clockwise"),
    ViewRule(part="to_move", rule="RONDA-4", says="play goes on clockwise"),
    ViewRule(part="public.circle", rule="RONDA-15",
             says="circle + black cup + supplies + out of the game = 20 + the beans dealt"),
    ViewRule(part="public", rule="RONDA-15", says="the beans are conserved"),
)
"""Which rule decides which part of RONDA's public view, most specific first."""


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


FULL_PAIR: Ladder[FullPair] = Ladder(context=_full_pair_context, checks=(
    Check(rule="RONDA-18", observable="public.black", holds=_black_without_penalties,
          says=lambda f: f"the black cup took {f.into_black} beans although no penalty "
                         "beans are played: the group leaves the game"),
    Check(rule="RONDA-12", observable="public.black", holds=_black_while_holding,
          says=lambda f: f"the black cup took {f.into_black} beans while it held "
                         f"{f.black_before}: the group leaves the game"),
    Check(rule="RONDA-10", observable="public.black, public.out", holds=_group_without_bean,
          says=lambda f: f"{f.top} beans went to the middle: the group goes with the added "
                         "bean"),
    Check(rule="RONDA-17", observable="public.black, public.out", holds=_both_stayed_four,
          says=_stayed_says),
    Check(rule="RONDA-10", observable="public.black, public.out", holds=_both_stayed,
          says=_stayed_says),
    Check(rule="RONDA-17", observable="public.black, public.out", holds=_other_size_four,
          says=_other_size_says),
    Check(rule="RONDA-10", observable="public.black, public.out", holds=_other_size,
          says=_other_size_says),
))
"""What went wrong with a pair of the maximum, re-derived from the reported view: the
black cup's part (RONDA-18, RONDA-12), then the group's size under the maximum in force
(RONDA-17 for four, RONDA-10)."""


def diagnose(d: RondaDivergence) -> Iterator[Finding]:
    """RONDA's own findings, re-derived from what the engine reported: a pair of the maximum
    settled wrongly (RONDA-10, RONDA-12, RONDA-17, RONDA-18), a reported view whose beans do
    not add up (RONDA-15), a turn passed to the previous seat instead of the next
    (RONDA-4)."""
    seen = d.reported_view
    if seen is None or d.action is None:
        return
    yield from FULL_PAIR(d)
    config = d.before.config
    total = seen.circle + seen.black + sum(seen.supplies) + seen.out
    expected = CIRCLE_BEANS + config.players * config.beans_per_player
    if total != expected:
        yield Finding("RONDA-15", f"the reported view holds {total} beans, not {expected}: "
                      "circle + black cup + supplies + out of the game are conserved")
    players = config.players
    nxt = (d.before.turn + 1) % players
    previous = (d.before.turn - 1) % players
    if players > 2 and d.expected.turn == nxt and seen.turn == previous:
        yield Finding("RONDA-4", f"the turn passed from seat {d.before.turn} to seat "
                      f"{previous}, not to the next seat {nxt}: play goes on clockwise")


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
