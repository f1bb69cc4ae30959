"""Engines that crash, hang, print garbage or answer with the wrong shape are reported as
errored; the runner restarts them and the run goes on to the end."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from copa_ref.conformance.channel import SubprocessChannel
from copa_ref.conformance.corpus import Filters, load_corpus, select
from copa_ref.conformance.runner import Runner

HERE = Path(__file__).resolve().parent


def cases() -> list[dict]:
    """Two KALA cases, one DA CAPO trace (where the broken engines misbehave), two more."""
    corpus = load_corpus()
    kala = select(corpus, Filters(game="kala", kind="rejection"))[:4]
    da_capo = select(corpus, Filters(game="da_capo", kind="trace"))[:1]
    return [*kala[:2], *da_capo, *kala[2:]]


def run(name: str, timeout: float = 2.0, start_timeout: float | None = None) -> list:
    command = [sys.executable, str(HERE / "engines.py"), name]
    runner = Runner(lambda: SubprocessChannel(command, timeout=timeout,
                                              start_timeout=start_timeout))
    results = list(runner.run(cases()))
    runner.close()
    return results


@pytest.mark.parametrize(("name", "says"), [
    ("broken-crash", "closed its output"),
    ("broken-hang", "timeout"),
    ("broken-garbage", "not a JSON line"),
    ("broken-shape", "wrong shape"),
])
def test_misbehaving_engine_errors_and_the_run_goes_on(name: str, says: str) -> None:
    """The DA CAPO case errors with a message saying what happened; the engine is
    restarted and the KALA cases before and after it pass. The answers have 1 s; a restart
    has 30 s to answer the handshake (an engine starting under load takes longer)."""
    results = run(name, timeout=1.0, start_timeout=30.0)
    assert [r.status for r in results] == ["passed", "passed", "errored", "passed", "passed"]
    assert says in (results[2].reason or "")


@pytest.mark.parametrize("name", ["silent", "not-json"])
def test_engine_that_never_talks_errors_every_case(name: str) -> None:
    """An engine that never answers the handshake (or answers garbage) errors every case,
    and the run still finishes."""
    results = run(name, timeout=0.5)
    assert len(results) == 5
    assert {r.status for r in results} == {"errored"}


def test_missing_command_errors() -> None:
    """A command that does not exist errors every case instead of crashing the runner."""
    runner = Runner(lambda: SubprocessChannel(["/nonexistent/engine"], timeout=1))
    results = list(runner.run(cases()))
    assert {r.status for r in results} == {"errored"}
    assert "cannot start" in (results[0].reason or "")
