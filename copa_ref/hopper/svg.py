"""A HOPPER position as an SVG picture: the tray with its cups and their beans, the loose
beans, every seat's hand and claimed cups, and who acts.

Drawn with :class:`~copa_ref.core.svg.Drawing` (standard library only, light and dark
themes). HOPPER hides nothing (HOPPER-18), so a seat's view is the whole position, titled
as that seat's.
"""

from __future__ import annotations

import math

from copa_ref.core.svg import Drawing
from copa_ref.hopper.rules import observe, outcome
from copa_ref.hopper.state import BLACK, Phase, State

__all__ = ["describe", "svg"]

_CELL = 60
_LEFT = 24
_TOP = 52
_SIDE = 4


def _cup_name(cup: int) -> str:
    return "the black cup" if cup == BLACK else f"cup {cup}"


def _status(state: State) -> str:
    result = outcome(state)
    if result is not None:
        who = ", ".join(str(int(w)) for w in result.winners)
        return f"game over: seat(s) {who} won, scores {list(result.scores)}"
    if state.phase is Phase.LAND:
        aim = "" if state.aim is None else f", aimed at {_cup_name(state.aim)}"
        return f"seat {state.turn}'s bean is in the air{aim}"
    if state.turn is None:
        return "shoot-out: any seat that may shoot shoots next"
    return f"seat {state.turn} to shoot"


def describe(state: State) -> str:
    """The position in words (the picture's ``<desc>``)."""
    cups = ", ".join(f"{_cup_name(cup)} {beans}" for cup, beans in state.tray) or "none"
    parts = [f"HOPPER, {len(state.hands)} players, {state.config.ending.value}: "
             f"{_status(state)}.", f"Cups in the tray with their beans: {cups}.",
             f"{state.loose} loose beans."]
    for seat, held in enumerate(state.hands):
        claimed = [_cup_name(cup) for who, cup in state.claims if who == seat]
        parts.append(f"Seat {seat} holds {held} beans and has claimed "
                     f"{', '.join(claimed) or 'no cup'}.")
    if state.claims:
        parts.append(f"Claimed in the order {', '.join(str(c) for _, c in state.claims)}.")
    if state.phase is Phase.OVER and not state.tray and state.claims:
        who, cup = state.claims[-1]
        parts.append(f"The last cup, {_cup_name(cup)}, went to seat {who}.")
    return " ".join(parts)


def svg(state: State, seat: int | None = None) -> str:
    """The position as SVG text; with *seat*, titled as that seat's view (nothing is hidden).

    A cup shows its name and its beans (up to 3 dots); the black cup is drawn dark; a dashed
    ring marks the cup a bean in the air was aimed at. Pure and deterministic.

    :raises MalformedInputError: for a value that is not a HOPPER state, or a seat that is
        neither ``None`` nor one of its seats.
    """
    state = observe(state, seat)  # HOPPER-18: the whole state; the state and seat checked
    rows = max(1, math.ceil(len(state.tray) / _SIDE))
    tray_height = _CELL * rows
    width = _LEFT * 2 + _CELL * _SIDE + 250
    height = _TOP + max(tray_height, 32 * (len(state.hands) + 1)) + 30
    view = "" if seat is None else f", as seat {seat} sees it"
    drawing = Drawing(width, height, title=f"HOPPER: {_status(state)}{view}",
                      desc=describe(state))
    drawing.text(width / 2, 28, _status(state), size=15, bold=True)
    drawing.add("rect", class_="board", x=_LEFT - 6, y=_TOP - 6, width=_CELL * _SIDE + 12,
                height=tray_height + 12, rx=10)
    for i, (cup, beans) in enumerate(state.tray):
        x = _LEFT + _CELL * (i % _SIDE) + _CELL / 2
        y = _TOP + _CELL * (i // _SIDE) + _CELL / 2
        black = cup == BLACK
        drawing.add("circle", class_="dark" if black else "cup", cx=x, cy=y, r=24)
        if state.phase is Phase.LAND and state.aim == cup:
            drawing.add("circle", class_="mark", cx=x, cy=y, r=28)
        for b in range(beans):
            angle = 2 * math.pi * b / 3 - math.pi / 2
            drawing.add("circle", class_="light", cx=round(x + 10 * math.cos(angle), 2),
                        cy=round(y + 4 + 10 * math.sin(angle), 2), r=4.5)
        drawing.text(x, y - 10, "B" if black else str(cup), size=10,
                     cls="paper" if black else "muted")
    if state.phase is Phase.OVER and not state.tray and state.claims:
        # End 2 over: the tray is empty; the last cup claimed is drawn where it stood, a
        # dashed ring with its name, and who took it (it counts 3, HOPPER-16).
        who, cup = state.claims[-1]
        x, y = _LEFT + _CELL / 2, _TOP + _CELL / 2
        drawing.add("circle", class_="mark", cx=x, cy=y, r=24)
        drawing.text(x, y + 4, "B" if cup == BLACK else str(cup), size=12, bold=True)
        drawing.text(x + _CELL / 2 + 4, y - 4, f"last cup: {_cup_name(cup)}", anchor="start",
                     size=12)
        drawing.text(x + _CELL / 2 + 4, y + 12, f"to seat {who}: 3 points", anchor="start",
                     size=12)
    column = _LEFT * 2 + _CELL * _SIDE
    drawing.text(column, _TOP + 8, f"loose beans: {state.loose}", anchor="start", size=13)
    for s, held in enumerate(state.hands):
        cups = " ".join("B" if cup == BLACK else str(cup) for who, cup in state.claims
                        if who == s)
        drawing.text(column, _TOP + 34 + 32 * s, f"seat {s}: {held} beans", anchor="start",
                     size=13)
        drawing.text(column, _TOP + 48 + 32 * s, f"cups [{cups}]", anchor="start", size=10,
                     cls="muted")
    return drawing.to_string()
