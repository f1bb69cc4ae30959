"""The processes an engine starts, and their end.

Every process an engine starts ends with it, whatever it does to its session or group (a
``setsid`` grandchild, a double-fork daemon that closes every descriptor, a ``setpgid``
child). On Linux the runner's process is made a *child subreaper*
(``prctl(PR_SET_CHILD_SUBREAPER)``): a descendant orphaned by its parent's exit is
reparented to the runner, never to init, so it cannot leave the runner's tree. Each engine
is started with a mark in its environment (``COPA_REF_ENGINE=<token>``); ending an engine
stops (``SIGSTOP``, so that nothing forks meanwhile) and then kills its whole tree of
descendants, read from ``/proc``, and every child of the runner that carries the engine's
mark (an orphan already reparented), and reaps them. A subreaper needs no privilege, unlike
a PID namespace (``CAP_SYS_ADMIN`` or user namespaces, often disabled in CI containers) or
a cgroup (a delegated cgroup v2 subtree, rarely writable there); and a cgroup or namespace
would end the same processes. Elsewhere, and as a first step everywhere, the engine's
process group is killed. :func:`end_orphans` ends, at the end of a run, any child of the
runner left (an orphan that also cleared its environment); ``copa-ref conformance run``
calls it.

For a program that uses the runner as a library: the subreaper mark is set on the process
the first time it starts an engine and stays for the rest of its life (Linux has no
per-thread mark). From then on any orphaned descendant of that process, an engine's or not,
is reparented to it rather than to init, and stays a zombie until the process reaps it (a
``subprocess`` child is reaped as usual by its ``wait``). A program that starts daemons of
its own beside the runner should run the runner in a child process.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import time

__all__ = ["MARK", "STARTED", "become_subreaper", "end_orphans", "end_tree"]

_PR_SET_CHILD_SUBREAPER = 36
MARK = "COPA_REF_ENGINE"
_subreaper: bool | None = None
STARTED: set[int] = set()
"""The PIDs of the engines this process started and has not ended."""


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux), once; whether it is one."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            with contextlib.suppress(OSError, AttributeError, TypeError):
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6",
                                   use_errno=True)
                _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    return _subreaper


def _parents() -> dict[int, int]:
    """Every process's parent, from ``/proc`` (empty where there is none)."""
    parents: dict[int, int] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields and fields[0] not in (b"Z", b"X"):
                parents[int(entry.name)] = int(fields[1])
    return parents


def _marked(pid: int, token: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return token in environ.read().split(b"\0")
    except OSError:
        return False


def _tree(root: int | None, token: bytes | None) -> set[int]:
    """The descendants of *root* (itself included) and the runner's children marked with
    *token*, with theirs."""
    parents = _parents()
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    me = os.getpid()
    tops = [] if root is None else [root]
    tops += [pid for pid in children.get(me, ()) if pid not in STARTED and (
        token is None or _marked(pid, token))]
    found: set[int] = set()
    while tops:
        pid = tops.pop()
        if pid in found or pid == me:
            continue
        found.add(pid)
        tops.extend(children.get(pid, ()))
    return found


def _signal(pids: set[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signum)


def _reap(pids: set[int]) -> None:
    """Collect the exit status of those of *pids* that are the runner's children."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.waitpid(pid, os.WNOHANG)


def end_tree(root: int | None, token: bytes | None) -> None:
    """Stop, then kill, every process of :func:`_tree` (read again until no new one
    appears), and reap them."""
    if not os.path.isdir("/proc/self"):
        return
    ended: set[int] = set()
    for _ in range(20):
        found = _tree(root, token) - ended
        if not found:
            break
        _signal(found, signal.SIGSTOP)
        ended |= found
    _signal(ended, signal.SIGKILL)
    _signal(ended, signal.SIGCONT)
    deadline = time.monotonic() + 2.0
    while ended and time.monotonic() < deadline:
        _reap(ended - {root})  # the engine itself is its Popen's to reap
        ended = {pid for pid in ended if _alive(pid)}
        if ended:
            time.sleep(0.01)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except (OSError, IndexError):
        return False


def end_orphans() -> None:
    """End every child of this process that no live channel started (descendants of ended
    engines reparented here) with their descendants. For the end of a run in a process that
    starts nothing but engines (``copa-ref conformance run``)."""
    end_tree(None, None)
