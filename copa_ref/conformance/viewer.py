"""The case viewer: every corpus case as a sequence of positions a reader steps through.

The rule book (``docs/``) has one viewer page per corpus case, at :func:`viewer_path`; a
failure reported by the conformance runner names that page and the step where the reader
sees the position the case expects. Step ``k`` is the position after the case's first ``k``
actions (step 0: before any); for a rejection or count case, the position after its prefix,
where the refused action is tried or the counting starts.

Nothing here knows a game: a case is replayed through the reference (``Game.apply``) from
its config, and each position is drawn by the game's ``Game.svg``. The observables shown (who
moves, the legal actions, the outcome) are the case's own where it states them, else the
reference's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from copa_ref.conformance.corpus import CORPUS_DIR
from copa_ref.conformance.observables import observables
from copa_ref.core import JSON, Misreading, canonical_json, misread

__all__ = [
    "Frame",
    "action_words",
    "frames",
    "load_cases",
    "rule_step",
    "viewer_path",
]

AnyGame = Any
Case = dict[str, Any]


def viewer_path(case_id: str, step: int | None = None) -> str:
    """The viewer page of a case (and a step of it) in the built rule book, relative to the
    site's root: ``cases/kala/trace/bonus-of-five.html#step-3``.

    :param case_id: the case's ID, as the corpus gives it.
    :param step: the number of the case's actions applied (0: the starting position); the
        runner's failing step. ``None`` names the page alone.
    """
    page = f"cases/{case_id}.html"
    return page if step is None else f"{page}#step-{step}"


@attrs.frozen
class Frame:
    """One position of a case, as the viewer shows it."""

    step: int
    """The number of the case's actions applied to reach it."""
    state: Any
    """The reference's state there."""
    action: JSON
    """The action that led here (``None`` at step 0)."""
    observed: dict[str, JSON]
    """Who moves, the legal actions (``legal``/``legal_by_seat``) and the outcome there."""
    refused: JSON = None
    """For a rejection case's last frame: the action the rules refuse here."""
    rule: str | None = None
    """The rule that refuses it."""


def load_cases(root: Path = CORPUS_DIR) -> list[Case]:
    """Every case in the corpus at *root* (``cases/<game>/*.json``), in file and case order.

    Read generically: any file whose JSON has a ``cases`` list is read, whatever its kind,
    except the ``config`` cases: a config ``new_game`` refuses has no position to show.
    """
    cases: list[Case] = []
    for path in sorted((root / "cases").glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("cases"), list):
            cases.extend(c for c in data["cases"] if isinstance(c, dict) and "id" in c
                         and c.get("kind") != "config")
    return cases


def _start(game: AnyGame, case: Case) -> Any:
    """The case's starting state: a state it gives (``state``/``start``), else the new game
    of its config."""
    for key in ("state", "start"):
        if isinstance(case.get(key), dict):
            return game.state_from_json(case[key])
    return game.new_game(game.config_from_json(case["config"]))


def _script(case: Case) -> tuple[list[JSON], list[dict[str, JSON] | None]]:
    """The case's actions and, per position 0..n, what it expects there (or ``None``)."""
    if isinstance(case.get("steps"), list):
        actions = [step["action"] for step in case["steps"]]
        expect = [case.get("initial"), *(step.get("expect") for step in case["steps"])]
        return actions, expect
    actions = list(case.get("prefix") or [])
    return actions, [*([None] * len(actions)), case.get("position")]


def _observed(game: AnyGame, state: Any, expected: dict[str, JSON] | None) -> dict[str, JSON]:
    source = expected if isinstance(expected, dict) else observables(game, state)
    return {key: source.get(key) for key in ("to_move", "legal", "legal_by_seat", "outcome")}


def frames(game: AnyGame, case: Case) -> list[Frame]:
    """The positions of *case*, replayed through the reference *game*.

    :raises ~copa_ref.core.errors.RuleViolation: when the reference refuses one of the case's
        actions (the corpus is stale).
    """
    actions, expect = _script(case)
    state = _start(game, case)
    result = [Frame(0, state, None, _observed(game, state, expect[0]))]
    for step, data in enumerate(actions, 1):
        state = game.apply(state, game.action_from_json(data))
        result.append(Frame(step, state, data, _observed(game, state, expect[step])))
    if case.get("kind") == "rejection":
        result[-1] = attrs.evolve(result[-1], refused=case.get("action"), rule=case.get("rule"))
    return result


def _walk(game: AnyGame, case: Case) -> Iterator[tuple[int, Any, JSON]]:
    """``(step, state, observables)`` along the case under *game*; stops where it refuses."""
    actions, _ = _script(case)
    state = _start(game, case)
    for step in range(len(actions) + 1):
        try:
            if step:
                state = game.apply(state, game.action_from_json(actions[step - 1]))
            seen = observables(game, state)
        except Exception:  # a misread game may fail in any way: that is a difference
            yield step, None, None
            return
        yield step, state, seen


def rule_step(game: AnyGame, case: Case, rule: str,
              misreadings: Iterable[Misreading] = ()) -> int | None:
    """The step of *case* where *rule* fires, or ``None`` when it does not.

    A rejection case's rule fires where its action is refused; an ending rule at the first
    step whose outcome names it; any other rule at the first step where a misreading of it
    (from *misreadings*: the game's catalogue, the kill-matrix mutants) reports differently
    from the reference — the step where the case catches an engine that misreads the rule.
    """
    steps = frames(game, case)
    if case.get("kind") == "rejection" and case.get("rule") == rule:
        return steps[-1].step
    for frame in steps:
        outcome = frame.observed.get("outcome")
        if isinstance(outcome, dict) and outcome.get("rule") == rule:
            return frame.step
    found: list[int] = []
    reference = [canonical_json(observables(game, f.state)) for f in steps]
    for misreading in misreadings:
        if misreading.rule != rule:
            continue
        for step, _, seen in _walk(misread(game, misreading), case):
            if seen is None or canonical_json(seen) != reference[step]:
                found.append(step)
                break
    return min(found, default=None)


def _square(value: JSON) -> str | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"[{value[0]}, {value[1]}]"
    return None


def _words(value: JSON) -> str:
    square = _square(value)
    if square is not None:
        return square
    if isinstance(value, list):
        if value and all(_square(v) for v in value):
            return " → ".join(str(_square(v)) for v in value)
        if value and all(isinstance(v, list) for v in value):
            sizes = sorted({len(v) for v in value if isinstance(v, list)})
            return f"{len(value)} of {'/'.join(map(str, sizes))}"
        return ", ".join("–" if v is None else _words(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_words(v)}" for k, v in sorted(value.items()))
    return str(value)


def action_words(action: JSON) -> str:
    """An action's JSON in words: who, what (its ``type``), and each other field
    (``seat 0: sow, path [0, 0] → [0, 1] → [0, 2] → [0, 3]``)."""
    if not isinstance(action, dict):
        return _words(action)
    kind = str(action.get("type", "action")).replace("_", " ")
    who = f"seat {action['seat']}: " if isinstance(action.get("seat"), int) else ""
    fields = {key: value for key, value in action.items() if key not in ("type", "seat")}
    if list(fields) == [action.get("type")]:
        return f"{who}{kind} {_words(next(iter(fields.values())))}"
    rest = [f"{key.replace('_', ' ')} {_words(value)}" for key, value in sorted(fields.items())]
    return f"{who}{kind}" + (f", {'; '.join(rest)}" if rest else "")
