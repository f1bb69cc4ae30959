"""One declarative entry per rule: what the conformance suite knows of it.

Each game declares, in ``copa_ref/conformance/<game>/rules.py``, one :class:`RuleEntry` per
rule ID in the order of its spec: everything the suite knows of the rule that is data. Its
view parts (:class:`ViewPart`: which part of the observables it decides, and when;
:func:`view_parts` for several parts it decides with one saying), its diagnosis checks
(:class:`Checked`: which ladder, the observable, the predicate and the message), its
``Config`` options (:class:`Option`), its wrong readings (:class:`Misread`: an
explanation, a kill-matrix mutant, a rule-book picture, or several of these) and why it
has no mutant. Naming depends on the order of each table, which is not the order of the
rules (the most specific rule first), so every item carries its place (``at``, from 1) in
its table: ``copa_ref.conformance.tables`` gathers the items of every entry and sorts
them by that place, and the game's record holds the entries (``rules``). What is
code (the predicates, the misread functions, ``events``, ``legal_rule``) stays a function of
the game's ``diagnosis.py``, ``misreadings.py`` or ``record.py``; an entry refers to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from copa_ref.core import JSON
from copa_ref.core.misreading import Deferred

__all__ = ["Checked", "Misread", "Option", "RuleEntry", "ViewPart", "view_parts"]


@attrs.frozen(kw_only=True)
class ViewPart:
    """A part of the observables the rule decides (a ``ViewRule`` of
    ``copa_ref.conformance.vocabulary`` once the entry's rule is put in)."""

    at: int
    """Its place in the game's view table (most specific first)."""
    part: str
    says: str
    when: Callable[[Any], bool] | None = None


def view_parts(places: Mapping[str, int], *, says: str,
               when: Callable[[Any], bool] | None = None) -> tuple[ViewPart, ...]:
    """The parts of the observables a rule decides with one saying and under one condition:
    a :class:`ViewPart` for each part of *places*, at its place in the view table."""
    return tuple(ViewPart(at=at, part=part, says=says, when=when)
                 for part, at in places.items())


@attrs.frozen(kw_only=True)
class Checked:
    """A diagnosis check naming the rule (a ``Check`` of ``copa_ref.conformance.ladder``
    once the entry's rule is put in)."""

    ladder: str
    """The ladder of the game's diagnosis it belongs to (``"turn"``, ``"legal"``)."""
    at: int
    """Its place in that ladder."""
    observable: str
    holds: Callable[[Any], bool]
    says: Callable[[Any], str]
    go_on: bool = False


@attrs.frozen(kw_only=True)
class Option:
    """A ``Config`` option reading the rule (a ``Reading`` of
    ``copa_ref.conformance.vocabulary`` once the entry's rule is put in)."""

    at: int
    """Its place in the game's readings (the explanations try them in this order)."""
    option: str
    question: str
    values: tuple[JSON, ...] = ()


@attrs.frozen(kw_only=True)
class Misread:
    """A wrong reading of the rule (a :class:`~copa_ref.core.misreading.Misreading` once
    the entry's rule is put in), and its place in each catalogue list that holds it."""

    slug: str
    description: str
    replacements: Mapping[str, object] | Deferred
    module: str = ""
    """The module to copy (empty: the game's own rules module)."""
    explains: int | None = None
    """Its place among the common misreadings the explanations replay."""
    mutant: int | None = None
    """Its place among the kill matrix's mutants."""
    pictured: int | None = None
    """Its place among the rule book's misreadings."""


@attrs.frozen
class RuleEntry:
    """What the conformance suite declares about one rule."""

    rule: str
    views: tuple[ViewPart, ...] = attrs.field(default=(), kw_only=True)
    checks: tuple[Checked, ...] = attrs.field(default=(), kw_only=True)
    options: tuple[Option, ...] = attrs.field(default=(), kw_only=True)
    misread: tuple[Misread, ...] = attrs.field(default=(), kw_only=True)
    unmutatable: str = attrs.field(default="", kw_only=True)
    """Why the rule has no one-rule mutant (empty when it has)."""
