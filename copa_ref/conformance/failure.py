"""How a case fails (:class:`Failure`, raised inside a verdict as :class:`Stop`), the
corpus values' canonical texts (:class:`Known`) and the comparison of legal listings
(:func:`legal_lines`): the records every verdict shares, the traces'
(:mod:`~copa_ref.conformance.verdicts`) and the counts' (:mod:`~copa_ref.conformance.perft`)
alike. A leaf module of the verdicts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from copa_ref.core import JSON, canonical_json

__all__ = ["Failure", "Known", "Stop", "legal_lines"]


@attrs.frozen(kw_only=True)
class Failure:
    """How a case failed."""

    step: int | None
    """Where: 0 the initial position, k the position after the k-th action."""
    reason: str
    diff: str | None = None
    """What differs, line by line (with the rules that explain it)."""
    rule: str | None = None
    """The rule the engine breaks, when it can be named."""
    explanation: str | None = None
    """Another reading that reproduces every report of the engine, when one does."""
    action: JSON = None
    """The action a failed rejection offered (or a trace step the engine refused)."""


class Stop(Exception):
    """Ends a case at its first difference, carrying the :class:`Failure`."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.reason)
        self.failure = failure


class Known:
    """The canonical texts of the corpus's values, computed once per value (the positions
    along a rejection's prefix are its trace's, shared by many cases): kept with the value,
    so that its ``id`` stays its own. One for a whole run."""

    def __init__(self) -> None:
        self._texts: dict[tuple[int, Callable[[Any], Any]], tuple[Any, Any]] = {}

    def __call__(self, value: Any, make: Callable[[Any], Any] = canonical_json) -> Any:
        """``make(value)``, computed once for *value*."""
        key = (id(value), make)
        found = self._texts.get(key)
        if found is None:
            found = self._texts[key] = (value, make(value))
        return found[1]


def _fresh(value: Any, make: Callable[[Any], Any]) -> Any:
    return make(value)


def _text(actions: list[JSON]) -> list[str]:
    return sorted(map(canonical_json, actions))


def _listing(label: str, items: list[str]) -> str:
    more = f" (+{len(items) - 5} more)" if len(items) > 5 else ""
    return f"{label} {', '.join(items[:5])}{more}"


def legal_lines(seat: int | None, listed: list[JSON], wanted: list[JSON],
                lines: list[str], extra: dict[int | None, list[str]],
                known: Callable[[Any, Callable[[Any], Any]], Any] = _fresh) -> bool:
    """Compare the legal actions a seat's listing holds with the wanted ones; add the
    differences to *lines* and the extra actions to *extra*. Whether they differ.
    *known(value, make)* is ``make(value)`` for a wanted value (:class:`Known`).

    A listing in the wanted order is recognised by its text as a whole (one encoding, not
    one an action); any other order is compared action by action.
    """
    if listed is wanted or canonical_json(listed) == known(wanted, canonical_json):
        return False  # (the wanted listing itself: the engine's answer was its very line)
    got, want = _text(listed), known(wanted, _text)
    if got == want:
        return False
    label = "legal" if seat is None else f"legal(seat {seat})"
    missing = sorted(set(want) - set(got))
    extra[seat] = sorted(set(got) - set(want))
    if missing:
        lines.append(_listing(f"{label}: missing", missing))
    if extra[seat]:
        lines.append(_listing(f"{label}: extra", extra[seat]))
    if not missing and not extra[seat]:
        lines.append(f"{label}: duplicates in {len(got)} actions")
    return True
