"""Building corpus cases, shared by the generator (:mod:`~copa_ref.conformance.generate`)
and the explorer (:mod:`copa_ref.conformance.explore`): plain JSON (:func:`plain`), the
head of a case (:func:`base_case`), the candidate refusals made by mutating legal actions
(:func:`mutations`, from a pool of actions seen, :func:`remember`), the reference's verdict
on one (:func:`refused`) and its rejection case (:func:`rejection_case`).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from copa_ref.conformance.observables import (
    CORPUS_VERSION,
    observables,
    options_of,
    sorted_actions,
)
from copa_ref.core import JSON, MoverKind, RuleViolation, canonical_json

__all__ = ["Case", "base_case", "mutations", "plain", "refused", "rejection_case", "remember"]

Case = dict[str, JSON]


def plain(value: JSON) -> JSON:
    """The JSON value as it reads back from text (tuples become lists)."""
    return json.loads(json.dumps(value))


def base_case(game: Any, kind: str, slug: str, description: str,
              rules: set[str] | tuple[str, ...], config: Any) -> Case:
    """The head every case has: its ID, kind, game, version, description, rules (in
    order) and config."""
    ordered = sorted(set(rules), key=lambda r: (r.split("-")[0], int(r.split("-")[1])))
    return {
        "id": f"{game.name}/{kind}/{slug}",
        "kind": kind,
        "game": game.name,
        "corpus_version": CORPUS_VERSION,
        "description": description,
        "rules": ordered,
        "config": plain(game.to_json(config)),
        "options": options_of(game, config),
        "features": [],
    }


def _leaves(value: JSON, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], JSON]]:
    if isinstance(value, dict):
        for key in sorted(value):
            if key not in ("type", "seat"):
                yield from _leaves(value[key], (*path, key))
    elif isinstance(value, list):
        yield path, value
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    else:
        yield path, value


def _replace(value: JSON, path: tuple[Any, ...], new: JSON) -> JSON:
    result = copy.deepcopy(value)
    if not path:
        return new
    target = result
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return result


def _key(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) if isinstance(p, str) else "n" for p in path)


def mutations(game: Any, state: Any, rng: random.Random, pool: dict[str, JSON],
              strings: dict[str, list[str]]) -> Iterator[tuple[str, str, JSON]]:
    """Candidate illegal actions at *state*: ``(kind, note, action JSON)``."""
    mover = game.to_move(state)
    players = game.num_players(state.config) if hasattr(state, "config") else 2
    if mover.kind is MoverKind.NOBODY:
        for typ, sample in pool.items():
            yield "after-the-end", f"a {typ} action after the game has ended", sample
            if "seat" in sample:
                other = (sample["seat"] + 1) % players
                yield ("order-over-before-seat", f"a {typ} action of seat {other} after the "
                       "game has ended", {**sample, "seat": other})
        return
    if mover.kind is MoverKind.CHANCE:
        bases = [plain(game.to_json(game.sample_chance(state, rng)))]
    elif mover.kind is MoverKind.JOINT:
        parts = [game.legal_actions(state, s) for s in mover.seats]
        bases = [plain(game.to_json(game.joint(state, tuple(p[0] for p in parts))))]
        for part in parts:
            yield "lone-part", "one seat's part applied alone", plain(game.to_json(part[0]))
    else:
        bases = sorted_actions(game, game.legal_actions(state, None))[:3]
        bases = [plain(b) for b in bases]
    legal_types = {b["type"] for b in bases}
    seat = mover.seats[0] if mover.seats else None
    for base in bases[:1]:
        for path, leaf in _leaves(base):
            if path and not isinstance(leaf, str):
                yield "malformed", f"{_key(path)} given as a string", _replace(
                    base, path, "nonsense")
                break
        if "seat" in base:
            other = (base["seat"] + 1) % players
            for path, leaf in _leaves(base):
                if isinstance(leaf, int) and not isinstance(leaf, bool):
                    yield ("order-seat-before-value",
                           f"seat {other} instead of seat {base['seat']}, and {_key(path)} "
                           f"{leaf} -> {leaf + 1}",
                           _replace({**base, "seat": other}, path, leaf + 1))
                    break
            for typ, sample in pool.items():
                if typ not in legal_types and "seat" in sample:
                    yield ("order-seat-before-phase",
                           f"a {typ} action of seat {other} where seat {base['seat']} is to "
                           f"{', '.join(sorted(legal_types))}", {**sample, "seat": other})
                    break
    for base in bases[:2]:
        if "seat" in base:
            for other in range(players):
                if other != base["seat"]:
                    yield "wrong-seat", f"seat {other} instead of seat {base['seat']}", {
                        **base, "seat": other}
    for typ, sample in pool.items():
        if typ not in legal_types:
            moved = dict(sample) if not isinstance(sample, dict) else {**sample}
            if "seat" in moved and seat is not None:
                moved["seat"] = seat
            yield f"{typ.replace('_', '-')}-at-the-wrong-moment", \
                f"a {typ} action where the rules want {', '.join(sorted(legal_types))}", moved
    for base in bases[:2]:
        for path, leaf in _leaves(base):
            name = _key(path).replace(".", "-").replace("_", "-") or "value"
            if isinstance(leaf, bool):
                yield f"flipped-{name}", f"{_key(path)} flipped", _replace(base, path, not leaf)
            elif isinstance(leaf, int):
                for delta in (1, -1):
                    yield f"changed-{name}", f"{_key(path)} {leaf} -> {leaf + delta}", \
                        _replace(base, path, leaf + delta)
            elif isinstance(leaf, str):
                for text in strings.get(_key(path), [])[:4]:
                    if text != leaf:
                        yield f"swapped-{name}", f"{_key(path)} {leaf} -> {text}", \
                            _replace(base, path, text)
            elif isinstance(leaf, list) and leaf:
                yield f"shortened-{name}", f"{_key(path)} one item shorter", \
                    _replace(base, path, leaf[:-1])
                yield f"lengthened-{name}", f"{_key(path)} one item longer", \
                    _replace(base, path, [*leaf, leaf[-1]])
            elif leaf is None:
                yield f"filled-{name}", f"{_key(path)} null -> 1", _replace(base, path, 1)


def remember(pool: dict[str, JSON], strings: dict[str, list[str]], action: JSON) -> None:
    """Keep *action* in the *pool* of samples by type, and its strings by field, for
    :func:`mutations`."""
    pool.setdefault(action["type"], action)
    for path, leaf in _leaves(action):
        if isinstance(leaf, str):
            seen = strings.setdefault(_key(path), [])
            if leaf not in seen:
                seen.append(leaf)


def rejection_case(game: Any, rule: str | None, message: str, kind: str, note: str,
                   data: JSON, where: str, trace: str, config: Any, seed: int,
                   prefix: list[Any], state: Any) -> Case:
    """The rejection case of the candidate *data* (``(kind, note)`` from
    :func:`mutations`), refused under *rule* (``None``: malformed) with *message*, after
    *prefix* of the game *where* (whose trace is *trace*) at *state*."""
    ply = len(prefix)
    if rule is None:
        slug = f"malformed/{where}-ply-{ply}"
        verdict = (f"It is no {game.title} action ({message}): the engine refuses it naming "
                   "no rule (\"rule\": null), and the position stays as it was.")
        rules: tuple[str, ...] = ("P-9",)
    else:
        slug = f"{rule}/{kind}/{where}-ply-{ply}"
        verdict = f"The reference refuses it under {rule}: {message}."
        rules = (rule,)
    if kind.startswith("order-"):
        verdict += (f" The action breaks more than one rule; {rule} comes first in the refusal "
                    f"order of specs/{game.name}.md.")
    description = (f"After {ply} actions of the game {where} (seed {seed}), {note}: "
                   f"{canonical_json(data)}. {verdict}")
    case = base_case(game, "rejection", slug, description, rules, config)
    case["prefix"] = plain([game.to_json(a) for a in prefix])
    case["trace"] = f"{game.name}/trace/{trace}"
    case["position"] = plain(observables(game, state))
    case["action"] = plain(data)
    case["rule"] = rule
    return case


def refused(game: Any, state: Any, kind: str, data: JSON) -> tuple[str | None, str] | None:
    """The reference's verdict on the candidate *data* of *kind* at *state*: ``(rule,
    message)`` when it refuses it under a rule, ``(None, message)`` when a ``malformed``
    candidate does not decode; ``None`` when the candidate is no refusal of its kind (legal,
    decoded where it should not, or refused as malformed where a rule was wanted)."""
    try:
        action = game.action_from_json(data)
    except ValueError as exc:
        return (None, str(exc)) if kind == "malformed" else None
    if kind == "malformed":
        return None
    try:
        game.apply(state, action)
    except RuleViolation as exc:
        return exc.rule, exc.message
    except (ValueError, TypeError):
        return None
    return None
