"""The kill matrix: every mutant of every game against the whole corpus.

A mutant (the ``mutants`` of a game's catalogue, declared with its rule in
``copa_ref/conformance/<game>/rules.py``) is the reference with one rule misread. The corpus
must fail every mutant, every case a mutant fails must name the misread rule first, and
every hand-made case (a scenario trace or a count) must fail some mutant of the rules it
claims; rules with no one-rule mutant are listed in the catalogue's ``unmutatable`` with
the reason. Every game of the registry is in the matrix, its catalogue taken from its
conformance record.

Everything runs in-process through the runner; each misread game is built once. A case in
which the misread game answers every request exactly as the reference does is not run: the
runner passes the reference (the corpus tests check it), so it passes that case too (see
:func:`indistinguishable`). Run this module directly
(``python -m tests.conformance.test_kill_matrix``) to print the matrix.
"""

from __future__ import annotations

import functools
import os
import re
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

from copa_ref.conformance.channel import InProcessChannel
from copa_ref.conformance.corpus import Filters, load_corpus, select
from copa_ref.conformance.engine import ProtocolError, ReferenceEngine
from copa_ref.conformance.registry import record_of
from copa_ref.conformance.runner import CaseResult, Runner
from copa_ref.conformance.vocabulary import Catalogue
from copa_ref.core import JSON, Misreading, MoverKind, RuleViolation, misread
from copa_ref.games import GAMES

SPECS = Path(__file__).resolve().parents[2] / "specs"


def catalogue_of(game: str) -> Catalogue:
    """The game's misreading catalogue (``copa_ref/conformance/<game>/rules.py``), from
    its conformance record: a registered game without one fails
    ``tests/test_completeness.py``."""
    record = record_of(game)
    assert record is not None, f"{game} has no conformance record"
    return record.catalogue


# The matrix is computed once a process (``matrix``): under pytest-xdist every test of this
# module runs on one worker, so it is computed once a run.
pytestmark = pytest.mark.xdist_group("kill-matrix")

MATRIX_GAMES = tuple(sorted(
    game for game in GAMES
    if game in os.environ.get("KILL_MATRIX_GAMES", game).split(",")))
"""Every registered game (only those ``KILL_MATRIX_GAMES`` lists, comma separated, when it
is set: a quicker run while working on one game)."""


def mutants_of(game: str) -> tuple[Misreading, ...]:
    """The game's mutants."""
    return catalogue_of(game).mutants


def unmutatable_of(game: str) -> dict[str, str]:
    """The game's rules without a one-rule mutant, with the reason."""
    return dict(catalogue_of(game).unmutatable)


def unnamed_of(game: str) -> dict[str, str]:
    """The game's failing cases (``"<slug> <case id>"``, or a slug for all of a mutant's)
    that cannot name the mutated rule, with the reason."""
    return dict(catalogue_of(game).unnamed)


def spec_rules(game: str) -> list[str]:
    """The rule IDs of the game's spec, in order."""
    text = (SPECS / f"{game}.md").read_text()
    return list(dict.fromkeys(re.findall(r"^### ([A-Z]+-\d+) ", text, re.MULTILINE)))


class MutantEngine(ReferenceEngine):
    """The reference engine playing one game misread."""

    def __init__(self, wrong: Any) -> None:
        super().__init__()
        self.wrong = wrong

    def new_game(self, game: str, config: JSON) -> None:
        super().new_game(game, config)
        if game == self.wrong.name:
            self.game = self.wrong
            try:
                self.state = self.wrong.new_game(self.wrong.config_from_json(config))
            except ValueError as exc:
                raise ProtocolError(f"bad config: {exc}") from None


def _legal(game: Any, state: Any, seat: int | None) -> Any:
    """What the reference engine answers to ``legal`` (nothing at a chance node)."""
    if seat is None and game.to_move(state).kind is MoverKind.CHANCE:
        return ()
    return game.legal_actions(state, seat)


def _same(ref: Any, wrong: Any, mine: Any, theirs: Any, seats: range) -> bool:
    """Whether the two games answer every request alike at these two states."""
    return bool(mine == theirs and ref.to_move(mine) == wrong.to_move(theirs)
                and ref.outcome(mine) == wrong.outcome(theirs)
                and ref.observe(mine, None) == wrong.observe(theirs, None)
                and all(_legal(ref, mine, s) == _legal(wrong, theirs, s)
                        for s in (None, *seats)))


def _perft_alike(ref: Any, wrong: Any, mine: Any, theirs: Any, seats: range,
                 depth: int) -> bool:
    if not _same(ref, wrong, mine, theirs, seats):
        return False
    if depth == 0:
        return True
    mover = ref.to_move(mine)
    if mover.kind is MoverKind.JOINT:
        combos: list[tuple[Any, ...]] = [()]
        for seat in mover.seats:
            combos = [(*c, x) for c in combos for x in ref.legal_actions(mine, seat)]
        moves = [ref.joint(mine, c) for c in combos]
    else:
        moves = list(_legal(ref, mine, None))
    return all(_perft_alike(ref, wrong, ref.apply(mine, m), wrong.apply(theirs, m), seats,
                            depth - 1) for m in moves)


def indistinguishable(ref: Any, wrong: Any, case: dict[str, Any]) -> bool:
    """Whether *wrong* answers every request the runner makes in *case* as the reference
    does (so that the runner, which passes the reference, passes it too).

    A pure simulation of the case's requests against both games; anything unexpected (a
    misread game that raises, say) counts as a difference, and the case is then run.
    """
    try:
        config = ref.config_from_json(case["config"])
        seats = range(ref.num_players(config))
        mine, theirs = ref.new_game(config), wrong.new_game(config)
        if not _same(ref, wrong, mine, theirs, seats):
            return False
        kind = case["kind"]
        actions = ([step["action"] for step in case["steps"]] if kind == "trace"
                   else case["prefix"])
        for data in actions:
            action = ref.action_from_json(data)
            mine, theirs = ref.apply(mine, action), wrong.apply(theirs, action)
            if not _same(ref, wrong, mine, theirs, seats):
                return False
        if kind == "rejection":
            action = ref.action_from_json(case["action"])
            try:
                wrong.apply(theirs, action)
            except RuleViolation as exc:
                return exc.rule == case["rule"]
            return False
        if kind == "count":
            return _perft_alike(ref, wrong, mine, theirs, seats, case["depth"])
    except Exception:  # any surprise: let the runner judge the case
        return False
    return kind == "trace"


def named_first(result: CaseResult) -> str | None:
    """The rule a failed case names first as broken."""
    return result.broken_rule


@attrs.frozen
class Row:
    """One mutant against its game's corpus."""

    game: str
    mutant: Misreading
    results: tuple[CaseResult, ...]
    seconds: float

    @property
    def failed(self) -> list[CaseResult]:
        return [r for r in self.results if r.status == "failed"]

    @property
    def errored(self) -> list[CaseResult]:
        return [r for r in self.results if r.status == "errored"]

    @property
    def killed(self) -> bool:
        """Whether some case failed or errored (the engine was refused or crashed)."""
        return bool(self.failed or self.errored)

    @property
    def misnamed(self) -> list[CaseResult]:
        """The cases that fail without naming the mutated rule first (errored ones too)."""
        return [r for r in self.failed if named_first(r) != self.mutant.rule] + self.errored

    @property
    def label(self) -> str:
        return f"{self.mutant.rule} {self.mutant.slug}"


@functools.cache
def matrix() -> tuple[Row, ...]:
    """Every mutant of every game against that game's corpus (computed once)."""
    corpus = load_corpus()
    rows: list[Row] = []
    for game in MATRIX_GAMES:
        cases = select(corpus, Filters(game=game))
        ref = GAMES[game]
        for mutant in mutants_of(game):
            started = time.perf_counter()
            wrong = misread(ref, mutant)
            alike = {c["id"] for c in cases if indistinguishable(ref, wrong, c)}
            runner = Runner(lambda wrong=wrong: InProcessChannel(lambda: MutantEngine(wrong)),
                            corpus=cases)
            ran = {r.id: r for r in runner.run([c for c in cases if c["id"] not in alike])}
            runner.close()
            results = tuple(ran.get(c["id"]) or CaseResult(
                id=c["id"], game=game, kind=c["kind"], corpus_version=c["corpus_version"],
                status="passed", rules=tuple(c["rules"])) for c in cases)
            rows.append(Row(game, mutant, results, time.perf_counter() - started))
    return tuple(rows)


def hand_made(game: str) -> dict[str, tuple[str, ...]]:
    """The game's hand-made cases (scenario traces and counts) by ID, with the rules each
    claims."""
    found = record_of(game)
    if found is None:
        return {}
    claims = {f"{game}/trace/{s.slug}": s.rules for s in found.scenarios}
    claims |= {f"{game}/count/{c.slug}-depth-{c.depth}": c.rules for c in found.counts}
    return claims


def render(rows: tuple[Row, ...]) -> str:
    """The matrix as text: a line per mutant, then the figures per game."""
    lines = []
    for row in rows:
        mark = "killed" if row.killed else "SURVIVED"
        right = len(row.failed) + len(row.errored) - len(row.misnamed)
        names = sorted({str(named_first(r)) for r in row.misnamed})
        lines.append(f"{row.game:8} {row.label:50} {mark:8} {len(row.failed):3} failed, "
                     f"{right:3} name {row.mutant.rule}"
                     + (f"; others name {', '.join(names)}" if names else "")
                     + (f"; {len(row.errored)} errored" if row.errored else ""))
    lines.append("")
    for game in MATRIX_GAMES:
        mine = [r for r in rows if r.game == game]
        failed = sum(len(r.failed) + len(r.errored) for r in mine)
        right = failed - sum(len(r.misnamed) for r in mine)
        lines.append(
            f"{game}: {len(mine)} mutants, {sum(r.killed for r in mine)} killed, "
            f"{sum(r.killed and not r.misnamed for r in mine)} named with their own rule in "
            f"every failing case; {right}/{failed} failing cases name the mutated rule "
            f"({100 * right / max(failed, 1):.0f} %); {sum(r.seconds for r in mine):.1f} s")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def rows() -> tuple[Row, ...]:
    found = matrix()
    print("\n" + render(found))
    return found


@pytest.mark.parametrize("game", MATRIX_GAMES)
def test_every_rule_has_a_mutant_or_a_reason(game: str) -> None:
    """Every rule of the spec has at least one mutant, or is listed as unmutatable with a
    reason; no mutant or reason names a rule the spec lacks."""
    rules = spec_rules(game)
    mutated = {m.rule for m in mutants_of(game)}
    reasons = unmutatable_of(game)
    assert not (mutated | set(reasons)) - set(rules), "unknown rule IDs"
    assert not mutated & set(reasons), "a rule both mutated and listed unmutatable"
    missing = [r for r in rules if r not in mutated and r not in reasons]
    assert not missing, f"{game}: no mutant and no reason for {missing}"
    assert all(reasons.values()), "an unmutatable rule without a reason"
    slugs = [m.slug for m in mutants_of(game)]
    assert len(slugs) == len(set(slugs)), "two mutants with one slug"


def test_every_mutant_is_killed(rows: tuple[Row, ...]) -> None:
    """The corpus fails every mutant (or errors: an errored case names no rule, which the
    naming test counts against it)."""
    survivors = [f"{r.game} {r.label}" for r in rows if not r.killed]
    assert not survivors, f"{len(survivors)} mutants survive: {survivors}"


def test_every_failure_names_the_mutated_rule(rows: tuple[Row, ...]) -> None:
    """Every case every mutant fails (or errors in) names the mutated rule first, except
    the cases each game's catalogue lists in ``unnamed`` with the reason (by mutant slug and
    case ID; a slug alone for all its cases). Each listed case must still be misnamed (so
    that the list only shrinks) and must name an existing mutant and case."""
    wrong = [f"{r.game} {r.label}: {c.id} names {named_first(c)}"
             for r in rows for c in r.misnamed
             if catalogue_of(r.game).excuses(r.mutant.slug, c.id) is None]
    assert not wrong, f"{len(wrong)} failures name another rule:\n" + "\n".join(wrong[:40])
    misnamed = {r.mutant.slug for r in rows if r.misnamed} | {
        f"{r.mutant.slug} {c.id}" for r in rows for c in r.misnamed}
    for game in MATRIX_GAMES:
        reasons = unnamed_of(game)
        assert all(reasons.values()), f"{game}: an unnamed case without a reason"
        slugs = {m.slug for m in mutants_of(game)}
        cases = {c["id"] for c in select(load_corpus(), Filters(game=game))}
        for key in reasons:
            slug, _, case_id = key.partition(" ")
            assert slug in slugs, f"{game}: unnamed lists {key!r}, no such mutant"
            assert not case_id or case_id in cases, f"{game}: unnamed lists {key!r}, no such case"
        named_now = sorted(set(reasons) - misnamed)
        assert not named_now, f"named with their own rule now, drop them from unnamed: {named_now}"


REAL_ENGINE = ("queen-above-jack", "hand-ends-when-copas-out", "no-all-cards-rule",
               "burst-at-30", "every-burst-seat-loses")
"""The Copas misreadings of an independent engine (a public game server) as mutants."""


def test_the_independent_engines_misreadings_are_named(rows: tuple[Row, ...]) -> None:
    """Each misreading found in a real Copas engine is caught and named with its own rule."""
    found = {r.mutant.slug: r for r in rows if r.game == "copas"}
    if not found:
        pytest.skip("Copas is not registered")
    for slug in REAL_ENGINE:
        row = found[slug]
        assert row.killed and not row.misnamed, f"{row.label}: {render((row,))}"


def test_queen_against_jack_needs_the_order() -> None:
    """The queen-against-jack case fails an engine that ranks the queen above the jack."""
    rows = [r for r in matrix() if r.game == "copas" and r.mutant.slug == "queen-above-jack"]
    if not rows:
        pytest.skip("Copas is not registered")
    assert "copas/trace/queen-against-jack" in {c.id for c in rows[0].failed}


@pytest.mark.parametrize("game", MATRIX_GAMES)
def test_no_hand_made_case_is_vacuous(game: str, rows: tuple[Row, ...]) -> None:
    """Every hand-made case fails at least one mutant of a rule it claims (except the cases
    a game's catalogue lists in ``vacuous``, with the reason)."""
    mine = [r for r in rows if r.game == game]
    allowed = catalogue_of(game).vacuous
    vacuous = []
    for case_id, claims in hand_made(game).items():
        if case_id in allowed:
            continue
        relevant = [r for r in mine if r.mutant.rule in claims]
        if relevant and not any(c.id == case_id for r in relevant for c in r.failed):
            vacuous.append(f"{case_id} (claims {', '.join(claims)})")
    assert not vacuous, f"cases no mutant of their rules fails: {vacuous}"


if __name__ == "__main__":
    print(render(matrix()))


def test_two_things_in_one_step_are_told_apart() -> None:
    """A step that both sends a bonus's sixth bean away and harvests (harvest=mandatory):
    the engine that sends the bean to the bank, not the opponent, is named KALA-14 (the
    bonus's excess), not KALA-15 (the harvest, whose bank bean is right). The corpus has no
    such step; a seeded game of the reference has one at its 18th action."""
    import random

    from copa_ref.conformance.explore.play import trace_case
    from copa_ref.conformance.explore.shrink import _replayed

    if "kala" not in GAMES:
        pytest.skip("KALA is not registered")
    ref = GAMES["kala"]
    config = ref.config_from_json({**ref.to_json(ref.default_config()),
                                   "harvest": "mandatory"})
    rng, state, actions = random.Random(188), ref.new_game(config), []
    while True:
        action = rng.choice(ref.legal_actions(state, None))
        after = ref.apply(state, action)
        actions.append(action)
        if (state.phase.value == "bonus_sow" and after.bank > state.bank
                and state.cup_beans[state.turn] > len(action.path)):
            break
        state = after
    played = _replayed(ref, config, tuple(actions))
    assert played is not None
    wrong = misread(ref, catalogue_of("kala").mutant("sixth-bean-to-bank"))
    runner = Runner(lambda: InProcessChannel(lambda: MutantEngine(wrong)), load_corpus())
    result = runner.run_case(trace_case(played, "kala/trace/sixth-bean-and-harvest", "x"))
    runner.close()
    assert (result.status, result.step, result.broken_rule) == (
        "failed", len(actions), "KALA-14"), result.reason
