"""``copa-ref conformance run``: load, filter, run, report.

It fails loudly: a missing corpus, an unknown game, rule or case pattern, a selection of no
case, or an engine that does not start gives one clear message on stderr and exit status 2.
Otherwise the status is 1 when a case failed or errored, else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import IO, Any

from copa_ref import __version__
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
    something did, 2 when the run could not start (the message says why)."""
    try:
        return _run(args)
    except UsageError as exc:
        print(f"copa-ref conformance run: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    finally:
        end_orphans()  # whatever an engine left behind ends with the run


def _run(args: argparse.Namespace) -> int:
    corpus = Path(args.corpus) if args.corpus else CORPUS_DIR
    cases, version = _load(corpus, args.validate)
    filters = Filters(game=args.game, case=args.case, rule=args.rule, kind=args.kind)
    chosen = _check_filters(cases, filters)
    runner = Runner(lambda: SubprocessChannel(args.engine, timeout=args.timeout), cases)
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
        for result in runner.run(chosen):
            tally.add(result)
            if report is not None:
                write_line(report, result.as_json())
            now = time.perf_counter()
            if show_progress and (now - last > 0.2 or tally.done == len(chosen)):
                last = now
                sys.stderr.write("\r" + tally.progress_line() + " ")
                sys.stderr.flush()
        if show_progress:
            sys.stderr.write("\n")
    finally:
        runner.close()
    seconds = time.perf_counter() - started
    if report is not None:
        write_line(report, tally.footer(runner.requests, seconds))
        if report is not sys.stdout:
            report.close()
    summary(tally, out, failures_only=args.failures_only, seconds=seconds,
            requests=runner.requests,
            show=("failed", "errored") if args.failures_only else ("failed", "errored",
                                                                    "skipped"))
    return 0 if tally.ok else 1
