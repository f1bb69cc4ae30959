"""Situations: the branches and boundary cases of each rule, fine enough to aim at.

A rule is many situations. Coverage counted per rule cannot tell a Copas round where one seat
takes every trick from any other round (both fire COPAS-19's check); a situation can. Each
situation has a stable name (``COPAS-19/all-tricks-one-seat``: the rule ID, a slash, a
slug), its rule, one line of text and a predicate over one step (the state before, the
action, the state after), the same form as the conformance records' ``events``.

Every rule of a game has at least its ``<RULE>/fires`` situation: a step the record's
``events`` (or the end of a game, for the whole-game rules and the outcome's rule) tags with
the rule. The per-game tables (``copa_ref.conformance.<game>.situations``: ``SITUATIONS``;
``PROGRESS``, how far a state is towards the game's end, the heuristic of its ``/fires``
situations; ``REQUIRES``, for a rule only some configs exercise, why the others do not;
``AIMS``, for a rule, the aimed chance outcome of its ``/fires`` situation; ``HEURISTICS``,
for a rule whose ``/fires`` a game's progress does not steer to, its own heuristic) add
the rare branches and boundaries, each with what excludes it under a config (``why_not``) and a
heuristic that steers the planner (:mod:`~copa_ref.conformance.explore.planner`) towards it.

Each rule's situations are listed in its spec, under its heading (``**Situations:** ...``);
:func:`spec_lines` reads them back and a test keeps spec and catalogue in agreement.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import attrs

from copa_ref.conformance.registry import record_of
from copa_ref.games import GAMES

__all__ = ["Situation", "catalogue", "fires", "met_by", "met_in_game", "rules_of",
           "spec_lines",
           "step_rules", "with_spec_lines"]

Predicate = Callable[[Any, Any, Any], bool]
"""``fires(before, action, after) -> bool``: whether one step meets the situation."""


def _always(config: Any) -> str | None:
    return None


def _flat(state: Any) -> float:
    return 0.0


@attrs.frozen(kw_only=True)
class Situation:
    """One branch or boundary case of a rule, met by a step."""

    name: str
    """``RULE-ID/slug``: stable, the rule ID first."""
    rule: str
    text: str
    """What happens, in one line."""
    fires: Predicate
    """Whether a step (before, action, after) meets it."""
    why_not: Callable[[Any], str | None] = _always
    """Why a config excludes the situation (``None``: the config allows it)."""
    heuristic: Callable[[Any], float] = _flat
    """How close a state is to the situation (higher is closer), for the planner."""
    chance: Callable[[Any, Any, Any], Any] | None = None
    """``chance(game, state, rng)``: a chance action aimed at the situation (a deal that
    makes it likely), offered to the planner beside the sampled ones."""

    def __attrs_post_init__(self) -> None:
        if not self.name.startswith(self.rule + "/"):
            msg = f"situation {self.name!r} does not start with its rule {self.rule!r}"
            raise ValueError(msg)


def step_rules(game: Any, before: Any, action: Any, after: Any) -> frozenset[str]:
    """The rules one step exercises: the record's ``events``, and at the end of a game its
    whole-game rules and the outcome's rule (what explore's coverage counts)."""
    record = record_of(game.name)
    rules: set[str] = set()
    if record is not None and record.events is not None:
        rules |= record.events(before, action, after)
    if game.to_move(after).is_over:
        if record is not None:
            rules |= set(record.whole_game_rules)
        result = game.outcome(after)
        if result is not None and result.rule:
            rules.add(result.rule)
    return frozenset(rules)


def fires(game: Any, rule: str, progress: Callable[[Any], float] = _flat,
          why_not: Callable[[Any], str | None] = _always,
          chance: Callable[[Any, Any, Any], Any] | None = None) -> Situation:
    """The situation ``<rule>/fires``: any step tagged with *rule* (*progress*, how far a
    game has gone towards its end, steers the planner to the whole-game rules; *why_not*
    says which configs never exercise the rule; *chance*, an aimed chance outcome)."""

    def test(before: Any, action: Any, after: Any) -> bool:
        return rule in step_rules(game, before, action, after)

    return Situation(name=f"{rule}/fires", rule=rule,
                     text=f"a step exercises {rule}", fires=test, heuristic=progress,
                     why_not=why_not, chance=chance)


def rules_of(game: Any) -> tuple[str, ...]:
    """The rule IDs of a game's spec, in order (``### <RULE-ID> ...`` headings)."""
    return tuple(rule for rule, _ in _sections(game))


def _spec(game: Any) -> Path:
    return Path(__file__).resolve().parents[3] / "specs" / f"{game.name}.md"


_HEADING = re.compile(r"^### ([A-Z]+-\d+) ")
_LINE = re.compile(r"^\*\*Situations:\*\* (.*)$")


def _sections(game: Any) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    lines = _spec(game).read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        heading = _HEADING.match(line)
        if heading is None or not heading.group(1).startswith(game.prefix + "-"):
            continue
        names: list[str] = []
        for following in lines[number + 1:number + 4]:
            listed = _LINE.match(following)
            if listed is not None:
                names = [n.strip() for n in listed.group(1).split(",") if n.strip()]
                break
        found.append((heading.group(1), names))
    return found


def spec_lines(game: Any) -> dict[str, tuple[str, ...]]:
    """Each rule's situations as its spec lists them (under its heading)."""
    return {rule: tuple(names) for rule, names in _sections(game)}


@cache
def catalogue(name: str) -> tuple[Situation, ...]:
    """Every situation of the game *name*, by rule in spec order: each rule's
    ``<RULE>/fires``, then the game table's own (``SITUATIONS``)."""
    game = GAMES[name]
    table: tuple[Situation, ...] = ()
    progress: Callable[[Any], float] = _flat
    requires: dict[str, Callable[[Any], str | None]] = {}
    aims: dict[str, Callable[[Any, Any, Any], Any]] = {}
    heuristics: dict[str, Callable[[Any], float]] = {}
    try:
        module = importlib.import_module(f"copa_ref.conformance.{name}.situations")
    except ModuleNotFoundError:
        module = None
    if module is not None:
        table = tuple(module.SITUATIONS)
        progress = getattr(module, "PROGRESS", _flat)
        requires = dict(getattr(module, "REQUIRES", {}))
        aims = dict(getattr(module, "AIMS", {}))
        heuristics = dict(getattr(module, "HEURISTICS", {}))
    found: list[Situation] = []
    for rule in rules_of(game):
        found.append(fires(game, rule, heuristics.get(rule, progress),
                           requires.get(rule, _always), aims.get(rule)))
        found.extend(s for s in table if s.rule == rule)
    stray = [s.name for s in table if s.rule not in rules_of(game)]
    if stray:
        msg = f"{name}: situations of no rule in the spec: {', '.join(stray)}"
        raise ValueError(msg)
    return tuple(found)


def met_by(situations: Iterable[Situation], before: Any, action: Any,
           after: Any) -> list[str]:
    """The names of the *situations* one step meets."""
    return [s.name for s in situations if s.fires(before, action, after)]


def with_spec_lines(name: str) -> str:
    """The spec of the game *name* with each rule's ``**Situations:**`` line (under its
    heading, a blank line either side) set from the catalogue: how the lines are written."""
    game = GAMES[name]
    by_rule: dict[str, list[str]] = {}
    for situation in catalogue(name):
        by_rule.setdefault(situation.rule, []).append(situation.name)
    lines = _spec(game).read_text(encoding="utf-8").splitlines()
    out: list[str] = []
    number = 0
    while number < len(lines):
        line = lines[number]
        out.append(line)
        number += 1
        heading = _HEADING.match(line)
        if heading is None or heading.group(1) not in by_rule:
            continue
        while number < len(lines) and (not lines[number].strip()
                                       or _LINE.match(lines[number])):
            number += 1
        out += ["", f"**Situations:** {', '.join(by_rule[heading.group(1)])}", ""]
    return "\n".join(out) + "\n"


def met_in_game(name: str, states: Sequence[Any], actions: Sequence[Any],
                tags: Sequence[frozenset[str]] | None = None) -> set[str]:
    """The situations of the game *name* that the steps of one game meet (``states[i]``
    before ``actions[i]``). With *tags* (``tags[i]``: the rules step i exercises, as
    :func:`step_rules` gives them) the ``/fires`` situations are read from the tags."""
    found: set[str] = set()
    situations = catalogue(name)
    game = GAMES[name]
    for number, action in enumerate(actions):
        before, after = states[number], states[number + 1]
        rules = (tags[number] if tags is not None
                 else step_rules(game, before, action, after))
        for situation in situations:
            if situation.name in found:
                continue
            if situation.name.endswith("/fires"):
                if situation.rule in rules:
                    found.add(situation.name)
            elif situation.fires(before, action, after):
                found.add(situation.name)
    return found
