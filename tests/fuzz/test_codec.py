"""The codec refuses every malformed input with ``MalformedInputError`` (or a config or
state that breaks a rule with its ``InvalidStateError``), accepts nothing it would not
write itself, and stays cheap on large inputs."""

from __future__ import annotations

import functools
import json
import random
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


def _cost(call: Any, traced: bool) -> tuple[float, int]:
    """CPU seconds (untraced: other processes on the machine do not count) and, where
    *traced*, peak bytes of *call*, which must refuse. The best of two timed calls: the
    first may also pay one-time costs (the converter's generated hooks, a collection)."""
    seconds = float("inf")
    for _ in range(2):
        started = time.process_time()
        with pytest.raises(MalformedInputError):
            call()
        seconds = min(seconds, time.process_time() - started)
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
    """No input of 1 MB or more costs more than a second or 100 MB, and every message is
    bounded."""
    seconds, peak = _cost(LARGE[name], traced=LONG or name not in UNTRACED_IN_CI)
    TALLY["large inputs"] += 1
    assert seconds < 1.0, f"{name}: {seconds:.2f} s"
    assert peak < 100 * MB, f"{name}: {peak / MB:.0f} MB"


def test_limits_are_named() -> None:
    """A refusal for size, depth or integer length names the limit it hit."""
    for text, limit in (("x" * (LIMITS.max_length + 1), "max_length"),
                        ("[" * 40 + "]" * 40, "max_depth"), ("1" * 40, "max_int_digits")):
        with pytest.raises(MalformedInputError, match=limit):
            loads(text)
    with pytest.raises(MalformedInputError, match="duplicate key"):
        loads('{"a":1,"a":1}')
