"""Alternative readings as explanations of a failure.

When an engine's reports differ from the reference, the runner replays the case's actions
under every other value of each ``Config`` option of the game's record (``readings``) and
under every entry of its ``misreadings`` catalogue. An alternative *explains* the failure
when the engine's reports, up to and including the failing step, are exactly what the
reference reports under it: "your engine plays as if harvest=mandatory (KALA-Q7)".
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from copa_ref.conformance.observables import observables
from copa_ref.conformance.vocabulary import AnyRecord, Report
from copa_ref.core import JSON, MoverKind, canonical_json
from copa_ref.core.misreading import Misreading, misread
from copa_ref.core.replay import BAD_DATA, replay

__all__ = ["Alternative", "Explanation", "alternatives", "explain", "finding_lines",
           "report_matches"]

AnyGame = Any


@attrs.frozen
class Alternative:
    """Another way to read the rules: a game (the reference, or a misread copy) and a
    config."""

    label: str
    """How it is named to an engine author (``harvest=mandatory (KALA-Q7)``)."""
    rule: str
    """The rule it reads differently."""
    game: AnyGame
    config: Any
    given: Any
    """The config the engine was given (the case's)."""


@attrs.frozen
class Explanation:
    """An alternative that reproduces every report of the engine."""

    rule: str
    message: str


_misread_cache: dict[tuple[str, str, str], AnyGame] = {}


def misread_once(game: AnyGame, misreading: Misreading) -> AnyGame:
    """*game* with *misreading* (built once a game and misreading)."""
    key = (game.name, misreading.rule, misreading.slug)
    found = _misread_cache.get(key)
    if found is None:
        found = _misread_cache[key] = misread(game, misreading)
    return found


def _values(given: Sequence[JSON], current: Any) -> list[JSON]:
    if given:
        return list(given)
    if isinstance(current, enum.Enum):
        return [member.value for member in type(current)]
    if isinstance(current, bool):
        return [False, True]
    return []


def alternatives(record: AnyRecord, config: Any) -> Iterator[Alternative]:
    """Every other reading of *config* (one option changed at a time) and every misreading
    of the record, in the record's order."""
    game = record.game
    given = game.to_json(config)
    assert isinstance(given, dict)
    for reading in record.readings:
        current = getattr(config, reading.option, None)
        if reading.option not in given:
            continue
        for value in _values(reading.values, current):
            if canonical_json(value) == canonical_json(given[reading.option]):
                continue
            try:
                other = game.config_from_json({**given, reading.option: value})
                game.new_game(other)
            except BAD_DATA:
                continue
            shown = value if isinstance(value, str) else canonical_json(value)
            yield Alternative(f"{reading.option}={shown} ({reading.question})", reading.rule,
                              game, other, config)
    for misreading in record.misreadings:
        try:
            misread_game = misread_once(game, misreading)
        except BAD_DATA:
            continue
        yield Alternative(f"{misreading.slug}: {misreading.description}", misreading.rule,
                          misread_game, config, config)


def _legal_of(game: AnyGame, state: Any, seat: int | None) -> list[str]:
    mover = game.to_move(state)
    if seat is None and mover.kind in (MoverKind.CHANCE, MoverKind.JOINT):
        return []
    return sorted(canonical_json(game.to_json(a)) for a in game.legal_actions(state, seat))


def report_matches(game: AnyGame, state: Any, report: Report, rule_ids: bool = True,
                   config: JSON = None) -> bool:
    """Whether *report* is exactly what *game* reports in *state* (the legal sets only
    where the report has them; the outcome's rule only when *rule_ids*).

    :param config: the config the engine was given, as JSON: where the public view shows
        the config, it shows this one (an engine playing another reading does not know it).
    """
    seen = observables(game, state)
    if canonical_json(seen["to_move"]) != canonical_json(report.to_move):
        return False
    if report.observed:
        public = seen["public"]
        if config is not None and isinstance(public, dict) and "config" in public:
            public = {**public, "config": config}
        if canonical_json(public) != canonical_json(report.public):
            return False
        if canonical_json(outcome_shown(seen["outcome"], rule_ids)) != canonical_json(
                outcome_shown(report.outcome, rule_ids)):
            return False
    for seat, listed in report.legal.items():
        wanted = _legal_of(game, state, seat)
        if len(wanted) != len(listed) or wanted != sorted(canonical_json(a) for a in listed):
            return False
    return True


def outcome_shown(outcome: JSON, rule_ids: bool) -> JSON:
    """The outcome as compared: without its ``rule`` for an engine without ``rule_ids``."""
    if rule_ids or not isinstance(outcome, dict):
        return outcome
    return {k: v for k, v in outcome.items() if k != "rule"}


def replays(alternative: Alternative, actions: Sequence[JSON],
            reports: Mapping[int, Report], rule_ids: bool = True) -> bool:
    """Whether the reference under *alternative*, fed *actions*, reports every one of
    *reports* (step -> report) exactly."""
    game = alternative.game
    last = max(reports, default=0)
    try:
        given = game.to_json(alternative.given)
        states = replay(game, alternative.config, actions[:last])
        # The failing step first: most alternatives are ruled out there.
        if not report_matches(game, states[last], reports[last], rule_ids, given):
            return False
        return all(report_matches(game, states[step], report, rule_ids, given)
                   for step, report in reports.items() if step != last)
    except BAD_DATA:
        return False


def explain(record: AnyRecord, config: Any, actions: Sequence[JSON],
            reports: Mapping[int, Report], rule_ids: bool = True) -> list[Explanation]:
    """The alternatives that reproduce every report, as explanations."""
    found: list[Explanation] = []
    tried = 0
    for alternative in alternatives(record, config):
        tried += 1
        if replays(alternative, actions, reports, rule_ids):
            found.append(Explanation(alternative.rule,
                                     f"your engine plays as if {alternative.label} "
                                     f"[{alternative.rule}]"))
    # An explanation that every alternative gives explains nothing.
    return found if len(found) < tried or tried == 1 else []


_ENGINE_HAS = "; the engine has "
_VIEW_LINE = re.compile(r"^(?P<path>[a-z_]+(?:[.\[(][^ ]*)?) differs; (?P<says>.*)$")


def _same_texts(message: str) -> bool:
    """Whether *message* says "... X; the engine has X": its expected and actual texts are
    equal, so it tells nothing (the difference lies in what the text leaves out)."""
    head, sep, tail = message.rpartition(_ENGINE_HAS)
    return bool(sep) and tail.strip() in head


def finding_lines(findings: Sequence[Any], explanation: str | None) -> list[str]:
    """The ``rule:`` lines of a failure: the headline rule first (the one to fix), then as
    ``also:`` only the findings that add information. Left out: a repetition of the
    explanation or of an earlier line, a line whose expected and actual texts are equal
    ("...; the engine has X" after X), and the claim a view rule makes of a part that merely
    differs ("public.box differs; the beans are conserved"), which the engine's data may
    contradict: a view the engine broke an invariant of gets its own finding, with the
    data. The headline keeps a view rule's words unless they claim conservation."""
    lines: list[str] = []
    said: set[str] = set() if explanation is None else {explanation}
    for number, finding in enumerate(findings):
        message = str(finding.message)
        if _same_texts(message):
            if number:
                continue
            message = message.rpartition(_ENGINE_HAS)[0]
        view = _VIEW_LINE.match(message)
        if number == 0:
            if message in said:
                lines.append(f"rule: {finding.rule} (the explanation above)")
            elif view is not None and "conserved" in view["says"]:
                lines.append(f"rule: {finding.rule}: {view['path']} differs, a part "
                             f"{finding.rule} decides")
            else:
                lines.append(f"rule: {finding.rule}: {message}")
            said.add(message)
            continue
        if message in said or view is not None:
            continue
        said.add(message)
        lines.append(f"also: {finding.rule}: {message}")
    return lines
