"""Common misreadings of the rules that are not ``Config`` options.

Each :class:`~copa_ref.core.misreading.Misreading` is tagged with the rule it misreads; the
conformance runner replays a failing case under each of them to explain the failure ("your
engine plays as if ..."). See :mod:`copa_ref.core.misreading`.
"""

from __future__ import annotations

from copa_ref.core.misreading import Misreading

__all__ = ["MISREADINGS"]

MISREADINGS: tuple[Misreading, ...] = ()
"""The catalogue, one entry per common misreading."""
