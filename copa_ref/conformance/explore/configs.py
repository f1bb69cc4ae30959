"""The configs an exploration sweeps: every player count, every option value, combinations.

The values of an option come from its type where the type says them (every member of an
enum, both values of a flag, each seat for a ``first_*`` seat number) and, for any other
option, from the configs the game's conformance record plays (its random games, scenarios
and counts). Combinations follow until every pair of values of two options is played
together in some config (pairwise coverage). A config the rules exclude (the
reference's ``new_game`` refuses it) is left
out; so is one the engine did not declare (an option or a reading it does not play).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable
from typing import Any

import attrs

from copa_ref.conformance.observables import options_of
from copa_ref.conformance.registry import record_of
from copa_ref.core import JSON, RuleViolation, canonical_json

__all__ = ["AROUND", "RANDOM", "Swept", "option_values", "pairs", "sweep"]

RANDOM = "random:"
"""How the label of a config outside the sweep begins (a random combination of option
values, played after the sweep)."""

AROUND = "around:"
"""How the label of a config around a known difference begins: a config of the sweep whose
games diverged at a difference, with one of its options set back to its default."""

CANDIDATES = 40
"""How many random combinations each pick of the pairwise sweep chooses from."""


@attrs.frozen
class Swept:
    """One config of a sweep: the config, its JSON and the options it needs."""

    config: Any
    data: dict[str, JSON]
    options: tuple[str, ...]
    players: int
    label: str
    """``default``, ``players=5``, ``harvest=mandatory``, ``combination-3``."""


def _record_configs(game: Any) -> list[Any]:
    record = record_of(game.name)
    if record is None:
        return []
    found = [b.config for b in record.random_games]
    found += [s.config for s in record.scenarios]
    found += [c.config for c in record.counts]
    return found


def option_values(game: Any) -> dict[str, list[JSON]]:
    """Each option's JSON values to sweep, the default first."""
    default = game.default_config()
    base: dict[str, JSON] = game.to_json(default)
    facts = game.facts
    values: dict[str, list[JSON]] = {key: [value] for key, value in base.items()}

    def add(key: str, value: JSON) -> None:
        if key in values and canonical_json(value) not in {canonical_json(v)
                                                           for v in values[key]}:
            values[key].append(value)

    for field in attrs.fields(type(default)):
        key, current = field.name, getattr(default, field.name)
        if key not in values:
            continue
        if key == "players":
            for n in range(facts.min_players, facts.max_players + 1):
                add(key, n)
        elif isinstance(current, enum.Enum):
            for member in type(current):
                add(key, game.converter.unstructure(member))
        elif isinstance(current, bool):
            add(key, not current)
        elif key.startswith("first_") and (current is None or isinstance(current, int)):
            for seat in range(facts.max_players):
                add(key, seat)
    for config in _record_configs(game):
        for key, value in game.to_json(config).items():
            add(key, value)
    return values


def _valid(game: Any, data: dict[str, JSON]) -> Any:
    try:
        config = game.config_from_json(data)
        game.new_game(config)
    except (ValueError, RuleViolation):
        return None
    return config


def pairs(data: dict[str, JSON]) -> set[tuple[str, str, str, str]]:
    """The pairs of option values a config's JSON holds."""
    items = sorted((key, canonical_json(value)) for key, value in data.items())
    return {(a, x, b, y) for i, (a, x) in enumerate(items) for b, y in items[i + 1:]}


def _pairwise(game: Any, values: dict[str, list[JSON]], seed: int,
              declared: Callable[[dict[str, JSON], list[str]], bool] | None = None,
              ) -> list[dict[str, JSON]]:
    """Combinations of option values until every pair of values of two options that some
    valid config holds is in one of them. Each pick starts from the first pair not yet
    held and fills the other options with the random candidate (of :data:`CANDIDATES`, from
    *seed*) that adds the most pairs not yet held; a pair no valid candidate holds (five
    dealers for three players, say) is given up. With *declared*, a candidate is valid
    only when the engine plays it too (so that the pairs an engine's declared options
    allow are all played, whatever it leaves out)."""
    def valid(data: dict[str, JSON]) -> bool:
        config = _valid(game, data)
        if config is None:
            return False
        return declared is None or declared(game.to_json(config), options_of(game, config))

    rng = random.Random(f"combinations/{game.name}/{seed}")
    keys = sorted(values)
    held: set[tuple[str, str, str, str]] = set()
    base = game.to_json(game.default_config())
    for key in keys:  # the single changes are swept already
        for value in values[key]:
            held |= pairs({**base, key: value})
    wanted = [(a, x, b, y) for i, a in enumerate(keys) for b in keys[i + 1:]
              for x in values[a] for y in values[b]]
    chosen: list[dict[str, JSON]] = []
    for a, x, b, y in wanted:
        pair = (a, canonical_json(x), b, canonical_json(y))
        if pair in held:
            continue
        best: dict[str, JSON] | None = None
        gain = 0
        for attempt in range(CANDIDATES + 1):
            # the pair over the defaults first (often the only valid holder), then random
            data = ({**base, a: x, b: y} if attempt == CANDIDATES else
                    {key: rng.choice(values[key]) for key in keys} | {a: x, b: y})
            new = len(pairs(data) - held)
            if new > gain and valid(data):
                best, gain = data, new
        if best is None:
            held.add(pair)  # no valid config holds it
            continue
        held |= pairs(best)
        chosen.append(best)
    return chosen


def sweep(game: Any, declared: Callable[[dict[str, JSON], list[str]], bool] | None = None,
          seed: int = 0) -> list[Swept]:
    """The configs to explore for *game*: the default, each player count, each other option
    value (one change from the default), then combinations until every pair of values of
    two options is played together (from *seed*); each once, in that order.
    *declared(config_json, options)* says whether the engine plays a config (``None``:
    every config)."""
    values = option_values(game)
    base: dict[str, JSON] = game.to_json(game.default_config())
    wanted: list[tuple[str, dict[str, JSON]]] = [("default", dict(base))]
    for key in sorted(values):
        for value in values[key][1:]:
            shown = value if isinstance(value, str) else canonical_json(value)
            wanted.append((f"{key}={shown}", {**base, key: value}))
    wanted += [(f"combination-{n}", data)
               for n, data in enumerate(_pairwise(game, values, seed, declared), 1)]
    seen: set[str] = set()
    swept: list[Swept] = []
    for label, data in wanted:
        text = canonical_json(data)
        if text in seen:
            continue
        seen.add(text)
        config = _valid(game, data)
        if config is None:
            continue
        options = options_of(game, config)
        canonical: dict[str, JSON] = game.to_json(config)
        if declared is not None and not declared(canonical, options):
            continue
        swept.append(Swept(config, canonical, tuple(options), game.num_players(config), label))
    return swept
