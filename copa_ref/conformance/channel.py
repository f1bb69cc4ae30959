"""The runner's side of the protocol: a channel carries one request to an engine and brings
back its one response, or raises :class:`EngineFailure` (crash, timeout, garbage).

:class:`SubprocessChannel` runs a command with line-buffered pipes and a per-request
timeout; :class:`InProcessChannel` calls a Python :class:`~copa_ref.conformance.engine.Engine`
directly (through a JSON round trip, so that it sees exactly what a foreign engine would).
"""

from __future__ import annotations

import abc
import contextlib
import json
import os
import selectors
import shlex
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

from copa_ref.conformance.engine import Engine
from copa_ref.core import JSON

__all__ = ["Channel", "EngineFailure", "InProcessChannel", "SubprocessChannel"]

Message = dict[str, JSON]


class EngineFailure(Exception):
    """The engine crashed, hung past the timeout, or answered with something that is not a
    message; the runner reports the case as errored and restarts the engine."""


class Channel(abc.ABC):
    """One live engine session."""

    requests: int = 0
    """Requests sent so far."""

    @abc.abstractmethod
    def request(self, message: Message) -> Message:
        """Send *message*; return the response object.

        :raises EngineFailure: when no valid response arrives.
        """

    @abc.abstractmethod
    def close(self) -> None:
        """End the session (sends ``stop`` where the engine is alive)."""


class SubprocessChannel(Channel):
    """An engine command, one JSON object a line on its stdin and stdout."""

    def __init__(self, command: str | Sequence[str], *, timeout: float = 10.0,
                 cwd: str | None = None) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.requests = 0
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the engine
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr, bufsize=0, cwd=cwd)
        except OSError as exc:
            raise EngineFailure(f"cannot start engine {self.argv!r}: {exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._out, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)
        self._buffer = b""
        self._dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode

    def _stderr_tail(self) -> str:
        try:
            self._stderr.seek(0)
            text = self._stderr.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""
        lines = text.splitlines()[-5:]
        return (" | stderr: " + " / ".join(lines)) if lines else ""

    def _read_line(self) -> bytes:
        deadline = time.monotonic() + self.timeout
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line, self._buffer = self._buffer[:newline], self._buffer[newline + 1:]
                return line
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._selector.select(remaining):
                if time.monotonic() >= deadline:
                    raise EngineFailure(
                        f"no answer within {self.timeout:g} s (timeout){self._stderr_tail()}")
                continue
            try:
                chunk = os.read(self._out, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                code = self.proc.poll()
                if code is None:
                    try:
                        code = self.proc.wait(0.5)
                    except subprocess.TimeoutExpired:
                        code = None
                raise EngineFailure(
                    f"engine closed its output (exit status {code}){self._stderr_tail()}")
            self._buffer += chunk

    def request(self, message: Message) -> Message:
        self.requests += 1
        data = (self._dumps(message) + "\n").encode()
        try:
            os.write(self._in, data) if len(data) < 4096 else self._write_all(data)
        except (BrokenPipeError, OSError) as exc:
            raise EngineFailure(f"engine is gone ({exc}){self._stderr_tail()}") from None
        line = self._read_line()
        try:
            response = json.loads(line)
        except ValueError:
            shown = line[:200].decode("utf-8", "replace")
            raise EngineFailure(f"not a JSON line: {shown!r}") from None
        if not isinstance(response, dict) or type(response.get("ok")) is not bool:
            shown = line[:200].decode("utf-8", "replace")
            raise EngineFailure(f"not a response object with \"ok\": {shown!r}")
        return response

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self._in, view)
            view = view[written:]

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                os.write(self._in, b'{"op":"stop"}\n')
                self.proc.stdin.close()  # type: ignore[union-attr]
                self.proc.wait(1.0)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._selector.close()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._stderr.close()


class InProcessChannel(Channel):
    """A Python engine called directly; every message goes through JSON text both ways."""

    def __init__(self, factory: Callable[[], Engine]) -> None:
        self.engine = factory()
        self.requests = 0
        self._dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode

    def request(self, message: Message) -> Message:
        self.requests += 1
        try:
            response: Any = json.loads(self._dumps(self.engine.handle(json.loads(
                self._dumps(message)))))
        except Exception as exc:  # an in-process engine that raises has crashed
            raise EngineFailure(f"engine raised {type(exc).__name__}: {exc}") from None
        if not isinstance(response, dict) or type(response.get("ok")) is not bool:
            raise EngineFailure(f"not a response object with \"ok\": {response!r}")
        result: Message = response
        return result

    def close(self) -> None:
        """Send ``stop``; an in-process engine holds no process to end."""
        with contextlib.suppress(EngineFailure):
            self.request({"op": "stop"})
