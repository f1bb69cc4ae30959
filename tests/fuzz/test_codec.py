"""The codec refuses every malformed input with ``MalformedInputError`` (or a config or
state that breaks a rule with its ``InvalidStateError``), accepts nothing it would not
write itself, and stays cheap on large inputs."""

from __future__ import annotations

import functools
import gc
import itertools
import json
import random
import subprocess
import sys
import time
import tracemalloc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from copa_ref.core import MalformedInputError, RuleViolation, canonical_json
from copa_ref.core.codec import LIMITS, loads
from copa_ref.games import GAMES
from tests.fuzz.conftest import POSITIONS, SCALE, TALLY
from tests.fuzz.strategies import GAME_NAMES, LONG, SEEDS, mutate_json, mutate_text, seeds

BATCH = 40
"""Mutated values per example (one seed value each)."""

EXAMPLES = 250 * SCALE


@functools.cache
def _seeds(name: str) -> list[tuple[str, Any, str]]:
    return seeds(GAMES[name], POSITIONS // 3)


def _check(game: Any, cls: Any, text: str | bytes) -> None:
    """Decode *text* as *cls*: a refusal of the right kind with a bounded message, or a
    value whose canonical JSON is exactly the input's (nothing coerced, nothing filled in)."""
    TALLY[f"{game.name} JSON inputs"] += 1
    try:
        decoded = game.loads(text, cls)
    except (MalformedInputError, RuleViolation) as err:
        assert len(str(err)) <= 1000, str(err)[:200]
        return
    assert game.dumps(decoded) == canonical_json(json.loads(text)), text[:300]


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow,
                                                        HealthCheck.data_too_large])
@given(data=st.data())
def test_mutated_json(name: str, data: st.DataObject) -> None:
    """Configs, states, actions and observations with one change each, as canonical text
    and as text changed at the text level."""
    game = GAMES[name]
    pool = _seeds(name)
    _, cls, text = pool[data.draw(st.integers(0, len(pool) - 1), label="seed")]
    value = json.loads(text)
    rng = random.Random(data.draw(SEEDS, label="mutations"))
    for _ in range(BATCH):
        _check(game, cls, canonical_json(mutate_json(value, rng)))
    _check(game, cls, mutate_text(text, rng))


def _timed(call: Any) -> float:
    """CPU seconds of *call* (untraced: other processes on the machine do not count), the
    best of two (the first may also pay one-time costs: the converter's generated hooks),
    with the garbage collector off: the figure is the reader's own work, not the cost of
    collecting the test process's other objects, which grows with whatever ran before."""
    seconds = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(2):
            started = time.process_time()
            call()
            seconds = min(seconds, time.process_time() - started)
    finally:
        gc.enable()
    return seconds


def _refused(call: Any) -> None:
    with pytest.raises(MalformedInputError):
        call()


def _cost(call: Any, traced: bool) -> tuple[float, int]:
    """CPU seconds (see :func:`_timed`) and, where *traced*, peak bytes of *call*, which
    must refuse."""
    seconds = _timed(lambda: _refused(call))
    with pytest.raises(MalformedInputError) as info:
        call()
    assert len(str(info.value)) <= 1000
    if not traced:
        return seconds, 0
    tracemalloc.start()
    try:
        with pytest.raises(MalformedInputError):
            call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return seconds, peak


ANCHOR_TEXT = "[" + "[0,0]," * 166_000 + "[0,0]]"
"""About 1 MB of ordinary JSON: what the standard library's reader makes of it, timed in
the same way just before, is the yardstick of :func:`test_large_inputs_cost_little` (a ratio
in one run, whatever the machine's load)."""

WORST = 100
"""The most a large hostile input may cost, in yardsticks: the readers take at most about 6
(linear work in Python against linear work in C); a cost that grows faster than the input,
at 1 MB, would be thousands."""


MB = 1_000_000

LARGE = {
    "a 1 MB bad path": lambda: GAMES["kala"].loads(
        '{"type":"sow","seat":0,"path":[' + "[0,0]," * (MB // 6 - 2) + '[0,"x"]]}',
        GAMES["kala"].action_type),
    "a 1 MB path string": lambda: GAMES["kala"].loads(
        '{"type":"sow","seat":0,"path":"' + "x" * MB + '"}', GAMES["kala"].action_type),
    "10 MB of JSON": lambda: loads("[" + "0," * (5 * MB) + "0]"),
    "1 MB of nesting": lambda: loads("[" * MB),
    "a 4,300-digit bank": lambda: GAMES["kala"].loads(
        GAMES["kala"].dumps(GAMES["kala"].new_game(GAMES["kala"].default_config())).replace(
            '"bank":0', '"bank":' + "9" * 4300), GAMES["kala"].state_type),
    "1 MB of bids": lambda: GAMES["da_capo"].loads(
        '{"type":"bids","bids":[' + "1," * (MB // 2 - 2) + 'true]}',
        GAMES["da_capo"].action_type),
    "1 MB of hands": lambda: GAMES["copas"].loads(
        '{"type":"deal","hands":[[' + '"Qc",' * (MB // 5 - 2) + '"8c"]]}',
        GAMES["copas"].action_type),
    "a 1 MB Python path": lambda: GAMES["kala"].action_from_json(
        {"type": "sow", "seat": 0, "path": [[0, 0]] * (MB // 6) + [[0, 3.0]]}),
}


UNTRACED_IN_CI = {"1 MB of bids", "1 MB of hands", "a 1 MB Python path"}
"""Inputs whose memory only the long run measures (tracing costs seconds each); the 1 MB
bad path of the same shape is traced in CI too."""


@pytest.mark.parametrize("name", sorted(LARGE))
def test_large_inputs_cost_little(name: str) -> None:
    """No input of 1 MB or more costs more than :data:`WORST` times reading 1 MB of
    ordinary JSON with the standard library (measured just before, in the same process), or
    100 MB, and every message is bounded."""
    yardstick = _timed(lambda: json.loads(ANCHOR_TEXT))
    seconds, peak = _cost(LARGE[name], traced=LONG or name not in UNTRACED_IN_CI)
    TALLY["large inputs"] += 1
    ratio = seconds / yardstick
    assert ratio < WORST, f"{name}: {seconds:.3f} s, {ratio:.0f} times {yardstick:.4f} s"
    assert peak < 100 * MB, f"{name}: {peak / MB:.0f} MB"


def test_limits_are_named() -> None:
    """A refusal for size, depth or integer length names the limit it hit."""
    for text, limit in (("x" * (LIMITS.max_length + 1), "max_length"),
                        ("[" * 40 + "]" * 40, "max_depth"), ("1" * 40, "max_int_digits")):
        with pytest.raises(MalformedInputError, match=limit):
            loads(text)
    with pytest.raises(MalformedInputError, match="duplicate key"):
        loads('{"a":1,"a":1}')


# -- small pathological texts ----------------------------------------------------------------
#
# A text of a few repeated characters, well under every limit, must still be read in time
# linear in its length: a pattern retried at every quote made ``'"' + '\\"' * n`` quadratic
# (13.6 s at 64 KB, over two minutes at 1 MiB). They run in a subprocess under a generous
# timeout, so that a quadratic path fails the test instead of hanging it; the times are
# measured and tallied, never asserted.

MIB = 1 << 20

ESCAPED_QUOTES = {
    "1 MiB of escaped quotes": ('"', '\\"', MIB - 2),
    "1 MiB of escaped quotes and a final backslash": ('"', '\\"' * (MIB // 2 - 1) + "\\",
                                                      MIB - 1),
}

WATCHDOG = 20.0
"""Seconds a 1 MiB text may take in the subprocess before it is reported as hung (a linear
read takes about a tenth of a second here; the quadratic one took minutes)."""

_READER = """
import json, signal, sys, time
from copa_ref.core import MalformedInputError
from copa_ref.core.codec import loads

class Hung(Exception):
    pass

def hung(*_):
    raise Hung

signal.signal(signal.SIGALRM, hung)
results = []
for prefix, unit, size in json.loads(sys.stdin.read()):
    text = prefix + unit * (size // len(unit))
    started = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, watchdog * size / (1 << 20) + 2)
    try:
        loads(text)
        verdict = "read"
    except MalformedInputError as exc:
        verdict = str(exc)
    except Hung:
        verdict = "hung"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    results.append([time.perf_counter() - started, verdict[:200]])
print(json.dumps(results))
""".replace("watchdog", repr(WATCHDOG))


def _read_in_subprocess(texts: list[tuple[str, str, int]],
                        timeout: float) -> list[tuple[float, str]]:
    """``(seconds, verdict)`` of :func:`loads` on each text ``prefix + unit * (size //
    len(unit))``, in a fresh interpreter: ``"hung"`` for a text that took more than
    :data:`WATCHDOG` seconds a MiB (plus two); the whole batch must end within *timeout* seconds."""
    done = subprocess.run([sys.executable, "-c", _READER], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return [(seconds, verdict) for seconds, verdict in json.loads(done.stdout)]


def test_escaped_quotes_read_in_linear_time() -> None:
    """1 MiB of unterminated escaped quotes, with and without a final backslash, is refused
    as an unterminated string (about a tenth of a second here; more than two minutes
    before)."""
    results = _read_in_subprocess(list(ESCAPED_QUOTES.values()), timeout=120)
    for (seconds, verdict), name in zip(results, ESCAPED_QUOTES, strict=True):
        assert "Unterminated string" in verdict, (name, verdict)
        assert verdict != "hung", name
        assert len(verdict) < 200
        TALLY[f"pathological text: {name} (ms, max)"] = max(
            TALLY[f"pathological text: {name} (ms, max)"], round(seconds * 1000))


ALPHABET = '"\\[]{}:,0-e. '
"""The characters of the repeated units: JSON's structure, escapes, number parts."""

PREFIXES = ("", '"', '["', '{"', "[", '{"a":', "0")
"""What comes before the repetition: outside a value, in a string, in a list or an object."""

REPEATED = 64 << 10
"""The length of every repeated text: 64 KiB, where the quadratic path took 13.6 s (each
may take 3 s before it is reported as hung)."""


def _pathological() -> list[tuple[str, str, int]]:
    """Every unit of one to three characters of :data:`ALPHABET` repeated to 64 KiB after
    each of :data:`PREFIXES` (a tenth of them, seeded, outside the long run): ``(prefix,
    unit, length)``."""
    units = ["".join(chars) for size in (1, 2, 3)
             for chars in itertools.product(ALPHABET, repeat=size)]
    texts = [(prefix, unit, REPEATED) for unit in units for prefix in PREFIXES]
    if not LONG:
        texts = random.Random(21).sample(texts, len(texts) // 10)
    return texts


def test_small_pathological_texts() -> None:
    """Texts of a few repeated characters (an unterminated string of escapes, runs of
    brackets, quotes, digits, separators) are each read or refused in linear time: the
    whole batch in a subprocess that a quadratic path would keep far beyond its timeout."""
    texts = _pathological()
    for start in range(0, len(texts), 500):
        batch = texts[start:start + 500]
        results = _read_in_subprocess(batch, timeout=300)
        for text, (seconds, verdict) in zip(batch, results, strict=True):
            assert verdict == "read" or "JSON" in verdict, (text[:2], verdict)
            TALLY["pathological texts (64 KiB)"] += 1
            TALLY["pathological texts: slowest (ms)"] = max(
                TALLY["pathological texts: slowest (ms)"], round(seconds * 1000))
