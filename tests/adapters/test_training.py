"""The training paths of docs/adapters/training.md: RLlib's observation and the opponent pool
(always), Stable-Baselines3 over SuperSuit's vector environment, snapshots and the self-play
example (skipped without the ``train`` extra's sb3-contrib), and RLlib's environment and
recipe (skipped without the ``rllib`` extra's Ray; the recipe, which starts a Ray instance,
and the training page's recipes as written, only with ``pytest --full``)."""

from __future__ import annotations

import importlib.util
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (extra 'pettingzoo')")

from copa_ref.adapters.pettingzoo import env
from copa_ref.adapters.training import (
    OpponentPool,
    RLlibObservation,
    VersusEnv,
    evaluate,
)

EXAMPLES = Path(__file__).parents[2] / "examples"


def example(name: str) -> ModuleType:
    """The script examples/<name>.py as a module (its ``main(argv)`` returns its figures)."""
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_legal(observation: Any, mask: Any, rng: random.Random) -> int:
    return int(np.flatnonzero(mask)[0])


def needs_sb3() -> None:
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (extra 'train')")
    pytest.importorskip("supersuit", reason="supersuit is not installed (extra 'train')")
    import torch

    torch.set_num_threads(1)


# -- RLlib's observation and the opponents: no learning library needed ------------------------


@pytest.mark.parametrize("game", ["kala", "copas"])
def test_the_rllib_observation_is_the_adapters(game: str) -> None:
    """RLlibObservation's observation is the adapter's tensor under ``observations`` and the
    same mask as ``float32``, in its declared space, at each step of a seeded game (a float
    mask is what RLlib reads, so PettingZoo's api_test, which samples with an int8 mask,
    does not apply)."""
    inner = env(game)
    wrapped = RLlibObservation(env(game))
    inner.reset(seed=5)
    wrapped.reset(seed=5)
    for _ in range(30):
        agent = inner.agent_selection
        assert wrapped.agent_selection == agent
        mine, theirs = wrapped.observe(agent), inner.observe(agent)
        assert mine["action_mask"].dtype == np.float32
        assert np.array_equal(mine["action_mask"], theirs["action_mask"])
        assert np.array_equal(mine["observations"], theirs["observation"])
        assert wrapped.observation_space(agent).contains(mine)
        action = int(np.flatnonzero(theirs["action_mask"])[0])
        inner.step(action)
        wrapped.step(action)


def test_an_opponent_pool_draws_one_opponent_each_episode() -> None:
    """VersusEnv tells the pool when an episode starts; the pool's drawn opponent plays
    every opponent decision of that episode."""
    seen: list[set[str]] = []

    def named(name: str) -> Any:
        def act(observation: Any, mask: Any, rng: random.Random) -> int:
            seen[-1].add(name)
            return first_legal(observation, mask, rng)
        return act

    pool = OpponentPool([named("a"), named("b")])
    versus = VersusEnv("kala", opponent=pool, seed=3)
    for _ in range(12):
        seen.append(set())
        versus.reset()
        done = False
        while not done:
            _, _, terminated, truncated, _ = versus.step(
                first_legal(None, versus.action_masks(), random.Random()))
            done = terminated or truncated
    assert all(len(names) == 1 for names in seen)
    assert {name for names in seen for name in names} == {"a", "b"}


def test_evaluate_scores_each_seat_against_the_opponent() -> None:
    """evaluate alternates the policy's seat and counts a win as a return above the other
    seat's: against itself, the first-legal player wins exactly its seats' wins."""
    score = evaluate(first_legal, "kala", 4, opponent=first_legal)
    versus = VersusEnv("kala", opponent=first_legal, seed=0)
    returns = []
    for _ in range(4):
        versus.reset()
        reward, done = 0.0, False
        while not done:
            _, reward, terminated, truncated, _ = versus.step(
                first_legal(None, versus.action_masks(), random.Random()))
            done = terminated or truncated
        returns.append(reward)
    assert score.episodes == 4
    assert score.mean_return == pytest.approx(sum(returns) / 4)
    assert score.wins == sum(r > 0 for r in returns) / 4
    assert 0.0 < score.wins < 1.0  # the seats alternate: one seat wins, the other loses


# -- Stable-Baselines3 (the train extra) ------------------------------------------------------


def test_the_vector_env_gives_masks_and_takes_seeds() -> None:
    """sb3_vec_env over SuperSuit's vector env: one mask row per agent of each copy (the
    mover's legal ids, ``no_part`` alone for the others), seed() seeds the next reset, and
    an ended game's last observation is the tensor Stable-Baselines3 reads."""
    needs_sb3()
    import supersuit as ss

    from copa_ref.adapters.pettingzoo import parallel_env
    from copa_ref.adapters.training import sb3_vec_env

    def vector_of(game: str, copies: int) -> Any:
        return sb3_vec_env(ss.concat_vec_envs_v1(
            ss.pettingzoo_env_to_vec_env_v1(parallel_env(game)), copies, num_cpus=0,
            base_class="gymnasium"))

    rng = np.random.default_rng(0)
    vector = vector_of("copas", 2)
    try:
        no_part = vector.action_space.n - 1
        vector.seed(3)
        first = vector.reset()
        vector.seed(3)
        again = vector.reset()
        vector.seed(4)
        other = vector.reset()
        assert first.shape == (8, *vector.observation_space.shape)  # 2 copies of 4 seats
        assert np.array_equal(first, again) and not np.array_equal(first, other)
        for _ in range(100):
            masks = np.stack(vector.env_method("action_masks"))
            for copy in (masks[:4], masks[4:]):
                movers = [row for row in copy if not row[no_part]]
                assert len(movers) == 1 and movers[0].any()
                assert sum(row[no_part] and row.sum() == 1 for row in copy) == 3
            vector.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            _, rewards, done, _ = vector.step_wait()
            assert not done.any() and not rewards.any()  # a Copas match is longer
    finally:
        vector.close()
    vector = vector_of("kala", 1)
    try:
        vector.reset()
        for _ in range(5000):
            masks = vector.env_method("action_masks")
            vector.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            _, rewards, done, infos = vector.step_wait()
            if done.any():
                break
        assert done.all() and sorted(rewards) == [-1.0, 1.0]
        for info in infos:
            assert info["terminal_observation"].shape == vector.observation_space.shape
    finally:
        vector.close()


def test_maskable_ppo_on_the_vector_env_learns_kala() -> None:
    """examples/sb3_vectorized.py at a small size (two copies over two processes): the
    trained shared policy beats the random player more often than the untrained one."""
    needs_sb3()
    figures = example("sb3_vectorized").main(
        ["--steps", "8192", "--copies", "2", "--cpus", "2", "--episodes", "100"])
    assert figures["steps"] >= 8192 and figures["environments"] == 4
    assert figures["after"].wins > figures["before"].wins + 0.15


def test_a_snapshot_stays_frozen() -> None:
    """A snapshot plays as the model did when it was taken, after the model trains on."""
    needs_sb3()
    from sb3_contrib import MaskablePPO

    from copa_ref.adapters.training import snapshot

    model = MaskablePPO("MlpPolicy", VersusEnv("kala", seed=0), seed=0, n_steps=256,
                        batch_size=64, verbose=0)
    frozen = snapshot(model, deterministic=True)
    live = snapshot(model, deterministic=True)
    versus = VersusEnv("kala", seed=7)
    positions = []
    for _ in range(20):
        obs, _ = versus.reset()
        positions.append((obs, versus.action_masks()))
    before = [frozen(o, m, random.Random()) for o, m in positions]
    model.learn(1024)
    later = snapshot(model, deterministic=True)
    assert [frozen(o, m, random.Random()) for o, m in positions] == before
    assert [live(o, m, random.Random()) for o, m in positions] == before
    assert [later(o, m, random.Random()) for o, m in positions] != before


def test_the_self_play_example_runs() -> None:
    """examples/self_play.py at a small size: two generations, a pool of the random player
    and two snapshots, its figures reported."""
    needs_sb3()
    figures = example("self_play").main(
        ["--generations", "2", "--steps", "1024", "--episodes", "20"])
    assert figures["steps"] == 2048
    for key in ("before", "after", "first_snapshot"):
        assert figures[key].episodes == 20


# -- RLlib (the rllib extra) ------------------------------------------------------------------


def test_the_rllib_env_plays_a_whole_game() -> None:
    """rllib_env: RLlib's PettingZooEnv over the adapter, a whole KALA game with the mask's
    actions, each seat's ±1 at the end."""
    pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (extra 'rllib')")
    from copa_ref.adapters.training import rllib_env

    multi = rllib_env("kala")
    obs, _ = multi.reset(seed=2)
    rng = np.random.default_rng(2)
    totals: dict[str, float] = {}
    for _ in range(2000):
        (agent, view), = obs.items()
        assert multi.observation_space[agent].contains(view)
        obs, rewards, terminated, _, _ = multi.step(
            {agent: int(rng.choice(np.flatnonzero(view["action_mask"])))})
        for name, reward in rewards.items():
            totals[name] = totals.get(name, 0.0) + reward
        if terminated["__all__"]:
            break
    assert terminated["__all__"]
    assert sorted(totals.values()) == [-1.0, 1.0]


def test_the_rllib_recipe_runs(request: pytest.FixtureRequest) -> None:
    """examples/rllib_kala.py at its smallest: one iteration of 500 steps, sampled by two
    runners, each in a process of its own."""
    pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (extra 'rllib')")
    if not (request.config.getoption("--full") or os.environ.get("COPA_REF_FULL") == "1"):
        pytest.skip("the RLlib recipe starts a Ray instance: pytest --full")
    figures = example("rllib_kala").main(
        ["--iterations", "1", "--batch", "500", "--episodes", "10"])
    assert figures["steps"] >= 500
    assert len(set(figures["runners"])) == 2 and os.getpid() not in figures["runners"]
    assert figures["after"].episodes == 10


# -- The page's recipes, as written (pytest --full, with the extras) --------------------------

PAGE = Path(__file__).parents[2] / "docs" / "adapters" / "training.md"


def recipes() -> list[str]:
    """The page's Python blocks, in order."""
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.DOTALL)


@pytest.mark.parametrize("number", range(4))
def test_the_pages_recipes_run_as_written(number: int, request: pytest.FixtureRequest) -> None:
    """Each Python block of docs/adapters/training.md runs as written, in a process of its
    own (a run of minutes each: the full tier only)."""
    assert len(recipes()) == 4
    code = recipes()[number]
    needs_sb3()
    if "import ray" in code:
        pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (extra 'rllib')")
    if not (request.config.getoption("--full") or os.environ.get("COPA_REF_FULL") == "1"):
        pytest.skip("the training page's recipes train for minutes: pytest --full")
    done = subprocess.run([sys.executable, "-c", code], cwd=PAGE.parents[2],
                          capture_output=True, text=True, timeout=1800, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
