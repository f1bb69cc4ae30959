"""KALA: which rule decides which part of the public view (the whole state, KALA-11).

Rule IDs refer to ``specs/kala.md``. The order is from the most specific rule to the most
general: the bean conservation of KALA-18 comes last.
"""

from __future__ import annotations

from collections.abc import Iterator

from copa_ref.conformance.vocabulary import Divergence, Finding, ViewRule
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

__all__ = ["VIEW_RULES", "diagnose", "legal_rule"]

KalaDivergence = Divergence[State, Action, Config, State]
KalaView = ViewRule[State, Action, Config, State]


def _phases(d: KalaDivergence) -> set[Phase]:
    """The phases after the step, in the reference and as reported."""
    found = {d.expected.phase}
    if d.reported_view is not None:
        found.add(d.reported_view.phase)
    return found


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
    return bool(_phases(d) & {Phase.BONUS, Phase.BONUS_SOW}) and not _bonus_sow(d)


def _over_opponent(d: KalaDivergence) -> bool:
    return (isinstance(d.action, Sow)
            and d.before.cups[1 - d.before.turn] in d.action.path[1:])


def _into_opponent(d: KalaDivergence) -> bool:
    return isinstance(d.action, Place) or (
        isinstance(d.action, Sow) and d.action.path[-1] == d.before.cups[1 - d.before.turn])




def _over(d: KalaDivergence) -> bool:
    return Phase.OVER in _phases(d)


def _harvest_phase(d: KalaDivergence) -> bool:
    return Phase.HARVEST in _phases(d) or isinstance(d.action, Harvest)


def _bonus_phase(d: KalaDivergence) -> bool:
    return d.expected.phase is Phase.BONUS_SOW or isinstance(d.action, Bonus)


def _start(d: KalaDivergence) -> bool:
    """The initial position (step 0)."""
    return d.step == 0


VIEW_RULES: tuple[KalaView, ...] = (
    ViewRule(part="public.cups", rule="KALA-2", when=_start,
             says="the playing cups start in opposite corners"),
    ViewRule(part="public.turn", rule="KALA-3", when=_start,
             says="the nominated first player moves first"),
    ViewRule(part="to_move", rule="KALA-3", when=_start,
             says="the nominated first player moves first"),
    ViewRule(part="public", rule="KALA-1", when=_start,
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


def _straight_only(state: State, shown: list[tuple[Square, ...] | None],
                   length: int) -> Finding | None:
    """KALA-7, the cause of a shorter bonus path: the engine lists only straight paths, of
    the longest straight path's length, where a path with its one 90-degree turn holds
    *length* beans (a path's length is then the symptom, not the broken rule)."""
    if state.phase is not Phase.BONUS_SOW or not shown or None in shown:
        return None
    start = state.cups[state.turn]
    lengths = {len(p) for p in shown if p is not None}
    if len(lengths) != 1 or any(turns(p) for p in shown if p is not None):
        return None
    (listed,) = lengths
    if listed >= length or listed != _straight_longest(start):
        return None
    return Finding("KALA-7", f"a path may turn by 90 degrees once, the bonus sowing too "
                             f"(its own turn, KALA-Q5): with the turn a path holds all "
                             f"{length} beans; the engine lists only straight paths, of "
                             f"{listed} squares")


def _straight_longest(start: Square) -> int:
    """The most squares a straight path from *start* has."""
    return max(n for (first, n), paths in PATHS.items()
               if first == start and any(turns(p) == 0 for p in paths))


def _bonus_sown_short(d: KalaDivergence, seen: State) -> Finding | None:
    """The engine sowed the bonus at once where the reference waits for the bonus path: the
    engine's path found by sowing each path from the cup's square no longer than the bonus
    (the rest to the opponent) and comparing with the reported state. The only straight
    path of the bonus's length, or the longest straight path where a turning one holds
    every bean, breaks KALA-7 (a bonus sowing may turn once); a shorter path KALA-13."""
    want = d.expected
    if want.phase is not Phase.BONUS_SOW or seen.phase is Phase.BONUS_SOW:
        return None
    seat = want.turn
    start, beans = want.cups[seat], want.cup_beans[seat]
    shown = canonical_json(GAME.to_json(seen))
    for (first, n), paths in PATHS.items():
        if first != start or n > bonus_length(want):
            continue
        straight = [p for p in paths if turns(p) == 0]
        for path in paths:
            if n == bonus_length(want) and (turns(path) or len(straight) != 1):
                continue  # a legal path: the engine sowed its only straight one, or none
            sown = _sow(want, path)
            if canonical_json(GAME.to_json(sown)) != shown:
                continue
            if turns(path) == 0 and n == min(beans, _straight_longest(start)):
                return Finding("KALA-7", f"a path may turn by 90 degrees once, the bonus "
                                         f"sowing too (its own turn, KALA-Q5): with the turn "
                                         f"a path holds all {bonus_length(want)} beans; the "
                                         f"engine sowed them straight along {n} squares")
            return Finding("KALA-13", f"every bean of the bonus is sown: the path holds "
                                      f"{bonus_length(want)} beans; the engine sowed "
                                      f"{n} along {[list(sq) for sq in path]}")
    return None


def _legal_findings(d: KalaDivergence) -> Iterator[Finding]:
    """Legal paths the engine leaves out, named by what they share (KALA-7, KALA-9)."""
    state = d.expected
    listed = d.reported.legal.get(None)
    if listed is None or state.phase not in (Phase.SOW, Phase.BONUS_SOW):
        return
    shown = {canonical_json(a) for a in listed}
    missing = [a for a in legal_actions(state, None)
               if isinstance(a, Sow) and canonical_json(GAME.to_json(a)) not in shown]
    if not missing:
        return
    length = len(missing[0].path)
    shown_paths = [_path_of(a) for a in listed]
    shown_lengths = {len(p) for p in shown_paths if p is not None}
    straight = _straight_only(state, shown_paths, length)
    if straight is not None:
        yield straight
        return
    if shown_lengths and shown_lengths != {length}:
        rule = "KALA-13" if state.phase is Phase.BONUS_SOW else "KALA-4"
        yield Finding(rule, f"the sowing puts {length} beans into play, one a square: the "
                            f"engine lists paths of {sorted(shown_lengths)} squares")
        return
    if all(turns(a.path) == 1 for a in missing):
        yield Finding("KALA-7", f"one 90-degree turn per sowing is allowed: the engine leaves "
                                f"out {len(missing)} paths that turn once")
    other = state.cups[1 - state.turn]
    if all(other in a.path[1:] for a in missing):
        yield Finding("KALA-9", f"a path may pass over the opponent's cup: the engine leaves "
                                f"out {len(missing)} paths that do")


def _step_findings(d: KalaDivergence, seen: State) -> Iterator[Finding]:
    """The parts of a turn in their order, each compared with what the engine reports:
    the sowing, the harvest, the sixth bean, the stores, the cup's move, the bonus, the
    end and the turn."""
    before, want = d.before, d.expected
    seat, other = before.turn, 1 - before.turn
    action = d.action
    short = _bonus_sown_short(d, seen)
    if short is not None:
        yield short
        return
    if isinstance(action, Sow):
        last = action.path[-1]
        for square in action.path[1:]:
            index = 4 * square[0] + square[1]
            if square == last and square != before.cups[other]:
                continue  # the last cup may be harvested: judged below
            if square == before.cups[other]:
                if seen.field[index] != want.field[index] or (
                        seen.cup_beans[other] != want.cup_beans[other]):
                    yield Finding("KALA-9", f"the bean sown on the opponent's cup at "
                                            f"{list(square)} goes into that cup, not the field "
                                            f"cup beneath")
                    return
            elif seen.field[index] != want.field[index]:
                yield Finding("KALA-5", f"one bean into each cup of the path: the cup at "
                                        f"{list(square)} holds {want.field[index]}, the engine "
                                        f"has {seen.field[index]}")
                return
    if seen.cup_beans == (0, 0) and want.cup_beans != (0, 0) and (
            seen.field, seen.stores, seen.bank) == (want.field, want.stores, want.bank):
        yield Finding("KALA-11", f"nothing is hidden: the playing cups hold "
                                 f"{list(want.cup_beans)} beans; the engine's public view shows "
                                 "none")
        return
    if _excess(d) and seen.stores[other] != want.stores[other]:
        # The beans no path holds leave the cup in the same step as a harvest may: the
        # opponent's store tells which of the two the engine reads otherwise.
        yield Finding("KALA-14", f"the beans of a bonus that no path holds go to the "
                                 f"opponent's store: {want.stores[other]}; the engine has "
                                 f"{seen.stores[other]} (bank {seen.bank})")
        return
    harvested = want.bank != before.bank or seen.bank != before.bank
    if harvested and (seen.bank != want.bank or seen.stores[seat] != want.stores[seat]):
        yield Finding("KALA-15", f"a harvest gives one bean to the bank and the rest to the "
                                 f"store: bank {want.bank}, store {want.stores[seat]}; the "
                                 f"engine has bank {seen.bank}, store {seen.stores[seat]}")
        return
    if (Phase.HARVEST in (seen.phase, want.phase) and seen.phase is not want.phase) or (
            want.bank == before.bank) != (seen.bank == before.bank):
        yield Finding("KALA-15", f"a cup with 4 or more beans after the last bean is "
                                 f"harvested: phase {want.phase.value}, the engine has "
                                 f"{seen.phase.value}")
        return
    if seen.stores[other] != want.stores[other]:
        rule = "KALA-14" if before.phase is Phase.BONUS_SOW else "KALA-4"
        yield Finding(rule, f"the opponent's store holds {want.stores[other]}; the engine has "
                            f"{seen.stores[other]}"
                      + (" (the beans of a bonus no path holds go to it)"
                         if rule == "KALA-14" else ""))
        return
    if seen.stores[seat] != want.stores[seat] and isinstance(action, Bonus):
        # Nothing is sown in this step: the bonus decision is what moved the beans.
        yield Finding("KALA-12", f"a declined bonus leaves the beans in the playing cup: "
                                 f"store {want.stores[seat]}, cup {want.cup_beans[seat]}; the "
                                 f"engine has store {seen.stores[seat]}, cup "
                                 f"{seen.cup_beans[seat]}"
                      if not action.take else
                      f"a bonus taken sows the playing cup's beans: store "
                      f"{want.stores[seat]}; the engine has {seen.stores[seat]}")
        return
    if seen.stores[seat] != want.stores[seat]:
        yield Finding("KALA-4", f"a regular sowing takes 4 beans from the store: "
                                f"{want.stores[seat]}; the engine has {seen.stores[seat]}")
        return
    if want.phase is Phase.HARVEST and seen.cups[seat] != want.cups[seat]:
        yield Finding("KALA-16", f"the harvest is decided before the playing cup moves: it "
                                 f"stays on {list(want.cups[seat])} while the harvest is "
                                 f"pending; the engine has it on {list(seen.cups[seat])}")
        return
    if seen.cups[seat] != want.cups[seat] or (
            Phase.PLACE in (seen.phase, want.phase) and seen.phase is not want.phase):
        into = isinstance(action, Place) or (isinstance(action, Sow)
                                             and action.path[-1] == before.cups[other])
        rule = "KALA-10" if into else "KALA-8"
        yield Finding(rule, f"the playing cup goes to {list(want.cups[seat])}; the engine has "
                            f"{list(seen.cups[seat])}")
        return
    bonus = {Phase.BONUS, Phase.BONUS_SOW}
    if want.phase in bonus and seen.phase in bonus and want.phase is not seen.phase:
        yield Finding("P-11", f"the phase is {want.phase.value}: bonus_sow while the bonus "
                              f"sowing's path is chosen, bonus only for the decision to take "
                              f"it (bonus=optional); the engine has {seen.phase.value}")
        return
    if (want.phase in bonus) != (seen.phase in bonus) or seen.bonus_sowing != want.bonus_sowing:
        yield Finding("KALA-12", f"4 or more beans in the playing cup after it moved give a "
                                 f"bonus move: the cup holds {want.cup_beans[seat]}, phase "
                                 f"{want.phase.value}; the engine has {seen.phase.value}")
        return
    if seen.cup_beans != want.cup_beans:
        yield Finding("KALA-6", f"the first bean goes into the own playing cup: cups hold "
                                f"{list(want.cup_beans)}; the engine has {list(seen.cup_beans)}")
        return
    if (want.phase is Phase.OVER) != (seen.phase is Phase.OVER):
        yield Finding("KALA-17", f"the game ends when a player has fewer than 4 beans for his "
                                 f"turn: stores {list(want.stores)}, phase {want.phase.value}; "
                                 f"the engine has {seen.phase.value}")
        return
    if seen.turn != want.turn:
        yield Finding("KALA-3", f"seat {want.turn} moves next; the engine has seat {seen.turn}")


def diagnose(d: KalaDivergence) -> Iterator[Finding]:
    """KALA's own findings: the turn's parts in their order compared with the engine's
    reported state, and legal paths left out named by what they share."""
    seen = d.reported_view
    if seen is not None and d.step > 0 and canonical_json(GAME.to_json(seen)) != canonical_json(
            GAME.to_json(d.expected)):
        yield from _step_findings(d, seen)
    yield from _legal_findings(d)


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
