"""The corpus generator: every case computed from the reference, deterministically.

``copa-ref conformance generate`` writes ``conformance/VERSION`` and
``conformance/cases/<game>/{traces,rejections,counts}.json``. All randomness comes from
``random.Random(seed)`` with fixed seeds, so the same reference always writes the same bytes
(a test regenerates the corpus and compares).

What is generic here: whole random games as traces; traces ending at the first step where a
scenario's predicate holds; perft-style counts; and rejections found by trying mutations of
legal actions along random games (another seat, an action of a type that belongs to another
phase, a field changed by one, a list cut or lengthened, a string swapped for one seen
elsewhere), each kept with the rule the reference names when it refuses it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from copa_ref.conformance.cases import (
    base_case,
    mutations,
    plain,
    refused,
    rejection_case,
    remember,
)
from copa_ref.conformance.corpus import checkout_corpus
from copa_ref.conformance.observables import (
    CORPUS_VERSION,
    observables,
    options_of,
)
from copa_ref.conformance.registry import record_of
from copa_ref.conformance.schemas import write_rule_patterns
from copa_ref.conformance.vocabulary import AnyRecord, CountSpec, Scenario
from copa_ref.conformance.writer import corpus_file
from copa_ref.core import JSON, MoverKind, RuleViolation, canonical_json
from copa_ref.games import GAMES

__all__ = ["KINDS", "generate", "generate_game", "write_corpus"]

KINDS = ("trace", "rejection", "count", "config")
Progress = Callable[[str, int, int], None]
"""``progress(game, number, of)``: told before each game is generated."""
MAX_STEPS = 5000
"""A random game longer than this is a bug in the reference."""

Case = dict[str, JSON]


def _play(game: Any, config: Any, seed: int, fires: Any = None,
          extra: int = 0, policy: Any = None) -> tuple[list[Any], list[Any]] | None:
    """A random game from *seed*: its actions and states (``states[i]`` before action i).

    With *fires*: cut *extra* steps after the first step where it holds (``None`` if it
    never does)."""
    rng = random.Random(seed)
    state = game.new_game(config)
    states: list[Any] = [state]
    actions: list[Any] = []
    left = None
    while not game.to_move(state).is_over and len(actions) < MAX_STEPS:
        action = None if policy is None else policy(game, state, rng)
        if action is None:
            action = game.random_action(state, rng)
        after = game.apply(state, action)
        # The corpus is only written from a reference that keeps its own invariants.
        game.check_invariants(state, action, after)
        game.check_state(after)
        if fires is not None and left is None and fires(state, action, after, tuple(actions)):
            left = extra
        actions.append(action)
        states.append(after)
        state = after
        if left is not None:
            if left == 0:
                return actions, states
            left -= 1
    if fires is not None and left is None:
        return None
    if len(actions) >= MAX_STEPS:
        msg = f"{game.name}: a random game from seed {seed} exceeds {MAX_STEPS} steps"
        raise RuntimeError(msg)
    return actions, states


def _events(game: Any, sc: AnyRecord, actions: list[Any], states: list[Any]) -> set[str]:
    rules = set(sc.whole_game_rules) if states and game.to_move(states[-1]).is_over else set()
    if sc.events is not None:
        for i, action in enumerate(actions):
            rules |= sc.events(states[i], action, states[i + 1])
    result = game.outcome(states[-1])
    if result is not None and result.rule:
        rules.add(result.rule)
    return rules


def _trace(game: Any, slug: str, description: str, rules: set[str], config: Any,
           actions: list[Any], states: list[Any]) -> Case:
    case = base_case(game, "trace", slug, description, rules, config)
    case["initial"] = plain(observables(game, states[0]))
    case["steps"] = [
        {"action": plain(game.to_json(a)), "expect": plain(observables(game, s))}
        for a, s in zip(actions, states[1:], strict=True)
    ]
    return case


def _random_traces(game: Any, sc: AnyRecord) -> Iterator[Case]:
    for batch in sc.random_games:
        for seed in batch.seeds:
            played = _play(game, batch.config, seed)
            assert played is not None
            actions, states = played
            rules = _events(game, sc, actions, states)
            description = (f"A whole game between random players, seed {seed} of "
                           f"random.Random, {batch.slug} config: {len(actions)} actions "
                           f"to the end ({game.outcome(states[-1])}).")
            yield _trace(game, f"random-{batch.slug}-seed-{seed}", description, rules,
                         batch.config, actions, states)


def _find(game: Any, spec: Scenario[Any, Any, Any, Any] | CountSpec[Any, Any, Any],
          extra: int = 0
          ) -> tuple[int, list[Any], list[Any]]:
    for seed in spec.seeds:
        found = _play(game, spec.config, seed, spec.fires, extra,
                      getattr(spec, "policy", None))
        if found is not None:
            return seed, found[0], found[1]
    msg = f"{game.name}: scenario {spec.slug} not found in seeds {spec.seeds}"
    raise RuntimeError(msg)


def _scenario_traces(game: Any, sc: AnyRecord) -> Iterator[Case]:
    for spec in sc.scenarios:
        seed, actions, states = _find(game, spec, spec.extra)
        description = (f"{spec.description} (first found in the random game from seed "
                       f"{seed}, at action {len(actions) - spec.extra}).")
        rules = set(spec.rules) | _events(game, sc, actions[-1 - spec.extra:],
                                          states[-2 - spec.extra:])
        yield _trace(game, spec.slug, description, rules, spec.config, actions, states)


def perft(game: Any, state: Any, depth: int) -> int:
    """The number of legal action sequences of length *depth* from *state* (sequences, not
    distinct positions; a finished game has none)."""
    if depth == 0:
        return 1
    total = 0
    for action in _children(game, state):
        total += 1 if depth == 1 else perft(game, game.apply(state, action), depth - 1)
    return total


def _children(game: Any, state: Any) -> list[Any]:
    mover = game.to_move(state)
    if mover.kind is MoverKind.CHANCE:
        msg = f"{game.name}: a count reaches a chance node"
        raise RuntimeError(msg)
    if mover.kind is MoverKind.JOINT:
        combos: list[tuple[Any, ...]] = [()]
        for seat in mover.seats:
            combos = [(*c, x) for c in combos for x in game.legal_actions(state, seat)]
        return [game.joint(state, c) for c in combos]
    return list(game.legal_actions(state, None))


def _counts(game: Any, sc: AnyRecord) -> Iterator[tuple[Case, Case | None]]:
    """Each count, with the trace of the way to its position (``None`` for the initial
    position)."""
    for spec in sc.counts:
        way: Case | None = None
        slug = f"{spec.slug}-depth-{spec.depth}"
        if spec.fires is None:
            actions: list[Any] = []
            seed, states = -1, [game.new_game(spec.config)]
            where = "the initial position"
        else:
            seed, actions, states = _find(game, spec)
            where = f"the position after {len(actions)} actions of the random game from seed {seed}"
            way = _trace(game, f"to-count-{slug}",
                         f"The way to the position of {game.name}/count/{slug}: {len(actions)} "
                         f"actions of the random game from seed {seed}.",
                         _events(game, sc, actions, states), spec.config, actions, states)
        state = states[-1]
        breakdown = [
            {"action": game.to_json(a),
             "count": 1 if spec.depth == 1 else perft(game, game.apply(state, a), spec.depth - 1)}
            for a in _children(game, state)
        ]
        breakdown.sort(key=lambda e: canonical_json(e["action"]))
        case = base_case(game, "count", slug,
                     f"{spec.description}: the number of legal action sequences (not distinct "
                     f"positions) of length {spec.depth} from {where}, with the count below "
                     "each first action.", spec.rules, spec.config)
        case["prefix"] = plain([game.to_json(a) for a in actions])
        case["trace"] = None if way is None else way["id"]
        case["position"] = plain(observables(game, state))
        case["depth"] = spec.depth
        case["counts"] = "sequences"
        case["total"] = sum(e["count"] for e in breakdown)
        case["breakdown"] = plain(breakdown)
        yield case, way


# -- rejections ---------------------------------------------------------------------------------


def _rejections(game: Any, sc: AnyRecord) -> Iterator[Case]:
    per_rule: dict[str, int] = {}
    kinds_seen: set[tuple[str, str]] = set()
    order_kinds: set[str] = set()
    endings: set[tuple[str, str | None, tuple[str, ...]]] = set()
    malformed = False
    games: list[tuple[str, str, Any, int, list[Any], list[Any]]] = []
    for batch, seed in [(b, seed) for b in sc.random_games for seed in b.seeds][
            :sc.rejection_games]:
        played = _play(game, batch.config, seed)
        assert played is not None
        games.append((f"{batch.slug}-seed-{seed}", f"random-{batch.slug}-seed-{seed}",
                      batch.config, seed, *played))
    for spec in sc.scenarios:
        seed, actions, states = _find(game, spec, spec.extra)
        games.append((spec.slug, spec.slug, spec.config, seed, actions, states))
    for where, trace, config, seed, actions, states in games:
        pool: dict[str, JSON] = {}
        strings: dict[str, list[str]] = {}
        for action in actions:
            remember(pool, strings, plain(game.to_json(action)))
        rng = random.Random(seed)
        for ply, state in enumerate(states):
            candidates = list(mutations(game, state, rng, pool, strings))
            if sc.candidates is not None:
                candidates += list(sc.candidates(game, state))
            for kind, note, data in candidates:
                found = refused(game, state, kind, data)
                if found is None:
                    continue
                rule, message = found
                if rule is None:
                    if malformed:
                        continue
                    malformed = True
                else:
                    if kind.startswith("order-"):
                        if kind in order_kinds:
                            continue
                        order_kinds.add(kind)
                    elif kind == "after-the-end":
                        # One for each way the game ends (the deciding rule and reading).
                        ended = game.outcome(state)
                        ending = (rule, ended.rule if ended else None,
                                  tuple(options_of(game, config)))
                        if ending in endings:
                            continue
                        endings.add(ending)
                    elif per_rule.get(rule, 0) >= sc.rejections_per_rule or (
                            rule, kind) in kinds_seen:
                        continue
                    else:
                        per_rule[rule] = per_rule.get(rule, 0) + 1
                        kinds_seen.add((rule, kind))
                yield rejection_case(game, rule, message, kind, note, data, where, trace, config,
                                 seed, actions[:ply], state)


def _configs(game: Any, sc: AnyRecord) -> Iterator[Case]:
    """Configs ``new_game`` must refuse: malformed ones (an unknown option, a missing one, a
    value of the wrong JSON type) and the record's configs that the rules exclude."""
    default = plain(game.to_json(game.default_config()))
    assert isinstance(default, dict)
    first = sorted(default)[0]
    wrong_type: JSON = "1" if isinstance(default[first], int) else 1
    candidates: list[tuple[str, str, JSON]] = [
        ("unknown-option", "an option the game does not have", {**default, "no_such_option": 1}),
        (f"missing-{first}", f"the option {first} left out",
         {k: v for k, v in default.items() if k != first}),
        (f"wrong-type-{first}", f"the option {first} as {canonical_json(wrong_type)}",
         {**default, first: wrong_type}),
    ]
    generic = len(candidates)
    for change in sc.bad_configs:
        shown = ",".join(f"{k}={v}" for k, v in sorted(change.items()))
        candidates.append((shown.replace("_", "-"), f"the config {canonical_json(change)}",
                           {**default, **change}))
    for i, (slug, note, data) in enumerate(candidates):
        rule: str | None = None
        try:
            game.new_game(game.config_from_json(data))
        except RuleViolation as exc:
            rule, verdict = exc.rule, f"the rules exclude it under {exc.rule}: {exc.message}"
        except ValueError as exc:
            verdict = f"it is malformed ({exc})"
        else:
            if i < generic:
                continue  # this game's codec reads it (a default for a missing field, say)
            msg = f"{game.name}: the bad config {data} is accepted"
            raise RuntimeError(msg)
        case = base_case(game, "config", slug, f"A new game with {note}: {verdict}. The engine "
                     "answers new_game with {\"ok\": false, \"error\": ...}.",
                     (rule,) if rule else ("P-8",), game.default_config())
        case["config"] = data
        case["options"] = []
        case["rule"] = rule
        yield case


def generate_game(game: Any) -> dict[str, list[Case]]:
    """Every case of one game, by kind (empty for a game without a conformance record)."""
    sc = record_of(game.name)
    if sc is None:
        return {kind: [] for kind in KINDS}
    counts = list(_counts(game, sc))
    traces = [*_scenario_traces(game, sc), *_random_traces(game, sc),
              *(way for _, way in counts if way is not None)]
    return {
        "trace": traces,
        "rejection": sorted(_rejections(game, sc), key=lambda c: c["id"]),
        "count": [count for count, _ in counts],
        "config": list(_configs(game, sc)),
    }


def generate(progress: Progress | None = None) -> dict[str, dict[str, list[Case]]]:
    """The whole corpus: game -> kind -> cases.

    :param progress: called before each game with its name, its number (from 1) and the
        number of games.
    """
    names = sorted(GAMES)
    corpus: dict[str, dict[str, list[Case]]] = {}
    for number, name in enumerate(names, 1):
        if progress is not None:
            progress(name, number, len(names))
        corpus[name] = generate_game(GAMES[name])
    return corpus


def write_corpus(out: Path | None = None, *,
                 progress: Progress | None = None) -> dict[str, dict[str, int]]:
    """Write the corpus under *out* (default: the checkout's ``conformance/``; refused with
    :class:`~copa_ref.conformance.corpus.NoCheckoutError` in an installed copy), and the
    corpus schema's rule ID patterns from the registry where *out* has the schema
    (:func:`~copa_ref.conformance.schemas.write_rule_patterns`); returns the case counts by
    game and kind. *progress* as for :func:`generate`."""
    out = checkout_corpus() if out is None else out
    (out / "cases").mkdir(parents=True, exist_ok=True)
    (out / "VERSION").write_text(CORPUS_VERSION + "\n")
    counts: dict[str, dict[str, int]] = {}
    for name, kinds in generate(progress).items():
        if not any(kinds.values()):
            continue
        folder = out / "cases" / name
        folder.mkdir(parents=True, exist_ok=True)
        for kind, cases in kinds.items():
            (folder / f"{kind}s.json").write_text(corpus_file(name, kind, cases))
        counts[name] = {kind: len(cases) for kind, cases in kinds.items()}
    if (out / "schema" / "corpus.schema.json").is_file():
        write_rule_patterns(out)
    return counts
