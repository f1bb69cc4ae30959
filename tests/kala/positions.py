"""Hand-built KALA positions for the rule tests."""

from __future__ import annotations

from copa_ref.kala import Config, Phase, State, check_state
from copa_ref.kala.state import TOTAL_BEANS, Square


def position(
    *,
    field: dict[Square, int] | None = None,
    cups: tuple[Square, Square] = ((0, 0), (3, 3)),
    cup_beans: tuple[int, int] = (0, 0),
    store0: int = 20,
    bank: int = 0,
    turn: int = 0,
    phase: Phase = Phase.SOW,
    config: Config | None = None,
    last: Square | None = None,
    bonus_sowing: bool = False,
) -> State:
    """A checked position; seat 1's store holds whatever beans the rest leaves of the 56."""
    cells = [0] * 16
    for (row, col), beans in (field or {}).items():
        cells[4 * row + col] = beans
    store1 = TOTAL_BEANS - sum(cells) - sum(cup_beans) - store0 - bank
    state = State(
        config=config or Config(),
        field=tuple(cells),
        cups=cups,
        cup_beans=cup_beans,
        stores=(store0, store1),
        bank=bank,
        turn=turn,
        phase=phase,
        bonus_sowing=bonus_sowing,
        last=last,
    )
    check_state(state)
    return state


def beans_at(state: State, square: Square) -> int:
    """The beans in the field cup on *square*."""
    return state.field[4 * square[0] + square[1]]
