"""``copa-ref conformance explore`` and ``merge``: the reference explored finds nothing, the
same seed plays the same games, the report is valid, shards merge, the minimal cases replay
through ``conformance run --corpus DIR`` with the same rule, Ctrl-C ends with the summary.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

from copa_ref.conformance import schemas
from copa_ref.conformance.channel import InProcessChannel
from copa_ref.conformance.corpus import Case, load_corpus
from copa_ref.conformance.engine import MemoEngine
from copa_ref.conformance.explore import Explorer, Settings
from copa_ref.conformance.explore.configs import option_values, pairs, sweep
from copa_ref.conformance.explore.report import merge
from copa_ref.conformance.runner import Runner
from copa_ref.core import canonical_json
from copa_ref.games import GAMES
from tests.conformance.explore_mutants import BuggyEngine, Rare, conditional, rare_of

ROOT = Path(__file__).resolve().parents[2]
MUTANTS = ROOT / "tests" / "conformance" / "explore_mutants.py"
KALA_BUG = rare_of("kala")[0]
COPA_REF = Path(sys.executable).parent / "copa-ref"
REFERENCE = f"{COPA_REF} engine"


@functools.cache
def corpus() -> list[Case]:
    return load_corpus()


def lines_of(engine: Any, settings: Settings) -> list[dict[str, Any]]:
    """The report lines of an in-process exploration (without the footer's timings)."""
    runner = Runner(lambda: InProcessChannel(lambda: engine), corpus())
    lines: list[dict[str, Any]] = []
    Explorer(runner, settings, corpus()).explore(on_line=lines.append)
    return lines


def _untimed(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in line.items() if k not in ("seconds", "requests")}
            for line in lines]


def _kala_engine() -> BuggyEngine:
    return BuggyEngine(conditional((KALA_BUG,)))


def test_reference_explored_finds_nothing() -> None:
    settings = Settings(games=12, max_steps=60, probes=2, seed=3)
    lines = lines_of(MemoEngine(), settings)
    footer = lines[-1]
    assert footer["differences"] == 0
    assert footer["errored"] == 0
    assert footer["games"] == 12
    assert footer["probes"] > 0
    assert sorted(footer["fired"]) == sorted(GAMES)
    validator = schemas.validator("report.schema.json")
    for line in lines:
        validator.validate(line)


def test_default_budget_is_per_game_and_per_config() -> None:
    """100 games for each game explored, or 6 for each config of the largest sweep where
    that is more; ``games`` is the total; no ``per_game`` and no ``games``: no limit."""
    assert Settings().budget(1, 3) == 100
    assert Settings().budget(6, 25) == 6 * 150
    assert Settings(games=7).budget(6, 25) == 7
    assert Settings(per_game=None).budget(6, 25) is None
    assert max(len(sweep(GAMES[name])) for name in GAMES) * 6 > 100


def test_same_seed_same_games_and_report() -> None:
    settings = Settings(games=6, only=("kala",), probes=1, shrink_tries=3, seed=5)
    first = _untimed(lines_of(_kala_engine(), settings))
    again = _untimed(lines_of(_kala_engine(), settings))
    assert first == again
    other = _untimed(lines_of(_kala_engine(), attrs.evolve(settings, seed=6)))
    assert other != first


def test_sweep_holds_every_option_value_and_every_pair() -> None:
    for name, game in sorted(GAMES.items()):
        swept = sweep(game)
        assert swept[0].label == "default"
        held = set().union(*(pairs(s.data) for s in swept))
        for key, values in option_values(game).items():
            for value in values:
                single = {**game.to_json(game.default_config()), key: value}
                try:
                    game.new_game(game.config_from_json(single))
                except ValueError:
                    continue
                assert any(canonical_json(s.data[key]) == canonical_json(value)
                           for s in swept), (name, key, value)
        # every pair of values that some swept config could hold is held by one
        assert len(held) > len(option_values(game))


def test_sweep_leaves_out_what_the_engine_does_not_declare() -> None:
    game = GAMES["copas"]
    swept = sweep(game, lambda data, options: data["players"] == 4 and not any(
        o.startswith("rank_order") for o in options))
    assert swept
    assert all(s.players == 4 and s.data["rank_order"] == "printed" for s in swept)


def test_difference_reported_once_with_its_minimal_case() -> None:
    lines = lines_of(_kala_engine(), Settings(games=10, only=("kala",), probes=1,
                                              shrink_tries=12))
    found = [line for line in lines if line["type"] == "difference"]
    assert [d["rule"] for d in found] == [KALA_BUG.rule]
    difference = found[0]
    case = difference["case"]
    assert case["kind"] == "trace"
    assert difference["shrink"]["steps_after"] <= difference["shrink"]["steps_before"]
    assert "harvest=mandatory" in case["options"] and "first_player=1" in case["options"]
    assert "plays as if" in (difference["explanation"] or "")
    schemas.validator("corpus.schema.json").validate(
        {"corpus_version": case["corpus_version"], "game": "kala", "kind": "trace",
         "cases": [case]})
    footer = lines[-1]
    assert footer["broken_rules"] == [KALA_BUG.rule]
    # Without load_state the rest of each failing game went untested.
    assert footer["load_state"] is False


def test_shards_merge_into_the_whole_exploration() -> None:
    settings = Settings(games=8, only=("kala",), probes=1, shrink_tries=6)
    whole = lines_of(_kala_engine(), settings)
    parts = [lines_of(_kala_engine(), attrs.evolve(settings, shard=(k, 2)))
             for k in (1, 2)]
    numbers = [[g["number"] for g in p if g["type"] == "explore_game"] for p in parts]
    assert numbers == [[0, 2, 4, 6], [1, 3, 5, 7]]
    merged = merge(parts)
    assert [g["number"] for g in merged if g["type"] == "explore_game"] == list(range(8))
    assert merged[-1]["games"] == 8
    assert merged[-1]["broken_rules"] == whole[-1]["broken_rules"]
    validator = schemas.validator("report.schema.json")
    for line in merged:
        validator.validate(line)


def _cli(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(COPA_REF), "conformance", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, **kwargs)


def test_cli_explore_writes_a_corpus_that_replays_with_the_same_rule(tmp_path: Path) -> None:
    engine = f"{sys.executable} {MUTANTS} {KALA_BUG.label}"
    report = tmp_path / "report.jsonl"
    out = tmp_path / "found"
    done = _cli("explore", "--engine", engine, "--game", "kala", "--games", "8",
                "--probes", "1", "--shrink-tries", "8", "--report", str(report),
                "--out", str(out), "--progress", "always")
    assert done.returncode == 1, done.stderr
    assert "differences by rule:" in done.stdout
    assert KALA_BUG.rule in done.stdout
    assert "[explore]" in done.stderr
    lines = [json.loads(text) for text in report.read_text().splitlines()]
    validator = schemas.validator("report.schema.json")
    for line in lines:
        validator.validate(line)
    assert lines[0]["type"] == "explore_header" and lines[-1]["type"] == "explore_footer"
    replay = _cli("run", "--engine", engine, "--corpus", str(out), "--validate",
                  "--report", str(tmp_path / "run.jsonl"))
    assert replay.returncode == 1, replay.stderr
    results = [json.loads(t) for t in (tmp_path / "run.jsonl").read_text().splitlines()]
    cases = [r for r in results if r["type"] == "case"]
    assert cases and all(r["status"] == "failed" and r["broken_rule"] == KALA_BUG.rule
                         for r in cases)
    reference = _cli("run", "--engine", REFERENCE, "--corpus",
                     str(out))
    assert reference.returncode == 0, reference.stdout


def test_cli_merge(tmp_path: Path) -> None:
    engine = f"{sys.executable} {MUTANTS} {KALA_BUG.label}"
    for k in (1, 2):
        done = _cli("explore", "--engine", engine, "--game", "kala", "--games", "6",
                    "--probes", "0", "--shrink-tries", "4", "--shard", f"{k}/2",
                    "--report", str(tmp_path / f"p{k}.jsonl"))
        assert done.returncode in (0, 1), done.stderr  # the rare config is in one part
    merged = _cli("merge", str(tmp_path / "p1.jsonl"), str(tmp_path / "p2.jsonl"),
                  "--report", str(tmp_path / "all.jsonl"))
    assert merged.returncode == 1, merged.stderr
    lines = [json.loads(t) for t in (tmp_path / "all.jsonl").read_text().splitlines()]
    assert lines[-1]["games"] == 6
    assert lines[0]["merged"] == ["1/2", "2/2"]
    bad = _cli("merge", str(tmp_path / "nothing.jsonl"))
    assert bad.returncode == 2
    assert _cli("explore", "--engine", engine, "--shard", "3/2").returncode == 2


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
def test_ctrl_c_ends_with_the_summary_so_far(tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    engine = REFERENCE
    process = subprocess.Popen(
        [str(COPA_REF), "conformance", "explore", "--engine", engine,
         "--time", "120", "--report", str(report), "--game", "kala"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if report.exists() and report.read_text().count("explore_game") >= 2:
            break
        time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr
    assert "interrupted: the summary so far" in stdout
    lines = [json.loads(t) for t in report.read_text().splitlines()]
    assert lines[-1]["type"] == "explore_footer" and lines[-1]["interrupted"] is True
    assert lines[-1]["games"] >= 2


def test_load_state_starts_where_export_left() -> None:
    from copa_ref.conformance.engine import ReferenceEngine

    config = GAMES["kala"].to_json(GAMES["kala"].default_config())
    played, loaded = ReferenceEngine(), MemoEngine()
    played.handle({"op": "new_game", "game": "kala", "config": config})
    first = played.handle({"op": "legal", "seat": None})["actions"][0]
    played.handle({"op": "apply", "action": first})
    state = played.handle({"op": "export"})["state"]
    assert "load_state" in played.handle({"op": "start", "protocol": "1.1"})["features"]
    answer = loaded.handle({"op": "new_game", "game": "kala", "config": config, "state": state})
    assert answer == {"ok": True}
    for request in ({"op": "observe"}, {"op": "legal", "seat": None}):
        assert loaded.handle(request) == played.handle(request)
    # a state the rules exclude, or of another config, is refused; the game stays
    bad = loaded.handle({"op": "new_game", "game": "kala", "config": config,
                         "state": {**state, "stores": [99, 99]}})
    assert bad["ok"] is False
    other = {**config, "harvest": "mandatory"}
    assert loaded.handle({"op": "new_game", "game": "kala", "config": other,
                          "state": state})["ok"] is False
    assert loaded.handle({"op": "observe"}) == played.handle({"op": "observe"})
    schemas.validator("messages.schema.json").validate(
        {"op": "new_game", "game": "kala", "config": config, "state": state})


def test_a_case_from_a_loaded_state_is_judged_and_named() -> None:
    import random

    from copa_ref.conformance.explore.play import play, trace_case

    game = GAMES["kala"]
    config = game.config_from_json({**game.to_json(game.default_config()),
                                    "harvest": "mandatory", "first_player": 1})
    played = play(game, config, random.Random(1), 40)
    case = trace_case(played, "kala/trace/from-a-state", "A case from a loaded state.", 3)
    assert case["features"] == ["load_state"] and "state" in case
    schemas.validator("corpus.schema.json").validate(
        {"corpus_version": case["corpus_version"], "game": "kala", "kind": "trace",
         "cases": [case]})
    runner = Runner(lambda: InProcessChannel(MemoEngine), corpus())
    assert runner.run_case(case).status == "passed"
    without = Runner(lambda: InProcessChannel(lambda: BuggyEngine(
        conditional((KALA_BUG,)))), corpus())
    assert without.run_case(case).status == "skipped"
    buggy = Runner(lambda: InProcessChannel(lambda: BuggyEngine(
        conditional((KALA_BUG,)), load_state=True)), corpus())
    result = buggy.run_case(case)  # the rest of this game reaches a harvest
    assert (result.status, result.step, result.broken_rule) == ("failed", 7, KALA_BUG.rule)


def _shrunk_options(game: str, rare: Rare, data: dict[str, Any], seeds: range,
                    tries: int) -> tuple[dict[str, Any], Any] | None:
    """The config a difference of *rare* found under *data* shrinks to (JSON), and its
    verdict; ``None`` when no seeded game under *data* shows the difference."""
    import random
    from collections import Counter

    from copa_ref.conformance.explore.play import play, trace_case
    from copa_ref.conformance.explore.shrink import shrink_trace

    ref = GAMES[game]
    engine = BuggyEngine(conditional((rare,)))
    runner = Runner(lambda: InProcessChannel(lambda: engine), load_corpus())
    config = ref.config_from_json(data)
    try:
        for seed in seeds:
            played = play(ref, config, random.Random(seed), 200, seen=Counter())
            case = trace_case(played, f"{game}/trace/explore-probe", "a probe")
            result = runner.run_case(case)
            if result.status != "failed" or result.broken_rule != rare.rule:
                continue
            shrunk = shrink_trace(runner.run_case, played, case, result, tries=tries,
                                  seed=str(seed), make_id=lambda n: f"{game}/trace/min")
            return dict(shrunk.case["config"]), shrunk.result
    finally:
        runner.close()
    return None


def test_shrinking_puts_back_every_option_the_difference_survives_without() -> None:
    """A bug acting whenever three play HOPPER, found in a game that sets every option away
    from its default: the minimal case keeps the three players and puts every option back
    to its default: each tried alone, and again once the others are reset (remainder=loose
    goes back only with the 50 beans: 48 of them in play are too few), each with games of
    its own (no option starved by another's tries), a game under aiming on longer than the
    same game's steps without it."""
    from copa_ref.conformance.vocabulary import Rare as RareEntry

    ref = GAMES["hopper"]
    default = ref.to_json(ref.default_config())
    assert isinstance(default, dict)
    rare = Rare("hopper", RareEntry("replenish-one-bean", (("players", 3),)))
    data = {**default, "players": 3, "total_beans": 50, "remainder": "loose",
            "first_player": 2, "ending": "end_2", "aiming": False}
    found = _shrunk_options("hopper", rare, data, range(6), tries=40)
    assert found is not None, "no seeded game shows the bug"
    config, verdict = found
    assert (verdict.status, verdict.broken_rule) == ("failed", "HOPPER-10")
    assert config == {**default, "players": 3}


def test_probes_read_their_positions_from_the_games_trace(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from copa_ref.conformance import verdicts
    from copa_ref.conformance.engine import ReferenceEngine

    replayed: list[int] = []
    real = verdicts.replay  # type: ignore[attr-defined]

    def counted(*args: Any) -> Any:
        replayed.append(1)
        return real(*args)

    monkeypatch.setattr(verdicts, "replay", counted)
    runner = Runner(lambda: InProcessChannel(ReferenceEngine), corpus())
    explorer = Explorer(runner, Settings(games=4, only=("kala",), probes=3), corpus())
    state = explorer.explore()
    assert state.probes >= 4 and not state.differences
    assert not replayed  # every probe's prefix followed its game's trace case
    assert not any("explore" in key for key in runner.traces)  # lent, then given back
