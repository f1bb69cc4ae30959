"""The runner's fast paths change no answer: the channel's reader of plain lines reads what
the strict reader reads (or leaves the line to it), and the memoizing reference engine
answers every request exactly as the reference engine does."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from copa_ref.conformance.channel import EngineFailure, _checked, _plain_loads
from copa_ref.conformance.corpus import Filters, load_corpus, select
from copa_ref.conformance.engine import MemoEngine, ReferenceEngine, serve
from copa_ref.conformance.observables import ActionTexts, observables
from copa_ref.core import JSON, MalformedInputError
from copa_ref.core.codec import LIMITS, canonical_json, loads
from copa_ref.games import GAMES

PLAIN_TEXT = st.text(st.sampled_from('ab:[]{},"0 \\\x7f\u00e9'), max_size=6)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**17), 10**17)
    | st.floats(allow_nan=False, allow_infinity=False) | PLAIN_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(PLAIN_TEXT, inner, max_size=4),
    max_leaves=40)


def strict(raw: bytes) -> tuple[str, str]:
    """What the strict reader makes of *raw*: ``("value", canonical text)`` or ``("error",
    "")``."""
    try:
        return "value", canonical_json(loads(raw, LIMITS, "answer"))
    except MalformedInputError:
        return "error", ""


PLAIN_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**15) + 1, 10**15 - 1)
    | st.text(st.sampled_from("ab:,0 "), max_size=6),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(st.sampled_from("ab:,0 "), max_size=6), inner, max_size=4),
    max_leaves=12).map(lambda value: {"ok": True, "value": value})
"""Answers whose JSON is a line a correct engine sends: an object, ASCII, no escape, no long
number, no bracket in a string, shallow; the plain reader must read every one itself (an
object: a ``null`` line reads as ``None``, which is also "left to the strict reader")."""


def agrees(raw: bytes) -> bool:
    """Check that the plain reader, where it answers, reads *raw* as the strict reader does;
    whether it answered."""
    fast = _plain_loads(raw, LIMITS)
    if fast is None:
        return False
    assert strict(raw) == ("value", canonical_json(fast))
    return True


class TestPlainReader:
    @given(VALUES)
    def test_reads_what_the_strict_reader_reads(self, value: object) -> None:
        agrees(json.dumps(value).encode())
        agrees(json.dumps(value, separators=(",", ":"), sort_keys=True).encode())

    @pytest.mark.parametrize("raw", [
        b"[" * 32 + b"]" * 32, b"[" * 33 + b"]" * 33, b'{"a":' * 33 + b"1" + b"}" * 33,
        b'[{"x":[' * 11 + b"1" + b"]}]" * 11, b'{"a":1,"a":2}', b'{"a":NaN}', b"[1e999]",
        b'["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]', b'["]","["]', b"[1,]", b'{"a":"b"} x',
        b"  [1]  ", b"[1.5,-0.0,1E5]", b"null", b'"x"', b"[]", b"{}", b"[[[]],{}]",
    ])
    def test_edge_cases(self, raw: bytes) -> None:
        agrees(raw)

    @given(PLAIN_VALUES)
    def test_reads_every_plain_line_itself(self, value: object) -> None:
        """A plain line is read by the plain reader (not left to the strict one), and read
        as the strict reader reads it: the fast path is taken, and agrees."""
        assert agrees(json.dumps(value).encode()), json.dumps(value)
        assert agrees(json.dumps(value, separators=(",", ":"), sort_keys=True).encode())

    @pytest.mark.parametrize("raw", [
        b"[" * 32 + b"]" * 32, b"  [1]  ", b"[1.5,-0.0,1E5]", b'"x"', b"[]", b"{}",
        b"[[[]],{}]", b'{"ok":true,"actions":[{"type":"sow","seat":0}]}',
    ])
    def test_plain_edge_cases_take_the_fast_path(self, raw: bytes) -> None:
        """The plain edge cases are read by the plain reader itself, as the strict reader
        reads them."""
        assert agrees(raw)

    def test_too_deep_is_left_to_the_strict_reader(self) -> None:
        assert _plain_loads(b"[" * 33 + b"]" * 33, LIMITS) is None

    @pytest.mark.parametrize(("raw", "judged"), [
        (b'{"ok":true,"n":12345678901234567}', "an integer out of range"),
        (b'{"ok":true,"x":"\\u001b[2J"}', {"ok": True, "x": "\\x1b[2J"}),
        (b'{"ok":true,"x":"\x7f"}', {"ok": True, "x": "\\x7f"}),
        (b'{"ok":true,"a":1,"a":1}', "duplicate key"),
    ])
    def test_answers_beyond_the_plain_path_are_still_judged(self, raw: bytes,
                                                            judged: object) -> None:
        """A long number, an escape, a DEL, a duplicate key: the general path decides (a
        refusal naming the problem, or the control character escaped)."""
        if isinstance(judged, str):
            with pytest.raises(EngineFailure, match=judged):
                _checked(raw, LIMITS)
        else:
            assert _checked(raw, LIMITS) == judged


def requests() -> list[bytes]:
    """The requests of a few short cases of every game, each case twice (the second time
    from memory), with an undo, a refusal, a malformed action and bad requests."""
    lines: list[dict] = [{"op": "start", "protocol": "1.0"}, {"op": "observe"}]
    chosen = select(load_corpus(), Filters(kind="trace"))
    by_game: dict[str, list[dict]] = {}
    for case in sorted(chosen, key=lambda c: len(c["steps"])):
        by_game.setdefault(case["game"], []).append(case)
    for cases in by_game.values():
        for case in cases[:2] * 2:
            lines.append({"op": "new_game", "game": case["game"], "config": case["config"]})
            for step in case["steps"][:12]:
                lines += [{"op": "observe"}, {"op": "legal", "seat": None},
                          {"op": "legal", "seat": 0}, {"op": "apply", "action": step["action"]},
                          {"op": "apply", "action": step["action"]}]
            lines += [{"op": "undo"}, {"op": "observe"}, {"op": "undo"}, {"op": "legal", "seat": 1},
                      {"op": "apply", "action": {"type": "nonsense"}},
                      {"op": "legal", "seat": True}, {"op": "legal", "seat": [0]},
                      {"op": "export"}]
    lines.append({"op": "new_game", "game": "kala", "config": {"players": 9}})
    lines.append({"op": "observe"})
    return [canonical_json(line).encode() for line in lines] + [b"not json", b'{"op":"stop"}']


def test_memo_engine_answers_as_the_reference() -> None:
    stream = b"\n".join(requests()) + b"\n"
    answers = []
    for engine in (ReferenceEngine(), MemoEngine()):
        out = io.BytesIO()
        serve(engine, io.BufferedReader(io.BytesIO(stream)), out)  # type: ignore[arg-type]
        answers.append(out.getvalue().decode().splitlines())
    assert len(answers[0]) == stream.count(b"\n")
    assert answers[0] == answers[1]


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_served_process_answers_each_batch_whole(unbuffered: str) -> None:
    """The engine process gathers the answers to the requests it read in one go and writes
    them together, with the process's stdout buffered or not: every answer, in order, as
    :func:`serve` writes them to a stream."""
    stream = b"\n".join(requests()) + b"\n"
    out = io.BytesIO()
    serve(MemoEngine(), io.BufferedReader(io.BytesIO(stream)), out)
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
    served = subprocess.run(
        [sys.executable, "-c", "from copa_ref.conformance.engine import MemoEngine, serve; "
                               "serve(MemoEngine())"],
        input=stream, capture_output=True, env=env, timeout=120, check=True)
    assert served.stdout == out.getvalue()


class _NamesNoRule(MemoEngine):
    """Refuses what the reference refuses, naming no rule."""

    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        accepted, _rule, message = super().apply(action)
        return accepted, None, message


class _TakesMalformed(MemoEngine):
    """Answers a malformed action as accepted (and changes nothing)."""

    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        accepted, rule, message = super().apply(action)
        if not accepted and rule is None:
            return True, None, ""
        return accepted, rule, message


@pytest.mark.parametrize("engine", [MemoEngine, _NamesNoRule, _TakesMalformed])
def test_probes_along_the_trace_report_what_rejection_cases_report(
        engine: type[MemoEngine], monkeypatch: pytest.MonkeyPatch) -> None:
    """Explore's probes, offered along their game's trace, make the same report as the
    probes judged each as a rejection case walked from the start (what a probe's check
    finds is found either way), and the trace carries them when the game passes."""
    from copa_ref.conformance.channel import InProcessChannel
    from copa_ref.conformance.explore import Explorer, Settings, loop
    from copa_ref.conformance.runner import Runner

    corpus = load_corpus()
    settings = Settings(games=12, max_steps=40, probes=3, seed=7, shrink_tries=3)
    carried: list[int] = []
    real_run = loop.lockstep.run

    def run(runner: Any, case: Any, *args: Any) -> Any:
        carried.append(len(case.get("probes") or ()))
        return real_run(runner, case, *args)

    def lines() -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        runner = Runner(lambda: InProcessChannel(engine), corpus)
        Explorer(runner, settings, corpus).explore(on_line=found.append)
        return [{k: v for k, v in line.items() if k not in ("seconds", "requests")}
                for line in found]

    monkeypatch.setattr(loop.lockstep, "run", run)
    along = lines()
    assert sum(carried) > 0
    real_check = Explorer._check
    monkeypatch.setattr(Explorer, "_check",
                        lambda self, *args: real_check(self, *args[:6]))  # no probe along
    carried.clear()
    alone = lines()
    assert not sum(carried)
    assert along == alone
    assert along[-1]["probes"] > 0
    assert (along[-1]["differences"] > 0) == (engine is not MemoEngine)


def _exactly(one: object, other: object) -> bool:
    """Whether two JSON values are equal with the same Python types throughout."""
    if type(one) is not type(other):
        return False
    if isinstance(one, dict):
        assert isinstance(other, dict)
        return list(one) == list(other) and all(_exactly(one[k], other[k]) for k in one)
    if isinstance(one, list):
        assert isinstance(other, list)
        return len(one) == len(other) and all(map(_exactly, one, other))
    return one == other


@pytest.mark.parametrize("name", sorted(GAMES))
def test_observables_with_kept_action_texts_are_the_plain_ones(name: str) -> None:
    """The observables made with the actions' JSON kept (:class:`ActionTexts`, what explore's
    trace cases use, without a JSON round trip) are exactly what the JSON text of the
    reference's observables reads back as, at every position of seeded games under every
    config of the sweep."""
    from copa_ref.conformance.cases import plain as _plain
    from copa_ref.conformance.explore.configs import sweep
    from copa_ref.conformance.explore.play import play

    game = GAMES[name]
    texts = ActionTexts(game)
    checked = 0
    for number, swept in enumerate(sweep(game, lambda _data, _options: True, 0)[:6]):
        played = play(game, swept.config, random.Random(number), 80)
        for state in played.states:
            assert _exactly(observables(game, state, texts), _plain(observables(game, state)))
            checked += 1
        for action in played.actions:
            assert _exactly(texts(action)[0], _plain(game.to_json(action)))
            assert texts(action)[1] == canonical_json(game.to_json(action))
    assert checked > 20
