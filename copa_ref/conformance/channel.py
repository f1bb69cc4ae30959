"""The runner's side of the protocol: a channel carries one request to an engine and brings
back its one response, or raises :class:`EngineFailure` (crash, timeout, garbage).

:class:`SubprocessChannel` runs a command with pipes and a per-request timeout;
:class:`InProcessChannel` calls a Python :class:`~copa_ref.conformance.engine.Engine`
directly (through a JSON round trip, so that it sees exactly what a foreign engine would).

A channel survives any engine: an answer is read in time linear in its length and only up
to :attr:`~copa_ref.core.codec.Limits.max_length`, then decoded within the same
:class:`~copa_ref.core.codec.Limits` (depth, integer size, duplicate keys); what comes back
is a JSON object with a boolean ``"ok"``, or an :class:`EngineFailure`. The engine's stderr
is kept to a bounded tail. Text from the engine quoted in a failure is passed through
:func:`printable`.
See :mod:`~copa_ref.conformance.processes` for how every process an engine starts ends
with it.
"""

from __future__ import annotations

import abc
import contextlib
import json
import math
import os
import secrets
import select
import shlex
import signal
import subprocess
import time
from collections.abc import Callable, Sequence

from copa_ref.conformance.checks import MAX_DEPTH, out_of_range
from copa_ref.conformance.engine import Engine
from copa_ref.conformance.processes import MARK as _MARK
from copa_ref.conformance.processes import STARTED as _started
from copa_ref.conformance.processes import become_subreaper as _become_subreaper
from copa_ref.conformance.processes import end_orphans
from copa_ref.conformance.processes import end_tree as _end_tree
from copa_ref.core import JSON, MalformedInputError
from copa_ref.core.codec import LIMITS, Limits, canonical_json, clip, escape_strings, loads

__all__ = [
    "STDERR_TAIL",
    "Channel",
    "EngineFailure",
    "InProcessChannel",
    "SubprocessChannel",
    "end_orphans",
    "printable",
]

Message = dict[str, JSON]

STDERR_TAIL = 64 * 1024
"""The most bytes of an engine's stderr kept (the last ones)."""

_CHUNK = 1 << 16

_VOUCHED = 1 << 16
"""The most expected answer lines a channel remembers as read unchanged."""


def printable(text: object, limit: int = 600) -> str:
    """Text from an engine (its name, version, messages, stderr) made safe for a terminal
    and a report: control characters escaped (no escape sequence reaches the screen) and at
    most *limit* characters. Anything that is not a string is quoted first."""
    return clip(text if type(text) is str else repr(text)[: limit + 1], limit)


class EngineFailure(Exception):
    """The engine crashed, hung past the timeout, or answered with something that is not a
    message; the runner reports the case as errored and restarts the engine."""


def _no_duplicates(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("duplicate key")
    return result


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _no_constant(name: str) -> float:
    raise ValueError(name)


_PLAIN = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_float=_finite,
                          parse_constant=_no_constant)
_NOT_SHAPE = bytes(b for b in range(256) if b not in b'"[]{}')
_DIGITS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
"""Every digit to ``0``, every other byte to a space: a run of digits found by ``in``."""


def _long_number(raw: bytes) -> bool:
    """Whether *raw* has a run of sixteen digits (an integer beyond ``2**53`` needs one)."""
    return b"0000000000000000" in raw.translate(_DIGITS)


def _depth_within(raw: bytes, limit: int) -> bool:
    """Whether the lists and objects of the JSON text *raw* (no escape in it) nest at most
    *limit* deep; ``False`` too when a string holds a bracket (then the caller's general
    reader decides).

    Without an escape a string is a plain ``"..."``: with every byte but quotes and
    brackets deleted, strings without brackets are ``""`` pairs, removed at once (a string
    holding a bracket leaves a quote). Each pass then removes the innermost pairs, one
    level of nesting.
    """
    shape = raw.translate(None, _NOT_SHAPE).replace(b'""', b"")
    if b'"' in shape:
        return False
    if len(shape) <= 2 * limit:
        return True  # no more than *limit* openers
    for _ in range(limit):
        shape = shape.replace(b"[]", b"\0").replace(b"{}", b"\0").replace(b"\0", b"")
        if not shape:
            return True
    return False


def _plain_loads(raw: bytes, limits: Limits, long_number: bool | None = None) -> JSON:
    """What :func:`~copa_ref.core.codec.loads` reads from *raw*, for the lines a correct
    engine sends (ASCII, no escape, no long number), read at C speed; ``None`` when this
    reader cannot vouch for the line (any other line, or one nested deeper than the limit,
    with a bracket in a string, not JSON, with a duplicate key or NaN): then ``loads``
    reads it and says what is wrong. *long_number*: whether *raw* has a run of sixteen
    digits, when the caller knows.
    """
    if long_number is None:
        long_number = _long_number(raw)
    if (len(raw) > limits.max_length or limits.max_int_digits < 16 or not raw.isascii()
            or b"\\" in raw or long_number):
        return None
    if not _depth_within(raw, limits.max_depth):
        return None
    try:
        return _PLAIN.decode(raw.decode("ascii"))
    except (ValueError, RecursionError):
        return None


def _checked(line: bytes | str, limits: Limits) -> Message:
    """The response object of one answer line, or :class:`EngineFailure`; control
    characters in its strings are escaped, so that no engine text reaches a terminal or a
    report raw (no correct answer holds one: the escaped text still differs from the
    reference where the raw one did)."""
    raw = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
    plain = raw.isascii() and b"\\" not in raw
    long_number = _long_number(raw)
    response = _plain_loads(raw, limits, long_number) if plain and not long_number else None
    if response is None:
        try:
            response = loads(line, limits, "answer")
        except MalformedInputError as exc:
            shown = line[:200] if isinstance(line, str) else line[:200].decode("utf-8",
                                                                                "replace")
            raise EngineFailure(f"not a JSON line ({printable(exc, 300)}): "
                                f"{printable(repr(shown), 220)}") from None
    if not isinstance(response, dict) or type(response.get("ok")) is not bool:
        raise EngineFailure(f"not a response object with \"ok\": "
                            f"{printable(canonical_json(response), 300)}")
    if limits.max_depth > MAX_DEPTH or long_number:
        problem = out_of_range(response)
        if problem is not None:
            raise EngineFailure(f"an answer with {problem}")
    if plain and b"\x7f" not in raw:
        # No control character can be in it: JSON text holds none raw in a string, and
        # this line escapes nothing (the walk below is most of the cost of an answer).
        return response
    result: Message = escape_strings(response)
    return result


_LINES: dict[tuple[JSON, ...], str] = {}
"""The lines of the requests without a value of their own (``observe``, ``undo``, ``legal``
of a seat), encoded once."""


def _request_line(message: Message) -> str:
    """The canonical line of *message*, newline included."""
    op = message.get("op")
    key: tuple[JSON, ...] | None = None
    if len(message) == 1 and (op == "observe" or op == "undo") and type(op) is str:
        key = (op,)
    elif len(message) == 2 and op == "legal" and type(op) is str:
        seat = message.get("seat", False)
        if seat is None or (type(seat) is int and 0 <= seat < 64):
            key = (op, seat)
    if key is None:
        return canonical_json(message) + "\n"
    line = _LINES.get(key)
    if line is None:
        line = _LINES[key] = canonical_json(message) + "\n"
    return line


class Channel(abc.ABC):
    """One live engine session."""

    requests: int = 0
    """Requests sent so far."""

    pipelined: bool = False
    """Whether :meth:`send` writes its requests at once, ahead of their answers (a stream
    to a process); else each is asked when its answer is received."""

    @abc.abstractmethod
    def request(self, message: Message) -> Message:
        """Send *message*; return the response object.

        :raises EngineFailure: when no valid response arrives.
        """

    def send(self, messages: Sequence[Message]) -> None:
        """Write *messages* at once, to be answered in order by :meth:`receive`. A channel
        that is not :attr:`pipelined` keeps them and asks each with :meth:`request` when its
        answer is received.

        :raises EngineFailure: when the engine takes no request.
        """
        unsent = self.__dict__.setdefault("_unsent", [])
        unsent.extend(messages)

    def receive(self, expected: bytes | None = None) -> Message | None:
        """The answer to the oldest request sent and not answered yet; ``None`` when the
        answer line is *expected*, the canonical line of a JSON value, which the answer then
        is (a channel that is not :attr:`pipelined` always returns the answer itself).

        :raises EngineFailure: when no valid response arrives, or nothing was sent.
        """
        unsent = self.__dict__.get("_unsent")
        if not unsent:
            raise EngineFailure("an answer was asked for with no request sent")
        return self.request(unsent.pop(0))

    @abc.abstractmethod
    def close(self) -> None:
        """End the session (sends ``stop`` where the engine is alive)."""


class SubprocessChannel(Channel):
    """An engine command, one JSON object a line on its stdin and stdout; requests may be
    written ahead of their answers (:meth:`send`, :meth:`receive`).

    :param timeout: seconds to wait for each answer.
    :param start_timeout: seconds to wait for the first answer (the engine starting up);
        defaults to *timeout*.
    :param limits: the bounds of an answer line and its JSON.
    """

    def __init__(self, command: str | Sequence[str], *, timeout: float = 10.0,
                 cwd: str | None = None, start_timeout: float | None = None,
                 limits: Limits = LIMITS) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.start_timeout = timeout if start_timeout is None else start_timeout
        self.limits = limits
        self.requests = 0
        self.pipelined = True
        self._ended = False
        self._subreaper = _become_subreaper()
        token = secrets.token_hex(8)
        self._token = f"{_MARK}={token}".encode()
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, bufsize=0, cwd=cwd, start_new_session=True,
                env={**os.environ, _MARK: token})
        except (OSError, ValueError) as exc:
            raise EngineFailure(f"cannot start engine {printable(self.argv)}: "
                                f"{printable(str(exc))}") from None
        _started.add(self.proc.pid)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        assert self.proc.stderr is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        self._err: int | None = self.proc.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._poll = select.poll()  # one poll object, no selector's bookkeeping a request
        self._poll.register(self._out, select.POLLIN)
        self._poll.register(self._err, select.POLLIN)
        self._buffer = bytearray()
        self._tail = bytearray()
        self._unread = 0
        self._vouched: dict[bytes, bool] = {}
        self._deadline: float | None = None
        self._limit = self.start_timeout

    # -- stderr -------------------------------------------------------------------------------

    def _keep(self, chunk: bytes) -> None:
        self._tail += chunk
        if len(self._tail) > 2 * STDERR_TAIL:
            del self._tail[:-STDERR_TAIL]

    def _drain_stderr(self, budget: int = 1 << 20) -> None:
        """Read what stderr holds now, at most *budget* bytes (an engine writing without end
        cannot keep the runner here)."""
        while self._err is not None and budget > 0:
            try:
                chunk = os.read(self._err, _CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                with contextlib.suppress(KeyError, ValueError):
                    self._poll.unregister(self._err)
                self._err = None
                return
            budget -= len(chunk)
            self._keep(chunk)

    def stderr_tail(self) -> str:
        """The last lines of the engine's stderr, printable (empty when it wrote none)."""
        with contextlib.suppress(OSError, ValueError):
            self._drain_stderr()
        text = bytes(self._tail[-STDERR_TAIL:]).decode("utf-8", "replace").strip()
        return printable(" / ".join(text.splitlines()[-5:]), 1000)

    def _stderr_note(self) -> str:
        tail = self.stderr_tail()
        return f" | stderr: {tail}" if tail else ""

    # -- failing and ending ---------------------------------------------------------------------

    def _end_group(self) -> None:
        """End the engine and every process it started (see the module's docs): its process
        group, its tree of descendants and the orphans marked as its own; then reap the
        engine."""
        running = self.proc.poll() is None
        if running:  # stopped first: its children stay its own while the tree is read
            with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
                os.kill(self.proc.pid, signal.SIGSTOP)
        _end_tree(self.proc.pid if running else None, self._token)
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            self.proc.wait(5.0)
        _started.discard(self.proc.pid)

    def _fail(self, message: str) -> EngineFailure:
        """An :class:`EngineFailure` with the stderr tail; the engine's group is ended."""
        failure = EngineFailure(message + self._stderr_note())
        self._end_group()
        return failure

    # -- one request --------------------------------------------------------------------------

    def _read_line(self, timeout: float, shown: float | None = None) -> bytes:
        """The next answer line, read within *timeout* seconds (*shown*: the limit the
        message names, the whole request's)."""
        deadline = time.monotonic() + timeout
        limit = self.limits.max_length
        newline = self._buffer.find(b"\n")
        if newline >= 0:
            line = bytes(self._buffer[:newline])
            del self._buffer[: newline + 1]
            return line
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                named = timeout if shown is None else shown
                raise self._fail(f"no answer within {named:g} s (timeout)")
            for fd, _ in self._poll.poll(math.ceil(remaining * 1000)):
                if fd == self._err:
                    self._drain_stderr(_CHUNK * 16)
                    continue
                try:
                    chunk = os.read(self._out, _CHUNK)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    raise self._fail(f"cannot read the engine's answer ({exc})") from None
                if not chunk:
                    code = self.proc.poll()
                    if code is None:
                        with contextlib.suppress(subprocess.TimeoutExpired):
                            code = self.proc.wait(0.5)
                    raise self._fail(f"engine closed its output (exit status {code})")
                newline = chunk.find(b"\n")  # only the new bytes are searched: linear time
                if newline >= 0:
                    line = bytes(self._buffer) + chunk[:newline]
                    self._buffer = bytearray(chunk[newline + 1:])
                    if len(line) > limit:
                        raise self._fail(self._too_long(len(line)))
                    return line
                self._buffer += chunk
                if len(self._buffer) > limit:
                    raise self._fail(self._too_long(len(self._buffer)))

    def _too_long(self, size: int) -> str:
        return (f"answer line longer than {self.limits.max_length} bytes "
                f"(Limits.max_length; {size} read)")

    def request(self, message: Message) -> Message:
        self.send([message])
        answer = self.receive()
        assert answer is not None  # nothing was expected
        return answer

    def send(self, messages: Sequence[Message]) -> None:
        """Write *messages* in one go, their answers to be read by :meth:`receive`, in
        order. The write and the first answer's read and parse share the request's time
        limit; while the engine does not take the requests in, its answers are read (and
        kept, at most one line of ``Limits.max_length`` a request) so that an engine
        blocked writing them cannot block the runner.

        :raises EngineFailure: when the engine is gone or takes no request within the
            time limit.
        """
        if self._ended:
            raise EngineFailure("the engine was stopped")
        timeout = self.start_timeout if self.requests == 0 else self.timeout
        self._deadline = time.monotonic() + timeout
        self._limit = timeout
        self.requests += len(messages)
        self._unread += len(messages)
        data = "".join([_request_line(m) for m in messages]).encode()
        try:
            self._write_all(data, timeout)
        except OSError as exc:
            raise self._fail(f"engine is gone ({exc})") from None

    @property
    def unread(self) -> int:
        """Requests written whose answers are not read yet."""
        return self._unread

    def receive(self, expected: bytes | None = None) -> Message | None:
        """The answer to the oldest request written and not answered yet, read and parsed
        within the time limit: the first of a batch within the limit from its writing,
        every later one within the limit from this call (the time the runner would have
        sent it, had it waited for the previous answer).

        :param expected: the canonical JSON line of the answer the runner expects (of a
            JSON value, as a runner builds it with ``canonical_json``): when the engine's
            line is exactly that, and the line is one the reader takes as it is (ASCII,
            nothing escaped, within the limits), ``None`` is returned: the answer is that
            value, and is not parsed again.
        :raises EngineFailure: when no valid answer arrives in time.
        """
        if self._ended:
            raise EngineFailure("the engine was stopped")
        assert self._unread > 0, "receive() without a request written"
        timeout = self._limit
        deadline = self._deadline
        self._deadline = None
        if deadline is None:
            deadline = time.monotonic() + timeout
        self._unread -= 1
        line = self._read_line(max(deadline - time.monotonic(), 0.0), timeout)
        if expected is not None and line == expected and self._as_written(expected):
            if time.monotonic() > deadline:
                raise self._fail(f"no answer read and parsed within {timeout:g} s (timeout)")
            return None
        try:
            response = _checked(line, self.limits)
        except EngineFailure as exc:
            raise self._fail(str(exc)) from None
        if time.monotonic() > deadline:
            # The reader is linear in the line, so this overruns the limit by at most the
            # time one line of Limits.max_length takes to read.
            raise self._fail(f"no answer read and parsed within {timeout:g} s (timeout)")
        return response

    def _as_written(self, line: bytes) -> bool:
        """Whether :func:`_checked` reads the canonical JSON line of a value back as that
        value, unchanged: ASCII, nothing escaped, no ``NaN``, no long number, within the
        limits and the depth a report may have (remembered for the lines asked again)."""
        known = self._vouched.get(line)
        if known is None:
            limits = self.limits
            known = (len(line) <= limits.max_length and limits.max_int_digits >= 16
                     and line.startswith(b'{"') and line.isascii() and b"\\" not in line
                     and b"\x7f" not in line and b"NaN" not in line and b"Infinity" not in line
                     and not _long_number(line)
                     and _depth_within(line, min(limits.max_depth, MAX_DEPTH)))
            if len(self._vouched) >= _VOUCHED:
                self._vouched.clear()
            self._vouched[line] = known
        return known

    def _write_all(self, data: bytes, timeout: float) -> None:
        """Write *data* to the engine's stdin, waiting at most *timeout* for it to read (an
        engine that never reads cannot block the runner). Meanwhile the engine's answers
        are read into the buffer (up to one line of ``Limits.max_length`` for each request
        awaiting its answer, and one more), and its stderr into the tail: an engine that
        waits for its answers to be read before it reads on is served."""
        try:
            written = os.write(self._in, data)
        except BlockingIOError:
            written = 0
        if written == len(data):
            return
        deadline = time.monotonic() + timeout
        view = memoryview(data)[written:]
        cap = (self._unread + 1) * (self.limits.max_length + 1)
        waiting = select.poll()
        waiting.register(self._in, select.POLLOUT)
        waiting.register(self._out, select.POLLIN)
        if self._err is not None:
            waiting.register(self._err, select.POLLIN)
        while view:
            remaining = deadline - time.monotonic()
            events = waiting.poll(math.ceil(remaining * 1000)) if remaining > 0 else []
            if not events:
                raise self._fail(f"the engine reads no request within {timeout:g} s "
                                 "(timeout)")
            for fd, _ in events:
                if fd == self._in:
                    try:
                        written = os.write(self._in, view)
                    except BlockingIOError:
                        written = 0
                    view = view[written:]
                elif fd == self._out:
                    try:
                        chunk = os.read(self._out, _CHUNK)
                    except BlockingIOError:
                        continue
                    except OSError:
                        chunk = b""
                    self._buffer += chunk
                    if not chunk or len(self._buffer) >= cap:
                        # Its output ended, or holds more than it may send: what is wrong
                        # is found when the answers are read.
                        waiting.unregister(self._out)
                elif fd == self._err:
                    self._drain_stderr(_CHUNK * 16)
                    if self._err is None:
                        waiting.unregister(fd)

    def close(self) -> None:
        """Send ``stop`` and give the engine a second to end; then end its whole process
        group in any case (children it forked included)."""
        if self._ended:
            return
        self._ended = True
        if self.proc.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                os.write(self._in, b'{"op":"stop"}\n')
            with contextlib.suppress(OSError, ValueError):
                self.proc.stdin.close()  # type: ignore[union-attr]
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(1.0)
        self._end_group()
        with contextlib.suppress(OSError, ValueError):
            self._drain_stderr()
        self._err = None
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()


class InProcessChannel(Channel):
    """A Python engine called directly; every message goes through JSON text both ways,
    read within the same limits as an engine's answer line."""

    def __init__(self, factory: Callable[[], Engine], *, limits: Limits = LIMITS) -> None:
        self.engine = factory()
        self.limits = limits
        self.requests = 0

    def request(self, message: Message) -> Message:
        self.requests += 1
        try:
            request = loads(canonical_json(message), self.limits, "request")
            answer = canonical_json(self.engine.handle(request))
        except Exception as exc:  # an in-process engine that raises has crashed
            raise EngineFailure(f"engine raised {type(exc).__name__}: "
                                f"{printable(str(exc))}") from None
        return _checked(answer, self.limits)

    def close(self) -> None:
        """Send ``stop``; an in-process engine holds no process to end."""
        with contextlib.suppress(EngineFailure):
            self.request({"op": "stop"})
