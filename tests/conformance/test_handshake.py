"""The handshake is read against the messages schema (``start_response`` in
``conformance/schema/messages.schema.json``): a handshake that breaks it is refused with the
field named; the handshakes of the reference and of the test engines follow it."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from copa_ref.conformance.channel import InProcessChannel
from copa_ref.conformance.engine import ReferenceEngine
from copa_ref.conformance.schemas import PROBLEM
from copa_ref.conformance.session import HandshakeError, Message, Session, handshake_problem
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
