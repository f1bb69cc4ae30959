"""``copa-ref engine`` survives anything on stdin: every line gets one canonical JSON answer
with a boolean ``ok``, and a failed ``new_game`` leaves the previous game (or none) intact."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from copa_ref.conformance.engine import ReferenceEngine, serve
from copa_ref.core import canonical_json
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
