"""Kopa's speed layer: three rule functions of :mod:`copa_ref.kopa.rules` read from tables.

The rules module states each rule plainly (:func:`~copa_ref.kopa.rules.wanted`,
:func:`~copa_ref.kopa.rules.legal_cards` and ``_place`` ask
:func:`~copa_ref.kopa.rules.pile_accepts` of every pile). What a pile takes depends only on
its place and its top card, so this module asks the plain function once per place and
possible top card, as it is imported, and keeps the answers in tables that are never
written again; :func:`install` puts the table-reading functions over the plain ones in the
rules module, whose functions call each other through its globals. No state is kept
between calls: each function is a pure function of its arguments.

``copa_ref.kopa`` installs the layer as it is imported. A misread copy of the rules module
(:mod:`copa_ref.core.misreading`) is a new module and keeps the plain functions, so a
misreading of a pile's rule (``next_up``, ``pile_accepts``, ``eight_ready``) plays as read.
``tests/kopa/test_fast.py`` holds the layer equal to the plain functions at every step of
random matches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from copa_ref.kopa import rules
from copa_ref.kopa.state import Card

__all__ = ["PLAIN", "install", "legal_cards", "place", "wanted"]

Piles = tuple[tuple[Card, ...], ...]

_START: tuple[tuple[Card, ...], ...] = tuple(rules.pile_accepts(p, ()) for p in range(8))
"""What each place takes while its pile is empty."""

_AFTER: tuple[dict[Card, tuple[Card, ...]], ...] = tuple(
    {top: rules.pile_accepts(p, (top,)) for top in rules.DECK}
    for p in range(8))
"""``_AFTER[place][top]``: what the pile at *place* takes when *top* is its top card (a
pile's answer reads its top card only)."""

_TOPS: tuple[Card | None, ...] = (None, *rules.DECK)
"""A pile's top card, or ``None`` for an empty pile."""


def _suit_table(up_place: int, down_place: int
                ) -> dict[Card | None, dict[Card | None, tuple[tuple[Card, ...], bool]]]:
    """``table[up_top][down_top]``: what a suit's two piles take, and whether its 8 is
    ready (:func:`~copa_ref.kopa.rules.eight_ready`), by their top cards."""
    def piles(top: Card | None) -> tuple[Card, ...]:
        return () if top is None else (top,)

    return {up: {down: (rules.pile_accepts(up_place, piles(up))
                        + rules.pile_accepts(down_place, piles(down)),
                        rules.eight_ready(piles(up), piles(down)))
                 for down in _TOPS}
            for up in _TOPS}


_SUITS = tuple((up, down, eight, _suit_table(up, down))
               for _row, up, down, eight in rules._SUIT_PLACES)
"""Per suit in table order: its up- and down-pile's places, its 8, and its table."""

if [(up, down) for up, down, _, _ in _SUITS] != [(0, 1), (2, 3), (4, 5), (6, 7)]:
    msg = "the suits' places are not 0 to 7, two a suit, in table order"
    raise ImportError(msg)
(_, _, _S8, _S), (_, _, _V8, _V), (_, _, _G8, _G), (_, _, _O8, _O) = _SUITS


def wanted(piles: Piles, eights: tuple[Card, ...]) -> tuple[Card, ...]:
    """:func:`copa_ref.kopa.rules.wanted`, read from the tables (the four suits written
    out, in table order: places 0 to 7, two a suit)."""
    s_up, s_down, v_up, v_down, g_up, g_down, o_up, o_down = piles
    sable, s_ready = _S[s_up[-1] if s_up else None][s_down[-1] if s_down else None]
    vert, v_ready = _V[v_up[-1] if v_up else None][v_down[-1] if v_down else None]
    gules, g_ready = _G[g_up[-1] if g_up else None][g_down[-1] if g_down else None]
    gold, o_ready = _O[o_up[-1] if o_up else None][o_down[-1] if o_down else None]
    if s_ready and _S8 not in eights:
        sable += (_S8,)
    if v_ready and _V8 not in eights:
        vert += (_V8,)
    if g_ready and _G8 not in eights:
        gules += (_G8,)
    if o_ready and _O8 not in eights:
        gold += (_O8,)
    return sable + vert + gules + gold


def legal_cards(hand: tuple[Card, ...], piles: Piles, eights: tuple[Card, ...]
                ) -> tuple[Card, ...]:
    """:func:`copa_ref.kopa.rules.legal_cards`, read from the tables (:func:`wanted`
    written out, the set of the cards taken made in one call)."""
    s_up, s_down, v_up, v_down, g_up, g_down, o_up, o_down = piles
    sable, s_ready = _S[s_up[-1] if s_up else None][s_down[-1] if s_down else None]
    vert, v_ready = _V[v_up[-1] if v_up else None][v_down[-1] if v_down else None]
    gules, g_ready = _G[g_up[-1] if g_up else None][g_down[-1] if g_down else None]
    gold, o_ready = _O[o_up[-1] if o_up else None][o_down[-1] if o_down else None]
    takes = sable + vert + gules + gold
    if s_ready or v_ready or g_ready or o_ready:  # an 8 may be ready
        takes += ((_S8,) if s_ready and _S8 not in eights else ()) + (
            (_V8,) if v_ready and _V8 not in eights else ()) + (
            (_G8,) if g_ready and _G8 not in eights else ()) + (
            (_O8,) if o_ready and _O8 not in eights else ())
    return tuple(filter(frozenset(takes).__contains__, hand))


def place(card: Card, piles: Piles) -> int:
    """``copa_ref.kopa.rules._place``, read from the tables."""
    own = card.pile
    pile = piles[own]
    if card in (_AFTER[own][pile[-1]] if pile else _START[own]):
        return own
    for i in range(8):
        pile = piles[i]
        if i != own and card in (_AFTER[i][pile[-1]] if pile else _START[i]):
            return i
    return -1


PLAIN: dict[str, Callable[..., Any]] = {
    "wanted": rules.wanted, "legal_cards": rules.legal_cards, "_place": rules._place}
"""The plain functions of the rules module, by name, as they were before :func:`install`."""

_FAST: dict[str, Callable[..., Any]] = {
    "wanted": wanted, "legal_cards": legal_cards, "_place": place}


def install() -> None:
    """Put the table-reading functions over the plain ones in :mod:`copa_ref.kopa.rules`."""
    for name, function in _FAST.items():
        setattr(rules, name, function)

