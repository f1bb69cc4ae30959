"""Hostile actions at the adapters' entry points, at volume (#32 findings 5 and 6).

Random games of every registered game through PettingZoo's ``raw_env()`` and
``parallel_env()`` and through OpenSpiel; at every decision a few values that are no action
id in the space (floats, even integral ones; strings; bytes; ``None``; containers; NumPy
floats and arrays; integers outside the space, of any size and NumPy type) are offered
first. Each must be refused with ``ValueError`` (OpenSpiel: ``ValueError`` or its own
``SpielError``), the game left as it was; then a legal id is played. At OpenSpiel chance
nodes, ids that are no listed outcome are refused the same way. CI runs a tenth of the
``COPA_REF_FUZZ=long`` volume (:data:`tests.fuzz.conftest.SCALE`).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from copa_ref.games import GAMES
from tests.fuzz.conftest import SCALE, TALLY
from tests.fuzz.strategies import GAME_NAMES

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (extra 'pettingzoo')")

from copa_ref.adapters.pettingzoo import parallel_env, raw_env

GAMES_PER_RUN = 2 * SCALE
"""Random games per game and adapter."""

MAX_DECISIONS = 120
"""Decisions per game before it is left (Kopa's random matches need not end)."""

OFFERS = 3
"""Hostile values offered before each legal action."""


def hostile(rng: random.Random, size: int) -> Any:
    """A value that is no action id in ``range(size)``."""
    kind = rng.randrange(12)
    number = rng.randrange(size)
    outside = rng.choice((-1, -rng.randrange(1, 10**6), size, size + rng.randrange(10**6),
                          2**63, 2**64 + number, -(2**63) - 1, 10**30))
    values: tuple[Any, ...] = (
        float(number), rng.uniform(-1e3, 1e3), float("inf"), float("nan"),
        str(number), str(number).encode(), None, [number], (number,), {number: number},
        np.float64(number), np.float32(number), np.array([number]), np.array([[number]]),
        outside, np.int64(outside) if -(2**63) <= outside < 2**63 else outside,
        np.uint64(outside) if 0 <= outside < 2**64 else outside, object(), complex(number),
    )
    return values[kind] if kind < 11 else rng.choice(values)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_raw_and_parallel_env_refuse_what_is_no_id(name: str) -> None:
    """``raw_env()`` and ``parallel_env()`` refuse every hostile value with ``ValueError``,
    the game state the same object as before, at every decision of random games (in
    ``parallel_env()``, the value of an agent that acts at that step)."""
    rng = random.Random(f"raw-{name}")
    refused = 0
    for game in range(GAMES_PER_RUN):
        env = raw_env(name, max_steps=MAX_DECISIONS)
        env.reset(seed=game)
        for _agent in env.agent_iter(MAX_DECISIONS):
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = env.observe(env.agent_selection)["action_mask"]
            before, mover = env.game_state, env.agent_selection
            for _ in range(OFFERS):
                action = hostile(rng, len(mask))
                with pytest.raises(ValueError):
                    env.step(action)
                assert env.game_state is before and env.agent_selection == mover
                refused += 1
            env.step(int(rng.choice(np.flatnonzero(mask))))
    for game in range(GAMES_PER_RUN):
        par = parallel_env(name, max_steps=MAX_DECISIONS)
        observations, _ = par.reset(seed=game)
        for _ in range(MAX_DECISIONS):
            if not par.agents:
                break
            chosen = {a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                      for a, o in observations.items() if a in par.agents}
            before = par.game_state
            movers = sorted(a for a in chosen if observations[a]["action_mask"][:-1].any())
            for _ in range(OFFERS):
                agent = rng.choice(movers)
                size = len(observations[agent]["action_mask"])
                with pytest.raises(ValueError):
                    par.step({**chosen, agent: hostile(rng, size)})
                assert par.game_state is before
                refused += 1
            observations, *_ = par.step(chosen)
    TALLY[f"{name} adapter hostile actions (PettingZoo)"] += refused
    assert refused > 0


@pytest.mark.parametrize("name", GAME_NAMES)
def test_openspiel_refuses_ids_it_does_not_list(name: str) -> None:
    """OpenSpiel's ``apply_action`` refuses an id that is not among the legal actions (a
    chance id not among the listed outcomes; one player's id of a joint action) with
    ``ValueError`` or ``SpielError``, the history unchanged, at every decision of random
    games."""
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    from copa_ref.adapters import openspiel

    openspiel.register()
    params: dict[str, Any] = {}
    if not GAMES[name].random_play_ends:
        params[openspiel.LENGTH] = MAX_DECISIONS
    game = pyspiel.load_game(f"copa_ref_{name}", params)
    rng = random.Random(f"openspiel-{name}")
    size = game.num_distinct_actions()
    refused = 0
    for _ in range(GAMES_PER_RUN):
        state = game.new_initial_state()
        for _ in range(MAX_DECISIONS):
            if state.is_terminal():
                break
            if state.is_simultaneous_node():
                joint = [rng.choice(state.legal_actions(p)) for p in range(state.num_players())]
                history = state.history()
                for _ in range(OFFERS):
                    player = rng.randrange(state.num_players())
                    legal = state.legal_actions(player)
                    wrong = [a for a in (-2, size, *range(size + 1)) if a not in legal]
                    bad = [*joint]
                    bad[player] = rng.choice(wrong)
                    with pytest.raises((ValueError, pyspiel.SpielError)):
                        state.apply_actions(bad)
                    assert state.history() == history
                    refused += 1
                state.apply_actions(joint)
                continue
            legal = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                     else state.legal_actions())
            history = state.history()
            wrong = [a for a in (-2, -3, size, size + 7, *range(-1, size + 2))
                     if a not in legal and a != -1]
            for action in rng.sample(wrong, min(OFFERS, len(wrong))):
                with pytest.raises((ValueError, pyspiel.SpielError)):
                    state.apply_action(action)
                assert state.history() == history
                refused += 1
            state.apply_action(rng.choice(legal))
    TALLY[f"{name} adapter refused ids (OpenSpiel)"] += refused
    assert refused > 0
