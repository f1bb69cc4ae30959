"""Reports of a run: the JSON-lines report, the readable summary, the progress line."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import IO, Any

from copa_ref.conformance.checks import shown
from copa_ref.conformance.runner import CaseResult

__all__ = ["Tally", "by_rule", "describe_failure", "summary"]

STATUSES = ("passed", "failed", "errored", "skipped")


class Tally:
    """Counts of results by status, game and kind."""

    def __init__(self, loaded: int, selected: int) -> None:
        self.loaded = loaded
        self.selected = selected
        self.by_status: Counter[str] = Counter()
        self.by_game: dict[str, Counter[str]] = {}
        self.results: list[CaseResult] = []

    def add(self, result: CaseResult) -> None:
        """Count one result."""
        self.by_status[result.status] += 1
        self.by_game.setdefault(f"{result.game} {result.kind}", Counter())[result.status] += 1
        self.results.append(result)

    @property
    def done(self) -> int:
        """Results counted so far."""
        return sum(self.by_status.values())

    @property
    def run(self) -> int:
        """Cases run (not skipped)."""
        return self.done - self.by_status["skipped"]

    @property
    def ok(self) -> bool:
        """True when nothing failed or errored."""
        return not (self.by_status["failed"] or self.by_status["errored"])

    def footer(self, requests: int, seconds: float) -> dict[str, Any]:
        """The footer line of the JSON-lines report."""
        return {"type": "footer", "loaded": self.loaded, "selected": self.selected,
                "run": self.run, **{s: self.by_status[s] for s in STATUSES},
                "requests": requests, "seconds": round(seconds, 3)}

    def progress_line(self) -> str:
        """A one-line progress display."""
        parts = " ".join(f"{s} {self.by_status[s]}" for s in STATUSES if self.by_status[s])
        return f"[{self.done}/{self.selected}] {parts}"


def describe_failure(result: CaseResult) -> str:
    """A readable block for a failed, errored or skipped case."""
    head = f"{result.status.upper()} {result.id}"
    lines = [head, f"  rules: {', '.join(result.rules)}"]
    if result.broken_rule:
        lines.append(f"  broken rule: {result.broken_rule}")
    if result.explanation:
        lines.append(f"  {result.explanation}")
    if result.viewer:
        lines.append(f"  see the expected position: {result.viewer} (in the built rule book)")
    if result.step is not None:
        lines.append(f"  at step {result.step}")
    if result.reason:
        lines.append(f"  {result.reason}")
    if result.action is not None:
        lines.append(f"  action: {shown(result.action)}")
    if result.diff:
        lines.extend("    " + line for line in result.diff.splitlines())
    return "\n".join(lines)


def by_rule(results: Iterable[CaseResult]) -> dict[str, list[CaseResult]]:
    """The failed and errored results grouped by the broken rule named (``(no rule)`` and
    ``(errored)`` last), the most frequent rule first."""
    groups: dict[str, list[CaseResult]] = {}
    for result in results:
        if result.status == "failed":
            groups.setdefault(result.broken_rule or "(no rule)", []).append(result)
        elif result.status == "errored":
            groups.setdefault("(errored)", []).append(result)
    return dict(sorted(groups.items(), key=lambda kv: (kv[0].startswith("("), -len(kv[1]),
                                                      kv[0])))


def summary(tally: Tally, out: IO[str], *, failures_only: bool = False,
            seconds: float = 0.0, requests: int = 0, show: Iterable[str] = ("failed", "errored"),
            ) -> None:
    """Write the readable summary: the failures, then counts by game and kind, then totals."""
    shown = set(show)
    for result in tally.results:
        if result.status in shown:
            print(describe_failure(result), file=out)
            print(file=out)
    groups = by_rule(tally.results)
    if groups:
        print("failures by rule:", file=out)
        for rule, results in groups.items():
            ids = ", ".join(r.id for r in results[:3]) + (
                f" (+{len(results) - 3} more)" if len(results) > 3 else "")
            print(f"  {rule:12} {len(results):4}  {ids}", file=out)
    if not failures_only:
        for key in sorted(tally.by_game):
            counts = tally.by_game[key]
            parts = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
            print(f"  {key:24} {parts}", file=out)
    rate = f", {requests / seconds:,.0f} requests/s" if seconds > 0 and requests else ""
    print(f"cases: {tally.loaded} loaded, {tally.selected} selected, {tally.run} run, "
          + ", ".join(f"{tally.by_status[s]} {s}" for s in STATUSES)
          + f" ({seconds:.1f} s, {requests} requests{rate})", file=out)


def write_line(out: IO[str], record: dict[str, Any]) -> None:
    """One JSON line of the report."""
    out.write(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")
