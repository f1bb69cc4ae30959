"""The conformance runner: drive an engine through the corpus and judge it case by case.

The runner sends the operations and does all comparing itself, so an engine adapter stays
small. Each case ends as ``passed``, ``failed`` (the first differing step, a readable diff,
the case's rule IDs and, where it can be named, the rule the engine breaks), ``errored``
(the engine crashed, hung or answered garbage; it is restarted) or ``skipped`` (the case
needs a game, reading, option or feature the engine did not declare). Nothing an engine
sends makes the runner itself fail: a case that cannot go on is failed or errored, and the
run goes on.

The parts: :mod:`~copa_ref.conformance.corpus` (loading and selecting cases),
:mod:`~copa_ref.conformance.session` (the engine, its handshake and budget),
:mod:`~copa_ref.conformance.verdicts` and :mod:`~copa_ref.conformance.perft` (the judgment
of each kind of case), :mod:`~copa_ref.conformance.naming` (the rule an engine breaks).
This module puts them together: a :class:`Runner` turns each case into a :class:`CaseResult`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator

import attrs

from copa_ref.conformance.channel import Channel, EngineFailure, printable
from copa_ref.conformance.corpus import Case
from copa_ref.conformance.session import HandshakeError, Message, Session
from copa_ref.conformance.verdicts import CaseRun, Known, judge
from copa_ref.conformance.viewer import viewer_path
from copa_ref.core import JSON
from copa_ref.core.replay import starting_from

__all__ = ["CaseResult", "HandshakeError", "Runner"]


@attrs.frozen
class CaseResult:
    """How one case went."""

    id: str
    game: str
    kind: str
    corpus_version: str
    status: str
    """``passed``, ``failed``, ``errored`` or ``skipped``."""
    rules: tuple[str, ...]
    """The rule IDs the case covers."""
    step: int | None = None
    """Where it went wrong: 0 the initial position, k the position after the k-th action."""
    reason: str | None = None
    diff: str | None = None
    broken_rule: str | None = None
    """The rule the engine breaks, when the runner can name it
    (:mod:`~copa_ref.conformance.naming`)."""
    explanation: str | None = None
    """Another reading that reproduces every report of the engine, when one does."""
    action: JSON = None
    """The action a failed rejection offered (or a trace step the engine refused)."""
    viewer: str | None = None
    """The viewer page and step of the rule book where the expected position is shown
    (relative to the built site's root; :func:`~copa_ref.conformance.viewer.viewer_path`)."""
    seconds: float = 0.0

    def as_json(self) -> dict[str, JSON]:
        """The report line of this result."""
        return {"type": "case", **attrs.asdict(self, recurse=False),
                "rules": list(self.rules), "seconds": round(self.seconds, 4)}


class Runner:
    """Runs cases against engines made by *connect* (one live session at a time; a new one
    after an engine failure).

    :param corpus: every case of the corpus, so that a rejection can find the trace its
        prefix follows (without it, the expectations along a prefix are computed from the
        reference).
    """

    def __init__(self, connect: Callable[[], Channel], corpus: Iterable[Case] = ()) -> None:
        self.session = Session(connect)
        self.traces: dict[str, Case] = {c["id"]: c for c in corpus if c.get("kind") == "trace"}
        self._known = Known()

    def start(self) -> Message:
        """Start the engine (if not running) and return its handshake
        (:meth:`Session.start <copa_ref.conformance.session.Session.start>`)."""
        return self.session.start()

    def close(self) -> None:
        """Stop the engine."""
        self.session.close()

    @property
    def requests(self) -> int:
        """The requests sent to engines that have been closed."""
        return self.session.requests

    def run(self, cases: Iterable[Case],
            progress: Callable[[CaseResult], None] | None = None) -> Iterator[CaseResult]:
        """Run every case, yielding its result; restarts the engine after a failure."""
        cases = list(cases)
        for case in cases:
            if case.get("kind") == "trace":
                self.traces.setdefault(case["id"], case)
        for case in cases:
            result = self.run_case(case)
            if progress is not None:
                progress(result)
            yield result

    def run_case(self, case: Case) -> CaseResult:
        """Run one case; never raises for anything the engine does."""
        started = time.perf_counter()
        base = {"id": case["id"], "game": case["game"], "kind": case["kind"],
                "corpus_version": case["corpus_version"], "rules": tuple(case["rules"])}
        session = self.session
        session.begin()
        try:
            session.start()
            reason = session.skip_reason(case)
            if reason is not None:
                return CaseResult(**base, status="skipped", reason=reason)
            with starting_from(case.get("state")):
                failure = judge(CaseRun(session, case, self.traces, self._known))
            try:
                session.settle()
            except EngineFailure:
                # It failed to answer a request written ahead that the case no longer
                # asked (it ended before): the case stands, the engine is started again.
                session.close()
        except EngineFailure as exc:
            session.close()
            return CaseResult(**base, status="errored", reason=str(exc),
                              seconds=time.perf_counter() - started)
        except Exception as exc:  # whatever an engine sends, the run goes on
            session.close()
            return CaseResult(**base, status="errored",
                              reason=f"the runner could not judge the engine's answers "
                                     f"({type(exc).__name__}: {printable(str(exc), 300)})",
                              seconds=time.perf_counter() - started)
        if failure is not None:
            return CaseResult(**base, status="failed", step=failure.step, reason=failure.reason,
                              diff=failure.diff, broken_rule=failure.rule,
                              explanation=failure.explanation, action=failure.action,
                              viewer=viewer_path(case["id"], failure.step),
                              seconds=time.perf_counter() - started)
        return CaseResult(**base, status="passed", seconds=time.perf_counter() - started)
