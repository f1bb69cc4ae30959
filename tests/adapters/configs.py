"""The configs the adapters' tests play: each value of each ``Config`` option once.

For every option of a game: every member of an enum, both values of a flag, every player
count the game allows, and for the other options the values its conformance record plays
(random games, readings) and a few listed here. Each value is set alone on the default
config (not every combination); a value that needs more seats (a fifth seat's first
dealer) is tried with the most seats the game allows.
"""

from __future__ import annotations

import enum
import typing
from typing import Any

import attrs

from copa_ref.adapters import parameters
from copa_ref.conformance.registry import RECORDS
from copa_ref.core import Game
from copa_ref.core.codec import JSON
from copa_ref.core.errors import InvalidStateError
from copa_ref.games import GAMES

EXTRA: dict[str, dict[str, tuple[JSON, ...]]] = {
    "hopper": {"total_beans": (60,),
               "shot_model": ({"type": "seat_accuracy", "accuracy": ["1/2", "1/3"]},)},
    "copas": {"cards_each": (2,)},
    "da_capo": {"beans": (4,)},
    "kala": {"store": (8,)},
    "kopa": {"target": (30,)},
    "ronda": {"solver_beans": (2,)},
}
"""Values of options that are neither enums nor flags nor in the conformance record."""


def _values(game: Game[Any, Any, Any, Any], option: attrs.Attribute[Any],
            record: Any) -> list[JSON]:
    hints = typing.get_type_hints(game.config_type)
    declared = hints[option.name]
    values: list[JSON] = []
    if isinstance(declared, type) and issubclass(declared, enum.Enum):
        values += [member.value for member in declared]
    elif declared is bool:
        values += [False, True]
    if option.name == "players":
        values += list(range(game.facts.min_players, game.facts.max_players + 1))
    for games in record.random_games:
        data = game.to_json(games.config)
        assert isinstance(data, dict)
        values.append(data.get(option.name, option.default))
    for reading in record.readings:
        if reading.option == option.name:
            values += list(reading.values)
    values += EXTRA.get(game.name, {}).get(option.name, ())
    unique: list[JSON] = []
    for value in values:
        if value not in unique:
            unique.append(value)
    return unique


def _config(game: Game[Any, Any, Any, Any], option: str, value: JSON) -> Any | None:
    base = game.to_json(game.default_config())
    assert isinstance(base, dict)
    for seats in (base.get("players"), game.facts.max_players):
        data = {**base, option: value}
        if seats is not None and "players" in data and option != "players":
            data["players"] = seats
        try:
            return game.config_from_json(data)
        except InvalidStateError:
            continue
    return None


def option_configs(name: str) -> list[tuple[str, Any]]:
    """``(label, config)`` for the default config and each value of each option once."""
    game = GAMES[name]
    record = RECORDS[name]
    found: list[tuple[str, Any]] = [("default", game.default_config())]
    for option in attrs.fields(game.config_type):
        for value in _values(game, option, record):
            config = _config(game, option.name, value)
            if config is None:
                msg = f"{game.title}: no config admits {option.name}={value!r}"
                raise AssertionError(msg)
            label = f"{option.name}={game.dumps(value)}"
            seats, usual = (getattr(c, "players", None) for c in (config, game.default_config()))
            if option.name != "players" and seats != usual:
                label += f",players={seats}"
            if all(config != seen for _, seen in found):
                found.append((label, config))
    return found


def cases() -> list[tuple[str, str, dict[str, Any]]]:
    """``(game, label, OpenSpiel parameters)`` for every game and each option value."""
    return [(name, label, parameters(GAMES[name], config))
            for name in sorted(GAMES) for label, config in option_configs(name)]
