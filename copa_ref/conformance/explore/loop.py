"""The exploration loop: seeded reference games against an engine, each step checked as a
trace checks it, refused-action probes along them, every difference shrunk and named once.

Game number *i* of an exploration (from 0) is played from ``random.Random("explore/SEED/i")``:
its game (the engine's declared games in turn), its config (every config of the sweep once,
in order, by the game's number; then half of the games under a fresh random combination of
option values, the others under a config of the sweep steered towards the configs whose
games exercised the rules seen least), its moves
(:func:`~copa_ref.conformance.explore.play.play`; after the sweep every game under a
config of the sweep is planned instead, every other one under the config of the sweep with
a situation left to aim at that was aimed at least: a sequence searched on the reference for
a situation not yet met under it, then random moves,
:mod:`~copa_ref.conformance.explore.planner`) and its
probes. The game is judged as a
trace case of the corpus (:meth:`Runner.run_case`), so a step is checked exactly as a trace
checks it and a difference is named by the runner's own naming.

A difference does not end its game: the game is judged in lockstep
(:mod:`~copa_ref.conformance.explore.lockstep`), every step compared with the known
differences masked by kind and rule, until the engine's position diverges. Then, with the
engine feature ``load_state``, the exploration goes on from the reference's own position
after the diverging step (a trace case that starts there); without it the rest of the game
is unchecked: later games steer away from the rules whose differences diverged, and the
footer says, per known difference, what was tested after it and what was not.

A game's moves are chosen in one place, :meth:`Explorer._moves` (today the reference,
steered by coverage). Nothing that fails in a game ends the run: the game is errored with
its reason. The budget in time is checked at every step of a game and before every case
run of a shrink.

``shard=(K, N)`` plays only the games of part K-1 of N (:func:`part_of`: each game
explored, its turns dealt round the parts, every part a share of every game; for a CI
matrix: every part's report merges with ``copa-ref conformance merge``). Everything
depends only on the seed, the shard, the engine's answers and the budget in games: the same
seed plays the same games and writes the same report (timings aside).

What a shard shares with the other shards, and what it does not: a game's number decides
its game and, during the sweep, its config, whatever the sharding. The steering is each
shard's own: the moves of a game go for the rules the shard's earlier games exercised least,
the configs after the sweep for the configs whose games (in the shard) exercised rare rules,
and without ``load_state`` the games avoid the rules the shard has found broken. So game *i*
of part K/N is not played as game *i* of an unsharded run (nor of another N, nor under
``--jobs``, whose workers are finer shards), and the N parts together are not the
unsharded exploration; each part is reproducible (the same seed, K/N and engine give the
same games and report), and their merged report is the same for the same seed, N and
number of workers.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from copa_ref import __version__
from copa_ref.conformance.cases import mutations as _mutations
from copa_ref.conformance.cases import plain as _plain
from copa_ref.conformance.cases import refused
from copa_ref.conformance.cases import rejection_case as _rejection
from copa_ref.conformance.cases import remember as _remember
from copa_ref.conformance.channel import printable
from copa_ref.conformance.corpus import Case
from copa_ref.conformance.explore import lockstep
from copa_ref.conformance.explore.configs import AROUND, RANDOM, Swept, option_values, sweep
from copa_ref.conformance.explore.planner import Director, Plan, continued
from copa_ref.conformance.explore.play import Played, play, rule_key, trace_case
from copa_ref.conformance.explore.shrink import Shrunk, shrink_rejection, shrink_trace
from copa_ref.conformance.explore.situations import step_rules
from copa_ref.conformance.observables import PROTOCOL_VERSION, observables, options_of
from copa_ref.conformance.registry import record_of
from copa_ref.conformance.runner import CaseResult, Runner
from copa_ref.core import JSON, MoverKind, RuleViolation, canonical_json
from copa_ref.games import GAMES

__all__ = ["Difference", "Exploration", "Explorer", "Settings"]


PER_GAME = 100
"""The default budget in games: this many for each game explored (the command line's
``--games`` and ``--time`` replace it), or :data:`PER_CONFIG` for each config of the largest
sweep where that is more."""

PER_CONFIG = 6
"""Games for each config of the largest sweep in the default budget (HOPPER's 25 configs:
150 games a game): the sweep's game, and planned games for the rare situations of each."""

AIMED = 2
"""After the sweep, every AIMED-th game of a game is played under the config of the sweep
with a situation left to aim at that was aimed at least; every game after the sweep under a
config of the sweep plays a planned sequence first (when a situation is still to aim at
there); the sweep's games are all played as before."""

DETOURS = 4
"""At most this many detours a game (without ``load_state``, where the engine refused a
move of the reference's that its own listing had left out)."""

FRESH = 0.5
"""After the sweep, the share of games played under a fresh random combination of option
values (the others under a config of the sweep, steered)."""


def part_of(number: int, explored: int, parts: int) -> int:
    """The part (0 .. *parts* - 1) that plays game *number* of an exploration of
    *explored* games: game *number* is turn ``number // explored`` of game
    ``number % explored``, and its part is the two added, modulo *parts*. So each game's
    turns go round the parts and every part plays every game explored (one game alone:
    the number modulo *parts*); a part of N is split exactly by the parts of N x J that
    are it modulo N (the ``--jobs`` workers of a shard). By the number alone, two parts of
    six games held three games each, the heavy ones in one. For an even N, a game's
    planned turns (the odd ones after the sweep) go to half the parts only: fewer parts
    plan for one game's situations than if they went round every part, which was measured
    slower (``bench/README.md``)."""
    return (number // explored + number % explored) % parts


@attrs.frozen(kw_only=True)
class Settings:
    """What an exploration plays and how long."""

    games: int | None = None
    """Stop after this many games in all (``None``: :attr:`per_game` decides)."""
    per_game: int | None = PER_GAME
    """Without :attr:`games`: stop after this many games for each game explored (``None``
    as well: no limit in games)."""
    seconds: float | None = None
    """Stop after this many seconds (checked at every step; ``None``: no limit in time)."""
    seed: int = 0
    only: tuple[str, ...] = ()
    """Only these games (empty: every game the engine declares)."""
    max_steps: int = 1000
    """A game is cut after this many actions (a trace of its prefix)."""
    probes: int = 2
    """Refused-action probes per game (random illegal or malformed actions at random
    positions the engine agreed on)."""
    shrink_tries: int = 40
    """At most this many case runs to shrink one difference."""
    steer: bool = True
    shard: tuple[int, int] = (1, 1)
    """``(K, N)``: play only the games of part K-1 of N (:func:`part_of`)."""
    load_state: bool = True
    """Use the engine's ``load_state`` when it declares it."""
    plan: bool = True
    """Aim games at the situations not yet met under their config, with sequences planned
    on the reference (:mod:`~copa_ref.conformance.explore.planner`)."""
    start: int = 0
    """Play no game numbered below this (a ``--jobs`` worker that takes over the shard of
    one that ended goes on from the game after the one it was playing)."""

    def budget(self, explored: int, configs: int = 0) -> int | None:
        """The games the exploration may play, *explored* games being explored, the largest
        sweep holding *configs* configs (``None``: no limit in games): :attr:`games`, else
        :attr:`per_game` for each game explored, and at least :data:`PER_CONFIG` for each
        config of the largest sweep."""
        if self.games is not None:
            return self.games
        if self.per_game is None:
            return None
        return max(self.per_game, PER_CONFIG * configs) * explored

    def as_json(self) -> dict[str, JSON]:
        """The settings as JSON (the report's header)."""
        data = attrs.asdict(self)
        data["only"] = list(self.only)
        data["shard"] = f"{self.shard[0]}/{self.shard[1]}"
        return data


@attrs.define
class Difference:
    """One broken rule: its minimal case and how it was found."""

    rule: str | None
    """The rule the runner names (``None``: a difference no rule explains)."""
    game: str
    kind: str
    case: Case
    result: CaseResult
    found: dict[str, JSON]
    """Where it was first seen: the game number, its config, the step."""
    shrink: dict[str, JSON]
    occurrences: int = 1

    @property
    def key(self) -> str:
        """How differences are grouped: the rule, or ``game:(no rule)``."""
        return self.rule or f"{self.game}:(no rule)"

    def as_json(self) -> dict[str, JSON]:
        """The report line of the difference."""
        return {"type": "difference", "rule": self.rule, "game": self.game,
                "kind": self.kind, "explanation": self.result.explanation,
                "reason": self.result.reason, "diff": self.result.diff,
                "step": self.result.step, "occurrences": self.occurrences,
                "found": self.found, "shrink": self.shrink, "case": self.case}


@attrs.frozen
class Probe:
    """A refused-action probe drawn for a game: a candidate's kind and note, the rule the
    reference refuses it under (``None``: malformed) and its message, the action's JSON and
    the step whose position it is offered at (its rejection case:
    :meth:`Explorer._probe_case`)."""

    kind: str
    note: str
    rule: str | None
    message: str
    action: JSON
    step: int


@attrs.define
class Past:
    """What was tested after one known difference (in the games that met it)."""

    games: int = 0
    """The games (and probes) that met it."""
    diverged: int = 0
    """The games the engine's position diverged in after it."""
    tested: Counter[str] = attrs.Factory(Counter)
    """How often each rule was exercised by a checked step after it, in those games."""


@attrs.define
class Exploration:
    """The running totals of an exploration (complete after an interrupt too)."""

    games: int = 0
    steps: int = 0
    """Steps checked (the trace steps the engine was judged on)."""
    probes: int = 0
    requests: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    timed_out: bool = False
    """Whether the budget in time ended the exploration (within a game or a shrink)."""
    errored: int = 0
    load_state: bool = False
    fired: dict[str, Counter[str]] = attrs.Factory(dict)
    """By game: how often each rule was exercised by a checked step."""
    untested: dict[str, Counter[str]] = attrs.Factory(dict)
    """By game: the rules of steps left unchecked after the engine's position diverged."""
    past: dict[str, dict[str, Past]] = attrs.Factory(dict)
    """By game and known difference: what was tested after it."""
    universe: dict[str, list[str]] = attrs.Factory(dict)
    differences: dict[str, Difference] = attrs.Factory(dict)
    errors: list[dict[str, JSON]] = attrs.Factory(list)
    situations: dict[str, JSON] = attrs.Factory(dict)
    """The situations met and never met, by game and config
    (:meth:`~copa_ref.conformance.explore.planner.Director.summary`)."""

    def _reached(self, game: str) -> set[str]:
        return ({r for r, n in self.fired.get(game, Counter()).items() if n}
                | {d.rule for d in self.differences.values()
                   if d.game == game and d.rule is not None})

    def never_reached(self) -> dict[str, list[str]]:
        """By game: the rules no checked step exercised (a rule found broken was reached)."""
        return {game: [r for r in rules if r not in self._reached(game)]
                for game, rules in sorted(self.universe.items())}

    def untested_past_difference(self) -> dict[str, list[str]]:
        """By game: the rules that only steps after the engine's position diverged would
        have exercised (no checked step exercised them, none was found broken)."""
        found: dict[str, list[str]] = {}
        for game, counts in sorted(self.untested.items()):
            reached = self._reached(game)
            rules = sorted((r for r in counts if counts[r] and r not in reached), key=rule_key)
            if rules:
                found[game] = rules
        return found

    def past_difference(self) -> dict[str, dict[str, JSON]]:
        """By game and known difference: the games that met it, the games whose position
        diverged after it, and the game's rules tested and not tested by a checked step
        after it (in a game that met it)."""
        found: dict[str, dict[str, JSON]] = {}
        for game, by_key in sorted(self.past.items()):
            rules = self.universe.get(game, [])
            found[game] = {
                key: {"games": past.games, "diverged": past.diverged,
                      "tested": [r for r in rules if past.tested[r]],
                      "not_tested": [r for r in rules if not past.tested[r] and r != key]}
                for key, past in sorted(by_key.items(), key=lambda kv: rule_key(kv[0]))}
        return found

    def footer(self) -> dict[str, JSON]:
        """The last report line: the totals and the coverage."""
        return {
            "type": "explore_footer", "games": self.games, "steps": self.steps,
            "probes": self.probes, "requests": self.requests,
            "seconds": round(self.seconds, 3), "interrupted": self.interrupted,
            "timed_out": self.timed_out,
            "errored": self.errored, "errors": list(self.errors),
            "load_state": self.load_state,
            "differences": len(self.differences),
            "broken_rules": sorted(self.differences),
            "occurrences": {k: d.occurrences for k, d in sorted(self.differences.items())},
            "fired": {g: dict(sorted(c.items(), key=lambda kv: rule_key(kv[0])))
                      for g, c in sorted(self.fired.items())},
            "never_reached": self.never_reached(),
            "untested_past_difference": self.untested_past_difference(),
            "past_difference": self.past_difference(),
            "situations": self.situations,
        }


Event = Callable[[dict[str, JSON]], None]
"""Told every report line as it is made (a game, a difference)."""


class Explorer:
    """Explores the engine *runner* talks to.

    :param corpus: the corpus cases (their rules are the rules a game has, for the
        never-reached report).
    """

    def __init__(self, runner: Runner, settings: Settings, corpus: Iterable[Case] = ()) -> None:
        self.runner = runner
        self.settings = settings
        self.state = Exploration()
        self.sweeps: dict[str, list[Swept]] = {}
        self._corpus = list(corpus)
        self._by_config: dict[tuple[str, str], Counter[str]] = {}
        self._played_config: Counter[tuple[str, str]] = Counter()
        self._aimed_config: Counter[tuple[str, str]] = Counter()
        self._diverged: dict[tuple[str, str], set[str]] = {}
        """By game and config label: the known differences a game under it diverged at."""
        self._around: dict[str, list[Swept]] = {}
        """By game: the configs around a known difference (:meth:`_add_around`)."""
        self._names: list[str] | None = None
        self._deadline: float | None = None
        self._current = -1
        connect = runner.session.connect

        def capped() -> Any:  # a fresh engine's handshake waits no longer than the budget
            channel = connect()
            if self._deadline is not None and hasattr(channel, "start_timeout"):
                left = max(0.05, self._deadline - time.monotonic())
                channel.start_timeout = min(channel.start_timeout, left)
            return channel

        runner.session.connect = capped
        self._masks: dict[str, lockstep.Mask] = {}
        self._trace: Case | None = None
        """The trace case of the game under way, from its start (its probes follow it)."""
        self.director = Director(seed=settings.seed)
        """The situations met by config, and the planned games aimed at the rest."""
        """By game: the known differences (kind, rule), masked in every later step."""

    # -- set-up ---------------------------------------------------------------------------

    def _declared(self, name: str) -> Callable[[dict[str, JSON], list[str]], bool]:
        def declared(data: dict[str, JSON], options: list[str]) -> bool:
            probe = {"game": name, "config": data, "options": options, "features": []}
            return self.runner.session.skip_reason(probe) is None
        return declared

    def prepare(self) -> list[str]:
        """Start the engine; the games to explore (declared by the engine, with a record)."""
        if self._names is not None:
            return self._names
        hello = self.runner.start()
        declared: Any = hello["games"]
        names = [n for n in sorted(GAMES) if n in declared and record_of(n) is not None
                 and (not self.settings.only or n in self.settings.only)]
        for name in names:
            game = GAMES[name]
            self.sweeps[name] = sweep(game, self._declared(name), self.settings.seed)
            rules = {r for c in self._corpus if c["game"] == name for r in c["rules"]
                     if r.startswith(game.prefix + "-")}
            self.state.universe[name] = sorted(rules, key=rule_key)
            self.state.fired.setdefault(name, Counter())
        self.sweeps = {n: s for n, s in self.sweeps.items() if s}
        self.state.load_state = (self.settings.load_state
                                 and "load_state" in self.runner.session.features)
        self._names = [n for n in names if n in self.sweeps]
        return self._names

    # -- the loop ---------------------------------------------------------------------------

    def explore(self, on_line: Event | None = None,
                on_progress: Callable[[Exploration], None] | None = None) -> Exploration:
        """Play games until the budget is used (or Ctrl-C); the totals so far. Nothing the
        engine does and no failure of a game's judgment ends the run: such a game is
        errored, with its reason."""
        started = time.perf_counter()
        settings = self.settings
        if settings.seconds is not None:
            self._deadline = time.monotonic() + settings.seconds
        tell: Event = on_line or (lambda _line: None)
        try:
            names = self.prepare()
            tell(self.header(names))
            if not names:
                return self.state
            try:
                self._check_load_state(names[0], tell)
            except _OutOfTime:
                self.state.timed_out = True
                names = []
            shard, shards = settings.shard
            limit = settings.budget(len(names), self._largest())
            number = -1
            while names:
                number += 1
                if limit is not None and number >= limit:
                    break
                if self._time_up():
                    self.state.timed_out = True
                    break
                if (part_of(number, len(names), shards) != shard - 1
                        or number < settings.start):
                    continue
                try:
                    self._one_game(number, names[number % len(names)],
                                   number // len(names), tell)
                except _OutOfTime:
                    self.state.timed_out = True
                    break
                self.state.seconds = time.perf_counter() - started
                if on_progress is not None:
                    on_progress(self.state)
        except KeyboardInterrupt:
            self.state.interrupted = True
        finally:
            self.runner.close()
            self.state.requests = self.runner.requests
            self.state.seconds = time.perf_counter() - started
        self.state.situations = self.director.summary()
        tell(self.state.footer())
        return self.state

    def _largest(self) -> int:
        """The configs of the largest sweep explored."""
        return max((len(s) for s in self.sweeps.values()), default=0)

    def _time_up(self) -> bool:
        return self._deadline is not None and time.monotonic() >= self._deadline

    def header(self, names: list[str]) -> dict[str, JSON]:
        """The first report line: the engine, the seed, the budget, the configs swept."""
        hello = self.runner.session.hello or {}
        settings = self.settings
        engine = {k: hello.get(k) for k in ("name", "version", "games", "features")}
        return {"type": "explore_header", "protocol": PROTOCOL_VERSION,
                "runner": f"copa-ref {__version__}", "engine": _plain(engine),
                "seed": settings.seed, "games_budget": settings.budget(len(names), self._largest()),
                "shard": f"{settings.shard[0]}/{settings.shard[1]}",
                "settings": settings.as_json(), "explored": list(names),
                "configs": {n: [s.label for s in self.sweeps[n]] for n in names}}

    def _config(self, name: str, turn: int, rng: random.Random) -> Swept:
        """The config of the game's *turn*-th game: the sweep's in order; then, for a
        planned game, the config of the sweep with a situation left to aim at
        (:meth:`~copa_ref.conformance.explore.planner.Director.left`) that was aimed at
        least; else steered."""
        swept = self.sweeps[name]
        fired = self.state.fired[name]
        if turn < len(swept):
            return swept[turn]
        if self.settings.plan and turn % AIMED == 1:
            aimable: list[Swept] = [*swept, *self._around.get(name, ())]
            left = [s for s in aimable if self.director.left(name, s.label, s.config)]
            if left:
                # the config aimed at least so far (the sweep's order among equals): every
                # config's situations get their turn, not the first config's alone
                aimed = min(left, key=lambda s: self._aimed_config[(name, s.label)])
                self._aimed_config[(name, aimed.label)] += 1
                return aimed
        if rng.random() < FRESH:
            fresh = self._fresh_config(name, rng)
            if fresh is not None:
                return fresh
        if not self.settings.steer:
            return rng.choice(swept)
        weights = []
        for s in swept:
            rules = self._by_config.get((name, s.label), Counter())
            score = sum(1.0 / (1 + fired[r]) for r in rules) or 1.0
            weights.append(score / (1 + self._played_config[(name, s.label)]) ** 0.5)
        return rng.choices(swept, weights=weights)[0]

    def _fresh_config(self, name: str, rng: random.Random) -> Swept | None:
        """A random combination of option values (each option its default or, half the
        time, another value), played by the engine and the rules, one not played yet where
        a few tries find one; ``None`` when they find none."""
        game = GAMES[name]
        values = option_values(game)
        base: dict[str, JSON] = game.to_json(game.default_config())
        found: Swept | None = None
        for _ in range(20):
            data = {k: rng.choice(values[k][1:]) if len(values[k]) > 1 and rng.random() < 0.5
                    else base[k] for k in sorted(values)}
            playable = self._playable(name, data)
            if playable is not None:
                label = RANDOM + (",".join(playable.options) or "default")
                found = attrs.evolve(playable, label=label)
                if not self._played_config[(name, label)]:
                    return found
        return found

    def _playable(self, name: str, data: dict[str, JSON]) -> Swept | None:
        """The config *data* of the game *name*, as a config to play (its label still to
        give): ``None`` when the rules refuse it or the engine did not declare it."""
        game = GAMES[name]
        try:
            config = game.config_from_json(data)
            game.new_game(config)
        except (ValueError, RuleViolation):
            return None
        options = options_of(game, config)
        canonical: dict[str, JSON] = game.to_json(config)
        if not self._declared(name)(canonical, options):
            return None
        return Swept(config, canonical, tuple(options), game.num_players(config), "")

    def _avoid(self, name: str, label: str | None = None) -> set[str]:
        """The rules a game's moves stay away from: those found broken where a difference
        of theirs ended a game (the engine's position diverged), when the engine cannot be
        put back on the reference's position; with *label*, only those that ended a game
        under that config."""
        if self.state.load_state:
            return set()
        if label is not None:
            return set(self._diverged.get((name, label), ()))
        past = self.state.past.get(name, {})
        return {key for key, p in past.items() if p.diverged}

    def _add_around(self, name: str, swept: Swept) -> None:
        """The configs around the config *swept*, whose game diverged at a known difference:
        the config with one of its options set back to its default, each one the rules
        admit, the engine declared, and no config of the sweep or around already is. A
        difference that acts only under a combination of options (and every game under it
        diverges at) is then passed by in a config that keeps the other pairs of values:
        planned games aim at their situations as at the sweep's."""
        game = GAMES[name]
        base: dict[str, JSON] = game.to_json(game.default_config())
        around = self._around.setdefault(name, [])
        known = {canonical_json(s.data) for s in (*self.sweeps[name], *around)}
        for key in sorted(swept.data):
            if key not in base or swept.data[key] == base[key]:
                continue
            playable = self._playable(name, {**swept.data, key: base[key]})
            if playable is None or canonical_json(playable.data) in known:
                continue
            known.add(canonical_json(playable.data))
            value = base[key] if isinstance(base[key], str) else canonical_json(base[key])
            around.append(attrs.evolve(playable, label=f"{AROUND}{swept.label},{key}={value}"))

    # -- one game -----------------------------------------------------------------------------

    def _one_game(self, number: int, name: str, turn: int, tell: Event) -> None:
        """Play game *number*; whatever fails in it (short of the time running out or
        Ctrl-C) errors the game, with its reason, and the exploration goes on."""
        settings = self.settings
        rng = random.Random(f"explore/{settings.seed}/{number}")
        self.state.games += 1
        self._current = number
        try:
            swept = self._config(name, turn, rng)
            self._played_config[(name, swept.label)] += 1
            played = self._moves(name, swept, rng)
            where = f"explore-{settings.seed}-game-{number}"
            case_id = f"{name}/trace/{where}"
            description = (f"Game {number} of the exploration from seed {settings.seed}, "
                           f"{swept.label} config: {len(played.actions)} actions chosen by "
                           "the reference.")
            self._trace = None
            # The probes the game draws if the engine agrees to its end, offered along the
            # trace (drawn from a copy: the game's own draws are unchanged).
            ahead = random.Random()
            ahead.setstate(rng.getstate())
            inline = self._drawn(played, len(played.actions), ahead)
            checked, status, diverged, probed = self._check(number, swept, played, case_id,
                                                            description, tell, inline)
            if probed:
                self.state.probes += len(inline)
            else:
                self._probes_along(case_id, number, swept, played, checked, rng, where, tell)
        except (KeyboardInterrupt, _OutOfTime):
            raise
        except Exception as exc:  # a failure of explore itself: the game is errored
            reason = (f"explore failed in this game ({type(exc).__name__}: "
                      f"{printable(str(exc), 300)})")
            self._errored(f"{name}/trace/explore-{settings.seed}-game-{number}", reason)
            tell({"type": "explore_game", "number": number, "game": name,
                  "config": "?", "actions": 0, "over": False, "checked": 0,
                  "status": "errored", "reason": reason})
            return
        line: dict[str, JSON] = {
            "type": "explore_game", "number": number, "game": name,
            "config": swept.label, "actions": len(played.actions), "over": played.over,
            "checked": checked, "status": status}
        if diverged is not None:
            line["reason"] = diverged
        tell(line)

    def _probes_along(self, case_id: str, number: int, swept: Swept, played: Played,
                      checked: int, rng: random.Random, where: str, tell: Event) -> None:
        """The game's probes, with the game's own trace case lent to the runner while they
        run: a probe's case names it (``"trace"``), so the positions its prefix expects are
        read from the trace's steps, not computed again from the reference (the verdict
        checks that the trace's actions are the prefix's, else computes them)."""
        trace = self._trace
        lent = trace is not None and case_id not in self.runner.traces
        if lent:
            self.runner.traces[case_id] = trace  # type: ignore[assignment]
        try:
            self._probes(number, swept, played, checked, rng, where, tell)
        finally:
            if lent:
                del self.runner.traces[case_id]

    def _planned(self, name: str, swept: Swept) -> Played | None:
        """A planned game: a sequence searched on the reference that meets a situation not
        yet met under the config (:class:`~copa_ref.conformance.explore.planner.Director`),
        then random moves to the end, both away from the rules found broken (as
        :meth:`_avoid` says); ``None`` when this game is not planned (a game of the sweep,
        or one under a random combination, played in passing) or no plan is found. Drawn
        from its own stream, so the game's other draws are unchanged."""
        turn = self._current // len(self._names or [name])
        if turn < len(self.sweeps[name]) or swept.label.startswith(RANDOM):
            return None
        avoid = self._avoid(name)
        found = self.director.next_plan(name, swept.label, swept.config, self._deadline,
                                        self.settings.max_steps, avoid,
                                        self._avoid(name, swept.label))
        if found is None:
            return None
        choice = random.Random(f"explore-plan/{self.settings.seed}/{self._current}")
        actions, states = continued(found, choice, self.settings.max_steps, avoid)
        game = found.game
        tags = tuple(step_rules(game, states[i], action, states[i + 1])
                     for i, action in enumerate(actions))
        return Played(game, swept.config, actions, states, tags)

    def _moves(self, name: str, swept: Swept, rng: random.Random) -> Played:
        """The game's sequence of moves (every seat's and every chance outcome), chosen by
        the reference: the one place where a game's moves are chosen (today steered
        towards the rules exercised least, away from the differences that end games)."""
        if self.settings.plan:
            planned = self._planned(name, swept)
            if planned is not None:
                return planned
        seen = Counter(self.state.fired[name]) if self.settings.steer else None
        played = play(GAMES[name], swept.config, rng, self.settings.max_steps, seen=seen,
                      avoid=self._avoid(name), deadline=self._deadline)
        if self._time_up():
            raise _OutOfTime
        return played

    def _errored(self, case_id: str, reason: str | None) -> None:
        self.state.errored += 1
        self.state.errors.append({"case": case_id, "reason": reason or "(no reason given)"})

    def _mask(self, name: str) -> lockstep.Mask:
        return self._masks.setdefault(name, {})

    def _check(self, number: int, swept: Swept, played: Played, case_id: str,
               description: str, tell: Event,
               inline: Sequence[Probe] = ()
               ) -> tuple[int, str, str | None, bool]:
        """Judge the game in lockstep (:mod:`~copa_ref.conformance.explore.lockstep`): the
        positions checked in step from its start, the game's status (``passed``,
        ``failed``, ``diverged``, ``errored``), why it ended early (``None``: it did
        not), and whether the *inline* probes were judged along it.

        The probes are offered along the trace (:meth:`CaseRun.probe`), under a copy of the
        masks; that judgment stands when the game passes to its end with no new difference
        and every probe passes (the checks of their rejection cases, on the positions the
        trace just checked). Otherwise the game is judged again without them, and the
        probes each as its own rejection case."""
        name = played.game.name
        fired = self.state.fired[name]
        by_config = self._by_config.setdefault((name, swept.label), Counter())
        past = self.state.past.setdefault(name, {})
        mask = self._mask(name)
        start = 0
        status = "passed"
        agreed: int | None = None
        diverged: str | None = None
        met_here: dict[str, int] = {}
        """The known differences met in this game: the step where first met."""
        detours = counted = 0
        """Detours taken (the game played again, another move where the engine refused
        the reference's), and the steps already counted before the last one."""
        diverged_after: set[str] = set()
        probed = False
        while True:
            named = case_id if not detours else f"{case_id}-detour-{detours}"
            case = trace_case(played, named if not start else f"{named}-from-{start}",
                              description, start)
            if not start and not detours:
                self._trace = case
            lock = None
            if not start and not detours and inline:
                probes: list[JSON] = [{"step": p.step, "action": p.action, "rule": p.rule}
                                      for p in inline]
                lock = lockstep.run(self.runner, {**case, "probes": probes}, dict(mask),
                                    self._deadline)
                probed = (lock.status == "passed" and lock.diverged is None and not lock.new
                          and lock.checked == len(played.actions))
                if not probed:
                    lock = None
            if lock is None:
                lock = lockstep.run(self.runner, case, mask, self._deadline)
            end = start + lock.checked
            if agreed is None:
                agreed = end
            for met in lock.met:
                key = met.rule or f"{name}:(no rule)"
                met_here.setdefault(key, start + met.step)
            fresh = max(start, counted)
            for i in range(fresh, end):  # step i+1 (its position) was checked
                tags = played.tags[i]
                fired.update(tags)
                by_config.update(tags)
                for key, first in met_here.items():
                    if i + 1 > first:
                        past.setdefault(key, Past()).tested.update(tags)
            for met in lock.met:  # a broken rule met after a known difference was tested
                for key, first in met_here.items():
                    if met.rule is not None and start + met.step > first:
                        past.setdefault(key, Past()).tested[met.rule] += 1
            self.director.record(name, swept.label, played.states[fresh:end + 1],
                                 played.actions[fresh:end], played.tags[fresh:end],
                                 swept.config)
            self.state.steps += max(0, end - fresh)
            for met in lock.new:
                self._difference(number, swept, played, case, met, start, tell)
            if lock.new:
                status = "failed"
            if lock.status == "timeout":
                self._count(name, met_here, past)
                raise _OutOfTime
            if lock.status == "errored":
                self._errored(case["id"], lock.reason)
                self._untested(played, end)
                status = "errored"
                break
            if lock.diverged is None:
                break
            diverged = lock.diverged
            if status == "passed":
                status = "diverged"
            for key in set(met_here) - diverged_after:
                past.setdefault(key, Past()).diverged += 1
            if met_here:
                first = (name, swept.label) not in self._diverged
                self._diverged.setdefault((name, swept.label), set()).update(met_here)
                if first and self.settings.plan and not swept.label.startswith(
                        (RANDOM, AROUND)):
                    self._add_around(name, swept)
            diverged_after |= set(met_here)
            if not self.state.load_state:
                detour = self._detour(number, played, lock, end, detours)
                if detour is None:
                    self._untested(played, end)
                    break
                # the same game again, another move where the engine refused the
                # reference's (one its listing holds), and on from there
                played, counted, detours = detour, max(counted, end), detours + 1
                continue
            # from the reference's own position after the step where it diverged
            start = end + 1
            if start >= len(played.actions):
                break
        self._count(name, met_here, past)
        return agreed or 0, status, diverged, probed

    def _detour(self, number: int, played: Played, lock: lockstep.Lockstep, at: int,
                taken: int) -> Played | None:
        """The game played again to step *at*, then another move where the engine refused
        the reference's (a move the engine listed there and the reference allows; where
        there is none, another move at the last choice before it), then random moves: the
        path around the known difference, without ``load_state``.
        ``None``: no detour (the engine listed nothing else, the node is not a seat's, or
        :data:`DETOURS` were taken)."""
        if taken >= DETOURS or not lock.listed or at >= len(played.actions):
            return None
        game = played.game
        rng = random.Random(f"explore-detour/{self.settings.seed}/{number}/{taken}")

        def others(at: int, listed: set[str] | None) -> list[Any]:
            state = played.states[at]
            if game.to_move(state).kind in (MoverKind.CHANCE, MoverKind.JOINT):
                return []
            refused = canonical_json(_plain(game.to_json(played.actions[at])))
            return [a for a in game.legal_actions(state, None)
                    if (text := canonical_json(_plain(game.to_json(a)))) != refused
                    and (listed is None or text in listed)]

        options = others(at, {canonical_json(a) for a in lock.listed})
        while not options and at > 0:
            # nothing the engine takes there: another move at the last choice before it
            at -= 1
            options = others(at, None)
        if not options:
            return None
        state = played.states[at]
        action = rng.choice(options)
        start = Plan(game=game, config=played.config, situation="detour",
                     actions=(*played.actions[:at], action),
                     states=(*played.states[:at + 1], game.apply(state, action)))
        actions, states = continued(start, rng, self.settings.max_steps,
                                    self._avoid(game.name))
        tags = (*played.tags[:at], *(step_rules(game, states[i], actions[i], states[i + 1])
                                     for i in range(at, len(actions))))
        return Played(game, played.config, actions, states, tags)

    def _count(self, name: str, met_here: dict[str, int], past: dict[str, Past]) -> None:
        """Count each known difference the game met (once a game)."""
        for key in met_here:
            past.setdefault(key, Past()).games += 1
            known = self.state.differences.get(key)
            if known is not None and known.found.get("game") != self._current:
                known.occurrences += 1

    def _untested(self, played: Played, start: int) -> None:
        counter = self.state.untested.setdefault(played.game.name, Counter())
        for tags in played.tags[start:]:
            counter.update(tags)

    # -- a difference ------------------------------------------------------------------------

    def _judge_for(self, name: str, rule: str | None) -> Callable[[Case], CaseResult]:
        """The verdict a shrink asks for: the case in lockstep, every known difference but
        *rule*'s masked, failed where *rule* is met."""
        def judge(case: Case) -> CaseResult:
            mask = {k: v for k, v in self._mask(name).items() if k[1] != rule}
            lock = lockstep.run(self.runner, case, mask, self._deadline)
            if lock.status == "timeout":
                raise _OutOfTime
            for met in lock.met:
                if met.rule == rule:
                    return lockstep.result_of(case, met)
            first = lock.new[0] if lock.new else None
            return lockstep.result_of(case, first, "passed" if first is None else "failed",
                                      lock.reason)
        return judge

    def _difference(self, number: int, swept: Swept, played: Played, case: Case,
                    met: lockstep.Met, start: int, tell: Event) -> None:
        name = played.game.name
        key = met.rule or f"{name}:(no rule)"
        known = self.state.differences.get(key)
        if known is not None:  # the same rule, another kind of difference: counted
            return
        result = lockstep.result_of(case, met)
        declared = self._declared(name)
        game = played.game

        def plays(config: Any) -> bool:
            return declared(game.to_json(config), options_of(game, config))

        seed = f"{self.settings.seed}/{number}/{key}"
        slug = key.lower().replace(":", "-").replace("(", "").replace(")", "").replace(" ", "-")
        judge = self._judge_for(name, met.rule)
        note: str | None = None
        try:
            if start:
                # From a loaded position the game before it is the reference's: the
                # minimal case is the step from that position, shrunk no further.
                at = result.step or 0
                short = trace_case(played, f"{name}/trace/explore-minimal-{slug}",
                                   "A minimal case found by explore, from the reference's "
                                   f"own position after {start} actions.", start, start + at)
                again = judge(short)
                shrunk = (Shrunk(short, again, 1, len(played.actions), swept.players)
                          if again.status == "failed" and again.broken_rule == met.rule
                          else Shrunk(case, result, 1, len(played.actions), swept.players))
            else:
                shrunk = shrink_trace(judge, played, case, result,
                                      tries=self.settings.shrink_tries, seed=seed,
                                      make_id=lambda _note: f"{name}/trace/explore-minimal-{slug}",
                                      declared=plays, deadline=self._deadline)
        except _OutOfTime:
            note = "the exploration's time ran out during the shrink"
            shrunk = Shrunk(case, result, 0, len(played.actions), swept.players)
        except Exception as exc:  # a failure of the shrink: the unshrunk case stands
            note = (f"the shrink failed ({type(exc).__name__}: {printable(str(exc), 200)}): "
                    "the case is the unshrunk game")
            shrunk = Shrunk(case, result, 0, len(played.actions), swept.players)
        if note is not None:
            shrunk = attrs.evolve(shrunk, note=note)
        self._keep(key, name, "trace", shrunk, {"game": number, "config": swept.label,
                                                "step": start + (met.step or 0)}, tell)
        if note is not None and self._time_up():
            raise _OutOfTime

    def _keep(self, key: str, name: str, kind: str, shrunk: Shrunk, found: dict[str, JSON],
              tell: Event) -> None:
        case = dict(shrunk.case)
        case["description"] = (case["description"] + f" The engine breaks "
                               f"{shrunk.result.broken_rule or 'a rule no verdict names'}.")
        game = GAMES[name]
        config = game.config_from_json(case["config"])
        shrink: dict[str, JSON] = {
            "tries": shrunk.tries, "steps_before": shrunk.steps_before,
            "steps_after": len(case["steps"]) if kind == "trace" else len(case["prefix"]),
            "players_before": shrunk.players_before,
            "players_after": game.num_players(config),
            "options_after": list(case["options"])}
        if shrunk.note is not None:
            shrink["note"] = shrunk.note
        difference = Difference(
            rule=shrunk.result.broken_rule, game=name, kind=kind, case=case,
            result=shrunk.result, found=found, shrink=shrink)
        self.state.differences[key] = difference
        if found.get("game") is not None:
            self.state.past.setdefault(name, {}).setdefault(key, Past())
        tell(difference.as_json())
        if shrunk.interrupted:  # Ctrl-C during the shrink: the exploration ends here
            raise KeyboardInterrupt
        if shrunk.note is not None and self._time_up():
            raise _OutOfTime

    # -- load_state ---------------------------------------------------------------------------

    def _check_load_state(self, name: str, tell: Event) -> None:
        """With ``load_state`` in use, check once that the engine takes a position it is
        given: a reference position (after a few seeded moves) loaded, then its
        observables compared. An engine that answers ok but does not take the position is
        reported once under P-13 (the protocol), and the exploration goes on in lockstep
        without ``load_state``."""
        if not self.state.load_state:
            return
        game = GAMES[name]
        swept = self.sweeps[name][0]
        rng = random.Random(f"explore/{self.settings.seed}/load_state")
        played = play(game, swept.config, rng, 12)
        initial = observables(game, played.states[0])
        at = next((i for i in range(len(played.actions), 0, -1)
                   if observables(game, played.states[i]) != initial), 0)
        if not at:
            return
        case = trace_case(played, f"{name}/trace/explore-load-state",
                          f"A position after {at} moves of a seeded reference game, given "
                          "to the engine with load_state.", at, at)
        self.runner.start()
        lockstep.cap(self.runner.session.channel, self._deadline)
        result = self.runner.run_case(case)
        if self._time_up():
            raise _OutOfTime
        if result.status == "passed":
            return
        shown = [line for line in (result.diff or "").splitlines()
                 if not line.startswith(("legal", "explanation:", "rule:"))]
        if result.status == "failed" and not shown:
            return  # the position was taken; its legal actions differ (a rule's bug)
        self.state.load_state = False
        if result.status != "failed":
            self._errored(case["id"], result.reason)
            return
        liar = attrs.evolve(
            result, broken_rule="P-13",
            reason="load_state answered ok but the engine's position is not the one given "
                   f"({result.reason})",
            explanation="the engine does not take a position given with load_state")
        shrunk = Shrunk(case, liar, 1, at, swept.players)
        self._keep("P-13", name, "trace", shrunk,
                   {"game": -1, "config": swept.label, "step": 0}, tell)

    # -- refused-action probes ----------------------------------------------------------------

    def _drawn(self, played: Played, agreed: int, rng: random.Random) -> list[Probe]:
        """The game's probes: random illegal and malformed actions at random positions the
        engine agreed on."""
        game = played.game
        record = record_of(game.name)
        pool: dict[str, JSON] = {}
        strings: dict[str, list[str]] = {}
        for action in played.actions:
            _remember(pool, strings, _plain(game.to_json(action)))
        drawn: list[Probe] = []
        for _ in range(self.settings.probes):
            ply = rng.randrange(agreed + 1)
            state = played.states[ply]
            candidates = list(_mutations(game, state, rng, pool, strings))
            if record is not None and record.candidates is not None:
                candidates += list(record.candidates(game, state))
            rng.shuffle(candidates)
            for kind, note, data in candidates:
                found = refused(game, state, kind, data)
                if found is None:
                    continue
                rule, message = found
                drawn.append(Probe(kind, note, rule, message, _plain(data), ply))
                break
        return drawn

    def _probe_case(self, probe: Probe, swept: Swept, played: Played, where: str) -> Case:
        """The rejection case of *probe*."""
        return _rejection(played.game, probe.rule, probe.message, probe.kind, probe.note,
                          probe.action, where, where, swept.config, self.settings.seed,
                          list(played.actions[:probe.step]), played.states[probe.step])

    def _probes(self, number: int, swept: Swept, played: Played, agreed: int,
                rng: random.Random, where: str, tell: Event) -> None:
        """Random illegal and malformed actions at random positions the engine agreed on
        (known differences masked), each judged as a rejection case in lockstep."""
        game = played.game
        for probe in self._drawn(played, agreed, rng):
            kind, note = probe.kind, probe.note
            case = self._probe_case(probe, swept, played, where)
            self.state.probes += 1
            mask = self._mask(game.name)
            lock = lockstep.run(self.runner, case, mask, self._deadline)
            if lock.status == "timeout":
                raise _OutOfTime
            if lock.status == "errored":
                self._errored(case["id"], lock.reason)
            for met in lock.met:
                key = met.rule or f"{game.name}:(no rule)"
                known = self.state.differences.get(key)
                if not met.new:
                    if known is not None and met.kind == "rejection":
                        known.occurrences += 1
                    continue
                if met.kind == "rejection":
                    self._probe_difference(number, swept, played, case, met, kind,
                                           note, where, tell)
                elif known is None:
                    self._keep(key, game.name, "rejection",
                               Shrunk(case, lockstep.result_of(case, met), 0,
                                      len(case["prefix"]), swept.players),
                               {"game": number, "config": swept.label,
                                "step": met.step}, tell)

    def _probe_difference(self, number: int, swept: Swept, played: Played, case: Case,
                          met: lockstep.Met, kind: str, note: str, where: str,
                          tell: Event) -> None:
        name = played.game.name
        key = met.rule or f"{name}:(no rule)"
        known = self.state.differences.get(key)
        if known is not None:
            known.occurrences += 1
            return
        result = lockstep.result_of(case, met)
        failed: str | None = None
        try:
            shrunk = shrink_rejection(self._judge_for(name, met.rule), played, case, result,
                                      tries=min(6, self.settings.shrink_tries), kind=kind,
                                      note=note, where=where, deadline=self._deadline)
        except _OutOfTime:
            failed = "the exploration's time ran out during the shrink"
        except Exception as exc:  # a failure of the shrink: the unshrunk case stands
            failed = (f"the shrink failed ({type(exc).__name__}: {printable(str(exc), 200)}):"
                      " the case is the unshrunk probe")
        if failed is not None:
            shrunk = Shrunk(case, result, 0, len(case["prefix"]), swept.players, note=failed)
        self._keep(key, name, "rejection", shrunk,
                   {"game": number, "config": swept.label, "step": len(case["prefix"])}, tell)


class _OutOfTime(Exception):
    """The exploration's budget in time is spent (in the middle of a game or a shrink)."""
