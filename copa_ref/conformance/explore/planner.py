"""Planning on the reference: an action sequence that meets a situation not yet met.

The reference's own game tree is searched, the planner choosing every seat's moves and every
chance outcome: a beam of positions advances one step at a time; each position offers a few
of its actions (at a chance node: sampled outcomes, every outcome where the game lists them,
and the situation's own aimed outcome, e.g. a deal giving one seat every copa); the children
are ranked by the situation's heuristic (plus a little noise, so that equal positions are
drawn at random) and the best ``beam`` kept. A beam that dies out (every game over) or runs
past ``max_steps`` starts again from the first position under a fresh stream (random
restarts), until the situation is met or the budget in nodes is spent. The budget is
counted in nodes only, so a search is deterministic; time is an outer guard (``seconds``)
that only a machine far slower than expected meets, and a search it cuts says so
(:attr:`Search.cut`, its ``why``, the report's ``searches_cut``).

The search calls the games' trusted inner functions (:attr:`~copa_ref.core.game.Game.trusted`)
with the states and actions they produced, as the generic loop does; an aimed chance outcome
built from JSON goes through the public ``apply`` and all its checks.

Everything depends only on the seed: the same game, config, situation, seed and budget give
the same plan and the same ``why`` (no timing in it), unless the time guard cuts a search.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

import attrs

from copa_ref.conformance.explore.configs import RANDOM
from copa_ref.conformance.explore.situations import (
    Situation,
    catalogue,
    met_in_game,
    step_rules,
)
from copa_ref.core import JSON, MoverKind
from copa_ref.core.entry import carry_mark
from copa_ref.games import GAMES

__all__ = ["IN_PASSING", "NOT_PLANNED", "UNREACHABLE", "Budget", "Director", "Plan", "Search",
           "continued", "met_along", "plan", "survey"]

NOISE = 0.5
"""The random part of a child's rank (the heuristic's steps are 1 or more where they matter)."""


@attrs.frozen(kw_only=True)
class Budget:
    """How far one search may go."""

    nodes: int = 100_000
    """Steps applied in all (every child of every position counts): the bound."""
    seconds: float | None = 30.0
    """The guard in time (``None``: none): a search still running after it is cut, and
    says so."""
    beam: int = 16
    """Positions kept at each depth."""
    branching: int = 6
    """Actions tried from each position (all of them where there are fewer)."""
    chance_samples: int = 3
    """Sampled outcomes tried at a chance node (besides the aimed one)."""
    max_steps: int = 1000
    """A beam deeper than this starts again."""


DEFAULT_BUDGET = Budget()


@attrs.frozen(kw_only=True)
class Plan:
    """A sequence of actions (chance outcomes included) from a new game under *config*
    whose last step meets the situation; ``states[i]`` is the state before action i."""

    game: Any
    config: Any
    situation: str
    actions: tuple[Any, ...]
    states: tuple[Any, ...]


@attrs.frozen(kw_only=True)
class Search:
    """What a search for one situation under one config found."""

    game: str
    config: Any
    situation: str
    plan: Plan | None
    why: str | None
    """Why no plan: the config excludes the situation, or the budget ran out."""
    nodes: int
    seconds: float
    restarts: int
    cut: bool = False
    """Whether the guard in time cut the search (its result depends on the clock)."""
    blocked: bool = False
    """Whether it ended because every path it found passed through a rule to avoid."""

    @property
    def found(self) -> bool:
        """Whether a plan was found."""
        return self.plan is not None


@attrs.frozen
class _Node:
    state: Any
    path: tuple[Any, ...] | None
    """``(action, state_before, parent_path)``, a linked list back to the start."""


def _children(game: Any, inner: Any, state: Any, situation: Situation, rng: random.Random,
              budget: Budget) -> Iterator[tuple[Any, Any]]:
    """``(action, after)`` for a few actions in *state*."""
    mover = inner.to_move(state)
    kind = mover.kind
    if kind is MoverKind.CHANCE:
        if situation.chance is not None:
            aimed = situation.chance(game, state, rng)
            if aimed is not None:
                yield aimed, game.apply(state, aimed)
        if game.chance_outcomes is not None:
            outcomes = [a for a, _ in game.chance_outcomes(state)]
            if len(outcomes) > budget.branching:
                outcomes = rng.sample(outcomes, budget.branching)
            for action in outcomes:
                yield action, game.apply(state, action)
            return
        for _ in range(budget.chance_samples):
            action = game.sample_chance(state, rng)
            yield action, inner.apply(state, action)
        return
    if kind is MoverKind.JOINT:
        parts = [inner.legal_actions(state, seat) for seat in mover.seats]
        combos = 1
        for legal in parts:
            combos *= len(legal)
        if combos <= budget.branching:
            chosen: Iterable[tuple[Any, ...]] = itertools.product(*parts)
        else:
            chosen = {tuple(rng.choice(legal) for legal in parts)
                      for _ in range(budget.branching)}
            chosen = sorted(chosen, key=repr)
        join = inner.joint if inner.joint is not None else game.joint
        for combo in chosen:
            action = join(state, tuple(combo))
            yield action, inner.apply(state, action)
        return
    legal = inner.legal_actions(state, None)
    if len(legal) > budget.branching:
        legal = rng.sample(legal, budget.branching)
    for action in legal:
        yield action, inner.apply(state, action)


def plan(game: Any, config: Any, situation: Situation, *, budget: Budget = DEFAULT_BUDGET,
         seed: int | str = 0, avoid: Collection[str] = ()) -> Search:
    """Search the reference's tree under *config* for a sequence meeting *situation*,
    through no step that exercises a rule in *avoid* (rules found broken, whose difference
    would end the game before it) but the situation's own."""
    started = time.perf_counter()
    excluded = situation.why_not(config)
    if excluded is not None:
        return Search(game=game.name, config=config, situation=situation.name, plan=None,
                      why=excluded, nodes=0, seconds=0.0, restarts=0)
    rng = random.Random(f"plan/{game.name}/{situation.name}/{seed}")
    inner = game.trusted
    start = game.new_game(config)
    nodes = restarts = 0
    deadline = None if budget.seconds is None else started + budget.seconds
    cut = False
    heuristic, test = situation.heuristic, situation.fires
    avoided = frozenset(avoid) - {situation.rule}
    blocked = 0
    """Restarts in a row whose beam died with only avoided children left."""
    while nodes < budget.nodes and not cut and blocked < BLOCKED:
        beam = [_Node(start, None)]
        depth = 0
        while beam and depth < budget.max_steps:
            ranked: list[tuple[float, _Node]] = []
            skipped = False
            for node in beam:
                for action, after in _children(game, inner, node.state, situation, rng,
                                               budget):
                    nodes += 1
                    carry_mark(node.state, after)
                    if test(node.state, action, after):
                        return _found(game, config, situation, start, node, action, after,
                                      nodes, started, restarts)
                    if inner.to_move(after).is_over:
                        continue
                    if avoided and avoided & step_rules(game, node.state, action, after):
                        skipped = True
                        continue
                    child = _Node(after, (action, node.state, node.path))
                    ranked.append((heuristic(after) + NOISE * rng.random(), child))
                if nodes >= budget.nodes:
                    break
            if deadline is not None and time.perf_counter() >= deadline:
                cut = True
            if nodes >= budget.nodes or cut:
                break
            if not ranked:
                blocked = blocked + 1 if skipped else 0
            ranked.sort(key=lambda pair: pair[0], reverse=True)
            beam = [child for _, child in ranked[:budget.beam]]
            depth += 1
        restarts += 1
    spent = time.perf_counter() - started
    if blocked >= BLOCKED:
        why = (f"every path searched passes through {', '.join(sorted(avoided))}, avoided "
               f"(the engine's games diverged there; {restarts} restarts)")
    elif not cut:
        why = f"not found within the budget ({nodes} steps searched, {restarts} restarts)"
    else:
        why = f"cut by the time guard ({budget.seconds} s) after {nodes} steps searched"
    if avoided and blocked < BLOCKED:
        why += f", avoiding {', '.join(sorted(avoided))}"
    return Search(game=game.name, config=config, situation=situation.name, plan=None,
                  why=why, nodes=nodes, seconds=spent, restarts=restarts, cut=cut,
                  blocked=blocked >= BLOCKED)


BLOCKED = 200
"""Restarts in a row that die with every child left exercising an avoided rule: the search
ends there (the avoided rules stand on every path it finds)."""


def _found(game: Any, config: Any, situation: Situation, start: Any, node: _Node,
           action: Any, after: Any, nodes: int, started: float, restarts: int) -> Search:
    actions = [action]
    states = [after, node.state]
    path = node.path
    while path is not None:
        taken, before, path = path
        actions.append(taken)
        states.append(before)
    actions.reverse()
    states.reverse()
    found = Plan(game=game, config=config, situation=situation.name,
                 actions=tuple(actions), states=tuple(states))
    return Search(game=game.name, config=config, situation=situation.name, plan=found,
                  why=None, nodes=nodes, seconds=time.perf_counter() - started,
                  restarts=restarts)


def met_along(found: Plan, situation: Situation) -> Plan | None:
    """The shortest prefix of *found* whose last step meets *situation* (``None``: no step
    of it does): a plan made for one situation often meets others on its way."""
    test = situation.fires
    for number, action in enumerate(found.actions):
        if test(found.states[number], action, found.states[number + 1]):
            return Plan(game=found.game, config=found.config, situation=situation.name,
                        actions=found.actions[:number + 1],
                        states=found.states[:number + 2])
    return None


def survey(name: str, config: Any = None, *, met: Iterable[str] = (),
           budget: Budget = DEFAULT_BUDGET, seed: int | str = 0,
           only: Iterable[str] | None = None) -> list[Search]:
    """A search for every situation of the game *name* under *config* (default: the default
    reading) not already in *met* (or only those named in *only*).

    A rule's own situations are searched before its ``/fires``, and every plan found is
    read for the situations still wanted: one met on the way of another's plan needs no
    search of its own (its :class:`Search` has ``nodes == 0``).
    """
    game = GAMES[name]
    config = game.default_config() if config is None else config
    skip = set(met)
    wanted = [s for s in catalogue(name) if s.name not in skip
              and (only is None or s.name in set(only))]
    order = sorted(wanted, key=lambda s: s.name.endswith("/fires"))
    plans: list[Plan] = []
    done: dict[str, Search] = {}
    for situation in order:
        for found in plans:
            if situation.why_not(config) is not None:
                break
            shorter = met_along(found, situation)
            if shorter is not None:
                done[situation.name] = Search(
                    game=name, config=config, situation=situation.name, plan=shorter,
                    why=None, nodes=0, seconds=0.0, restarts=0)
                break
        if situation.name in done:
            continue
        search = plan(game, config, situation, budget=budget, seed=seed)
        done[situation.name] = search
        if search.plan is not None:
            plans.append(search.plan)
    return [done[s.name] for s in wanted]


NOT_PLANNED = "not planned: the exploration's budget ended first"

IN_PASSING = ("not planned: a random combination of options played in passing (planned "
              "games aim at the configs of the sweep)")
"""Why a situation was not met under a config outside the sweep (one drawn at random after
it), where nothing was aimed at there."""

UNREACHABLE = "unreachable under this config"
"""How the why of a situation its config excludes begins."""

EXPLORE_BUDGET = Budget(nodes=200_000, seconds=10.0)
"""The planner's budget for a situation within an exploration: 200,000 nodes (most searches
end within 0.1 s; the rarest, a Copas burst at exactly the limit or a tie of bursts, take
20,000 to 150,000 nodes, about 2 s on a quiet core), the time guard far above it."""


@attrs.define
class Director:
    """The situations an exploration met, by game and config, and the planned games that aim
    at the rest.

    An exploration tells it every game it checked (:meth:`record`: the checked steps) and
    asks it, for a game under a config, for a plan (:meth:`next_plan`): the first situation
    not yet met under that config nor aimed at there (those met under the fewest configs
    first, :meth:`pending`), searched on the reference; one the config excludes, or the
    search does not find, is noted with why and the next is tried (at most *tries*
    searches a game).
    """

    budget: Budget = EXPLORE_BUDGET
    seed: int | str = 0
    tries: int = 3
    give_up: int = 3
    """After this many searches in vain (under any configs), a situation met under no config
    is not searched for again in the exploration (its other configs say so); one met under
    another config is searched for under each config until :attr:`again` searches there
    were in vain."""
    again: int = 2
    """Searches in vain under one config (each under a fresh seed) before the situation is
    left there, with why."""
    failed: dict[str, dict[str, int]] = attrs.Factory(dict)
    """By game and situation: the searches in vain (under any config)."""
    vain: dict[str, dict[str, dict[str, int]]] = attrs.Factory(dict)
    """By game, config label and situation: the searches in vain under that config."""
    met: dict[str, dict[str, set[str]]] = attrs.Factory(dict)
    why: dict[str, dict[str, dict[str, str]]] = attrs.Factory(dict)
    """By game, config label and situation: why it was not met (excluded, not found)."""
    aimed: dict[str, dict[str, dict[str, int]]] = attrs.Factory(dict)
    """By game, config label and situation: the actions of the plan played for it."""
    labels: dict[str, list[str]] = attrs.Factory(dict)
    """By game: the config labels seen, in order."""
    configs: dict[str, dict[str, Any]] = attrs.Factory(dict)
    """By game and config label: the config."""
    planned_games: int = 0
    cut: int = 0
    """The searches the time guard (or the exploration's end) cut."""

    def _see(self, name: str, label: str, config: Any = None) -> None:
        if config is not None:
            self.configs.setdefault(name, {})[label] = config
        labels = self.labels.setdefault(name, [])
        if label not in labels:
            labels.append(label)
        self.met.setdefault(name, {}).setdefault(label, set())
        self.why.setdefault(name, {}).setdefault(label, {})
        self.aimed.setdefault(name, {}).setdefault(label, {})

    def record(self, name: str, label: str, states: Sequence[Any], actions: Sequence[Any],
               tags: Sequence[frozenset[str]] | None = None, config: Any = None) -> set[str]:
        """Note the situations the checked steps of a game under the config *label* met
        (*config*, when given, lets :meth:`never_met` say which it excludes); return the
        new ones."""
        self._see(name, label, config)
        found = met_in_game(name, states, actions, tags) - self.met[name][label]
        self.met[name][label] |= found
        return found

    def pending(self, name: str, label: str) -> list[Situation]:
        """The situations not met under the config *label*, those met under the fewest
        other configs first (a rule's own situations before its ``/fires``, then in the
        catalogue's order): a planned game aims first at what no game has met."""
        self._see(name, label)
        met = self.met[name][label]
        elsewhere = Counter(n for names in self.met[name].values() for n in names)
        order = {s.name: i for i, s in enumerate(catalogue(name))}
        return sorted((s for s in catalogue(name) if s.name not in met),
                      key=lambda s: (elsewhere[s.name], s.name.endswith("/fires"),
                                     order[s.name]))

    def _vain(self, name: str, label: str) -> dict[str, int]:
        return self.vain.setdefault(name, {}).setdefault(label, {})

    def _given_up(self, name: str, situation: str) -> bool:
        """Whether *situation* was searched in vain :attr:`give_up` times and met under no
        config: it is not searched for again."""
        if self.failed.get(name, {}).get(situation, 0) < self.give_up:
            return False
        return not any(situation in met for met in self.met.get(name, {}).values())

    def _open(self, name: str, label: str, situation: str) -> bool:
        """Whether *situation* may still be searched for under the config *label*: not
        excluded or left there (:attr:`why`), not aimed at there, not searched in vain
        there :attr:`again` times, not given up."""
        return (situation not in self.why[name][label]
                and situation not in self.aimed[name][label]
                and self._vain(name, label).get(situation, 0) < self.again
                and not self._given_up(name, situation))

    def left(self, name: str, label: str, config: Any) -> bool:
        """Whether a situation not met under the config *label* is left to aim at there:
        not excluded by *config*, and open there (:meth:`_open`)."""
        self._see(name, label, config)
        return any(self._open(name, label, s.name) and s.why_not(config) is None
                   for s in self.pending(name, label))

    def next_plan(self, name: str, label: str, config: Any, deadline: float | None = None,
                  max_steps: int | None = None, avoid: Collection[str] = (),
                  fallback: Collection[str] | None = None) -> Plan | None:
        """A plan for the next situation not met under the config *label* (``None``: none
        left to aim at, or none found within *tries* searches), of at most *max_steps*
        actions, through no step exercising a rule in *avoid* but the situation's own (where
        every path passes through one of them, through no step exercising a rule in
        *fallback*, when given); the search stops at *deadline* (``time.monotonic()``). A
        situation searched in vain is searched for again in a later game under a fresh seed,
        up to :attr:`again` times under one config."""
        self._see(name, label, config)
        why = self.why[name][label]
        vain = self._vain(name, label)
        failures = self.failed.setdefault(name, {})
        game = GAMES[name]
        searched = 0
        for situation in self.pending(name, label):
            if not self._open(name, label, situation.name):
                continue
            if deadline is not None and time.monotonic() >= deadline:
                return None
            excluded = situation.why_not(config)
            if excluded is not None:
                why[situation.name] = f"{UNREACHABLE}: {excluded}"
                continue
            if searched >= self.tries:
                return None
            searched += 1
            budget = self.budget
            if max_steps is not None and max_steps < budget.max_steps:
                budget = attrs.evolve(budget, max_steps=max_steps)
            if deadline is not None:
                left = max(0.0, deadline - time.monotonic())
                budget = attrs.evolve(budget, seconds=left if budget.seconds is None
                                      else min(budget.seconds, left))
            tried = vain.get(situation.name, 0)
            seed = f"{self.seed}/{label}" if not tried else f"{self.seed}/{label}/{tried}"
            search = plan(game, config, situation, budget=budget, seed=seed, avoid=avoid)
            if search.blocked and fallback is not None and set(fallback) != set(avoid):
                search = plan(game, config, situation, budget=budget, seed=seed,
                              avoid=fallback)
            self.cut += search.cut
            if search.plan is None:
                if deadline is not None and time.monotonic() >= deadline:
                    return None  # the exploration's time ran out, not the search's budget
                failures[situation.name] = failures.get(situation.name, 0) + 1
                vain[situation.name] = tried + 1
                if tried + 1 >= self.again:
                    why[situation.name] = (f"{search.why or 'not found'}; searched "
                                           f"{tried + 1} times under this config")
                continue
            aimed = self.aimed[name][label]
            aimed[situation.name] = len(search.plan.actions)
            self.planned_games += 1
            return search.plan
        return None

    def never_met(self, name: str, label: str) -> dict[str, str]:
        """The situations not met under the config *label*, each with why."""
        self._see(name, label)
        met, why, aimed = self.met[name][label], self.why[name][label], self.aimed[name][label]
        found: dict[str, str] = {}
        config = self.configs.get(name, {}).get(label)
        for situation in catalogue(name):
            if situation.name in met:
                continue
            excluded = None if config is None else situation.why_not(config)
            if excluded is not None:
                found[situation.name] = f"{UNREACHABLE}: {excluded}"
            elif situation.name in why:
                found[situation.name] = why[situation.name]
            elif self._given_up(name, situation.name):
                count = self.failed[name][situation.name]
                found[situation.name] = (
                    f"not found within the budget in {count} searches under other configs, "
                    "and met under none; not searched again")
            elif self._vain(name, label).get(situation.name):
                tried = self._vain(name, label)[situation.name]
                found[situation.name] = (
                    f"not found within the budget in {tried} search"
                    f"{'es' if tried > 1 else ''} under this config; the exploration's "
                    "budget ended before another")
            elif situation.name in aimed:
                found[situation.name] = (
                    f"planned ({aimed[situation.name]} actions) and played, but the game "
                    "ended before it (at a difference the engine's position did not survive)")
            elif label.startswith(RANDOM):
                found[situation.name] = IN_PASSING
            else:
                found[situation.name] = NOT_PLANNED
        return found

    def summary(self) -> dict[str, JSON]:
        """The report's situations: by game and config, how many the catalogue has, those
        met, and each never met with why."""
        out: dict[str, JSON] = {}
        for name, labels in sorted(self.labels.items()):
            total = len(catalogue(name))
            by_label: dict[str, JSON] = {}
            for label in labels:
                never = self.never_met(name, label)
                by_label[label] = {"situations": total, "met": total - len(never),
                                   "never_met": dict(never)}
            out[name] = by_label
        out_json: dict[str, JSON] = {"planned_games": self.planned_games,
                                     "searches_cut": self.cut, "games": out}
        return out_json


TAIL_CANDIDATES = 4
"""Random moves drawn at each step of a planned game's tail to find one that exercises no
rule to avoid."""


def continued(found: Plan, rng: random.Random, max_steps: int,
              avoid: Collection[str] = ()) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The plan's actions and states, then random moves (chance sampled) until the game is
    over or *max_steps* actions in all: a whole game whose beginning the plan aims. Where
    it can (of :data:`TAIL_CANDIDATES` draws), a move exercises no rule in *avoid*."""
    game = found.game
    actions, states = list(found.actions), list(found.states)
    state = states[-1]
    avoided = frozenset(avoid)
    while len(actions) < max_steps and not game.to_move(state).is_over:
        action = game.random_action(state, rng)
        after = game.apply(state, action)
        for _ in range(TAIL_CANDIDATES - 1 if avoided else 0):
            if not avoided & step_rules(game, state, action, after):
                break
            action = game.random_action(state, rng)
            after = game.apply(state, action)
        state = after
        actions.append(action)
        states.append(state)
    return tuple(actions[:max_steps]), tuple(states[:max_steps + 1])
