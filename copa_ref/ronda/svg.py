"""A picture of a RONDA position as SVG: pure, deterministic, standard library only.

The ten cups stand in a circle around the black cup. A lifted cup shows its beans; a
covered cup shows ``?`` in a seat's view (nobody sees under it, RONDA-14) and, in the picture
of the whole position (no seat), its hidden count in a lighter style. Colours come from CSS
classes with a ``prefers-color-scheme`` media query inside the SVG, so the picture reads in
light and dark themes.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from copa_ref.ronda.demo import status
from copa_ref.ronda.rules import circle_beans
from copa_ref.ronda.state import State

__all__ = ["svg"]

_SIZE = 320
_CENTRE = _SIZE / 2
_RING = 110
_CUP = 22

_STYLE = """
.bg { fill: #ffffff; }
.ink { fill: #1f2328; font-family: sans-serif; }
.cup { fill: #d9c7a3; stroke: #6b5a3a; stroke-width: 2; }
.open { fill: #fff3c4; stroke: #b08800; stroke-width: 3; }
.black { fill: #222222; stroke: #000000; stroke-width: 2; }
.white { fill: #ffffff; font-family: sans-serif; }
.hidden { fill: #8c959f; font-family: sans-serif; font-style: italic; }
@media (prefers-color-scheme: dark) {
  .bg { fill: #0d1117; }
  .ink { fill: #e6edf3; }
  .cup { fill: #5a4a2f; stroke: #d9c7a3; }
  .open { fill: #6b5a1a; stroke: #f2cc60; }
  .black { fill: #000000; stroke: #8c959f; }
  .hidden { fill: #8c959f; }
}
"""


def _text(parent: ET.Element, x: float, y: float, text: str, cls: str = "ink",
          size: int = 14) -> None:
    node = ET.SubElement(parent, "text", {
        "x": f"{x:.1f}", "y": f"{y:.1f}", "class": cls, "font-size": str(size),
        "text-anchor": "middle", "dominant-baseline": "central"})
    node.text = text


def _describe(state: State, seat: int | None) -> str:
    if not state.cups:
        where = "The cups are not arranged yet."
    else:
        opened = ", ".join(f"place {c} shows {state.cups[c]}" for c in state.lifted)
        where = f"Lifted: {opened}." if opened else "Every cup is covered."
        if seat is None:
            where += " Hidden: " + ", ".join(
                f"{p}:{b}" for p, b in enumerate(state.cups) if p not in state.lifted) + "."
    if state.shown is not None and state.shown[0] not in state.lifted:
        where += f" The last lift showed {state.shown[1]} at place {state.shown[0]}."
    supplies = ", ".join(f"seat {s} {b}" for s, b in enumerate(state.supplies))
    view = "the public view" if seat is None else f"seat {seat}'s view"
    return (f"RONDA position ({view}). {where} Black cup {state.black}, out of the game "
            f"{state.out}, {circle_beans(state)} in the circle; supplies: {supplies}; "
            f"{status(state)}.")


def svg(state: State, seat: int | None = None) -> str:
    """The position as SVG text; with *seat*, what that seat sees (never a covered cup).

    :param seat: the seat whose view to draw; ``None`` for the whole position.
    """
    root = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {_SIZE} {_SIZE + 60}",
        "width": str(_SIZE), "height": str(_SIZE + 60), "role": "img"})
    title = ET.SubElement(root, "title")
    title.text = "RONDA" if seat is None else f"RONDA, seat {seat}'s view"
    desc = ET.SubElement(root, "desc")
    desc.text = _describe(state, seat)
    style = ET.SubElement(root, "style")
    style.text = _STYLE
    ET.SubElement(root, "rect", {"class": "bg", "x": "0", "y": "0", "width": str(_SIZE),
                                 "height": str(_SIZE + 60)})
    ET.SubElement(root, "circle", {"class": "black", "cx": str(_CENTRE), "cy": str(_CENTRE),
                                   "r": str(_CUP + 8)})
    _text(root, _CENTRE, _CENTRE, str(state.black), "white", 16)
    for place in range(10):
        angle = 2 * math.pi * place / 10 - math.pi / 2
        x = _CENTRE + _RING * math.cos(angle)
        y = _CENTRE + _RING * math.sin(angle)
        lifted = place in state.lifted
        ET.SubElement(root, "circle", {"class": "open" if lifted else "cup", "cx": f"{x:.1f}",
                                       "cy": f"{y:.1f}", "r": str(_CUP)})
        if lifted:
            _text(root, x, y, str(state.cups[place]), "ink", 18)
        elif state.cups and seat is None:
            _text(root, x, y, f"({state.cups[place]})", "hidden", 13)
        else:
            _text(root, x, y, "?", "ink", 16)
        _text(root, _CENTRE + (_RING + _CUP + 10) * math.cos(angle),
              _CENTRE + (_RING + _CUP + 10) * math.sin(angle), str(place), "ink", 10)
    supplies = "  ".join(f"seat {s}: {b}" for s, b in enumerate(state.supplies))
    _text(root, _CENTRE, _SIZE + 14, supplies, "ink", 12)
    _text(root, _CENTRE, _SIZE + 36, f"out of the game {state.out}", "ink", 12)
    return ET.tostring(root, encoding="unicode")
