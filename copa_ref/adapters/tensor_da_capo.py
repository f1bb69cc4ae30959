"""DA CAPO's tensors (everything is public, DACAPO-8; the bids of a round are chosen at
once): the lines of cups, the reserves, the target cup and every round's bids, seen from the
observing seat. The observation holds the whole history (every round's bids and winner),
so the information state is the observation.

Action ids, whatever seat bids: ``bid 1`` … ``bid 5`` (DACAPO-4) are ids 0 to 4. Seats are
relative (0 the observing seat).
"""

from __future__ import annotations

from typing import Any

from copa_ref.adapters.tensors import Encoder, Layout, Segment
from copa_ref.da_capo.rules import line_length
from copa_ref.da_capo.state import MAX_BID, START_BEANS


class DaCapoEncoder(Encoder):
    def __init__(self, game: Any, config: Any) -> None:
        super().__init__(game, config)
        n = self.players
        self.length = line_length(n)
        self.rounds = START_BEANS
        """At most one round a bean (a bid is at least 1)."""
        self.observation = Layout((
            Segment("lines", (n, self.length), "each seat's line of cups, nearest first: "
                                               "the beans in each cup"),
            Segment("reserves", (n,), "the beans in each seat's hand"),
            Segment("target", (1,), "beans in the black target cup"),
            Segment("box", (1,), "beans put back in the bean box"),
            Segment("finisher", (n,), "the seat that reached the target (DACAPO-15)"),
            Segment("last_step", (n,), "the last-player step: the beans of the seat that "
                                       "took it"),
            Segment("bids", (self.rounds, n, MAX_BID + 1), "round by round, each seat's bid "
                                                           "0 (none) to 5 (one-hot)"),
            Segment("winners", (self.rounds, n), "round by round, the seat that won it"),
            Segment("played", (self.rounds,), "1 for each round played"),
        ))
        self.information = self.observation
        self._at = self.observation.offsets()

    def encode(self, observation: Any, seat: int, out: Any) -> None:
        """Every value written at its flat offset, the ones gathered and set at once (the
        bids of every round so far: numpy's item writes, one by one, cost the most)."""
        o, n, at = observation, self.players, self._at
        ones = []
        for s in range(n):
            r = (s - seat) % n  # relative(s, seat, n)
            line = o.lines[s]
            start = at["lines"] + r * self.length
            out[start:start + len(line)] = line
            out[at["reserves"] + r] = o.reserves[s]
        out[at["target"]], out[at["box"]] = o.target, o.box
        if o.finisher is not None:
            ones.append(at["finisher"] + (o.finisher - seat) % n)
        if o.last_step is not None:
            out[at["last_step"] + (o.last_step.seat - seat) % n] = o.last_step.beans
        width = MAX_BID + 1
        for k, played in enumerate(o.rounds):
            ones.append(at["played"] + k)
            bids = at["bids"] + k * n * width
            for s, bid in enumerate(played.bids):
                ones.append(bids + (s - seat) % n * width + (0 if bid is None else bid))
            if played.winner is not None:
                ones.append(at["winners"] + k * n + (played.winner - seat) % n)
        if ones:
            out[ones] = 1.0

    def encode_information(self, observation: Any, memory: Any, seat: int, out: Any) -> None:
        self.encode(observation, seat, out)

    def brief(self, observation: Any, seat: int) -> str:
        o = observation
        lines = " ".join("".join(map(str, line)) for line in o.lines)
        rounds = " ".join(",".join("-" if b is None else str(b) for b in r.bids) + f">{r.winner}"
                          for r in o.rounds)
        step = "" if o.last_step is None else f" step {o.last_step.seat}:{o.last_step.beans}"
        return (f"lines {lines} res {','.join(map(str, o.reserves))} target {o.target} "
                f"box {o.box} fin {o.finisher}{step} | {rounds}")

    def action_key(self, action: Any) -> Any:
        return action.beans

    def action_name(self, action: Any) -> str:
        return f"bid {action.beans}"


ENCODER = DaCapoEncoder
