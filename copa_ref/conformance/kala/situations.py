"""KALA's situations: each rule's ``<RULE>/fires`` (see
:mod:`copa_ref.conformance.explore.situations`), steered by the beans out of the stores.
"""

from __future__ import annotations

from copa_ref.conformance.explore.situations import Situation
from copa_ref.kala import State

__all__ = ["PROGRESS", "SITUATIONS"]


def PROGRESS(state: State) -> float:
    """How far a game has gone: the beans no longer in the stores."""
    return -float(sum(state.stores))


SITUATIONS: tuple[Situation, ...] = ()
"""KALA's situations beyond each rule's ``/fires``: none yet."""
