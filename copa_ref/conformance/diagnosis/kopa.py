"""Kopa: which rule decides which part of the public view (KOPA-1 … KOPA-22).

The public view shows the table (eight piles and the 8s laid), the hand sizes, the stock's
size, the penalties, the scores and whose turn it is; the hands and the stock are hidden.
Rule IDs refer to ``specs/kopa.md``. The order is from the most specific rule to the most
general.
"""

from __future__ import annotations

from collections.abc import Iterator

from copa_ref.conformance.scenarios import Divergence, Finding, ViewRule
from copa_ref.kopa import Action, Config, Deal, Observation, Pass, Phase, Play, State
from copa_ref.kopa.rules import PILE_NAMES, legal_cards, pile_accepts

__all__ = ["VIEW_RULES", "diagnose"]

KopaDivergence = Divergence[State, Action, Config, Observation]
KopaView = ViewRule[State, Action, Config, Observation]


def _dealt(d: KopaDivergence) -> bool:
    return isinstance(d.action, Deal)


def _playing(phase: Phase) -> bool:
    return phase is Phase.PLAY or phase is Phase.DRAWN


def _round_ended(d: KopaDivergence) -> bool:
    seen = d.reported_view
    return _playing(d.before.phase) and (not _playing(d.expected.phase) or (
        seen is not None and not _playing(seen.phase)))


def _over(d: KopaDivergence) -> bool:
    seen = d.reported_view
    return d.expected.phase is Phase.OVER or (seen is not None and seen.phase is Phase.OVER)


def _false_pass(d: KopaDivergence) -> bool:
    b = d.before
    return isinstance(d.action, Pass) and b.phase is Phase.PLAY and bool(
        legal_cards(b.hands[b.turn], b.piles, b.eights))


def _draw(d: KopaDivergence) -> bool:
    b = d.before
    return isinstance(d.action, Pass) and b.config.players == 2 and (
        bool(b.stock) or b.phase is Phase.DRAWN)


VIEW_RULES: tuple[KopaView, ...] = (
    ViewRule(part="public.eights", rule="KOPA-13",
             says="an 8 lies across its suit's 7 and 9, and only then"),
    ViewRule(part="public.piles", rule="KOPA-12",
             says="a card goes on its own pile as the next number, nothing skipped"),
    ViewRule(part="public.penalties", rule="KOPA-16", when=_false_pass,
             says="a pass while a card was playable costs four more points"),
    ViewRule(part="public.penalties", rule="KOPA-18", when=_draw,
             says="a drawn card that is not played is kept for one point"),
    ViewRule(part="public.penalties", rule="KOPA-15",
             says="a turn without a card costs one point; a card played costs nothing"),
    ViewRule(part="public.stock_size", rule="KOPA-18",
             says="with two players a pass draws the stock's top card"),
    ViewRule(part="public.phase", rule="KOPA-22", when=_over,
             says="the match ends when a seat reaches the target"),
    ViewRule(part="outcome", rule="KOPA-22", says="the seat that reached the target wins"),
    ViewRule(part="public.phase", rule="KOPA-19", when=_round_ended,
             says="the round ends the moment a hand is empty, and only then"),
    ViewRule(part="public.scores", rule="KOPA-20",
             says="the winner gains one point per card in the other hands; penalties are "
             "subtracted"),
    ViewRule(part="public.last_round", rule="KOPA-20",
             says="the winner gains one point per card in the other hands; penalties are "
             "subtracted"),
    ViewRule(part="public.dealer", rule="KOPA-21", says="the deal passes clockwise"),
    ViewRule(part="public.round", rule="KOPA-21", says="a new round follows a scored round"),
    ViewRule(part="public.turn", rule="KOPA-5", when=_dealt,
             says="the player to the dealer's left begins"),
    ViewRule(part="public.turn", rule="KOPA-6", says="play proceeds clockwise, one turn each"),
    ViewRule(part="public.hand_sizes", rule="KOPA-17",
             when=lambda d: _dealt(d) and d.config.players == 2,
             says="two players are dealt three hands of 20, the third the stock"),
    ViewRule(part="public.hand_sizes", rule="KOPA-4", when=_dealt,
             says="the cards are dealt evenly"),
    ViewRule(part="public.hand_sizes", rule="KOPA-7", says="a card played leaves the hand"),
    ViewRule(part="to_move", rule="KOPA-6", says="play proceeds clockwise, one turn each"),
    ViewRule(part="legal", rule="KOPA-12",
             says="the legal cards are each pile's next card (a 1 or 15 on an empty pile) "
             "and each ready 8, and a pass"),
    ViewRule(part="public", rule="KOPA-1", says="every card is in exactly one place"),
)
"""Which rule decides which part of the Kopa public view, most specific first."""


def _pile_findings(d: KopaDivergence, seen: Observation) -> Iterator[Finding]:
    """The piles, re-derived: each reported pile is a run from its start (KOPA-8 to
    KOPA-10); the card played lies on its own suit's pile (KOPA-11)."""
    if len(seen.piles) != 8:
        yield Finding("KOPA-14", f"the table has 8 places; the engine reports "
                                 f"{len(seen.piles)}")
        return
    for i, pile in enumerate(seen.piles):
        for k, card in enumerate(pile):
            if card not in pile_accepts(i, pile[:k]):
                rule = "KOPA-8" if k == 0 else ("KOPA-10" if i & 1 else "KOPA-9")
                if card.pile != i and card.number != 8:
                    rule = "KOPA-11" if card.row != i >> 1 else "KOPA-14"
                yield Finding(rule, f"the engine's {PILE_NAMES[i]}-pile "
                                    f"{' '.join(map(str, pile))} is no run of its place")
                return
    action = d.action
    if isinstance(action, Play) and action.card.number != 8:
        own = action.card.pile
        if seen.piles[own][-1:] != (action.card,):
            yield Finding("KOPA-11", f"{action.card} goes on the {PILE_NAMES[own]}-pile; the "
                                     "engine puts it elsewhere")


def diagnose(d: KopaDivergence) -> Iterator[Finding]:
    """Kopa's own findings, re-derived from what the engine reported: the piles, the pass's
    price, the round's scores."""
    seen = d.reported_view
    if seen is None or d.action is None:
        return
    if seen.piles != d.expected.piles:
        yield from _pile_findings(d, seen)
    if isinstance(d.action, Pass) and seen.penalties != d.expected.penalties:
        seat = d.action.seat
        want = d.expected.penalties[seat] - d.before.penalties[seat]
        got = (seen.penalties[seat] - d.before.penalties[seat]
               if len(seen.penalties) == len(d.before.penalties) else None)
        rule = "KOPA-16" if _false_pass(d) else ("KOPA-18" if _draw(d) else "KOPA-15")
        yield Finding(rule, f"the pass of seat {seat} costs {want}; the engine charges {got}")
    if _round_ended(d) and seen.scores != d.expected.scores:
        yield Finding("KOPA-20", f"the round books {list(d.expected.last_round)}; the engine "
                                 f"has scores {list(seen.scores)}")
