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
    session.close()                       # stop the engine; the next start() restarts it

Every call raises :class:`~copa_ref.conformance.channel.EngineFailure` when the engine
crashes, hangs, answers garbage or an error where the protocol wants an answer, or when the
case's budget is spent; :class:`HandshakeError` (an ``EngineFailure``) when the handshake is
refused or misshapen, again on every later :meth:`Session.start`, without a restart. A
refused ``new_game`` is not an error: it is the value :class:`Refused`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from copa_ref.conformance.channel import Channel, EngineFailure
from copa_ref.conformance.checks import shown
from copa_ref.conformance.corpus import Case
from copa_ref.conformance.observables import PROTOCOL_VERSION
from copa_ref.core import JSON, canonical_json

__all__ = [
    "MAX_REQUESTS",
    "Applied",
    "HandshakeError",
    "Message",
    "Observation",
    "Refused",
    "Session",
    "Started",
    "handshake_problem",
]

Message = dict[str, JSON]

MAX_REQUESTS = 200_000
"""No case may need more requests than this (a count whose tree explodes is errored)."""


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
            problem = handshake_problem(answer)
            if problem is not None:
                self.handshake_error = HandshakeError(
                    f"misshapen handshake: {problem}: {shown(answer)[:300]}")
                raise self.handshake_error
            self.hello = answer
        assert self.hello is not None
        return self.hello

    def close(self) -> None:
        """Stop the engine."""
        if self.channel is not None:
            self.requests += self.channel.requests
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

    def _send(self, message: Message) -> Message:
        """Send *message* within the budget; the answer, ``ok`` or not."""
        assert self.channel is not None, "start() the session first"
        self._budget -= 1
        if self._budget < 0:
            raise EngineFailure(f"the case needs more than {MAX_REQUESTS} requests; stopped")
        return self.channel.request(message)

    def _request(self, message: Message) -> Message:
        """Send *message*; an error answer is an engine failure."""
        answer = self._send(message)
        if not answer["ok"]:
            raise EngineFailure(f"engine answered {message['op']} with an error: "
                                f"{shown(answer.get('error'))}")
        return answer

    def new_game(self, game: str, config: JSON) -> Started | Refused:
        """Start a game of *game* with *config* (JSON): :class:`Started`, or the engine's
        refusal as :class:`Refused`."""
        answer = self._send({"op": "new_game", "game": game, "config": config})
        return Started() if answer["ok"] else Refused(answer.get("error"))

    def apply(self, action: JSON) -> Applied:
        """Offer *action*; the engine's answer."""
        answer = self._request({"op": "apply", "action": action})
        accepted = answer.get("accepted")
        if type(accepted) is not bool:
            raise EngineFailure(f"apply answer without \"accepted\": {shown(answer)[:300]}")
        return Applied(accepted, answer.get("rule"), answer.get("message"))

    def legal(self, seat: int | None) -> list[JSON]:
        """The legal actions the engine lists (for *seat* at a joint node)."""
        answer = self._request({"op": "legal", "seat": seat})
        actions = answer.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise EngineFailure(f"legal answer without a list of actions: {shown(answer)[:300]}")
        return actions

    def observe(self) -> Observation:
        """Who moves, the public view and the outcome, as the engine reports them."""
        answer = self._request({"op": "observe"})
        mover = answer.get("to_move")
        if not (isinstance(mover, dict) and isinstance(mover.get("kind"), str)
                and isinstance(mover.get("seats"), list)
                and all(type(s) is int for s in mover["seats"])
                and isinstance(answer.get("public"), dict)
                and (answer.get("outcome") is None or isinstance(answer.get("outcome"), dict))):
            raise EngineFailure(f"observe answer of the wrong shape: {shown(answer)[:300]}")
        return Observation(mover, answer["public"], answer["outcome"])

    def undo(self) -> None:
        """Take back the last action (feature ``undo``)."""
        self._request({"op": "undo"})


def handshake_problem(answer: Mapping[str, Any]) -> str | None:
    """What is wrong with a handshake's shape (``None``: nothing)."""
    for key, kind in (("name", str), ("version", str), ("games", dict), ("features", list)):
        if not isinstance(answer.get(key), kind):
            return f"{key!r} is not a {kind.__name__}"
    if not all(isinstance(f, str) for f in answer["features"]):
        return "'features' holds a non-string"
    for name, declared in answer["games"].items():
        if not isinstance(declared, dict):
            return f"games.{name} is not an object"
        options = declared.get("options", [])
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            return f"games.{name}.options is not a list of strings"
        readings = declared.get("readings", {})
        if not isinstance(readings, dict) or not all(
                isinstance(v, list) for v in readings.values()):
            return f"games.{name}.readings is not an object of lists"
    return None
