"""KALA's executable invariants, each named after the rule it guards.

Each step invariant takes ``(before, action, after)`` and raises
:class:`~copa_ref.core.errors.InvariantViolation` naming its rule. They check what an implementation
(ours, or a foreign engine's reports) did, never the caller's input.
"""

from __future__ import annotations

from copa_ref.core import require
from copa_ref.kala.paths import is_path, longest_path
from copa_ref.kala.rules import check_state, total_beans
from copa_ref.kala.state import PLAYERS, TOTAL_BEANS, Action, BonusRule, Phase, Sow, State

__all__ = [
    "STEP_INVARIANTS",
    "beans_conserved",
    "bonus_sows_all_it_can",
    "covered_cups_untouched",
    "end_exactly_when_out_of_beans",
    "only_the_mover_pays",
    "sowing_path_is_legal",
    "state_is_valid",
]


def beans_conserved(before: State, action: Action, after: State) -> None:
    """KALA-18: the 56 beans (KALA-V1: twice the store) are all in play and no count is
    negative."""
    store = after.config.store
    expected = TOTAL_BEANS if store is None else PLAYERS * store
    require(total_beans(after) == expected, "KALA-18",
            f"{total_beans(after)} beans after {action!r}, not {expected}")
    counts = (*after.stores, *after.cup_beans, after.bank, *after.field)
    require(min(counts) >= 0, "KALA-18", f"a negative count after {action!r}")


def sowing_path_is_legal(before: State, action: Action, after: State) -> None:
    """KALA-4 .. KALA-7: a sowing starts on the own cup, goes orthogonally square by square
    on the field, never revisits a square, and turns 90° at most once."""
    if not isinstance(action, Sow):
        return
    length = 4 if before.phase is Phase.SOW else len(action.path)
    require(before.phase in (Phase.SOW, Phase.BONUS_SOW), "KALA-4",
            f"a sowing in phase {before.phase.value}")
    require(is_path(before.cups[before.turn], action.path, length), "KALA-7",
            f"illegal sowing path {action.path}")


def covered_cups_untouched(before: State, action: Action, after: State) -> None:
    """KALA-9: a field cup under a playing cup receives nothing from a sowing."""
    if not isinstance(action, Sow):
        return
    for row, col in before.cups:
        require(after.field[4 * row + col] == before.field[4 * row + col], "KALA-9",
                f"the covered field cup at {(row, col)} changed during {action!r}")


def bonus_sows_all_it_can(before: State, action: Action, after: State) -> None:
    """KALA-12 .. KALA-14: the bonus sows every bean a path holds, at most 6 when the bonus is
    mandatory, and only the beans no path holds go to the opponent's store."""
    if not (isinstance(action, Sow) and before.phase is Phase.BONUS_SOW):
        return
    seat, other = before.turn, 1 - before.turn
    beans = before.cup_beans[seat]
    start = before.cups[seat]
    require(len(action.path) == min(beans, longest_path(start)), "KALA-13",
            f"{beans} bonus beans sown along {len(action.path)} squares from {start}")
    if before.config.bonus is BonusRule.MANDATORY:
        require(4 <= beans <= 6, "KALA-13", f"a bonus move of {beans} beans")
    excess = beans - len(action.path)
    require(after.stores[other] == before.stores[other] + excess, "KALA-14",
            f"the opponent's store went {before.stores[other]} -> {after.stores[other]} "
            f"with {excess} beans left over")


def only_the_mover_pays(before: State, action: Action, after: State) -> None:
    """KALA-3, KALA-4: only the player to move acts, takes 4 beans from his own store for a
    regular sowing, and the opponent's store never shrinks."""
    seat = before.turn
    require(action.seat == seat, "KALA-3", f"seat {action.seat} acted in seat {seat}'s turn")
    require(after.stores[1 - seat] >= before.stores[1 - seat], "KALA-4",
            "the opponent's store shrank")
    if isinstance(action, Sow) and before.phase is Phase.SOW:
        require(after.stores[seat] >= before.stores[seat] - 4, "KALA-4",
                "a sowing took more than 4 beans from the store")


def end_exactly_when_out_of_beans(before: State, action: Action, after: State) -> None:
    """KALA-17: the game is over exactly when the player to move (or who just moved, when the
    end is checked after the turn) holds fewer than 4 beans."""
    if after.phase is Phase.OVER:
        require(after.stores[after.turn] < 4, "KALA-17",
                f"game over with seat {after.turn} holding {after.stores[after.turn]}")
    elif after.phase is Phase.SOW:
        require(after.stores[after.turn] >= 4, "KALA-17",
                f"seat {after.turn} is to sow with {after.stores[after.turn]} beans")
        require(after.turn != before.turn or before.phase is Phase.OVER, "KALA-3",
                "a new turn for the same player")


def state_is_valid(before: State, action: Action, after: State) -> None:
    """KALA-1 .. KALA-18: the state after the step is one legal play can produce."""
    try:
        check_state(after)
    except ValueError as exc:
        rule = getattr(exc, "rule", "KALA-1")
        require(False, rule, f"after {action!r}: {exc}")


STEP_INVARIANTS = (
    beans_conserved,
    sowing_path_is_legal,
    covered_cups_untouched,
    bonus_sows_all_it_can,
    only_the_mover_pays,
    end_exactly_when_out_of_beans,
    state_is_valid,
)
"""Every KALA step invariant, in the order of the spec."""
