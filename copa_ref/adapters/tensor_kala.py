"""KALA's tensors (everything is public, KALA-11): the observation is the whole position,
seen from the observing seat; no information-state tensor (perfect information).

Action ids: the sowings (KALA-6 to KALA-9) by path length then path (row, column) squares,
then ``harvest no``/``harvest yes`` (KALA-12), the placements of the cup (KALA-14) by square,
then, when the bonus is optional, ``bonus no``/``bonus yes`` (KALA-16).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from copa_ref.adapters.tensors import Encoder, Layout, Segment
from copa_ref.kala.state import BOARD, Bonus, Harvest, Phase, Place, Sow

PHASES = tuple(Phase)

OBSERVATION = Layout((
    Segment("field", (BOARD, BOARD), "beans in each field cup, row by row (KALA-2)"),
    Segment("cups", (2, BOARD, BOARD), "where each seat's playing cup stands (own first)"),
    Segment("cup_beans", (2,), "beans in each seat's playing cup (own first)"),
    Segment("stores", (2,), "beans in each seat's store (own first)"),
    Segment("bank", (1,), "beans returned to the bank by harvests (KALA-15)"),
    Segment("to_move", (2,), "whose turn it is: own, the opponent's (one-hot)"),
    Segment("phase", (len(PHASES),), "the decision awaited: " + ", ".join(p.value for p in PHASES)),
    Segment("bonus_sowing", (1,), "1 while the sowing being finished is the bonus sowing"),
    Segment("last", (BOARD, BOARD), "the square of the last bean sown (harvest, placement)"),
))

_KINDS = {Sow: 0, Harvest: 1, Place: 2, Bonus: 3}

_AT = OBSERVATION.offsets()
_FIELD, _CUPS, _CUP_BEANS, _STORES, _BANK, _TO_MOVE, _BONUS, _LAST = (
    _AT[name] for name in ("field", "cups", "cup_beans", "stores", "bank", "to_move",
                           "bonus_sowing", "last"))
_PHASE_AT = tuple(_AT["phase"] + i for i in range(len(PHASES)))
_CELLS = BOARD * BOARD
_SIZE = OBSERVATION.size
assert _FIELD == 0
_AFTER_FIELD = bytes(_SIZE - _CELLS)


class KalaEncoder(Encoder):
    observation = OBSERVATION

    def _values(self, observation: Any, seat: int) -> bytearray:
        """The tensor's values at the layout's offsets as bytes (a seat's row relative, own
        first): every value is a count of at most 56 beans (KALA-18) or a 0/1 flag, and a
        byte array is filled several times faster than an array of floats. The two seats
        written one after the other (own first), inline."""
        o = observation
        values = bytearray(o.field)  # the field first (at offset 0), then zeros
        values += _AFTER_FIELD
        other = 1 - seat
        (row, col), (other_row, other_col) = o.cups[seat], o.cups[other]
        values[_CUPS + BOARD * row + col] = 1
        values[_CUPS + _CELLS + BOARD * other_row + other_col] = 1
        beans, stores = o.cup_beans, o.stores
        values[_CUP_BEANS] = beans[seat]
        values[_CUP_BEANS + 1] = beans[other]
        values[_STORES] = stores[seat]
        values[_STORES + 1] = stores[other]
        values[_BANK] = o.bank
        values[_TO_MOVE + (o.turn != seat)] = 1
        values[_PHASE_AT[PHASES.index(o.phase)]] = 1
        if o.bonus_sowing:
            values[_BONUS] = 1
        last = o.last
        if last is not None:
            values[_LAST + BOARD * last[0] + last[1]] = 1
        return values

    def encode(self, observation: Any, seat: int, out: Any) -> None:
        out[:_SIZE] = np.frombuffer(self._values(observation, seat), np.uint8)

    def observation_tensor(self, observation: Any, seat: int) -> Any:
        return np.array(self._values(observation, seat), np.float32)

    def brief(self, observation: Any, seat: int) -> str:
        o = observation
        last = "" if o.last is None else f" last {o.last[0]}{o.last[1]}"
        return (f"{o.phase.value}{' bonus' if o.bonus_sowing else ''} turn {o.turn} "
                f"field {','.join(map(str, o.field))} cups {o.cups[0][0]}{o.cups[0][1]},"
                f"{o.cups[1][0]}{o.cups[1][1]} in {o.cup_beans[0]},{o.cup_beans[1]} "
                f"stores {o.stores[0]},{o.stores[1]} bank {o.bank}{last}")

    def action_key(self, action: Any) -> Any:
        kind = _KINDS[type(action)]
        if type(action) is Sow:
            return (kind, len(action.path), action.path)
        if type(action) is Place:
            return (kind, 0, action.square)
        return (kind, 0, action.take)

    def action_name(self, action: Any) -> str:
        if type(action) is Sow:
            return "sow " + "-".join(f"{r}{c}" for r, c in action.path)
        if type(action) is Place:
            return f"place {action.square[0]}{action.square[1]}"
        word = "harvest" if type(action) is Harvest else "bonus"
        return f"{word} {'yes' if action.take else 'no'}"


ENCODER = KalaEncoder
