"""What the conformance suite knows about one rule, in one record (``copa-ref conformance
rule KALA-15``).

A game's knowledge of its rules is declared by kind in its conformance folder
(``copa_ref/conformance/<game>/``): the record's scenarios, counts, ``events``, view rules,
readings, ``legal_rule`` and ``config_rule``, the diagnosis's checks, the catalogue's
misreadings and mutants, the situations. :func:`rule_record` gathers, for one rule ID,
everything those declare about it into a :class:`RuleRecord`: the single place a reader
answers "what does the suite know about KALA-15". The functions among them (``events``,
``legal_rule``, ``config_rule``, a diagnosis not written as checks) are shown by the source
lines that name the rule.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from copa_ref.conformance.registry import record_of
from copa_ref.games import GAMES

__all__ = ["Mention", "RuleRecord", "UnknownRule", "render", "rule_record"]

ROOT = Path(__file__).resolve().parents[2]
"""The checkout (the specs and the rule book are read from it when present)."""


class UnknownRule(KeyError):
    """A rule ID that no registered game's spec has."""


@attrs.frozen
class Mention:
    """A source line that names the rule: where and what."""

    where: str
    """``path:line``, the path from the package's folder."""
    text: str


@attrs.frozen(kw_only=True)
class RuleRecord:
    """Everything the conformance suite declares about one rule."""

    rule: str
    game: str
    title: str
    """The rule's heading in ``specs/<game>.md`` (empty when the spec is not at hand)."""
    whole_game: bool
    """Every whole game exercises it (the record's ``whole_game_rules``)."""
    scenarios: tuple[tuple[str, str], ...]
    """The hand-made traces claiming it: ``(case ID, description)``."""
    counts: tuple[tuple[str, str], ...]
    events: tuple[Mention, ...]
    """Where the record's ``events`` tags a step with it."""
    views: tuple[tuple[str, str, str], ...]
    """The observables it decides: ``(part, at which steps, what the rule says)``."""
    checks: tuple[tuple[str, str], ...]
    """The diagnosis's checks naming it: ``(observable, check name)``."""
    diagnosis: tuple[Mention, ...]
    """Diagnosis code naming it outside the checks and the view rules."""
    legal: tuple[Mention, ...]
    """Where ``legal_rule`` names it (an engine refusing a legal action)."""
    config: tuple[Mention, ...]
    """Where ``config_rule`` names it (an engine refusing an allowed config)."""
    readings: tuple[tuple[str, str, str], ...]
    """The config options reading it: ``(option, register entry, values tried)``."""
    misreadings: tuple[tuple[str, str], ...]
    """The common misreadings the explanations replay: ``(slug, description)``."""
    mutants: tuple[tuple[str, str], ...]
    """The kill matrix's mutants."""
    pictured: tuple[tuple[str, str], ...]
    """Further misreadings the rule book uses to find where it fires."""
    unmutatable: str
    """Why it has no mutant (empty when it has)."""
    unnamed: tuple[tuple[str, str], ...]
    """Failing cases of its mutants allowed to name another rule, with the reason."""
    rare: tuple[tuple[str, str], ...]
    """Mutants acting in one rare situation only: ``(slug, situation)``."""
    situations: tuple[tuple[str, str], ...]
    """Its situations for the explorer: ``(name, text)``."""
    pictures: tuple[str, ...]
    """The rule book's pictures of it: the corpus cases drawn at its step."""


def _game_of(rule: str) -> str:
    prefix = rule.partition("-")[0]
    for name, game in GAMES.items():
        if game.prefix == prefix:
            return name
    msg = f"no registered game's rules are named {prefix}-n"
    raise UnknownRule(msg)


def _title(game: str, rule: str) -> tuple[bool, str]:
    """Whether the spec is at hand, and the rule's heading in it."""
    spec = ROOT / "specs" / f"{game}.md"
    if not spec.is_file():
        return False, ""
    found = re.search(rf"^### {re.escape(rule)} (.*)$", spec.read_text(), re.MULTILINE)
    return True, "" if found is None else found[1].strip()


def _mentions(function: Callable[..., Any] | None, rule: str,
              whole_module: bool = False) -> tuple[Mention, ...]:
    """The source lines of *function* (of its module, with *whole_module*) naming *rule*."""
    if function is None:
        return ()
    target: Any = inspect.getmodule(function) if whole_module else function
    try:
        lines, first = inspect.getsourcelines(target)
        path = Path(inspect.getsourcefile(target) or "")
    except (OSError, TypeError):
        return ()
    first = max(first, 1)
    named = re.compile(rf"[\"']{re.escape(rule)}[\"']")
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return tuple(Mention(f"{where}:{first + i}", line.strip())
                 for i, line in enumerate(lines) if named.search(line))


def _diagnosis_parts(diagnose: Any) -> list[Callable[..., Any]]:
    """A function of each module the game's diagnosis is written in: the function itself,
    or, for a :class:`~copa_ref.conformance.ladder.Diagnosis`, its parts' (a ladder's by
    its context), one a module."""
    if diagnose is None:
        return []
    parts = getattr(diagnose, "parts", None)
    if parts is None:
        return [diagnose]
    found: dict[Any, Callable[..., Any]] = {}
    for part in parts:
        function = getattr(part, "context", part)
        found.setdefault(inspect.getmodule(function), function)
    return list(found.values())


def _pictures(game: str, rule: str) -> tuple[str, ...]:
    page = ROOT / "docs" / "rules" / f"{game}.md"
    if not page.is_file():
        return ()
    found = re.findall(r"^```\{position\} (\S+)\n:rule: " + re.escape(rule) + r"\s*$",
                       page.read_text(), re.MULTILINE)
    return tuple(dict.fromkeys(found))


def rule_record(rule: str) -> RuleRecord:
    """What the conformance suite knows about *rule* (``KALA-15``; case-insensitive).

    :raises UnknownRule: when no registered game has the rule (by its spec, or by its
        conformance record where the spec is not at hand).
    """
    rule = rule.strip().upper()
    game = _game_of(rule)
    record = record_of(game)
    has_spec, title = _title(game, rule)
    if has_spec and not title:
        msg = f"specs/{game}.md has no rule {rule}"
        raise UnknownRule(msg)
    if record is None:
        msg = f"{game} has no conformance record"
        raise UnknownRule(msg)
    catalogue = record.catalogue
    from copa_ref.conformance.explore.situations import catalogue as situations_of

    def mine(misreadings: tuple[Any, ...]) -> tuple[tuple[str, str], ...]:
        return tuple((m.slug, m.description) for m in misreadings if m.rule == rule)

    mutants = mine(catalogue.mutants)
    slugs = {slug for slug, _ in mutants}
    checks = tuple((c.observable, c.name) for c in getattr(record.diagnose, "checks", ())
                   if c.rule == rule)
    legal = _mentions(record.legal_rule, rule)
    config = _mentions(record.config_rule, rule)
    shown = {m.where for m in (*legal, *config)}
    diagnosis = tuple(m for part in _diagnosis_parts(record.diagnose)
                      for m in _mentions(part, rule, whole_module=True)
                      if m.where not in shown and not m.text.startswith("ViewRule("))
    return RuleRecord(
        rule=rule, game=game, title=title,
        whole_game=rule in record.whole_game_rules,
        scenarios=tuple((f"{game}/trace/{s.slug}", s.description)
                        for s in record.scenarios if rule in s.rules),
        counts=tuple((f"{game}/count/{c.slug}-depth-{c.depth}", c.description)
                     for c in record.counts if rule in c.rules),
        events=_mentions(record.events, rule),
        views=tuple((v.part, "every step" if v.when is None else v.when.__name__.strip("_"),
                     v.says) for v in record.view_rules if v.rule == rule),
        checks=checks,
        diagnosis=diagnosis, legal=legal, config=config,
        readings=tuple((r.option, r.question, ", ".join(map(str, r.values)) or "every value")
                       for r in record.readings if r.rule == rule),
        misreadings=mine(catalogue.misreadings),
        mutants=mutants,
        pictured=mine(catalogue.pictured),
        unmutatable=catalogue.unmutatable.get(rule, ""),
        unnamed=tuple((key, why) for key, why in catalogue.unnamed.items()
                      if key.partition(" ")[0] in slugs),
        rare=tuple((r.mutant, r.label) for r in catalogue.rare if r.mutant in slugs),
        situations=tuple((s.name, s.text) for s in situations_of(game) if s.rule == rule),
        pictures=_pictures(game, rule),
    )


def render(found: RuleRecord) -> list[str]:
    """*found* as text, one section a kind of knowledge (empty sections left out)."""
    lines = [f"{found.rule} {found.title}".rstrip() + f"  ({found.game})"]

    def section(head: str, rows: list[str]) -> None:
        if rows:
            lines.append(f"{head}:")
            lines.extend(f"  {row}" for row in rows)

    def pairs(rows: tuple[tuple[str, ...], ...]) -> list[str]:
        return [" - ".join(row) for row in rows]

    def code(rows: tuple[Mention, ...]) -> list[str]:
        return [f"{m.where}: {m.text}" for m in rows]

    section("exercised by", (["every whole game"] if found.whole_game else [])
            + pairs(found.scenarios) + pairs(found.counts))
    section("events (tags a step with it)", code(found.events))
    section("observables it decides (part - at - says)", pairs(found.views))
    section("diagnosis checks (observable - check)", pairs(found.checks))
    section("diagnosis", code(found.diagnosis))
    section("named for a refused legal action", code(found.legal))
    section("named for a refused config", code(found.config))
    section("readings (option - question - values)", pairs(found.readings))
    section("misreadings (explanations)", pairs(found.misreadings))
    section("mutants (kill matrix)", pairs(found.mutants))
    section("unmutatable", [found.unmutatable] if found.unmutatable else [])
    section("failing cases allowed to name another rule", pairs(found.unnamed))
    section("rare mutants (slug - situation)", pairs(found.rare))
    section("pictured misreadings", pairs(found.pictured))
    section("pictures in the rule book", list(found.pictures))
    section("situations", pairs(found.situations))
    return lines
