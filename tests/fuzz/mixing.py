"""States near the edge of each game's state space, and what a valid one must do.

:func:`reachable` plays seeded random games of every config the adapters' tests play (each
value of each option once) and keeps the states they pass through. :func:`candidates`
makes states from them that play may never reach: fields of two reachable states mixed,
one integer somewhere perturbed (by one, by ten, to a bound), one tuple's items dropped,
duplicated or swapped, one enum field set to another member. :func:`exercise` holds a
state that ``check_state`` accepts to the claim of each spec's "State invariant": every
public function answers it (or refuses with a rule error), and every legal step from it
leads to a state that passes ``check_state`` and the step invariants.
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Iterator
from typing import Any

import attrs

from copa_ref.core import MoverKind
from copa_ref.core.errors import MalformedInputError, RuleViolation
from copa_ref.games import GAMES
from tests.adapters.configs import option_configs

AnyState = Any

DELTAS = (-1, 1, -2, 2, 10, -10, 11, 2**31, -(2**31), 2**62)
"""How far :func:`candidates` moves one integer."""


@functools.cache
def reachable(name: str, games: int, seed: int = 0) -> tuple[AnyState, ...]:
    """The states of *games* seeded random games of *name* for each option config (each
    game cut at 600 steps), in the order played."""
    game = GAMES[name]
    rng = random.Random(f"mixing-{name}-{seed}")
    found: list[AnyState] = []
    for _, config in option_configs(name):
        for _ in range(games):
            state = game.new_game(config)
            found.append(state)
            for _ in range(600):
                if game.to_move(state).is_over:
                    break
                state = game.apply(state, game.random_action(state, rng))
                found.append(state)
    return tuple(found)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every part of *value* (an attrs instance, tuples, ints, enums) with its path."""
    yield path, value
    if attrs.has(type(value)):
        for f in attrs.fields(type(value)):
            yield from _paths(getattr(value, f.name), (*path, f.name))
    elif type(value) is tuple:
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """*value* with the part at *path* replaced by *new* (a new object; no checks)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if type(head) is str:
        return attrs.evolve(value, **{head: _replace(getattr(value, head), rest, new)})
    items = list(value)
    items[head] = _replace(items[head], rest, new)
    return tuple(items)


def mutate(state: AnyState, pool: tuple[AnyState, ...], rng: random.Random) -> AnyState:
    """*state* changed in one way (see the module's text)."""
    how = rng.randrange(4)
    if how == 0:  # mix: some top-level fields from another reachable state
        other = rng.choice(pool)
        names = [f.name for f in attrs.fields(type(state)) if f.name != "config"]
        if type(other) is not type(state) or getattr(other, "config", None) != getattr(
                state, "config", None):
            names = [n for n in names if n != "config"]
        chosen = rng.sample(names, rng.randint(1, min(3, len(names))))
        return attrs.evolve(state, **{n: getattr(other, n) for n in chosen})
    parts = [(p, v) for p, v in _paths(state) if p and p[0] != "config"]
    if how == 1:  # perturb an integer
        ints = [(p, v) for p, v in parts if type(v) is int]
        if ints:
            path, number = rng.choice(ints)
            new = rng.choice((number + rng.choice(DELTAS), rng.randint(-2, 12), 0, 20, 51))
            return _replace(state, path, new)
    if how == 2:  # a tuple's items dropped, duplicated or swapped
        tuples = [(p, v) for p, v in parts if type(v) is tuple and v]
        if tuples:
            path, old = rng.choice(tuples)
            items = list(old)
            k = rng.randrange(len(items))
            choice = rng.randrange(3)
            if choice == 0:
                del items[k]
            elif choice == 1:
                items.insert(rng.randrange(len(items) + 1), items[k])
            else:
                j = rng.randrange(len(items))
                items[k], items[j] = items[j], items[k]
            return _replace(state, path, tuple(items))
    enums = [(p, v) for p, v in parts if isinstance(v, enum.Enum)]
    if enums:
        path, member = rng.choice(enums)
        return _replace(state, path, rng.choice(list(type(member))))
    return state


def candidates(name: str, count: int, seed: int, pool_games: int) -> Iterator[AnyState]:
    """*count* states made from reachable ones by one to three :func:`mutate` steps."""
    pool = reachable(name, pool_games)
    rng = random.Random(f"candidates-{name}-{seed}")
    for _ in range(count):
        state = rng.choice(pool)
        for _ in range(rng.randint(1, 3)):
            state = mutate(state, pool, rng)
        yield state


def accepted(name: str, state: AnyState) -> bool:
    """Whether ``check_state`` accepts *state* (it must refuse in words, never crash)."""
    try:
        GAMES[name].check_state(state)
    except (MalformedInputError, RuleViolation):
        return False
    return True


def _seats(game: Any, state: AnyState) -> list[Any]:
    return [None, *range(game.num_players(state.config))]


def exercise(name: str, state: AnyState, rng: random.Random, steps: int = 6) -> int:
    """Call every public function on *state*, which ``check_state`` accepts, and apply up
    to *steps* of its legal actions; return the number of calls made.

    :raises AssertionError: a function raised anything but a rule error, a legal action
        was refused, or a state after a legal step breaks ``check_state`` or a step
        invariant.
    """
    game = GAMES[name]
    calls = 0

    def call(what: str, f: Any, *args: Any) -> Any:
        nonlocal calls
        calls += 1
        try:
            return f(*args)
        except RuleViolation:
            return None
        except Exception as exc:
            msg = f"{name} {what} raised {type(exc).__name__}: {exc} on {game.dumps(state)}"
            raise AssertionError(msg) from exc

    mover = call("to_move", game.to_move, state)
    call("outcome", game.outcome, state)
    for seat in _seats(game, state):
        call("observe", game.observe, state, seat)
        call("legal_actions", game.legal_actions, state, seat)
        if game.svg is not None:
            call("svg", game.svg, state, seat)
    back = call("codec", lambda: game.state_from_json(game.to_json(state)))
    assert back == state, f"{name}: the codec round trip changed {game.dumps(state)}"
    if mover is None or mover.is_over:
        return calls
    if mover.is_chance:
        call("sample_chance", game.sample_chance, state, rng)
        if game.chance_outcomes is not None:
            outcomes = call("chance_outcomes", game.chance_outcomes, state)
            if outcomes is not None:
                assert sum(p for _, p in outcomes) == 1, f"{name}: chances do not sum to 1"
    actions: list[Any] = []
    if mover.kind in (MoverKind.SEAT, MoverKind.ANY):
        actions = list(call("legal_actions", game.legal_actions, state, None) or ())
        if not actions:
            msg = f"{name}: no legal action for {mover} at {game.dumps(state)}"
            raise AssertionError(msg)
    rng.shuffle(actions)
    if not actions:
        actions = [call("random_action", game.random_action, state, rng)]
    for action in actions[:steps]:
        if action is None:
            continue
        try:
            after = game.apply(state, action)
        except Exception as exc:
            msg = (f"{name}: legal action {game.dumps(action)} raised {type(exc).__name__}: "
                   f"{exc} at {game.dumps(state)}")
            raise AssertionError(msg) from exc
        calls += 1
        after = attrs.evolve(after)  # a fresh, unmarked object: checked in full
        try:
            game.check_state(after)
            game.check_invariants(state, action, after)
        except Exception as exc:
            msg = (f"{name}: after {game.dumps(action)} from {game.dumps(state)}: "
                   f"{type(exc).__name__}: {exc}")
            raise AssertionError(msg) from exc
    return calls

