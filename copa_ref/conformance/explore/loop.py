"""The exploration loop: seeded reference games against an engine, each step checked as a
trace checks it, refused-action probes along them, every difference shrunk and named once.

Game number *i* of an exploration (from 0) is played from ``random.Random("explore/SEED/i")``:
its game (the engine's declared games in turn), its config (every config of the sweep once,
in order, by the game's number; then half of the games under a fresh random combination of
option values, the others under a config of the sweep steered towards the configs whose
games exercised the rules seen least), its moves
(:func:`~copa_ref.conformance.explore.play.play`) and its probes. The game is judged as a
trace case of the corpus (:meth:`Runner.run_case`), so a step is checked exactly as a trace
checks it and a difference is named by the runner's own naming.

A difference ends what a trace can say about the rest of its game. With the engine feature
``load_state`` the exploration goes on from the reference's own position after the
differing step (a trace case that starts there), so one difference never hides the next.
Without it, later games steer away from the rules already found broken, and the rules the
untested rest of a game would have exercised are reported as not tested past a known
difference (when no tested step exercised them).

``shard=(K, N)`` plays only the games whose number is K-1 modulo N (for a CI matrix: every
part's report merges with ``copa-ref conformance merge``). Everything depends only on the
seed, the shard, the engine's answers and the budget in games: the same seed plays the same
games and writes the same report (timings aside).

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
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from copa_ref import __version__
from copa_ref.conformance.corpus import Case
from copa_ref.conformance.explore.configs import Swept, option_values, sweep
from copa_ref.conformance.explore.play import Played, play, rule_key, trace_case
from copa_ref.conformance.explore.shrink import Shrunk, shrink_rejection, shrink_trace
from copa_ref.conformance.generate import _mutations, _plain, _rejection, _remember
from copa_ref.conformance.observables import PROTOCOL_VERSION, options_of
from copa_ref.conformance.registry import record_of
from copa_ref.conformance.runner import CaseResult, Runner
from copa_ref.core import JSON, RuleViolation
from copa_ref.games import GAMES

__all__ = ["Difference", "Exploration", "Explorer", "Settings"]


FRESH = 0.5
"""After the sweep, the share of games played under a fresh random combination of option
values (the others under a config of the sweep, steered)."""


@attrs.frozen(kw_only=True)
class Settings:
    """What an exploration plays and how long."""

    games: int | None = 100
    """Stop after this many games (``None``: no limit in games)."""
    seconds: float | None = None
    """Stop after this many seconds (between games; ``None``: no limit in time)."""
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
    """``(K, N)``: play only the games numbered K-1 modulo N."""
    load_state: bool = True
    """Use the engine's ``load_state`` when it declares it."""

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
    errored: int = 0
    load_state: bool = False
    fired: dict[str, Counter[str]] = attrs.Factory(dict)
    """By game: how often each rule was exercised by a checked step."""
    untested: dict[str, Counter[str]] = attrs.Factory(dict)
    """By game: the rules of steps left unchecked after a difference."""
    universe: dict[str, list[str]] = attrs.Factory(dict)
    differences: dict[str, Difference] = attrs.Factory(dict)
    errors: list[dict[str, JSON]] = attrs.Factory(list)

    def never_reached(self) -> dict[str, list[str]]:
        """By game: the rules no checked step exercised."""
        return {game: [r for r in rules if not self.fired.get(game, Counter())[r]]
                for game, rules in sorted(self.universe.items())}

    def untested_past_difference(self) -> dict[str, list[str]]:
        """By game: the rules only steps after a known difference would have exercised."""
        return {game: sorted((r for r in counts if not self.fired.get(game, Counter())[r]),
                             key=rule_key)
                for game, counts in sorted(self.untested.items())
                if any(not self.fired.get(game, Counter())[r] for r in counts)}

    def footer(self) -> dict[str, JSON]:
        """The last report line: the totals and the coverage."""
        return {
            "type": "explore_footer", "games": self.games, "steps": self.steps,
            "probes": self.probes, "requests": self.requests,
            "seconds": round(self.seconds, 3), "interrupted": self.interrupted,
            "errored": self.errored, "load_state": self.load_state,
            "differences": len(self.differences),
            "broken_rules": sorted(self.differences),
            "fired": {g: dict(sorted(c.items(), key=lambda kv: rule_key(kv[0])))
                      for g, c in sorted(self.fired.items())},
            "never_reached": self.never_reached(),
            "untested_past_difference": self.untested_past_difference(),
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
        self._names: list[str] | None = None

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
        """Play games until the budget is used (or Ctrl-C); the totals so far."""
        started = time.perf_counter()
        settings = self.settings
        tell: Event = on_line or (lambda _line: None)
        try:
            names = self.prepare()
            tell(self.header(names))
            if not names:
                return self.state
            shard, shards = settings.shard
            number = -1
            while True:
                number += 1
                if settings.games is not None and number >= settings.games:
                    break
                if settings.seconds is not None and (
                        time.perf_counter() - started >= settings.seconds):
                    break
                if number % shards != shard - 1:
                    continue
                self._one_game(number, names[number % len(names)], number // len(names),
                               tell)
                self.state.seconds = time.perf_counter() - started
                if on_progress is not None:
                    on_progress(self.state)
        except KeyboardInterrupt:
            self.state.interrupted = True
        finally:
            self.runner.close()
            self.state.requests = self.runner.requests
            self.state.seconds = time.perf_counter() - started
        tell(self.state.footer())
        return self.state

    def header(self, names: list[str]) -> dict[str, JSON]:
        """The first report line: the engine, the seed, the budget, the configs swept."""
        hello = self.runner.session.hello or {}
        settings = self.settings
        engine = {k: hello.get(k) for k in ("name", "version", "games", "features")}
        return {"type": "explore_header", "protocol": PROTOCOL_VERSION,
                "runner": f"copa-ref {__version__}", "engine": _plain(engine),
                "seed": settings.seed, "games_budget": settings.games,
                "shard": f"{settings.shard[0]}/{settings.shard[1]}",
                "settings": settings.as_json(), "explored": list(names),
                "configs": {n: [s.label for s in self.sweeps[n]] for n in names}}

    def _config(self, name: str, turn: int, rng: random.Random) -> Swept:
        """The config of the game's *turn*-th game: the sweep's in order, then steered."""
        swept = self.sweeps[name]
        fired = self.state.fired[name]
        if turn < len(swept):
            return swept[turn]
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
            try:
                config = game.config_from_json(data)
                game.new_game(config)
            except (ValueError, RuleViolation):
                continue
            options = options_of(game, config)
            canonical: dict[str, JSON] = game.to_json(config)
            if self._declared(name)(canonical, options):
                label = "random:" + (",".join(options) or "default")
                found = Swept(config, canonical, tuple(options), game.num_players(config),
                              label)
                if not self._played_config[(name, label)]:
                    return found
        return found

    def _avoid(self, name: str) -> set[str]:
        if self.state.load_state:
            return set()
        return {d.rule for d in self.state.differences.values()
                if d.rule is not None and d.game == name}

    def _one_game(self, number: int, name: str, turn: int, tell: Event) -> None:
        game = GAMES[name]
        settings = self.settings
        rng = random.Random(f"explore/{settings.seed}/{number}")
        swept = self._config(name, turn, rng)
        self._played_config[(name, swept.label)] += 1
        seen = Counter(self.state.fired[name]) if settings.steer else None
        played = play(game, swept.config, rng, settings.max_steps, seen=seen,
                      avoid=self._avoid(name))
        self.state.games += 1
        where = f"explore-{settings.seed}-game-{number}"
        case_id = f"{name}/trace/{where}"
        description = (f"Game {number} of the exploration from seed {settings.seed}, "
                       f"{swept.label} config: {len(played.actions)} actions chosen by the "
                       "reference.")
        checked, statuses = self._check(number, swept, played, case_id, description, tell)
        self._probes(number, swept, played, checked, rng, where, tell)
        tell({"type": "explore_game", "number": number, "game": name,
              "config": swept.label, "actions": len(played.actions),
              "over": played.over, "checked": checked, "status": statuses})

    def _check(self, number: int, swept: Swept, played: Played, case_id: str,
               description: str, tell: Event) -> tuple[int, str]:
        """Judge the game as traces; the steps checked before a difference stops it and the
        game's status (``passed``, ``failed``, ``errored``)."""
        name = played.game.name
        fired = self.state.fired[name]
        by_config = self._by_config.setdefault((name, swept.label), Counter())
        start = 0
        status = "passed"
        agreed = len(played.actions)
        while True:
            case = trace_case(played, case_id if not start else f"{case_id}-from-{start}",
                              description, start)
            result = self.runner.run_case(case)
            end = len(played.actions)
            if result.status == "failed" and result.step is not None:
                end = start + result.step
            elif result.status != "passed":
                end = start
            for tags in played.tags[start:end]:
                fired.update(tags)
                by_config.update(tags)
            self.state.steps += end - start
            if result.status == "passed":
                break
            if result.status == "errored" or result.step is None:
                self.state.errored += 1
                status = "errored"
                self.state.errors.append({"case": case["id"], "reason": result.reason})
                agreed = min(agreed, end)
                self._untested(played, start)
                break
            status = "failed"
            agreed = min(agreed, end - 1 if end > start else start)
            self._difference(number, swept, played, case, result, start, tell)
            if not self.state.load_state:
                self._untested(played, end)
                break
            start = end if end > start else start + 1
            if start >= len(played.actions):
                break
        return agreed, status

    def _untested(self, played: Played, start: int) -> None:
        counter = self.state.untested.setdefault(played.game.name, Counter())
        for tags in played.tags[start:]:
            counter.update(tags)

    def _difference(self, number: int, swept: Swept, played: Played, case: Case,
                    result: CaseResult, start: int, tell: Event) -> None:
        name = played.game.name
        key = result.broken_rule or f"{name}:(no rule)"
        known = self.state.differences.get(key)
        if known is not None:
            known.occurrences += 1
            return
        declared = self._declared(name)
        game = played.game

        def plays(config: Any) -> bool:
            from copa_ref.conformance.observables import options_of
            return declared(game.to_json(config), options_of(game, config))

        seed = f"{self.settings.seed}/{number}/{key}"
        slug = key.lower().replace(":", "-").replace("(", "").replace(")", "").replace(" ", "-")
        if start:
            # From a loaded position the game before it is the reference's: the minimal
            # case is the step from that position, shrunk no further than its prefix.
            at = result.step or 0
            short = trace_case(played, f"{name}/trace/explore-minimal-{slug}",
                               "A minimal case found by explore, from the reference's own "
                               f"position after {start} actions.", start, start + at)
            again = self.runner.run_case(short)
            shrunk = (Shrunk(short, again, 1, len(played.actions), swept.players)
                      if again.status == "failed" and again.broken_rule == result.broken_rule
                      else Shrunk(case, result, 1, len(played.actions), swept.players))
        else:
            shrunk = shrink_trace(self.runner.run_case, played, case, result,
                                  tries=self.settings.shrink_tries, seed=seed,
                                  make_id=lambda note: f"{name}/trace/explore-minimal-{slug}",
                                  declared=plays)
        self._keep(key, name, "trace", shrunk, {"game": number, "config": swept.label,
                                                "step": start + (result.step or 0)}, tell)

    def _keep(self, key: str, name: str, kind: str, shrunk: Shrunk, found: dict[str, JSON],
              tell: Event) -> None:
        case = dict(shrunk.case)
        case["description"] = (case["description"] + f" The engine breaks "
                               f"{shrunk.result.broken_rule or 'a rule no verdict names'}.")
        game = GAMES[name]
        config = game.config_from_json(case["config"])
        difference = Difference(
            rule=shrunk.result.broken_rule, game=name, kind=kind, case=case,
            result=shrunk.result, found=found,
            shrink={"tries": shrunk.tries, "steps_before": shrunk.steps_before,
                    "steps_after": len(case["steps"]) if kind == "trace" else len(
                        case["prefix"]),
                    "players_before": shrunk.players_before,
                    "players_after": game.num_players(config),
                    "options_after": list(case["options"])})
        self.state.differences[key] = difference
        tell(difference.as_json())
        if shrunk.interrupted:  # Ctrl-C during the shrink: the exploration ends here
            raise KeyboardInterrupt

    # -- refused-action probes ----------------------------------------------------------------

    def _probes(self, number: int, swept: Swept, played: Played, agreed: int,
                rng: random.Random, where: str, tell: Event) -> None:
        """Random illegal and malformed actions at random positions the engine agreed on,
        each judged as a rejection case."""
        game = played.game
        record = record_of(game.name)
        pool: dict[str, JSON] = {}
        strings: dict[str, list[str]] = {}
        for action in played.actions:
            _remember(pool, strings, _plain(game.to_json(action)))
        for _ in range(self.settings.probes):
            ply = rng.randrange(agreed + 1)
            state = played.states[ply]
            candidates = list(_mutations(game, state, rng, pool, strings))
            if record is not None and record.candidates is not None:
                candidates += list(record.candidates(game, state))
            rng.shuffle(candidates)
            for kind, note, data in candidates:
                rule: str | None
                try:
                    action = game.action_from_json(data)
                except ValueError as exc:
                    if kind != "malformed":
                        continue
                    rule, message = None, str(exc)
                else:
                    if kind == "malformed":
                        continue
                    try:
                        game.apply(state, action)
                    except RuleViolation as exc:
                        rule, message = exc.rule, exc.message
                    except (ValueError, TypeError):
                        continue
                    else:
                        continue
                    if rule is not None and self._avoid(game.name) & {rule}:
                        continue
                case = _rejection(game, rule, message, kind, note, data, where, where,
                                  swept.config, self.settings.seed,
                                  list(played.actions[:ply]), state)
                self.state.probes += 1
                result = self.runner.run_case(case)
                if result.status == "failed":
                    self._probe_difference(number, swept, played, case, result, kind, note,
                                           where, tell)
                elif result.status == "errored":
                    self.state.errored += 1
                    self.state.errors.append({"case": case["id"], "reason": result.reason})
                break

    def _probe_difference(self, number: int, swept: Swept, played: Played, case: Case,
                          result: CaseResult, kind: str, note: str, where: str,
                          tell: Event) -> None:
        name = played.game.name
        key = result.broken_rule or f"{name}:(no rule)"
        known = self.state.differences.get(key)
        if known is not None:
            known.occurrences += 1
            return
        shrunk = shrink_rejection(self.runner.run_case, played, case, result,
                                  tries=min(6, self.settings.shrink_tries), kind=kind,
                                  note=note, where=where)
        self._keep(key, name, "rejection", shrunk,
                   {"game": number, "config": swept.label, "step": len(case["prefix"])}, tell)
