"""The conformance runner: drive an engine through the corpus and judge it case by case.

The runner sends the operations and does all comparing itself, so an engine adapter stays
small. Each case ends as ``passed``, ``failed`` (the first differing step, a readable diff,
the case's rule IDs and, where it can be named, the rule the engine breaks), ``errored``
(the engine crashed, hung or answered garbage; it is restarted) or ``skipped`` (the case
needs a game, reading, option or feature the engine did not declare).

Every position a case passes through is checked, the prefixes of rejections and counts
included. How the broken rule is named is described in
:mod:`copa_ref.conformance.scenarios` (the game's record) and :mod:`copa_ref.conformance.explain`
(other readings). Nothing an engine sends makes the runner itself fail: a case that cannot
go on is failed or errored, and the run goes on.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from copa_ref.conformance import schemas
from copa_ref.conformance.channel import Channel, EngineFailure
from copa_ref.conformance.checks import broken_rule, json_diff, shown
from copa_ref.conformance.explain import alternatives, explain, outcome_shown, replays
from copa_ref.conformance.observables import CORPUS_DIR, PROTOCOL_VERSION, observables
from copa_ref.conformance.registry import record_of
from copa_ref.conformance.scenarios import AnyRecord, Divergence, Finding, Report
from copa_ref.conformance.viewer import viewer_path
from copa_ref.core import JSON, MoverKind, RuleViolation, Seat, canonical_json
from copa_ref.core.codec import structure
from copa_ref.games import GAMES

__all__ = [
    "CaseResult",
    "Filters",
    "HandshakeError",
    "Runner",
    "corpus_version",
    "load_corpus",
    "select",
]

Case = dict[str, Any]
Message = dict[str, JSON]

MAX_REQUESTS = 200_000
"""No case may need more requests than this (a count whose tree explodes is errored)."""

_BAD_DATA = (ValueError, TypeError, KeyError, IndexError, AttributeError, AssertionError,
             RecursionError, OverflowError)
"""What judging a misshapen report may raise."""


def corpus_version(corpus: Path = CORPUS_DIR) -> str:
    """The version of the corpus in *corpus* (its ``VERSION`` file)."""
    return (corpus / "VERSION").read_text().strip()


def load_corpus(corpus: Path = CORPUS_DIR, *, validate: bool = False) -> list[Case]:
    """Every case of the corpus in *corpus*, in file order (games, then kinds).

    :param validate: also validate each file against ``schema/corpus.schema.json``.
    """
    validator = None
    if validate:
        validator = schemas.validator("corpus.schema.json", corpus)
    cases: list[Case] = []
    for path in sorted((corpus / "cases").glob("*/*.json")):
        data = json.loads(path.read_text())
        if validator is not None:
            validator.validate(data)
        cases.extend(data["cases"])
    return cases


@attrs.frozen
class Filters:
    """Which cases to run; every given filter must match (``None``: any)."""

    game: str | None = None
    case: str | None = None
    """A case ID or a glob pattern over IDs (``kala/rejection/*``)."""
    rule: str | None = None
    """A rule ID the case covers."""
    kind: str | None = None

    def matches(self, case: Case) -> bool:
        """Whether *case* passes every filter."""
        if self.game is not None and case["game"] != self.game:
            return False
        if self.kind is not None and case["kind"] != self.kind:
            return False
        if self.case is not None and not (case["id"] == self.case
                                          or fnmatch.fnmatchcase(case["id"], self.case)):
            return False
        return self.rule is None or self.rule in case["rules"] or case.get("rule") == self.rule

    def as_json(self) -> dict[str, str]:
        """The filters given, as JSON."""
        return {k: v for k, v in attrs.asdict(self).items() if v is not None}


def select(cases: Iterable[Case], filters: Filters) -> list[Case]:
    """The cases that pass *filters*."""
    return [case for case in cases if filters.matches(case)]


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
    """The rule the engine breaks, when the runner can name it (see the module doc)."""
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


class HandshakeError(EngineFailure):
    """The engine answered the handshake, but refused it or sent a misshapen one: every
    case is errored with the reason."""


class _Failed(Exception):
    def __init__(self, step: int | None, reason: str, diff: str | None = None,
                 rule: str | None = None, explanation: str | None = None,
                 action: JSON = None) -> None:
        super().__init__(reason)
        self.step = step
        self.reason = reason
        self.diff = diff
        self.rule = rule
        self.explanation = explanation
        self.action = action


def _text(actions: Iterable[JSON]) -> list[str]:
    return sorted(map(canonical_json, actions))


def _listing(label: str, items: list[str]) -> str:
    more = f" (+{len(items) - 5} more)" if len(items) > 5 else ""
    return f"{label} {', '.join(items[:5])}{more}"


def _fresh(value: Any, make: Callable[[Any], Any]) -> Any:
    return make(value)


def _legal_lines(seat: int | None, listed: list[JSON], wanted: list[JSON],
                 lines: list[str], extra: dict[int | None, list[str]],
                 known: Callable[[Any, Callable[[Any], Any]], Any] = _fresh) -> bool:
    """Compare the legal actions a seat's listing holds with the wanted ones; add the
    differences to *lines* and the extra actions to *extra*. Whether they differ.
    *known(value, make)* is ``make(value)`` for a wanted value (computed once for the
    corpus's: :meth:`Runner._known`).

    A listing in the wanted order is recognised by its text as a whole (one encoding, not
    one an action); any other order is compared action by action.
    """
    if canonical_json(listed) == known(wanted, canonical_json):
        return False
    got, want = _text(listed), known(wanted, _text)
    if got == want:
        return False
    label = "legal" if seat is None else f"legal(seat {seat})"
    missing = sorted(set(want) - set(got))
    extra[seat] = sorted(set(got) - set(want))
    if missing:
        lines.append(_listing(f"{label}: missing", missing))
    if extra[seat]:
        lines.append(_listing(f"{label}: extra", extra[seat]))
    if not missing and not extra[seat]:
        lines.append(f"{label}: duplicates in {len(got)} actions")
    return True


def _replay_reference(game: Any, config: Any, actions: list[JSON]) -> list[Any]:
    """The reference's states along *actions* (``states[i]`` after i actions)."""
    state = game.new_game(config)
    states = [state]
    for action in actions:
        state = game.apply(state, game.action_from_json(action))
        states.append(state)
    return states


class Runner:
    """Runs cases against engines made by *connect* (one live session at a time; a new one
    after an engine failure).

    :param corpus: every case of the corpus, so that a rejection can find the trace its
        prefix follows (without it, the expectations along a prefix are computed from the
        reference).
    """

    def __init__(self, connect: Callable[[], Channel], corpus: Iterable[Case] = ()) -> None:
        self.connect = connect
        self.channel: Channel | None = None
        self.hello: Message | None = None
        self.requests = 0
        self.traces: dict[str, Case] = {c["id"]: c for c in corpus if c.get("kind") == "trace"}
        self._reports: dict[int, Report] = {}
        self._texts: dict[tuple[int, Callable[[Any], Any]], tuple[Any, Any]] = {}
        self._budget = 0
        self.handshake_error: HandshakeError | None = None

    # -- the session -------------------------------------------------------------------------

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

    def _request(self, message: Message) -> Message:
        assert self.channel is not None
        self._budget -= 1
        if self._budget < 0:
            raise EngineFailure(f"the case needs more than {MAX_REQUESTS} requests; stopped")
        answer = self.channel.request(message)
        if not answer["ok"]:
            raise EngineFailure(f"engine answered {message['op']} with an error: "
                                f"{shown(answer.get('error'))}")
        return answer

    @property
    def hello_features(self) -> list[str]:
        """The features the running engine declared."""
        features: list[str] = self.hello["features"] if self.hello else []
        return features

    @property
    def rule_ids(self) -> bool:
        """Whether the engine declared ``rule_ids`` (its refusals and outcomes name rules)."""
        return "rule_ids" in self.hello_features

    # -- running ------------------------------------------------------------------------------

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
        features = [f for f in case["features"] if f not in self.hello["features"]]
        if features:
            return f"needs feature {', '.join(features)}"
        return None

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
        self._reports = {}
        self._budget = MAX_REQUESTS
        try:
            self.start()
            reason = self.skip_reason(case)
            if reason is not None:
                return CaseResult(**base, status="skipped", reason=reason)
            kind = case["kind"]
            if kind == "trace":
                self._trace(case)
            elif kind == "rejection":
                self._rejection(case)
            elif kind == "config":
                self._config(case)
            else:
                self._count(case)
        except _Failed as failed:
            return CaseResult(**base, status="failed", step=failed.step, reason=failed.reason,
                              diff=failed.diff, broken_rule=failed.rule,
                              explanation=failed.explanation, action=failed.action,
                              viewer=viewer_path(case["id"], failed.step),
                              seconds=time.perf_counter() - started)
        except EngineFailure as exc:
            self.close()
            return CaseResult(**base, status="errored", reason=str(exc),
                              seconds=time.perf_counter() - started)
        except Exception as exc:  # whatever an engine sends, the run goes on
            self.close()
            return CaseResult(**base, status="errored",
                              reason=f"the runner could not judge the engine's answers "
                                     f"({type(exc).__name__}: {str(exc)[:300]})",
                              seconds=time.perf_counter() - started)
        return CaseResult(**base, status="passed", seconds=time.perf_counter() - started)

    # -- the operations, checked ---------------------------------------------------------------

    def _new_game(self, case: Case) -> None:
        try:
            self._request({"op": "new_game", "game": case["game"], "config": case["config"]})
        except EngineFailure as exc:
            if self.channel is None or not str(exc).startswith("engine answered new_game"):
                raise
            rule = _guarded(lambda: self._config_refused(case), None)
            raise _Failed(0, f"refused the config {canonical_json(case['config'])}, which the "
                             f"rules allow", str(exc), rule) from None

    def _config_refused(self, case: Case) -> str | None:
        """The rule that admits a config the engine refused. The engine is asked again with
        each reading option the config sets away from its default put back: when it takes
        one of those, the reading it refused is the option's (its rule is named); else the
        record's ``config_rule`` (the player count's rule, say)."""
        record = record_of(case["game"])
        if record is None:
            return None
        game = record.game
        config = game.config_from_json(case["config"])
        given, default = game.to_json(config), game.to_json(game.default_config())
        assert self.channel is not None
        for reading in record.readings:
            option = reading.option
            if option not in given or given[option] == default.get(option):
                continue
            self._budget -= 1
            answer = self.channel.request({"op": "new_game", "game": case["game"],
                                           "config": {**given, option: default[option]}})
            if answer.get("ok") is True:
                return reading.rule
        return None if record.config_rule is None else record.config_rule(config)

    def _apply(self, action: JSON) -> Message:
        answer = self._request({"op": "apply", "action": action})
        if type(answer.get("accepted")) is not bool:
            raise EngineFailure(f"apply answer without \"accepted\": {shown(answer)[:300]}")
        return answer

    def _legal(self, seat: int | None) -> list[JSON]:
        answer = self._request({"op": "legal", "seat": seat})
        actions = answer.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise EngineFailure(f"legal answer without a list of actions: {shown(answer)[:300]}")
        return actions

    def _observe(self) -> Message:
        answer = self._request({"op": "observe"})
        mover = answer.get("to_move")
        if not (isinstance(mover, dict) and isinstance(mover.get("kind"), str)
                and isinstance(mover.get("seats"), list)
                and all(type(s) is int for s in mover["seats"])
                and isinstance(answer.get("public"), dict)
                and (answer.get("outcome") is None or isinstance(answer.get("outcome"), dict))):
            raise EngineFailure(f"observe answer of the wrong shape: {shown(answer)[:300]}")
        return answer

    def _report(self, expect: Case) -> Report:
        """Ask the engine for the observables *expect* lists."""
        seen = self._observe()
        legal: dict[int | None, list[JSON]] = {}
        if expect["legal"] is not None:
            legal[None] = self._legal(None)
        for part in expect["legal_by_seat"] or ():
            legal[part["seat"]] = self._legal(part["seat"])
        return Report(to_move=seen["to_move"], public=seen["public"], outcome=seen["outcome"],
                      legal=legal)

    def _compare(self, case: Case, expect: Case, step: int, actions: list[JSON]) -> None:
        """Check the engine's observables against *expect* at *step* (after *actions*)."""
        report = self._report(expect)
        self._reports[step] = report
        lines, differing = self._view_lines(report, expect, self._known)
        extra: dict[int | None, list[str]] = {}
        groups: list[tuple[int | None, list[JSON]]] = []
        if expect["legal"] is not None:
            groups.append((None, expect["legal"]))
        for part in expect["legal_by_seat"] or ():
            groups.append((part["seat"], part["actions"]))
        for seat, wanted in groups:
            if _legal_lines(seat, report.legal[seat], wanted, lines, extra, self._known):
                differing.append("legal")
        if lines:
            after = f" after {canonical_json(actions[-1])}" if actions else ""
            self._fail(case, step, actions, f"observables differ at step {step}{after}", lines,
                       differing, extra)

    def _known(self, value: Any, make: Callable[[Any], Any] = canonical_json) -> Any:
        """``make(value)`` for a value of the corpus, computed once per value (the
        positions along a rejection's prefix are its trace's): kept with the value, so that
        its ``id`` stays its own."""
        key = (id(value), make)
        found = self._texts.get(key)
        if found is None:
            found = self._texts[key] = (value, make(value))
        return found[1]

    def _view_lines(self, report: Report, expect: Case,
                    text: Callable[[Any], Any] = canonical_json) -> tuple[list[str], list[str]]:
        """The differences of who moves, the public view and the outcome: readable lines
        and the differing paths; *text* gives the canonical text of an expected value."""
        lines: list[str] = []
        differing: list[str] = []
        # ``to_move`` is checked for its shape (a string, integers) when it is read, so
        # Python's equality is exact for it.
        if report.to_move != expect["to_move"]:
            lines.append(f"to_move: expected {shown(expect['to_move'])}, "
                         f"got {shown(report.to_move)}")
            differing.append("to_move")
        if canonical_json(report.public) != text(expect["public"]):
            found = json_diff(expect["public"], report.public, "public", limit=40)
            lines += found[:12] or ["public: differs in JSON types"]
            differing += [line.split(":", 1)[0] for line in found] or ["public"]
        want_outcome = outcome_shown(expect["outcome"], self.rule_ids)
        got_outcome = outcome_shown(report.outcome, self.rule_ids)
        if canonical_json(got_outcome) != canonical_json(want_outcome):
            found = json_diff(want_outcome, got_outcome, "outcome", limit=12)
            lines += found or [f"outcome: expected {shown(want_outcome)}, "
                               f"got {shown(got_outcome)}"]
            differing += [line.split(":", 1)[0] for line in found] or ["outcome"]
        return lines, differing

    # -- naming the rule ------------------------------------------------------------------------

    def _fail(self, case: Case, step: int, actions: list[JSON], reason: str, lines: list[str],
              differing: list[str], extra: Mapping[int | None, list[str]]) -> None:
        """Raise the failure at *step*, with the rules that explain it."""
        findings, explanation = self._name(case, step, actions, differing, extra)
        lines = list(lines)
        if explanation is not None:
            lines.append(f"explanation: {explanation}")
        lines += [f"rule: {f.rule}: {f.message}" for f in findings]
        raise _Failed(step, reason, "\n".join(lines), findings[0].rule if findings else None,
                      explanation)

    def _name(self, case: Case, step: int, actions: list[JSON], differing: list[str],
              extra: Mapping[int | None, list[str]]) -> tuple[list[Finding], str | None]:
        """The findings that name the broken rule (most telling first) and the explanation
        by another reading, if any."""
        record = record_of(case["game"])
        if record is None:
            return [], None
        found: list[Finding] = []
        explanation: str | None = None
        try:
            game = record.game
            config = game.config_from_json(case["config"])
            states = _replay_reference(game, config, actions[:step])
        except _BAD_DATA:
            return [], None
        reports = {s: r for s, r in self._reports.items() if s <= step}
        for explained in _guarded(lambda: explain(record, config, actions, reports,
                                                  self.rule_ids), []):
            found.append(Finding(explained.rule, explained.message))
            explanation = explanation or explained.message
        report = self._reports.get(step)
        if report is not None:
            divergence = self._divergence(record, config, step, actions, states, report,
                                          differing)
            if divergence.reported_view is None:
                problem = _guarded(lambda: _undecodable(game, report.public), None)
                if problem is not None:
                    found.append(Finding("P-8", f"the reported view is not {game.title}'s "
                                                f"canonical JSON: {problem}"))
            if record.diagnose is not None:
                found += _guarded(lambda: list(record.diagnose(divergence)), [])  # type: ignore[misc]
            # An extra legal action names its rule when only the legal sets differ; when the
            # position differs too, the extra actions are a consequence of that difference.
            only_legal = set(differing) <= {"legal"}
            if only_legal:
                found += self._refusals(record, actions[:step], states[-1], extra)
            found += _guarded(lambda: record.view_findings(divergence), [])
            if not only_legal:
                found += self._refusals(record, actions[:step], states[-1], extra)
            previous = self._reports.get(step - 1)
            invariant = _guarded(lambda: broken_rule(
                game, record.check_public, None if previous is None else previous.public,
                actions[step - 1] if step else None, report.public), None)
            if invariant is not None:
                rule, message = invariant
                found.append(Finding(rule or "(shape)", message))
        else:
            found += self._refusals(record, actions[:step], states[-1], extra)
        unique: list[Finding] = []
        for finding in found:
            if finding.rule not in {f.rule for f in unique}:
                unique.append(finding)
        return unique, explanation

    def _divergence(self, record: AnyRecord, config: Any, step: int, actions: list[JSON],
                    states: list[Any], report: Report,
                    differing: list[str]) -> Divergence[Any, Any, Any, Any]:
        game = record.game
        try:
            view = structure(game.converter, report.public, game.observation_type,
                             "reported view")
        except _BAD_DATA:
            view = None
        action = game.action_from_json(actions[step - 1]) if step else None
        return Divergence(config=config, step=step, before=states[-2] if step else states[0],
                          action=action, expected=states[-1], reported=report,
                          reported_before=self._reports.get(step - 1), reported_view=view,
                          differing=tuple(differing))

    def _refusals(self, record: AnyRecord, actions: list[JSON], state: Any,
                  extra: Mapping[int | None, list[str]]) -> list[Finding]:
        """The rules under which the reference refuses the extra legal actions the engine
        lists; at a joint node a seat's extra part is combined with the other seats' legal
        parts into one joint action."""
        game = record.game
        found: list[Finding] = []
        for seat, texts in extra.items():
            for text in texts[:3]:
                rule = _guarded(lambda t=text, s=seat: _refusal(game, state, t, s), None)  # type: ignore[misc]
                if rule is not None:
                    found.append(Finding(rule, f"the engine lists {text}, which the reference "
                                               f"refuses under {rule}"))
                    break
        return found

    # -- the three kinds -----------------------------------------------------------------------

    def _expectations(self, case: Case, length: int) -> list[Case]:
        """The observables expected along a prefix of *length* actions: from the trace the
        case names, else computed from the reference."""
        trace = self.traces.get(case.get("trace") or "")
        if trace is not None and len(trace["steps"]) >= length and [
                s["action"] for s in trace["steps"][:length]] == case["prefix"][:length]:
            return [trace["initial"], *[s["expect"] for s in trace["steps"][:length]]]
        game = GAMES[case["game"]]
        states = _replay_reference(game, game.config_from_json(case["config"]),
                                   case["prefix"][:length])
        return [json.loads(json.dumps(observables(game, s))) for s in states]

    def _walk(self, case: Case, actions: list[JSON], expected: list[Case]) -> None:
        """Start a game, check the initial position, then apply each action (it must be
        accepted) and check the position after it."""
        self._new_game(case)
        self._compare(case, expected[0], 0, [])
        for i, action in enumerate(actions, 1):
            answer = self._apply(action)
            if not answer["accepted"]:
                self._refused_legal(case, i, actions[:i], answer)
            self._compare(case, expected[i], i, actions[:i])

    def _refused_legal(self, case: Case, step: int, actions: list[JSON],
                       answer: Message) -> None:
        action = actions[-1]
        named = answer.get("rule")
        explanation = self._reading_where(case, actions[:-1], action, legal=False)
        lines = [f"engine names {shown(named)}: {shown(answer.get('message'), bare=True)}"]
        rule = None
        if explanation is not None:
            lines.append(f"explanation: {explanation[1]}")
            rule = explanation[0]
        elif self.rule_ids and _own_rule(case["game"], named):
            rule = named  # the engine refuses under its reading of a rule that allows it
        else:
            rule = _guarded(lambda: self._legal_rule(case, actions[:-1], action), None)
        raise _Failed(step, f"refused the legal action {canonical_json(action)} at step "
                            f"{step}", "\n".join(lines), rule,
                      None if explanation is None else explanation[1], action)

    @staticmethod
    def _legal_rule(case: Case, prefix: list[JSON], action: JSON) -> str | None:
        """The rule the game's record says makes *action* legal after *prefix*."""
        record = record_of(case["game"])
        if record is None or record.legal_rule is None:
            return None
        game = record.game
        state = _replay_reference(game, game.config_from_json(case["config"]), prefix)[-1]
        return record.legal_rule(state, game.action_from_json(action))

    def _trace(self, case: Case) -> None:
        steps = case["steps"]
        self._walk(case, [s["action"] for s in steps],
                   [case["initial"], *[s["expect"] for s in steps]])

    def _rejection(self, case: Case) -> None:
        prefix = case["prefix"]
        self._walk(case, prefix, self._expectations(case, len(prefix)))
        step = len(prefix)
        action = case["action"]
        answer = self._apply(action)
        expected = case["rule"]
        text = canonical_json(action)
        if answer["accepted"]:
            explained = self._reading_where(case, prefix, action, legal=True)
            lines = [f"action: {text}"]
            if explained is not None:
                lines.append(f"explanation: {explained[1]}")
            raise _Failed(step, f"accepted {text}, which the rules refuse under "
                                f"{shown(expected)}", "\n".join(lines), expected,
                          None if explained is None else explained[1], action)
        if self.rule_ids and answer.get("rule") != expected:
            named = answer.get("rule")
            lines = [f"engine message: {shown(answer.get('message'), bare=True)}",
                     f"refusal order: {_order_hint(case)}"]
            rule = expected
            if isinstance(named, str) and _own_rule(case["game"], named):
                probe = self._refused_too(case, prefix, named)
                if probe is not None:  # the engine's reading of its rule is what differs
                    lines.append(f"it also refuses the legal action {canonical_json(probe)} "
                                 f"under {named}")
                    rule = named
            raise _Failed(step, f"refused {text} under {shown(named)}, expected "
                                f"{shown(expected)}", "\n".join(lines), rule, None, action)
        try:
            self._compare(case, case["position"], step, prefix)
        except _Failed as failed:
            raise _Failed(step, f"the position changed after the refused action {text}",
                          failed.diff, failed.rule or expected, failed.explanation,
                          action) from None

    def _refused_too(self, case: Case, prefix: list[JSON], rule: str) -> JSON:
        """A legal action the engine refuses under *rule* at the end of *prefix* (the
        reference's first legal action, or a chance action it draws with a fixed seed), or
        ``None``: whether the engine's refusal under *rule* is its reading of that rule
        rather than an order of checks. The engine's game may move on: the case fails
        either way."""
        game = GAMES[case["game"]]
        state = _replay_reference(game, game.config_from_json(case["config"]), prefix)[-1]
        mover = game.to_move(state)
        if mover.kind is MoverKind.CHANCE:
            probe = game.sample_chance(state, random.Random(0))
        elif mover.kind is MoverKind.JOINT:
            probe = _joint_children(game, state)[0]
        else:
            legal = game.legal_actions(state, None)
            if not legal:  # the game is over: no legal action to try
                return None
            probe = legal[0]
        data = game.to_json(probe)
        answer = self._apply(data)
        return data if not answer["accepted"] and answer.get("rule") == rule else None

    def _reading_where(self, case: Case, prefix: list[JSON], action: JSON,
                       legal: bool) -> tuple[str, str] | None:
        """``(rule, explanation)`` of an alternative reading that reports everything the
        engine reported along *prefix* and under which *action* is legal (or, with
        ``legal=False``, refused), as the engine has it."""
        record = record_of(case["game"])
        if record is None:
            return None
        reports = dict(self._reports)

        def search() -> tuple[str, str] | None:
            config = record.game.config_from_json(case["config"])
            for alternative in alternatives(record, config):
                if not replays(alternative, prefix, reports, self.rule_ids):
                    continue
                game = alternative.game
                state = _replay_reference(game, alternative.config, prefix)[-1]
                if game.is_legal(state, game.action_from_json(action)) is legal:
                    return alternative.rule, (f"your engine plays as if {alternative.label} "
                                              f"[{alternative.rule}]")
            return None

        found: tuple[str, str] | None = _guarded(search, None)
        return found

    def _count(self, case: Case) -> None:
        prefix = case["prefix"]
        self._walk(case, prefix, self._expectations(case, len(prefix)))
        game = GAMES[case["game"]]
        state = _replay_reference(game, game.config_from_json(case["config"]), prefix)[-1]
        undo = "undo" in self.hello_features
        path: list[JSON] = []
        depth = case["depth"]

        def children(node: Any) -> list[JSON]:
            """The engine's actions at the current node, checked against the reference's."""
            mover = game.to_move(node)
            seen = self._observe()
            kind = seen["to_move"]["kind"]
            report = Report(to_move=seen["to_move"], public=seen["public"],
                            outcome=seen["outcome"])
            view, differing = self._view_lines(report, json.loads(json.dumps(
                observables(game, node))))
            if view:
                self._count_failure(case, prefix, path, view, differing, {}, report)
            legal: dict[int | None, list[JSON]] = {}
            if kind in ("seat", "any", "nobody"):
                legal[None] = self._legal(None)
            elif kind == "joint":
                for part in mover.seats:
                    legal[int(part)] = self._legal(int(part))
            report = attrs.evolve(report, legal=legal)
            lines: list[str] = []
            extra: dict[int | None, list[str]] = {}
            for seat, got_actions in legal.items():
                _legal_lines(seat, got_actions, [game.to_json(a) for a in game.legal_actions(
                    node, None if seat is None else Seat(seat))], lines, extra)
            if lines:
                self._count_failure(case, prefix, path, lines, ["legal"], extra, report)
            if kind == "joint":
                return [game.to_json(a) for a in _joint_children(game, node)]
            return legal.get(None, [])

        def back() -> None:
            if undo:
                self._request({"op": "undo"})
            else:
                self._walk_quietly(case, prefix + path)

        def perft(node: Any, left: int) -> int:
            moves = children(node)
            if left == 1:
                return len(moves)
            total = 0
            for move in moves:
                total += descend(node, move, left)
            return total

        def descend(node: Any, move: JSON, left: int) -> int:
            answer = self._apply(move)
            if not answer["accepted"]:
                raise _Failed(len(prefix), f"refused {canonical_json(move)}, which it listed "
                                           f"as legal, after {canonical_json(path)}",
                              f"engine names {shown(answer.get('rule'))}: "
                              f"{shown(answer.get('message'), bare=True)}", None, None, move)
            path.append(move)
            child = game.apply(node, game.action_from_json(move))
            count = perft(child, left - 1)
            path.pop()
            back()
            return count

        breakdown: dict[str, int] = {}
        for move in children(state):
            key = canonical_json(move)
            breakdown[key] = breakdown.get(key, 0) + (1 if depth == 1 else descend(
                state, move, depth))
        expected = {canonical_json(e["action"]): e["count"] for e in case["breakdown"]}
        if breakdown != expected:
            lines = [f"{key}: expected {expected.get(key, '(not legal)')}, "
                     f"got {breakdown.get(key, '(not listed)')}"
                     for key in sorted(set(expected) | set(breakdown))
                     if expected.get(key) != breakdown.get(key)]
            raise _Failed(len(prefix), f"{case['counts']} to depth {depth}: expected "
                                       f"{case['total']}, got {sum(breakdown.values())}",
                          "\n".join(lines[:12]))

    def _config(self, case: Case) -> None:
        """``new_game`` with a config the rules exclude (or a malformed one) is refused."""
        assert self.channel is not None
        self._budget -= 1
        answer = self.channel.request({"op": "new_game", "game": case["game"],
                                       "config": case["config"]})
        if answer.get("ok") is not False:
            rule = case["rule"]
            why = f"the rules exclude under {rule}" if rule else "is malformed (P-8)"
            raise _Failed(0, f"started a game with the config {canonical_json(case['config'])}"
                             f", which {why}", "new_game must answer {\"ok\": false, "
                             "\"error\": ...}", rule or "P-8")

    def _walk_quietly(self, case: Case, actions: list[JSON]) -> None:
        """Replay *actions* without checking (back to a node of a count, without undo)."""
        self._new_game(case)
        for i, action in enumerate(actions, 1):
            answer = self._apply(action)
            if not answer["accepted"]:
                raise _Failed(len(case["prefix"]), f"refused {canonical_json(action)} when "
                                                   f"replayed (step {i})", None, None, None,
                              action)

    def _count_failure(self, case: Case, prefix: list[JSON], path: list[JSON],
                       lines: list[str], differing: list[str],
                       extra: Mapping[int | None, list[str]], report: Report) -> None:
        """Fail a count at a node inside its tree, naming the rule there."""
        actions = prefix + path
        step = len(actions)
        self._reports[step] = report
        where = (f" after {canonical_json(path)}" if path else "")
        self._fail(case, step, actions, f"the engine differs at the count's node{where}",
                   lines, differing, extra)


def _own_rule(game: str, rule: object) -> bool:
    """Whether *rule* is a rule ID of *game* (``KOPA-1`` for Kopa, not ``P-8``)."""
    prefix = GAMES[game].prefix
    return (isinstance(rule, str) and rule.startswith(f"{prefix}-")
            and rule[len(prefix) + 1:].isdigit())


def _joint_children(game: Any, state: Any) -> list[Any]:
    """The reference's joint actions at a joint node (the product of the seats' parts)."""
    combos: list[tuple[Any, ...]] = [()]
    for seat in game.to_move(state).seats:
        combos = [(*c, x) for c in combos for x in game.legal_actions(state, seat)]
    return [game.joint(state, c) for c in combos]


def _refusal(game: Any, state: Any, text: str, seat: int | None) -> str | None:
    """The rule under which the reference refuses the listed action *text* in *state*."""
    data = json.loads(text)
    action = game.action_from_json(data)
    if seat is not None and game.joint is not None:
        mover = game.to_move(state)
        parts: list[Any] = []
        for other in mover.seats:
            if int(other) == seat:
                parts.append(action)
            else:
                parts.append(game.legal_actions(state, other)[0])
        try:
            action = game.joint(state, tuple(parts))
        except RuleViolation as exc:
            return exc.rule
    try:
        game.apply(state, action)
    except RuleViolation as exc:
        return exc.rule
    return None


def _undecodable(game: Any, public: JSON) -> str | None:
    """Why a reported public view does not decode as the game's observation (``None``: it
    does)."""
    try:
        structure(game.converter, public, game.observation_type, "reported view")
    except _BAD_DATA as exc:
        return str(exc)[:200]
    return None


def _guarded(compute: Callable[[], Any], default: Any) -> Any:
    """*compute()*, or *default* when judging a misshapen report raises."""
    try:
        return compute()
    except _BAD_DATA:
        return default


def _order_hint(case: Case) -> str:
    spec = "specs/" + case["game"] + ".md"
    return f"when an action breaks several rules, the first in the refusal order of {spec}"


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
