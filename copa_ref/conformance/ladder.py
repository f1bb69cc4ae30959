"""Diagnosis as tables: ordered checks, each naming a rule, consumed by one engine.

A game's diagnosis (``diagnose`` of its conformance record) re-derives a rule's consequence
from what an engine reported and names the rule whose consequence differs. Each part of it
is a :class:`Ladder`: a *context* built from the :class:`~copa_ref.conformance.vocabulary.
Divergence` (the values the checks compare; ``None`` when the ladder does not apply) and an
ordered table of :class:`Check` rows, each a rule, the observable it compares, a predicate
over the context and the message. The engine walks the table in order: the first check that
holds names its rule and ends the ladder (unless it says ``go_on``); a :class:`Stop` ends
it with no finding (what follows cannot be judged from the report). A
:class:`Diagnosis` runs its ladders, and any plain function of the divergence, in order.

The game's folder keeps only what is that game's: its context class and its predicates
(``diagnosis.py``), and its checks, each declared in the entry of the rule it names
(``rules.py``, :class:`~copa_ref.conformance.entries.Checked`) and gathered into the
ladder's table in their places (:func:`~copa_ref.conformance.tables.ladder_checks`); the
predicates several games share are in :mod:`copa_ref.conformance.predicates`.
A diagnosis's own bug raises: only the engine's data errors are caught, by the caller
(:data:`~copa_ref.core.replay.ENGINE_DATA`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

import attrs

from copa_ref.conformance.vocabulary import Finding

__all__ = ["Check", "Diagnosis", "Ladder", "Stop"]

X = TypeVar("X")


@attrs.frozen(kw_only=True)
class Check(Generic[X]):
    """One row of a ladder: when *holds*, *rule* is named with the message *says*."""

    rule: str
    observable: str
    """What the check compares, as a part of the observables (``public.stores``) or in
    words where it is derived (``the trick's winner from its cards``)."""
    holds: Callable[[X], bool]
    """Whether the engine's report breaks the rule (the predicate over the context)."""
    says: Callable[[X], str]
    """The message: the rule's consequence and what the engine has instead."""
    go_on: bool = False
    """After naming the rule, try the later checks too (several rules named, most specific
    first)."""

    @property
    def name(self) -> str:
        """The predicate's name (``field_differs``)."""
        return getattr(self.holds, "__name__", "check").strip("_")


@attrs.frozen(kw_only=True)
class Stop(Generic[X]):
    """A row that ends the ladder with no finding when *holds*."""

    holds: Callable[[X], bool]
    why: str
    """Why the later checks cannot judge the report then."""


@attrs.frozen(kw_only=True)
class Ladder(Generic[X]):
    """A context built from the divergence and an ordered table of checks over it."""

    context: Callable[[Any], X | None]
    """The values the checks compare (``None``: the ladder does not apply)."""
    checks: tuple[Check[X] | Stop[X], ...]

    def __call__(self, divergence: Any) -> Iterator[Finding]:
        found = self.context(divergence)
        if found is None:
            return
        for check in self.checks:
            if not check.holds(found):
                continue
            if isinstance(check, Stop):
                return
            yield Finding(check.rule, check.says(found))
            if not check.go_on:
                return


@attrs.frozen
class Diagnosis:
    """A game's diagnosis: its parts in order (ladders, or functions of the divergence for
    what is a search rather than a table), every finding of each."""

    parts: tuple[Callable[[Any], Iterable[Finding]], ...]

    def __call__(self, divergence: Any) -> Iterator[Finding]:
        for part in self.parts:
            yield from part(divergence)

    @property
    def checks(self) -> tuple[Check[Any], ...]:
        """Every check of the ladders, in order."""
        return tuple(c for part in self.parts if isinstance(part, Ladder)
                     for c in part.checks if isinstance(c, Check))
