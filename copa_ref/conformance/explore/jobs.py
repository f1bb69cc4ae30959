"""``explore --jobs N``: N worker processes, each with its own engine, each a finer shard of
the exploration's shard; their reports merged into one.

A worker sends every report line as it is made, a snapshot of its footer after every game
and a heartbeat every :data:`HEARTBEAT` seconds. A worker that ends before its footer (it
dies, or explore fails in it), or sends nothing for :data:`STALL` seconds (stopped, frozen:
it is killed), costs one game: the game it was playing is errored, with the reason, in the
report's games, its footer's ``errors`` and the summary; its report is closed with its last
footer snapshot, and a fresh worker goes on with the rest of its shard from the next game.
So a run with ``--games`` plays every game of its budget, whatever its workers do.

``--time`` is one deadline for all: each worker stops at it by itself (explore checks it at
every step); one still running :data:`GRACE` seconds after it (a loaded machine, an engine
slow to answer) is killed, and the game it was playing is cut as the worker would cut it
at the budget: the report says timed out, and no game errored.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

import attrs

from copa_ref.conformance.channel import SubprocessChannel, printable
from copa_ref.conformance.explore.loop import Explorer, Settings, part_of
from copa_ref.conformance.explore.report import MergeError, merge

__all__ = ["GRACE", "HEARTBEAT", "STALL", "JobsError", "run_jobs"]

Line = dict[str, Any]

HEARTBEAT = 0.5
"""Seconds between a worker's heartbeats."""
STALL = 15.0
"""A worker that sends nothing for this many seconds (not even a heartbeat) is stuck: it is
killed and the game it was playing errored."""
START = 120.0
"""Seconds a fresh worker may take to send its first message (start-up and imports)."""
GRACE = 2.0
"""Seconds past the time budget a worker may take to end by itself."""


class JobsError(Exception):
    """The exploration cannot start (the engine did not start in a worker), or the workers'
    reports do not merge: one line, exit status 2."""


def worker(command: str, timeout: float, settings: Settings, deadline: float | None,
           pipe: Connection) -> None:
    """One worker process: explores *settings*' shard (until the wall-clock *deadline*)
    and sends ``(kind, data)`` messages on its own *pipe* (a worker that dies mid-message
    spoils no other's): each report ``line``, a footer snapshot as ``progress`` after each
    game, ``alive`` heartbeats, ``failed`` (why explore ended without its footer) and
    ``done``."""
    from copa_ref.conformance.corpus import load_corpus
    from copa_ref.conformance.runner import Runner

    stop = threading.Event()
    lock = threading.Lock()

    def send(kind: str, data: Any) -> None:
        with lock:
            pipe.send((kind, data))

    def beat() -> None:
        while not stop.wait(HEARTBEAT):
            send("alive", None)

    send("alive", None)
    threading.Thread(target=beat, daemon=True).start()
    try:
        if deadline is not None:
            settings = attrs.evolve(settings, seconds=max(0.0, deadline - time.time()))
        corpus = load_corpus()
        runner = Runner(lambda: SubprocessChannel(command, timeout=timeout), corpus)
        explorer = Explorer(runner, settings, corpus)

        def progress(state: Any) -> None:
            footer = state.footer()
            footer["requests"] = runner.requests
            footer["situations"] = explorer.director.summary()
            send("progress", footer)

        explorer.explore(on_line=lambda line: send("line", line), on_progress=progress)
    except BaseException as exc:  # told to the parent, which decides
        send("failed", f"{type(exc).__name__}: {printable(str(exc), 300)}")
    finally:
        stop.set()
        send("done", None)
        pipe.close()


@attrs.define
class _Part:
    """One worker process (job *job*, its *incarnation*-th) and what it told."""

    job: int
    incarnation: int
    settings: Settings
    process: Any
    pipe: Connection
    heard: float
    lines: list[Line] = attrs.Factory(list)
    snapshot: Line | None = None
    failure: str | None = None
    done: bool = False
    closed: bool = False
    started: bool = False
    """Whether a message came from it (its start-up is over)."""

    def footer(self) -> Line | None:
        return next((line for line in self.lines if line.get("type") == "explore_footer"),
                    None)

    def header(self) -> Line | None:
        return next((line for line in self.lines if line.get("type") == "explore_header"),
                    None)

    def under_way(self) -> int | None:
        """The number of the game the worker was playing (the next of its shard after the
        last game it reported); ``None``: its budget in games was spent."""
        shard, shards = self.settings.shard
        numbers = [line["number"] for line in self.lines
                   if line.get("type") == "explore_game"]
        number = max(numbers) + 1 if numbers else self.settings.start
        header = self.header()
        explored = len(header.get("explored") or ()) if header is not None else 0
        if explored:
            while part_of(number, explored, shards) != shard - 1:
                number += 1
        games = (header.get("games_budget") if header is not None
                 else self.settings.games)
        return None if games is not None and number >= games else number


def _empty_footer() -> Line:
    return {"type": "explore_footer", "games": 0, "steps": 0, "probes": 0, "requests": 0,
            "seconds": 0.0, "interrupted": False, "timed_out": False, "errored": 0,
            "errors": [], "load_state": False, "differences": 0, "broken_rules": [],
            "occurrences": {}, "fired": {}, "never_reached": {},
            "untested_past_difference": {}, "past_difference": {}, "situations": {}}


def run_jobs(command: str, timeout: float, settings: Settings, jobs: int,
             progress: Callable[[int, int, int], None]) -> list[Line]:
    """Explore with *jobs* workers; the merged report's lines (header first, footer last).

    :raises JobsError: when the engine did not start in the first workers, or the reports
        do not merge.
    """
    shard, shards = settings.shard
    started = time.monotonic()
    deadline = time.time() + settings.seconds if settings.seconds is not None else None
    context = multiprocessing.get_context("spawn")
    parts: dict[tuple[int, int], _Part] = {}
    interrupted = False

    def spawn(job: int, incarnation: int, part_settings: Settings) -> None:
        reader, writer = context.Pipe(duplex=False)
        process = context.Process(target=worker, args=(command, timeout, part_settings,
                                                       deadline, writer), daemon=True)
        process.start()
        writer.close()  # the worker's end: the parent reads the end of the pipe when it ends
        parts[(job, incarnation)] = _Part(job, incarnation, part_settings, process, reader,
                                          time.monotonic())

    for job in range(jobs):
        spawn(job, 0, attrs.evolve(settings, shard=(shard + shards * job, shards * jobs)))

    def receive(part: _Part) -> None:
        """One message of *part* (its pipe is ready); at the end of its pipe, or a message
        spoiled by its death, it is over."""
        try:
            kind, data = part.pipe.recv()
        except Exception:  # EOFError, OSError, a message cut short
            part.done = True
            return
        part.heard = time.monotonic()
        part.started = True
        if kind == "line":
            part.lines.append(data)
        elif kind == "progress":
            part.snapshot = data
            totals = [0, 0, 0]
            for p in parts.values():
                foot = p.footer() or p.snapshot or {}
                totals[0] += foot.get("games", 0)
                totals[1] += foot.get("steps", 0)
                totals[2] += foot.get("differences", 0)
            progress(*totals)
        elif kind == "failed":
            part.failure = data
        elif kind == "done":
            part.done = True

    def close(part: _Part, reason: str | None, cut: bool = False) -> None:
        """End *part*: its report complete, or closed with the game it was playing
        errored (*reason*), and a fresh worker for the rest of its shard; where the time
        budget *cut* it (a worker still in a game past it), that game is cut as a worker
        cuts its own at the budget: not errored, the report timed out."""
        part.closed = True
        if part.process.is_alive():
            part.process.kill()
        part.process.join(timeout=5)
        part.pipe.close()
        if part.footer() is not None:
            return
        reason = reason or part.failure or (
            f"the worker ended (exit status {part.process.exitcode}) before its report was "
            "complete")
        header = part.header()
        if header is None:
            known = next((h for p in parts.values() if (h := p.header()) is not None), None)
            if known is None and not interrupted:
                for other in parts.values():
                    if not other.closed and other.process.is_alive():
                        other.process.kill()
                msg = f"the engine {command!r} did not start in a worker: {reason}"
                if deadline is not None and time.time() >= deadline:
                    msg += (" (the time budget ran out before the engine answered its "
                            "handshake: a longer --time gives it room to start)")
                raise JobsError(msg)
            if known is None:
                return
            header = {**known, "shard": "{}/{}".format(*part.settings.shard),
                      "settings": part.settings.as_json()}
            part.lines.insert(0, header)
        footer = dict(part.snapshot or _empty_footer())
        footer["seconds"] = round(time.monotonic() - started, 3)
        footer["interrupted"] = interrupted
        number = part.under_way()
        names = list(header.get("explored") or [])
        if cut:
            footer["timed_out"] = True
        elif number is not None and names and not interrupted:
            name = names[number % len(names)]
            case = f"{name}/trace/explore-{settings.seed}-game-{number}"
            footer["games"] += 1
            footer["errored"] += 1
            footer["errors"] = [*footer["errors"], {"case": case, "reason": reason}]
            part.lines.append({"type": "explore_game", "number": number, "game": name,
                               "config": "?", "actions": 0, "over": False, "checked": 0,
                               "status": "errored", "reason": reason})
            over = deadline is not None and time.time() >= deadline
            if over:
                footer["timed_out"] = True
            else:
                spawn(part.job, part.incarnation + 1,
                      attrs.evolve(part.settings, start=number + 1))
        part.lines.append(footer)

    while any(not p.closed for p in parts.values()):
        live = {p.pipe: p for p in parts.values() if not p.closed and not p.done}
        try:
            for ready in wait(list(live), timeout=0.2):
                receive(live[ready])  # type: ignore[index]
        except KeyboardInterrupt:
            interrupted = True  # the workers end with their summary so far
            continue
        now = time.monotonic()
        for part in list(parts.values()):
            if part.closed:
                continue
            if not part.done and not part.process.is_alive():
                while not part.done and part.pipe.poll(0.05):  # what it sent before it ended
                    receive(part)
                part.done = True
            if part.done:
                close(part, None)
            elif now - part.heard > (STALL if part.started else START):
                close(part, f"the worker sent nothing for {now - part.heard:.0f} s (stuck); "
                            "it was ended")
            elif deadline is not None and time.time() > deadline + GRACE:
                close(part, f"the worker did not stop within {GRACE:.0f} s of the time "
                            "budget; it was ended", cut=True)
    reports = [parts[k].lines for k in sorted(parts) if parts[k].lines]
    try:
        merged = merge(reports)
    except MergeError as exc:
        msg = f"the workers' reports do not merge: {exc}"
        raise JobsError(msg) from None
    merged[0] = {**merged[0], "shard": f"{shard}/{shards}", "settings": settings.as_json()}
    merged[0].pop("merged", None)
    if interrupted:
        merged[-1]["interrupted"] = True
    return merged
