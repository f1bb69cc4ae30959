"""KALA's diagnosis code: the predicates and contexts its rule entries (:mod:`.rules`) refer
to, and ``legal_rule``.

A view rule's ``when`` is a predicate on the divergence; the ``turn`` ladder's checks read
a :class:`Turn` (the step as the reference plays it and as the engine reports it), the
``legal`` ladder's a :class:`Listed` (the legal paths the engine leaves out). Rule IDs refer
to ``specs/kala.md``.
"""

from __future__ import annotations

import functools

from copa_ref.conformance.predicates import phases_after, reaches
from copa_ref.conformance.vocabulary import Divergence
from copa_ref.core import JSON, canonical_json
from copa_ref.kala import (
    GAME,
    Action,
    Bonus,
    Config,
    Harvest,
    Phase,
    Place,
    Sow,
    State,
    legal_actions,
)
from copa_ref.kala.paths import PATHS, turns
from copa_ref.kala.rules import _sow, bonus_length
from copa_ref.kala.state import Square

__all__ = ["Listed", "Turn", "legal_rule"]

KalaDivergence = Divergence[State, Action, Config, State]


def _regular_sow(d: KalaDivergence) -> bool:
    return isinstance(d.action, Sow) and d.before.phase is Phase.SOW


def _bonus_sow(d: KalaDivergence) -> bool:
    return isinstance(d.action, Sow) and d.before.phase is Phase.BONUS_SOW


def _excess(d: KalaDivergence) -> bool:
    return (isinstance(d.action, Sow) and _bonus_sow(d)
            and d.before.cup_beans[d.before.turn] > len(d.action.path))


def _harvested(d: KalaDivergence) -> bool:
    """A harvest happened in this step, in the reference or as reported."""
    reported = d.reported_view
    return d.expected.bank != d.before.bank or (reported is not None
                                                and reported.bank != d.before.bank)


def _bonus_started(d: KalaDivergence) -> bool:
    """The step ended a regular sowing's turn part and a bonus is (or is reported) due."""
    return bool(phases_after(d) & {Phase.BONUS, Phase.BONUS_SOW}) and not _bonus_sow(d)


def _over_opponent(d: KalaDivergence) -> bool:
    return (isinstance(d.action, Sow)
            and d.before.cups[1 - d.before.turn] in d.action.path[1:])


def _into_opponent(d: KalaDivergence) -> bool:
    return isinstance(d.action, Place) or (
        isinstance(d.action, Sow) and d.action.path[-1] == d.before.cups[1 - d.before.turn])




def _harvest_phase(d: KalaDivergence) -> bool:
    return Phase.HARVEST in phases_after(d) or isinstance(d.action, Harvest)


def _bonus_phase(d: KalaDivergence) -> bool:
    return d.expected.phase is Phase.BONUS_SOW or isinstance(d.action, Bonus)


_over = reaches(Phase.OVER)


def _path_of(listed: JSON) -> tuple[Square, ...] | None:
    """The path of a listed sow action, as squares (``None``: not a sow path)."""
    if not isinstance(listed, dict) or not isinstance(listed.get("path"), list):
        return None
    squares = []
    for square in listed["path"]:
        if not (isinstance(square, list) and len(square) == 2
                and all(isinstance(x, int) for x in square)):
            return None
        squares.append((square[0], square[1]))
    return tuple(squares)


def _straight_longest(start: Square) -> int:
    """The most squares a straight path from *start* has."""
    return max(n for (first, n), paths in PATHS.items()
               if first == start and any(turns(p) == 0 for p in paths))


class Turn:
    """A step's turn as the reference plays it and as the engine reports it: what the
    turn ladder (:data:`TURN`) compares, part by part."""

    def __init__(self, d: KalaDivergence, seen: State) -> None:
        self.d, self.seen, self.before, self.want = d, seen, d.before, d.expected
        self.seat, self.other = d.before.turn, 1 - d.before.turn
        self.action = d.action

    @functools.cached_property
    def bonus_sown(self) -> tuple[Square, ...] | None:
        """The path the engine sowed the bonus along at once, where the reference waits
        for the bonus path: found by sowing each path from the cup's square no longer than
        the bonus (the rest to the opponent) and comparing with the reported state
        (``None``: none matches, or no bonus is pending)."""
        want, seen = self.want, self.seen
        if want.phase is not Phase.BONUS_SOW or seen.phase is Phase.BONUS_SOW:
            return None
        start = want.cups[want.turn]
        shown = canonical_json(GAME.to_json(seen))
        for (first, n), paths in PATHS.items():
            if first != start or n > bonus_length(want):
                continue
            straight = [p for p in paths if turns(p) == 0]
            for path in paths:
                if n == bonus_length(want) and (turns(path) or len(straight) != 1):
                    continue  # a legal path: the engine sowed its only straight one, or none
                if canonical_json(GAME.to_json(_sow(want, path))) == shown:
                    return path
        return None

    @property
    def bonus_straight(self) -> bool:
        """The engine sowed the bonus straight along the longest straight path, where a
        turning one holds every bean (KALA-7: a bonus sowing may turn once)."""
        path, want = self.bonus_sown, self.want
        return path is not None and turns(path) == 0 and len(path) == min(
            want.cup_beans[want.turn], _straight_longest(want.cups[want.turn]))

    @functools.cached_property
    def sown_wrong(self) -> Square | None:
        """The first square of the sowing's path the engine fills otherwise (the last cup,
        which may be harvested, is judged later; on the opponent's cup, that cup and the
        field cup beneath are compared)."""
        action, seen, want = self.action, self.seen, self.want
        if not isinstance(action, Sow):
            return None
        opponent = self.before.cups[self.other]
        for square in action.path[1:]:
            index = 4 * square[0] + square[1]
            if square == opponent:
                if seen.field[index] != want.field[index] or (
                        seen.cup_beans[self.other] != want.cup_beans[self.other]):
                    return square
            elif square != action.path[-1] and seen.field[index] != want.field[index]:
                return square
        return None

    def field(self, square: Square) -> int:
        return self.want.field[4 * square[0] + square[1]]

    def seen_field(self, square: Square) -> int:
        return self.seen.field[4 * square[0] + square[1]]


def _bonus_sown_straight(t: Turn) -> bool:
    return t.bonus_sown is not None and t.bonus_straight


def _bonus_sown_short(t: Turn) -> bool:
    return t.bonus_sown is not None and not t.bonus_straight


def _sown_over_opponent(t: Turn) -> bool:
    return t.sown_wrong is not None and t.sown_wrong == t.before.cups[t.other]


def _sown_into_path(t: Turn) -> bool:
    return t.sown_wrong is not None and t.sown_wrong != t.before.cups[t.other]


def _cups_hidden(t: Turn) -> bool:
    seen, want = t.seen, t.want
    return seen.cup_beans == (0, 0) and want.cup_beans != (0, 0) and (
        seen.field, seen.stores, seen.bank) == (want.field, want.stores, want.bank)


def _excess_elsewhere(t: Turn) -> bool:
    # The beans no path holds leave the cup in the same step as a harvest may: the
    # opponent's store tells which of the two the engine reads otherwise.
    return _excess(t.d) and t.seen.stores[t.other] != t.want.stores[t.other]


def _harvest_counted(t: Turn) -> bool:
    seen, want, before = t.seen, t.want, t.before
    harvested = want.bank != before.bank or seen.bank != before.bank
    return harvested and (seen.bank != want.bank or seen.stores[t.seat] != want.stores[t.seat])


def _harvest_decided(t: Turn) -> bool:
    seen, want, before = t.seen, t.want, t.before
    return (Phase.HARVEST in (seen.phase, want.phase) and seen.phase is not want.phase) or (
        want.bank == before.bank) != (seen.bank == before.bank)


def _opponent_store(t: Turn) -> bool:
    return t.seen.stores[t.other] != t.want.stores[t.other]


def _bonus_excess_store(t: Turn) -> bool:
    return _opponent_store(t) and t.before.phase is Phase.BONUS_SOW


def _own_store(t: Turn) -> bool:
    return t.seen.stores[t.seat] != t.want.stores[t.seat]


def _bonus_decision_store(t: Turn) -> bool:
    # Nothing is sown in this step: the bonus decision is what moved the beans.
    return _own_store(t) and isinstance(t.action, Bonus)


def _cup_moved_before_harvest(t: Turn) -> bool:
    return t.want.phase is Phase.HARVEST and t.seen.cups[t.seat] != t.want.cups[t.seat]


def _cup_moved(t: Turn) -> bool:
    seen, want = t.seen, t.want
    return seen.cups[t.seat] != want.cups[t.seat] or (
        Phase.PLACE in (seen.phase, want.phase) and seen.phase is not want.phase)


def _cup_placed(t: Turn) -> bool:
    return _cup_moved(t) and _into_opponent(t.d)


BONUS = {Phase.BONUS, Phase.BONUS_SOW}


def _bonus_phase_named(t: Turn) -> bool:
    return t.want.phase in BONUS and t.seen.phase in BONUS and t.want.phase is not t.seen.phase


def _bonus_given(t: Turn) -> bool:
    seen, want = t.seen, t.want
    return (want.phase in BONUS) != (seen.phase in BONUS) or (
        seen.bonus_sowing != want.bonus_sowing)


def _first_bean(t: Turn) -> bool:
    return t.seen.cup_beans != t.want.cup_beans


def _ended(t: Turn) -> bool:
    return (t.want.phase is Phase.OVER) != (t.seen.phase is Phase.OVER)


def _turn_passed(t: Turn) -> bool:
    return t.seen.turn != t.want.turn


def _turn(d: KalaDivergence) -> Turn | None:
    """The turn ladder's context: a step whose reported state differs from the
    reference's."""
    seen = d.reported_view
    if seen is None or d.step == 0 or canonical_json(GAME.to_json(seen)) == canonical_json(
            GAME.to_json(d.expected)):
        return None
    return Turn(d, seen)


class Listed:
    """The legal paths the engine leaves out: what the legal ladder (:data:`LEGAL`)
    names by what they share."""

    def __init__(self, state: State, listed: list[JSON], missing: list[Sow]) -> None:
        self.state, self.missing = state, missing
        self.length = len(missing[0].path)
        self.shown = [_path_of(a) for a in listed]
        self.lengths = {len(p) for p in self.shown if p is not None}

    @functools.cached_property
    def straight_only(self) -> int | None:
        """KALA-7, the cause of a shorter bonus path: the length of the straight paths the
        engine lists, where it lists only straight paths, of the longest straight path's
        length, and a path with its one 90-degree turn holds every bean (a path's length is
        then the symptom, not the broken rule)."""
        state, shown = self.state, self.shown
        if state.phase is not Phase.BONUS_SOW or not shown or None in shown:
            return None
        if len(self.lengths) != 1 or any(turns(p) for p in shown if p is not None):
            return None
        (listed,) = self.lengths
        if listed >= self.length or listed != _straight_longest(state.cups[state.turn]):
            return None
        return listed


def _listed(d: KalaDivergence) -> Listed | None:
    """The legal ladder's context: legal sowing paths the engine leaves out."""
    state = d.expected
    listed = d.reported.legal.get(None)
    if listed is None or state.phase not in (Phase.SOW, Phase.BONUS_SOW):
        return None
    shown = {canonical_json(a) for a in listed}
    missing = [a for a in legal_actions(state, None)
               if isinstance(a, Sow) and canonical_json(GAME.to_json(a)) not in shown]
    return Listed(state, listed, missing) if missing else None


def _only_straight(x: Listed) -> bool:
    return x.straight_only is not None


def _bonus_lengths(x: Listed) -> bool:
    return _lengths(x) and x.state.phase is Phase.BONUS_SOW


def _lengths(x: Listed) -> bool:
    return bool(x.lengths) and x.lengths != {x.length}


def _turning_left_out(x: Listed) -> bool:
    return all(turns(a.path) == 1 for a in x.missing)


def _passing_left_out(x: Listed) -> bool:
    other = x.state.cups[1 - x.state.turn]
    return all(other in a.path[1:] for a in x.missing)


def _lengths_says(x: Listed) -> str:
    return (f"the sowing puts {x.length} beans into play, one a square: the engine lists paths "
            f"of {sorted(x.lengths)} squares")


def legal_rule(state: State, action: Action) -> str | None:
    """The rule that makes a legal KALA action legal here: a bonus sowing of every bean
    (KALA-13); a sowing that turns once (KALA-7) or passes the opponent's cup (KALA-9), any
    other by KALA-5; a harvest choice (KALA-15), the bonus choice (KALA-12), the cup's move
    (KALA-8)."""
    if isinstance(action, Sow):
        if state.bonus_sowing:
            return "KALA-13"
        if turns(action.path) > 0:
            return "KALA-7"
        if state.cups[1 - action.seat] in action.path[1:]:
            return "KALA-9"
        return "KALA-5"
    if isinstance(action, Harvest):
        return "KALA-15"
    if isinstance(action, Bonus):
        return "KALA-12"
    if isinstance(action, Place):
        return "KALA-8"
    return None
