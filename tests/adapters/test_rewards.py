"""A reward for every episode: one-deal episodes of Copas and Kopa, in OpenSpiel and in
PettingZoo, end with the points the deal books (a Copas deal whose ten copas are pending runs
on through its bonus round, where they are booked or erased: COPAS-17, COPAS-18; COPAS-Q18),
and no terminal of a deal returns all zeros unless the rules book nothing: a deal of the
text's size always books points to some seat (COPAS-16 to COPAS-19: ten minus points
between the seats, or 10 to each other seat, or a pending ten decided in the bonus round;
KOPA-20: the winner's gain of the cards left, penalties subtracted), so an all-zero return
there would be a deal scored as worth nothing. The one exception the rules make: a deal of
the solver variant COPAS-V1 (``cards_each``) that deals no copa, where no seat takes every
trick, books nothing (COPAS-16 counts the copas dealt; COPAS-19 does not fire); a Kopa deal
whose winner's gain is exactly its own penalties, no other seat penalised, books a net 0 to
every seat (KOPA-20)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (extra 'openspiel')")
pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (extra 'pettingzoo')")

from copa_ref.adapters import DEAL_SIGN, config_from_parameters, openspiel  # noqa: E402
from copa_ref.adapters.pettingzoo import env as zoo_env  # noqa: E402
from copa_ref.adapters.pettingzoo import parallel_env  # noqa: E402
from copa_ref.copas import Suit  # noqa: E402
from copa_ref.games import GAMES  # noqa: E402
from tests.adapters.configs import cases  # noqa: E402

ROUNDS = ("copas", "kopa")
CASES = [case for case in cases() if case[0] in ROUNDS]


def one_deal(name: str, params: dict[str, Any]) -> Any:
    openspiel.register()
    return pyspiel.load_game(f"copa_ref_{name}", {**params, openspiel.ONE_DEAL: True})


def play_out(state: Any, rng: random.Random, dealt: set[Any] | None = None) -> Any:
    """Play *state* out at random; every card held at a decision goes into *dealt*."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            if dealt is not None:
                dealt.update(card for hand in state.state.hands for card in hand)
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def books_nothing(name: str, params: dict[str, Any], dealt: set[Any], final: Any) -> bool:
    """Whether the rules may book nothing to every seat in an episode that dealt *dealt*
    and ended at *final* (what allows an all-zero return, not what demands it):

    - Copas: only a COPAS-V1 deal without a copa (COPAS-16; COPAS-19 may still fire);
    - Kopa: only a deal whose winner's gain, the cards left in the other hands, is exactly
      its own penalties, no other seat penalised (KOPA-20: the gain is at least one card,
      and the penalties are subtracted in the same booking)."""
    if name == "copas":
        return (params.get("cards_each") not in (None, -1)
                and not any(card.suit is Suit.COPAS for card in dealt))
    winner = next((seat for seat, hand in enumerate(final.hands) if not hand), None)
    if winner is None:  # no seat went out: the deal is not booked (cut short)
        return False
    gain = sum(len(hand) for hand in final.hands)
    return all(penalty == (gain if seat == winner else 0)
               for seat, penalty in enumerate(final.penalties))


def booked(name: str, start: Any, state: Any) -> list[float]:
    return [float(DEAL_SIGN[name] * (a - b)) for a, b in zip(state.scores, start.scores,
                                                            strict=True)]


def test_copas_pending_ten_is_part_of_the_deal() -> None:
    """200 seeded one-deal Copas episodes (4 seats): none returns all zeros; the episodes
    whose first deal left ten copas pending run through the bonus round, and return the
    points booked then; each return is minus the points booked since the start."""
    game = one_deal("copas", {})
    rng = random.Random(200)
    spanned = 0
    for _ in range(200):
        state = play_out(game.new_initial_state(), rng)
        returns = state.returns()
        assert any(returns), "a one-deal Copas episode returned all zeros"
        start = game.new_initial_state().state
        assert returns == booked("copas", start, state.state)
        assert state.state.pending is None or GAMES["copas"].outcome(state.state) is not None
        spanned += state.state.round > start.round + 1
    assert spanned > 0, "no deal left its ten pending: the seeds test nothing of COPAS-17"


@pytest.mark.parametrize(("name", "label", "params"), CASES,
                         ids=[f"{n}-{label}" for n, label, _ in CASES])
def test_no_all_zero_terminal(name: str, label: str, params: dict[str, Any]) -> None:
    """Every config: one-deal episodes in OpenSpiel, PettingZoo's AEC and parallel
    environments end with the points booked, never all zeros."""
    game = one_deal(name, params)
    rng = random.Random(f"{name} {label}")
    start = game.new_initial_state().state
    episodes = 12 if name == "copas" else 4
    for _ in range(episodes):
        dealt: set[Any] = set()
        state = play_out(game.new_initial_state(), rng, dealt)
        assert state.returns() == booked(name, start, state.state)
        assert any(state.returns()) or books_nothing(name, params, dealt, state.state), (
            f"{name} {label}: an all-zero terminal of a deal the rules make worth something")
    config = config_from_parameters(GAMES[name], params)
    for seed in range(episodes // 2):
        env = zoo_env(name, config, one_deal=True)
        env.reset(seed=seed)
        total = dict.fromkeys(env.possible_agents, 0.0)
        dealt = set()
        for agent in env.agent_iter():
            dealt.update(card for hand in env.unwrapped.game_state.hands for card in hand)
            obs, reward, terminated, truncated, _ = env.last()
            total[agent] += reward
            assert not truncated
            if terminated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        final = env.unwrapped.game_state
        assert final.round > start.round or GAMES[name].outcome(final) is not None
        assert list(total.values()) == booked(name, start, final)
        assert any(total.values()) or books_nothing(name, params, dealt, final), (
            f"{name} {label}: an all-zero PettingZoo episode")
        par = parallel_env(name, config, one_deal=True)
        observations, _ = par.reset(seed=seed)
        rewards: dict[str, float] = {}
        dealt = set()
        while par.agents:
            dealt.update(card for hand in par.game_state.hands for card in hand)
            actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                       for a, o in observations.items()}
            observations, rewards, _, _, _ = par.step(actions)
        assert list(rewards.values()) == booked(name, start, par.game_state)
        assert any(rewards.values()) or books_nothing(name, params, dealt, par.game_state)


def test_a_small_deal_without_copas_books_nothing() -> None:
    """The one all-zero terminal the rules give: a COPAS-V1 deal (2 cards each, 4 seats)
    that deals no copa and where no seat takes both tricks books nothing (COPAS-16); where
    one seat takes both, every other seat books 10 (COPAS-19). Every deal holding a copa
    books something. 300 seeded episodes; both kinds of copa-free deal occur."""
    params = {"cards_each": 2}
    game = one_deal("copas", params)
    start = game.new_initial_state().state
    rng = random.Random(300)
    kinds: set[bool] = set()
    for _ in range(300):
        dealt: set[Any] = set()
        state = play_out(game.new_initial_state(), rng, dealt)
        returns = state.returns()
        assert returns == booked("copas", start, state.state)
        if books_nothing("copas", params, dealt, state.state):
            assert sorted(returns) in ([0.0] * 4, [-10.0] * 3 + [0.0]), returns
            kinds.add(any(returns))
        else:
            assert any(returns), "a deal holding a copa booked nothing"
    assert kinds == {False, True}


def test_one_deal_only_for_games_dealt_in_rounds() -> None:
    with pytest.raises(ValueError, match="not dealt in rounds"):
        zoo_env("kala", one_deal=True)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", ROUNDS)
def test_one_deal_environments_pass_pettingzoos_tests(name: str) -> None:
    """PettingZoo's own API and seed tests pass on one-deal episodes (its parallel tests
    pick actions without the mask: a turn-based game's parallel environment refuses them,
    as for whole matches)."""
    from pettingzoo.test import api_test, seed_test

    api_test(zoo_env(name, one_deal=True), num_cycles=400)
    api_test(zoo_env(name, one_deal=True, observation="observation"), num_cycles=100)
    seed_test(lambda: zoo_env(name, one_deal=True), num_cycles=100)
