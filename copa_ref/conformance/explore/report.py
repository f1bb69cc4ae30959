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

from copa_ref.conformance.explore.configs import AROUND, RANDOM
from copa_ref.conformance.explore.planner import UNREACHABLE
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
    counted = footer.get("occurrences") or {}
    differences = [{**d, "occurrences": counted.get(d["rule"] or f"{d['game']}:(no rule)",
                                                    d["occurrences"])} for d in differences]
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
        before = _before(case, line.get("step"))
        if before is not None:
            print(f"  the position just before step {line['step']} (of {size}): {before}",
                  file=out)
        shrink = line["shrink"]
        print(f"  minimal case: {case['kind']}, {size} steps, {shrink['players_after']} "
              f"players, options {', '.join(case['options']) or 'default'} (from "
              f"{shrink['steps_before']} steps and {shrink['players_before']} players in "
              f"{shrink['tries']} tries); met in {line['occurrences']} "
              f"game{'s' if line['occurrences'] != 1 else ''} and probes", file=out)
        if shrink.get("note"):
            print(f"  not shrunk further: {shrink['note']}", file=out)
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
        for rule, after in (footer.get("past_difference") or {}).get(game, {}).items():
            untested = after["not_tested"]
            print(f"{game}: past {rule} (met in {after['games']} games, position diverged "
                  f"in {after['diverged']}): {len(after['tested'])} rules tested after it"
                  + (f", not tested after it: {', '.join(untested)}" if untested else ""),
                  file=out)
        past = footer["untested_past_difference"].get(game, [])
        if past:
            print(f"{game}: not tested past a known difference: {', '.join(past)}", file=out)
    planning = footer.get("situations") or {}
    situations = planning.get("games") or {}
    for game, by_label in situations.items():
        swept = {k: e for k, e in by_label.items()
                 if not k.startswith(RANDOM) and not k.startswith(AROUND)}
        passing = {k: e for k, e in by_label.items() if k.startswith(RANDOM)}
        around = {k: e for k, e in by_label.items() if k.startswith(AROUND)}
        met = sum(e["met"] for e in swept.values())
        total = sum(e["situations"] for e in swept.values())
        excluded = sum(1 for e in swept.values() for why in e["never_met"].values()
                       if why.startswith(UNREACHABLE))
        never = total - met - excluded
        text = (f"{game}: situations met {met} of {total} over the sweep's {len(swept)} "
                f"configs, {excluded} unreachable under their config, {never} never met")
        if passing:
            text += (f"; {len(passing)} random combination"
                     f"{'s' if len(passing) != 1 else ''} played in passing, "
                     f"{sum(e['met'] for e in passing.values())} of "
                     f"{sum(e['situations'] for e in passing.values())} met there")
        if around:
            text += (f"; {len(around)} config{'s' if len(around) != 1 else ''} around a "
                     f"known difference, {sum(e['met'] for e in around.values())} of "
                     f"{sum(e['situations'] for e in around.values())} met there")
        print(text, file=out)
        for label, entry in swept.items():
            by_why: dict[str, list[str]] = {}
            for name, why in entry["never_met"].items():
                if not why.startswith(UNREACHABLE):
                    by_why.setdefault(why, []).append(name)
            for why, names in by_why.items():
                print(f"{game} {label}: never met: {', '.join(names)}: {why}", file=out)
    if situations:
        cut = planning.get("searches_cut", 0)
        print(f"planned games: {planning.get('planned_games', 0)} in all"
              + (f"; {cut} planner searches cut by the time guard (not reproducible)"
                 if cut else ""), file=out)
    for error in footer.get("errors") or ():
        print(f"errored: {error['case']}: {error['reason']}", file=out)
    seconds = footer["seconds"]
    rate = (f", {footer['games'] / seconds:.1f} games/s, {footer['steps'] / seconds:,.0f} "
            "steps/s") if seconds > 0 else ""
    stopped = " (interrupted: the summary so far)" if footer["interrupted"] else ""
    if footer.get("timed_out"):
        stopped += " (the budget in time ended it)"
    print(f"explored: {footer['games']} games, {footer['steps']} steps checked, "
          f"{footer['probes']} refusal probes, {footer['differences']} broken rules, "
          f"{footer['errored']} errored ({seconds:.1f} s{rate}){stopped}", file=out)


LONG = 12
"""A minimal trace longer than this many steps is summarised by the position just before
its differing step, besides the fields that differ."""


def _before(case: Line, step: Any) -> str | None:
    """The expected public view just before the differing *step* of a long trace case
    (``None``: a short case, or no step)."""
    if case.get("kind") != "trace" or not isinstance(step, int) or step < 1:
        return None
    steps = case.get("steps") or []
    if len(steps) <= LONG or step > len(steps):
        return None
    expect = case["initial"] if step == 1 else steps[step - 2]["expect"]
    text = json.dumps(expect.get("public"), separators=(",", ":"), sort_keys=True)
    return text if len(text) <= 400 else text[:400] + " ..."


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
        # each rule's count to the end of its part (its footer's; the line has the count
        # when it was first found)
        counts = foot[0].get("occurrences") or {}
        for line in lines:
            if line.get("type") != "difference":
                continue
            key = line["rule"] or f"{line['game']}:(no rule)"
            line = {**line, "occurrences": counts.get(key, line["occurrences"])}
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
        "timed_out": any(f.get("timed_out", False) for f in footers),
        "occurrences": {k: d["occurrences"] for k, d in sorted(differences.items())},
        "errors": [e for f in footers for e in f.get("errors", [])],
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
    footer["situations"] = _merged_situations(footers)
    ordered = [differences[k] for k in sorted(differences)]
    return [header, *games, *ordered, footer]


def _merged_situations(footers: list[Line]) -> dict[str, Any]:
    """The shards' situations together: met under a config where any shard met it, never
    met (with the first shard's why) where none did."""
    games: dict[str, dict[str, dict[str, Any]]] = {}
    planned = cut = 0
    for footer in footers:
        situations = footer.get("situations") or {}
        planned += situations.get("planned_games", 0)
        cut += situations.get("searches_cut", 0)
        for game, by_label in (situations.get("games") or {}).items():
            for label, entry in by_label.items():
                known = games.setdefault(game, {}).get(label)
                if known is None:
                    games[game][label] = {**entry, "never_met": dict(entry["never_met"])}
                    continue
                known["never_met"] = {n: why for n, why in known["never_met"].items()
                                      if n in entry["never_met"]}
                known["met"] = known["situations"] - len(known["never_met"])
    return {"planned_games": planned, "searches_cut": cut, "games": games}


def _size(line: Line) -> tuple[int, int]:
    case = line["case"]
    return (len(case["steps"]) if case["kind"] == "trace" else len(case["prefix"]),
            line["shrink"]["players_after"])


def read_report(path: Path) -> list[Line]:
    """The lines of a JSON-lines report."""
    return [json.loads(text) for text in path.read_text().splitlines() if text.strip()]
