"""Explore past a known difference, and an exploration that never loses a finding.

* lockstep: an engine with three bugs of different rules at once (the first on every
  game's path, one rare), without ``load_state``, gets every bug named in one bounded run;
  the footer says what was tested after each known difference;
* a shrink that fails keeps the unshrunk case and says so; a game whose judgment fails is
  errored with its reason and the run goes on; the one-rule HOPPER mutants whose shrink
  used to end the run are named;
* an engine that answers ``load_state`` with ok but ignores the position is named once under
  P-13, and the exploration goes on in lockstep;
* ``--time`` holds within a game;
* the report counts every game a broken rule is met in, and never lists a broken rule as
  never reached.

Every exploration runs in-process within a budget in games (the timing test aside).
"""

from __future__ import annotations

import functools
import time
from typing import Any

import pytest

from copa_ref.conformance import schemas
from copa_ref.conformance.channel import InProcessChannel
from copa_ref.conformance.corpus import Case, load_corpus
from copa_ref.conformance.engine import ReferenceEngine
from copa_ref.conformance.explore import Exploration, Explorer, Settings, loop
from copa_ref.conformance.runner import Runner
from copa_ref.core import JSON, misread
from copa_ref.games import GAMES
from tests.conformance.explore_mutants import SEVERAL, BuggyEngine
from tests.conformance.test_kill_matrix import mutants_of

MAX_STEPS = {"copas": 30, "kopa": 40, "ronda": 40, "hopper": 100}


@functools.cache
def corpus() -> list[Case]:
    return load_corpus()


def explore(engine: Any, settings: Settings,
            lines: list[dict[str, Any]] | None = None) -> Exploration:
    runner = Runner(lambda: InProcessChannel(lambda: engine), corpus())
    tell = None if lines is None else lines.append
    return Explorer(runner, settings, corpus()).explore(on_line=tell)


def _one_rule(game: str, slug: str) -> BuggyEngine:
    mutant = next(m for m in mutants_of(game) if m.slug == slug)
    return BuggyEngine(misread(GAMES[game], mutant))


# -- lockstep -----------------------------------------------------------------------------

LOCKSTEP_BUDGET = {"kala": 12, "da_capo": 16, "copas": 24, "ronda": 50, "hopper": 24}
"""The games each three-bug exploration may play (seed 0, no load_state). HOPPER's
second bug (a fifth cup to win) shows only after its first (claimed beans out of the game)
has changed the loose count for good: the engine's reading of the first is its model.
RONDA's third bug (a stop that keeps the turn, three players and ``max_beans=4``) shows at
game 45, a planned game under the sweep's one config with both; RONDA plays 50."""


@pytest.mark.parametrize("game", sorted(LOCKSTEP_BUDGET))
def test_three_bugs_at_once_each_named_in_lockstep(game: str) -> None:
    """Three bugs of different rules, the first met in every game, the third rare: every
    one named in one run without load_state (the corpus's behaviour, and explore's before
    lockstep, named only the first), and nothing else."""
    several = SEVERAL[game]
    settings = Settings(games=LOCKSTEP_BUDGET[game], only=(game,),
                        max_steps=MAX_STEPS.get(game, 1000), probes=1, shrink_tries=12,
                        load_state=False)
    lines: list[dict[str, Any]] = []
    found = explore(BuggyEngine(several.wrong()), settings, lines)
    assert found.load_state is False
    assert sorted(found.differences) == sorted(several.rules), {
        k: (d.found, d.result.reason) for k, d in found.differences.items()}
    first = several.rules[0]
    # the first bug is met in (nearly) every game and the others were found after it
    assert found.differences[first].occurrences >= found.games * 3 // 4
    past = found.past_difference()[game][first]
    assert isinstance(past, dict)
    assert found.games * 3 // 4 <= past["games"] <= found.differences[first].occurrences
    tested: Any = past["tested"]
    assert set(several.rules[1:]) & set(tested)  # another bug met after the first
    validator = schemas.validator("report.schema.json")
    for line in lines:
        validator.validate(line)


def test_without_lockstep_the_first_bug_hides_the_rest() -> None:
    """What lockstep changes: the same engine judged as the corpus judges (each game ends
    at its first difference) names the first bug only."""
    several = SEVERAL["kala"]
    runner = Runner(lambda: InProcessChannel(lambda: BuggyEngine(several.wrong())),
                    corpus())
    import random

    from copa_ref.conformance.explore.play import play, trace_case

    named = set()
    for number in range(LOCKSTEP_BUDGET["kala"]):
        played = play(GAMES["kala"], GAMES["kala"].default_config(),
                      random.Random(number), 1000)
        result = runner.run_case(trace_case(played, f"kala/trace/plain-{number}", "plain"))
        named.add(result.broken_rule)
    runner.close()
    assert named == {several.rules[0]}


def test_a_persisting_view_difference_diverges_only_when_other_fields_differ() -> None:
    """A one-rule engine whose position diverges (HOPPER's cup claimed at five) gets that
    rule named and no other: the differences that follow from its position are no
    findings of their own."""
    found = explore(_one_rule("hopper", "foursome-at-five"),
                    Settings(games=10, only=("hopper",), load_state=False))
    assert sorted(found.differences) == ["HOPPER-8"]
    assert found.past["hopper"]["HOPPER-8"].diverged >= 1
    assert found.untested_past_difference().get("hopper", []) == [
        r for r in found.untested_past_difference().get("hopper", [])
        if r not in found.differences]


# -- never lose a finding -----------------------------------------------------------------

@pytest.mark.parametrize("slug", ["close-up-moving-last-cup", "black-cup-at-four",
                                  "no-shoot-out", "five-cups-win", "foursome-at-five"])
def test_hopper_one_rule_mutants_named_without_error(slug: str) -> None:
    """The HOPPER mutants whose shrink raised IndexError (a chance outcome replaced after
    the case had been cut shorter) are named, with their minimal case, and nothing errs."""
    mutant = next(m for m in mutants_of("hopper") if m.slug == slug)
    found = explore(_one_rule("hopper", slug), Settings(games=14, only=("hopper",),
                                                        load_state=False))
    assert found.errored == 0, found.errors
    assert sorted(found.differences) == [mutant.rule]


def test_a_failing_shrink_keeps_the_unshrunk_case(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> Any:
        msg = "tuple index out of range"
        raise IndexError(msg)

    monkeypatch.setattr(loop, "shrink_trace", broken)
    lines: list[dict[str, Any]] = []
    found = explore(_one_rule("hopper", "black-cup-at-four"),
                    Settings(games=14, only=("hopper",), load_state=False), lines)
    difference = found.differences["HOPPER-14"]
    assert "IndexError" in str(difference.shrink["note"])
    assert difference.shrink["steps_after"] == difference.shrink["steps_before"]
    assert lines[-1]["type"] == "explore_footer"
    assert found.errored == 0


def test_a_game_that_fails_is_errored_with_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    original = Explorer._moves

    def moves(self: Explorer, name: str, swept: Any, rng: Any) -> Any:
        if self._current == 2:
            msg = "a planner bug"
            raise RuntimeError(msg)
        return original(self, name, swept, rng)

    monkeypatch.setattr(Explorer, "_moves", moves)
    lines: list[dict[str, Any]] = []
    found = explore(ReferenceEngine(), Settings(games=5, only=("kala",)), lines)
    assert found.games == 5
    assert found.errored == 1
    assert "RuntimeError: a planner bug" in str(found.errors[0]["reason"])
    footer = lines[-1]
    assert footer["errors"] == found.errors
    errored = [line for line in lines if line.get("status") == "errored"]
    assert len(errored) == 1 and "a planner bug" in errored[0]["reason"]
    schemas.validator("report.schema.json").validate(footer)


# -- load_state ---------------------------------------------------------------------------

class _Liar(BuggyEngine):
    """The reference, declaring load_state, answering ok, and starting a new game instead."""

    def load_state(self, game: str, config: JSON, state: JSON) -> None:
        self.new_game(game, config)


def test_a_load_state_liar_is_named_once_under_p13() -> None:
    found = explore(_Liar(GAMES["kala"], load_state=True),
                    Settings(games=6, only=("kala",)))
    assert sorted(found.differences) == ["P-13"]
    assert found.load_state is False  # the exploration went on in lockstep
    assert found.games == 6


def test_an_honest_load_state_is_used() -> None:
    found = explore(BuggyEngine(GAMES["kala"], load_state=True),
                    Settings(games=3, only=("kala",)))
    assert found.differences == {}
    assert found.load_state is True


# -- budgets --------------------------------------------------------------------------------

class _Slow(ReferenceEngine):
    def handle(self, request: Any) -> Any:
        time.sleep(0.004)
        return super().handle(request)


def test_time_holds_within_a_game() -> None:
    """A slow engine and long games: the run stops within its budget in time (checked
    at every step, not only between games), with a complete report."""
    lines: list[dict[str, Any]] = []
    corpus()  # (loaded before the clock starts)
    started = time.monotonic()
    found = explore(_Slow(), Settings(per_game=None, seconds=1.0, only=("hopper",),
                                      max_steps=1000), lines)
    took = time.monotonic() - started
    assert took < 1.0 + 1.5, took
    assert found.timed_out is True
    assert lines[-1]["type"] == "explore_footer" and lines[-1]["timed_out"] is True


# -- the report -----------------------------------------------------------------------------

def test_each_broken_rule_counted_in_every_game_and_never_unreached() -> None:
    """The count is the games that met the rule, to the end of the run: in the footer
    (the difference line is written when the rule is first found), in the summary and in
    a merge."""
    import io

    from copa_ref.conformance.explore.report import merge, summary

    lines: list[dict[str, Any]] = []
    found = explore(_one_rule("kala", "two-turns"),
                    Settings(games=6, only=("kala",), load_state=False, probes=0), lines)
    assert list(found.differences) == ["KALA-7"]
    assert found.differences["KALA-7"].occurrences == 6
    assert "KALA-7" not in found.never_reached()["kala"]
    footer = lines[-1]
    assert footer["occurrences"] == {"KALA-7": 6}
    out = io.StringIO()
    summary(footer, [line for line in lines if line["type"] == "difference"], out)
    assert "met in 6 games" in out.getvalue()
    merged = merge([lines])
    assert [d["occurrences"] for d in merged if d["type"] == "difference"] == [6]
    assert merged[-1]["occurrences"] == {"KALA-7": 6}


@pytest.mark.parametrize("game", ["copas", "hopper", "kopa"])
def test_sweep_covers_every_pair_the_engine_declares(game: str) -> None:
    """An engine that leaves out one player count still gets every pair of the option
    values it plays, each in some config it declares (the combinations are chosen among
    the declared configs, not filtered afterwards)."""
    from copa_ref.conformance.explore.configs import _valid, option_values, pairs, sweep
    from copa_ref.conformance.observables import options_of
    from copa_ref.core import canonical_json

    ref = GAMES[game]
    base = ref.to_json(ref.default_config())
    left_out = option_values(ref)["players"][-1]

    def declared(data: dict[str, JSON], _options: list[str]) -> bool:
        return data.get("players") != left_out

    swept = sweep(ref, declared)
    assert all(declared(s.data, list(s.options)) for s in swept)
    held = set().union(*(pairs(s.data) for s in swept))
    values = option_values(ref)
    keys = sorted(values)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            for x in values[a]:
                for y in values[b]:
                    config = _valid(ref, {**base, a: x, b: y})
                    if config is None or not declared(ref.to_json(config),
                                                      options_of(ref, config)):
                        continue
                    assert (a, canonical_json(x), b, canonical_json(y)) in held, (a, x, b, y)


def test_a_long_minimal_case_is_summarised_by_the_position_before_it() -> None:
    import io

    from copa_ref.conformance.explore.report import LONG, summary

    lines: list[dict[str, Any]] = []
    explore(_one_rule("hopper", "black-cup-at-four"),
            Settings(games=14, only=("hopper",), load_state=False, shrink_tries=0), lines)
    differences = [line for line in lines if line["type"] == "difference"]
    assert differences and len(differences[0]["case"]["steps"]) > LONG
    out = io.StringIO()
    summary(lines[-1], differences, out)
    text = out.getvalue()
    step = differences[0]["step"]
    assert f"the position just before step {step}" in text
    assert "met in" in text


def test_loaded_positions_count_against_the_engines_memory_bound() -> None:
    """Each position given with load_state is kept by its text: that text counts against
    MemoEngine.MAX_CHARS, so a session loading many positions stays within the bound."""
    from copa_ref.conformance.engine import MemoEngine

    class Small(MemoEngine):
        MAX_CHARS = 2_000

    engine = Small()
    game = GAMES["kala"]
    config = game.to_json(game.default_config())
    import random

    from copa_ref.conformance.explore.play import play

    played = play(game, game.default_config(), random.Random(1), 40)
    loaded = 0
    for state in played.states[1:]:
        data = game.to_json(state)
        answer = engine.handle({"op": "new_game", "game": "kala", "config": config,
                                "state": data})
        assert answer == {"ok": True}
        loaded += 1
        assert engine._chars <= Small.MAX_CHARS
    # the loaded positions' text reached the bound: the kept tree started afresh
    assert len(engine._roots) < loaded


HANGS_AFTER_HELLO = """
import json, sys, time
from copa_ref.conformance.engine import ReferenceEngine
engine = ReferenceEngine()
for line in sys.stdin:
    request = json.loads(line)
    if request.get("op") != "start":
        time.sleep(3600)
    print(json.dumps(engine.handle(request)), flush=True)
"""


def test_time_holds_against_an_engine_that_hangs_after_hello(tmp_path: Any) -> None:
    """An engine that answers its handshake and then nothing: the run ends within its
    budget in time (each request waits no longer than the time left), with a complete
    report, although the engine's timeout is longer than the budget."""
    import sys

    from copa_ref.conformance.channel import SubprocessChannel

    script = tmp_path / "hangs.py"
    script.write_text(HANGS_AFTER_HELLO)
    command = [sys.executable, str(script)]
    runner = Runner(lambda: SubprocessChannel(command, timeout=10), corpus())
    lines: list[dict[str, Any]] = []
    started = time.monotonic()
    found = Explorer(runner, Settings(per_game=None, seconds=2.0, only=("kala",)),
                     corpus()).explore(on_line=lines.append)
    took = time.monotonic() - started
    assert took < 2.0 + 2.0, took
    assert found.timed_out is True
    assert lines[-1]["type"] == "explore_footer"
