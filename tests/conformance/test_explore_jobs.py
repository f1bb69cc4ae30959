"""``explore --jobs``: an engine that dies, a worker that dies or stops answering, each costs
one errored game (its reason in the footer and the summary), never the run; ``--time``
holds with workers. ``explore --report`` refuses a link or a special file before any game.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from copa_ref.conformance import schemas
from copa_ref.conformance.explore import Settings, jobs

ROOT = Path(__file__).resolve().parents[2]
DYING = ROOT / "tests" / "conformance" / "dying_engines.py"
COPA_REF = Path(sys.executable).parent / "copa-ref"
REFERENCE = f"{COPA_REF} engine"

pytestmark = pytest.mark.skipif(os.name != "posix", reason="signals and FIFOs")


def _explore(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(COPA_REF), "conformance", "explore", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                          check=False)


def _complete(lines: list[dict[str, Any]], games: int) -> dict[str, Any]:
    """The footer, once the report is checked valid and holding every game once."""
    validator = schemas.validator("report.schema.json")
    for line in lines:
        validator.validate(line)
    assert lines[0]["type"] == "explore_header" and lines[-1]["type"] == "explore_footer"
    numbers = sorted(line["number"] for line in lines if line["type"] == "explore_game")
    assert numbers == list(range(games))
    footer = lines[-1]
    assert footer["games"] == games
    errored = [line for line in lines if line["type"] == "explore_game"
               and line["status"] == "errored"]
    assert footer["errored"] == len(errored) == len(footer["errors"])
    assert {e["case"].rsplit("-", 1)[1] for e in footer["errors"]} == {
        str(line["number"]) for line in errored}
    return footer


@pytest.mark.parametrize(("how", "why"), [
    ("exit", "engine closed its output"),
    ("kill-parent", "the worker ended (exit status -9)")])
def test_a_dying_engine_or_worker_costs_one_game(tmp_path: Path, how: str, why: str) -> None:
    report = tmp_path / "report.jsonl"
    done = _explore("--engine", f"{sys.executable} {DYING} {how}", "--game", "kala",
                    "--games", "8", "--jobs", "2", "--probes", "0", "--report", str(report))
    assert done.returncode == 1, done.stderr  # errored games, no difference
    lines = [json.loads(text) for text in report.read_text().splitlines()]
    footer = _complete(lines, 8)
    assert footer["differences"] == 0
    assert 0 < footer["errored"] < 8  # the others were played
    assert all(why in error["reason"] for error in footer["errors"])
    for error in footer["errors"]:
        assert f"errored: {error['case']}: {error['reason']}" in done.stdout
    assert "explored: 8 games" in done.stdout


def test_a_correct_engine_with_jobs_passes(tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    done = _explore("--engine", f"{sys.executable} {DYING} exit 1000", "--game", "kala",
                    "--games", "4", "--jobs", "2", "--probes", "0", "--report", str(report))
    assert done.returncode == 0, done.stdout + done.stderr
    footer = _complete([json.loads(t) for t in report.read_text().splitlines()], 4)
    assert footer["errored"] == 0


def test_a_stopped_worker_is_ended_and_costs_one_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "STALL", 3.0)
    started = time.monotonic()
    lines = jobs.run_jobs(f"{sys.executable} {DYING} stop-parent", 10.0,
                          Settings(games=6, only=("kala",), probes=0), 2, lambda *_: None)
    assert time.monotonic() - started < 120
    footer = _complete(lines, 6)
    assert footer["errored"] >= 1
    assert all("sent nothing" in e["reason"] and "stuck" in e["reason"]
               for e in footer["errors"])


def test_time_holds_with_jobs() -> None:
    # 15 s: room for two workers and their engines to start on a loaded 2-core machine
    # running the other tests (a budget spent before an engine answers its handshake ends
    # the run: it did not start)
    started = time.monotonic()
    lines = jobs.run_jobs(REFERENCE, 10.0, Settings(per_game=None, seconds=15.0, only=("kala",)),
                          2, lambda *_: None)
    took = time.monotonic() - started
    assert took < 15.0 + jobs.GRACE + 3.0, took  # the workers stop at the budget
    footer = lines[-1]
    assert footer["timed_out"] is True and footer["errored"] == 0
    assert footer["differences"] == 0


def test_a_worker_frozen_past_the_budget_cuts_its_game_not_errors_it() -> None:
    """A worker that cannot stop by itself at the time budget (frozen here, as a loaded
    machine may leave one) is ended :data:`~jobs.GRACE` seconds after it: its game is cut
    as the budget cuts a game, the report timed out, no game errored."""
    frozen: list[int] = []

    def progress(*_: int) -> None:  # after a worker's first game: freeze one worker
        if not frozen:
            child = multiprocessing.active_children()[0]
            assert child.pid is not None
            frozen.append(child.pid)
            os.kill(child.pid, signal.SIGSTOP)

    found: list[Any] = []
    run = threading.Thread(target=lambda: found.append(jobs.run_jobs(
        REFERENCE, 10.0, Settings(per_game=None, seconds=12.0, only=("kala",)), 2, progress)))
    run.start()
    run.join(timeout=90)
    assert frozen and found, "the run did not end"
    footer = found[0][-1]
    assert footer["timed_out"] is True
    assert footer["errored"] == 0, footer["errors"]


def test_a_budget_spent_before_the_engine_starts_says_so() -> None:
    """A time budget that runs out before any worker's engine answers its handshake ends
    the run with the engine not started, and the error says the budget was the cause."""
    with pytest.raises(jobs.JobsError, match="time budget ran out before the engine"):
        jobs.run_jobs(REFERENCE, 10.0, Settings(per_game=None, seconds=0.01, only=("kala",)),
                      2, lambda *_: None)


@pytest.mark.parametrize("what", ["link", "fifo", "folder"])
def test_explore_report_refuses_a_link_or_a_special_file(tmp_path: Path, what: str) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    report = tmp_path / "report.jsonl"
    if what == "link":
        report.symlink_to(target)
    elif what == "fifo":
        os.mkfifo(report)
    else:
        report.mkdir()
    started = time.monotonic()
    done = _explore("--engine", REFERENCE, "--games", "50", "--report", str(report),
                    timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""  # nothing ran
    error = done.stderr.strip().splitlines()
    assert len(error) == 1 and error[0].startswith("copa-ref conformance explore: error: ")
    assert "only regular files are written" in error[0]
    assert target.read_text() == "keep me\n"
    assert time.monotonic() - started < 30


def test_explore_report_writes_a_regular_file(tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    report.write_text("old text that is longer than nothing\n" * 100)
    done = _explore("--engine", REFERENCE, "--game", "kala", "--games", "1", "--probes",
                    "0", "--report", str(report))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(t) for t in report.read_text().splitlines()]
    assert lines[0]["type"] == "explore_header" and lines[-1]["type"] == "explore_footer"


def test_an_engine_that_does_not_start_with_jobs_is_one_line_and_exit_2() -> None:
    done = _explore("--engine", "/nonexistent/engine", "--jobs", "2", "--games", "4",
                    timeout=120)
    assert done.returncode == 2
    error = done.stderr.strip().splitlines()
    assert len(error) == 1 and "did not start in a worker" in error[0]


def test_every_part_plays_a_share_of_every_game() -> None:
    """Six games explored in two, three, four or six parts: each part plays every game, each
    game's turns dealt evenly, and some planned turns (the odd ones); the workers of a part
    (finer parts) play exactly that part's games."""
    from collections import Counter

    from copa_ref.conformance.explore.loop import part_of

    explored, games = 6, 600
    for parts in (2, 3, 4, 6):
        for part in range(parts):
            mine = [n for n in range(games) if part_of(n, explored, parts) == part]
            counts = Counter(n % explored for n in mine)
            assert sorted(counts) == list(range(explored)), (parts, part)
            assert max(counts.values()) - min(counts.values()) <= 1, (parts, part)
            assert any((n // explored) % 2 == 1 for n in mine), (parts, part)
    for outer, workers in ((1, 2), (2, 3), (3, 2)):
        for part in range(outer):
            whole = {n for n in range(games) if part_of(n, explored, outer) == part}
            split = {n for job in range(workers) for n in range(games)
                     if part_of(n, explored, outer * workers) == part + outer * job}
            assert split == whole
    assert [part_of(n, 1, 2) for n in range(6)] == [0, 1, 0, 1, 0, 1]  # one game: by number


def test_a_fresh_worker_goes_on_at_the_next_game_of_its_part() -> None:
    header = {"type": "explore_header", "explored": ["a", "b", "c", "d", "e", "f"],
              "games_budget": 34}
    played = [{"type": "explore_game", "number": n} for n in (1, 5)]
    part = jobs._Part(0, 0, Settings(shard=(2, 2)), None, None, 0.0, [header, *played])
    assert part.under_way() == 6  # turn 1 of game a (turn 0 of game a, 0, is part 1's)
    part.lines.append({"type": "explore_game", "number": 10})
    assert part.under_way() == 13  # 11, turn 1 of game f, and 12, turn 2 of a: part 1's
    part.lines.append({"type": "explore_game", "number": 32})
    assert part.under_way() is None  # its next, 34, is past the budget
