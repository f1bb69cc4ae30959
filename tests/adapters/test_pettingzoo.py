"""PettingZoo's own API and seeding tests pass for every registered game's environment
(under each value of each config option), DA CAPO's parallel environment passes the
parallel API test, and an observation hides what a seat may not know."""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (extra 'pettingzoo')")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from copa_ref.adapters import TRUNCATED_LENGTH
from copa_ref.adapters.pettingzoo import decode_observation, env, parallel_env
from copa_ref.games import GAMES
from tests.adapters.configs import option_configs

pytestmark = pytest.mark.filterwarnings(
    # The observation is a Dict of the bytes and the action mask, as PettingZoo's classic
    # games have it; api_test warns about any observation that is not one array.
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
)

KOPA_STEPS = 300
"""Kopa's random matches need not end (KOPA-Q14): its environments here truncate after this
many steps (about three rounds) by the adapter's ``max_steps``, not by a rule."""

NO_DECISION = {("hopper", "aiming=false"): "without aiming a HOPPER game is chance alone but "
                                          "for a rare shoot-out: an episode may end at reset, "
                                          "which the AEC API does not allow"}
SAMPLE = [pytest.param(name, label, config, marks=pytest.mark.skip(reason=NO_DECISION[name, label]))
          if (name, label) in NO_DECISION else (name, label, config)
          for name in sorted(GAMES) for label, config in option_configs(name)]
"""Each game's default config and each value of each option once (cheap here: the API test
plays 200 cycles, not whole games)."""
IDS = [f"{name}-{label}" for name in sorted(GAMES) for label, _ in option_configs(name)]


def make(name: str, config: Any = None, **kwargs: Any) -> Any:
    if not GAMES[name].random_play_ends:
        kwargs.setdefault("max_steps", KOPA_STEPS)
    return env(GAMES[name], config, **kwargs)


@pytest.mark.parametrize(("name", "label", "config"), SAMPLE, ids=IDS)
def test_api(name: str, label: str, config: Any) -> None:
    api_test(make(name, config, render_mode="ansi"), num_cycles=200)


@pytest.mark.parametrize(("name", "label", "config"), SAMPLE, ids=IDS)
def test_seed(name: str, label: str, config: Any) -> None:
    seed_test(lambda: make(name, config), num_cycles=50)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_full_game_ends_with_outcome_or_truncation(name: str) -> None:
    e = make(name, render_mode="ansi")
    e.reset(seed=3)
    for k, agent in enumerate(e.possible_agents):  # the players' choices seeded too
        e.action_space(agent).seed(3 + k)
    for agent in e.agent_iter(max_iter=100_000):
        obs, _, terminated, truncated, _ = e.last()
        assert decode_observation(obs["observation"]).startswith("{")
        done = terminated or truncated
        e.step(None if done else e.action_space(agent).sample(obs["action_mask"]))
    assert isinstance(e.render(), str)
    if GAMES[name].random_play_ends:
        assert GAMES[name].outcome(e.state) is not None
    else:  # cut short by max_steps: undecided, every agent truncated
        assert GAMES[name].outcome(e.state) is None and e.steps == KOPA_STEPS


def test_kopa_is_truncated_by_default_only() -> None:
    assert env(GAMES["kopa"]).max_steps == TRUNCATED_LENGTH
    assert env(GAMES["kala"]).max_steps is None
    assert env(GAMES["kopa"], max_steps=None).max_steps is None


# -- DA CAPO's simultaneous bids as a parallel environment -------------------------------

PARALLEL = [(label, config) for label, config in option_configs("da_capo")]


@pytest.mark.parametrize(("label", "config"), PARALLEL, ids=[label for label, _ in PARALLEL])
def test_parallel_api(label: str, config: Any) -> None:
    parallel_api_test(parallel_env(GAMES["da_capo"], config, render_mode="ansi"),
                      num_cycles=1000)


def test_parallel_seed() -> None:
    parallel_seed_test(lambda: parallel_env(GAMES["da_capo"]), num_cycles=100)


def test_parallel_env_plays_a_turn_based_game_too() -> None:
    parallel_api_test(parallel_env(GAMES["kala"]), num_cycles=1000)


def test_parallel_bids_are_applied_together() -> None:
    e = parallel_env(GAMES["da_capo"])
    obs, _ = e.reset(seed=1)
    assert all(o["action_mask"][e.no_part] == 0 for o in obs.values())  # both bid
    before = e.state
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    e.step(actions)
    assert e.state != before
    with pytest.raises(ValueError, match="must choose now"):
        e.step({})


# -- what a seat may know ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["copas", "kopa"])
def test_another_seats_hidden_cards_change_nothing_for_this_seat(name: str) -> None:
    e = make(name)
    e.reset(seed=2)
    dealt = e.state
    hands = [list(h) for h in dealt.hands]
    hands[1][0], hands[2][0] = hands[2][0], hands[1][0]
    swapped = attrs.evolve(dealt, hands=tuple(tuple(sorted(h, key=lambda c: c.index))
                                              for h in hands))
    GAMES[name].check_state(swapped)
    seen = {}
    for state in (dealt, swapped):
        e.state = state
        seen[state] = {a: e.observe(a)["observation"] for a in e.possible_agents}
    others = [a for a in e.possible_agents if a not in ("player_1", "player_2")]
    for agent in others:  # neither hand is theirs to see
        assert np.array_equal(seen[dealt][agent], seen[swapped][agent])
    for agent in ("player_1", "player_2"):
        assert not np.array_equal(seen[dealt][agent], seen[swapped][agent])
