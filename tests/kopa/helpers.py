"""Shared Kopa test helpers: arranged deals and scripted turns."""

from __future__ import annotations

import attrs

from copa_ref.kopa import Card, Config, Deal, Pass, Play, State, apply, new_game


def cards(codes: str) -> tuple[Card, ...]:
    """Cards from space-separated codes."""
    return tuple(Card(code) for code in codes.split())


def run(suit: str, numbers: range) -> str:
    return " ".join(f"{suit}{n}" for n in numbers)


# Three players (seat 0 leads, seat 2 deals): seat 0 holds the low runs of Sable, Vert and
# Gules, seat 1 their high runs, seat 2 the three middle Gules, the Sable and Vert 8s and Or.
SEAT0 = f"{run('S', range(1, 8))} {run('V', range(1, 8))} {run('G', range(1, 7))}"
SEAT1 = f"{run('S', range(9, 16))} {run('V', range(9, 16))} {run('G', range(10, 16))}"
SEAT2 = f"G7 G8 G9 S8 V8 {run('O', range(1, 16))}"
RUN_HANDS = (cards(SEAT0), cards(SEAT1), cards(SEAT2))

# Two players: seat 0 holds 20 cards it plays out alone; seat 1 can play nothing, and the
# stock (top first) feeds it cards it cannot play either, then the 15s.
TWO_SEAT0 = SEAT0
TWO_SEAT1 = f"{run('S', range(9, 15))} {run('V', range(9, 15))} {run('G', range(9, 15))} S8 V8"
TWO_STOCK = f"{run('O', range(2, 16))} O1 G7 G8 G15 S15 V15"
TWO_HANDS = (cards(TWO_SEAT0), cards(TWO_SEAT1), cards(TWO_STOCK))


def dealt(hands: tuple[tuple[Card, ...], ...] = RUN_HANDS, config: Config | None = None,
          **fields: object) -> State:
    """A new match (fields replaced, e.g. ``scores``), dealt *hands*. A match with scores is
    one resumed at the deal of round 2 (specs/kopa.md, "State invariant": no score changes
    before the first round is scored)."""
    state = new_game(config or Config(players=len(hands) if len(hands) > 3 else 3))
    if fields:
        state = attrs.evolve(state, **{"round": 2, **fields})
    return apply(state, Deal(hands))


def two(config: Config | None = None, **fields: object) -> State:
    """The two-player arranged deal."""
    return dealt(TWO_HANDS, config or Config(players=2), **fields)


def play_script(state: State, script: str) -> State:
    """Play the cards of *script* in order, each by the seat to act; ``-`` is a pass."""
    for code in script.split():
        seat = state.turn
        state = apply(state, Pass(seat) if code == "-" else Play(seat, Card(code)))
    return state


def restocked(state: State, codes: str = "") -> State:
    """*state* with the stock *codes* (top first): those cards are taken from where they
    were, and the cards of the old stock left over go to seat 0's hand, so every card of
    the deck is still in play once (KOPA-1)."""
    stock = cards(codes)
    spare = tuple(c for c in state.stock if c not in stock)
    hands = [tuple(c for c in hand if c not in stock) for hand in state.hands]
    hands[0] = tuple(sorted(hands[0] + spare, key=lambda c: c.index))
    return attrs.evolve(state, stock=stock, hands=tuple(hands))
