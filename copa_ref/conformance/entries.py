"""One declarative entry per rule, and the tables the runner reads built from the entries.

Each game declares, in ``copa_ref/conformance/<game>/rules.py``, one :class:`RuleEntry` per
rule ID in the order of its spec: everything the suite knows of the rule that is data. Its
view parts (:class:`ViewPart`: which part of the observables it decides, and when), its
diagnosis checks (:class:`Checked`: which ladder, the observable, the predicate and the
message), its ``Config`` options (:class:`Option`), its wrong readings (:class:`Misread`:
an explanation, a kill-matrix mutant, a rule-book picture, or several of these) and why it
has no mutant. Naming depends on the order of each table, which is not the order of the
rules (the most specific rule first), so every item carries its place (``at``, from 1) in
its table: :func:`view_rules`, :func:`ladder_checks`, :func:`readings` and
:func:`misreadings` gather the items of every entry and sort them by that place. What is
code (the predicates, the misread functions, ``events``, ``legal_rule``) stays a function of
the game's ``diagnosis.py``, ``misreadings.py`` or ``record.py``; an entry refers to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, TypeVar

import attrs

from copa_ref.conformance.ladder import Check, Stop
from copa_ref.conformance.vocabulary import Reading, ViewRule
from copa_ref.core import JSON, Misreading
from copa_ref.core.misreading import Deferred

__all__ = ["Checked", "Misread", "Option", "RuleEntry", "ViewPart", "ladder_checks",
           "misreadings", "readings", "unmutatable", "view_rules"]

T = TypeVar("T")


@attrs.frozen(kw_only=True)
class ViewPart:
    """A part of the observables the rule decides (a :class:`~copa_ref.conformance.
    vocabulary.ViewRule` once the entry's rule is put in)."""

    at: int
    """Its place in the game's view table (most specific first)."""
    part: str
    says: str
    when: Callable[[Any], bool] | None = None


@attrs.frozen(kw_only=True)
class Checked:
    """A diagnosis check naming the rule (a :class:`~copa_ref.conformance.ladder.Check`
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
    """A ``Config`` option reading the rule (a :class:`~copa_ref.conformance.vocabulary.
    Reading` once the entry's rule is put in)."""

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


def _placed(found: Iterable[tuple[int, T]], table: str) -> tuple[T, ...]:
    """The items in the order of their places, which must be 1 to n."""
    ordered = sorted(found, key=lambda pair: pair[0])
    places = [at for at, _ in ordered]
    if places != list(range(1, len(places) + 1)):
        msg = f"the places of {table} are {places}, not 1 to {len(places)}"
        raise ValueError(msg)
    return tuple(item for _, item in ordered)


def view_rules(entries: Iterable[RuleEntry]) -> tuple[ViewRule[Any, Any, Any, Any], ...]:
    """The game's view table: every entry's view parts, in their places."""
    return _placed(((v.at, ViewRule(part=v.part, rule=e.rule, says=v.says, when=v.when))
                    for e in entries for v in e.views), "the view rules")


def ladder_checks(entries: Iterable[RuleEntry], ladder: str,
                  stops: Mapping[int, Stop[Any]] | None = None,
                  ) -> tuple[Check[Any] | Stop[Any], ...]:
    """The checks of one ladder: every entry's checks of *ladder*, with the ladder's
    *stops* (by place), in their places."""
    found: list[tuple[int, Check[Any] | Stop[Any]]] = [
        (c.at, Check(rule=e.rule, observable=c.observable, holds=c.holds, says=c.says,
                     go_on=c.go_on))
        for e in entries for c in e.checks if c.ladder == ladder]
    found += list((stops or {}).items())
    return _placed(found, f"the {ladder} ladder")


def readings(entries: Iterable[RuleEntry]) -> tuple[Reading, ...]:
    """The game's readings: every entry's options, in their places."""
    return _placed(((o.at, Reading(option=o.option, question=o.question, rule=e.rule,
                                   values=o.values))
                    for e in entries for o in e.options), "the readings")


def misreadings(entries: Iterable[RuleEntry],
                kind: Literal["explains", "mutant", "pictured"]) -> tuple[Misreading, ...]:
    """One list of the catalogue: every entry's wrong readings with a place in it, in their
    places."""
    return _placed(((place, Misreading(rule=e.rule, slug=m.slug, description=m.description,
                                       replacements=m.replacements, module=m.module))
                    for e in entries for m in e.misread
                    if (place := getattr(m, kind)) is not None), f"the {kind} list")


def unmutatable(entries: Iterable[RuleEntry]) -> dict[str, str]:
    """The rules with no one-rule mutant, and why."""
    return {e.rule: e.unmutatable for e in entries if e.unmutatable}
