"""Shared Copas test helpers: scripted deals and plays."""

from __future__ import annotations

import attrs

from copa_ref.copas import Card, Config, Deal, Phase, Play, State, apply, new_game, to_move

SUIT_OF_SEAT = ("p", "e", "c", "o")
RANKS = "23456QJK7A"


def cards(codes: str) -> tuple[Card, ...]:
    """Cards from space-separated codes."""
    return tuple(Card(code) for code in codes.split())


def suit_hands() -> tuple[tuple[Card, ...], ...]:
    """Four players, seat s holding the whole suit ``SUIT_OF_SEAT[s]``."""
    return tuple(tuple(Card(r + s) for r in RANKS) for s in SUIT_OF_SEAT)


# Seat 1 (the first leader when seat 0 deals) takes all ten copas but not every trick.
TEN_COPAS_HANDS = (
    cards("3e 4e 2p 4p 5p 6p Qp Jp Kp 7p"),
    cards("2e 5e 6e Qe Je Ke 7e Ae Ac Ap"),
    cards("2c 3c 4c 5c 6c Qc Jc Kc 7c 3p"),
    cards("2o 3o 4o 5o 6o Qo Jo Ko 7o Ao"),
)
TEN_COPAS_SCRIPT = (
    "2e 3p 2o 3e  4e 5e 2c 3o  6e 3c 4o 2p  Qe 4c 5o 4p  Je 5c 6o 5p  "
    "Ke 6c Qo 6p  7e Qc Jo Qp  Ae Jc Ko Jp  Ap Kc 7o Kp  Ac 7c Ao 7p"
)


def dealt(hands: tuple[tuple[Card, ...], ...], config: Config | None = None, **fields: object
          ) -> State:
    """A new match (fields replaced, e.g. ``scores``, ``pending``), dealt *hands*. A match
    with points or a pending ten is one resumed at the deal of round 2 (specs/copas.md,
    "State invariant": no point is booked before the first round is scored)."""
    state = new_game(config or Config())
    if fields:
        state = attrs.evolve(state, **{"round": 2, **fields})
    return apply(state, Deal(hands))


def play_script(state: State, script: str) -> State:
    """Play the cards of *script* in order, each by the seat to move."""
    for code in script.split():
        seat = to_move(state).seats[0]
        state = apply(state, Play(seat, Card(code)))
    return state


def play_out_suit_deal(state: State) -> State:
    """Play a suit deal to its end: everyone plays their lowest legal card."""
    from copa_ref.copas import legal_actions

    while state.phase is Phase.PLAY:
        state = apply(state, legal_actions(state)[0])
    return state
