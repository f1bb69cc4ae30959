"""KALA: which rule decides which part of the public view (the whole state, KALA-11).

Rule IDs refer to ``specs/kala.md``. The order is from the most specific rule to the most
general: the bean conservation of KALA-18 comes last.
"""

from __future__ import annotations

import functools

from copa_ref.conformance.ladder import Check, Diagnosis, Ladder
from copa_ref.conformance.predicates import at_start, phases_after, reaches
from copa_ref.conformance.vocabulary import Divergence, ViewRule
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

__all__ = ["LEGAL", "TURN", "VIEW_RULES", "diagnose", "legal_rule"]

KalaDivergence = Divergence[State, Action, Config, State]
KalaView = ViewRule[State, Action, Config, State]


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


VIEW_RULES: tuple[KalaView, ...] = (
    ViewRule(part="public.cups", rule="KALA-2", when=at_start,
             says="the playing cups start in opposite corners"),
    ViewRule(part="public.turn", rule="KALA-3", when=at_start,
             says="the nominated first player moves first"),
    ViewRule(part="to_move", rule="KALA-3", when=at_start,
             says="the nominated first player moves first"),
    ViewRule(part="public", rule="KALA-1", when=at_start,
             says="28 beans in each store, the field and the playing cups empty"),
    ViewRule(part="public.stores", rule="KALA-14", when=_excess,
             says="the beans of a bonus that no path holds go to the opponent's store"),
    ViewRule(part="public", rule="KALA-17", when=_over,
             says="the game ends when a player has fewer than 4 beans for his turn"),
    ViewRule(part="outcome", rule="KALA-17",
             says="once a player cannot finish a turn, the other player wins"),
    ViewRule(part="public", rule="KALA-15", when=_harvested,
             says="a harvested cup gives one bean to the bank and the rest to the store"),
    ViewRule(part="public.phase", rule="KALA-15", when=_harvest_phase,
             says="a cup holding 4 or more beans after the last bean may be harvested"),
    ViewRule(part="public", rule="KALA-12", when=_bonus_started,
             says="4 or more beans in the playing cup after moving give a bonus move"),
    ViewRule(part="legal", rule="KALA-13", when=_bonus_phase,
             says="every bean of the bonus is sown: the path is as long as the beans allow"),
    ViewRule(part="public.cup_beans", rule="KALA-9", when=_over_opponent,
             says="a bean sown on the opponent's playing cup goes into that cup"),
    ViewRule(part="public.field", rule="KALA-9", when=_over_opponent,
             says="the field cup beneath the opponent's playing cup receives nothing"),
    ViewRule(part="public.cups", rule="KALA-10", when=_into_opponent,
             says="the playing cup goes next to the opponent's cup, never onto it"),
    ViewRule(part="public.phase", rule="KALA-10", when=_into_opponent,
             says="the player chooses a neighbouring cup of the opponent's cup"),
    ViewRule(part="public.cups", rule="KALA-8",
             says="the playing cup moves onto the cup that took the last bean"),
    ViewRule(part="public.stores", rule="KALA-4", when=_regular_sow,
             says="a regular sowing takes 4 beans from the store"),
    ViewRule(part="public.cup_beans", rule="KALA-6", when=_regular_sow,
             says="the first bean goes into the own playing cup"),
    ViewRule(part="public.field", rule="KALA-5",
             says="one bean into each cup of the path, cup by cup"),
    ViewRule(part="public.turn", rule="KALA-3", says="the players take turns"),
    ViewRule(part="to_move", rule="KALA-3", says="the players take turns"),
    ViewRule(part="public", rule="KALA-18", says="the 56 beans are conserved"),
)
"""Which rule decides which part of KALA's public view, most specific first."""


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


TURN: Ladder[Turn] = Ladder(context=_turn, checks=(
    Check(rule="KALA-7", observable="the bonus sowing's path", holds=_bonus_sown_straight,
          says=lambda t: f"a path may turn by 90 degrees once, the bonus sowing too (its own "
                         f"turn, KALA-Q5): with the turn a path holds all "
                         f"{bonus_length(t.want)} beans; the engine sowed them straight along "
                         f"{len(t.bonus_sown or ())} squares"),
    Check(rule="KALA-13", observable="the bonus sowing's path", holds=_bonus_sown_short,
          says=lambda t: f"every bean of the bonus is sown: the path holds "
                         f"{bonus_length(t.want)} beans; the engine sowed "
                         f"{len(t.bonus_sown or ())} along "
                         f"{[list(sq) for sq in t.bonus_sown or ()]}"),
    Check(rule="KALA-9", observable="public.field", holds=_sown_over_opponent,
          says=lambda t: f"the bean sown on the opponent's cup at {list(t.sown_wrong or ())} "
                         f"goes into that cup, not the field cup beneath"),
    Check(rule="KALA-5", observable="public.field", holds=_sown_into_path,
          says=lambda t: f"one bean into each cup of the path: the cup at "
                         f"{list(t.sown_wrong or ())} holds {t.field(t.sown_wrong or (0, 0))}, "
                         f"the engine has {t.seen_field(t.sown_wrong or (0, 0))}"),
    Check(rule="KALA-11", observable="public.cup_beans", holds=_cups_hidden,
          says=lambda t: f"nothing is hidden: the playing cups hold {list(t.want.cup_beans)} "
                         f"beans; the engine's public view shows none"),
    Check(rule="KALA-14", observable="public.stores", holds=_excess_elsewhere,
          says=lambda t: f"the beans of a bonus that no path holds go to the opponent's store: "
                         f"{t.want.stores[t.other]}; the engine has {t.seen.stores[t.other]} "
                         f"(bank {t.seen.bank})"),
    Check(rule="KALA-15", observable="public.bank", holds=_harvest_counted,
          says=lambda t: f"a harvest gives one bean to the bank and the rest to the store: "
                         f"bank {t.want.bank}, store {t.want.stores[t.seat]}; the engine has "
                         f"bank {t.seen.bank}, store {t.seen.stores[t.seat]}"),
    Check(rule="KALA-15", observable="public.phase", holds=_harvest_decided,
          says=lambda t: f"a cup with 4 or more beans after the last bean is harvested: phase "
                         f"{t.want.phase.value}, the engine has {t.seen.phase.value}"),
    Check(rule="KALA-14", observable="public.stores", holds=_bonus_excess_store,
          says=lambda t: f"the opponent's store holds {t.want.stores[t.other]}; the engine has "
                         f"{t.seen.stores[t.other]} (the beans of a bonus no path holds go to "
                         f"it)"),
    Check(rule="KALA-4", observable="public.stores", holds=_opponent_store,
          says=lambda t: f"the opponent's store holds {t.want.stores[t.other]}; the engine has "
                         f"{t.seen.stores[t.other]}"),
    Check(rule="KALA-12", observable="public.stores", holds=_bonus_decision_store,
          says=lambda t: f"a declined bonus leaves the beans in the playing cup: store "
                         f"{t.want.stores[t.seat]}, cup {t.want.cup_beans[t.seat]}; the engine "
                         f"has store {t.seen.stores[t.seat]}, cup {t.seen.cup_beans[t.seat]}"
                         if isinstance(t.action, Bonus) and not t.action.take else
                         f"a bonus taken sows the playing cup's beans: store "
                         f"{t.want.stores[t.seat]}; the engine has {t.seen.stores[t.seat]}"),
    Check(rule="KALA-4", observable="public.stores", holds=_own_store,
          says=lambda t: f"a regular sowing takes 4 beans from the store: "
                         f"{t.want.stores[t.seat]}; the engine has {t.seen.stores[t.seat]}"),
    Check(rule="KALA-16", observable="public.cups", holds=_cup_moved_before_harvest,
          says=lambda t: f"the harvest is decided before the playing cup moves: it stays on "
                         f"{list(t.want.cups[t.seat])} while the harvest is pending; the "
                         f"engine has it on {list(t.seen.cups[t.seat])}"),
    Check(rule="KALA-10", observable="public.cups", holds=_cup_placed,
          says=lambda t: f"the playing cup goes to {list(t.want.cups[t.seat])}; the engine has "
                         f"{list(t.seen.cups[t.seat])}"),
    Check(rule="KALA-8", observable="public.cups", holds=_cup_moved,
          says=lambda t: f"the playing cup goes to {list(t.want.cups[t.seat])}; the engine has "
                         f"{list(t.seen.cups[t.seat])}"),
    Check(rule="P-11", observable="public.phase", holds=_bonus_phase_named,
          says=lambda t: f"the phase is {t.want.phase.value}: bonus_sow while the bonus "
                         f"sowing's path is chosen, bonus only for the decision to take it "
                         f"(bonus=optional); the engine has {t.seen.phase.value}"),
    Check(rule="KALA-12", observable="public.phase", holds=_bonus_given,
          says=lambda t: f"4 or more beans in the playing cup after it moved give a bonus "
                         f"move: the cup holds {t.want.cup_beans[t.seat]}, phase "
                         f"{t.want.phase.value}; the engine has {t.seen.phase.value}"),
    Check(rule="KALA-6", observable="public.cup_beans", holds=_first_bean,
          says=lambda t: f"the first bean goes into the own playing cup: cups hold "
                         f"{list(t.want.cup_beans)}; the engine has {list(t.seen.cup_beans)}"),
    Check(rule="KALA-17", observable="public.phase", holds=_ended,
          says=lambda t: f"the game ends when a player has fewer than 4 beans for his turn: "
                         f"stores {list(t.want.stores)}, phase {t.want.phase.value}; the "
                         f"engine has {t.seen.phase.value}"),
    Check(rule="KALA-3", observable="public.turn", holds=_turn_passed,
          says=lambda t: f"seat {t.want.turn} moves next; the engine has seat {t.seen.turn}"),
))
"""The parts of a turn in their order, each compared with what the engine reports: the
sowing, the harvest, the sixth bean, the stores, the cup's move, the bonus, the end and the
turn."""


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


LEGAL: Ladder[Listed] = Ladder(context=_listed, checks=(
    Check(rule="KALA-7", observable="legal", holds=_only_straight,
          says=lambda x: f"a path may turn by 90 degrees once, the bonus sowing too (its own "
                         f"turn, KALA-Q5): with the turn a path holds all {x.length} beans; "
                         f"the engine lists only straight paths, of {x.straight_only} "
                         f"squares"),
    Check(rule="KALA-13", observable="legal", holds=_bonus_lengths, says=_lengths_says),
    Check(rule="KALA-4", observable="legal", holds=_lengths, says=_lengths_says),
    Check(rule="KALA-7", observable="legal", holds=_turning_left_out, go_on=True,
          says=lambda x: f"one 90-degree turn per sowing is allowed: the engine leaves out "
                         f"{len(x.missing)} paths that turn once"),
    Check(rule="KALA-9", observable="legal", holds=_passing_left_out,
          says=lambda x: f"a path may pass over the opponent's cup: the engine leaves out "
                         f"{len(x.missing)} paths that do"),
))
"""Legal paths the engine leaves out, named by what they share (KALA-7, KALA-9)."""

diagnose = Diagnosis((TURN, LEGAL))
"""KALA's own findings: the turn's parts in their order compared with the engine's
reported state, and legal paths left out named by what they share."""


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
