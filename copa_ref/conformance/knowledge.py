"""What the conformance suite knows about one rule, in one record (``copa-ref conformance
rule KALA-15``).

What is data is declared one entry a rule in the game's ``copa_ref/conformance/<game>/
rules.py`` (:class:`~copa_ref.conformance.entries.RuleEntry`, the record's ``rules``): its
view parts, diagnosis checks, readings, misreadings, mutants, pictured misreadings, why it
has no mutant. The rest is elsewhere: the record's scenarios and counts claim rules, the
catalogue's lists by mutant (failing cases allowed to name another rule, rare situations),
the explorer's situations, the rule book's pictures, and the code (``events``,
``legal_rule``, ``config_rule``, ``check_public``, the diagnosis's searches that are no
ladder), shown by the source lines that name the rule. :func:`rule_record` gathers all of
it for one rule ID into a :class:`RuleRecord`.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from copa_ref.conformance.entries import RuleEntry
from copa_ref.conformance.ladder import Ladder
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
    declared: tuple[Mention, ...]
    """Where the rule's entry starts in ``copa_ref/conformance/<game>/rules.py`` (empty when
    the source is not at hand or the rule has no entry)."""
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
    """Diagnosis code naming it outside the ladders (the searches that are no table)."""
    legal: tuple[Mention, ...]
    """Where ``legal_rule`` names it (an engine refusing a legal action)."""
    config: tuple[Mention, ...]
    """Where ``config_rule`` names it (an engine refusing an allowed config)."""
    public: tuple[Mention, ...]
    """Where ``check_public`` names it (a reported public view that breaks it)."""
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
    """The source lines of *function* (of its module, with *whole_module*) naming *rule*;
    a function's own lines, then those of the module's tables it reads (a tuple of
    ``(option, rule)`` pairs, say)."""
    if function is None:
        return ()
    module = inspect.getmodule(function)
    target: Any = module if whole_module else function
    try:
        lines, first = inspect.getsourcelines(target)
        path = Path(inspect.getsourcefile(target) or "")
        whole = inspect.getsource(module) if module is not None else ""
    except (OSError, TypeError):
        return ()
    first = max(first, 1)
    named = re.compile(rf"[\"']{re.escape(rule)}[\"']")
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    numbered = [(first + i, line) for i, line in enumerate(lines)]
    if not whole_module:
        numbered += _tables_read(function, whole)
    return tuple(Mention(f"{where}:{n}", line.strip()) for n, line in numbered
                 if named.search(line))


def _tables_read(function: Callable[..., Any], source: str) -> list[tuple[int, str]]:
    """The numbered source lines of the module-level tuples and dicts *function* reads
    (*source*: its module's)."""
    code = getattr(function, "__code__", None)
    if code is None or not source:
        return []
    tables = {name for name in code.co_names
              if isinstance(function.__globals__.get(name), (tuple, dict))}
    lines = source.splitlines()
    found: list[tuple[int, str]] = []
    for node in ast.parse(source).body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id in tables for t in targets):
            end = node.end_lineno or node.lineno
            found += [(n, lines[n - 1]) for n in range(node.lineno, end + 1)]
    return found


def _diagnosis_code(diagnose: Any) -> list[Callable[..., Any]]:
    """The parts of the game's diagnosis that are code, not ladders (whose checks are the
    rule entries'): the function itself, or a :class:`~copa_ref.conformance.ladder.
    Diagnosis`'s parts that are no :class:`~copa_ref.conformance.ladder.Ladder`, one a
    module."""
    if diagnose is None:
        return []
    found: dict[Any, Callable[..., Any]] = {}
    for part in getattr(diagnose, "parts", (diagnose,)):
        if not isinstance(part, Ladder):
            found.setdefault(inspect.getmodule(part), part)
    return list(found.values())


def _declared(game: str, rule: str) -> tuple[Mention, ...]:
    """The line that opens *rule*'s entry in the game's ``rules.py``."""
    path = ROOT / "copa_ref" / "conformance" / game / "rules.py"
    if not path.is_file():
        return ()
    lines = path.read_text().splitlines()
    return tuple(Mention(f"{path.relative_to(ROOT)}:{i}", f"RuleEntry({line.strip()}")
                 for i, line in enumerate(lines, 1)
                 if line.strip() == f'"{rule}",' and lines[i - 2].strip() == "RuleEntry(")


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

    entry = next((e for e in record.rules if e.rule == rule), RuleEntry(rule))

    def mine(kind: str) -> tuple[tuple[str, str], ...]:
        placed = sorted((getattr(m, kind), m.slug, m.description) for m in entry.misread
                        if getattr(m, kind) is not None)
        return tuple((slug, description) for _, slug, description in placed)

    mutants = mine("mutant")
    slugs = {slug for slug, _ in mutants}
    checks = tuple((c.observable, c.name) for c in getattr(record.diagnose, "checks", ())
                   if c.rule == rule)
    legal = _mentions(record.legal_rule, rule)
    config = _mentions(record.config_rule, rule)
    public = _mentions(record.check_public, rule)
    shown = {m.where for m in (*legal, *config, *public)}
    diagnosis = tuple(m for part in _diagnosis_code(record.diagnose)
                      for m in _mentions(part, rule, whole_module=True)
                      if m.where not in shown)
    return RuleRecord(
        rule=rule, game=game, title=title, declared=_declared(game, rule),
        whole_game=rule in record.whole_game_rules,
        scenarios=tuple((f"{game}/trace/{s.slug}", s.description)
                        for s in record.scenarios if rule in s.rules),
        counts=tuple((f"{game}/count/{c.slug}-depth-{c.depth}", c.description)
                     for c in record.counts if rule in c.rules),
        events=_mentions(record.events, rule),
        views=tuple((v.part, "every step" if v.when is None else v.when.__name__.strip("_"),
                     v.says) for v in sorted(entry.views, key=lambda v: v.at)),
        checks=checks,
        diagnosis=diagnosis, legal=legal, config=config, public=public,
        readings=tuple((o.option, o.question, ", ".join(map(str, o.values)) or "every value")
                       for o in sorted(entry.options, key=lambda o: o.at)),
        misreadings=mine("explains"),
        mutants=mutants,
        pictured=mine("pictured"),
        unmutatable=entry.unmutatable,
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

    section("declared (its entry)", [m.where for m in found.declared])
    section("exercised by", (["every whole game"] if found.whole_game else [])
            + pairs(found.scenarios) + pairs(found.counts))
    section("events (tags a step with it)", code(found.events))
    section("observables it decides (part - at - says)", pairs(found.views))
    section("diagnosis checks (observable - check)", pairs(found.checks))
    section("diagnosis", code(found.diagnosis))
    section("named for a refused legal action", code(found.legal))
    section("named for a refused config", code(found.config))
    section("checked in a reported public view", code(found.public))
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
