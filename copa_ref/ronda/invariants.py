"""RONDA's executable invariants, each named after the rule it guards.

Each step invariant takes ``(before, action, after)`` and raises
:class:`~copa_ref.core.errors.InvariantViolation` naming its rule. They recompute what they
check from the transition itself and check what an implementation did (ours, or a foreign
engine's reported states), never the caller's input.
"""

from __future__ import annotations

from collections.abc import Callable

from copa_ref.core import require
from copa_ref.ronda.rules import check_state
from copa_ref.ronda.state import CIRCLE_BEANS, COUNTS, Action, Add, Arrange, Lift, Phase, State

__all__ = [
    "STEP_INVARIANTS",
    "arrangement_is_the_counts",
    "at_most_two_lifted",
    "beans_conserved",
    "black_cup_only_from_a_full_pair",
    "no_cup_over_the_maximum",
    "only_lifted_cups_change",
    "out_only_whole_groups",
    "penalty_only_while_black_holds_beans",
    "state_is_valid",
    "turn_passes_clockwise",
    "winner_is_first_without_beans",
]


def _circle(state: State) -> int:
    return sum(state.cups) if state.cups else CIRCLE_BEANS


def _mismatch(before: State, action: Action, after: State) -> bool:
    """The step revealed two different numbers (RONDA-6)."""
    return (isinstance(action, Lift) and len(before.lifted) == 1
            and before.cups[before.lifted[0]] != before.cups[action.cup])


def beans_conserved(before: State, action: Action, after: State) -> None:
    """RONDA-15: circle + black cup + supplies + out of the game = 20 + the beans dealt, and
    no count is negative."""
    config = after.config
    each = config.beans_per_player if config.solver_beans is None else config.solver_beans
    expected = CIRCLE_BEANS + config.players * each
    total = _circle(after) + after.black + sum(after.supplies) + after.out
    require(total == expected, "RONDA-15", f"{total} beans after {action!r}, not {expected}")
    counts = (*after.cups, after.black, after.out, *after.supplies)
    require(min(counts) >= 0, "RONDA-15", f"a negative count after {action!r}")


def arrangement_is_the_counts(before: State, action: Action, after: State) -> None:
    """RONDA-3: the arrangement puts 1,1,2,2,3,3,4,4,0,0 under the ten cups, as the chance
    action says, and the black cup starts empty."""
    if not isinstance(action, Arrange):
        return
    require(sorted(after.cups) == list(COUNTS) and after.cups == action.cups, "RONDA-3",
            f"cups {after.cups} after arranging {action.cups}")
    require(after.black == 0 and after.out == 0, "RONDA-3", "the black cup starts empty")


def turn_passes_clockwise(before: State, action: Action, after: State) -> None:
    """RONDA-4: only the mover acts; the turn stays or passes to the next seat."""
    if isinstance(action, Arrange):
        require(after.turn == 0, "RONDA-4", "the nominated player (seat 0) begins")
        return
    n = before.config.players
    require(action.seat == before.turn, "RONDA-4",
            f"seat {action.seat} acted in seat {before.turn}'s turn")
    require(after.turn in (before.turn, (before.turn + 1) % n), "RONDA-4",
            f"the turn went from seat {before.turn} to seat {after.turn}")
    if _mismatch(before, action, after):
        require(after.turn == (before.turn + 1) % n and not after.lifted, "RONDA-6",
                "a mismatch covers both cups and passes the turn")


def at_most_two_lifted(before: State, action: Action, after: State) -> None:
    """RONDA-5: never more than two cups are lifted, each at most once, each a place."""
    lifted = after.lifted
    require(len(lifted) <= 2 and len(set(lifted)) == len(lifted), "RONDA-5",
            f"lifted cups {list(lifted)} after {action!r}")
    require(all(0 <= c < len(after.cups) for c in lifted), "RONDA-5",
            f"lifted cups {list(lifted)} are not all places of the circle")


def only_lifted_cups_change(before: State, action: Action, after: State) -> None:
    """RONDA-7: a cup's beans change only when it is open: the added bean goes onto a matched
    cup (and a full pair's group leaves it, RONDA-10)."""
    if isinstance(action, Arrange):
        return
    for place, (old, new) in enumerate(zip(before.cups, after.cups, strict=True)):
        if old != new:
            require(isinstance(action, Add) and action.cup == place
                    and place in before.lifted, "RONDA-7",
                    f"the cup at place {place} went {old} -> {new} on {action!r}")
    if isinstance(action, Add):
        seat = before.turn
        require(after.supplies[seat] == before.supplies[seat] - 1, "RONDA-7",
                f"seat {seat}'s supply went {before.supplies[seat]} -> "
                f"{after.supplies[seat]} on adding a bean")


def no_cup_over_the_maximum(before: State, action: Action, after: State) -> None:
    """RONDA-10, RONDA-17: no cup of the circle ever holds more than the maximum (5, or 4)."""
    top = after.config.max_beans
    if after.cups:
        rule = "RONDA-17" if top == 4 else "RONDA-10"
        require(max(after.cups) <= top, rule, f"a cup holds {max(after.cups)} beans")


def black_cup_only_from_a_full_pair(before: State, action: Action, after: State) -> None:
    """RONDA-10, RONDA-18: the black cup takes beans only while empty, only a group of the
    maximum with the added bean, and never without penalty beans."""
    if after.black <= before.black:
        return
    top = before.config.max_beans
    require(before.config.penalty_beans, "RONDA-18",
            "the black cup took beans without penalty beans")
    full_pair = (isinstance(action, Add) and len(before.lifted) == 2
                 and all(before.cups[c] == top for c in before.lifted))
    require(full_pair and before.black == 0 and after.black == top + 1, "RONDA-10",
            f"the black cup went {before.black} -> {after.black} on {action!r}")


def out_only_whole_groups(before: State, action: Action, after: State) -> None:
    """RONDA-12, RONDA-18: beans leave the game only as a group of the maximum with the
    added bean, while the black cup holds beans or without penalty beans."""
    if after.out == before.out:
        return
    top = before.config.max_beans
    full_pair = (isinstance(action, Add) and len(before.lifted) == 2
                 and all(before.cups[c] == top for c in before.lifted))
    rule = "RONDA-12" if before.config.penalty_beans else "RONDA-18"
    require(full_pair and after.out == before.out + top + 1, rule,
            f"beans out of the game went {before.out} -> {after.out} on {action!r}")
    require(before.black > 0 or not before.config.penalty_beans, "RONDA-12",
            "a group left the game while the black cup was empty")


def penalty_only_while_black_holds_beans(before: State, action: Action, after: State) -> None:
    """RONDA-11: a penalty bean moves from the black cup to the mover exactly on a mismatch
    while the black cup holds beans."""
    seat = before.turn
    due = _mismatch(before, action, after) and before.black > 0
    if after.black < before.black:
        require(due and after.black == before.black - 1, "RONDA-11",
                f"the black cup went {before.black} -> {after.black} on {action!r}")
    if due:
        require(after.black == before.black - 1
                and after.supplies[seat] == before.supplies[seat] + 1, "RONDA-11",
                f"no penalty bean for seat {seat}'s mismatch")
    elif not isinstance(action, Add):
        require(after.supplies == before.supplies, "RONDA-11",
                f"supplies changed without a penalty on {action!r}")


def winner_is_first_without_beans(before: State, action: Action, after: State) -> None:
    """RONDA-13: the game is over exactly when the mover has just given away his last bean;
    he is the winner."""
    zeros = [s for s, beans in enumerate(after.supplies) if beans == 0]
    if after.phase is Phase.OVER:
        require(zeros == [before.turn] == [after.turn], "RONDA-13",
                f"game over with seats {zeros} out of beans, winner seat {after.turn}")
    else:
        require(not zeros, "RONDA-13", f"seat {zeros} has no beans, but the game goes on")


def state_is_valid(before: State, action: Action, after: State) -> None:
    """RONDA-1 .. RONDA-18: the state after the step is one legal play can produce."""
    try:
        check_state(after)
    except ValueError as exc:
        rule = getattr(exc, "rule", "RONDA-15")
        require(False, rule, f"after {action!r}: {exc}")


STEP_INVARIANTS: tuple[Callable[[State, Action, State], None], ...] = (
    beans_conserved,
    arrangement_is_the_counts,
    turn_passes_clockwise,
    at_most_two_lifted,
    only_lifted_cups_change,
    no_cup_over_the_maximum,
    black_cup_only_from_a_full_pair,
    out_only_whole_groups,
    penalty_only_while_black_holds_beans,
    winner_is_first_without_beans,
    state_is_valid,
)
"""Every RONDA step invariant, in the order of the spec."""
