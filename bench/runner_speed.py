"""How fast the conformance runner drives an engine over the subprocess protocol.

    .venv/bin/python bench/runner_speed.py [--engine "CMD"] [--repeat N]

Prints three figures: a bare echo over pipes (round trips per second: the ceiling of the
machine), the runner against the engine over the whole corpus (requests per second, after
the handshake), and the wall time of the whole corpus run, with the CPU time of the runner
and of the engine (on a loaded machine the wall time is their sum and more).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from copa_ref.conformance.channel import SubprocessChannel
from copa_ref.conformance.corpus import load_corpus
from copa_ref.conformance.runner import Runner

ECHO = [sys.executable, "-u", "-c",
        "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()"]


def echo_rate(n: int = 20000) -> float:
    """Round trips per second to a Python process that echoes each line."""
    channel = SubprocessChannel(ECHO, timeout=5)
    message = {"ok": True, "op": "observe"}
    started = time.perf_counter()
    for _ in range(n):
        channel.request(message)
    seconds = time.perf_counter() - started
    channel.close()
    return n / seconds


def _children_cpu() -> float:
    """The CPU seconds of the ended engines (the children waited for)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engine", default=f"{sys.executable} -m copa_ref.cli engine")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    print(f"engine: {args.engine}")
    print(f"echo over pipes (one JSON line out, the same line back; the machine's ceiling): "
          f"{echo_rate():,.0f} round trips/s")
    cases = load_corpus()
    for _ in range(args.repeat):
        wall = time.perf_counter()
        cpu = time.process_time()
        engine_cpu = _children_cpu()
        runner = Runner(lambda: SubprocessChannel(args.engine, timeout=10))
        runner.start()
        started = time.perf_counter()
        results = list(runner.run(cases))
        seconds = time.perf_counter() - started
        runner.close()
        total = time.perf_counter() - wall
        bad = [r.id for r in results if r.status != "passed"]
        print(f"the runner over the whole corpus: {len(cases)} cases, {runner.requests:,} "
              f"requests in {seconds:.2f} s "
              f"= {runner.requests / seconds:,.0f} requests/s; whole run {total:.2f} s "
              f"(with engine start); CPU: runner {time.process_time() - cpu:.2f} s, "
              f"engine {_children_cpu() - engine_cpu:.2f} s; not passed: {len(bad)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
