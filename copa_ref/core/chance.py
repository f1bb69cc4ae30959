"""Helpers for sampling chance actions from an explicit generator (never global state)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["shuffled"]

T = TypeVar("T")


def shuffled(rng: random.Random, items: Sequence[T]) -> tuple[T, ...]:
    """A uniformly random permutation of *items*, drawn from *rng*."""
    pool = list(items)
    rng.shuffle(pool)
    return tuple(pool)
