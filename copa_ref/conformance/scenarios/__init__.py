"""Per-game scenario modules: the game-specific content of the corpus.

Each game ``<name>`` of the registry may have a module ``copa_ref.conformance.scenarios.<name>``
defining ``SCENARIOS``, a :class:`GameScenarios`: the configs and seeds of its random
whole-game traces, hand-made scenarios (a config and a predicate on a step, found by search
over seeded random games), count positions, the rules a step exercises, and optional checks
of a reported public view. Everything else (random traces, rejections found by mutating
legal actions, the observables) is generic, in :mod:`copa_ref.conformance.generate`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from copa_ref.core import JSON

__all__ = [
    "Candidates",
    "CountSpec",
    "GameScenarios",
    "Policy",
    "RandomGames",
    "Scenario",
    "Step",
    "public_check",
    "scenarios_of",
]

Step = Callable[[Any, Any, Any, tuple[Any, ...]], bool]
"""A predicate on one step ``(before, action, after, earlier_actions)`` of a game."""

Policy = Callable[[Any, Any, Any], Any]
"""``(game, state, rng) -> action or None``: a scenario's own choice at a node."""

Candidates = Callable[[Any, Any], Iterable[tuple[str, str, JSON]]]
"""Extra candidate refusals at a position: ``(kind, note, action JSON)`` triples."""


@attrs.frozen
class Scenario:
    """A hand-made trace: the first step of a seeded random game where *fires* holds."""

    slug: str
    """The meaningful part of the case ID (``sixth-bean-to-opponent``)."""
    description: str
    rules: tuple[str, ...]
    """The rule IDs the step exercises."""
    config: Any
    fires: Step
    extra: int = 0
    """Steps kept after the one that fires (to show what follows)."""
    seeds: range = range(500)
    """The seeds searched, in order."""
    policy: Policy | None = None
    """Chooses actions where it returns one (a deal arranged on purpose, say); random play
    from the seed elsewhere."""


@attrs.frozen
class CountSpec:
    """A perft-style count from the position after the first step where *fires* holds
    (the initial position when *fires* is ``None``)."""

    slug: str
    description: str
    rules: tuple[str, ...]
    config: Any
    depth: int
    fires: Step | None = None
    seeds: range = range(500)


@attrs.frozen
class RandomGames:
    """Whole random games from fixed seeds under one config."""

    slug: str
    """Names the config in case IDs (``default``, ``harvest-mandatory``)."""
    config: Any
    seeds: tuple[int, ...]


@attrs.frozen
class GameScenarios:
    """Everything game-specific the generator and the runner need about one game."""

    random_games: tuple[RandomGames, ...]
    """Random whole-game traces; also the games searched for rejections."""
    whole_game_rules: tuple[str, ...]
    """The rules every whole game exercises (set-up, turn order, ...)."""
    scenarios: tuple[Scenario, ...] = ()
    counts: tuple[CountSpec, ...] = ()
    events: Callable[[Any, Any, Any], frozenset[str]] | None = None
    """The rule IDs one step ``(before, action, after)`` exercises (tags random traces)."""
    check_public: Callable[[JSON | None, JSON | None, JSON], None] | None = None
    """Checks of a reported public view (``before``, ``action`` JSON or ``None``, ``after``),
    raising :class:`~copa_ref.core.InvariantViolation`; for hidden-information games."""
    candidates: Candidates | None = None
    """Game-specific actions to try for rejections (besides the generic mutations)."""
    rejection_games: int = 4
    """How many of the random games (in order) are searched for rejections."""
    rejections_per_rule: int = 3
    """At most this many generic rejection cases per rule ID."""


def scenarios_of(game_name: str) -> GameScenarios | None:
    """The scenario module's ``SCENARIOS`` for a game, or ``None`` if it has none."""
    try:
        module = importlib.import_module(f"{__name__}.{game_name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{__name__}.{game_name}":
            return None
        raise
    result: GameScenarios = module.SCENARIOS
    return result


def public_check(game_name: str) -> Callable[[JSON | None, JSON | None, JSON], None] | None:
    """The game's check of a reported public view, if it has one."""
    found = scenarios_of(game_name)
    return None if found is None else found.check_public
