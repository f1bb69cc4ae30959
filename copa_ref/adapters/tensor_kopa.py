"""Kopa's tensors, from a seat's observation (its own hand, its drawn card, the table and
the counts: KOPA-Q15).

Cards are numbered suit by suit in the table's order Sable, Vert, Gules, Or (KOPA-14), and
within a suit by number: card ``15 * suit + number - 1``, ``S1`` is 0, ``S15`` is 14, ``V1``
is 15, ``O15`` is 59. Action id ``k`` (0 to 59) plays card ``k``; id 60 is the pass (with two
players, the draw: KOPA-15, KOPA-18): 61 ids, whatever seat plays. Seats are relative (0 the
observing seat).

The information state adds what the public history of the round tells beyond the table:
for each seat, the cards the table wanted each time it passed this round (it held none of
them, unless the pass was false: KOPA-16) and how many times it passed.
"""

from __future__ import annotations

from typing import Any

from copa_ref.adapters.tensors import Encoder, Layout, Segment, one_hot, relative
from copa_ref.kopa.rules import wanted
from copa_ref.kopa.state import Card, Pass, Phase, Play

PHASES = tuple(Phase)
CARDS = tuple(sorted(Card, key=lambda c: (c.row, c.number)))
"""The cards in id order."""
NUMBER = {card: i for i, card in enumerate(CARDS)}
DECK = len(CARDS)
PASS = DECK
"""The id of the pass."""
PILES = 8


def _layout(players: int) -> Layout:
    n = players
    return Layout((
        Segment("hand", (DECK,), "own cards (one per card id)"),
        Segment("drawn", (DECK,), "the card just drawn, in the drawn phase (KOPA-18)"),
        Segment("table", (DECK,), "the cards laid on the table: the piles and the 8s"),
        Segment("wanted", (DECK,), "the cards the table takes now: each pile's next card, "
                                   "each ready 8 (KOPA-6 to KOPA-13)"),
        Segment("piles", (PILES,), "cards in each pile, in the order of KOPA-14"),
        Segment("hand_sizes", (n,), "cards each seat holds"),
        Segment("stock_size", (1,), "cards in the stock (two players, KOPA-17)"),
        Segment("penalties", (n,), "penalty points of the round per seat (KOPA-15, KOPA-16)"),
        Segment("scores", (n,), "match scores per seat (KOPA-20)"),
        Segment("last_round", (n,), "each seat's score change at the last round's end"),
        Segment("to_move", (n,), "the seat to act (one-hot)"),
        Segment("dealer", (n,), "the dealer of this round (one-hot)"),
        Segment("phase", (len(PHASES),), "deal, play, drawn, over (one-hot)"),
        Segment("round", (1,), "the round number"),
    ))


class KopaEncoder(Encoder):
    remembers = True

    def __init__(self, game: Any, config: Any) -> None:
        super().__init__(game, config)
        n = self.players
        self.observation = _layout(n)
        self.information = Layout((*self.observation.segments,
            Segment("passed_on", (n, DECK), "the cards the table wanted when each seat "
                                            "passed this round"),
            Segment("passes", (n,), "the passes each seat made this round")))

    def encode(self, observation: Any, seat: int, out: Any) -> None:
        o, v, n = observation, self.observation.views(out), self.players
        for card in o.hand:
            v["hand"][NUMBER[card]] = 1.0
        if o.drawn is not None:
            v["drawn"][NUMBER[o.drawn]] = 1.0
        for k, pile in enumerate(o.piles):
            v["piles"][k] = len(pile)
            for card in pile:
                v["table"][NUMBER[card]] = 1.0
        for card in o.eights:
            v["table"][NUMBER[card]] = 1.0
        if o.phase in (Phase.PLAY, Phase.DRAWN):
            for card in wanted(o.piles, o.eights):
                v["wanted"][NUMBER[card]] = 1.0
        v["stock_size"][0] = o.stock_size
        for s in range(n):
            r = relative(s, seat, n)
            v["hand_sizes"][r] = o.hand_sizes[s]
            v["penalties"][r] = o.penalties[s]
            v["scores"][r] = o.scores[s]
            if o.last_round:
                v["last_round"][r] = o.last_round[s]
        one_hot(v["to_move"], relative(o.turn, seat, n))
        one_hot(v["dealer"], relative(o.dealer, seat, n))
        one_hot(v["phase"], PHASES.index(o.phase))
        v["round"][0] = o.round

    # The memory: per seat, (the cards wanted at its passes this round, its passes).

    def remember(self, memory: Any, before: Any, action: Any, after: Any, seat: int) -> Any:
        if action is None or memory is None or after.round != before.round:
            memory = tuple((frozenset(), 0) for _ in range(self.players))
        if type(action) is Pass and before.phase is Phase.PLAY:
            cards, count = memory[action.seat]
            seen = cards | frozenset(wanted(before.piles, before.eights))
            memory = (*memory[:action.seat], (seen, count + 1), *memory[action.seat + 1:])
        return memory

    def encode_memory(self, memory: Any, seat: int, out: Any) -> None:
        if memory is None:
            return
        n = self.players
        on = out[:n * DECK].reshape(n, DECK)
        for s, (cards, count) in enumerate(memory):
            r = relative(s, seat, n)
            for card in cards:
                on[r, NUMBER[card]] = 1.0
            out[n * DECK + r] = count

    def brief(self, observation: Any, seat: int) -> str:
        o = observation
        drawn = "" if o.drawn is None else f" drew {o.drawn.value}"
        return (f"r{o.round} d{o.dealer} t{o.turn} {o.phase.value}{drawn} "
                f"h {' '.join(c.value for c in o.hand)} "
                f"piles {','.join(str(len(p)) for p in o.piles)} "
                f"8s {''.join(c.value for c in o.eights)} n {','.join(map(str, o.hand_sizes))} "
                f"stock {o.stock_size} pen {','.join(map(str, o.penalties))} "
                f"sc {','.join(map(str, o.scores))}")

    def brief_memory(self, memory: Any) -> str:
        if memory is None:
            return ""
        return " passed " + " ".join(
            f"{s}:{count}:{''.join(sorted(c.value for c in cards))}"
            for s, (cards, count) in enumerate(memory) if count)

    def action_ids(self, free: tuple[Any, ...]) -> tuple[Any, ...]:
        return (*(Play(0, card) for card in CARDS), Pass(0))

    def action_key(self, action: Any) -> Any:
        return NUMBER[action.card] if type(action) is Play else PASS

    def action_name(self, action: Any) -> str:
        return f"play {action.card.value}" if type(action) is Play else "pass"


ENCODER = KopaEncoder
