"""A Copas position as an SVG picture: the table, the trick in progress and, for a seat's
view, that seat's hand.

The picture is drawn from :func:`~copa_ref.copas.rules.observe` alone, so it shows exactly
what the viewer may know (:rule:`P-6`): the public view shows no hand at all, a seat's view its
own hand and nobody else's.
"""

from __future__ import annotations

import math

from copa_ref.copas.rules import observe
from copa_ref.copas.state import SUITS, Card, Observation, Phase, State, Suit
from copa_ref.core.svg import Drawing

__all__ = ["svg"]

_WIDTH = 640
_TABLE_HEIGHT = 444
_CARD_W = 38
_CARD_H = 54
_SYMBOL = {Suit.PAUS: "♣", Suit.ESPADAS: "♠", Suit.COPAS: "♥", Suit.OUROS: "♦"}
_RED = (Suit.COPAS, Suit.OUROS)


def _card(drawing: Drawing, x: float, y: float, card: Card) -> None:
    """One card face, its top left corner at ``(x, y)``."""
    drawing.add("rect", class_="card", x=x, y=y, width=_CARD_W, height=_CARD_H, rx=4)
    ink = "red" if card.suit in _RED else "cardink"
    drawing.text(x + _CARD_W / 2, y + 22, str(card.value)[0], size=17, bold=True, cls=ink)
    drawing.text(x + _CARD_W / 2, y + 44, _SYMBOL[card.suit], size=17, cls=ink)


def _status(view: Observation, mover: int | None) -> str:
    if view.phase is Phase.OVER:
        return f"match over after round {view.round - 1}"
    if view.phase is Phase.DEAL:
        return f"round {view.round}: seat {view.dealer} deals"
    return f"round {view.round}: seat {mover} to play"


def _mover(view: Observation) -> int | None:
    if view.phase is not Phase.PLAY:
        return None
    return (view.leader + len(view.trick)) % len(view.scores)


def _taken(view: Observation, seat: int) -> tuple[int, int]:
    won = [t for t in view.tricks if t.winner == seat]
    copas = sum(1 for t in won for c in t.cards if c.suit is Suit.COPAS)
    return len(won), copas


def _describe(view: Observation, mover: int | None) -> str:
    players = len(view.scores)
    parts = [f"Copas, {players} players, {_status(view, mover)}."]
    for seat in range(players):
        tricks, copas = _taken(view, seat)
        roles = [r for r, s in (("dealer", view.dealer), ("leader of the trick", view.leader))
                 if s == seat and view.phase is not Phase.OVER]
        role = f" ({', '.join(roles)})" if roles else ""
        parts.append(f"Seat {seat}{role}: {view.scores[seat]} minus points, "
                     f"{view.hand_sizes[seat]} cards in hand, {tricks} tricks taken with "
                     f"{copas} copas this round.")
    if view.pending is not None:
        parts.append(f"Seat {view.pending}'s ten copas are pending: this is its bonus round."
                     if view.phase is Phase.PLAY else
                     f"Seat {view.pending}'s ten copas are pending for a bonus round.")
    trick = " ".join(str(c.value) for c in view.trick)
    parts.append(f"The trick in progress, led by seat {view.leader}: {trick}." if trick else
                 "No card is on the table.")
    if view.tricks:
        last = view.tricks[-1]
        cards = " ".join(str(c.value) for c in last.cards)
        parts.append(f"The last trick ({cards}) went to seat {last.winner}.")
    if view.seat is not None:
        hand = " ".join(str(c.value) for c in view.hand) or "no cards"
        parts.append(f"Seat {view.seat}'s hand: {hand}.")
    return " ".join(parts)


def svg(state: State, seat: int | None = None) -> str:
    """The position as SVG text: with *seat* ``None`` the public view (no hand shown), with a
    seat that seat's view, its own hand below the table.

    Each seat sits around the table in play order, counter-clockwise (COPAS-7), the viewing
    seat (or seat 0) at the bottom, with its minus points, cards in hand, and the tricks and
    copas it has taken this round; ``D`` marks the dealer and a dashed frame the seat to
    play. A hand is shown by suit, each suit from its weakest card (the printed order). The
    cards of the trick in progress lie in front of the seats that played them.
    Pure and deterministic.
    """
    view = observe(state, seat)
    players = len(view.scores)
    mover = _mover(view)
    height = _TABLE_HEIGHT + (_CARD_H + 50 if seat is not None else 0)
    title = f"Copas: {_status(view, mover)}" + ("" if seat is None else f", seat {seat}'s view")
    drawing = Drawing(_WIDTH, height, title=title, desc=_describe(view, mover))
    drawing.text(_WIDTH / 2, 24, _status(view, mover), size=16, bold=True)
    cx, cy = _WIDTH / 2, 48 + (_TABLE_HEIGHT - 48) / 2
    drawing.add("ellipse", class_="board", cx=cx, cy=cy, rx=190, ry=118)
    bottom = 0 if seat is None else seat
    for s in range(players):
        angle = math.pi / 2 - 2 * math.pi * (s - bottom) / players
        dx, dy = math.cos(angle), math.sin(angle)
        x, y = cx + dx * 250, cy + dy * 150
        drawing.add("rect", class_="cup", x=x - 66, y=y - 28, width=132, height=56, rx=8)
        if s == mover:
            drawing.add("rect", class_="mark", x=x - 70, y=y - 32, width=140, height=64, rx=10)
        dealer = " · D" if s == view.dealer and view.phase is not Phase.OVER else ""
        drawing.text(x, y - 10, f"seat {s}{dealer}", size=13, bold=True)
        drawing.text(x, y + 6, f"{view.scores[s]} points", size=12)
        tricks, copas = _taken(view, s)
        drawing.text(x, y + 21, f"hand {view.hand_sizes[s]} · tricks {tricks} · ♥{copas}",
                     size=10, cls="muted")
        if view.pending == s:
            drawing.text(x, y + 42, "10 copas pending", size=11, bold=True, cls="red")
    for i, card in enumerate(view.trick):
        s = (view.leader + i) % players
        angle = math.pi / 2 - 2 * math.pi * (s - bottom) / players
        x, y = cx + math.cos(angle) * 92, cy + math.sin(angle) * 52
        _card(drawing, x - _CARD_W / 2, y - _CARD_H / 2, card)
    if view.tricks and not view.trick:
        last = view.tricks[-1]
        cards = " ".join(str(c.value) for c in last.cards)
        drawing.text(cx, cy + 5, f"last trick {cards} → seat {last.winner}", size=12,
                     cls="muted")
    if seat is not None:
        top = _TABLE_HEIGHT + 8
        drawing.text(16, top + 8, f"seat {seat}'s hand", size=12, anchor="start", cls="muted")
        hand = sorted(view.hand, key=lambda c: (SUITS.index(c.suit.value), c.rank))
        step = min(_CARD_W + 6, (_WIDTH - 32) / max(1, len(hand)))
        left = (_WIDTH - step * len(hand)) / 2
        for i, card in enumerate(hand):
            _card(drawing, left + step * i, top + 18, card)
    return drawing.to_string()
