"""HOPPER's tensors (everything is public, HOPPER-18): the tray in tray order, each cup's
beans, the claims, the supplies, seen from the observing seat. The information state is the
observation (nothing is hidden; only a shoot-out's aims are chosen at once).

Action ids, whatever seat shoots: ``shoot at k`` for each cup ``k`` that can be in the tray
(0 to 15, and 16, the black cup, under End 2: HOPPER-14), or the single ``shoot`` when
aiming is off. Landings are chance. Seats are relative (0 the observing seat).
"""

from __future__ import annotations

from typing import Any

from copa_ref.adapters.tensors import Encoder, Layout, Segment, one_hot, relative
from copa_ref.hopper.state import BLACK, CUP_BEANS, Phase

PHASES = tuple(Phase)
CUPS = BLACK + 1
"""Cup names 0 to 15 and the black cup 16."""


class HopperEncoder(Encoder):
    def __init__(self, game: Any, config: Any) -> None:
        super().__init__(game, config)
        n = self.players
        self.observation = Layout((
            Segment("tray", (CUPS, CUPS), "position by position, the cup standing there "
                                          "(one-hot over the cup names 0 to 16)"),
            Segment("beans", (CUPS, CUP_BEANS + 2), "position by position, the beans in its "
                                                    f"cup, 0 to {CUP_BEANS + 1} (one-hot)"),
            Segment("claimed", (n, CUPS), "the cups each seat has claimed"),
            Segment("hands", (n,), "the beans each seat holds"),
            Segment("loose", (1,), "beans outside the cups, in play"),
            Segment("to_move", (n,), "the seat whose turn it is or whose bean is in the air"),
            Segment("aim", (CUPS,), "the cup the bean in the air was aimed at (one-hot)"),
            Segment("phase", (len(PHASES),), "aim, land, over (one-hot)"),
        ))
        self.information = self.observation

    def encode(self, observation: Any, seat: int, out: Any) -> None:
        o, v, n = observation, self.observation.views(out), self.players
        for position, (cup, beans) in enumerate(o.tray):
            v["tray"][position, cup] = 1.0
            v["beans"][position, beans] = 1.0
        for s, cup in o.claims:
            v["claimed"][relative(s, seat, n), cup] = 1.0
        for s in range(n):
            v["hands"][relative(s, seat, n)] = o.hands[s]
        v["loose"][0] = o.loose
        if o.turn is not None:
            one_hot(v["to_move"], relative(o.turn, seat, n))
        one_hot(v["aim"], o.aim)
        one_hot(v["phase"], PHASES.index(o.phase))

    def encode_information(self, observation: Any, memory: Any, seat: int, out: Any) -> None:
        self.encode(observation, seat, out)

    def brief(self, observation: Any, seat: int) -> str:
        o = observation
        tray = " ".join(f"{c}:{b}" for c, b in o.tray)
        claims = " ".join(f"{s}:{c}" for s, c in o.claims)
        return (f"{o.phase.value} t{o.turn} aim {o.aim} hands {','.join(map(str, o.hands))} "
                f"loose {o.loose} tray {tray} claims {claims}")

    def action_key(self, action: Any) -> Any:
        return -1 if action.aim is None else action.aim

    def action_name(self, action: Any) -> str:
        return "shoot" if action.aim is None else f"shoot at {action.aim}"


ENCODER = HopperEncoder
