"""What every registered game promises alike: its fact sheet holds, its demo runs, its JSON
round-trips, and the command line reaches it through the registry."""

from __future__ import annotations

import random
from typing import Any

import pytest

from copa_ref.cli import main
from copa_ref.conformance.registry import record_of
from copa_ref.core import MoverKind
from copa_ref.games import GAMES, get_game
from tests.support import play_random

NAMES = sorted(GAMES)


def test_registry() -> None:
    """Every game is listed by its name; an unknown name says which ones exist."""
    for name, game in GAMES.items():
        assert game.name == name and get_game(name) is game
    with pytest.raises(KeyError, match="known games"):
        get_game("chess")


@pytest.mark.parametrize("name", NAMES)
def test_fact_sheet_holds(name: str) -> None:
    """The declared facts match what random games show (chance, simultaneity, hidden
    information, players, length), under the default config and the corpus's configs."""
    game = get_game(name)
    facts = game.facts
    seen_kinds: set[MoverKind] = set()
    hidden = False
    longest = 0
    # The default config, and each config the corpus plays whole games under (a fact may
    # hold only under another reading: HOPPER's shoot-out exists under End 2 alone).
    found = record_of(name)
    others = [] if found is None else [b.config for b in found.random_games
                                       if b.config != game.default_config()]
    runs = [(game.default_config(), seed) for seed in range(8)]
    runs += [(config, seed) for config in others for seed in range(2)]
    for config, seed in runs:
        steps = play_random(game, config, random.Random(seed), check=False)
        decisions = 0
        for state, _ in steps:
            mover = game.to_move(state)
            seen_kinds.add(mover.kind)
            decisions += mover.kind is not MoverKind.CHANCE
            if mover.seats and game.observe(state, mover.seats[0]) != game.observe(state, None):
                hidden = True
        longest = max(longest, decisions)
    assert (MoverKind.CHANCE in seen_kinds) == facts.chance
    assert bool(seen_kinds & {MoverKind.JOINT, MoverKind.ANY}) == facts.simultaneous
    assert hidden == facts.hidden_information
    if facts.max_decisions is not None:
        assert longest <= facts.max_decisions
    players = game.num_players(game.default_config())
    assert facts.min_players <= players <= facts.max_players


@pytest.mark.parametrize("name", NAMES)
def test_demo_runs(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``copa-ref demo <game>`` plays a whole seeded game and shows how it ended."""
    assert main(["demo", name, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) > 5
    again = list(get_game(name).demo(3))
    assert "\n".join(again) in out  # seeded: the same game twice


@pytest.mark.parametrize("name", NAMES)
def test_json_round_trip_along_a_game(name: str) -> None:
    """P-8: every state, action and observation of a game survives canonical JSON."""
    game: Any = get_game(name)
    for state, action in play_random(game, game.default_config(), random.Random(5),
                                     check=False):
        assert game.state_from_json(game.to_json(state)) == state
        assert game.action_from_json(game.to_json(action)) == action
        assert game.dumps(game.state_from_json(game.to_json(state))) == game.dumps(state)


def test_games_command(capsys: pytest.CaptureFixture[str]) -> None:
    """``copa-ref games`` lists every game."""
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in NAMES)
