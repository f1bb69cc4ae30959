"""Judging what an engine reports: readable diffs, and the rule a difference breaks.

The game's own invariants are applied to the engine's reports. Where the public view is the
whole state (perfect information: the game's observation type is its state type), the
reported view is decoded with the game's strict codec and checked with ``check_state`` and
the step invariants; the game's conformance record (its ``check_public``) may add checks of
the public view for games with hidden information (cards that must add up, say).
"""

from __future__ import annotations

from typing import Any

from copa_ref.core import (
    JSON,
    InvariantViolation,
    MalformedInputError,
    RuleViolation,
    canonical_json,
)
from copa_ref.core.codec import clip, excerpt, structure
from copa_ref.core.replay import BAD_DATA, replay

__all__ = ["broken_rule", "json_diff", "out_of_range", "reference_refusal", "shown"]



MAX_INTEGER = 2**53
"""The largest integer magnitude a report may hold (every JSON reader keeps it exact)."""

MAX_DEPTH = 64
"""The deepest nesting a report may have."""


SHOWN = 600
"""The longest quotation of a value in a message, in characters (the cut marked ``...``)."""

DIFFED = 200
"""The longest quotation of a value in a line of a diff."""


def shown(value: object, *, bare: bool = False, limit: int = SHOWN) -> str:
    """A value as an engine author reads it: its canonical JSON (``null``, not ``None``);
    with *bare*, a string without its quotes. At most *limit* characters, control
    characters escaped, whatever the value's size."""
    if bare and isinstance(value, str):
        return clip(value, limit)
    if isinstance(value, str) and len(value) > limit:
        value = value[: limit + 1]  # no need to encode a megabyte to show 600 characters
    try:
        return clip(canonical_json(value), limit)
    except (TypeError, ValueError, RecursionError):
        return excerpt(value, limit)


def out_of_range(value: object) -> str | None:
    """What makes a reported value unjudgeable (an integer beyond ``2**53``, nesting deeper
    than 64 levels, a float that is not finite), or ``None``."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"values nested deeper than {MAX_DEPTH} levels"
        if isinstance(item, bool) or item is None or isinstance(item, str):
            continue
        if isinstance(item, int):
            if abs(item) > MAX_INTEGER:
                return f"an integer out of range ({str(item)[:20]}...)"
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                return "a number that is not finite"
        elif isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return None


def json_diff(expected: JSON, actual: JSON, path: str = "", limit: int = 12) -> list[str]:
    """The differing leaves of two JSON values as ``path: expected X, got Y`` lines, each
    value and path quoted in at most :data:`DIFFED` characters."""
    lines: list[str] = []

    def walk(exp: JSON, act: JSON, where: str) -> None:
        if len(lines) >= limit:
            return
        if isinstance(exp, dict) and isinstance(act, dict):
            for key in sorted(set(exp) | set(act)):
                sub = f"{where}.{key}" if where else key
                if key not in act:
                    lines.append(f"{clip(sub, DIFFED)}: expected "
                                 f"{shown(exp[key], limit=DIFFED)}, missing")
                elif key not in exp:
                    lines.append(f"{clip(sub, DIFFED)}: unexpected "
                                 f"{shown(act[key], limit=DIFFED)}")
                else:
                    walk(exp[key], act[key], sub)
            return
        if isinstance(exp, list) and isinstance(act, list) and len(exp) == len(act):
            for i, (e, a) in enumerate(zip(exp, act, strict=True)):
                walk(e, a, f"{where}[{i}]")
            return
        if canonical_json(exp) != canonical_json(act):
            lines.append(f"{clip(where, DIFFED) or '(value)'}: expected "
                         f"{shown(exp, limit=DIFFED)}, got {shown(act, limit=DIFFED)}")

    walk(expected, actual, path)
    return lines



def _step_violation(game: Any, before: JSON | None, action: JSON | None,
                    after_state: Any) -> InvariantViolation | None:
    """The step invariant the reported transition breaks, if it can be replayed at all.

    When the earlier view or the action cannot be decoded there is no step to check (the
    state checks of :func:`broken_rule` still apply), so ``None`` is returned.
    """
    if before is None or action is None:
        return None
    try:
        before_state = game.state_from_json(before)
        decoded = game.action_from_json(action)
    except BAD_DATA:
        return None
    try:
        game.check_invariants(before_state, decoded, after_state)
    except InvariantViolation as exc:
        return exc
    except BAD_DATA:
        return None
    return None


def broken_rule(game: Any, hook: Any, before: JSON | None, action: JSON | None,
                after: JSON) -> tuple[str | None, str] | None:
    """The rule the reported public view *after* breaks (reached from *before* by *action*,
    when given), as ``(rule, message)``; ``None`` when every check passes.

    :param hook: the conformance record's ``check_public(before, action, after)`` or ``None``.
    """
    if hook is not None:
        try:
            hook(before, action, after)
        except InvariantViolation as exc:
            return exc.rule, exc.message
        except BAD_DATA as exc:
            return None, f"the reported public view is malformed: {type(exc).__name__}: {exc}"
    if game.observation_type is not game.state_type:
        return None
    try:
        after_state = structure(game.converter, after, game.state_type, "reported state")
    except MalformedInputError as exc:
        return None, f"the reported state is malformed: {exc}"
    # The step invariants first: they name the most specific rule.
    step = _step_violation(game, before, action, after_state)
    if step is not None:
        return step.rule, step.message
    try:
        game.check_state(after_state)
    except RuleViolation as exc:
        return exc.rule, f"the reported state is impossible: {exc.message}"
    except MalformedInputError as exc:
        return None, f"the reported state is malformed: {exc}"
    return None


def reference_refusal(game: Any, config: JSON, actions: list[JSON], action: JSON) -> str | None:
    """The rule under which the reference refuses *action* after *actions* (``None`` when it
    accepts it or the history cannot be replayed)."""
    try:
        state = replay(game, game.config_from_json(config), actions)[-1]
        candidate = game.action_from_json(action)
    except BAD_DATA:
        return None
    try:
        game.apply(state, candidate)
    except RuleViolation as exc:
        return exc.rule
    except BAD_DATA:
        return None
    return None
