"""The runner against hostile engines: every case ends (errored, or passed where the engine
answered right after all), in bounded time and memory, no engine process is left running,
and no engine text reaches a message unescaped."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from copa_ref.conformance.channel import STDERR_TAIL, SubprocessChannel, printable
from copa_ref.conformance.corpus import Filters, load_corpus, select
from copa_ref.conformance.runner import Runner
from tests.fuzz.conftest import TALLY
from tests.fuzz.strategies import LONG

HERE = Path(__file__).resolve().parent
ENGINES = HERE / "hostile_engines.py"


def cases() -> list[dict]:
    """Two short KALA traces (each starts with an observe, where the engines attack)."""
    traces = select(load_corpus(), Filters(game="kala", kind="trace"))
    return sorted(traces, key=lambda c: len(c["steps"]))[:2]


def alive(pid: int) -> bool:
    """Whether *pid* is a running process (a zombie waiting to be reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def run(how: str, tmp_path: Path, *args: str, timeout: float = 5.0) -> tuple[list, list]:
    """Run the cases against the hostile engine *how*; the results and the channels."""
    pids = tmp_path / "pids"
    pids.mkdir()
    channels: list[SubprocessChannel] = []

    def connect() -> SubprocessChannel:
        channel = SubprocessChannel([sys.executable, str(ENGINES), how, *args],
                                    timeout=timeout, start_timeout=60.0)
        channels.append(channel)
        return channel

    os.environ["HOSTILE_PIDS"] = str(pids)
    try:
        runner = Runner(connect)
        results = list(runner.run(cases()))
        runner.close()
    finally:
        del os.environ["HOSTILE_PIDS"]
    deadline = time.monotonic() + 5
    left = [int(p.name) for p in pids.iterdir()]
    while any(alive(pid) for pid in left) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left, "the engine never started"
    assert not [pid for pid in left if alive(pid)], "engine processes left running"
    TALLY[f"hostile engine {how}"] += 1
    return results, channels


@pytest.mark.parametrize(("how", "says"), [
    ("deep", "Limits.max_depth"),
    ("bigint", "Limits.max_int_digits"),
    ("escape", "not a JSON line"),
])
def test_misshapen_answers_error_the_case(how: str, says: str, tmp_path: Path) -> None:
    """A 100,000-deep answer, a 4,300-digit bank, escape sequences: errored, saying why."""
    results, _ = run(how, tmp_path)
    assert [r.status for r in results] == ["errored", "errored"]
    for result in results:
        assert says in result.reason
        assert "\x1b" not in result.reason and "\x07" not in result.reason
        assert len(result.reason) < 2000


def test_an_engine_that_forks_leaves_nothing(tmp_path: Path) -> None:
    """The engine forks a child, then hangs: the case times out and the whole process group
    (the child too) is ended."""
    results, _ = run("fork", tmp_path, timeout=1.0)
    assert [r.status for r in results] == ["errored", "errored"]
    assert "timeout" in results[0].reason
    assert len(list((tmp_path / "pids").iterdir())) == 4  # two engines, two children


def test_an_engine_that_never_ends_is_ended(tmp_path: Path) -> None:
    """An engine that plays right but ignores stop, SIGTERM and the end of its input: the
    cases pass and the engine is ended all the same."""
    started = time.monotonic()
    results, _ = run("never-ends", tmp_path)
    assert [r.status for r in results] == ["passed", "passed"]
    assert time.monotonic() - started < 30


def test_stderr_is_kept_to_a_tail(tmp_path: Path) -> None:
    """An engine writing 50 MB (1 GB in the long run) to stderr before each answer: the
    cases pass and the runner keeps only a bounded tail."""
    size = "1024" if LONG else "50"
    results, channels = run("stderr", tmp_path, size, timeout=120.0)
    assert [r.status for r in results] == ["passed", "passed"]
    assert all(len(c._tail) <= 2 * STDERR_TAIL for c in channels)
    assert len(channels[0].stderr_tail()) <= 1000


@pytest.mark.parametrize("megabytes", [20, 50])
def test_long_lines_are_read_in_linear_time(megabytes: int, tmp_path: Path) -> None:
    """A 20 or 50 MB answer line: refused after the length limit, at once, however long
    the line goes on."""
    started = time.process_time()
    results, _ = run("longline", tmp_path, str(megabytes))
    seconds = time.process_time() - started
    assert [r.status for r in results] == ["errored", "errored"]
    assert "Limits.max_length" in results[0].reason
    assert seconds < 5, f"{seconds:.1f} s of CPU"


def test_engine_text_comes_back_escaped() -> None:
    """The strings of an answer (an engine's name and version here) come back with their
    control characters escaped."""
    channel = SubprocessChannel([sys.executable, str(ENGINES), "escape"], timeout=30)
    try:
        hello = channel.request({"op": "start", "protocol": "1.0"})
    finally:
        channel.close()
    assert hello["name"] == "\\x1b]0;pwned\\x07copa\\x1b[2J"
    assert hello["version"] == "\\u202e1"


def test_printable_escapes_control_characters() -> None:
    """What an engine says (name, version, messages) is printed with escapes only."""
    shown = printable("copa\x1b[2J\x1b]0;pwned\x07\u202e\r\n" + "x" * 5000)
    assert not any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 or c == "\u202e" for c in shown)
    assert shown.startswith("copa\\x1b[2J") and len(shown) <= 600
