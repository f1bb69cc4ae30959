"""An exploration's report: the JSON lines, the summary table by rule, the minimal cases
written as a corpus, and merging the reports of several shards.

The JSON-lines report (``conformance/schema/report.schema.json``) is an ``explore_header``
line, one ``explore_game`` line a game, one ``difference`` line for each broken rule (with
its minimal case) and an ``explore_footer`` line (the totals and the coverage: how often each
rule fired, the rules never reached, the rules not tested past a known difference).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from copa_ref.conformance.explore.play import rule_key

__all__ = ["MergeError", "merge", "summary", "write_cases"]

Line = dict[str, Any]


def write_cases(out: Path, differences: Iterable[Line]) -> dict[str, int]:
    """Write the minimal case of each difference under *out* as a corpus: see
    :func:`copa_ref.conformance.writer.write_cases` (never through a link, atomically)."""
    from copa_ref.conformance.writer import write_cases as write

    return write(out, differences)


def summary(footer: Line, differences: list[Line], out: IO[str]) -> None:
    """The readable end of an exploration: each broken rule once (its minimal case and
    explanation), the table by rule, the coverage."""
    ordered = sorted(differences, key=lambda d: (d["game"], d["rule"] is None,
                                                 rule_key(d["rule"] or "Z-0")))
    for line in ordered:
        case = line["case"]
        size = len(case["steps"]) if case["kind"] == "trace" else len(case["prefix"])
        print(f"BROKEN {line['rule'] or '(no rule named)'} ({line['game']}): {case['id']}",
              file=out)
        if line["explanation"]:
            print(f"  {line['explanation']}", file=out)
        print(f"  {line['reason']}", file=out)
        for text in (line["diff"] or "").splitlines()[:8]:
            print(f"    {text}", file=out)
        shrink = line["shrink"]
        print(f"  minimal case: {case['kind']}, {size} steps, {shrink['players_after']} "
              f"players, options {', '.join(case['options']) or 'default'} (from "
              f"{shrink['steps_before']} steps and {shrink['players_before']} players in "
              f"{shrink['tries']} tries); met {line['occurrences']} "
              f"time{'s' if line['occurrences'] != 1 else ''}", file=out)
        print(file=out)
    if ordered:
        print("differences by rule:", file=out)
        print(f"  {'rule':14} {'game':8} {'seen':>5} {'steps':>6} {'players':>7}  "
              "explanation", file=out)
        for line in ordered:
            case = line["case"]
            size = len(case["steps"]) if case["kind"] == "trace" else len(case["prefix"])
            why = line["explanation"] or line["reason"] or ""
            print(f"  {line['rule'] or '(no rule)':14} {line['game']:8} "
                  f"{line['occurrences']:5} {size:6} {line['shrink']['players_after']:7}  "
                  f"{why[:90]}", file=out)
    for game, counts in footer["fired"].items():
        never = footer["never_reached"].get(game, [])
        fired = ", ".join(f"{r} {n}" for r, n in counts.items())
        print(f"{game}: rules fired: {fired or 'none'}", file=out)
        if never:
            print(f"{game}: never reached: {', '.join(never)}", file=out)
        past = footer["untested_past_difference"].get(game, [])
        if past:
            print(f"{game}: not tested past a known difference: {', '.join(past)}", file=out)
    seconds = footer["seconds"]
    rate = (f", {footer['games'] / seconds:.1f} games/s, {footer['steps'] / seconds:,.0f} "
            "steps/s") if seconds > 0 else ""
    stopped = " (interrupted: the summary so far)" if footer["interrupted"] else ""
    print(f"explored: {footer['games']} games, {footer['steps']} steps checked, "
          f"{footer['probes']} refusal probes, {footer['differences']} broken rules, "
          f"{footer['errored']} errored ({seconds:.1f} s{rate}){stopped}", file=out)


class MergeError(Exception):
    """Reports that cannot be merged (not explore reports, or of different explorations)."""


def merge(reports: list[list[Line]]) -> list[Line]:
    """One report from the reports of the shards of one exploration: the games of all, each
    broken rule once (the smallest minimal case of any shard, the sightings added up), the
    totals added up and the coverage recomputed.

    :raises MergeError: when a report has no header or footer, or the headers are of
        different engines, seeds or budgets.
    """
    if not reports:
        raise MergeError("no report to merge")
    headers, footers = [], []
    games: list[Line] = []
    differences: dict[str, Line] = {}
    for number, lines in enumerate(reports, 1):
        head = [line for line in lines if line.get("type") == "explore_header"]
        foot = [line for line in lines if line.get("type") == "explore_footer"]
        if len(head) != 1 or len(foot) != 1:
            raise MergeError(f"report {number} is not an explore report (one header, one "
                             "footer)")
        headers.append(head[0])
        footers.append(foot[0])
        games += [line for line in lines if line.get("type") == "explore_game"]
        for line in lines:
            if line.get("type") != "difference":
                continue
            key = line["rule"] or f"{line['game']}:(no rule)"
            known = differences.get(key)
            if known is None:
                differences[key] = dict(line)
                continue
            seen = known["occurrences"] + line["occurrences"]
            if _size(line) < _size(known):
                differences[key] = dict(line)
            differences[key]["occurrences"] = seen
    first = headers[0]
    for other in headers[1:]:
        for key in ("engine", "seed", "games_budget", "protocol"):
            if other.get(key) != first.get(key):
                raise MergeError(f"the reports are of different explorations ({key} differs)")
    shards = sorted(h["shard"] for h in headers)
    header = {**first, "shard": "merged", "merged": shards}
    games.sort(key=lambda g: g["number"])
    fired: dict[str, Counter[str]] = {}
    untested: dict[str, set[str]] = {}
    universe: dict[str, list[str]] = {}
    for footer in footers:
        for game, counts in footer["fired"].items():
            fired.setdefault(game, Counter()).update(counts)
            universe.setdefault(game, sorted(set(counts) | set(
                footer["never_reached"].get(game, [])), key=rule_key))
        for game, rules in footer["untested_past_difference"].items():
            untested.setdefault(game, set()).update(rules)
    totals = {key: sum(f[key] for f in footers)
              for key in ("games", "steps", "probes", "requests", "errored")}
    footer = {
        "type": "explore_footer", **totals,
        "seconds": round(max(f["seconds"] for f in footers), 3),
        "interrupted": any(f["interrupted"] for f in footers),
        "load_state": all(f["load_state"] for f in footers),
        "differences": len(differences), "broken_rules": sorted(differences),
        "fired": {g: dict(sorted(c.items(), key=lambda kv: rule_key(kv[0])))
                  for g, c in sorted(fired.items())},
        "never_reached": {g: [r for r in rules if not fired[g][r]]
                          for g, rules in sorted(universe.items())},
        "untested_past_difference": {g: sorted((r for r in rules if not fired[g][r]),
                                               key=rule_key)
                                     for g, rules in sorted(untested.items())},
    }
    ordered = [differences[k] for k in sorted(differences)]
    return [header, *games, *ordered, footer]


def _size(line: Line) -> tuple[int, int]:
    case = line["case"]
    return (len(case["steps"]) if case["kind"] == "trace" else len(case["prefix"]),
            line["shrink"]["players_after"])


def read_report(path: Path) -> list[Line]:
    """The lines of a JSON-lines report."""
    return [json.loads(text) for text in path.read_text().splitlines() if text.strip()]
