"""DA CAPO's tensors (everything is public, DACAPO-8; the bids of a round are chosen at
once): the lines of cups, the reserves, the target cup and every round's bids, seen from the
observing seat. The observation holds the whole history (every round's bids and winner),
so the information state is the observation.

Action ids, whatever seat bids: ``bid 1`` … ``bid 5`` (DACAPO-4) are ids 0 to 4. Seats are
relative (0 the observing seat).
"""

from __future__ import annotations

from typing import Any

from copa_ref.adapters.tensors import Encoder, Layout, Segment, one_hot, relative
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

    def encode(self, observation: Any, seat: int, out: Any) -> None:
        o, v, n = observation, self.observation.views(out), self.players
        for s in range(n):
            r = relative(s, seat, n)
            v["lines"][r, :len(o.lines[s])] = o.lines[s]
            v["reserves"][r] = o.reserves[s]
        v["target"][0], v["box"][0] = o.target, o.box
        if o.finisher is not None:
            v["finisher"][relative(o.finisher, seat, n)] = 1.0
        if o.last_step is not None:
            v["last_step"][relative(o.last_step.seat, seat, n)] = o.last_step.beans
        for k, played in enumerate(o.rounds):
            v["played"][k] = 1.0
            for s, bid in enumerate(played.bids):
                v["bids"][k, relative(s, seat, n), 0 if bid is None else bid] = 1.0
            if played.winner is not None:
                one_hot(v["winners"][k], relative(played.winner, seat, n))

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
