"""A RONDA position as an SVG picture: the ten cups in a circle around the black cup, the
supplies and the beans out of the game.

Nobody sees under a covered cup (:rule:`RONDA-14`), so every picture — the public view and
each seat's — shows exactly the observation: a lifted cup shows its beans, a covered cup
``?``; a cup covered again at once after a mismatch is marked with the count its lift
showed. Drawn with :class:`copa_ref.core.svg.Drawing` (the shared palette, light and dark).
"""

from __future__ import annotations

import math

from copa_ref.core.svg import Drawing
from copa_ref.ronda.demo import status
from copa_ref.ronda.rules import observe
from copa_ref.ronda.state import PLACES, Observation, State

__all__ = ["svg"]

_WIDTH = 360
_HEIGHT = 440
_CENTRE = (_WIDTH / 2, 200)
_RING = 118
_CUP = 24


def _place(place: int, radius: float) -> tuple[float, float]:
    angle = 2 * math.pi * place / PLACES - math.pi / 2
    return _CENTRE[0] + radius * math.cos(angle), _CENTRE[1] + radius * math.sin(angle)


def _describe(seen: Observation, words: str) -> str:
    parts = [f"RONDA, {words}."]
    if seen.lifted:
        parts.append("Lifted: " + ", ".join(f"place {c} shows {b}" for c, b in seen.lifted)
                     + "; every other cup is covered.")
    else:
        parts.append("Every cup is covered.")
    if seen.shown is not None:
        parts.append(f"The last lift showed {seen.shown[1]} at place {seen.shown[0]}.")
    supplies = ", ".join(f"seat {s} has {b}" for s, b in enumerate(seen.supplies))
    parts.append(f"The circle holds {seen.circle} beans, the black cup {seen.black}, "
                 f"{seen.out} are out of the game; {supplies}.")
    return " ".join(parts)


def svg(state: State, seat: int | None = None) -> str:
    """The position as SVG text: what every seat and a spectator see (*seat* only titles it).

    A lifted cup shows its beans inside a dashed ring; a covered cup shows ``?``; a cup the
    last lift showed and that was covered again carries that count under it (``was 3``). The
    black cup in the middle shows its beans. Pure and deterministic.
    """
    seen = observe(state, seat)
    words = status(state)
    view = "" if seat is None else f", as seat {seat} sees it"
    drawing = Drawing(_WIDTH, _HEIGHT, title=f"RONDA: {words}{view}",
                      desc=_describe(seen, words))
    drawing.text(_WIDTH / 2, 26, words, size=16, bold=True)
    open_cups = dict(seen.lifted)
    for place in range(PLACES):
        x, y = _place(place, _RING)
        drawing.add("circle", class_="cup", cx=x, cy=y, r=_CUP)
        if place in open_cups:
            drawing.add("circle", class_="mark", cx=x, cy=y, r=_CUP + 5)
            drawing.text(x, y + 7, str(open_cups[place]), size=20, bold=True)
        else:
            drawing.text(x, y + 6, "?" if state.cups else "·", size=17, cls="muted")
            if seen.shown is not None and seen.shown[0] == place:
                drawing.text(x, y + _CUP + 14, f"was {seen.shown[1]}", size=11, cls="muted")
        lx, ly = _place(place, _RING + _CUP + 16)
        drawing.text(lx, ly + 4, str(place), size=11, cls="muted")
    drawing.add("circle", class_="line", cx=_CENTRE[0], cy=_CENTRE[1], r=_CUP + 12)
    drawing.add("circle", class_="ink", cx=_CENTRE[0], cy=_CENTRE[1], r=_CUP + 8)
    drawing.text(_CENTRE[0], _CENTRE[1] + 7, str(seen.black), size=20, bold=True, cls="paper")
    y = _HEIGHT - 40
    supplies = " · ".join(f"seat {s}: {b}" for s, b in enumerate(seen.supplies))
    drawing.text(_WIDTH / 2, y, supplies, size=13)
    drawing.text(_WIDTH / 2, y + 22, f"in the circle {seen.circle} · out of the game "
                 f"{seen.out}", size=12, cls="muted")
    return drawing.to_string()
