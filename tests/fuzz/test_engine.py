"""``copa-ref engine`` survives anything on stdin: every line gets one canonical JSON answer
with a boolean ``ok``, and a failed ``new_game`` leaves the previous game (or none) intact."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from copa_ref.conformance.engine import _SHORT, MemoEngine, ReferenceEngine, serve
from copa_ref.core import MoverKind, canonical_json
from copa_ref.core.codec import LIMITS
from copa_ref.games import GAMES
from tests.fuzz.conftest import SCALE, TALLY
from tests.fuzz.strategies import GAME_NAMES, lines

EXAMPLES = 60 * SCALE


def session(data: bytes) -> list[bytes]:
    """The answer lines of a fresh reference engine to *data*."""
    out = io.BytesIO()
    assert serve(ReferenceEngine(), io.BytesIO(data), out) == 0
    return out.getvalue().splitlines()


def check_answers(answers: list[bytes]) -> list[dict]:
    """Every answer is one canonical JSON object with a boolean ``ok``."""
    decoded = []
    for line in answers:
        answer = json.loads(line)
        assert isinstance(answer, dict) and type(answer["ok"]) is bool, line[:200]
        assert canonical_json(answer).encode() == line, line[:200]
        decoded.append(answer)
    return decoded


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow,
                                                        HealthCheck.data_too_large])
@given(data=st.data())
def test_hostile_lines(name: str, data: st.DataObject) -> None:
    """Requests, mutated requests and garbage, in any order."""
    sent = data.draw(st.lists(lines(GAMES[name]), min_size=1, max_size=10), label="lines")
    answers = check_answers(session(b"\n".join(sent) + b"\n"))
    TALLY["engine lines"] += len(sent)
    TALLY["engine lines refused (ok: false)"] += sum(not a["ok"] for a in answers)
    asked = [line for line in sent if line.strip()]
    if not any(b"stop" in line for line in asked):
        assert len(answers) == len(asked)


CONFIGS = {name: GAMES[name].to_json(GAMES[name].default_config()) for name in GAMES}


def request(**fields: object) -> bytes:
    return canonical_json(fields).encode()


def test_failed_new_game_keeps_the_game() -> None:
    """A valid KALA game, then a DA CAPO new_game with a bad config: the KALA game stays;
    on a fresh engine a bad config leaves no game, cleanly."""
    answers = check_answers(session(b"\n".join([
        request(op="new_game", game="kala", config=CONFIGS["kala"]),
        request(op="new_game", game="da_capo", config={"players": 99}),
        request(op="new_game", game="da_capo", config={**CONFIGS["da_capo"], "players": 99}),
        request(op="observe"), request(op="legal", seat=None),
    ]) + b"\n"))
    assert [a["ok"] for a in answers] == [True, False, False, True, True]
    assert "DACAPO-1" in answers[2]["error"]
    assert answers[3]["public"]["field"] == [0] * 16
    fresh = check_answers(session(b"\n".join([
        request(op="new_game", game="da_capo", config={**CONFIGS["da_capo"], "players": 99}),
        request(op="legal", seat=0), request(op="observe"),
    ]) + b"\n"))
    assert [a["ok"] for a in fresh] == [False, False, False]
    assert all("no game" in a["error"] for a in fresh[1:])


def test_long_lines_cost_linear_time() -> None:
    """Lines of 2 to 50 MB are answered with an error naming the limit, in time linear in
    their length (about a tenth of a second a megabyte here, at most)."""
    for megabytes in (2, 20, 50):
        data = b'{"op":"' + b"x" * (megabytes << 20) + b'"}\n' + request(op="start") + b"\n"
        started = time.process_time()
        answers = check_answers(session(data))
        seconds = time.process_time() - started
        assert [a["ok"] for a in answers] == [False, True]
        assert "Limits.max_length" in answers[0]["error"]
        assert seconds < 0.1 * megabytes + 0.5, f"{megabytes} MB: {seconds:.2f} s"
        TALLY["engine long lines"] += 1


def test_bytes_that_are_not_utf8_under_a_strict_locale() -> None:
    """Run as a command under the C locale: bytes that are not UTF-8 get an error answer,
    and the engine goes on."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG",
                                                                     "PYTHONIO"))}
    env.update(LC_ALL="C", PYTHONUTF8="0")
    script = "from copa_ref.conformance.engine import ReferenceEngine, serve; " \
             "raise SystemExit(serve(ReferenceEngine()))"
    data = b"\xff\xfe{}\n" + request(op="start") + b"\n" + b'{"op":"\xc3\xa9"}\n' + \
        b"[" * (LIMITS.max_depth + 1) + b"\n" + request(op="stop") + b"\n"
    done = subprocess.run([sys.executable, "-c", script], input=data, capture_output=True,
                          env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    answers = check_answers(done.stdout.splitlines())
    assert [a["ok"] for a in answers] == [False, True, False, False, True]
    assert "UTF-8" in answers[0]["error"]
    assert answers[2]["error"] == "unknown op 'é'" or "unknown op" in answers[2]["error"]


ENGINE = [sys.executable, "-m", "copa_ref.cli", "engine"]
"""``copa-ref engine``, run by this interpreter."""


def test_escaped_quotes_answered() -> None:
    """1 MiB of unterminated escaped quotes, with and without a final backslash, each gets
    its error answer from ``copa-ref engine`` (about a tenth of a second here; the reader was
    quadratic before and never answered), and the engine goes on."""
    quotes = b'"' + b'\\"' * ((1 << 19) - 1)
    data = b"".join(line + b"\n" for line in (
        quotes, quotes + b"\\", request(op="start"), request(op="stop")))
    started = time.perf_counter()
    done = subprocess.run(ENGINE, input=data, capture_output=True, timeout=120, check=False)
    TALLY["engine: 2 MiB of escaped quotes answered (ms)"] = round(
        (time.perf_counter() - started) * 1000)
    assert done.returncode == 0, done.stderr[-2000:]
    answers = check_answers(done.stdout.splitlines())
    assert [a["ok"] for a in answers] == [False, False, True, True]
    assert all("Unterminated string" in a["error"] for a in answers[:2])


# -- long hostile sessions -------------------------------------------------------------------

LONG_SESSION = 10_000 * SCALE
"""The scale of the long sessions: 100,000 Kopa passes, 200,000 seats and 3,000 refusals
of 100 KB in the long run, a tenth in CI."""


def _kala() -> bytes:
    return request(op="new_game", game="kala", config=CONFIGS["kala"])


def refusals(count: int, size: int = 100_000) -> Iterator[bytes]:
    """A KALA game, then *count* distinct refused actions of *size* bytes each."""
    yield _kala()
    for i in range(count):
        yield request(op="apply", action={"type": "sow", "seat": 0, "path": [[0, 0]],
                                          "junk": f"{i:08d}" + "x" * size})


def seats(count: int) -> Iterator[bytes]:
    """A KALA game, then ``legal`` for *count* distinct seats, none of them at the table."""
    yield _kala()
    for i in range(count):
        yield request(op="legal", seat=2 + i * 7919)


def passes(count: int) -> Iterator[bytes]:
    """A Kopa game dealt, then *count* passes (a game that never has to end)."""
    game = GAMES["kopa"]
    state = game.new_game(game.default_config())
    deal = game.sample_chance(state, random.Random(21))
    state = game.apply(state, deal)
    yield request(op="new_game", game="kopa", config=CONFIGS["kopa"])
    yield request(op="apply", action=game.to_json(deal))
    for _ in range(count):
        action = next(a for a in game.legal_actions(state) if type(a).__name__ == "Pass")
        state = game.apply(state, action)
        yield request(op="apply", action=game.to_json(action))


def parsed(count: int) -> Iterator[bytes]:
    """*count* distinct short requests whose parsed values are large (600 empty lists)."""
    yield _kala()
    for i in range(count):
        yield request(op="observe", x=[[]] * 600, i=i)


def explored(count: int) -> Iterator[bytes]:
    """*count* random moves of every game in turn, each position observed and its legal
    actions listed: a tree of positions and answers to keep."""
    rng = random.Random(24)
    done = 0
    while done < count:
        name = GAME_NAMES[done % len(GAME_NAMES)]
        game = GAMES[name]
        state = game.new_game(game.default_config())
        yield request(op="new_game", game=name, config=CONFIGS[name])
        for _ in range(300):
            if game.outcome(state) is not None:
                break
            mover = game.to_move(state)
            action = (game.sample_chance(state, rng) if mover.kind is MoverKind.CHANCE
                      else rng.choice(game.legal_actions(state)))
            state = game.apply(state, action)
            yield request(op="apply", action=game.to_json(action))
            yield request(op="observe")
            yield request(op="legal", seat=None)
            done += 1


SESSIONS = {
    "refusals": lambda: refusals(LONG_SESSION * 3 // 100),
    "seats": lambda: seats(2 * LONG_SESSION),
    "passes": lambda: passes(LONG_SESSION),
    "parsed": lambda: parsed(LONG_SESSION // 5),
    "explored": lambda: explored(LONG_SESSION),
}


class SmallMemo(MemoEngine):
    """The engine with bounds small enough for a session of CI's volume to pass them."""

    MAX_ENTRIES = 2_000
    MAX_CHARS = 400_000
    MAX_UNDO = 500


@pytest.mark.parametrize("name", sorted(set(SESSIONS) - {"parsed"}))
def test_long_session_keeps_bounded_memory(name: str) -> None:
    """In a long hostile session the reference engine keeps only what its bounds allow: no
    refusal of a long action, no error answer (a seat out of range), at most MAX_UNDO
    states back, at most MAX_ENTRIES entries of MAX_CHARS characters in all (with bounds
    small enough that the sessions pass them many times)."""
    kind = SmallMemo
    engine = kind()
    sent = list(SESSIONS[name]())
    out = io.BytesIO()
    serve(engine, io.BytesIO(b"\n".join(sent) + b"\n"), out)
    answers = out.getvalue().splitlines()
    assert len(answers) == len(sent)
    TALLY[f"engine long session: {name} (requests)"] += len(sent)
    assert len(engine.history) <= kind.MAX_UNDO and len(engine._trail) <= kind.MAX_UNDO
    assert engine._kept <= kind.MAX_ENTRIES and engine._chars <= kind.MAX_CHARS
    positions, kept_chars = _walk(engine)
    assert positions <= kind.MAX_ENTRIES + kind.MAX_UNDO + 1
    assert kept_chars <= kind.MAX_CHARS + 4 * _SHORT


def _walk(engine: MemoEngine) -> tuple[int, int]:
    """The positions reachable from what *engine* keeps, and the characters of the
    refusals and lines they hold (every refused action short, every line ``ok: true``)."""
    stack = [*engine._roots.values(), *engine._trail]
    if engine._position is not None:
        stack.append(engine._position)
    seen: set[int] = set()
    chars = 0
    while stack:
        position = stack.pop()
        if id(position) in seen:
            continue
        seen.add(id(position))
        for key, (_, message) in position.refusals.items():
            assert len(key) <= _SHORT
            chars += len(key) + len(message)
        for line in position.lines.values():
            assert json.loads(line)["ok"] is True
            chars += len(line)
        stack.extend(position.children.values())
    return len(seen), chars


MEMORY_BOUND = 128 << 20
"""The stated bound of ``copa-ref engine``'s resident memory, whatever a session sends
(``conformance/README.md``): the interpreter and the rules take some 25 MiB, the peaks
measured in long sessions 25 to 70 MiB."""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
@pytest.mark.parametrize("name", ["parsed", "passes", "refusals", "seats"])
def test_long_session_within_the_stated_memory(name: str) -> None:
    """``copa-ref engine`` fed a long hostile session through a pipe: its peak resident
    memory (VmHWM) stays under :data:`MEMORY_BOUND`, and every request is answered."""
    engine = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert engine.stdin is not None and engine.stdout is not None
    sent = [0]

    def feed() -> None:
        assert engine.stdin is not None
        for line in SESSIONS[name]():
            engine.stdin.write(line + b"\n")
            sent[0] += 1
        engine.stdin.write(request(op="observe") + b"\n")
        engine.stdin.flush()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        answered = 0
        while engine.stdout.readline():
            answered += 1
            if not writer.is_alive() and answered == sent[0] + 1:
                break
        with open(f"/proc/{engine.pid}/status") as status:
            peak = next(int(line.split()[1]) << 10 for line in status
                        if line.startswith("VmHWM"))
    finally:
        engine.kill()
        engine.wait(timeout=60)
    assert answered == sent[0] + 1
    TALLY[f"engine long session: {name} peak (MiB)"] = max(
        TALLY[f"engine long session: {name} peak (MiB)"], peak >> 20)
    assert peak < MEMORY_BOUND, f"{name}: {peak >> 20} MiB"


@pytest.mark.parametrize("kind", [ReferenceEngine, MemoEngine])
def test_undo_within_its_window(kind: type[ReferenceEngine]) -> None:
    """``undo`` takes back up to MAX_UNDO actions; one more is an error answer naming the
    bound, and the engine plays on from where it is."""
    small = type("Small", (kind,), {"MAX_UNDO": 50})
    sent = list(passes(60)) + [request(op="undo")] * 51 + [request(op="observe")]
    out = io.BytesIO()
    serve(small(), io.BytesIO(b"\n".join(sent) + b"\n"), out)
    answers = check_answers(out.getvalue().splitlines())
    undos = answers[62:113]
    assert all(a["ok"] for a in undos[:50])
    assert not undos[50]["ok"] and "MAX_UNDO" in undos[50]["error"]
    assert answers[-1]["ok"] and answers[-1]["to_move"]["kind"] == "seat"
