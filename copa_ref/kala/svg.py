"""A KALA position as an SVG picture: the 4 × 4 field, both playing cups, stores and bank.

Everything in KALA is public (:rule:`KALA-11`), so a seat's view is the whole position, titled as
that seat's.
"""

from __future__ import annotations

from copa_ref.core.svg import Drawing
from copa_ref.kala.rules import observe
from copa_ref.kala.state import BOARD, Phase, State

__all__ = ["svg"]

_SQUARE = 64
_LEFT = 116
_TOP = 70
_WIDTH = _LEFT * 2 + _SQUARE * BOARD
_HEIGHT = _TOP + _SQUARE * BOARD + 70
_COLOURS = ("dark", "light")


def _centre(row: int, col: int) -> tuple[float, float]:
    return _LEFT + _SQUARE * col + _SQUARE / 2, _TOP + _SQUARE * row + _SQUARE / 2


def _status(state: State) -> str:
    if state.phase is Phase.OVER:
        return f"game over: seat {1 - state.turn} wins (seat {state.turn} cannot sow 4)"
    bonus = " (bonus sowing)" if state.bonus_sowing and state.phase is not Phase.BONUS_SOW else ""
    return f"seat {state.turn} to {state.phase.value.replace('_', ' ')}{bonus}"


def _describe(state: State) -> str:
    parts = [f"KALA, {_status(state)}."]
    for seat in (0, 1):
        row, col = state.cups[seat]
        parts.append(
            f"Seat {seat}'s playing cup ({_COLOURS[seat]}) stands on [{row}, {col}] with "
            f"{state.cup_beans[seat]} beans, over a field cup with "
            f"{state.field[BOARD * row + col]}."
        )
    parts.append(f"Stores: seat 0 has {state.stores[0]}, seat 1 has {state.stores[1]}; "
                 f"the bank holds {state.bank}.")
    if state.last is not None:
        parts.append(f"The last bean went to [{state.last[0]}, {state.last[1]}].")
    rows = " / ".join(
        " ".join(str(state.field[BOARD * r + c]) for c in range(BOARD)) for r in range(BOARD)
    )
    parts.append(f"Field cups row by row: {rows}.")
    return " ".join(parts)


def svg(state: State, seat: int | None = None) -> str:
    """The position as SVG text; with *seat*, titled as that seat's view (nothing is hidden).

    A field cup shows its beans. A playing cup is a ring in its owner's colour (seat 0 dark,
    seat 1 light) with its own beans inside and the beans of the field cup beneath it below
    (``▾2``). A dashed square marks where the last bean went, while a harvest or placement
    waits. Pure and deterministic.

    :raises MalformedInputError: for a value that is not a KALA state, or a seat that is
        neither ``None`` nor 0 or 1.
    """
    state = observe(state, seat)  # the entry check: a state of the game, a seat at its table
    view = "" if seat is None else f", as seat {seat} sees it"
    drawing = Drawing(_WIDTH, _HEIGHT, title=f"KALA: {_status(state)}{view}",
                      desc=_describe(state))
    drawing.text(_WIDTH / 2, 26, _status(state), size=16, bold=True)
    drawing.add("rect", class_="board", x=_LEFT - 8, y=_TOP - 8, width=_SQUARE * BOARD + 16,
                height=_SQUARE * BOARD + 16, rx=12)
    for index in range(BOARD):
        x, _ = _centre(0, index)
        drawing.text(x, _TOP - 14, str(index), size=11, cls="muted")
        _, y = _centre(index, 0)
        drawing.text(_LEFT - 16, y + 4, str(index), size=11, cls="muted")
    for row in range(BOARD):
        for col in range(BOARD):
            x, y = _centre(row, col)
            beans = state.field[BOARD * row + col]
            drawing.add("circle", class_="cup", cx=x, cy=y, r=24)
            owners = [s for s in (0, 1) if state.cups[s] == (row, col)]
            if not owners:
                drawing.text(x, y + 6, str(beans), size=17)
                continue
            owner = owners[0]
            drawing.add("circle", class_=f"ring-{_COLOURS[owner]}", cx=x, cy=y, r=27)
            drawing.text(x, y + 4, str(state.cup_beans[owner]), size=19, bold=True,
                         cls=_COLOURS[owner])
            drawing.text(x, y + 19, f"▾{beans}", size=10, cls="muted")
    if state.last is not None and state.phase in (Phase.HARVEST, Phase.PLACE):
        x, y = _centre(*state.last)
        drawing.add("rect", class_="mark", x=x - 30, y=y - 30, width=60, height=60, rx=8)
    for seat, x in ((0, _LEFT / 2 - 4), (1, _WIDTH - _LEFT / 2 + 4)):
        y = _TOP + _SQUARE * 1.2
        drawing.add("rect", class_="cup", x=x - 38, y=y, width=76, height=70, rx=10)
        drawing.add("circle", class_=_COLOURS[seat], cx=x - 24, cy=y + 14, r=6)
        drawing.text(x + 6, y + 19, f"seat {seat}", size=12, anchor="middle")
        drawing.text(x, y + 52, str(state.stores[seat]), size=24, bold=True)
        drawing.text(x, y + 90, "store", size=11, cls="muted")
    bank_y = _TOP + _SQUARE * BOARD + 24
    drawing.add("rect", class_="cup", x=_WIDTH / 2 - 60, y=bank_y, width=120, height=34, rx=10)
    drawing.text(_WIDTH / 2, bank_y + 23, f"bank {state.bank}", size=15)
    return drawing.to_string()
