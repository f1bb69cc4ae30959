"""Copas' tensors, from a seat's observation (its own hand and everything played in the
open: COPAS-10 to COPAS-14).

Cards are numbered suit by suit in the order paus, espadas, copas, ouros (COPAS-1), and
within a suit by rank in the printed order 2 3 4 5 6 Q J K 7 A (COPAS-2): card ``10 * suit +
rank``, ``2p`` is 0, ``Ap`` is 9, ``2e`` is 10, ``Ao`` is 39. Action id ``k`` plays card
``k`` (whatever seat plays it): 40 ids. Seats are relative (0 the observing seat).

The observation shows every trick of the round so far with its leader, so within a deal it
holds everything the seat has seen (perfect recall within the deal: the information state is
the observation plus the order of play, trick by trick). Earlier deals are summed up by the
scores (the information state is bounded by the deal).
"""

from __future__ import annotations

from typing import Any

from copa_ref.adapters.tensors import Encoder, Layout, Segment, one_hot, relative
from copa_ref.copas.rules import hand_size
from copa_ref.copas.state import Card, Phase, Play, Suit

SUITS = tuple(Suit)
PHASES = tuple(Phase)
CARDS = tuple(sorted(Card, key=lambda c: (SUITS.index(c.suit), c.rank)))
"""The cards in id order."""
NUMBER = {card: i for i, card in enumerate(CARDS)}
DECK = len(CARDS)


def _layout(players: int) -> Layout:
    n = players
    return Layout((
        Segment("hand", (DECK,), "own cards (one per card id)"),
        Segment("trick", (n, DECK), "the trick on the table: the card each seat has played"),
        Segment("trick_leader", (n,), "the seat that led the trick on the table (one-hot)"),
        Segment("played", (n, DECK), "every card each seat has played this round"),
        Segment("taken", (n, DECK), "the cards in the tricks each seat has taken this round"),
        Segment("copas_taken", (n,), "copas each seat has taken this round (COPAS-16)"),
        Segment("hand_sizes", (n,), "cards each seat holds"),
        Segment("scores", (n,), "booked minus points per seat (COPAS-16 to COPAS-20)"),
        Segment("last_round", (n,), "the points booked to each seat at the last round's end"),
        Segment("pending", (n,), "the seat whose ten copas await their bonus round (COPAS-17)"),
        Segment("dealer", (n,), "the dealer of this round (one-hot)"),
        Segment("phase", (len(PHASES),), "deal, play, over (one-hot)"),
        Segment("round", (1,), "the round number"),
    ))


class CopasEncoder(Encoder):
    def __init__(self, game: Any, config: Any) -> None:
        super().__init__(game, config)
        n = self.players
        self.tricks = hand_size(n)
        self.observation = _layout(n)
        self.information = Layout((*self.observation.segments,
            Segment("history", (self.tricks, n, DECK),
                    "trick by trick, the card each seat played (the order of play)"),
            Segment("history_leaders", (self.tricks, n), "each trick's leader (one-hot)")))

    def encode(self, observation: Any, seat: int, out: Any) -> None:
        o, v, n = observation, self.observation.views(out), self.players
        for card in o.hand:
            v["hand"][NUMBER[card]] = 1.0
        for k, card in enumerate(o.trick):
            r = relative(o.leader + k, seat, n)
            v["trick"][r, NUMBER[card]] = 1.0
            v["played"][r, NUMBER[card]] = 1.0
        if o.trick:
            one_hot(v["trick_leader"], relative(o.leader, seat, n))
        for trick in o.tricks:
            w = relative(trick.winner, seat, n)
            for k, card in enumerate(trick.cards):
                v["played"][relative(trick.leader + k, seat, n), NUMBER[card]] = 1.0
                v["taken"][w, NUMBER[card]] = 1.0
                v["copas_taken"][w] += card.suit is Suit.COPAS
        for s in range(n):
            r = relative(s, seat, n)
            v["hand_sizes"][r] = o.hand_sizes[s]
            v["scores"][r] = o.scores[s]
            if o.last_round:
                v["last_round"][r] = o.last_round[s]
        if o.pending is not None:
            v["pending"][relative(o.pending, seat, n)] = 1.0
        one_hot(v["dealer"], relative(o.dealer, seat, n))
        one_hot(v["phase"], PHASES.index(o.phase))
        v["round"][0] = o.round

    def encode_memory(self, memory: Any, seat: int, out: Any) -> None:
        n = self.players
        size = self.tricks * n * DECK
        history = out[:size].reshape(self.tricks, n, DECK)
        leaders = out[size:].reshape(self.tricks, n)
        for t, trick in enumerate(memory):
            leaders[t, relative(trick.leader, seat, n)] = 1.0
            for k, card in enumerate(trick.cards):
                history[t, relative(trick.leader + k, seat, n), NUMBER[card]] = 1.0

    def encode_information(self, observation: Any, memory: Any, seat: int, out: Any) -> None:
        # The order of play is in the observation itself: no fold is needed.
        head, tail = self.split(out)
        self.encode(observation, seat, head)
        self.encode_memory(observation.tricks, seat, tail)

    def brief(self, observation: Any, seat: int) -> str:
        o = observation
        tricks = " ".join(f"{t.leader}:{''.join(c.value for c in t.cards)}" for t in o.tricks)
        pending = "" if o.pending is None else f" pending {o.pending}"
        return (f"r{o.round} d{o.dealer} {o.phase.value} "
                f"sc {','.join(map(str, o.scores))}{pending} "
                f"h {''.join(c.value for c in o.hand)} "
                f"t {o.leader}:{''.join(c.value for c in o.trick)} | {tricks}")

    def action_ids(self, free: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(Play(0, card) for card in CARDS)  # the 2p too, never legal with three

    def action_key(self, action: Any) -> Any:
        return NUMBER[action.card]

    def action_name(self, action: Any) -> str:
        return f"play {action.card.value}"


ENCODER = CopasEncoder
