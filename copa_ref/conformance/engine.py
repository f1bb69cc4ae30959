"""The engine side of the protocol: the adapter interface, the reference engine, the loop.

An engine is a stateful session that answers one request object with one response object
(``conformance/README.md``). :class:`Engine` is the interface a Python engine implements
to be run in-process; :func:`serve` turns any :class:`Engine` into a command speaking the
protocol over stdin/stdout (``copa-ref engine`` serves :class:`ReferenceEngine`).

:func:`serve` survives anything on its input: a line longer than the limit, bytes that are
not UTF-8, JSON nested too deeply, a request that makes the engine raise. Each line gets
exactly one canonical JSON line back (keys sorted, UTF-8), an error answer where needed.
"""

from __future__ import annotations

import abc
import contextlib
import io
import os
import sys
from collections import deque
from collections.abc import Callable, Iterator
from typing import IO, Any, ClassVar

from copa_ref import __version__
from copa_ref.conformance.observables import PROTOCOL_VERSION
from copa_ref.core import JSON, IllegalActionError, MalformedInputError, MoverKind, RuleViolation
from copa_ref.core.codec import LIMITS, Limits, canonical_json, clip, excerpt, loads
from copa_ref.games import GAMES, get_game

__all__ = ["Engine", "MemoEngine", "ProtocolError", "ReferenceEngine", "serve"]

Message = dict[str, JSON]

_SHORT = 2048
"""The longest text kept for asking again: a request line :func:`serve` keeps parsed (for
an engine that leaves its requests alone), a refused action :class:`MemoEngine` keeps."""

class ProtocolError(Exception):
    """A request the engine cannot carry out; answered with ``{"ok": false, "error": ...}``."""


def _named(game: JSON) -> Any:
    """The registered game *game* names.

    :raises ProtocolError: for anything else (not a string, or no such game).
    """
    if type(game) is not str:
        raise ProtocolError(f"game must be a string, got {excerpt(game)}")
    try:
        return get_game(game)
    except KeyError as exc:
        raise ProtocolError(str(exc.args[0])) from None


class Engine(abc.ABC):
    """A conformance engine as a Python object: one method per operation.

    Subclasses implement the operations; :meth:`handle` routes a request to them and wraps
    the answer. Raise :class:`ProtocolError` for a request that cannot be carried out.
    """

    leaves_requests_alone: ClassVar[bool] = False
    """Whether :meth:`handle` never changes a request object it is given: :func:`serve`
    then parses a short line it has read before only once, and hands the engine the same
    request object again."""

    @abc.abstractmethod
    def hello(self) -> Message:
        """The handshake answer without ``ok`` and ``protocol``: ``name``, ``version``,
        ``games`` (``{game: {"options": [...]}}``, each game optionally with
        ``"readings": {option: [values played]}``, the readings it plays per option, the
        default included or not) and ``features``."""

    @abc.abstractmethod
    def new_game(self, game: str, config: JSON) -> None:
        """Start a game of *game* from the config's JSON."""

    @abc.abstractmethod
    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        """Apply an action: ``(accepted, rule, message)``; a refused action changes nothing."""

    @abc.abstractmethod
    def legal(self, seat: int | None) -> list[JSON]:
        """The legal actions (of *seat*, or at a seat/any node with ``None``)."""

    @abc.abstractmethod
    def observe(self) -> Message:
        """``to_move``, ``public`` and ``outcome`` of the current position."""

    def export(self) -> JSON:
        """The whole state (feature ``export_state``)."""
        raise ProtocolError("export is not supported")

    def load_state(self, game: str, config: JSON, state: JSON) -> None:
        """Start a game of *game* from the full canonical *state* (feature ``load_state``,
        ``specs/protocol.md`` P-13): ``new_game`` with a ``"state"``."""
        raise ProtocolError("load_state is not supported")

    def undo(self) -> None:
        """Take back the last accepted action (feature ``undo``)."""
        raise ProtocolError("undo is not supported")

    def respond(self, request: Message) -> str:
        """The answer line to *request*: :meth:`handle`'s answer as canonical JSON
        (without the newline); :func:`serve` writes it."""
        return _encode(self.handle(request))

    def handle(self, request: Message) -> Message:
        """Answer one request; never raises: a bad request, or an engine that raises, is
        answered ``ok: false``."""
        try:
            op = request.get("op")
            if op == "start":
                return {"ok": True, "protocol": PROTOCOL_VERSION, **self.hello()}
            if op == "new_game":
                if request.get("state") is not None:
                    self.load_state(request["game"], request["config"], request["state"])
                else:
                    self.new_game(request["game"], request["config"])
                return {"ok": True}
            if op == "apply":
                accepted, rule, message = self.apply(request["action"])
                if accepted:
                    return {"ok": True, "accepted": True}
                return {"ok": True, "accepted": False, "rule": rule, "message": message}
            if op == "legal":
                return {"ok": True, "actions": self.legal(request.get("seat"))}
            if op == "observe":
                return {"ok": True, **self.observe()}
            if op == "export":
                return {"ok": True, "state": self.export()}
            if op == "undo":
                self.undo()
                return {"ok": True}
            if op == "stop":
                return {"ok": True}
            raise ProtocolError(f"unknown op {excerpt(op)}")
        except ProtocolError as exc:
            return {"ok": False, "error": clip(str(exc))}
        except KeyError as exc:
            return {"ok": False, "error": f"bad request: no {excerpt(exc.args[0])}"}
        except (TypeError, ValueError) as exc:
            return {"ok": False,
                    "error": f"bad request: {type(exc).__name__}: {clip(str(exc))}"}
        except Exception as exc:  # the engine itself failed: say so, and go on serving
            return {"ok": False, "error": f"engine error: {type(exc).__name__}: "
                                          f"{clip(str(exc))}"}


class ReferenceEngine(Engine):
    """The reference itself as an engine: every registered game, every option, every
    feature. ``undo`` goes back at most :attr:`MAX_UNDO` actions."""

    MAX_UNDO: ClassVar[int] = 10_000
    """The most actions the engine can take back in a row: it keeps the states before its
    last ``MAX_UNDO`` accepted actions only, so a game that never has to end (Kopa passes)
    plays on in bounded memory; an ``undo`` further back is an error answer."""

    def __init__(self) -> None:
        self.game: Any = None
        self.state: Any = None
        self.history: deque[Any] = deque(maxlen=self.MAX_UNDO)
        self._played = 0
        """Actions accepted in this game and not taken back (the history keeps the last
        :attr:`MAX_UNDO` of them)."""

    def hello(self) -> Message:
        return {
            "name": "copa-ref",
            "version": __version__,
            "games": {name: {"options": ["*"]} for name in sorted(GAMES)},
            "features": ["export_state", "load_state", "rule_ids", "undo"],
        }

    def new_game(self, game: str, config: JSON) -> None:
        """Start a game; on any failure the previous game (or none) stays as it was."""
        chosen = _named(game)
        try:
            state = chosen.new_game(chosen.config_from_json(config))
        except ValueError as exc:
            raise ProtocolError(f"bad config: {exc}") from None
        self._begin(chosen, state)

    def load_state(self, game: str, config: JSON, state: JSON) -> None:
        """Start from *state*; it must be a state the rules allow, of the config given. On
        any failure the previous game (or none) stays as it was."""
        chosen = _named(game)
        try:
            loaded = chosen.state_from_json(state)
            wanted = chosen.config_from_json(config)
        except ValueError as exc:
            raise ProtocolError(f"bad state: {exc}") from None
        if getattr(loaded, "config", wanted) != wanted:
            raise ProtocolError("bad state: its config is not the config given")
        self._begin(chosen, loaded)

    def _begin(self, game: Any, state: Any) -> None:
        """Play *game* from *state*, with nothing to take back."""
        self.game, self.state = game, state
        self.history, self._played = deque(maxlen=self.MAX_UNDO), 0

    def _require_game(self) -> Any:
        if self.game is None:
            raise ProtocolError("no game: send new_game first")
        return self.game

    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        game = self._require_game()
        try:
            decoded = self.decode(game, action)
            after = game.apply(self.state, decoded)
        except IllegalActionError as exc:
            return False, exc.rule, exc.message
        except RuleViolation as exc:
            return False, exc.rule, exc.message
        except ValueError as exc:
            return False, None, clip(str(exc))
        self.history.append(self.state)
        self._played += 1
        self.state = after
        return True, None, ""

    def decode(self, game: Any, action: JSON) -> Any:
        """The action of the JSON *action* (``Game.action_from_json``)."""
        return game.action_from_json(action)

    def legal(self, seat: int | None) -> list[JSON]:
        game = self._require_game()
        if seat is not None and type(seat) is not int:
            raise ProtocolError(f"seat must be an integer or null, got {excerpt(seat)}")
        mover = game.to_move(self.state)
        if seat is None and mover.kind is MoverKind.CHANCE:
            return []
        return [game.to_json(a) for a in game.legal_actions(self.state, seat)]

    def observe(self) -> Message:
        game = self._require_game()
        result = game.outcome(self.state)
        return {
            "to_move": game.to_json(game.to_move(self.state)),
            "public": game.to_json(game.observe(self.state, None)),
            "outcome": None if result is None else game.to_json(result),
        }

    def export(self) -> JSON:
        return self._require_game().to_json(self.state)

    def undo(self) -> None:
        self._require_game()
        if not self.history:
            if self._played:
                raise ProtocolError(f"cannot undo: the engine takes back at most the last "
                                    f"{self.MAX_UNDO} actions (MAX_UNDO)")
            raise ProtocolError("nothing to undo")
        self.state = self.history.pop()
        self._played -= 1


class _Position:
    """A position of :class:`MemoEngine`'s tree: the state, the positions after the actions
    tried here (by their canonical text), the refusals, and the answers given."""

    __slots__ = ("children", "lines", "refusals", "state")

    def __init__(self, state: Any) -> None:
        self.state = state
        self.children: dict[str, _Position] = {}
        self.refusals: dict[str, tuple[str | None, str]] = {}
        self.lines: dict[str | int | None, str] = {}
        """The answer lines given here: to ``observe`` (key ``"observe"``) and to
        ``legal`` (key: the seat)."""


class MemoEngine(ReferenceEngine):
    """The reference engine with its answers kept by position: a game started again from
    the same config and played through the same actions (a rejection's prefix, a count's
    way back without undo) is answered from memory, not recomputed. The rules are pure
    functions of the state, so the answers are exactly :class:`ReferenceEngine`'s; this is
    what ``copa-ref engine`` serves. Its answers are shared: a subclass must not change
    them.

    What it keeps is bounded whatever a session sends: at most :attr:`MAX_ENTRIES` entries
    (a position, a refusal, an answer line) holding at most :attr:`MAX_CHARS` characters of
    text (refused actions, rules' messages, answer lines); past either, the tree starts
    afresh. Only what is worth asking again is kept: a refusal of an action whose text is
    at most :data:`_SHORT` characters, an answer that is ``ok: true`` (never an error about
    a seat out of range, or a bad request).
    """

    MAX_ENTRIES: ClassVar[int] = 50_000
    MAX_CHARS: ClassVar[int] = 32 << 20
    MAX_DECODED: ClassVar[int] = 8192
    """The most actions kept decoded (each of at most :data:`_SHORT` characters of text)."""
    leaves_requests_alone: ClassVar[bool] = True

    def __init__(self) -> None:
        super().__init__()
        self._roots: dict[tuple[str, str], _Position] = {}
        self._position: _Position | None = None
        self._trail: deque[_Position] = deque(maxlen=self.MAX_UNDO)
        self._kept = 0
        self._chars = 0
        self._encoded: dict[Any, JSON] = {}
        """The JSON of the actions listed so far (actions are values: equal ones encode
        alike)."""
        self._decoded: dict[tuple[str, str], Any] = {}
        """The actions decoded so far, by game and canonical text (a text decodes to one
        value)."""

    def _keep(self, chars: int = 0) -> None:
        """Count one more entry of *chars* characters of text; past a bound, forget the
        tree: the roots, and what the positions of the current game's way (kept for undo)
        hold besides their state."""
        self._kept += 1
        self._chars += chars
        if self._kept > self.MAX_ENTRIES or self._chars > self.MAX_CHARS:
            self._roots, self._kept, self._chars = {}, 0, 0
            for position in (*self._trail, self._position):
                if position is not None:
                    position.children, position.refusals, position.lines = {}, {}, {}

    def new_game(self, game: str, config: JSON) -> None:
        key = (game, canonical_json(config)) if type(game) is str else None
        found = None if key is None else self._roots.get(key)
        if found is None:
            super().new_game(game, config)
            found = _Position(self.state)
            assert key is not None
            self._roots[key] = found
            self._keep(len(key[1]))
        self._enter(get_game(game), found)

    def load_state(self, game: str, config: JSON, state: JSON) -> None:
        super().load_state(game, config, state)
        key = (f"{game} state", canonical_json(state))
        found = self._roots.get(key)
        if found is None:
            found = self._roots[key] = _Position(self.state)
            self._keep(len(key[1]))  # the position's text is kept (as its key)
        self._enter(self.game, found)

    def _enter(self, game: Any, found: _Position) -> None:
        """Play *game* from the kept position *found*, with nothing to take back."""
        self._position, self._trail = found, deque(maxlen=self.MAX_UNDO)
        self._begin(game, found.state)

    def _here(self) -> _Position:
        self._require_game()
        assert self._position is not None
        return self._position

    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        here = self._here()
        key = canonical_json(action)
        child = here.children.get(key)
        if child is None:
            refused = here.refusals.get(key)
            if refused is not None:
                return False, *refused
            accepted, rule, message = super().apply(action)
            if not accepted:
                if len(key) <= _SHORT:
                    here.refusals[key] = rule, message
                    self._keep(len(key) + len(message))
                return False, rule, message
            child = here.children[key] = _Position(self.state)
            self._keep(len(key))
        else:
            self.history.append(self.state)
            self._played += 1
            self.state = child.state
        self._trail.append(here)
        self._position = child
        return True, None, ""

    def decode(self, game: Any, action: JSON) -> Any:
        key = (game.name, canonical_json(action))
        found = self._decoded.get(key)
        if found is None:
            found = super().decode(game, action)  # a misshapen action raises, and is not kept
            if len(key[1]) <= _SHORT:
                if len(self._decoded) >= self.MAX_DECODED:
                    self._decoded.clear()
                self._decoded[key] = found
        return found

    def legal(self, seat: int | None) -> list[JSON]:
        game = self._require_game()
        if seat is not None and type(seat) is not int:
            return super().legal(seat)
        if seat is None and game.to_move(self.state).kind is MoverKind.CHANCE:
            return []
        encoded = self._encoded
        if len(encoded) > self.MAX_ENTRIES:
            encoded.clear()
        listed = []
        for action in game.legal_actions(self.state, seat):
            found = encoded.get(action)
            if found is None:
                found = encoded[action] = game.to_json(action)
            listed.append(found)
        return listed

    def respond(self, request: Message) -> str:
        op = request.get("op")
        seat = request.get("seat")
        if self._position is None or not (
                op == "observe" or (op == "legal" and (seat is None or type(seat) is int))):
            return super().respond(request)
        key = "observe" if op == "observe" else seat
        here = self._position
        line = here.lines.get(key)
        if line is None:
            answer = self.handle(request)
            line = _encode(answer)
            if answer.get("ok") is True:  # never an error (a seat out of range)
                here.lines[key] = line
                self._keep(len(line))
        return line

    def undo(self) -> None:
        super().undo()
        self._position = self._trail.pop()


def _lines(source: IO[Any], limit: int) -> Iterator[bytes | str | None]:
    """The lines of *source* without their newline; ``None`` for a line longer than *limit*
    (read past and dropped in chunks, so memory stays bounded)."""
    newline = "\n" if isinstance(source, io.TextIOBase) else b"\n"
    while True:
        line = source.readline(limit + 1)
        if not line:
            return
        if line.endswith(newline):
            yield line[:-1]
        elif len(line) <= limit:
            yield line  # the last line, without a newline
        else:
            while line and not line.endswith(newline):
                line = source.readline(1 << 16)
            yield None


def _fd_lines(fd: int, limit: int, idle: Callable[[], None]) -> Iterator[bytes | None]:
    """The lines read from the descriptor *fd*, as :func:`_lines` gives them; *idle* is
    called before each read that may wait (every line read is answered: the answers are
    flushed before the engine waits for more requests)."""
    buffer = bytearray()
    skipping = False  # in a line longer than the limit, dropped up to its newline
    start = 0  # where the next line starts in the buffer
    while True:
        newline = buffer.find(b"\n", start)
        if newline >= 0:
            if skipping:
                skipping = False
                yield None
            elif newline - start > limit:
                yield None
            else:
                yield bytes(buffer[start:newline])
            start = newline + 1
            continue
        if len(buffer) - start > limit:
            skipping = True
        if skipping:
            buffer.clear()
        else:
            del buffer[:start]
        start = 0
        idle()
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if skipping:
                yield None
            elif buffer:
                yield bytes(buffer)  # the last line, without a newline
            return
        buffer += chunk


def _write_all(sink: IO[Any], data: bytes) -> None:
    """Write *data* whole to the binary *sink* (an unbuffered one may take part of it)."""
    view = memoryview(data)
    while view:
        view = view[sink.write(view) or 0:]  # (None: it would block; tried again)


def _answer(request: JSON, engine: Engine) -> str:
    if not isinstance(request, dict):
        return _encode({"ok": False, "error": "a request is a JSON object"})
    return engine.respond(request)


def _encode(response: Message) -> str:
    try:
        return canonical_json(response)
    except (TypeError, ValueError, RecursionError) as exc:
        return canonical_json({"ok": False, "error": f"engine error: cannot encode the "
                                                     f"answer: {excerpt(str(exc))}"})


_KEPT_CHARS = 1 << 18
"""The most characters of request lines :func:`serve` keeps parsed at once (256 KiB of
text: at most some 10 MB of parsed values)."""


def serve(engine: Engine, stdin: IO[Any] | None = None, stdout: IO[Any] | None = None,
          limits: Limits = LIMITS) -> int:
    """Answer requests line by line until ``stop`` or the end of input; returns 0.

    Each input line gets one canonical JSON line back. A line longer than
    ``limits.max_length``, bytes that are not UTF-8 and JSON beyond *limits* are answered
    ``{"ok": false, "error": ...}`` naming the limit. Binary streams are read and written as
    UTF-8 bytes (the process's own ``sys.stdin.buffer`` and ``sys.stdout.buffer`` by
    default, whatever the locale); text streams are used as they are.
    """
    source: IO[Any] = sys.stdin.buffer if stdin is None else stdin
    sink: IO[Any] = sys.stdout.buffer if stdout is None else stdout
    text = isinstance(sink, io.TextIOBase)
    seen: dict[bytes | str, JSON] | None = {} if engine.leaves_requests_alone else None
    kept = 0
    # The process's own stdin is read in chunks: the answers to the requests read in one
    # go are flushed together, before the engine waits for more (a runner that writes
    # requests ahead gets them in one write). Any other input is read a line at a time,
    # each answer flushed at once.
    own = stdin is None and stdout is None
    pending: list[bytes] = []
    """The answers to the requests read in one go (own streams): written together, in one
    write, whatever the buffering of the process's stdout (``PYTHONUNBUFFERED``)."""

    def flush() -> None:
        with contextlib.suppress(BrokenPipeError, ValueError):  # the runner is gone
            if pending:
                data = b"".join(pending)
                pending.clear()
                _write_all(sink, data)
            sink.flush()

    lines = _fd_lines(source.fileno(), limits.max_length, flush) if own else _lines(
        source, limits.max_length)
    for line in lines:
        request: JSON = None
        if line is None:
            response = _encode({"ok": False, "error": f"request line longer than "
                                f"{limits.max_length} (Limits.max_length)"})
        elif not line.strip():
            continue
        else:
            try:
                request = seen.get(line) if seen is not None else None
                if request is None:
                    request = loads(line, limits, "request")
                    if seen is not None and len(line) <= _SHORT:
                        kept += len(line)
                        if kept > _KEPT_CHARS:
                            seen.clear()
                            kept = len(line)
                        seen[line] = request
            except MalformedInputError as exc:
                response = _encode({"ok": False, "error": str(exc)})
            else:
                response = _answer(request, engine)
        answer = response + "\n"
        try:
            if own:
                pending.append(answer.encode("utf-8", "backslashreplace"))
            elif text:
                sink.write(answer)
                sink.flush()
            else:
                sink.write(answer.encode("utf-8", "backslashreplace"))
                sink.flush()
        except (BrokenPipeError, ValueError):  # the other side is gone, or closed the sink
            return 0
        if isinstance(request, dict) and request.get("op") == "stop":
            break
    flush()
    return 0
