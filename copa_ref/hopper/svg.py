"""A picture of a HOPPER position as SVG: the tray with its cups and their beans, the loose
beans, every seat's hand and claimed cups, and who acts.

Pure and deterministic, standard library only (:mod:`xml.etree.ElementTree`); readable in
light and dark themes (CSS classes with a ``prefers-color-scheme`` media query inside the
SVG). HOPPER hides nothing (HOPPER-18), so every seat's view is the same picture.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from copa_ref.hopper.rules import outcome
from copa_ref.hopper.state import BLACK, Phase, State

__all__ = ["describe", "svg"]

NAMES = ("A", "B", "C", "D", "E")
CELL = 56
MARGIN = 16

_STYLE = """
.bg { fill: #fbf8f1; } .tray { fill: #e8dcc2; stroke: #8a7550; stroke-width: 2; }
.cup { fill: #f4eee0; stroke: #6b5a3a; stroke-width: 2; }
.black { fill: #2b2b2b; stroke: #000; stroke-width: 2; }
.aim { stroke: #c0392b; stroke-width: 3; stroke-dasharray: 4 3; fill: none; }
.bean { fill: #7a4b1e; } .black-bean { fill: #e0c28a; }
text { font: 12px sans-serif; fill: #222; } .on-black { fill: #eee; }
.small { font-size: 11px; }
@media (prefers-color-scheme: dark) {
  .bg { fill: #1d1f21; } .tray { fill: #3a3326; stroke: #b39b6b; }
  .cup { fill: #5a4e38; stroke: #d8c59a; } .black { fill: #000; stroke: #999; }
  .bean { fill: #f0b36a; } text { fill: #eee; }
}
"""


def describe(state: State) -> str:
    """The position in words (the picture's ``<desc>``)."""
    cups = ", ".join(("the black cup" if cup == BLACK else f"cup {cup}") + f" {beans}"
                     for cup, beans in state.tray) or "none"
    seats = "; ".join(
        f"seat {s} holds {held} bean{'s' if held != 1 else ''} and has claimed "
        f"{sum(1 for who, _ in state.claims if who == s)} cups"
        for s, held in enumerate(state.hands))
    return (f"HOPPER, {len(state.hands)} players. Cups in the tray (beans): {cups}. "
            f"{state.loose} loose beans. {seats}. {_status(state)}")


def _status(state: State) -> str:
    result = outcome(state)
    if result is not None:
        who = ", ".join(str(int(w)) for w in result.winners)
        return f"The game is over: seat(s) {who} won, scores {list(result.scores)}."
    if state.phase is Phase.LAND:
        aim = "" if state.aim is None else f", aimed at cup {state.aim}"
        return f"Seat {state.turn}'s bean is in the air{aim}."
    if state.turn is None:
        return "The shoot-out: any seat that may shoot shoots next."
    return f"Seat {state.turn} is to shoot."


def _beans(group: ET.Element, x: float, y: float, beans: int, cls: str) -> None:
    for i in range(beans):
        angle = 2 * math.pi * i / 4 - math.pi / 2
        ET.SubElement(group, "circle", {"cx": f"{x + 9 * math.cos(angle):.1f}",
                                        "cy": f"{y + 9 * math.sin(angle):.1f}", "r": "4",
                                        "class": cls})


def svg(state: State, seat: int | None = None) -> str:
    """The position as an SVG document; *seat* changes nothing (nothing is hidden)."""
    side = 4 if len(state.tray) > 4 else 2
    tray_px = side * CELL
    width = max(tray_px + 2 * MARGIN, 320)
    rows = len(state.hands) + 2
    height = tray_px + 2 * MARGIN + 18 * rows + 10
    root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(width),
                              "height": str(height), "viewBox": f"0 0 {width} {height}",
                              "role": "img"})
    ET.SubElement(root, "title").text = "HOPPER position"
    ET.SubElement(root, "desc").text = describe(state)
    ET.SubElement(root, "style").text = _STYLE
    ET.SubElement(root, "rect", {"x": "0", "y": "0", "width": str(width), "height": str(height),
                                 "class": "bg"})
    ET.SubElement(root, "rect", {"x": str(MARGIN), "y": str(MARGIN), "width": str(tray_px),
                                 "height": str(tray_px), "rx": "8", "class": "tray"})
    for i, (cup, beans) in enumerate(state.tray):
        x = MARGIN + CELL * (i % side) + CELL / 2
        y = MARGIN + CELL * (i // side) + CELL / 2
        black = cup == BLACK
        group = ET.SubElement(root, "g")
        ET.SubElement(group, "circle", {"cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": "22",
                                        "class": "black" if black else "cup"})
        if state.phase is Phase.LAND and state.aim == cup:
            ET.SubElement(group, "circle", {"cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": "26",
                                            "class": "aim"})
        _beans(group, x, y, beans, "black-bean" if black else "bean")
        label = ET.SubElement(group, "text", {"x": f"{x - 20:.1f}", "y": f"{y - 14:.1f}",
                                              "class": "small on-black" if black else "small"})
        label.text = "B" if black else str(cup)
    y = MARGIN + tray_px + 20
    ET.SubElement(root, "text", {"x": str(MARGIN), "y": str(y)}).text = (
        f"loose beans: {state.loose}")
    for s, held in enumerate(state.hands):
        y += 18
        cups = " ".join("B" if cup == BLACK else str(cup) for who, cup in state.claims
                        if who == s)
        ET.SubElement(root, "text", {"x": str(MARGIN), "y": str(y)}).text = (
            f"{NAMES[s]} (seat {s}): hand {held}; cups [{cups}]")
    y += 18
    ET.SubElement(root, "text", {"x": str(MARGIN), "y": str(y)}).text = _status(state)
    return ET.tostring(root, encoding="unicode")
