"""Naming the broken rule: which rule an engine breaks where its answers differ.

Each function takes the :class:`~copa_ref.conformance.verdicts.CaseRun` of the failing case
(what the engine reported so far, its session) and the place of the difference; any further
question to the engine goes through the run's session, within the case's budget. None of
them raises for anything the engine sent: what cannot be judged names no rule.

The API::

    findings, explanation = name(run, step, actions, differing, extra)
        # a difference in the observables at step: the findings, most telling first
        # (another reading that replays every report, the game's diagnose, an extra legal
        # action's refusal, the view rules, the game's invariants), and the explanation
    config_rule(run)                   # the rule that admits a config the engine refused
    legal_rule(case, prefix, action)   # the rule that makes a refused action legal
    refused_too(run, prefix, rule)     # a legal action the engine refuses under rule too
    reading_where(run, prefix, action, legal)   # (rule, explanation) of another reading
    own_rule(game, rule)               # whether rule is one of game's rule IDs

How a game's record names rules is described in :mod:`copa_ref.conformance.vocabulary`;
other readings in :mod:`copa_ref.conformance.explain`.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from copa_ref.conformance.checks import broken_rule
from copa_ref.conformance.explain import alternatives, explain, replays
from copa_ref.conformance.registry import record_of
from copa_ref.conformance.session import Started
from copa_ref.conformance.vocabulary import AnyRecord, Divergence, Finding, Report
from copa_ref.core import JSON, MoverKind, RuleViolation
from copa_ref.core.codec import structure
from copa_ref.core.replay import BAD_DATA, ENGINE_DATA, replay
from copa_ref.games import GAMES

if TYPE_CHECKING:
    from copa_ref.conformance.corpus import Case
    from copa_ref.conformance.verdicts import CaseRun

__all__ = [
    "config_rule",
    "guarded",
    "joint_children",
    "legal_rule",
    "name",
    "name_beyond",
    "order_hint",
    "own_rule",
    "reading_where",
    "refused_too",
]


def guarded(compute: Callable[[], Any], default: Any,
            errors: tuple[type[Exception], ...] = BAD_DATA) -> Any:
    """*compute()*, or *default* when judging a misshapen report raises (:data:`BAD_DATA`;
    :data:`ENGINE_DATA` where *compute* is a record's own predicate, whose bugs raise)."""
    try:
        return compute()
    except errors:
        return default


def own_rule(game: str, rule: object) -> bool:
    """Whether *rule* is a rule ID of *game* (``KOPA-1`` for Kopa, not ``P-8``)."""
    prefix = GAMES[game].prefix
    return (isinstance(rule, str) and rule.startswith(f"{prefix}-")
            and rule[len(prefix) + 1:].isdigit())


def order_hint(case: Case) -> str:
    """Where the refusal order of the case's game is written."""
    spec = "specs/" + case["game"] + ".md"
    return f"when an action breaks several rules, the first in the refusal order of {spec}"


def joint_children(game: Any, state: Any) -> list[Any]:
    """The reference's joint actions at a joint node (the product of the seats' parts)."""
    combos: list[tuple[Any, ...]] = [()]
    for seat in game.to_move(state).seats:
        combos = [(*c, x) for c in combos for x in game.legal_actions(state, seat)]
    return [game.joint(state, c) for c in combos]


def _state_after(case: Case, prefix: list[JSON]) -> Any:
    game = GAMES[case["game"]]
    return replay(game, game.config_from_json(case["config"]), prefix)[-1]


# -- a refused config, a refused legal action ------------------------------------------------

def config_rule(run: CaseRun) -> str | None:
    """The rule that admits the config the engine refused. The engine is asked again with
    each reading option the config sets away from its default put back: when it takes one
    of those, the reading it refused is the option's (its rule is named); else the record's
    ``config_rule`` (the player count's rule, say)."""
    case = run.case
    record = record_of(case["game"])
    if record is None:
        return None
    game = record.game
    config = game.config_from_json(case["config"])
    given, default = game.to_json(config), game.to_json(game.default_config())
    for reading in record.readings:
        option = reading.option
        if option not in given or given[option] == default.get(option):
            continue
        answer = run.session.new_game(case["game"], {**given, option: default[option]})
        if isinstance(answer, Started):
            return reading.rule
    return None if record.config_rule is None else record.config_rule(config)


def legal_rule(case: Case, prefix: list[JSON], action: JSON) -> str | None:
    """The rule the game's record says makes *action* legal after *prefix*."""
    record = record_of(case["game"])
    if record is None or record.legal_rule is None:
        return None
    return record.legal_rule(_state_after(case, prefix), record.game.action_from_json(action))


def refused_too(run: CaseRun, prefix: list[JSON], rule: str) -> JSON:
    """A legal action the engine refuses under *rule* at the end of *prefix* (the
    reference's first legal action, or a chance action it draws with a fixed seed), or
    ``None``: whether the engine's refusal under *rule* is its reading of that rule rather
    than an order of checks. The engine's game may move on: the case fails either way."""
    game = GAMES[run.case["game"]]
    state = _state_after(run.case, prefix)
    mover = game.to_move(state)
    if mover.kind is MoverKind.CHANCE:
        probe = game.sample_chance(state, random.Random(0))
    elif mover.kind is MoverKind.JOINT:
        probe = joint_children(game, state)[0]
    else:
        legal = game.legal_actions(state, None)
        if not legal:  # the game is over: no legal action to try
            return None
        probe = legal[0]
    data = game.to_json(probe)
    answer = run.session.apply(data)
    return data if not answer.accepted and answer.rule == rule else None


def reading_where(run: CaseRun, prefix: list[JSON], action: JSON,
                  legal: bool) -> tuple[str, str] | None:
    """``(rule, explanation)`` of an alternative reading that reports everything the engine
    reported along *prefix* and under which *action* is legal (or, with ``legal=False``,
    refused), as the engine has it."""
    case = run.case
    record = record_of(case["game"])
    if record is None:
        return None
    reports = dict(run.reports)
    rule_ids = run.rule_ids

    def search() -> tuple[str, str] | None:
        config = record.game.config_from_json(case["config"])
        for alternative in alternatives(record, config):
            if not replays(alternative, prefix, reports, rule_ids):
                continue
            game = alternative.game
            state = replay(game, alternative.config, prefix)[-1]
            if game.is_legal(state, game.action_from_json(action)) is legal:
                return alternative.rule, (f"your engine plays as if {alternative.label} "
                                          f"[{alternative.rule}]")
        return None

    found: tuple[str, str] | None = guarded(search, None)
    return found


# -- a difference in the observables ---------------------------------------------------------

def name(run: CaseRun, step: int, actions: list[JSON], differing: list[str],
         extra: Mapping[int | None, list[str]]) -> tuple[list[Finding], str | None]:
    """The findings that name the broken rule at *step* (most telling first, one per rule)
    and the explanation by another reading, if any."""
    record = record_of(run.case["game"])
    if record is None:
        return [], None
    found: list[Finding] = []
    explanation: str | None = None
    try:
        game = record.game
        config = game.config_from_json(run.case["config"])
        states = replay(game, config, actions[:step])
    except BAD_DATA:
        return [], None
    reports = {s: r for s, r in run.reports.items() if s <= step}
    for explained in guarded(lambda: explain(record, config, actions, reports,
                                             run.rule_ids), []):
        found.append(Finding(explained.rule, explained.message))
        explanation = explanation or explained.message
    report = run.reports.get(step)
    if report is not None:
        divergence = _divergence(record, config, step, actions, states, report, differing,
                                 run.reports.get(step - 1))
        # The game's own diagnosis first, then the generic checks (P-8, conservation).
        if record.diagnose is not None:
            with contextlib.suppress(*ENGINE_DATA):  # the engine's data; not a diagnosis's bug
                found += list(record.diagnose(divergence))
        if divergence.reported_view is None:
            problem = guarded(lambda: _undecodable(game, report.public), None)
            if problem is not None:
                found.append(Finding("P-8", f"the reported view is not {game.title}'s "
                                            f"canonical JSON: {problem}"))
        # An extra legal action names its rule when only the legal sets differ; when the
        # position differs too, the extra actions are a consequence of that difference.
        only_legal = set(differing) <= {"legal"}
        if only_legal:
            found += _refusals(record, states[-1], extra)
        with contextlib.suppress(*ENGINE_DATA):  # as the diagnosis: a view rule's bug raises
            found += record.view_findings(divergence)
        if not only_legal:
            found += _refusals(record, states[-1], extra)
        previous = run.reports.get(step - 1)
        invariant = guarded(lambda: broken_rule(
            game, record.check_public, None if previous is None else previous.public,
            actions[step - 1] if step else None, report.public), None)
        if invariant is not None:
            rule, message = invariant
            found.append(Finding(rule or "(shape)", message))
    else:
        found += _refusals(record, states[-1], extra)
    unique: list[Finding] = []
    for finding in found:
        if finding.rule not in {f.rule for f in unique}:
            unique.append(finding)
    return unique, explanation


def name_beyond(run: CaseRun, step: int, actions: list[JSON], differing: list[str],
                extra: Mapping[int | None, list[str]], model: Any, config: Any
                ) -> tuple[list[Finding], str | None]:
    """The findings for what an engine reports at *step* beyond a known difference: the
    paths and extra actions that differ from *model* (a game, a reading that gives the
    known difference) under *config*. As :func:`name`, but first, where only the legal
    sets differ from the model, the rules under which the model refuses the extra actions
    (the others are the known difference's); where the model's game ends at the step and
    the engine's does not, the rule that ends it."""
    findings, explanation = name(run, step, actions, differing, extra)
    record = record_of(run.case["game"])
    if record is None:
        return findings, explanation
    try:
        state = replay(model, config, actions[:step])[-1]
        ended = model.outcome(state)
    except BAD_DATA:
        return findings, explanation
    first: list[Finding] = []
    if set(differing) <= {"legal"}:
        first = _refusals(record, state, extra, model)
    elif ended is not None and ended.rule and any(p.startswith("outcome") for p in differing):
        # the model's game ends here and the engine's does not (or ends otherwise): the
        # rule that ends it, before what follows from the known difference
        first = [Finding(ended.rule, f"the game ends here under {ended.rule}")]
    return first + [f for f in findings if f.rule not in {r.rule for r in first}], explanation


def _divergence(record: AnyRecord, config: Any, step: int, actions: list[JSON],
                states: list[Any], report: Report, differing: list[str],
                before: Report | None) -> Divergence[Any, Any, Any, Any]:
    game = record.game
    try:
        view = structure(game.converter, report.public, game.observation_type,
                         "reported view")
    except BAD_DATA:
        view = None
    action = game.action_from_json(actions[step - 1]) if step else None
    return Divergence(config=config, step=step, before=states[-2] if step else states[0],
                      action=action, expected=states[-1], reported=report,
                      reported_before=before, reported_view=view,
                      differing=tuple(differing))


def _refusals(record: AnyRecord, state: Any, extra: Mapping[int | None, list[str]],
              game: Any = None) -> list[Finding]:
    """The rules under which the reference refuses the extra legal actions the engine
    lists; at a joint node a seat's extra part is combined with the other seats' legal
    parts into one joint action (*game*: the record's, unless another is given)."""
    game = record.game if game is None else game
    found: list[Finding] = []
    for seat, texts in extra.items():
        for text in texts[:3]:
            rule = guarded(lambda t=text, s=seat: _refusal(game, state, t, s), None)  # type: ignore[misc]
            if rule is not None:
                found.append(Finding(rule, f"the engine lists {text}, which the reference "
                                           f"refuses under {rule}"))
                break
    return found


def _refusal(game: Any, state: Any, text: str, seat: int | None) -> str | None:
    """The rule under which the reference refuses the listed action *text* in *state*."""
    action = game.action_from_json(json.loads(text))
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
    except BAD_DATA as exc:
        return str(exc)[:200]
    return None
