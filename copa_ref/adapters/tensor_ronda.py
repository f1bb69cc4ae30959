"""RONDA's tensors. Every seat sees the same (RONDA-14): the lifted cups, what the last lift
showed, the counts and the supplies, never a covered cup. The information state adds what a
perfect memory of the public history holds of the circle (``copa_ref.ronda.rules.remember``):
for each place, the beans there, or unknown if it was never lifted.

Action ids, whatever seat plays: ``lift 0`` … ``lift 9`` (RONDA-5), ``add 0`` … ``add 9``
(RONDA-7), then ``keep 0`` … ``keep 9`` (RONDA-8) or, under the simpler rule 1, ``again``
(RONDA-16), and ``stop`` (RONDA-9). Seats are relative (0 the observing seat).
"""

from __future__ import annotations

from typing import Any

from copa_ref.adapters.tensors import Encoder, Layout, Segment, one_hot, relative
from copa_ref.ronda.rules import remember
from copa_ref.ronda.state import PLACES, Add, Again, Keep, Lift, Phase, Stop

PHASES = tuple(Phase)
_KINDS = {Lift: 0, Add: 1, Keep: 2, Again: 3, Stop: 4}


class RondaEncoder(Encoder):
    remembers = True

    def __init__(self, game: Any, config: Any) -> None:
        super().__init__(game, config)
        n, b = self.players, config.max_beans + 1
        self.beans = b
        self.observation = Layout((
            Segment("lifted", (PLACES, b), f"each open place's beans, 0 to {b - 1} (one-hot)"),
            Segment("shown", (PLACES, b), "the place and beans the last lift showed (one-hot)"),
            Segment("circle", (1,), "beans in the circle"),
            Segment("black", (1,), "beans in the black cup"),
            Segment("out", (1,), "beans out of the game"),
            Segment("supplies", (n,), "each seat's beans"),
            Segment("to_move", (n,), "the seat to move (one-hot)"),
            Segment("phase", (len(PHASES),), ", ".join(p.value for p in PHASES) + " (one-hot)"),
        ))
        self.information = Layout((*self.observation.segments,
            Segment("memory", (PLACES, b + 1), "each place's beans as a perfect memory holds "
                                               f"them: 0 to {b - 1}, or {b}: never seen")))

    def encode(self, observation: Any, seat: int, out: Any) -> None:
        o, v, n = observation, self.observation.views(out), self.players
        for place, beans in o.lifted:
            v["lifted"][place, beans] = 1.0
        if o.shown is not None:
            v["shown"][o.shown] = 1.0
        v["circle"][0], v["black"][0], v["out"][0] = o.circle, o.black, o.out
        for s in range(n):
            v["supplies"][relative(s, seat, n)] = o.supplies[s]
        one_hot(v["to_move"], relative(o.turn, seat, n))
        one_hot(v["phase"], PHASES.index(o.phase))

    def remember(self, memory: Any, before: Any, action: Any, after: Any, seat: int) -> Any:
        if action is None:  # the arrangement: nothing known
            return (None,) * PLACES
        return remember(memory, action, after)

    def encode_memory(self, memory: Any, seat: int, out: Any) -> None:
        known = memory if memory is not None else (None,) * PLACES
        plane = out.reshape(PLACES, self.beans + 1)
        for place, beans in enumerate(known):
            plane[place, self.beans if beans is None else beans] = 1.0

    def brief(self, observation: Any, seat: int) -> str:
        o = observation
        lifted = ",".join(f"{p}:{b}" for p, b in o.lifted)
        shown = "" if o.shown is None else f" shown {o.shown[0]}:{o.shown[1]}"
        return (f"{o.phase.value} t{o.turn} open {lifted}{shown} circle {o.circle} "
                f"black {o.black} out {o.out} sup {','.join(map(str, o.supplies))}")

    def brief_memory(self, memory: Any) -> str:
        known = memory if memory is not None else (None,) * PLACES
        return " mem " + "".join("?" if b is None else str(b) for b in known)

    def action_key(self, action: Any) -> Any:
        return (_KINDS[type(action)], getattr(action, "cup", 0))

    def action_name(self, action: Any) -> str:
        word = type(action).__name__.lower()
        cup = getattr(action, "cup", None)
        return word if cup is None else f"{word} {cup}"


ENCODER = RondaEncoder
