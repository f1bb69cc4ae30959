"""Lockstep: judging a case past its known differences.

A trace case of the corpus ends at its first difference. An exploration goes on: once a
difference is recorded under a rule, the game is played on with the reference's moves and
every step is still compared, with the known difference (its kind and its rule) masked, so
one bug no longer hides the next. A difference is of one of three kinds:

* ``legal``: only the legal actions listed differ (an extra or a missing action the
  reference does not choose). The positions agree: the game goes on.
* ``view``: who moves, the public view or the outcome differs. The game goes on with the
  differing fields *suspect*; while the next steps differ in those fields only (the same
  wrong count shown again) the positions are taken to agree; a step that agrees everywhere
  clears them. When another field starts to differ while a suspect field still does, the
  engine's position has diverged (its answers can no longer be predicted): the game ends
  there, and that step's difference is no finding of its own.
* ``refusal``: the engine refused the reference's legal move. Its position is no longer the
  reference's: the game ends there (diverged).

Where another reading explains a case's first difference (a misreading of the game's
catalogue, an option's other value: the reading the engine plays, as far as its reports go),
that reading is the case's *model* of the engine from there on: a later step whose report
the model gives exactly is the known difference again (its consequence, even in fields it
had not touched: the loose beans the engine never had, a seat skipped for want of them),
and only what differs from the model is new. A new difference in the legal actions alone
(the model lists what the reference does, bar the known difference) is named by the
residual actions and the game goes on; one in the view is named, then the game ends there
(the engine has left both the reference and the model).

A difference whose kind and rule are masked is counted (each game and probe that meets it)
and not reported again; a new one is reported and then masked for the rest of the
exploration.

:func:`run` judges one case so; :class:`Lockstep` is what it found.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from typing import Any

import attrs

from copa_ref.conformance import naming
from copa_ref.conformance.channel import EngineFailure, printable
from copa_ref.conformance.corpus import Case
from copa_ref.conformance.explain import Alternative, alternatives, misread_once, replays
from copa_ref.conformance.observables import observables
from copa_ref.conformance.registry import record_of
from copa_ref.conformance.runner import CaseResult, Runner
from copa_ref.conformance.session import Applied
from copa_ref.conformance.verdicts import CaseRun, Failure, Stop, judge, legal_lines
from copa_ref.conformance.viewer import viewer_path
from copa_ref.core import JSON, Misreading, MoverKind, RuleViolation, canonical_json, misread
from copa_ref.core.replay import BAD_DATA, replay, starting_from

__all__ = ["Lockstep", "Met", "TimeUp", "cap", "result_of", "run"]

Mask = dict[tuple[str, str | None], frozenset[str]]
"""The known differences: ``(kind, rule)``, with the observables that differed where each
was first met."""


class TimeUp(Exception):
    """The exploration's time ran out in the middle of a case."""


@attrs.frozen
class Met:
    """A difference met along a case."""

    step: int
    rule: str | None
    kind: str
    """``legal``, ``view`` or ``refusal``."""
    failure: Failure
    new: bool
    """Whether it was not masked (a finding of this case)."""


@attrs.frozen
class Lockstep:
    """How a case went in lockstep."""

    status: str
    """``passed`` (to its end, masked differences aside), ``failed`` (it met a new
    difference, or ended on one), ``diverged`` (only masked differences, then the engine's
    position diverged), ``errored`` or ``timeout``."""
    met: tuple[Met, ...]
    checked: int
    """The last step compared with the engine's position in step (masked differences
    aside)."""
    diverged: str | None = None
    """Why the case ended before its end (the engine's position diverged)."""
    stop: Failure | None = None
    """The difference that ended the case (a refusal, a rejection's own verdict, the step
    where the position diverged)."""
    reason: str | None = None
    """Why it errored."""
    listed: tuple[JSON, ...] = ()
    """Where the engine refused a move its listing before it left out: that listing (the
    moves the engine takes there, for a detour)."""

    @property
    def new(self) -> tuple[Met, ...]:
        """The differences not masked, in order."""
        return tuple(m for m in self.met if m.new)


class _Run(CaseRun):
    """A case run that records a difference and goes on where the positions still agree."""

    mask: Mask
    met: list[Met]
    suspect: frozenset[str]
    checked: int
    diverged: str | None
    deadline: float | None
    models: list[Alternative] | None
    """The readings that give every report of the case up to its first difference
    (``None``: no difference yet)."""
    _differed: bool

    def setup(self, mask: Mask, deadline: float | None) -> None:
        self.mask = mask
        self.met = []
        self.suspect = frozenset()
        self.checked = 0
        self.diverged = None
        self.deadline = deadline
        self.models = None
        self.listed: tuple[JSON, ...] = ()
        self._differed = False

    def compare(self, expect: Case, step: int, actions: list[JSON]) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise TimeUp
        self._differed = False
        super().compare(expect, step, actions)
        if not self._differed:
            self.suspect = frozenset()
        self.checked = max(self.checked, step)

    def fail(self, step: int, actions: list[JSON], reason: str, lines: list[str],
             differing: list[str], extra: Mapping[int | None, list[str]]) -> None:
        self._differed = True
        now = frozenset(differing)
        if self.models is None:
            self.models = self._explaining(step, actions)
        elif self.models and self.met:
            self._against_models(step, actions, now)
            return
        view = now - {"legal"}
        seen = self.suspect - {"legal"}
        if seen and view and not view <= seen:
            # another field differs while a masked one still does: the positions diverged
            self.diverged = (f"the engine's position diverged at step {step} (after a "
                             f"difference in {', '.join(sorted(seen))}, other observables "
                             "differ)")
            raise Stop(Failure(step=step, reason=reason, diff="\n".join(lines)))
        if seen and now <= self.suspect and self.met:
            # the same wrong fields shown again: the known difference persists
            self.met.append(attrs.evolve(self.met[-1], step=step, new=False))
            return
        findings, explanation = naming.name(self, step, actions, differing, extra)
        lines = list(lines)
        if explanation is not None:
            lines.append(f"explanation: {explanation}")
        lines += [f"rule: {f.rule}: {f.message}" for f in findings]
        kind = "view" if view else "legal"
        # the most telling rule not known as this kind of difference already (a known
        # legal difference still shows beside a new view difference)
        fresh = [f.rule for f in findings
                 if not (kind == "view" and ("legal", f.rule) in self.mask)]
        rule = fresh[0] if fresh else findings[0].rule if findings else None
        failure = Failure(step=step, reason=reason, diff="\n".join(lines), rule=rule,
                          explanation=explanation)
        known = {rule for _kind, rule in self.mask}
        if self.suspect and self.met and view <= seen and (
                any(f.rule in known for f in findings) or (now <= self.suspect
                                                            and not findings)):
            # right after a difference, one its rule explains too: the same difference
            self.met.append(attrs.evolve(self.met[-1], step=step, new=False))
            self.suspect = self.suspect | now
            return
        same = next((f.rule for f in findings if kind == "view" and (kind, f.rule) in self.mask
                     and _roots(self.mask[(kind, f.rule)]) == _roots(now)), None)
        mutant = None if (kind, rule) in self.mask else self._misread_known(step, actions,
                                                                            known)
        if mutant is not None:
            # a misreading of a known difference's rule alone gives this report exactly:
            # that difference again, seen from another position (one bug, one rule)
            failure = attrs.evolve(failure, rule=mutant)
            kind = next((k for k, r in self.mask if r == mutant), kind)
        elif same is not None and (kind, rule) not in self.mask:
            # the observables a known difference showed, one of its rules named: the same
            # bug seen the other way round (one bug, one rule)
            failure = attrs.evolve(failure, rule=same)
        elif view and (kind, rule) not in self.mask and not self.models:
            # no one reading gives it, but the known differences' readings together do
            # (two known bugs shown at one step): those differences again
            together = self._known_elsewhere(step, actions, frozenset(view), known)
            shown = {r: _roots(f) for (k, r), f in self.mask.items() if k == "view"}
            if together is None and len(shown) > 1 and _roots(frozenset(view)) <= set().union(
                    *shown.values()):
                # (or, where no reading of theirs is known, the observables they showed)
                together = next((f.rule for f in findings if f.rule in shown), None)
            if together is not None:
                failure = attrs.evolve(failure, rule=together)
                kind = next((k for k, r in self.mask if r == together), kind)
        self._record(step, kind, failure, now)
        self.suspect = now

    # -- the engine's reading as its model ------------------------------------------------

    def _explaining(self, step: int, actions: list[JSON]) -> list[Alternative]:
        """The other readings that give every report up to *step* (the first difference)."""
        record = record_of(self.case["game"])
        if record is None:
            return []
        try:
            config = record.game.config_from_json(self.case["config"])
        except BAD_DATA:
            return []
        reports = {s: r for s, r in self.reports.items() if s <= step}
        try:
            return [a for a in alternatives(record, config)
                    if replays(a, actions, reports, self.rule_ids)]
        except BAD_DATA:
            return []

    def _residual(self, model: Alternative, step: int, actions: list[JSON]
                  ) -> tuple[list[str], list[str], dict[int | None, list[str]]] | None:
        """What the engine's report at *step* shows beyond *model*'s: its lines, differing
        paths and extra actions (``None``: the model cannot play the case's actions)."""
        game = model.game
        report = self.reports[step]
        try:
            state = replay(game, model.config, actions[:step])[-1]
            seen: Any = observables(game, state)
            public = seen["public"]
            if isinstance(public, dict) and "config" in public:
                seen["public"] = {**public, "config": game.to_json(model.given)}
            expect: Any = {"to_move": seen["to_move"], "public": seen["public"],
                           "outcome": seen["outcome"]}
            lines, differing = self.view_lines(report, expect)
            extra: dict[int | None, list[str]] = {}
            mover = game.to_move(state)
            for seat, listed in report.legal.items():
                if seat is None and mover.kind in (MoverKind.CHANCE, MoverKind.JOINT):
                    wanted: list[JSON] = []
                else:
                    wanted = [game.to_json(a) for a in game.legal_actions(state, seat)]
                if legal_lines(seat, listed, wanted, lines, extra):
                    differing.append("legal")
        except BAD_DATA:
            return None
        return lines, differing, extra

    def _against_models(self, step: int, actions: list[JSON], now: frozenset[str]) -> None:
        """A difference after the case's first, the engine's reading known: the known
        difference again where a model gives the report; else what differs from the model
        is named (a new difference of the legal actions alone: the game goes on; of the
        view: it ends here)."""
        assert self.models is not None
        residuals = []
        for model in self.models:
            residual = self._residual(model, step, actions)
            if residual is not None and not residual[0]:
                self.models = [m for m in self.models
                               if (r := self._residual(m, step, actions)) is not None
                               and not r[0]] if len(self.models) > 1 else [model]
                self._again(step, now)
                return
            if residual is not None:
                residuals.append((model, residual))
        if not residuals:
            self.models = []
            self._again(step, now)
            return
        model, (lines, differing, extra) = min(residuals, key=lambda r: len(r[1][1]))
        findings, explanation = naming.name_beyond(self, step, actions, differing, extra,
                                                   model.game, model.config)
        view = frozenset(differing) - {"legal"}
        kind = "view" if view else "legal"
        known = {rule for _kind, rule in self.mask}
        own = {m.rule for m in self.models}
        # the model's own rule still shows in the view beside what it does not give (the
        # first rule that is not the model's is the new difference's); another known
        # difference named there is that one again (the engine has both)
        rule = next((f.rule for f in findings if f.rule not in own), None)
        other = next((f.rule for f in findings if f.rule in known - own), None)
        if other is None and view:
            other = self._known_elsewhere(step, actions, view, known - own)
        if rule is None or other is not None:
            self._again(step, now, other)
            if view:
                self._diverge(step, lines, "a difference its reading does not give either")
            if other is not None:  # the engine reads that rule wrongly too: both are its model
                self.models = self._composed(step, actions, other) or self.models
            return
        shown = [*lines, *(f"rule: {f.rule}: {f.message}" for f in findings)]
        failure = Failure(step=step, reason=f"observables differ at step {step} beyond the "
                                            "known difference", diff="\n".join(shown),
                          rule=rule, explanation=explanation)
        self._record(step, kind, failure, now)
        self.suspect = now
        if view:
            self._diverge(step, lines, f"a difference named {rule}")
        self.models = self._composed(step, actions, rule) or self.models

    def _composed(self, step: int, actions: list[JSON], rule: str) -> list[Alternative]:
        """The models read together with a misreading of *rule* (the new difference's),
        those that give every report of the case so far: the engine's reading of both."""
        record = record_of(self.case["game"])
        if record is None or not self.models:
            return []
        found: list[Alternative] = []
        reports = {s: r for s, r in self.reports.items() if s <= step}
        try:
            for other in record.misreadings:
                if other.rule != rule:
                    continue
                for model in self.models:
                    both = _both(record, model, other)
                    if both is not None and replays(both, actions, reports, self.rule_ids):
                        found.append(both)
        except BAD_DATA:
            return []
        return found

    def _misread_known(self, step: int, actions: list[JSON],
                       rules: set[str | None]) -> str | None:
        """The known rule (of *rules*) one of whose kill-matrix misreadings, alone, gives
        the engine's report at *step* exactly (``None``: none does)."""
        record = record_of(self.case["game"])
        if record is None or not rules:
            return None
        try:
            config = record.game.config_from_json(self.case["config"])
            for reading in _mutants(record, config, rules):
                residual = self._residual(reading, step, actions)
                if residual is not None and not residual[0]:
                    return reading.rule
        except BAD_DATA:
            return None
        return None

    def _known_elsewhere(self, step: int, actions: list[JSON], paths: frozenset[str],
                         rules: set[str | None]) -> str | None:
        """The rule of another known difference (of *rules*) whose reading, with the
        readings of the others, agrees with the engine on every one of *paths*: the engine
        has those bugs too, and these paths are theirs (``None``: none)."""
        record = record_of(self.case["game"])
        if record is None or not rules:
            return None
        left = set(paths)
        try:
            config = record.game.config_from_json(self.case["config"])
            for other in alternatives(record, config):
                if other.rule not in rules:
                    continue
                residual = self._residual(other, step, actions)
                if residual is not None:
                    left &= set(residual[1])
                if not left:
                    return other.rule
        except BAD_DATA:
            return None
        return None

    def _again(self, step: int, now: frozenset[str], rule: str | None = None) -> None:
        """A known difference met again at *step*: *rule*'s, else the case's first."""
        first = next((m for m in self.met if m.kind != "refusal"), self.met[-1])
        if rule is not None and rule != first.rule:
            kind = next((k for k, r in self.mask if r == rule), "view")
            first = next((m for m in self.met if m.rule == rule),
                         Met(step, rule, kind, Failure(step=step, reason=f"the known "
                                                       f"difference of {rule} again",
                                                       rule=rule), False))
        self.met.append(attrs.evolve(first, step=step, new=False))
        self.suspect = self.suspect | now

    def _diverge(self, step: int, lines: list[str], what: str) -> None:
        self.diverged = (f"the engine's position diverged at step {step} (it left the "
                         f"reading that explains its known difference: {what})")
        raise Stop(Failure(step=step, reason=f"diverged at step {step}",
                           diff="\n".join(lines)))

    def refused_legal(self, step: int, actions: list[JSON], answer: Applied) -> None:
        before = self.reports.get(step - 1)
        listed = before is not None and any(
            canonical_json(actions[-1]) in {canonical_json(a) for a in part}
            for part in before.legal.values())
        if self.suspect - {"legal"} or (before is not None and before.legal and not listed):
            if before is not None and not listed:
                self.listed = tuple(a for part in before.legal.values() for a in part)
            # a consequence of the difference before it (a position that differs, or a
            # listing that already left the move out)
            self.diverged = (f"the engine refused the reference's move at step {step}, as "
                             "the difference before it predicts: its position is no longer "
                             "the reference's")
            raise Stop(Failure(step=step, reason=f"refused the reference's move at step "
                                                 f"{step}"))
        try:
            super().refused_legal(step, actions, answer)
        except Stop as stop:
            self._record(step, "refusal", stop.failure, frozenset())
            self.diverged = (f"the engine refused the reference's move at step {step}: its "
                             "position is no longer the reference's")
            raise

    def _record(self, step: int, kind: str, failure: Failure, fields: frozenset[str]) -> None:
        key = (kind, failure.rule)
        self.met.append(Met(step, failure.rule, kind, failure, key not in self.mask))
        self.mask.setdefault(key, fields)


def cap(channel: Any, deadline: float | None) -> None:
    """Wait for no answer past *deadline*: a channel's per-request timeout is cut to the
    time left (its own timeout kept aside, so that it comes back for the next case)."""
    if deadline is None or channel is None or not hasattr(channel, "timeout"):
        return
    own = getattr(channel, "explore_timeout", None)
    if own is None:
        own = channel.explore_timeout = channel.timeout
    channel.timeout = max(0.05, min(own, deadline - time.monotonic()))


def _roots(fields: frozenset[str]) -> frozenset[str]:
    """The observables *fields* name, without their indices (``outcome.winners[0]``:
    ``outcome.winners``)."""
    return frozenset(f.split("[", 1)[0] for f in fields)


def run(runner: Runner, case: Case, mask: Mask, deadline: float | None = None) -> Lockstep:
    """Judge *case* in lockstep, the differences of *mask* masked (*mask* gains the new
    ones); never raises for anything the engine does. Past *deadline*
    (``time.monotonic()``) the case ends as ``timeout``."""
    session = runner.session
    session.begin()
    lock = _Run(session, case, runner.traces, runner._known)
    lock.setup(mask, deadline)
    failure: Failure | None = None
    try:
        session.start()
        cap(session.channel, deadline)
        skipped = session.skip_reason(case)
        if skipped is not None:
            return Lockstep("errored", (), 0, reason=f"skipped: {skipped}")
        with starting_from(case.get("state")):
            failure = judge(lock)
        try:
            session.settle()
        except EngineFailure:
            session.close()
    except TimeUp:
        session.close()
        return Lockstep("timeout", tuple(lock.met), lock.checked,
                        reason="the exploration's time ran out")
    except EngineFailure as exc:
        session.close()
        if deadline is not None and time.monotonic() >= deadline:
            return Lockstep("timeout", tuple(lock.met), lock.checked,
                            reason="the exploration's time ran out")
        return Lockstep("errored", tuple(lock.met), lock.checked, reason=str(exc))
    except Exception as exc:  # whatever an engine sends, the exploration goes on
        session.close()
        return Lockstep("errored", tuple(lock.met), lock.checked,
                        reason=f"the runner could not judge the engine's answers "
                               f"({type(exc).__name__}: {printable(str(exc), 300)})")
    met = list(lock.met)
    recorded = {id(m.failure) for m in met}
    if failure is not None and lock.diverged is None and id(failure) not in recorded:
        # a rejection's own verdict (an accepted illegal action, a wrong refusal); the
        # known difference again where a known reading answers the action so
        known = _known_answer(lock, failure, mask)
        if known is not None:
            met.append(Met(failure.step or 0, known, "rejection",
                           attrs.evolve(failure, rule=known), False))
        else:
            key = ("rejection", failure.rule)
            met.append(Met(failure.step or 0, failure.rule, "rejection", failure,
                           key not in mask))
            mask.setdefault(key, frozenset())
    if any(m.new for m in met):
        status = "failed"
    elif lock.diverged is not None:
        status = "diverged"
    else:
        status = "passed"
    return Lockstep(status, tuple(met), lock.checked, diverged=lock.diverged, stop=failure,
                    listed=lock.listed)


def _both(record: Any, model: Alternative,
          other: Misreading) -> Alternative | None:
    """*model* read together with the misreading *other* (``None``: they cannot be
    combined: two misreadings of different modules or of the same names)."""
    game = record.game
    if model.game is game:  # another option value: the misreading under it
        return Alternative(f"{model.label} and {other.slug}", other.rule,
                           misread(game, other), model.config, model.given)
    first = next((m for m in record.misreadings if model.label.startswith(f"{m.slug}: ")),
                 None)
    if first is None or first.module_name(game.name) != other.module_name(game.name):
        return None
    names = dict(first.replacements)
    if set(names) & set(dict(other.replacements)):
        return None
    both = Misreading(rule=other.rule, slug=f"{first.slug}+{other.slug}",
                      description=f"{first.description}; {other.description}",
                      replacements={**names, **dict(other.replacements)},
                      module=first.module)
    return Alternative(f"{first.slug} and {other.slug}", other.rule,
                       misread(game, both), model.config, model.given)


def _mutants(record: Any, config: Any, rules: set[str | None]) -> list[Alternative]:
    """The kill matrix's misreadings of *rules* (the record's catalogue), each a reading
    of *config*: what an engine with one of those rules wrong alone would report."""
    return [Alternative(f"{m.slug}: {m.description}", m.rule, misread_once(record.game, m),
                        config, config)
            for m in record.catalogue.mutants if m.rule in rules]


_REFUSED = re.compile(r"^refused .* under (?P<named>.*), expected ")


def _known_answer(lock: _Run, failure: Failure, mask: Mask) -> str | None:
    """The known rule whose reading (a misreading or option of the game's record, one that
    gives every report of the case) answers the rejection's action as the engine did:
    accepts it, or refuses it under the rule the engine named; ``None``: none does."""
    case = lock.case
    record = record_of(case["game"])
    known = {rule for _kind, rule in mask}
    if record is None or failure.action is None or not known:
        return None
    matched = _REFUSED.match(failure.reason or "")
    accepted = (failure.reason or "").startswith("accepted ")
    if matched is None and not accepted:
        return None
    try:
        named = None if matched is None else json.loads(matched["named"])
        game = record.game
        config = game.config_from_json(case["config"])
        prefix = case["prefix"]
        for model in (*alternatives(record, config), *_mutants(record, config, known)):
            if model.rule not in known or not replays(model, prefix, lock.reports,
                                                      lock.rule_ids):
                continue
            state = replay(model.game, model.config, prefix)[-1]
            try:
                model.game.apply(state, model.game.action_from_json(failure.action))
            except RuleViolation as exc:
                if not accepted and exc.rule == named:
                    return model.rule
                continue
            if accepted:
                return model.rule
    except BAD_DATA:
        return None
    return None


def result_of(case: Case, met: Met | None, status: str = "passed",
              reason: str | None = None) -> CaseResult:
    """The :class:`CaseResult` a difference *met* along *case* stands for (the verdict of
    a plain run that stopped there); without one, a result of *status*."""
    base: dict[str, Any] = {"id": case["id"], "game": case["game"], "kind": case["kind"],
                            "corpus_version": case["corpus_version"],
                            "rules": tuple(case["rules"])}
    if met is None:
        return CaseResult(**base, status=status, reason=reason)
    failure = met.failure
    return CaseResult(**base, status="failed", step=failure.step, reason=failure.reason,
                      diff=failure.diff, broken_rule=failure.rule,
                      explanation=failure.explanation, action=failure.action,
                      viewer=viewer_path(case["id"], failure.step))
