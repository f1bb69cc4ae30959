"""HOPPER's scenarios (completed below)."""

from __future__ import annotations

from copa_ref.conformance.scenarios import GameScenarios, RandomGames
from copa_ref.hopper import Config, Ending

__all__ = ["SCENARIOS"]

SCENARIOS = GameScenarios(
    random_games=(
        RandomGames("default", Config(), (1, 2)),
        RandomGames("end-2", Config(ending=Ending.END_2), (1, 2)),
    ),
    whole_game_rules=("HOPPER-1", "HOPPER-2", "HOPPER-3", "HOPPER-4", "HOPPER-5", "HOPPER-6",
                      "HOPPER-7", "HOPPER-18", "HOPPER-19"),
)
