"""The conformance runner: drive an engine through the corpus and judge it case by case.

The runner sends the operations and does all comparing itself, so an engine adapter stays
small. Each case ends as ``passed``, ``failed`` (the first differing step, a readable diff,
the case's rule IDs and, where an invariant or the reference names one, the broken rule),
``errored`` (the engine crashed, hung or answered garbage; it is restarted) or ``skipped``
(the case needs a game, option or feature the engine did not declare).
"""

from __future__ import annotations

import fnmatch
import json
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from copa_ref.conformance.channel import Channel, EngineFailure
from copa_ref.conformance.checks import broken_rule, json_diff, reference_refusal
from copa_ref.conformance.observables import CORPUS_DIR, PROTOCOL_VERSION
from copa_ref.conformance.registry import record_of
from copa_ref.core import JSON, canonical_json
from copa_ref.games import GAMES

__all__ = [
    "CaseResult",
    "Filters",
    "Runner",
    "corpus_version",
    "load_corpus",
    "select",
]

Case = dict[str, Any]
Message = dict[str, JSON]


def corpus_version(corpus: Path = CORPUS_DIR) -> str:
    """The version of the corpus in *corpus* (its ``VERSION`` file)."""
    return (corpus / "VERSION").read_text().strip()


def load_corpus(corpus: Path = CORPUS_DIR, *, validate: bool = False) -> list[Case]:
    """Every case of the corpus in *corpus*, in file order (games, then kinds).

    :param validate: also validate each file against ``schema/corpus.schema.json``.
    """
    validator = None
    if validate:
        import jsonschema  # type: ignore[import-untyped]

        schema = json.loads((corpus / "schema" / "corpus.schema.json").read_text())
        validator = jsonschema.Draft202012Validator(schema)
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
    """The rule an invariant or the reference names for the difference."""
    seconds: float = 0.0

    def as_json(self) -> dict[str, JSON]:
        """The report line of this result."""
        return {"type": "case", **attrs.asdict(self, recurse=False),
                "rules": list(self.rules), "seconds": round(self.seconds, 4)}


class _Failed(Exception):
    def __init__(self, step: int | None, reason: str, diff: str | None = None,
                 rule: str | None = None) -> None:
        super().__init__(reason)
        self.step = step
        self.reason = reason
        self.diff = diff
        self.rule = rule


def _text(actions: Iterable[JSON]) -> list[str]:
    return sorted(canonical_json(a) for a in actions)


class Runner:
    """Runs cases against engines made by *connect* (one live session at a time; a new one
    after an engine failure)."""

    def __init__(self, connect: Callable[[], Channel]) -> None:
        self.connect = connect
        self.channel: Channel | None = None
        self.hello: Message | None = None
        self.requests = 0
        self._expected_text: dict[int, list[str]] = {}

    # -- the session -------------------------------------------------------------------------

    def start(self) -> Message:
        """Start the engine (if not running) and return its handshake."""
        if self.channel is None:
            self.channel = self.connect()
            self.hello = None
            answer = self.channel.request({"op": "start", "protocol": PROTOCOL_VERSION})
            if not answer.get("ok"):
                raise EngineFailure(f"handshake refused: {answer.get('error')}")
            problems = [key for key, kind in (("name", str), ("version", str), ("games", dict),
                                              ("features", list))
                        if not isinstance(answer.get(key), kind)]
            if problems:
                raise EngineFailure(f"handshake lacks {', '.join(problems)}: {answer!r}")
            self.hello = answer
        assert self.hello is not None
        return self.hello

    def close(self) -> None:
        """Stop the engine."""
        if self.channel is not None:
            self.requests += self.channel.requests
            self.channel.close()
            self.channel = None

    def _request(self, message: Message) -> Message:
        assert self.channel is not None
        answer = self.channel.request(message)
        if not answer["ok"]:
            raise EngineFailure(f"engine answered {message['op']} with an error: "
                                f"{answer.get('error')}")
        return answer

    # -- running ------------------------------------------------------------------------------

    def skip_reason(self, case: Case) -> str | None:
        """Why the engine cannot run *case* (``None``: it can)."""
        assert self.hello is not None
        games = self.hello["games"]
        if case["game"] not in games:
            return f"the engine does not play {case['game']}"
        declared = games[case["game"]].get("options", []) if isinstance(
            games[case["game"]], dict) else []
        if "*" not in declared:
            missing = [o for o in case["options"] if o not in declared]
            if missing:
                return f"needs option {', '.join(missing)}"
        features = [f for f in case["features"] if f not in self.hello["features"]]
        if features:
            return f"needs feature {', '.join(features)}"
        return None

    def run(self, cases: Iterable[Case],
            progress: Callable[[CaseResult], None] | None = None) -> Iterator[CaseResult]:
        """Run every case, yielding its result; restarts the engine after a failure."""
        for case in cases:
            result = self.run_case(case)
            if progress is not None:
                progress(result)
            yield result

    def run_case(self, case: Case) -> CaseResult:
        """Run one case."""
        started = time.perf_counter()
        base = {"id": case["id"], "game": case["game"], "kind": case["kind"],
                "corpus_version": case["corpus_version"], "rules": tuple(case["rules"])}
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
            else:
                self._count(case)
        except _Failed as failed:
            return CaseResult(**base, status="failed", step=failed.step, reason=failed.reason,
                              diff=failed.diff, broken_rule=failed.rule,
                              seconds=time.perf_counter() - started)
        except EngineFailure as exc:
            self.close()
            return CaseResult(**base, status="errored", reason=str(exc),
                              seconds=time.perf_counter() - started)
        return CaseResult(**base, status="passed", seconds=time.perf_counter() - started)

    # -- the operations, checked ---------------------------------------------------------------

    def _new_game(self, case: Case) -> None:
        self._request({"op": "new_game", "game": case["game"], "config": case["config"]})

    def _apply(self, action: JSON) -> Message:
        answer = self._request({"op": "apply", "action": action})
        if type(answer.get("accepted")) is not bool:
            raise EngineFailure(f"apply answer without \"accepted\": {answer!r}")
        return answer

    def _legal(self, seat: int | None) -> list[JSON]:
        answer = self._request({"op": "legal", "seat": seat})
        actions = answer.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise EngineFailure(f"legal answer without a list of actions: {answer!r}")
        return actions

    def _observe(self) -> Message:
        answer = self._request({"op": "observe"})
        mover = answer.get("to_move")
        if not (isinstance(mover, dict) and isinstance(mover.get("kind"), str)
                and isinstance(mover.get("seats"), list) and isinstance(answer.get("public"), dict)
                and (answer.get("outcome") is None or isinstance(answer.get("outcome"), dict))):
            raise EngineFailure(f"observe answer of the wrong shape: {str(answer)[:300]}")
        return answer

    def _replay(self, case: Case, actions: list[JSON]) -> None:
        self._new_game(case)
        for i, action in enumerate(actions, 1):
            answer = self._apply(action)
            if not answer["accepted"]:
                raise _Failed(i, f"refused the legal action {canonical_json(action)} "
                              f"(engine names {answer.get('rule')}: {answer.get('message')})")

    def _compare(self, case: Case, expect: Case, step: int, actions: list[JSON],
                 previous: JSON | None) -> JSON:
        """Check the engine's observables against *expect*; returns the reported public view."""
        seen = self._observe()
        lines: list[str] = []
        if canonical_json(seen["to_move"]) != canonical_json(expect["to_move"]):
            lines.append(f"to_move: expected {canonical_json(expect['to_move'])}, "
                         f"got {canonical_json(seen['to_move'])}")
        if seen["public"] != expect["public"] or canonical_json(seen["public"]) != canonical_json(
                expect["public"]):
            lines += json_diff(expect["public"], seen["public"], "public") or [
                "public: differs in JSON types"]
        if canonical_json(seen["outcome"]) != canonical_json(expect["outcome"]):
            lines.append(f"outcome: expected {canonical_json(expect['outcome'])}, "
                         f"got {canonical_json(seen['outcome'])}")
        extra_actions: list[str] = []
        groups: list[tuple[int | None, list[JSON]]] = []
        if expect["legal"] is not None:
            groups.append((None, expect["legal"]))
        for part in expect["legal_by_seat"] or ():
            groups.append((part["seat"], part["actions"]))
        for seat, wanted in groups:
            got = _text(self._legal(seat))
            want = _text(wanted)
            if got != want:
                missing = sorted(set(want) - set(got))
                extra = sorted(set(got) - set(want))
                extra_actions += extra
                label = "legal" if seat is None else f"legal(seat {seat})"
                if missing:
                    lines.append(f"{label}: missing {', '.join(missing[:5])}"
                                 + (f" (+{len(missing) - 5} more)" if len(missing) > 5 else ""))
                if extra:
                    lines.append(f"{label}: extra {', '.join(extra[:5])}"
                                 + (f" (+{len(extra) - 5} more)" if len(extra) > 5 else ""))
                if not missing and not extra:
                    lines.append(f"{label}: duplicates in {len(got)} actions")
        if lines:
            game = GAMES.get(case["game"])
            rule: tuple[str | None, str] | None = None
            if game is not None:
                record = record_of(case["game"])
                hook = None if record is None else record.check_public
                rule = broken_rule(game, hook, previous,
                                   actions[-1] if actions else None, seen["public"])
                if rule is None and extra_actions:
                    refused = reference_refusal(game, case["config"], actions,
                                                json.loads(extra_actions[0]))
                    if refused is not None:
                        rule = (refused, f"the reference refuses {extra_actions[0]} "
                                         f"under {refused}")
            if rule is not None:
                lines.append(f"invariant: {rule[0] or '(shape)'}: {rule[1]}")
            after = f" after {canonical_json(actions[-1])}" if actions else ""
            raise _Failed(step, f"observables differ at step {step}{after}",
                          "\n".join(lines), rule[0] if rule else None)
        public: JSON = seen["public"]
        return public

    # -- the three kinds -----------------------------------------------------------------------

    def _trace(self, case: Case) -> None:
        self._new_game(case)
        actions: list[JSON] = []
        public = self._compare(case, case["initial"], 0, actions, None)
        for i, step in enumerate(case["steps"], 1):
            answer = self._apply(step["action"])
            if not answer["accepted"]:
                raise _Failed(i, f"refused the legal action {canonical_json(step['action'])} "
                              f"at step {i}", f"engine names {answer.get('rule')}: "
                              f"{answer.get('message')}")
            actions.append(step["action"])
            public = self._compare(case, step["expect"], i, actions, public)

    def _rejection(self, case: Case) -> None:
        self._replay(case, case["prefix"])
        step = len(case["prefix"])
        self._compare(case, case["position"], step, case["prefix"], None)
        answer = self._apply(case["action"])
        expected = case["rule"]
        if answer["accepted"]:
            raise _Failed(step, f"accepted {canonical_json(case['action'])}, which the rules "
                          f"refuse under {expected}", None, expected)
        if "rule_ids" in self.hello_features and answer.get("rule") != expected:
            raise _Failed(step, f"refused under {answer.get('rule')}, expected {expected}",
                          f"engine message: {answer.get('message')}", expected)
        try:
            self._compare(case, case["position"], step, case["prefix"], None)
        except _Failed as failed:
            raise _Failed(step, "the position changed after a refused action", failed.diff,
                          failed.rule or expected) from None

    @property
    def hello_features(self) -> list[str]:
        """The features the running engine declared."""
        features: list[str] = self.hello["features"] if self.hello else []
        return features

    def _count(self, case: Case) -> None:
        prefix = case["prefix"]
        self._replay(case, prefix)
        self._compare(case, case["position"], len(prefix), prefix, None)
        game = GAMES.get(case["game"])
        undo = "undo" in self.hello_features
        path: list[JSON] = []

        def children() -> list[JSON]:
            seen = self._observe()
            kind = seen["to_move"]["kind"]
            if kind in ("seat", "any"):
                return self._legal(None)
            if kind == "joint":
                return self._joint_actions(case, prefix + path, seen["to_move"]["seats"], game)
            return []

        def back() -> None:
            if undo:
                self._request({"op": "undo"})
            else:
                self._replay(case, prefix + path)

        def perft(depth: int) -> int:
            moves = children()
            if depth == 1:
                return len(moves)
            total = 0
            for move in moves:
                if not self._apply(move)["accepted"]:
                    raise _Failed(len(prefix), f"refused {canonical_json(move)}, which it "
                                  f"listed as legal, after {canonical_json(path)}")
                path.append(move)
                total += perft(depth - 1)
                path.pop()
                back()
            return total

        depth = case["depth"]
        breakdown: dict[str, int] = {}
        for move in children():
            if depth == 1:
                breakdown[canonical_json(move)] = breakdown.get(canonical_json(move), 0) + 1
                continue
            if not self._apply(move)["accepted"]:
                raise _Failed(len(prefix), f"refused {canonical_json(move)}, which it listed "
                              "as legal")
            path.append(move)
            breakdown[canonical_json(move)] = perft(depth - 1)
            path.pop()
            back()
        expected = {canonical_json(e["action"]): e["count"] for e in case["breakdown"]}
        if breakdown != expected:
            lines = []
            for key in sorted(set(expected) | set(breakdown)):
                if expected.get(key) != breakdown.get(key):
                    lines.append(f"{key}: expected {expected.get(key, '(not legal)')}, "
                                 f"got {breakdown.get(key, '(not listed)')}")
            total = sum(breakdown.values())
            rule = None
            if game is not None:
                extra = [k for k in breakdown if k not in expected]
                if extra:
                    rule = reference_refusal(game, case["config"], prefix, json.loads(extra[0]))
            raise _Failed(len(prefix), f"{case['counts']} to depth {depth}: expected "
                          f"{case['total']}, got {total}", "\n".join(lines[:12]), rule)

    def _joint_actions(self, case: Case, history: list[JSON], seats: list[int],
                       game: Any) -> list[JSON]:
        """Every joint action at a joint node: the product of the seats' reported choices,
        combined with the reference's ``joint`` (a pure encoding step)."""
        if game is None or game.joint is None:
            raise _Failed(None, "a joint node in a game the runner cannot combine")
        state = game.new_game(game.config_from_json(case["config"]))
        for done in history:
            state = game.apply(state, game.action_from_json(done))
        options = [[game.action_from_json(a) for a in self._legal(seat)] for seat in seats]
        combos: list[tuple[Any, ...]] = [()]
        for choices in options:
            combos = [(*c, x) for c in combos for x in choices]
        return [game.to_json(game.joint(state, combo)) for combo in combos]
