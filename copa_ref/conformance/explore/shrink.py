"""Shrinking a difference to a minimal case that still names the same rule.

A difference is a failing case (a trace of a seeded reference game, or a refused-action
probe along one) and the rule its verdict names. Shrinking asks the engine again with
smaller candidates and keeps a candidate only when its verdict names the same rule:

1. **the shortest prefix**: the trace is cut at the failing step (the steps after it say
   nothing);
2. **the smallest config**: each option set away from its default is put back, and the
   player count lowered, wherever the difference survives: the same actions when the
   reference plays them under the smaller config, else fresh seeded games under it,
   steered to the rule, one per simpler config in turn (so that the tries spent on one
   option never starve another). Each option is tried alone, and again once the others
   have gone back (with another option where the game refuses it alone);
3. **a shorter game**: fresh seeded games under the final config, steered to the rule
   (a step exercising it is preferred), each cut where it first differs; the shortest that
   names the rule is kept;
4. **the simplest chance outcomes** (games that enumerate them, HOPPER's shots): each
   chance action of the prefix is replaced by the first outcome in canonical order while
   the rest of the prefix stays legal and the rule is still named.

A refused-action probe is shrunk to the earliest position of its game where the same
action is refused under the same rule and the engine still differs under it.

Every candidate costs one case run; *tries* bounds them. The search is deterministic (its
seeds come from the difference), so the same exploration shrinks to the same case.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import attrs

from copa_ref.conformance.cases import plain as _plain
from copa_ref.conformance.cases import rejection_case as _rejection
from copa_ref.conformance.explore.play import Played, play, trace_case
from copa_ref.conformance.explore.situations import step_rules
from copa_ref.conformance.observables import options_of
from copa_ref.conformance.runner import CaseResult
from copa_ref.core import JSON, MoverKind, RuleViolation, canonical_json

__all__ = ["Shrunk", "shrink_rejection", "shrink_trace"]

Case = dict[str, Any]
Judge = Callable[[Case], CaseResult]
"""Runs a case against the engine (the runner's verdict)."""


@attrs.frozen
class Shrunk:
    """The minimal case found, its verdict and what the shrink cost."""

    case: Case
    result: CaseResult
    tries: int
    steps_before: int
    players_before: int
    interrupted: bool = False
    """Whether Ctrl-C stopped the shrink (the case is the smallest found until then)."""
    note: str | None = None
    """Why the shrink stopped short (its time ran out, or it failed: the case is the
    smallest found until then, the unshrunk case at worst)."""


class _Out(Exception):
    """The shrink's tries are used up."""


class _Search:
    def __init__(self, judge: Judge, rule: str | None, tries: int,
                 deadline: float | None = None) -> None:
        self.judge = judge
        self.rule = rule
        self.left = tries
        self.used = 0
        self.deadline = deadline
        self.timed_out = False

    def same(self, case: Case) -> CaseResult | None:
        """The verdict on *case* when it fails naming the rule, else ``None``."""
        if self.left <= 0:
            raise _Out
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.timed_out = True
            raise _Out
        self.left -= 1
        self.used += 1
        result = self.judge(case)
        if result.status == "failed" and result.broken_rule == self.rule:
            return result
        return None


def _length(case: Case) -> int:
    return len(case["steps"]) if case["kind"] == "trace" else len(case["prefix"])


def _replayed(game: Any, config: Any, actions: tuple[Any, ...]) -> Played | None:
    """The reference's game under *config* through *actions*, or ``None`` where one is not
    legal there."""
    try:
        state = game.new_game(config)
    except (ValueError, RuleViolation):
        return None
    states = [state]
    for action in actions:
        if game.to_move(state).is_over:
            return None
        try:
            state = game.apply(state, action)
        except (ValueError, RuleViolation):
            return None
        states.append(state)
    tags = tuple(step_rules(game, states[i], a, states[i + 1]) for i, a in enumerate(actions))
    return Played(game, config, tuple(actions), tuple(states), tags)


def _admitted(game: Any, data: dict[str, JSON]) -> Any:
    """The config of *data*, or ``None`` when the game refuses it."""
    try:
        candidate = game.config_from_json(data)
        game.new_game(candidate)
    except (ValueError, RuleViolation):
        return None
    return candidate


def _simpler_configs(game: Any, config: Any) -> list[Any]:
    """Configs one step simpler than *config*: each option set away from its default put
    back alone (or, where the game refuses that, together with one other such option: HOPPER's
    50 beans for three players need remainder=loose, so the two go back together), then one
    player fewer; each config once."""
    default: dict[str, JSON] = game.to_json(game.default_config())
    given: dict[str, JSON] = game.to_json(config)
    changed = [key for key in sorted(given)
               if key != "players" and given[key] != default.get(key)]
    found: list[dict[str, JSON]] = []
    for key in changed:
        alone = {**given, key: default[key]}
        if _admitted(game, alone) is not None:
            found.append(alone)
            continue
        found += [{**alone, other: default[other]} for other in changed if other != key]
    if "players" in given and isinstance(given["players"], int):
        for n in range(game.facts.min_players, given["players"]):
            found.append({**given, "players": n})
    configs: list[Any] = []
    seen: set[str] = set()
    for data in found:
        text = canonical_json(data)
        candidate = None if text in seen else _admitted(game, data)
        seen.add(text)
        if candidate is not None:
            configs.append(candidate)
    return configs


_TIMED_OUT = "the exploration's time ran out during the shrink"

_ROUNDS = 8
"""At most this many fresh games per simpler config (within the tries)."""


def _size(game: Any, config: Any) -> tuple[int, int]:
    return game.num_players(config), len(options_of(game, config))


def shrink_trace(judge: Judge, played: Played, case: Case, result: CaseResult, *,
                 tries: int, seed: str, make_id: Callable[[str], str],
                 declared: Callable[[Any], bool] = lambda _c: True,
                 deadline: float | None = None) -> Shrunk:
    """Shrink a failing trace of *played* (its verdict *result*) to a minimal one naming
    ``result.broken_rule``. *declared(config)* says whether the engine plays a config;
    *make_id(slug)* makes a case ID; past *deadline* (``time.monotonic()``) no case is run
    and the smallest case so far stands."""
    game = played.game
    rule = result.broken_rule
    search = _Search(judge, rule, tries, deadline)
    steps_before, players_before = len(played.actions), game.num_players(played.config)
    best_case, best_result = case, result
    best = played

    def cut(candidate: Played, at: int, note: str) -> Case:
        return trace_case(candidate, make_id(note), f"A minimal case found by explore: "
                          f"{note}; the engine differs at step {at} ({rule or 'no rule named'}).",
                          0, at)

    def try_played(candidate: Played, note: str) -> bool:
        nonlocal best_case, best_result, best
        whole = trace_case(candidate, make_id(note), note)
        verdict = search.same(whole)
        if verdict is None or verdict.step is None:
            return False
        at = verdict.step
        if at > _length(best_case) and _size(game, candidate.config) >= _size(
                game, best.config):
            return False
        short = cut(candidate, at, note)
        again = search.same(short)
        if again is None:
            return False
        best_case, best_result = short, again
        best = attrs.evolve(candidate, actions=candidate.actions[:at],
                            states=candidate.states[:at + 1], tags=candidate.tags[:at])
        return True

    try:
        # 1. the shortest prefix
        at = result.step or 0
        if at < len(played.actions):
            short = cut(played, at, "the game cut at its first difference")
            again = search.same(short)
            if again is not None:
                best_case, best_result = short, again
                best = attrs.evolve(played, actions=played.actions[:at],
                                    states=played.states[:at + 1], tags=played.tags[:at])
        # 2. the smallest config: each simpler config first with the same moves (a case
        # run only where the reference plays them), then with fresh seeded games in rounds,
        # one game per config a round, so that no option is left untried while another has
        # its games; after each config taken, the simpler configs of the new one (an option
        # that could not go back alone is tried again once the others are reset). A fresh
        # game may be longer than the case (a smaller config can take more steps to the
        # same situation: HOPPER without aiming has no aim decisions); a few tries stay for
        # the shorter game and the chance outcomes.
        rng = random.Random(f"shrink/{seed}")
        reserve = min(6, tries // 4)
        improved = True
        while improved:
            improved = False
            candidates = [c for c in _simpler_configs(game, best.config) if declared(c)]
            for config in candidates:
                same = _replayed(game, config, best.actions)
                if same is not None and try_played(same, "the same moves, a smaller config"):
                    improved = True
                    break
            attempt = 0
            while candidates and not improved and search.left > reserve and attempt < _ROUNDS:
                for config in candidates:
                    if search.left <= reserve:
                        break
                    fresh = play(game, config, random.Random(f"{seed}/config/{attempt}/"
                                                             f"{rng.random()}"),
                                 max(4 * len(best.actions), 40), seen=_fresh_counter(),
                                 prefer=() if rule is None else (rule,))
                    if try_played(fresh, "a seeded game under a smaller config"):
                        improved = True
                        break
                attempt += 1
        # 3. a shorter game
        for attempt in range(4):
            if len(best.actions) <= 1:
                break
            fresh = play(game, best.config, random.Random(f"{seed}/shorter/{attempt}"),
                         len(best.actions) - 1, seen=_fresh_counter(),
                         prefer=() if rule is None else (rule,))
            try_played(fresh, "a shorter seeded game")
        # 4. the simplest chance outcomes
        if game.chance_outcomes is not None:
            i = 0
            while i < len(best.actions):  # (a simpler outcome may end the case sooner)
                state = best.states[i]
                i += 1
                if game.to_move(state).kind is not MoverKind.CHANCE:
                    continue
                outcomes = sorted((o for o, _p in game.chance_outcomes(state)),
                                  key=lambda o: canonical_json(game.to_json(o)))
                if not outcomes or outcomes[0] == best.actions[i - 1]:
                    continue
                actions = (*best.actions[:i - 1], outcomes[0], *best.actions[i:])
                simpler = _replayed(game, best.config, actions)
                if simpler is not None:
                    try_played(simpler, "the simplest chance outcomes")
    except _Out:  # the shrinking budget is spent: the smallest case so far stands
        return Shrunk(best_case, best_result, search.used, steps_before, players_before,
                      note=_TIMED_OUT if search.timed_out else None)
    except KeyboardInterrupt:  # the exploration is being stopped: keep what was found
        return Shrunk(best_case, best_result, search.used, steps_before, players_before,
                      interrupted=True)
    return Shrunk(best_case, best_result, search.used, steps_before, players_before)


def _fresh_counter() -> Any:
    from collections import Counter

    return Counter()


def shrink_rejection(judge: Judge, played: Played, case: Case, result: CaseResult, *,
                     tries: int, kind: str, note: str, where: str,
                     deadline: float | None = None) -> Shrunk:
    """Shrink a failing refused-action probe of *played* to the earliest position where the
    same action is refused under the same rule and the verdict names the same rule."""
    game = played.game
    rule = result.broken_rule
    search = _Search(judge, rule, tries, deadline)
    ply = len(case["prefix"])
    data: JSON = case["action"]
    best_case, best_result = case, result
    try:
        action = game.action_from_json(data)
    except ValueError:
        action = None
    expected = case["rule"]
    plies = sorted({0, ply // 16, ply // 8, ply // 4, ply // 2, (3 * ply) // 4} - {ply})
    try:
        for earlier in plies:
            state = played.states[earlier]
            if action is not None:
                try:
                    game.apply(state, action)
                except RuleViolation as exc:
                    if exc.rule != expected:
                        continue
                    message = exc.message
                except (ValueError, TypeError):
                    continue
                else:
                    continue
            elif game.to_move(state).is_over:
                continue
            else:
                message = "malformed"
            candidate = _rejection(game, expected, message, kind, note, _plain(data), where,
                                   case["trace"].rsplit("/", 1)[-1], played.config, 0,
                                   list(played.actions[:earlier]), state)
            candidate["description"] = candidate["description"].replace(
                " (seed 0)", "")
            verdict = search.same(candidate)
            if verdict is not None:
                best_case, best_result = candidate, verdict
                break
    except _Out:  # the shrinking budget is spent: the smallest case so far stands
        return Shrunk(best_case, best_result, search.used, ply, game.num_players(played.config),
                      note=_TIMED_OUT if search.timed_out else None)
    except KeyboardInterrupt:  # the exploration is being stopped: keep what was found
        return Shrunk(best_case, best_result, search.used, ply,
                      game.num_players(played.config), interrupted=True)
    return Shrunk(best_case, best_result, search.used, ply, game.num_players(played.config))
