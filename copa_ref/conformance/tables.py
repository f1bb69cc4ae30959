"""The tables a game's record uses, built from its rule entries
(:class:`~copa_ref.conformance.entries.RuleEntry`, ``copa_ref/conformance/<game>/rules.py``).

Each function gathers one kind of item from every entry, puts the entry's rule in, and sorts
the items by their place in the table (``at``, from 1): the view rules, a diagnosis
ladder's checks (with its stops), the readings, a list of the catalogue (:func:`catalogue`
builds the whole catalogue). Places that do not
run from 1 without a gap are refused where the table is built (at import).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeVar

from copa_ref.conformance.entries import RuleEntry
from copa_ref.conformance.ladder import Check, Stop
from copa_ref.conformance.vocabulary import Catalogue, Rare, Reading, ViewRule
from copa_ref.core import Misreading

__all__ = ["catalogue", "ladder_checks", "misreadings", "readings", "unmutatable",
           "view_rules"]

T = TypeVar("T")


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


def catalogue(entries: Iterable[RuleEntry], *, unnamed: Mapping[str, str],
              rare: tuple[Rare, ...], vacuous: Mapping[str, str] | None = None) -> Catalogue:
    """The game's catalogue: its entries' common misreadings, mutants, rule-book
    misreadings and rules with no mutant, with the kill matrix's lists by mutant and case
    (kept with the misread functions in ``misreadings.py``)."""
    entries = tuple(entries)
    return Catalogue(misreadings=misreadings(entries, "explains"),
                     mutants=misreadings(entries, "mutant"),
                     pictured=misreadings(entries, "pictured"),
                     unmutatable=unmutatable(entries), unnamed=unnamed, rare=rare,
                     vacuous=vacuous or {})
