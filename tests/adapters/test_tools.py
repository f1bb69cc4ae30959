"""The adapters with the tools people train with: OpenSpiel's alpha-beta on a small KALA,
CFR on a DA CAPO end game (its exploitability falls), outcome-sampling MCCFR on a one-deal
Copas (no recursion limit), SuperSuit vector environments over two processes, and a short
MaskablePPO training (sb3-contrib, skipped when not installed) that beats a random player."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (extra 'openspiel')")

from copa_ref.adapters import openspiel  # noqa: E402
from copa_ref.games import GAMES  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning",
                                        "ignore::UserWarning")

END_GAME = (
    '{"box":8,"config":{"players":2,"target_reached_when":"target_cup",'
    '"tie_break":"beans_in_cups","tie_resolution":"cascade"},"finisher":null,'
    '"last_step":null,"lines":[[4,0,0,0],[3,4,4,0]],"reserves":[7,2],"rounds":['
    '{"bids":[2,3],"winner":1},{"bids":[1,4],"winner":1},{"bids":[4,2],"winner":0},'
    '{"bids":[1,1],"winner":null},{"bids":[1,4],"winner":1}],"target":0}')
"""A DA CAPO position five rounds in (seed 4 of uniform play): seat 0 holds 7 beans, seat 1
2, seat 1's line nearly full."""


def load(name: str, params: dict[str, Any] | None = None) -> Any:
    openspiel.register()
    return pyspiel.load_game(f"copa_ref_{name}", params or {})


def late_kala(seed: int, left: int) -> str:
    """The JSON text of a KALA position *left* moves before the end of a random game."""
    game = load("kala")
    rng, states = random.Random(seed), [game.new_initial_state()]
    while not states[-1].is_terminal():
        state = states[-1].clone()
        state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
    return str(GAMES["kala"].dumps(states[-1 - left].state)).replace(",", ";")


DEPTH = 4
"""Alpha-beta's depth here, in decisions; a position beyond it counts 0 (undecided)."""


def minimax(state: Any, seat: int, depth: int = DEPTH) -> float:
    """The value of *state* for *seat* by plain minimax to *depth* (0 beyond it)."""
    if state.is_terminal():
        return float(state.returns()[seat])
    if depth == 0:
        return 0.0
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(minimax(child, seat, depth - 1))
    return max(values) if state.current_player() == seat else min(values)


def test_alpha_beta_solves_a_small_kala() -> None:
    from open_spiel.python.algorithms import minimax as spiel_minimax

    for seed in range(3):  # positions three decisions before a random game's end
        game = load("kala", {openspiel.INITIAL: late_kala(seed, 3)})
        state = game.new_initial_state()
        value, best = spiel_minimax.alpha_beta_search(
            game, state=state.clone(), maximum_depth=DEPTH, maximizing_player_id=0,
            value_function=lambda _: 0.0)
        assert value == minimax(state, 0) and value in (-1.0, 0.0, 1.0)
        assert best in state.legal_actions()
        child = state.clone()
        child.apply_action(best)
        assert minimax(child, 0, DEPTH - 1) == value  # the move it picks keeps the value



def test_cfr_exploitability_falls_on_a_da_capo_end_game() -> None:
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.convert_to_turn_based(
        load("da_capo", {openspiel.INITIAL: END_GAME.replace(",", ";")}))
    solver = cfr.CFRSolver(game)
    measured = []
    for iteration in range(1, 31):
        solver.evaluate_and_update_policy()
        if iteration in (1, 5, 10, 30):
            measured.append(exploitability.exploitability(game, solver.average_policy()))
    assert measured == sorted(measured, reverse=True) and measured[0] > 0.3
    assert measured[-1] < 0.02, measured  # 0.40, 0.08, 0.04, 0.013


def test_mccfr_runs_on_a_one_deal_copas() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load("copas", {openspiel.ONE_DEAL: True, "players": 3})
    np.random.seed(1)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(20):  # each a deal of 39 cards and 39 plays: deep, no RecursionError
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


def test_supersuit_vector_envs_over_two_processes() -> None:
    ss = pytest.importorskip("supersuit", reason="supersuit is not installed (extra 'dev')")
    from copa_ref.adapters.pettingzoo import parallel_env

    vector = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(parallel_env("kala")),
                                   2, num_cpus=2, base_class="gymnasium")
    try:
        obs, _ = vector.reset(seed=1)
        rng = np.random.default_rng(1)
        assert obs["observation"].shape == (4, 78)  # two envs, two agents each
        ended = 0
        for _ in range(300):
            masks = obs["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rewards, terminations, _, _ = vector.step(actions)
            ended += int(np.sum(terminations))
            assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert ended > 0  # whole games were played and reset inside the workers
    finally:
        vector.close()


def test_maskable_ppo_learns_to_beat_a_random_player() -> None:
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (extra 'train')")
    import torch
    from sb3_contrib import MaskablePPO

    from copa_ref.adapters.training import VersusEnv

    torch.set_num_threads(1)

    def mean_return(model: Any) -> float:
        env, total = VersusEnv("da_capo", seed=99), 0.0
        for k in range(100):
            obs, _ = env.reset()
            rng, done, reward = random.Random(k), False, 0.0
            while not done:
                mask = env.action_masks()
                action = (rng.choice(list(np.flatnonzero(mask))) if model is None
                          else model.predict(obs, action_masks=mask, deterministic=True)[0])
                obs, reward, terminated, truncated, _ = env.step(action)
                done = terminated or truncated
            total += reward
        return total / 100

    model = MaskablePPO("MlpPolicy", VersusEnv("da_capo", seed=0), seed=0, n_steps=256,
                        batch_size=64, n_epochs=4, verbose=0)
    model.learn(2048)
    assert mean_return(model) > mean_return(None) + 0.2
