"""The engine session: one live engine behind a channel, its handshake, a request budget,
and the protocol's requests as typed calls that return values.

Everything the runner asks an engine goes through a :class:`Session`: the verdicts
(:mod:`copa_ref.conformance.verdicts`), the counts (:mod:`copa_ref.conformance.perft`) and
the naming of a broken rule (:mod:`copa_ref.conformance.naming`), which may ask again (a
config with a reading put back, a legal action to probe) within the same budget.

The API::

    session = Session(connect)            # connect() -> Channel; nothing started yet
    hello = session.start()               # the handshake (started once, kept)
    session.begin(budget=MAX_REQUESTS)    # a fresh budget for one case
    started = session.new_game(game, config)   # Started() or Refused(error): a value
    applied = session.apply(action)       # Applied(accepted, rule, message)
    actions = session.legal(seat)         # list of action objects
    seen = session.observe()              # Observation(to_move, public, outcome)
    session.undo()
    session.plan(batches)                 # the requests to come, written ahead of time
    session.settle()                      # read the answers no longer asked for
    session.close()                       # stop the engine; the next start() restarts it

**Pipelining.** A verdict announces with :meth:`Session.plan` the requests it will send if
every answer is as expected (a trace step's ``apply``, ``observe`` and ``legal``, say), in
batches; over a :attr:`~copa_ref.conformance.channel.Channel.pipelined` channel they are
written at once, up to :data:`MAX_AHEAD` of them ahead of their answers, and each typed call
then takes the next answer in order. A call that is not the next request planned (the case
went another way) first reads the answers still due and sets them aside, then asks on its
own; so does :meth:`Session.settle` at the end of a case. A verdict plans only requests
that change nothing when the case goes another way (``observe`` and ``legal``), or whose
case then ends at once (the steps after a difference): the engine is where it would be,
and every result is the one of asking one request at a time. The requests counted
(:attr:`Session.requests`) are those the case asked, not the ones set aside.

Every call raises :class:`~copa_ref.conformance.channel.EngineFailure` when the engine
crashes, hangs, answers garbage or an error where the protocol wants an answer, or when the
case's budget is spent; :class:`HandshakeError` (an ``EngineFailure``) when the handshake is
refused or misshapen, again on every later :meth:`Session.start`, without a restart. A
refused ``new_game`` is not an error: it is the value :class:`Refused`.

**Shapes.** The handshake is read against ``start_response`` in the messages schema
(``conformance/schema/messages.schema.json``). The other answers are checked for what the
runner reads of them (an answer that is the line expected is not even parsed); one that
lacks it is an ``EngineFailure`` naming the field where it breaks the schema
(``observe answer of the wrong shape: outcome: missing``).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from copa_ref.conformance.channel import Channel, EngineFailure
from copa_ref.conformance.checks import shown
from copa_ref.conformance.corpus import Case
from copa_ref.conformance.observables import PROTOCOL_VERSION
from copa_ref.conformance.schemas import problem, validator
from copa_ref.core import JSON, canonical_json

__all__ = [
    "MAX_AHEAD",
    "MAX_REQUESTS",
    "Applied",
    "HandshakeError",
    "Message",
    "Observation",
    "Refused",
    "Session",
    "Started",
    "apply_request",
    "handshake_problem",
    "legal_line",
    "legal_request",
    "observe_line",
    "observe_request",
    "undo_request",
]

Message = dict[str, JSON]

MAX_REQUESTS = 200_000
"""No case may need more requests than this (a count whose tree explodes is errored)."""

MAX_AHEAD = 128
"""The most requests written ahead of their answers: what the pipes and the runner's buffer
hold of an engine's answers stays bounded, and a case that goes another way sets aside at
most this many answers."""


def apply_request(action: JSON) -> Message:
    """The ``apply`` request of *action*."""
    return {"op": "apply", "action": action}


def observe_request() -> Message:
    """The ``observe`` request."""
    return {"op": "observe"}


def legal_request(seat: int | None) -> Message:
    """The ``legal`` request for *seat* (``None``: at a seat or any node)."""
    return {"op": "legal", "seat": seat}


def undo_request() -> Message:
    """The ``undo`` request."""
    return {"op": "undo"}


_ACCEPTED = b'{"accepted":true,"ok":true}'
_OK = b'{"ok":true}'


def observe_line(to_move: JSON, public: JSON, outcome: JSON) -> bytes:
    """The canonical line of the ``observe`` answer reporting *to_move*, *public* and
    *outcome* (what :meth:`Session.observe` compares an answer with, when given)."""
    return canonical_json({"ok": True, "outcome": outcome, "public": public,
                           "to_move": to_move}).encode()


def legal_line(actions: JSON) -> bytes:
    """The canonical line of the ``legal`` answer listing *actions*, in that order."""
    return canonical_json({"actions": actions, "ok": True}).encode()


def _same(planned: Message, message: Message) -> bool:
    """Whether *message* is the request *planned* (the same JSON, exactly)."""
    if planned is message:
        return True
    if planned.keys() != message.keys():
        return False
    for key, value in planned.items():
        other = message[key]
        if value is not other and (type(value) is not type(other)
                                   or canonical_json(value) != canonical_json(other)):
            return False
    return True


class HandshakeError(EngineFailure):
    """The engine answered the handshake, but refused it or sent a misshapen one: every
    case is errored with the reason."""


@attrs.frozen
class Started:
    """``new_game`` was accepted."""


@attrs.frozen
class Refused:
    """``new_game`` was refused (``{"ok": false, "error": ...}``)."""

    error: JSON

    def __str__(self) -> str:
        return f"engine answered new_game with an error: {shown(self.error)}"


@attrs.frozen
class Applied:
    """The engine's answer to ``apply``."""

    accepted: bool
    rule: JSON
    """The rule the engine names for a refusal (anything it sent; ``None`` if nothing)."""
    message: JSON


@attrs.frozen
class Observation:
    """The engine's answer to ``observe``, checked for its shape."""

    to_move: dict[str, Any]
    public: dict[str, Any]
    outcome: dict[str, Any] | None


_APPLIED = Applied(True, None, None)


class Session:
    """One engine at a time, made by *connect* (restarted by :meth:`start` after
    :meth:`close`). :attr:`requests` counts every request of closed channels."""

    def __init__(self, connect: Callable[[], Channel]) -> None:
        self.connect = connect
        self.channel: Channel | None = None
        self.hello: Message | None = None
        self.requests = 0
        self.handshake_error: HandshakeError | None = None
        self._budget = MAX_REQUESTS
        self._ahead: deque[Message] = deque()
        """The requests written ahead whose answers are not read yet, oldest first."""
        self._plan: Iterator[Sequence[Message]] | None = None
        self._waiting: Sequence[Message] | None = None
        """The next batch of the plan, not written yet (no room ahead)."""
        self._set_aside = 0
        """Requests of the current channel written ahead and not asked after all."""

    # -- the session --------------------------------------------------------------------------

    def start(self) -> Message:
        """Start the engine (if not running) and return its handshake.

        :raises HandshakeError: again and again once the engine sent an unusable handshake
            (it is not restarted for every case).
        """
        if self.handshake_error is not None:
            raise self.handshake_error
        if self.channel is None:
            self.channel = self.connect()
            self.hello = None
            answer = self.channel.request({"op": "start", "protocol": PROTOCOL_VERSION})
            if not answer.get("ok"):
                self.handshake_error = HandshakeError(
                    f"handshake refused: {shown(answer.get('error'))}")
                raise self.handshake_error
            wrong = handshake_problem(answer)
            if wrong is not None:
                self.handshake_error = HandshakeError(
                    f"misshapen handshake: {wrong}: {shown(answer)[:300]}")
                raise self.handshake_error
            self.hello = answer
        assert self.hello is not None
        return self.hello

    def close(self) -> None:
        """Stop the engine."""
        if self.channel is not None:
            self.requests += self.channel.requests - self._set_aside - len(self._ahead)
            self._ahead.clear()
            self._plan, self._waiting, self._set_aside = None, None, 0
            channel, self.channel = self.channel, None
            with contextlib.suppress(Exception):  # a dying engine must not stop the run
                channel.close()

    def begin(self, budget: int | None = None) -> None:
        """Give the next case its own budget of requests (default :data:`MAX_REQUESTS`)."""
        self._budget = MAX_REQUESTS if budget is None else budget

    @property
    def features(self) -> list[str]:
        """The features the running engine declared."""
        features: list[str] = self.hello["features"] if self.hello else []
        return features

    @property
    def rule_ids(self) -> bool:
        """Whether the engine declared ``rule_ids`` (its refusals and outcomes name rules)."""
        return "rule_ids" in self.features

    def skip_reason(self, case: Case) -> str | None:
        """Why the engine cannot run *case* (``None``: it can)."""
        assert self.hello is not None
        games: Any = self.hello["games"]
        if case["game"] not in games:
            return f"the engine does not play {case['game']}"
        declared: dict[str, Any] = games[case["game"]] or {}
        options = declared.get("options", [])
        readings: dict[str, list[JSON]] = declared.get("readings") or {}
        config = case["config"]
        for option, values in sorted(readings.items()):
            if option in config and canonical_json(config[option]) not in {
                    canonical_json(v) for v in values}:
                return (f"the engine does not play {option}={shown(config[option], bare=True)} "
                        f"(it plays {', '.join(shown(v, bare=True) for v in values) or 'none'})")
        if "*" not in options:
            missing = [o for o in case["options"]
                       if o not in options and o.split("=", 1)[0] not in readings]
            if missing:
                return f"needs option {', '.join(missing)}"
        features = [f for f in case["features"] if f not in self.features]
        if features:
            return f"needs feature {', '.join(features)}"
        return None

    # -- the requests ---------------------------------------------------------------------------

    def plan(self, batches: Iterable[Sequence[Message]]) -> None:
        """Announce the requests the case sends next, in order, if every answer is as
        expected; over a pipelined channel they are written ahead, a batch at a time, as
        far as :data:`MAX_AHEAD` and the case's budget allow (a plan beyond the budget is
        asked one request at a time, so that the budget runs out where it would). Plan
        only what changes nothing, or whose case ends, when the case goes another way
        (see the module's docs). A plan made while another is still due comes after it.

        :raises EngineFailure: when the engine takes no request.
        """
        channel = self.channel
        if channel is None or not channel.pipelined:
            return
        batches = iter(batches)
        self._plan = batches if self._plan is None else itertools.chain(self._plan, batches)
        self._write_ahead()

    def _write_ahead(self) -> None:
        """Write the plan's next batches while they fit ahead (in one go)."""
        assert self.channel is not None
        room = min(MAX_AHEAD, self._budget) - len(self._ahead)
        written: list[Message] = []
        while self._plan is not None:
            batch = self._waiting
            if batch is None:
                batch = next(self._plan, None)
                if batch is None:
                    self._plan = None
                    break
            if len(batch) > room - len(written):
                if (len(batch) > MAX_AHEAD
                        or len(batch) + len(self._ahead) + len(written) > self._budget):
                    self._plan = self._waiting = None  # it never fits: asked one by one
                else:
                    self._waiting = batch  # written when answers have made room
                break
            self._waiting = None
            written.extend(batch)
        if written:
            self._ahead.extend(written)
            self.channel.send(written)

    def settle(self) -> None:
        """Forget the plan, and read the answers still due to requests written ahead,
        setting them aside (the case no longer asks them).

        :raises EngineFailure: when the engine fails to answer one.
        """
        self._plan = self._waiting = None
        while self._ahead:
            assert self.channel is not None
            self._ahead.popleft()
            self._set_aside += 1
            self.channel.receive()

    def _send(self, message: Message, expected: bytes | None = None) -> Message | None:
        """Send *message* within the budget (or take its answer, written ahead); the
        answer, ``ok`` or not, or ``None`` when it is the line *expected*
        (:meth:`~copa_ref.conformance.channel.Channel.receive`)."""
        channel = self.channel
        assert channel is not None, "start() the session first"
        self._budget -= 1
        if self._budget < 0:
            raise EngineFailure(f"the case needs more than {MAX_REQUESTS} requests; stopped")
        if self._ahead:
            if _same(self._ahead[0], message):
                self._ahead.popleft()
                answer = channel.receive(expected)
                if self._plan is not None and len(self._ahead) <= MAX_AHEAD // 2:
                    self._write_ahead()
                return answer
            self.settle()
        elif self._plan is not None:
            self.settle()  # a plan not written yet: the case went another way
        if channel.pipelined:
            channel.send([message])
            return channel.receive(expected)
        return channel.request(message)

    def _request(self, message: Message, expected: bytes | None = None) -> Message | None:
        """Send *message*; an error answer is an engine failure (``None``: the answer is
        the line *expected*)."""
        answer = self._send(message, expected)
        if answer is None:
            return None
        if not answer["ok"]:
            raise EngineFailure(f"engine answered {message['op']} with an error: "
                                f"{shown(answer.get('error'))}")
        return answer

    def new_game(self, game: str, config: JSON, state: JSON = None) -> Started | Refused:
        """Start a game of *game* with *config* (JSON), from the full canonical *state*
        when given (feature ``load_state``): :class:`Started`, or the engine's refusal as
        :class:`Refused`."""
        message: Message = {"op": "new_game", "game": game, "config": config}
        if state is not None:
            message["state"] = state
        answer = self._send(message, _OK)
        return Started() if answer is None or answer["ok"] else Refused(answer.get("error"))

    def apply(self, action: JSON) -> Applied:
        """Offer *action*; the engine's answer."""
        answer = self._request(apply_request(action), _ACCEPTED)
        if answer is None:
            return _APPLIED
        accepted = answer.get("accepted")
        if type(accepted) is not bool:
            raise _misshapen("apply", answer)
        return Applied(accepted, answer.get("rule"), answer.get("message"))

    def legal(self, seat: int | None, expected: list[JSON] | None = None,
              line: bytes | None = None) -> list[JSON]:
        """The legal actions the engine lists (for *seat* at a joint node). With the
        *expected* listing and its :func:`legal_line`, an answer that is exactly that line
        is not parsed: *expected* itself is returned."""
        answer = self._request(legal_request(seat), None if expected is None else line)
        if answer is None:
            assert expected is not None
            return expected
        actions = answer.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise _misshapen("legal", answer)
        return actions

    def observe(self, expected: Observation | None = None,
                line: bytes | None = None) -> Observation:
        """Who moves, the public view and the outcome, as the engine reports them. With
        the *expected* observation and its :func:`observe_line`, an answer that is exactly
        that line is not parsed: *expected* itself is returned."""
        answer = self._request(observe_request(), None if expected is None else line)
        if answer is None:
            assert expected is not None
            return expected
        mover = answer.get("to_move")
        if not (isinstance(mover, dict) and isinstance(mover.get("kind"), str)
                and isinstance(mover.get("seats"), list)
                and all(type(s) is int for s in mover["seats"])
                and isinstance(answer.get("public"), dict)
                and "outcome" in answer
                and (answer["outcome"] is None or isinstance(answer["outcome"], dict))):
            raise _misshapen("observe", answer)
        return Observation(mover, answer["public"], answer["outcome"])

    def undo(self) -> None:
        """Take back the last action (feature ``undo``)."""
        self._request(undo_request(), _OK)


@functools.cache
def _response(op: str) -> Any:
    """The validator of the answer to *op*: ``<op>_response`` in the messages schema
    (``conformance/schema/messages.schema.json``), made once."""
    return validator("messages.schema.json", ref=f"#/$defs/{op}_response")


def handshake_problem(answer: Mapping[str, Any]) -> str | None:
    """What is wrong with a handshake (``None``: nothing): where it breaks the messages
    schema's ``start_response``, naming the field (``games.kala.options: 5 is not of type
    'array'``)."""
    return problem(_response("start"), answer)


def _misshapen(op: str, answer: Message) -> EngineFailure:
    """The failure for an answer to *op* the runner cannot read: where it breaks the
    messages schema, the field named."""
    return EngineFailure(f"{op} answer of the wrong shape: {problem(_response(op), answer)}: "
                         f"{shown(answer)[:300]}")
