"""``copa-ref conformance run``: load, filter, run, report.

It fails loudly: a missing corpus, an unknown game, rule or case pattern, a selection of no
case, or an engine that does not start gives one clear message on stderr and exit status 2.
Otherwise the status is 1 when a case failed or errored, else 0.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import IO, Any

from copa_ref import __version__
from copa_ref.arguments import SECONDS, CommandError, number, rule_id
from copa_ref.conformance.channel import EngineFailure, SubprocessChannel, end_orphans, printable
from copa_ref.conformance.corpus import (
    CORPUS_DIR,
    Case,
    CorpusError,
    Filters,
    corpus_version,
    load_corpus,
    select,
)
from copa_ref.conformance.observables import PROTOCOL_VERSION
from copa_ref.conformance.report import Tally, describe_failure, summary, write_line
from copa_ref.conformance.runner import HandshakeError, Runner

__all__ = ["UsageError", "describe_failure", "run"]

USAGE_ERROR = 2

INTERRUPTED = 130
"""The exit status of a run ended by Ctrl-C (128 + SIGINT), after its summary so far."""
"""The exit status of a run that could not start."""


class UsageError(Exception):
    """A run that cannot start: printed as one line, exit status 2."""


def _first_line(exc: BaseException) -> str:
    """The first line of *exc*'s message, printable and bounded; never raises (an empty
    message, or a ``__str__`` that raises, is named by the exception's type)."""
    try:
        lines = str(exc).splitlines()
    except Exception:
        lines = []
    return printable(lines[0], 300) if lines else f"({type(exc).__name__})"


def _load(corpus: Path, validate: bool) -> tuple[list[Case], str]:
    if not (corpus / "VERSION").is_file() or not (corpus / "cases").is_dir():
        msg = (f"no conformance corpus at {printable(str(corpus), 200)} (it needs VERSION "
               "and cases/)")
        raise UsageError(msg)
    try:
        cases = load_corpus(corpus, validate=validate)
        version = corpus_version(corpus)
    except CorpusError as exc:
        msg = f"the corpus at {printable(str(corpus), 200)} cannot be read: {exc}"
        raise UsageError(msg) from None
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        msg = (f"the corpus at {printable(str(corpus), 200)} cannot be read: "
               f"{type(exc).__name__}: {_first_line(exc)}")
        raise UsageError(msg) from None
    except Exception as exc:  # jsonschema's ValidationError and the like
        msg = f"the corpus at {printable(str(corpus), 200)} is not valid: {_first_line(exc)}"
        raise UsageError(msg) from None
    if not cases:
        msg = f"the corpus at {printable(str(corpus), 200)} holds no case"
        raise UsageError(msg)
    return cases, version


def _check_filters(cases: list[Case], filters: Filters) -> list[Case]:
    games = sorted({c["game"] for c in cases})
    if filters.game is not None and filters.game not in games:
        msg = f"unknown game {filters.game!r}; the corpus has {', '.join(games)}"
        raise UsageError(msg)
    if filters.rule is not None:
        rules = {r for c in cases for r in c["rules"]} | {c.get("rule") for c in cases}
        if filters.rule not in rules:
            prefix = filters.rule.split("-")[0]
            near = sorted((r for r in rules if isinstance(r, str) and r.startswith(prefix)),
                          key=lambda r: (len(r), r))
            hint = f"; cited rules of {prefix}: {near[0]} … {near[-1]}" if near else ""
            msg = f"no case covers the rule {filters.rule!r}{hint}"
            raise UsageError(msg)
    chosen = select(cases, filters)
    if not chosen:
        shown = " ".join(f"--{k} {v}" for k, v in filters.as_json().items())
        msg = f"no case selected by {shown}"
        raise UsageError(msg)
    return chosen


def run(args: argparse.Namespace) -> int:
    """Run the corpus against ``args.engine``: 0 when nothing failed or errored, 1 when
    something did, 2 when the run could not start (the message says why). Ctrl-C ends the
    run with the summary of the cases judged so far and the report's footer (marked
    ``"interrupted": true``), and exit status 130."""
    try:
        return _run(args)
    except UsageError as exc:
        print(f"copa-ref conformance run: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    finally:
        end_orphans()  # whatever an engine left behind ends with the run


def _run(args: argparse.Namespace) -> int:
    corpus = Path(args.corpus) if args.corpus else CORPUS_DIR
    # The engine starts while the corpus is read (its own start-up takes as long); it is
    # spoken to only once the corpus and the filters are found good.
    early: list[SubprocessChannel] = []
    with contextlib.suppress(EngineFailure):  # it fails again, and is reported, below
        early.append(SubprocessChannel(args.engine, timeout=args.timeout))
    try:
        cases, version = _load(corpus, args.validate)
        filters = Filters(game=args.game, case=args.case, rule=args.rule, kind=args.kind)
        chosen = _check_filters(cases, filters)
    except BaseException:
        for channel in early:
            channel.close()
        raise

    def connect() -> SubprocessChannel:
        return early.pop() if early else SubprocessChannel(args.engine,
                                                            timeout=args.timeout)

    runner = Runner(connect, cases)
    try:
        hello: dict[str, Any] = runner.start()
    except HandshakeError as exc:
        # It talks, but not as the protocol says: every case is errored with the reason.
        runner.close()
        print(f"the engine's handshake is unusable: {exc}", file=sys.stderr)
        hello = {"name": "?", "version": "?", "games": {}, "features": []}
    except Exception as exc:  # EngineFailure, or an answer no JSON reader takes
        runner.close()
        text = str(exc) if isinstance(exc, EngineFailure) else f"{type(exc).__name__}: {exc}"
        msg = f"the engine {args.engine!r} did not start: {text}"
        raise UsageError(msg) from None
    out = sys.stdout
    report: IO[str] | None = None
    if args.report == "-":
        report = sys.stdout
        out = sys.stderr
    elif args.report:
        try:
            report = open(args.report, "w")  # noqa: SIM115 - closed below
        except OSError as exc:
            runner.close()
            msg = f"cannot write the report {args.report}: {exc}"
            raise UsageError(msg) from None
    show_progress = args.progress == "always" or (args.progress == "auto"
                                                  and sys.stderr.isatty())
    tally = Tally(len(cases), len(chosen))
    interrupted = False
    started = time.perf_counter()
    engine = {k: hello.get(k) for k in ("name", "version", "games", "features")}
    print(f"corpus {version} ({len(cases)} cases loaded, {len(chosen)} selected); engine "
          f"{engine['name']} {engine['version']}", file=out)
    try:
        if report is not None:
            write_line(report, {"type": "header", "corpus_version": version,
                                "protocol": PROTOCOL_VERSION, "runner": f"copa-ref {__version__}",
                                "engine": json.loads(json.dumps(engine)),
                                "filters": filters.as_json(),
                                "loaded": len(cases), "selected": len(chosen)})
        last = 0.0
        try:
            for result in runner.run(chosen):
                tally.add(result)
                if report is not None:
                    write_line(report, result.as_json())
                now = time.perf_counter()
                if show_progress and (now - last > 0.2 or tally.done == len(chosen)):
                    last = now
                    sys.stderr.write("\r" + tally.progress_line() + " ")
                    sys.stderr.flush()
        except KeyboardInterrupt:
            interrupted = True  # the case under way is dropped; the others are summed up
        if show_progress:
            sys.stderr.write("\n")
    finally:
        runner.close()
    seconds = time.perf_counter() - started
    if report is not None:
        footer = tally.footer(runner.requests, seconds)
        if interrupted:
            footer["interrupted"] = True
        write_line(report, footer)
        if report is not sys.stdout:
            report.close()
    summary(tally, out, failures_only=args.failures_only, seconds=seconds,
            requests=runner.requests,
            show=("failed", "errored") if args.failures_only else ("failed", "errored",
                                                                    "skipped"))
    if interrupted:
        print(f"interrupted: {tally.done} of the {len(chosen)} selected cases run",
              file=out)
        return INTERRUPTED
    return 0 if tally.ok else 1


# -- explore and merge ------------------------------------------------------------------------


def add_explore_parsers(csub: Any, add: Any, add_progress: Any) -> None:
    """Add ``rule``, ``explore`` and ``merge`` to the ``conformance`` subcommands (*add*
    makes a subcommand, *add_progress* adds ``--progress``; both from :mod:`copa_ref.cli`)."""
    rule = add(
        csub, "rule", rule_command, "print what the conformance suite knows about one rule",
        "Print everything the conformance suite declares about one rule: the cases that "
        "exercise it, where the record's events tag it, the observables it decides, the "
        "diagnosis's checks, the readings, misreadings and mutants, its situations and the "
        "rule book's pictures of it.",
        ["copa-ref conformance rule KALA-15", "copa-ref conformance rule copas-2"])
    rule.add_argument("rule", type=rule_id, help="the rule ID (kala-15 is KALA-15)")
    explore = add(
        csub, "explore", explore_command, "find an engine's differences beyond the corpus",
        "Play seeded games against the engine, the reference choosing the moves (steered "
        "towards the rules seen least) over every config the engine declares, check every "
        "step as a trace does and probe refused actions; shrink each difference to a "
        "minimal case that names its rule, and report each broken rule once. The same "
        "seed plays the same games. Ctrl-C ends with the summary so far. Exit status 1 "
        "when a difference was found or a game errored (each errored game's reason is in "
        "the summary and the report's footer).",
        ['copa-ref conformance explore --engine "./my-engine" --games 200',
         'copa-ref conformance explore --engine "./my-engine" --time 600 --out found/',
         'copa-ref conformance explore --engine "./my-engine" --shard 2/4 --report p2.jsonl'])
    explore.add_argument("--engine", required=True,
                         help='the engine command, e.g. "copa-ref engine"')
    explore.add_argument("--games", type=number(int, 1, "a number of games, 1 or more"),
                         default=None,
                         help="stop after this many games in all (default 100 for each "
                              "game explored, or 6 for each config of the largest sweep where "
                              "that is more; no limit with --time)")
    explore.add_argument("--time", type=SECONDS, default=None, metavar="S",
                         help="stop after this many seconds")
    explore.add_argument("--seed", type=int, default=0, help="the exploration's seed "
                                                             "(default 0)")
    explore.add_argument("--game", action="append", default=[],
                         help="only this game (repeatable)")
    explore.add_argument("--max-steps", type=number(int, 1, "a number of steps, 1 or more"),
                         default=1000,
                         help="cut each game after this many actions (default 1000)")
    explore.add_argument("--probes", type=number(int, 0, "a number of probes, 0 or more"),
                         default=2,
                         help="refused-action probes per game (default 2)")
    explore.add_argument("--shrink-tries", type=number(int, 0, "a number of tries, 0 or more"),
                         default=40,
                         help="case runs allowed to shrink one difference (default 40)")
    explore.add_argument("--no-steer", action="store_true",
                         help="uniform random play (no coverage steering)")
    explore.add_argument("--no-load-state", action="store_true",
                         help="do not use the engine's load_state feature")
    explore.add_argument("--no-plan", action="store_true",
                         help="no planned games (no sequences searched on the reference "
                              "for the situations not yet met)")
    explore.add_argument("--jobs", type=number(int, 1, "a number of jobs, 1 or more"),
                         default=1,
                         help="worker processes, each with its own engine (default 1); a "
                              "worker that dies or stops answering costs one errored "
                              "game, and a fresh one plays the rest of its games")
    explore.add_argument("--shard", default="1/1", metavar="K/N",
                         help="play only the K-th of N deterministic parts (default 1/1); "
                              "each part steers by its own games, so another N explores "
                              "other games")
    explore.add_argument("--report", help="write the JSON-lines report to this file "
                                          "('-': stdout)")
    explore.add_argument("--out", metavar="DIR",
                         help="write each minimal case into DIR as a corpus "
                              "(conformance run --corpus DIR replays them)")
    explore.add_argument("--timeout", type=SECONDS, default=10.0,
                         help="seconds to wait for each answer (default 10)")
    add_progress(explore)
    merged = add(
        csub, "merge", merge_command, "merge the reports of an exploration's shards",
        "Merge the JSON-lines reports of the shards of one exploration (--shard K/N) into "
        "one report: every game, each broken rule once with its smallest minimal case, the "
        "totals and the coverage; print its summary.",
        ["copa-ref conformance merge p1.jsonl p2.jsonl --report all.jsonl"])
    merged.add_argument("reports", nargs="+", metavar="REPORT")
    merged.add_argument("--report", help="write the merged report to this file ('-': stdout)")
    merged.add_argument("--out", metavar="DIR",
                        help="write each minimal case into DIR as a corpus")


def _shard(text: str) -> tuple[int, int]:
    try:
        part, _, whole = text.partition("/")
        shard = int(part), int(whole)
    except ValueError:
        msg = f"--shard wants K/N (two integers, 1 <= K <= N), got {text!r}"
        raise UsageError(msg) from None
    if not 1 <= shard[0] <= shard[1]:
        msg = f"--shard wants K/N with 1 <= K <= N, got {text!r}"
        raise UsageError(msg)
    return shard


def _settings(args: argparse.Namespace, shard: tuple[int, int]) -> Any:
    from copa_ref.conformance.explore import Settings
    from copa_ref.conformance.explore.loop import PER_GAME

    games = args.games
    per_game = None if args.time and games is None else PER_GAME
    if (games is not None and games < 0) or args.max_steps < 1 or args.probes < 0 or (
            args.shrink_tries < 0) or args.jobs < 1:
        msg = "--games, --max-steps, --probes, --shrink-tries and --jobs must not be negative"
        raise UsageError(msg)
    return Settings(games=games, per_game=per_game, seconds=args.time, seed=args.seed,
                    only=tuple(args.game), max_steps=args.max_steps, probes=args.probes,
                    shrink_tries=args.shrink_tries, steer=not args.no_steer, shard=shard,
                    load_state=not args.no_load_state, plan=not args.no_plan)


def rule_command(args: argparse.Namespace) -> int:
    """``copa-ref conformance rule KALA-15``: what the suite knows about one rule."""
    from copa_ref.conformance.knowledge import UnknownRule, render, rule_record

    try:
        found = rule_record(args.rule)
    except UnknownRule as exc:
        raise CommandError(exc.args[0]) from None
    print("\n".join(render(found)))
    return 0


def explore_command(args: argparse.Namespace) -> int:
    """``copa-ref conformance explore``: 0 when no difference was found, 1 when one was,
    2 when the exploration could not start."""
    try:
        return _explore(args)
    except UsageError as exc:
        print(f"copa-ref conformance explore: error: {exc}", file=sys.stderr)
        return USAGE_ERROR


def _explore(args: argparse.Namespace) -> int:
    from copa_ref.conformance.explore import Explorer
    from copa_ref.conformance.explore.report import merge, summary
    from copa_ref.conformance.writer import WriteError, open_report, write_cases

    shard = _shard(args.shard)
    settings = _settings(args, shard)
    show = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    out: IO[str] = sys.stderr if args.report == "-" else sys.stdout
    report: IO[str] | None = None
    if args.report == "-":
        report = sys.stdout
    elif args.report:
        try:  # never through a link, never into a FIFO or device: refused before any game
            report = open_report(Path(args.report))
        except WriteError as exc:
            msg = f"cannot write the report: {exc}"
            raise UsageError(msg) from None
    started = time.perf_counter()
    lines: list[dict[str, Any]] = []

    def progress(games: int, steps: int, found: int) -> None:
        if show:
            seconds = max(time.perf_counter() - started, 1e-9)
            sys.stderr.write(f"\r[explore] {games} games, {steps} steps "
                             f"({steps / seconds:,.0f} steps/s), {found} differences ")
            sys.stderr.flush()

    try:
        if args.jobs == 1:
            corpus = load_corpus()
            runner = Runner(lambda: SubprocessChannel(args.engine, timeout=args.timeout),
                            corpus)
            explorer = Explorer(runner, settings, corpus)
            try:
                names = explorer.prepare()
            except Exception as exc:  # EngineFailure, a handshake the runner refuses
                runner.close()
                msg = f"the engine {args.engine!r} did not start: {exc}"
                raise UsageError(msg) from None
            if not names:
                runner.close()
                msg = "the engine declares no game explore can play (or --game selects none)"
                raise UsageError(msg)
            def tell(line: dict[str, Any]) -> None:
                lines.append(line)
                if report is not None:
                    write_line(report, line)

            explorer.explore(
                on_line=tell,
                on_progress=lambda s: progress(s.games, s.steps, len(s.differences)))
            footer = lines[-1]
        else:
            lines = _jobs(args, settings, progress)
            if report is not None:
                for line in lines:
                    write_line(report, line)
            footer = lines[-1]
        if show:
            sys.stderr.write("\n")
    finally:
        if report is not None and report is not sys.stdout:
            report.close()
    differences = [line for line in lines if line.get("type") == "difference"]
    summary(footer, differences, out)
    if args.out and differences:
        try:
            written = write_cases(Path(args.out), differences)
        except WriteError as exc:
            raise UsageError(str(exc)) from None
        print(f"minimal cases written to {args.out}: "
              + ", ".join(f"{g} {n}" for g, n in sorted(written.items())), file=out)
    _ = merge  # merged shards: see merge_command
    return 1 if differences or footer["errored"] else 0


def _jobs(args: argparse.Namespace, settings: Any, progress: Any) -> list[dict[str, Any]]:
    """Run ``--jobs`` workers (each a finer shard of this shard) and merge their reports
    (:mod:`~copa_ref.conformance.explore.jobs`)."""
    from copa_ref.conformance.explore.jobs import JobsError, run_jobs

    try:
        return run_jobs(args.engine, args.timeout, settings, args.jobs, progress)
    except JobsError as exc:
        raise UsageError(str(exc)) from None


def merge_command(args: argparse.Namespace) -> int:
    """``copa-ref conformance merge``: 0 when the merged exploration found no difference,
    1 when it did, 2 when the reports cannot be read, validated or merged, or the merged
    report or cases cannot be written (one printable line on stderr)."""
    from copa_ref.conformance.explore.report import MergeError, merge, summary
    from copa_ref.conformance.merge import BadReport, Printable, read_reports
    from copa_ref.conformance.writer import WriteError, write_cases, write_report

    def fail(exc: BaseException) -> int:
        print(f"copa-ref conformance merge: error: {_first_line(exc)}", file=sys.stderr)
        return USAGE_ERROR

    try:
        lines = merge(read_reports([Path(p) for p in args.reports]))
    except (BadReport, MergeError) as exc:
        return fail(exc)
    out = Printable(sys.stdout)
    text = "".join(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n"
                   for line in lines)
    if args.report == "-":
        out = Printable(sys.stderr)
        sys.stdout.write(text)
    elif args.report:
        try:
            write_report(Path(args.report), text)
        except WriteError as exc:
            return fail(exc)
    differences = [line for line in lines if line.get("type") == "difference"]
    summary(lines[-1], differences, out)  # type: ignore[arg-type]
    if args.out and differences:
        try:
            write_cases(Path(args.out), differences)
        except WriteError as exc:
            return fail(exc)
    return 1 if differences or lines[-1]["errored"] else 0
