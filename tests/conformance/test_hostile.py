"""The runner against hostile engines: every case ends (errored, or passed where the engine
answered right after all), in bounded time and memory, no engine process is left running,
and no engine text reaches a message unescaped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from copa_ref.conformance.channel import (
    STDERR_TAIL,
    EngineFailure,
    SubprocessChannel,
    end_orphans,
    printable,
)
from copa_ref.conformance.corpus import MAX_FILE, Filters, load_corpus, select
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


def run(how: str, tmp_path: Path, *args: str, timeout: float = 5.0,
        then: Callable[[], None] | None = None) -> tuple[list, list]:
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
        if then is not None:
            then()
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


def test_escaped_quotes_error_the_case_at_once(tmp_path: Path) -> None:
    """1 MiB of unterminated escaped quotes as an answer, under a 3 s timeout: errored as
    not JSON (the runner's CPU time tallied; the parse was quadratic before, over two
    minutes)."""
    started = time.process_time()
    results, _ = run("quotes", tmp_path, timeout=3.0)
    TALLY["hostile engine quotes: runner CPU (ms)"] = round(
        (time.process_time() - started) * 1000)
    assert [r.status for r in results] == ["errored", "errored"]
    assert all("Unterminated string" in r.reason for r in results)


def test_the_timeout_covers_the_parse(tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer read at once but parsed past the per-answer limit is a timeout."""
    import copa_ref.conformance.channel as channel_module

    checked = channel_module._checked

    def slow(line: bytes | str, limits: Any) -> Any:
        time.sleep(0.5)
        return checked(line, limits)

    channel = SubprocessChannel([sys.executable, "-m", "copa_ref.cli", "engine"],
                                timeout=0.2, start_timeout=60.0)
    try:
        channel.request({"op": "start", "protocol": "1.0"})
        monkeypatch.setattr(channel_module, "_checked", slow)
        with pytest.raises(EngineFailure, match=r"parsed within 0\.2 s \(timeout\)"):
            channel.request({"op": "observe"})
    finally:
        channel.close()


def test_huge_values_are_clipped_in_failures(tmp_path: Path) -> None:
    """A view with two strings of 450 KB (a wrong bank, an unknown key of 1,000
    characters): both cases fail, and everything printed of them (the message, the diff,
    the report line) is bounded."""
    from copa_ref.conformance.report import describe_failure

    results, _ = run("bigview", tmp_path, "450")
    assert [r.status for r in results] == ["failed", "failed"]
    for result in results:
        text = describe_failure(result)
        line = json.dumps(result.as_json())
        assert "public.bank" in text and "\x1b" not in text
        assert len(text) < 20_000 and len(line) < 30_000, (len(text), len(line))
        TALLY["hostile engine bigview: printed per case (chars, max)"] = max(
            TALLY["hostile engine bigview: printed per case (chars, max)"], len(text))


def test_an_engine_that_forks_leaves_nothing(tmp_path: Path) -> None:
    """The engine forks a child, then hangs: the case times out and the whole process group
    (the child too) is ended."""
    results, _ = run("fork", tmp_path, timeout=1.0)
    assert [r.status for r in results] == ["errored", "errored"]
    assert "timeout" in results[0].reason
    assert len(list((tmp_path / "pids").iterdir())) == 4  # two engines, two children


@pytest.mark.parametrize("how", ["setsid", "daemon", "setpgid"])
def test_processes_out_of_the_group_end_with_the_engine(how: str, tmp_path: Path) -> None:
    """A setsid grandchild, a double-fork daemon that closes every descriptor, a setpgid
    child: the cases pass, and when the engine is stopped every one of them is ended."""
    results, _ = run(how, tmp_path)
    assert [r.status for r in results] == ["passed", "passed"]
    # one engine (both cases pass), and what it left: two sleepers, or one daemon
    assert len(list((tmp_path / "pids").iterdir())) == {"setsid": 3}.get(how, 2)


def test_a_daemon_without_its_mark_ends_with_the_run(tmp_path: Path) -> None:
    """A double-fork daemon that also clears its environment (no mark of its engine) is the
    runner's child all the same (a subreaper's): the end of the run ends it."""
    results, _ = run("clean-daemon", tmp_path, then=end_orphans)
    assert [r.status for r in results] == ["passed", "passed"]


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


# -- export onto a hostile folder ------------------------------------------------------------


def _export(dest: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from copa_ref.cli import main

    status = main(["conformance", "export", str(dest)])
    return status, capsys.readouterr().err


@pytest.mark.parametrize("plant", ["folder link", "file link", "fifo"])
def test_export_never_writes_through_a_link(plant: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A link (to a folder or a file) or a FIFO already where the export writes: one line
    on stderr, exit status 2, and nothing written outside the folder."""
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim.json"
    victim.write_text("keep")
    dest = tmp_path / "dest"
    (dest / "cases" / "kala").mkdir(parents=True)
    if plant == "folder link":
        (dest / "cases" / "kala").rmdir()
        (dest / "cases" / "kala").symlink_to(outside, target_is_directory=True)
    elif plant == "file link":
        (dest / "cases" / "kala" / "traces.json").symlink_to(victim)
    else:
        os.mkfifo(dest / "cases" / "kala" / "traces.json")
    status, err = _export(dest, capsys)
    assert status == 2
    assert len(err.strip().splitlines()) == 1 and "cases/kala" in err, err
    assert sorted(p.name for p in outside.iterdir()) == ["victim.json"]
    assert victim.read_text() == "keep"
    TALLY["hostile export folders"] += 1


@pytest.mark.parametrize("where", ["a file", "under a file"])
def test_export_onto_a_file_is_refused(where: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``export FILE`` or ``export FILE/sub``: one line on stderr, exit status 2."""
    existing = tmp_path / "existing"
    existing.write_text("keep")
    status, err = _export(existing if where == "a file" else existing / "sub", capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("copa-ref conformance export: error: cannot export: ")
    assert existing.read_text() == "keep"


def test_export_through_a_linked_destination(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The folder named on the command line may itself be a link (the user chose it); an
    export over a previous export replaces its files."""
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    for _ in range(2):
        status, err = _export(tmp_path / "link", capsys)
        assert status == 0, err
    assert (real / "VERSION").is_file() and (real / "cases" / "kala" / "traces.json").is_file()


# -- hostile corpora -------------------------------------------------------------------------

RAW = ("\x1b[2J", "\x1b]0;pwned\x07", "\x00", "\x07", "\x9b31m", "\u202e")


def _small_corpus(tmp_path: Path) -> Path:
    """The published corpus cut to two KALA traces."""
    from copa_ref.conformance.corpus import export_corpus

    corpus = tmp_path / "corpus"
    export_corpus(corpus)
    for path in (corpus / "cases").glob("*/*.json"):
        if path.parent.name != "kala" or path.name != "traces.json":
            path.unlink()
    return corpus


def _run_cli(corpus: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "copa_ref.cli", "conformance", "run", "--engine",
         f"{sys.executable} {ENGINES} bigint", "--corpus", str(corpus), *extra],
        capture_output=True, text=True, timeout=300, check=False)


def test_corpus_text_comes_back_escaped(tmp_path: Path) -> None:
    """Case IDs and rules with terminal escapes, NUL, BEL, C1 and bidirectional controls:
    every one printed escaped, on stdout, stderr and in the report."""
    corpus = _small_corpus(tmp_path)
    path = corpus / "cases" / "kala" / "traces.json"
    data = json.loads(path.read_text())
    data["cases"] = sorted(data["cases"], key=lambda c: len(c["steps"]))[:2]
    for number, case in enumerate(data["cases"]):
        case["id"] = f"kala/trace/{''.join(RAW)}{number}"
        case["rules"] = [*case["rules"], "KALA-1" + "".join(RAW)]
    path.write_text(json.dumps(data))
    done = _run_cli(corpus, "--report", str(tmp_path / "report.jsonl"))
    assert done.returncode == 1, done.stderr[-2000:]
    shown = done.stdout + done.stderr + (tmp_path / "report.jsonl").read_text()
    assert "kala/trace/\\x1b[2J" in done.stdout
    assert not [c for c in shown if c in "\x1b\x00\x07\x9b\u202e"], shown[-2000:]
    TALLY["hostile corpora"] += 1


@pytest.mark.parametrize("plant", ["/dev/zero", "fifo", "folder", "too large"])
def test_a_corpus_file_that_is_not_a_small_regular_file(plant: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A corpus file that is ``/dev/zero``, a FIFO, a folder or larger than the bound: one
    line and exit status 2, at once (nothing read whole, nothing blocks)."""
    corpus = _small_corpus(tmp_path)
    path = corpus / "cases" / "kala" / "traces.json"
    path.unlink()
    if plant == "/dev/zero":
        path.symlink_to("/dev/zero")
    elif plant == "fifo":
        os.mkfifo(path)
    elif plant == "folder":
        path.mkdir()
    else:
        path.write_bytes(b" " * (MAX_FILE + 1))
    done = _run_cli(corpus)
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "traces.json" in lines[0], done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    TALLY["hostile corpora"] += 1


class _Silent(Exception):
    def __str__(self) -> str:
        return ""


class _Raising(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message")


@pytest.mark.parametrize("error", [_Silent(), _Raising(), ValueError("x" * 10**6 + "\x1b")])
def test_the_corpus_error_handler_never_crashes(error: Exception, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever reading the corpus raises (an empty message, a raising ``__str__``, a
    megabyte with an escape), the run stops with one bounded, printable line."""
    from copa_ref.conformance import cli

    def fail(*_: object, **__: object) -> None:
        raise error

    monkeypatch.setattr(cli, "load_corpus", fail)
    with pytest.raises(cli.UsageError) as info:
        cli._load(_small_corpus(tmp_path), validate=False)
    message = str(info.value)
    assert len(message) < 1000 and "\x1b" not in message and "\n" not in message


def test_requests_written_ahead_never_wait_for_answers_unread() -> None:
    """Thousands of requests written in one go (more than a pipe holds) to an engine whose
    answers fill the other pipe meanwhile: the runner reads the answers while it writes, so
    neither side waits for the other, and every answer comes back, in order."""
    from copa_ref.games import GAMES

    kala = GAMES["kala"]
    channel = SubprocessChannel([sys.executable, "-m", "copa_ref.cli", "engine"], timeout=30)
    try:
        assert channel.request({"op": "start", "protocol": "1.1"})["ok"]
        assert channel.request({"op": "new_game", "game": "kala",
                                "config": kala.to_json(kala.default_config())})["ok"]
        batch: list[dict[str, Any]] = [{"op": "observe"}, {"op": "legal", "seat": None}] * 3000
        assert len(json.dumps(batch)) > 1 << 17  # twice what a Linux pipe holds
        channel.send(batch)
        assert channel.unread == len(batch)
        answers = [channel.receive() for _ in batch]
        assert channel.unread == 0
        assert sum(len(json.dumps(a)) for a in answers) > 1 << 21  # 32 pipes full
        assert all(a == answers[i % 2] for i, a in enumerate(answers))
        assert "to_move" in answers[0] and answers[1]["actions"]
    finally:
        channel.close()
