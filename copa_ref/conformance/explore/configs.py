"""The configs an exploration sweeps: every player count, every option value, combinations.

The values of an option come from its type where the type says them (every member of an
enum, both values of a flag, each seat for a ``first_*`` seat number) and, for any other
option, from the configs the game's conformance record plays (its random games, scenarios
and counts). A config the rules exclude (the reference's ``new_game`` refuses it) is left
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

__all__ = ["Swept", "option_values", "sweep"]

COMBINATIONS = 8
"""How many random combinations of option values a sweep adds (besides the single
changes)."""


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


def sweep(game: Any, declared: Callable[[dict[str, JSON], list[str]], bool] | None = None,
          seed: int = 0) -> list[Swept]:
    """The configs to explore for *game*: the default, each player count, each other option
    value (one change from the default), then :data:`COMBINATIONS` random combinations
    (from *seed*); each once, in that order. *declared(config_json, options)* says whether
    the engine plays a config (``None``: every config)."""
    values = option_values(game)
    base: dict[str, JSON] = game.to_json(game.default_config())
    wanted: list[tuple[str, dict[str, JSON]]] = [("default", dict(base))]
    for key in sorted(values):
        for value in values[key][1:]:
            shown = value if isinstance(value, str) else canonical_json(value)
            wanted.append((f"{key}={shown}", {**base, key: value}))
    rng = random.Random(f"combinations/{game.name}/{seed}")
    for number in range(1, COMBINATIONS + 1):
        data = {key: rng.choice(values[key]) if rng.random() < 0.6 else base[key]
                for key in sorted(values)}
        wanted.append((f"combination-{number}", data))
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
