"""Engines that end, or end the process that talks to them, in some games: the reference
engine until the N-th ``new_game`` it is asked (3 by default), then one of:

- ``exit``: the engine exits (status 1) without answering;
- ``kill-parent``: the engine kills the process that started it (SIGKILL), then exits;
- ``stop-parent``: the engine stops the process that started it (SIGSTOP: it hangs, alive
  but silent), then exits.

Run as ``python tests/conformance/dying_engines.py HOW [N]``. Under ``explore --jobs`` the
process that started the engine is a worker: ``kill-parent`` is a dead worker,
``stop-parent`` a worker that says nothing more.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from copa_ref.conformance.engine import ReferenceEngine
from copa_ref.core import canonical_json

HOW = {"exit": None, "kill-parent": signal.SIGKILL, "stop-parent": signal.SIGSTOP}


def main(argv: list[str]) -> int:
    how = argv[0]
    if how not in HOW:
        sys.stderr.write(f"unknown dying engine {how}\n")
        return 2
    at = int(argv[1]) if len(argv) > 1 else 3
    engine = ReferenceEngine()
    games = 0
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        request = json.loads(raw)
        if request.get("op") == "new_game":
            games += 1
            if games == at:
                sig = HOW[how]
                if sig is not None:
                    os.kill(os.getppid(), sig)
                return 1
        out.write(canonical_json(engine.handle(request)).encode() + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
