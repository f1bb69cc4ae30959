"""Hostile engines: each plays the reference until the first ``observe`` of a game, then
attacks the runner in one way. Run as ``python tests/conformance/hostile_engines.py NAME
[SIZE]``; with ``HOSTILE_PIDS=DIR`` set, every process an engine starts writes its PID into
*DIR*, so a test can check that none is left running.

- ``deep``: answers with a JSON array nested 100,000 deep.
- ``bigint``: reports a KALA bank of 4,300 digits.
- ``fork``: forks a child that sleeps for an hour (same process group), then hangs.
- ``setsid``: forks a child that forks a grandchild calling ``setsid()`` (a session and
  group of its own), both sleeping, then answers correctly.
- ``daemon``: a double-fork daemon: the child calls ``setsid()``, forks the daemon and
  exits; the daemon closes every descriptor and sleeps. Then answers correctly.
- ``setpgid``: forks a child that calls ``setpgid(0, 0)`` and sleeps, then answers
  correctly.
- ``clean-daemon``: the double-fork daemon again, its environment cleared by an
  ``execve`` (no mark of the engine left): only the end of the run ends it.
- ``stderr``: writes SIZE MB to stderr (50 by default), then answers correctly.
- ``longline``: answers with one line of SIZE MB (20 by default).
- ``never-ends``: plays correctly, but ignores SIGTERM, ``stop`` and the end of its input:
  it never ends by itself.
- ``quotes``: answers with 1 MiB of unterminated escaped quotes (``"\\"\\"...``).
- ``bigview``: reports a view holding a string of SIZE KB (900 by default) where the bank
  belongs, and another under a key of its own: a failure, not an error.
- ``escape``: names itself, and answers, with terminal escape sequences (clear screen,
  window title).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from copa_ref.conformance.engine import ReferenceEngine
from copa_ref.core import canonical_json

HOW = ("deep", "quotes", "bigview", "bigint", "fork", "stderr", "longline", "never-ends",
       "escape", "setsid", "daemon", "setpgid", "clean-daemon")

MB = 1 << 20

ESCAPED: list[str] = []


def note_pid() -> None:
    """Write this process's PID into ``$HOSTILE_PIDS`` (when set)."""
    folder = os.environ.get("HOSTILE_PIDS")
    if folder:
        Path(folder, str(os.getpid())).write_text(str(os.getpid()))


def hang() -> None:
    while True:
        time.sleep(3600)


def sleeper(clean: bool = False) -> None:
    """Become a process that outlives its engine: closes every descriptor and sleeps (with
    *clean*, an ``execve`` of a sleeping interpreter with an empty environment)."""
    note_pid()
    os.closerange(0, 1 << 16)
    if clean:
        os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(3600)"], {})
    hang()


def escape_tree(how: str) -> None:
    """Leave processes behind in the shape *how* (``setsid``, ``daemon``, ``setpgid``,
    ``clean-daemon``); the engine itself goes on."""
    if os.fork() != 0:
        if how in ("daemon", "clean-daemon"):
            time.sleep(0.2)  # the middle child has exited: the daemon is an orphan
        return
    if how == "setpgid":
        os.setpgid(0, 0)
        sleeper()
    os.setsid()
    if os.fork() == 0:
        sleeper(clean=how == "clean-daemon")
    if how in ("daemon", "clean-daemon"):
        os._exit(0)
    sleeper()  # setsid: the child sleeps too


def attack(how: str, answer: dict, size: int, out: object) -> bytes | None:
    """The line that replaces *answer* (an observe answer), or ``None`` to answer it."""
    if how == "deep":
        return b"[" * 100_000 + b"]" * 100_000
    if how == "quotes":
        return b'"' + b'\\"' * (MB // 2 - 1)
    if how == "bigview":
        public = dict(answer["public"])
        public["bank"] = public["x" * 1000] = "\x1b[2J" + "v" * ((size or 900) << 10)
        return canonical_json({**answer, "public": public}).encode()
    if how == "bigint":
        public = dict(answer["public"])
        public["bank"] = 10**4299
        return canonical_json({**answer, "public": public}).encode()
    if how == "fork":
        if os.fork() == 0:
            note_pid()
            hang()
        hang()
    if how == "stderr":
        chunk = b"e" * (MB - 1) + b"\n"
        for _ in range(size or 50):
            os.write(2, chunk)
        return None
    if how == "longline":
        return b'{"ok":true,"x":"' + b"x" * ((size or 20) * MB) + b'"}'
    if how == "escape":
        return b"\x1b[2J\x1b]0;pwned\x07 not JSON \x1b[31mred"
    if how in ("setsid", "daemon", "setpgid", "clean-daemon") and not ESCAPED:
        ESCAPED.append(how)  # once an engine
        escape_tree(how)
    return None


def main(argv: list[str]) -> int:
    how = argv[0]
    size = int(argv[1]) if len(argv) > 1 else 0
    if how not in HOW:
        sys.stderr.write(f"unknown hostile engine {how}\n")
        return 2
    note_pid()
    if how == "never-ends":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    engine = ReferenceEngine()
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        request = json.loads(raw)
        answer = engine.handle(request)
        if how == "escape" and request.get("op") == "start":
            answer = {**answer, "name": "\x1b]0;pwned\x07copa\x1b[2J", "version": "\u202e1"}
        line = None
        if request.get("op") == "observe":
            line = attack(how, answer, size, out)
        out.write((line if line is not None else canonical_json(answer).encode()) + b"\n")
        out.flush()
    if how == "never-ends":
        hang()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
