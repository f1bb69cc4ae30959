"""How fast the conformance runner drives an engine over the subprocess protocol.

    .venv/bin/python bench/runner_speed.py [--engine "CMD"] [--rounds N] [--before DIR] [--cli]

Each round measures, one right after the other:

- the **echo ceiling**: round trips per second to a process that echoes each line, one line
  written and its echo read back before the next (bare pipes, no parsing: what the machine
  allows one request at a time), and the same through the runner's own channel
  (``SubprocessChannel.request``, each answer parsed and checked);
- the runner over the whole corpus against ``copa-ref engine`` (or ``--engine``): requests
  per second after the handshake, the wall time of the whole run (engine start included),
  and the CPU time of the runner and of the engine;
- with ``--before DIR`` (a folder holding another copy of the ``copa_ref`` package, say
  ``git archive OLD copa_ref | tar -x -C DIR``), the same corpus run with that code, runner
  and engine both, in its own process; the order of the two alternates from round to round;
- with ``--cli``, ``copa-ref conformance run --engine "copa-ref engine"`` itself (each code's),
  its wall time and the CPU time of the whole command (runner and engine).

Printed: each round's figures, then the min / median / max over the rounds of the ratios
taken within a round (the runner's rate over the echo ceilings, the code against the code
of ``--before``). On a loaded machine only these ratios mean something.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

ECHO = [sys.executable, "-u", "-c",
        "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()"]

LINE = b'{"ok":true,"op":"observe"}\n'


def bare_echo_rate(n: int = 20000) -> float:
    """Round trips per second to a Python process that echoes each line: one line written,
    its echo read, over bare pipes (no parsing)."""
    echo = subprocess.Popen(ECHO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert echo.stdin is not None and echo.stdout is not None
    out, back = echo.stdin.fileno(), echo.stdout.fileno()
    started = time.perf_counter()
    for _ in range(n):
        os.write(out, LINE)
        got = os.read(back, 4096)
        while not got.endswith(b"\n"):
            got += os.read(back, 4096)
    seconds = time.perf_counter() - started
    echo.stdin.close()
    echo.wait()
    echo.stdout.close()
    return n / seconds


def channel_echo_rate(n: int = 20000) -> float:
    """Round trips per second through the runner's channel (each answer parsed and
    checked) to the same echo."""
    from copa_ref.conformance.channel import SubprocessChannel

    channel = SubprocessChannel(ECHO, timeout=5)
    message: dict[str, Any] = {"ok": True, "op": "observe"}
    started = time.perf_counter()
    for _ in range(n):
        channel.request(message)
    seconds = time.perf_counter() - started
    channel.close()
    return n / seconds


def _children_cpu() -> float:
    """The CPU seconds of the ended children (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_run(engine: str, corpus: Path) -> dict[str, Any]:
    """The corpus run once against *engine*, with the code this process imports."""
    from copa_ref.conformance.channel import SubprocessChannel
    from copa_ref.conformance.corpus import load_corpus
    from copa_ref.conformance.runner import Runner

    cases = load_corpus(corpus)
    wall = time.perf_counter()
    cpu = time.process_time()
    engine_cpu = _children_cpu()
    runner = Runner(lambda: SubprocessChannel(engine, timeout=10), cases)
    runner.start()
    started = time.perf_counter()
    results = list(runner.run(cases))
    seconds = time.perf_counter() - started
    runner.close()
    return {"cases": len(cases), "requests": runner.requests, "seconds": seconds,
            "wall": time.perf_counter() - wall, "runner_cpu": time.process_time() - cpu,
            "engine_cpu": _children_cpu() - engine_cpu,
            "statuses": sorted({r.status for r in results}),
            "not_passed": sum(r.status != "passed" for r in results),
            "results": _digest([r.as_json() for r in results])}


def _digest(lines: list[dict[str, Any]]) -> str:
    """A fingerprint of the results without their times: equal runs, equal digests."""
    import hashlib

    text = json.dumps([{k: v for k, v in line.items() if k != "seconds"} for line in lines],
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _code_env(code: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code)
    return env


def run_in(code: Path | None, engine: str, corpus: Path) -> dict[str, Any]:
    """:func:`one_run` in a process of its own, importing ``copa_ref`` from *code* (``None``:
    this checkout); the engine command runs with the same code."""
    done = subprocess.run([sys.executable, __file__, "--one", "--engine", engine,
                           "--corpus", str(corpus)], capture_output=True, text=True,
                          env=_code_env(code), cwd=ROOT if code is None else code, check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run_cli(code: Path | None, corpus: Path) -> dict[str, float]:
    """``copa-ref conformance run --engine "copa-ref engine"`` with *code*: its wall time
    and the CPU time of the whole command (runner and engine)."""
    engine = f"{sys.executable} -m copa_ref.cli engine"
    before = _children_cpu()
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "copa_ref.cli", "conformance", "run", "--engine",
                    engine, "--corpus", str(corpus)], capture_output=True, text=True,
                   env=_code_env(code), cwd=ROOT if code is None else code, check=True)
    return {"wall": time.perf_counter() - started, "cpu": _children_cpu() - before}


def _spread(values: list[float]) -> str:
    return (f"min {min(values):.2f}  median {statistics.median(values):.2f}  "
            f"max {max(values):.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default=f"{sys.executable} -m copa_ref.cli engine")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", type=Path, default=None,
                        help="a folder holding the copa_ref package to compare with")
    parser.add_argument("--cli", action="store_true",
                        help="also time `copa-ref conformance run` itself")
    parser.add_argument("--corpus", type=Path, default=ROOT / "conformance")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_run(args.engine, args.corpus)))
        return 0
    print(f"engine: {args.engine}; corpus: {args.corpus}")
    codes: list[tuple[str, Path | None]] = [("now", None)]
    if args.before is not None:
        codes.append(("before", args.before.resolve()))
    ratios: dict[str, list[float]] = {}
    digests: dict[str, set[str]] = {}

    def note(name: str, value: float) -> None:
        ratios.setdefault(name, []).append(value)

    for round_ in range(args.rounds):
        bare, through = bare_echo_rate(), channel_echo_rate()
        print(f"round {round_ + 1}: echo {bare:,.0f} round trips/s bare, {through:,.0f} "
              f"through the channel")
        runs: dict[str, dict[str, Any]] = {}
        clis: dict[str, dict[str, float]] = {}
        order = codes if round_ % 2 == 0 else codes[::-1]
        for name, code in order:
            runs[name] = run = run_in(code, args.engine, args.corpus)
            digests.setdefault(name, set()).add(run["results"])
            rate = run["requests"] / run["seconds"]
            print(f"  {name:6}: {run['cases']} cases, {run['requests']:,} requests in "
                  f"{run['seconds']:.2f} s = {rate:,.0f} requests/s; whole run "
                  f"{run['wall']:.2f} s; CPU runner {run['runner_cpu']:.2f} s, engine "
                  f"{run['engine_cpu']:.2f} s; not passed {run['not_passed']}")
            note(f"{name} rate / bare echo", rate / bare)
            note(f"{name} rate / channel echo", rate / through)
            if args.cli:
                clis[name] = cli = run_cli(code, args.corpus)
                print(f"  {name:6}: conformance run: wall {cli['wall']:.2f} s, CPU "
                      f"{cli['cpu']:.2f} s (runner and engine)")
        if "before" in runs:
            now, old = runs["now"], runs["before"]
            note("speed now / before (requests/s)", (now["requests"] / now["seconds"])
                 / (old["requests"] / old["seconds"]))
            note("whole run: wall before / now", old["wall"] / now["wall"])
            note("CPU runner: before / now", old["runner_cpu"] / now["runner_cpu"])
            note("CPU engine: before / now", old["engine_cpu"] / now["engine_cpu"])
            if clis:
                note("conformance run: wall before / now",
                     clis["before"]["wall"] / clis["now"]["wall"])
                note("conformance run: CPU before / now",
                     clis["before"]["cpu"] / clis["now"]["cpu"])
    print(f"ratios over {args.rounds} rounds:")
    for name, values in ratios.items():
        print(f"  {name:38} {_spread(values)}")
    same = len({d for found in digests.values() for d in found}) == 1
    print(f"results {'identical' if same else 'DIFFER'} across codes and rounds "
          f"({', '.join(f'{k} {sorted(v)}' for k, v in digests.items())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
