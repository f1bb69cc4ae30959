"""``copa-ref conformance run``: load, filter, run, report."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import IO

from copa_ref import __version__
from copa_ref.conformance.channel import EngineFailure, SubprocessChannel
from copa_ref.conformance.observables import CORPUS_DIR, PROTOCOL_VERSION
from copa_ref.conformance.report import Tally, describe_failure, summary, write_line
from copa_ref.conformance.runner import Filters, Runner, corpus_version, load_corpus, select

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Run the corpus against ``args.engine``; 0 when nothing failed or errored, else 1."""
    corpus = Path(args.corpus) if args.corpus else CORPUS_DIR
    cases = load_corpus(corpus, validate=args.validate)
    filters = Filters(game=args.game, case=args.case, rule=args.rule, kind=args.kind)
    chosen = select(cases, filters)
    version = corpus_version(corpus)
    runner = Runner(lambda: SubprocessChannel(args.engine, timeout=args.timeout))
    out = sys.stdout
    report: IO[str] | None = None
    if args.report == "-":
        report = sys.stdout
        out = sys.stderr
    elif args.report:
        report = open(args.report, "w")  # noqa: SIM115 - closed below
    show_progress = args.progress == "always" or (args.progress == "auto"
                                                  and sys.stderr.isatty())
    tally = Tally(len(cases), len(chosen))
    started = time.perf_counter()
    try:
        try:
            hello = runner.start()
        except EngineFailure as exc:
            print(f"the engine did not start: {exc}", file=sys.stderr)
            hello = {"name": "?", "version": "?", "games": {}, "features": []}
            runner.close()
        engine = {k: hello.get(k) for k in ("name", "version", "games", "features")}
        print(f"corpus {version} ({len(cases)} cases loaded, {len(chosen)} selected); engine "
              f"{engine['name']} {engine['version']}", file=out)
        if report is not None:
            write_line(report, {"type": "header", "corpus_version": version,
                                "protocol": PROTOCOL_VERSION, "runner": f"copa-ref {__version__}",
                                "engine": engine, "filters": filters.as_json(),
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


__all__ += ["describe_failure"]
