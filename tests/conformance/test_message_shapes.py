"""The engine's answers against the messages schema (``conformance/schema/messages.schema.json``):
a handshake that breaks ``start_response`` is refused with the field named, the handshakes of
the reference and of the test engines follow it; an ``observe``, ``legal`` or ``apply``
answer the runner cannot read is an engine failure naming the field."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from copa_ref.conformance.channel import EngineFailure, InProcessChannel
from copa_ref.conformance.engine import ReferenceEngine
from copa_ref.conformance.schemas import PROBLEM
from copa_ref.conformance.session import (
    HandshakeError,
    Message,
    Session,
    Started,
    handshake_problem,
)
from copa_ref.games import GAMES
from tests.conformance.engines import WRONG, KalaMandatoryOnly, misbehaving


def _hello(engine: type[ReferenceEngine] = ReferenceEngine) -> dict[str, Any]:
    answer: dict[str, Any] = engine().handle({"op": "start", "protocol": "1.1"})
    return answer


def _without(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda hello: hello.pop(key)


def _set(value: Any, *keys: str) -> Callable[[dict[str, Any]], None]:
    def change(hello: dict[str, Any]) -> None:
        *above, last = keys
        for key in above:
            hello = hello[key]
        hello[last] = value
    return change


@pytest.mark.parametrize("engine", [
    ReferenceEngine, KalaMandatoryOnly, WRONG["kala-90-degrees-per-turn"],
    misbehaving("no-rule-ids")], ids=lambda e: e.__name__)
def test_the_engines_handshakes_follow_the_schema(engine: type[ReferenceEngine]) -> None:
    """The reference's handshake, one with readings, one renamed, one with fewer features:
    nothing wrong."""
    assert handshake_problem(_hello(engine)) is None


MISSHAPEN = [
    (_without("features"), "features: missing"),
    (_without("protocol"), "protocol: missing"),
    (_set(3, "name"), "name: 3 is not of type 'string'"),
    (_set("", "name"), "name: '' should be non-empty"),
    (_set([], "games"), "games: [] is not of type 'object'"),
    (_set(5, "games", "kala", "options"), "games.kala.options: 5 is not of type 'array'"),
    (_set(["*", 3], "games", "kala", "options"),
     "games.kala.options[1]: 3 is not of type 'string'"),
    (_set({"harvest": "mandatory"}, "games", "kala", "readings"),
     "games.kala.readings.harvest: 'mandatory' is not of type 'array'"),
    (_set({}, "games", "kala"), "games.kala.options: missing"),
    (_set(1, "games", "kala", "colour"), "games.kala.colour: not a field here"),
    (_set("hi", "greeting"), "greeting: not a field here"),
    (_set(["undo", "teleport"], "features"), "features[1]: 'teleport' is not one of"),
    (_set("1.1", "features"), "features: '1.1' is not of type 'array'"),
    (_set(1.1, "protocol"), "protocol: 1.1 is not of type 'string'"),
]
"""Changes to the reference's handshake, each with the start of the problem found."""


@pytest.mark.parametrize(("change", "named"), MISSHAPEN, ids=[n for _, n in MISSHAPEN])
def test_a_misshapen_handshake_names_the_field(change: Callable[[dict[str, Any]], None],
                                               named: str) -> None:
    """A missing field, a wrong type, a value out of its set, a field the protocol does not
    have: the problem starts with the field's path."""
    hello = copy.deepcopy(_hello())
    change(hello)
    found = handshake_problem(hello)
    assert found is not None and found.startswith(named), found


def test_a_problem_is_short_and_printable() -> None:
    """An engine's field name is quoted with its control characters escaped, and a long
    value is cut."""
    hello = {**_hello(), "\x1b[31m": 1}
    assert handshake_problem(hello) == "\\x1b[31m: not a field here"
    found = handshake_problem({**_hello(), "name": ["x" * 1000]})
    assert found is not None and len(found) <= PROBLEM + 3 and found.startswith("name: ")


class _NoFeatures(ReferenceEngine):
    def hello(self) -> Message:
        found = super().hello()
        del found["features"]
        return found


def test_the_session_refuses_a_misshapen_handshake_for_good() -> None:
    """The session's error names the field, and is raised again at every start without
    asking the engine again."""
    channels: list[InProcessChannel] = []

    def connect() -> InProcessChannel:
        channels.append(InProcessChannel(_NoFeatures))
        return channels[-1]

    session = Session(connect)
    with pytest.raises(HandshakeError, match=r"^misshapen handshake: features: missing: "):
        session.start()
    with pytest.raises(HandshakeError, match="features: missing"):
        session.start()
    assert len(channels) == 1 and channels[0].requests == 1


class _Answers(ReferenceEngine):
    """The reference, one of its answers changed by :attr:`change`."""

    op = ""
    change: Callable[[Message], Message] = staticmethod(lambda answer: answer)

    def handle(self, request: Message) -> Message:
        answer = super().handle(request)
        return self.change(answer) if request.get("op") == self.op else answer


def _drop(key: str) -> Callable[[Message], Message]:
    return lambda answer: {k: v for k, v in answer.items() if k != key}


@pytest.mark.parametrize(("op", "change", "named"), [
    ("observe", _drop("outcome"), "observe answer of the wrong shape: outcome: missing: "),
    ("observe", lambda a: {**a, "to_move": "seat 0"},
     "observe answer of the wrong shape: to_move: 'seat 0' is not of type 'object'"),
    ("observe", lambda a: {**a, "to_move": {"kind": "seat", "seats": ["0"]}},
     "observe answer of the wrong shape: to_move.seats[0]: '0' is not of type 'integer'"),
    ("legal", lambda a: {**a, "actions": [*a["actions"][:2], 7]},
     "legal answer of the wrong shape: actions[2]: 7 is not of type 'object'"),
    ("apply", _drop("accepted"), "apply answer of the wrong shape: accepted: missing: "),
], ids=["no-outcome", "mover-text", "seat-text", "action-number", "no-accepted"])
def test_an_answer_the_runner_cannot_read_names_the_field(
        op: str, change: Callable[[Message], Message], named: str) -> None:
    """An ``observe``, ``legal`` or ``apply`` answer without what the runner reads is an
    engine failure naming the field where it breaks the messages schema (an ``observe``
    without ``outcome`` is one too, not a crash of the runner)."""
    engine = type("Changed", (_Answers,), {"op": op, "change": staticmethod(change)})
    session = Session(lambda: InProcessChannel(engine))
    session.start()
    session.begin()
    kala = GAMES["kala"]
    assert session.new_game("kala", kala.to_json(kala.default_config())) == Started()
    ask: dict[str, Callable[[], object]] = {
        "observe": session.observe, "legal": lambda: session.legal(None),
        "apply": lambda: session.apply(session.legal(None)[0])}
    with pytest.raises(EngineFailure) as failure:
        ask[op]()
    assert str(failure.value).startswith(named), failure.value
    session.close()
