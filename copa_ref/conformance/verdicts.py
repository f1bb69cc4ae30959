"""The verdicts: one function per kind of case, judging an engine's answers against the
corpus and returning a :class:`Failure` value (``None``: the case passed).

The API::

    run = CaseRun(session, case, traces, known)   # the state of one case, and nothing else
    failure = judge(run)                          # VERDICTS[case["kind"]](run)
    failure = trace(run) | rejection(run) | config(run) | count(run)   # (count: perft)

A verdict sends its requests through the run's :class:`~copa_ref.conformance.session.Session`
(so within the case's budget) and lets an
:class:`~copa_ref.conformance.channel.EngineFailure` through: the caller errors the case.
Every position a case passes through is checked, the prefixes of rejections and counts
included. Where the engine differs, :mod:`copa_ref.conformance.naming` names the rule it
breaks. Inside a verdict, the first difference ends the case by raising :class:`Stop`
with the failure; the verdict function returns it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from copa_ref.conformance import naming
from copa_ref.conformance.checks import json_diff, shown
from copa_ref.conformance.corpus import Case
from copa_ref.conformance.explain import finding_lines, outcome_shown
from copa_ref.conformance.failure import Failure, Known, Stop, legal_lines
from copa_ref.conformance.observables import observables
from copa_ref.conformance.perft import count
from copa_ref.conformance.session import (
    Applied,
    Message,
    Observation,
    Refused,
    Session,
    apply_request,
    legal_line,
    legal_request,
    observe_line,
    observe_request,
)
from copa_ref.conformance.vocabulary import Report
from copa_ref.core import JSON, canonical_json
from copa_ref.core.replay import ENGINE_DATA, replay
from copa_ref.games import GAMES

__all__ = [
    "VERDICTS",
    "CaseRun",
    "Failure",
    "Known",
    "Stop",
    "config",
    "judge",
    "legal_lines",
    "rejection",
    "trace",
]


def _observation(expect: Case) -> tuple[Observation, bytes]:
    """The observation *expect* describes, and the line of its ``observe`` answer."""
    return (Observation(expect["to_move"], expect["public"], expect["outcome"]),
            observe_line(expect["to_move"], expect["public"], expect["outcome"]))


@attrs.define
class CaseRun:
    """One case being run: the session it talks through, the case, and what the engine
    reported so far (the per-case state; nothing of it outlives the case)."""

    session: Session
    case: Case
    traces: Mapping[str, Case] = attrs.field(factory=dict)
    """The corpus's traces by ID: a rejection's or count's prefix follows one."""
    known: Callable[..., Any] = attrs.field(factory=Known)
    reports: dict[int, Report] = attrs.field(factory=dict)
    """What the engine reported, by step."""

    @property
    def rule_ids(self) -> bool:
        """Whether the engine names rules (feature ``rule_ids``)."""
        return self.session.rule_ids

    # -- the operations, checked ------------------------------------------------------------

    def new_game(self) -> None:
        """Start the case's game; a refused config the rules allow fails the case."""
        case = self.case
        started = self.session.new_game(case["game"], case["config"], case.get("state"))
        if isinstance(started, Refused):
            rule = naming.guarded(lambda: naming.config_rule(self), None, ENGINE_DATA)
            raise Stop(Failure(step=0, reason=f"refused the config "
                                              f"{canonical_json(case['config'])}, which the "
                                              f"rules allow", diff=str(started), rule=rule))

    @staticmethod
    def report_requests(expect: Case) -> list[Message]:
        """The requests :meth:`report` sends for *expect*, in order."""
        requests = [observe_request()]
        if expect["legal"] is not None:
            requests.append(legal_request(None))
        requests += [legal_request(part["seat"]) for part in expect["legal_by_seat"] or ()]
        return requests

    def report(self, expect: Case) -> Report:
        """Ask the engine for the observables *expect* lists (the requests of
        :meth:`report_requests`). An answer that is the very line of the expected one is
        taken as the expected value (the same JSON) without being parsed."""
        session, known = self.session, self.known
        seen = session.observe(*known(expect, _observation))
        legal: dict[int | None, list[JSON]] = {}
        if expect["legal"] is not None:
            wanted = expect["legal"]
            legal[None] = session.legal(None, wanted, known(wanted, legal_line))
        for part in expect["legal_by_seat"] or ():
            wanted = part["actions"]
            legal[part["seat"]] = session.legal(part["seat"], wanted, known(wanted, legal_line))
        return Report(to_move=seen.to_move, public=seen.public, outcome=seen.outcome,
                      legal=legal)

    def compare(self, expect: Case, step: int, actions: list[JSON]) -> None:
        """Check the engine's observables against *expect* at *step* (after *actions*)."""
        report = self.report(expect)
        self.reports[step] = report
        lines, differing, extra = self.differences(report, expect)
        if lines:
            after = f" after {canonical_json(actions[-1])}" if actions else ""
            self.fail(step, actions, f"observables differ at step {step}{after}", lines,
                      differing, extra)

    def differences(self, report: Report, expect: Case
                    ) -> tuple[list[str], list[str], dict[int | None, list[str]]]:
        """What differs between *report* and *expect*: readable lines, the differing paths
        and the extra legal actions by seat (no line: nothing differs)."""
        lines, differing = self.view_lines(report, expect, self.known)
        extra: dict[int | None, list[str]] = {}
        groups: list[tuple[int | None, list[JSON]]] = []
        if expect["legal"] is not None:
            groups.append((None, expect["legal"]))
        for part in expect["legal_by_seat"] or ():
            groups.append((part["seat"], part["actions"]))
        for seat, wanted in groups:
            if legal_lines(seat, report.legal[seat], wanted, lines, extra, self.known):
                differing.append("legal")
        return lines, differing, extra

    def view_lines(self, report: Report, expect: Case,
                   text: Callable[[Any], Any] = canonical_json) -> tuple[list[str], list[str]]:
        """The differences of who moves, the public view and the outcome: readable lines
        and the differing paths; *text* gives the canonical text of an expected value."""
        lines: list[str] = []
        differing: list[str] = []
        # ``to_move`` is checked for its shape (a string, integers) when it is read, so
        # Python's equality is exact for it.
        if report.to_move is not expect["to_move"] and report.to_move != expect["to_move"]:
            lines.append(f"to_move: expected {shown(expect['to_move'])}, "
                         f"got {shown(report.to_move)}")
            differing.append("to_move")
        if report.public is not expect["public"] and canonical_json(
                report.public) != text(expect["public"]):
            found = json_diff(expect["public"], report.public, "public", limit=40)
            lines += found[:12] or ["public: differs in JSON types"]
            differing += [line.split(":", 1)[0] for line in found] or ["public"]
        want_outcome = outcome_shown(expect["outcome"], self.rule_ids)
        got_outcome = outcome_shown(report.outcome, self.rule_ids)
        if report.outcome is not expect["outcome"] and canonical_json(
                got_outcome) != canonical_json(want_outcome):
            found = json_diff(want_outcome, got_outcome, "outcome", limit=12)
            lines += found or [f"outcome: expected {shown(want_outcome)}, "
                               f"got {shown(got_outcome)}"]
            differing += [line.split(":", 1)[0] for line in found] or ["outcome"]
        return lines, differing

    def fail(self, step: int, actions: list[JSON], reason: str, lines: list[str],
             differing: list[str], extra: Mapping[int | None, list[str]]) -> None:
        """Stop the case at *step*, with the rules that explain the difference."""
        findings, explanation = naming.name(self, step, actions, differing, extra)
        lines = list(lines)
        if explanation is not None:
            lines.append(f"explanation: {explanation}")
        lines += finding_lines(findings, explanation)
        raise Stop(Failure(step=step, reason=reason, diff="\n".join(lines),
                           rule=findings[0].rule if findings else None,
                           explanation=explanation))

    def expectations(self, length: int) -> list[Case]:
        """The observables expected along the case's prefix of *length* actions: from the
        trace the case names, else computed from the reference."""
        case = self.case
        trace = self.traces.get(case.get("trace") or "")
        if trace is not None and len(trace["steps"]) >= length and [
                s["action"] for s in trace["steps"][:length]] == case["prefix"][:length]:
            return [trace["initial"], *[s["expect"] for s in trace["steps"][:length]]]
        game = GAMES[case["game"]]
        states = replay(game, game.config_from_json(case["config"]), case["prefix"][:length])
        return [json.loads(json.dumps(observables(game, s))) for s in states]

    def walk(self, actions: list[JSON], expected: list[Case]) -> None:
        """Start a game, check the initial position, then apply each action (it must be
        accepted) and check the position after it; after the position of each probe's step
        (a trace case's ``"probes"``, :func:`trace`), the probe."""
        self.new_game()
        probes: dict[int, list[Case]] = {}
        for probe in self.case.get("probes") or ():
            probes.setdefault(probe["step"], []).append(probe)
        # Every step's requests are planned: when a step differs the case ends there, and
        # the engine, a step or two further, is asked nothing more.
        self.session.plan(self._steps(actions, expected, probes))
        self.compare(expected[0], 0, [])
        for probe in probes.get(0, ()):
            self.probe(0, probe, expected[0])
        for i, action in enumerate(actions, 1):
            answer = self.session.apply(action)
            if not answer.accepted:
                self.refused_legal(i, actions[:i], answer)
            self.compare(expected[i], i, actions[:i])
            for probe in probes.get(i, ()):
                self.probe(i, probe, expected[i])

    def _steps(self, actions: list[JSON], expected: list[Case],
               probes: Mapping[int, list[Case]]) -> Iterator[list[Message]]:
        """The requests of :meth:`walk` after ``new_game``, a batch a step and a probe."""
        for i in range(len(actions) + 1):
            yield ([apply_request(actions[i - 1])] if i else []) + self.report_requests(
                expected[i])
            for probe in probes.get(i, ()):
                yield [apply_request(probe["action"]), *self.report_requests(expected[i])]

    def probe(self, step: int, probe: Case, expect: Case) -> None:
        """Offer the *probe*'s action at *step*, whose position was just reported: it must
        be refused under the probe's rule (when the engine names rules) and leave every
        observable as the engine reported it at *step*; else the case stops there. The
        checks of a rejection case at that position (:func:`rejection`), without its
        naming: a probe that fails is judged again as its own rejection case."""
        action = probe["action"]
        text = canonical_json(action)
        answer = self.session.apply(action)
        if answer.accepted:
            raise Stop(Failure(step=step, reason=f"accepted the probe {text}, which the "
                                                 f"rules refuse under {shown(probe['rule'])}",
                               action=action))
        if self.rule_ids and answer.rule != probe["rule"]:
            raise Stop(Failure(step=step, reason=f"refused the probe {text} under "
                                                 f"{shown(answer.rule)}, expected "
                                                 f"{shown(probe['rule'])}", action=action))
        before = self.reports[step]
        after = self.report(expect)
        if not _same_report(before, after):
            raise Stop(Failure(step=step, reason=f"the position changed after the refused "
                                                 f"probe {text}", action=action))

    def walk_quietly(self, actions: list[JSON]) -> None:
        """Replay *actions* without checking (back to a node of a count, without undo)."""
        self.new_game()
        self.session.plan([apply_request(a)] for a in actions)  # a refusal ends the case
        for i, action in enumerate(actions, 1):
            if not self.session.apply(action).accepted:
                raise Stop(Failure(step=len(self.case["prefix"]),
                                   reason=f"refused {canonical_json(action)} when replayed "
                                          f"(step {i})", action=action))

    def refused_legal(self, step: int, actions: list[JSON], answer: Applied) -> None:
        """Stop the case: the engine refused the legal last of *actions*."""
        action = actions[-1]
        named = answer.rule
        explanation = naming.reading_where(self, actions[:-1], action, legal=False)
        lines = [f"engine names {shown(named)}: {shown(answer.message, bare=True)}"]
        if explanation is not None:
            lines.append(f"explanation: {explanation[1]}")
            rule = explanation[0]
        elif self.rule_ids and naming.own_rule(self.case["game"], named):
            rule = named  # the engine refuses under its reading of a rule that allows it
        else:
            rule = naming.guarded(lambda: naming.legal_rule(self.case, actions[:-1], action),
                                  None, ENGINE_DATA)
        raise Stop(Failure(step=step, reason=f"refused the legal action "
                                             f"{canonical_json(action)} at step {step}",
                           diff="\n".join(lines), rule=rule,
                           explanation=None if explanation is None else explanation[1],
                           action=action))


def _same_report(one: Report, other: Report) -> bool:
    """Whether two reports hold the same JSON (the very objects, or the same texts)."""
    if one is other:
        return True
    if (one.to_move is not other.to_move or one.public is not other.public
            or one.outcome is not other.outcome):
        texts = [canonical_json([r.to_move, r.public, r.outcome]) for r in (one, other)]
        if texts[0] != texts[1]:
            return False
    if one.legal.keys() != other.legal.keys():
        return False
    return all(one.legal[seat] is other.legal[seat]
               or canonical_json(one.legal[seat]) == canonical_json(other.legal[seat])
               for seat in one.legal)


def _judged(verdict: Callable[[CaseRun], None]) -> Callable[[CaseRun], Failure | None]:
    def judged(run: CaseRun) -> Failure | None:
        try:
            verdict(run)
        except Stop as stop:
            return stop.failure
        return None

    judged.__name__ = verdict.__name__
    judged.__doc__ = verdict.__doc__
    return judged


@_judged
def trace(run: CaseRun) -> None:
    """A trace: every position along its actions is the one it expects.

    A trace case made by explore may carry ``"probes"`` (never one of the corpus): refused
    actions ``{"step", "action", "rule"}`` offered at the position after *step* actions,
    each checked where the walk stands (:meth:`CaseRun.probe`) rather than by a rejection
    case that walks the game again from its start."""
    steps = run.case["steps"]
    run.walk([s["action"] for s in steps], [run.case["initial"], *[s["expect"] for s in steps]])


@_judged
def rejection(run: CaseRun) -> None:
    """A rejection: after its prefix (checked), the action is refused under the case's
    rule (when the engine names rules) and the position does not change."""
    case = run.case
    prefix = case["prefix"]
    run.walk(prefix, run.expectations(len(prefix)))
    step = len(prefix)
    action = case["action"]
    answer = run.session.apply(action)
    expected = case["rule"]
    text = canonical_json(action)
    if answer.accepted:
        explained = naming.reading_where(run, prefix, action, legal=True)
        lines = [f"action: {text}"]
        if explained is not None:
            lines.append(f"explanation: {explained[1]}")
        raise Stop(Failure(step=step, reason=f"accepted {text}, which the rules refuse under "
                                             f"{shown(expected)}", diff="\n".join(lines),
                           rule=expected,
                           explanation=None if explained is None else explained[1],
                           action=action))
    if run.rule_ids and answer.rule != expected:
        named = answer.rule
        lines = [f"engine message: {shown(answer.message, bare=True)}",
                 f"refusal order: {naming.order_hint(case)}"]
        rule = expected
        if isinstance(named, str) and naming.own_rule(case["game"], named):
            probe = naming.refused_too(run, prefix, named)
            if probe is not None:  # the engine's reading of its rule is what differs
                lines.append(f"it also refuses the legal action {canonical_json(probe)} "
                             f"under {named}")
                rule = named
        raise Stop(Failure(step=step, reason=f"refused {text} under {shown(named)}, expected "
                                             f"{shown(expected)}", diff="\n".join(lines),
                           rule=rule, action=action))
    run.session.plan([run.report_requests(case["position"])])
    try:
        run.compare(case["position"], step, prefix)
    except Stop as stop:
        failed = stop.failure
        raise Stop(Failure(step=step, reason=f"the position changed after the refused "
                                             f"action {text}", diff=failed.diff,
                           rule=failed.rule or expected, explanation=failed.explanation,
                           action=action)) from None


@_judged
def config(run: CaseRun) -> None:
    """A config case: ``new_game`` with a config the rules exclude (or a malformed one) is
    refused."""
    case = run.case
    if not isinstance(run.session.new_game(case["game"], case["config"]), Refused):
        rule = case["rule"]
        why = f"the rules exclude under {rule}" if rule else "is malformed (P-8)"
        raise Stop(Failure(step=0, reason=f"started a game with the config "
                                          f"{canonical_json(case['config'])}, which {why}",
                           diff="new_game must answer {\"ok\": false, \"error\": ...}",
                           rule=rule or "P-8"))


def _count(run: CaseRun) -> Failure | None:
    return count(run)


VERDICTS: dict[str, Callable[[CaseRun], Failure | None]] = {
    "trace": trace, "rejection": rejection, "config": config, "count": _count}
"""The verdict of each kind of case."""


def judge(run: CaseRun) -> Failure | None:
    """The verdict of the run's case (its kind's function; a count for any other kind)."""
    return VERDICTS.get(run.case["kind"], _count)(run)
