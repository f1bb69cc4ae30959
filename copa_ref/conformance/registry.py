"""The conformance records of the games, listed explicitly by name.

As :mod:`copa_ref.games` lists the games, this module lists their conformance records
(:class:`~copa_ref.conformance.vocabulary.GameRecord`): the generator and the runner reach a
game's scenarios, view rules, readings, misreadings and diagnosis only through it. A game
without a record has no corpus.
"""

from __future__ import annotations

from copa_ref.conformance.copas.record import RECORD as COPAS
from copa_ref.conformance.da_capo.record import RECORD as DA_CAPO
from copa_ref.conformance.hopper.record import RECORD as HOPPER
from copa_ref.conformance.kala.record import RECORD as KALA
from copa_ref.conformance.kopa.record import RECORD as KOPA
from copa_ref.conformance.ronda.record import RECORD as RONDA
from copa_ref.conformance.vocabulary import AnyRecord

__all__ = ["RECORDS", "record_of"]

_ALL: tuple[AnyRecord, ...] = (
    COPAS,
    DA_CAPO,
    HOPPER,
    KALA,
    KOPA,
    RONDA,
)

RECORDS: dict[str, AnyRecord] = {record.name: record for record in _ALL}
"""Every game's conformance record by the game's registry name."""


def record_of(name: str) -> AnyRecord | None:
    """The conformance record of the game registered as *name* (``None``: it has none)."""
    return RECORDS.get(name)
