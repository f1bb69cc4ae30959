"""Hypothesis strategies for hostile input: ill-typed Python values, actions with one field
(or one part of a field) made ill-typed, mutated JSON, and malformed engine lines.

The positions they are tried on come from seeded random playouts of every game
(:func:`positions`). Volumes are set by ``COPA_REF_FUZZ``: unset (CI) or ``long`` (the
opt-in long run, ten times the CI volume and more); see ``tests/fuzz/conftest.py``.
"""

from __future__ import annotations

import functools
import json
import os
import random
from typing import Any

import attrs
from hypothesis import strategies as st

from copa_ref.core import Game, MoverKind, canonical_json
from copa_ref.games import GAMES

AnyGame = Game[Any, Any, Any, Any]

LONG = os.environ.get("COPA_REF_FUZZ") == "long"
"""Whether this is the opt-in long run."""

GAME_NAMES = sorted(GAMES)

NOT_YET_HARDENED: dict[str, dict[str, str]] = {}
"""Games whose entry points do not yet meet the error hierarchy, by test (``"actions"``,
``"entry"``): their fuzz runs as a non-strict ``xfail``. Remove a game's entry once its
entry points check their input (``copa_ref.core.fields``)."""


def game_params(test: str) -> list[Any]:
    """Every registered game as a parameter; an expected failure where
    :data:`NOT_YET_HARDENED` says so for *test*."""
    import pytest

    return [pytest.param(name, marks=pytest.mark.xfail(
        reason=NOT_YET_HARDENED[name][test], strict=False))
        if test in NOT_YET_HARDENED.get(name, {}) else name for name in GAME_NAMES]


class Hostile:
    """A value whose comparisons, hash and repr all raise: nothing may touch it unguarded."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("compared a hostile value")

    def __hash__(self) -> int:
        raise RuntimeError("hashed a hostile value")

    def __repr__(self) -> str:
        raise RuntimeError("printed a hostile value")

    def __len__(self) -> int:
        raise RuntimeError("measured a hostile value")

    def __iter__(self) -> Any:
        raise RuntimeError("iterated a hostile value")


HUGE = 10**5000
"""An integer whose ``str`` raises (more than 4,300 digits)."""

ill_typed: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from([None, True, False, 0.5, 3.0, -0.0, float("nan"), float("inf"), "", "x",
                     "0", b"", b"\xff", [], {}, (), (0,), [0, 0], {"type": "sow"}, 2**63,
                     -(2**63) - 1, HUGE, -HUGE, 1j, frozenset(), object()]),
    st.builds(Hostile),
    st.integers(),
    st.floats(),
    st.text(max_size=4),
    st.lists(st.integers(-2, 5), max_size=3),
    st.tuples(st.integers(-2, 5), st.booleans()),
)
"""Values of the wrong type somewhere, or of the right type out of range."""


def mutated(value: Any) -> st.SearchStrategy[Any]:
    """*value* (an action) with one part replaced by an ill-typed value: a whole field, an
    item of a tuple field (recursively), a tuple made a list; or an unrelated value."""
    if attrs.has(type(value)):
        fields = [f.name for f in attrs.fields(type(value))]

        @st.composite
        def one_field(draw: Any) -> Any:
            name = draw(st.sampled_from(fields))
            part = draw(mutated(getattr(value, name)))
            return attrs.evolve(value, **{name: part})

        return st.one_of(one_field(), ill_typed)
    if type(value) is tuple and value:
        @st.composite
        def one_item(draw: Any) -> Any:
            index = draw(st.integers(0, len(value) - 1))
            part = draw(mutated(value[index]))
            return (*value[:index], part, *value[index + 1:])

        return st.one_of(one_item(), st.just(list(value)), ill_typed,
                         st.just((*value, value[0])), st.just(value[:-1]))
    return ill_typed


def some_action(game: AnyGame, state: Any, rng: random.Random) -> Any:
    """A legal action of *state* (a seat's part at a joint node, now and then), or ``None``
    at the end."""
    mover = game.to_move(state)
    if mover.kind is MoverKind.NOBODY:
        return None
    if mover.kind is MoverKind.JOINT and rng.random() < 0.2:
        return rng.choice(game.legal_actions(state, mover.seats[0]))
    return game.random_action(state, rng)


@functools.cache
def positions(name: str, count: int) -> tuple[Any, ...]:
    """*count* positions of the game *name*, from seeded random playouts (ends included),
    each paired with a legal action there (``None`` at the end)."""
    game = GAMES[name]
    rng = random.Random(f"fuzz-{name}")
    found: list[Any] = []
    while len(found) < count:
        state = game.new_game(game.default_config())
        steps = 0
        while len(found) < count and steps < 400:
            probe = some_action(game, state, rng)
            found.append((state, probe))
            if probe is None:
                break
            state = game.apply(state, game.random_action(state, rng))
            steps += 1
    return tuple(found)


# -- JSON -----------------------------------------------------------------------------------

JSON_SCALARS: tuple[Any, ...] = (None, True, False, 0, 1, 3, -1, 20, 0.5, 3.0, "", "x", "sow",
                                 "0", "Qc", "optional", [], {})
"""JSON values of every type, including right-looking ones of the wrong type."""

json_scalars = st.sampled_from(JSON_SCALARS)


def mutate_json(value: Any, rng: random.Random) -> Any:
    """*value* (a JSON value) with one change somewhere: a key dropped or added, a value of
    another JSON type, a list made ``""`` or ``{}``, an item dropped, added or changed."""
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        how = rng.randrange(4)
        result = dict(value)
        if how == 0:
            del result[key]
        elif how == 1:
            result[rng.choice(["extra", "type", "seat", key + "_"])] = rng.choice(JSON_SCALARS)
        elif how == 2:
            result[key] = mutate_json(value[key], rng)
        else:
            result[key] = rng.choice(JSON_SCALARS)
        return result
    if isinstance(value, list) and value:
        how = rng.randrange(6)
        if how <= 1:
            index = rng.randrange(len(value))
            return [*value[:index], mutate_json(value[index], rng), *value[index + 1:]]
        if how == 2:
            return value[:-1]
        if how == 3:
            return [*value, value[0]]
        return "" if how == 4 else {}
    return rng.choice((*JSON_SCALARS, [value]))


SEEDS = st.integers(0, 2**32)
"""Seeds of the mutations below: drawn by Hypothesis (reproducible, shrinkable to 0), the
mutation itself made by plain code, which is much cheaper than a fresh strategy a value."""


def mutated_json(value: Any) -> st.SearchStrategy[Any]:
    """JSON values like *value* with one change each (:func:`mutate_json`)."""
    return SEEDS.map(lambda seed: mutate_json(value, random.Random(seed)))


def mutate_text(text: str, rng: random.Random) -> str | bytes:
    """JSON text changed at the text level: cut short, a byte that is not UTF-8, a key
    written twice, nested deeply, an integer of thousands of digits, a ``NaN``."""
    how = rng.randrange(6)
    cut = rng.randrange(len(text) + 1)
    if how == 0:
        return text[:cut]
    if how == 1:
        return text[:cut].encode() + b"\xff" + text[cut:].encode()
    if how == 2:
        return text[:-1] + "," + text[1:-1] + "}" if text.startswith("{") else text + "x"
    if how == 3:
        depth = rng.randrange(33, 3000)
        return "[" * depth + text + "]" * depth
    if how == 4:
        return text.replace(":0", ":" + "9" * 4300, 1) if ":0" in text else "9" * 4301
    return text.replace(":", ": NaN, \"x\":", 1)


def seeds(game: AnyGame, count: int) -> list[tuple[str, Any, str]]:
    """``(what, class, canonical JSON)`` of real values: configs, states, actions and
    public observations from the positions."""
    found: list[tuple[str, Any, str]] = [
        ("config", game.config_type, game.dumps(game.default_config()))]
    for state, action in positions(game.name, count):
        found.append(("state", game.state_type, game.dumps(state)))
        found.append(("observation", game.observation_type, game.dumps(game.observe(state,
                                                                                 None))))
        if action is not None and type(action) in _action_classes(game):
            found.append(("action", game.action_type, game.dumps(action)))
    return found


def _action_classes(game: AnyGame) -> tuple[type, ...]:
    from typing import get_args

    return get_args(game.action_type) or (game.action_type,)


# -- engine lines ---------------------------------------------------------------------------


def requests(game: AnyGame) -> st.SearchStrategy[dict[str, Any]]:
    """Right-looking requests of every op, some with wrong fields."""
    config = game.to_json(game.default_config())
    action = json.loads(game.dumps(positions(game.name, 20)[3][1]))
    return st.one_of(
        st.just({"op": "start", "protocol": "1.0"}),
        st.just({"op": "new_game", "game": game.name, "config": config}),
        mutated_json(config).map(lambda c: {"op": "new_game", "game": game.name, "config": c}),
        st.just({"op": "apply", "action": action}),
        mutated_json(action).map(lambda a: {"op": "apply", "action": a}),
        st.builds(lambda s: {"op": "legal", "seat": s}, json_scalars),
        st.just({"op": "observe"}), st.just({"op": "export"}), st.just({"op": "undo"}),
        st.builds(lambda op: {"op": op}, json_scalars),
        st.just({"op": "new_game", "game": ["kala"], "config": {}}),
    )


def _bytes(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")


def lines(game: AnyGame) -> st.SearchStrategy[bytes]:
    """One line of engine input: a request as canonical JSON, or a malformed one."""
    text = requests(game).map(canonical_json)
    return st.one_of(
        text.map(str.encode),
        st.tuples(text, SEEDS).map(lambda ts: _bytes(mutate_text(ts[0], random.Random(ts[1])))),
        st.binary(max_size=40).map(lambda b: b.replace(b"\n", b" ")),
        st.just(b"[" * 100_000), st.just(b'{"op":"start","op":"stop"}'),
        st.just(b'"\\ud800"'), st.just(b'{"op":"legal","seat":' + b"7" * 5000 + b"}"),
    )
