"""A picture of a Kopa position as SVG: pure, deterministic, standard library only.

The table is drawn in the text's arrangement (KOPA-14): one row per suit, Sable at the top,
each row the up-pile (its cards from the 1), the place of the 8, and the down-pile (from the
15). Below it: each seat's hand size, penalties and score, and, for the seat whose view it
is, its own cards. Colours come from CSS classes with a ``prefers-color-scheme`` media query,
so the picture reads in light and dark themes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from copa_ref.kopa.state import Card, Phase, State

__all__ = ["svg"]

_SUITS = ("Sable", "Vert", "Gules", "Or")
_CARD_W, _CARD_H, _GAP = 26, 34, 3
_STYLE = """
svg { font-family: sans-serif; font-size: 11px; }
.bg { fill: #f7f7f2; } .text { fill: #222; } .empty { fill: none; stroke: #999;
 stroke-dasharray: 3 2; } .card { stroke: #333; stroke-width: 0.8; }
.S { fill: #d9d9d9; } .V { fill: #bfe3c6; } .G { fill: #f2b8b5; } .O { fill: #f4df9c; }
.label { fill: #555; }
@media (prefers-color-scheme: dark) {
 .bg { fill: #1d1f21; } .text { fill: #eee; } .label { fill: #bbb; }
 .empty { stroke: #777; } .card { stroke: #ddd; }
 .S { fill: #555; } .V { fill: #2f6b3a; } .G { fill: #8a3430; } .O { fill: #8a7327; }
}
"""


def _card(parent: ET.Element, card: Card, x: float, y: float) -> None:
    ET.SubElement(parent, "rect", {"x": str(x), "y": str(y), "width": str(_CARD_W),
                                   "height": str(_CARD_H), "rx": "3",
                                   "class": f"card {card.value[0]}"})
    text = ET.SubElement(parent, "text", {"x": str(x + _CARD_W / 2), "y": str(y + 21),
                                          "text-anchor": "middle", "class": "text"})
    text.text = card.value


def _slot(parent: ET.Element, x: float, y: float) -> None:
    ET.SubElement(parent, "rect", {"x": str(x), "y": str(y), "width": str(_CARD_W),
                                   "height": str(_CARD_H), "rx": "3", "class": "empty"})


def _label(parent: ET.Element, x: float, y: float, words: str, anchor: str = "start") -> None:
    text = ET.SubElement(parent, "text", {"x": str(x), "y": str(y), "class": "label",
                                          "text-anchor": anchor})
    text.text = words


def _describe(state: State, seat: int | None) -> str:
    parts = [f"Kopa, round {state.round}, {state.config.players} players, dealer seat "
             f"{state.dealer}, phase {state.phase.value}."]
    for row, name in enumerate(_SUITS):
        up, down = state.piles[2 * row], state.piles[2 * row + 1]
        up_text = f"up to {up[-1].number}" if up else "up-pile not started"
        down_text = f"down to {down[-1].number}" if down else "down-pile not started"
        eight = ", complete with its 8" if any(c.row == row for c in state.eights) else ""
        parts.append(f"{name}: {up_text}, {down_text}{eight}.")
    sizes = ", ".join(f"seat {s} {len(h)} cards" for s, h in enumerate(state.hands))
    parts.append(f"Hands: {sizes}." + (f" Stock: {len(state.stock)} cards."
                                       if state.stock else ""))
    parts.append("Scores: " + ", ".join(f"seat {s} {p}" for s, p in enumerate(state.scores))
                 + "; penalties this round: "
                 + ", ".join(f"seat {s} {p}" for s, p in enumerate(state.penalties)) + ".")
    if state.phase in (Phase.PLAY, Phase.DRAWN):
        parts.append(f"Seat {state.turn} to act.")
    if seat is not None:
        parts.append(f"Seat {seat} holds " + (" ".join(c.value for c in state.hands[seat])
                                              or "nothing") + ".")
    return " ".join(parts)


def svg(state: State, seat: int | None = None) -> str:
    """The position as an SVG document; with *seat*, that seat's view (its own hand shown,
    no other hand or the stock); without, the public view."""
    width = 2 * 7 * (_CARD_W + _GAP) + _CARD_W + 90
    n = state.config.players
    rows_h = 4 * (_CARD_H + 8)
    height = rows_h + 30 + 16 * n + (_CARD_H + 30 if seat is not None else 0)
    root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg",
                              "viewBox": f"0 0 {width} {height}", "width": str(width),
                              "height": str(height), "role": "img"})
    title = ET.SubElement(root, "title")
    title.text = (f"Kopa round {state.round}" + (f", seat {seat}'s view" if seat is not None
                                                 else ", public view"))
    desc = ET.SubElement(root, "desc")
    desc.text = _describe(state, seat)
    style = ET.SubElement(root, "style")
    style.text = _STYLE
    ET.SubElement(root, "rect", {"x": "0", "y": "0", "width": str(width),
                                 "height": str(height), "class": "bg"})
    left = 60
    for row, name in enumerate(_SUITS):
        y = 6 + row * (_CARD_H + 8)
        _label(root, 6, y + 21, name)
        up, down = state.piles[2 * row], state.piles[2 * row + 1]
        for k in range(7):
            x = left + k * (_CARD_W + _GAP)
            if k < len(up):
                _card(root, up[k], x, y)
            else:
                _slot(root, x, y)
        x8 = left + 7 * (_CARD_W + _GAP)
        eights = [c for c in state.eights if c.row == row]
        if eights:
            _card(root, eights[0], x8, y)
        else:
            _slot(root, x8, y)
        for k in range(7):
            x = x8 + (7 - k) * (_CARD_W + _GAP)
            if k < len(down):
                _card(root, down[k], x, y)
            else:
                _slot(root, x, y)
    y = rows_h + 18
    for s in range(n):
        mark = " (to act)" if state.phase in (Phase.PLAY, Phase.DRAWN) and s == state.turn \
            else ""
        _label(root, 6, y, f"seat {s}: {len(state.hands[s])} cards, penalties "
                           f"{state.penalties[s]}, score {state.scores[s]}{mark}")
        y += 16
    if state.stock:
        _label(root, width - 6, rows_h + 18, f"stock: {len(state.stock)} cards", "end")
    if seat is not None:
        _label(root, 6, y + 4, f"seat {seat}'s hand")
        for k, card in enumerate(state.hands[seat]):
            _card(root, card, 6 + k * (_CARD_W + _GAP) * 0.9, y + 10)
    return ET.tostring(root, encoding="unicode")
