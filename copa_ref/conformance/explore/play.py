"""Seeded reference games for an exploration, steered towards the rules seen least.

The reference chooses every move (chance included). Unsteered, a move is the reference's
uniformly random action. Steered, a few random candidates are drawn at each node and the
one whose step exercises the rules seen least so far is taken (the record's ``events`` tag
each step with its rules); a step that exercises a rule to *avoid* (one already found
broken, when the engine cannot be put back on the reference's position) scores far
below any other. Either way, the same seed plays the same game.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Collection
from typing import Any

import attrs

from copa_ref.conformance.cases import plain as _plain
from copa_ref.conformance.explore.situations import step_rules
from copa_ref.conformance.observables import CORPUS_VERSION, ActionTexts, observables
from copa_ref.conformance.registry import record_of
from copa_ref.core import JSON

__all__ = ["CANDIDATES", "Played", "play", "rule_key", "trace_case"]

CANDIDATES = 4
"""How many random candidates a steered move is chosen from."""

UNSTEERED = 0.25
"""The share of steered moves taken uniformly at random all the same (so that steering
never shuts out a branch)."""


def rule_key(rule: str) -> tuple[str, int]:
    """The order of rule IDs: by prefix, then by number (``KALA-9`` before ``KALA-10``)."""
    prefix, _, number = rule.partition("-")
    return prefix, int(number) if number.isdigit() else 0


@attrs.frozen
class Played:
    """A reference game: its actions, its states (``states[i]`` before action i) and the
    rules each step exercises (``tags[i]``: the step of action i)."""

    game: Any
    config: Any
    actions: tuple[Any, ...]
    states: tuple[Any, ...]
    tags: tuple[frozenset[str], ...]

    @property
    def over(self) -> bool:
        """Whether the game reached its end (not cut at the step limit)."""
        return bool(self.game.to_move(self.states[-1]).is_over)


def play(game: Any, config: Any, rng: random.Random, max_steps: int, *,
         seen: Counter[str] | None = None, avoid: Collection[str] = (),
         prefer: Collection[str] = (), deadline: float | None = None) -> Played:
    """A reference game under *config* of at most *max_steps* actions.

    :param seen: how often each rule was exercised so far; given, the moves are steered
        towards the rules seen least (and the counter is updated as the game goes).
    :param avoid: rules a steered move stays away from where it can.
    :param prefer: rules a steered move goes for first (a shrink looking for one rule).
    :param deadline: past it (``time.monotonic()``) the game is cut where it is.
    """
    state = game.new_game(config)
    states = [state]
    actions: list[Any] = []
    tags: list[frozenset[str]] = []
    local: Counter[str] = Counter() if seen is None else seen
    while not game.to_move(state).is_over and len(actions) < max_steps:
        if deadline is not None and time.monotonic() >= deadline:
            break
        action = game.random_action(state, rng)
        after = game.apply(state, action)
        rules = step_rules(game, state, action, after)
        if seen is not None and rng.random() >= UNSTEERED:
            best = _score(rules, local, avoid, prefer)
            for _ in range(CANDIDATES - 1):
                other = game.random_action(state, rng)
                if other == action:
                    continue
                other_after = game.apply(state, other)
                other_rules = step_rules(game, state, other, other_after)
                score = _score(other_rules, local, avoid, prefer)
                if score > best:
                    best, action, after, rules = score, other, other_after, other_rules
        if seen is not None:
            local.update(rules)
        actions.append(action)
        states.append(after)
        tags.append(rules)
        state = after
    return Played(game, config, tuple(actions), tuple(states), tuple(tags))


def _score(rules: frozenset[str], seen: Counter[str], avoid: Collection[str],
           prefer: Collection[str]) -> float:
    score = sum(1.0 / (1 + seen[r]) for r in rules)
    if any(r in prefer for r in rules):
        score += 1000.0
    if any(r in avoid for r in rules):
        score -= 10_000.0
    return score


def trace_case(played: Played, case_id: str, description: str, start: int = 0,
               stop: int | None = None) -> dict[str, JSON]:
    """The trace case of the steps ``start+1 .. stop`` of *played* (a corpus case, the
    shape ``conformance/schema/corpus.schema.json`` describes). With ``start > 0`` the case
    begins from the reference's own position after *start* actions (``"state"``; it needs
    the engine feature ``load_state``)."""
    game = played.game
    stop = len(played.actions) if stop is None else stop
    rules = set().union(*played.tags[start:stop]) if stop > start else set()
    prefix = game.prefix
    rules = {r for r in rules if r.startswith(prefix + "-")}
    record = record_of(game.name)
    if not rules and record is not None:
        rules = {r for r in record.whole_game_rules if r.startswith(prefix + "-")}
    from copa_ref.conformance.observables import options_of

    case: dict[str, JSON] = {
        "id": case_id,
        "kind": "trace",
        "game": game.name,
        "corpus_version": CORPUS_VERSION,
        "description": description,
        "rules": sorted(rules, key=rule_key),
        "config": _plain(game.to_json(played.config)),
        "options": options_of(game, played.config),
        "features": [],
    }
    if start:
        case["features"] = ["load_state"]
        case["state"] = _plain(game.to_json(played.states[start]))
    # The converter's JSON is what JSON text reads back as; an action's JSON is encoded
    # once for the whole case (shared by its steps and listings).
    texts = ActionTexts(game)
    case["initial"] = observables(game, played.states[start], texts)
    case["steps"] = [
        {"action": texts(a)[0], "expect": observables(game, s, texts)}
        for a, s in zip(played.actions[start:stop], played.states[start + 1:stop + 1],
                        strict=True)
    ]
    return case
