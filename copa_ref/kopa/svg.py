"""A Kopa position as an SVG picture: the table in the text's arrangement and, for a seat's
view, that seat's hand.

The picture is drawn from :func:`~copa_ref.kopa.rules.observe` alone, so it shows exactly
what the viewer may know (P-6): the public view shows no hand and no stock card, a seat's
view its own hand and nobody else's. The table is drawn as KOPA-14 lays it out: one row per
suit, Sable at the top, each row the up-pile from its 1, the place of the 8, and the
down-pile from its 15 at the right. Built on :class:`copa_ref.core.svg.Drawing`.
"""

from __future__ import annotations

from copa_ref.core.svg import Drawing
from copa_ref.kopa.rules import observe
from copa_ref.kopa.state import Card, Observation, Phase, State

__all__ = ["svg"]

_SUITS = ("Sable", "Vert", "Gules", "Or")
_INK = {"S": "cardink", "V": "dark", "G": "red", "O": "light"}
_CARD_W, _CARD_H, _GAP = 28, 38, 3
_LEFT = 64
_WIDTH = _LEFT + 15 * (_CARD_W + _GAP) + 12
_ROW = _CARD_H + 10


def _card(drawing: Drawing, x: float, y: float, card: Card) -> None:
    drawing.add("rect", class_="card", x=x, y=y, width=_CARD_W, height=_CARD_H, rx=3)
    drawing.text(x + _CARD_W / 2, y + 17, card.value[0], size=11, bold=True,
                 cls=_INK[card.value[0]])
    drawing.text(x + _CARD_W / 2, y + 31, card.value[1:], size=12, cls=_INK[card.value[0]])


def _slot(drawing: Drawing, x: float, y: float) -> None:
    drawing.add("rect", class_="line", x=x + 2, y=y + 2, width=_CARD_W - 4,
                height=_CARD_H - 4, rx=3)


def _status(view: Observation) -> str:
    if view.phase is Phase.OVER:
        return f"match over after round {view.round}"
    if view.phase is Phase.DEAL:
        return f"round {view.round}: seat {view.dealer} deals"
    if view.phase is Phase.DRAWN:
        return f"round {view.round}: seat {view.turn} decides on the card it drew"
    return f"round {view.round}: seat {view.turn} to play"


def _describe(view: Observation) -> str:
    parts = [f"Kopa, {len(view.scores)} players, {_status(view)}."]
    for row, name in enumerate(_SUITS):
        up, down = view.piles[2 * row], view.piles[2 * row + 1]
        up_text = f"up to {up[-1].number}" if up else "up-pile not started"
        down_text = f"down to {down[-1].number}" if down else "down-pile not started"
        eight = ", complete with its 8" if any(c.row == row for c in view.eights) else ""
        parts.append(f"{name}: {up_text}, {down_text}{eight}.")
    for seat in range(len(view.scores)):
        parts.append(f"Seat {seat}: {view.hand_sizes[seat]} cards, {view.penalties[seat]} "
                     f"penalty points this round, score {view.scores[seat]}.")
    if view.stock_size:
        parts.append(f"The stock holds {view.stock_size} cards face down.")
    if view.seat is not None:
        hand = " ".join(c.value for c in view.hand) or "no cards"
        parts.append(f"Seat {view.seat}'s hand: {hand}.")
        if view.drawn is not None:
            parts.append(f"It drew {view.drawn.value}.")
    return " ".join(parts)


def svg(state: State, seat: int | None = None) -> str:
    """The position as SVG text: with *seat* ``None`` the public view, with a seat that
    seat's view, its own hand below the table. Pure and deterministic."""
    view = observe(state, seat)
    n = len(view.scores)
    table_h = 34 + 4 * _ROW
    height = table_h + 20 + 16 * n + (_CARD_H + 34 if seat is not None else 0)
    title = f"Kopa: {_status(view)}" + ("" if seat is None else f", seat {seat}'s view")
    drawing = Drawing(_WIDTH, height, title=title, desc=_describe(view))
    drawing.text(_WIDTH / 2, 20, _status(view), size=15, bold=True)
    for row, name in enumerate(_SUITS):
        y = 32 + row * _ROW
        drawing.text(8, y + 24, name, size=12, anchor="start", cls="muted")
        up, down = view.piles[2 * row], view.piles[2 * row + 1]
        for k in range(7):
            x = _LEFT + k * (_CARD_W + _GAP)
            if k < len(up):
                _card(drawing, x, y, up[k])
            else:
                _slot(drawing, x, y)
        x8 = _LEFT + 7 * (_CARD_W + _GAP)
        eights = [c for c in view.eights if c.row == row]
        if eights:
            _card(drawing, x8, y, eights[0])
        else:
            _slot(drawing, x8, y)
        for k in range(7):
            x = x8 + (7 - k) * (_CARD_W + _GAP)
            if k < len(down):
                _card(drawing, x, y, down[k])
            else:
                _slot(drawing, x, y)
    y = table_h + 14
    for s in range(n):
        mark = " ◂ to act" if view.phase in (Phase.PLAY, Phase.DRAWN) and s == view.turn \
            else ""
        dealer = " · D" if s == view.dealer else ""
        drawing.text(8, y, f"seat {s}{dealer}: {view.hand_sizes[s]} cards, penalties "
                           f"{view.penalties[s]}, score {view.scores[s]}{mark}", size=12,
                     anchor="start")
        y += 16
    if view.stock_size:
        drawing.text(_WIDTH - 8, table_h + 14, f"stock: {view.stock_size} cards", size=12,
                     anchor="end", cls="muted")
    if seat is not None:
        drawing.text(8, y + 6, f"seat {seat}'s hand", size=12, anchor="start", cls="muted")
        step = min(_CARD_W + _GAP, (_WIDTH - 16) / max(1, len(view.hand)))
        for k, card in enumerate(view.hand):
            _card(drawing, 8 + k * step, y + 12, card)
    return drawing.to_string()
