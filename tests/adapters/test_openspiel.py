"""OpenSpiel's own random simulation test passes for every registered game, under each
value of each config option as a game parameter; observations hide what a seat may not
know; an OpenSpiel algorithm (MCTS) runs on a game and beats a random player."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (extra 'openspiel')")

from open_spiel.python.algorithms import mcts  # noqa: E402

from copa_ref.adapters import (  # noqa: E402
    TRUNCATED_LENGTH,
    config_from_parameters,
    openspiel,
    padded,
)
from copa_ref.core.errors import InvalidStateError, MalformedInputError  # noqa: E402
from copa_ref.core.types import Seat  # noqa: E402
from copa_ref.games import GAMES  # noqa: E402
from tests.adapters.configs import cases  # noqa: E402

KOPA_LENGTH = 600
"""Kopa's random matches need not end (KOPA-Q14): its games here are cut at this many
actions (about four rounds) by the adapter's ``max_game_length``, not by a rule."""

CASES = cases()


def load(name: str, params: dict[str, Any] | None = None) -> Any:
    openspiel.register()
    params = dict(params or {})
    if not GAMES[name].random_play_ends:
        params.setdefault(openspiel.LENGTH, KOPA_LENGTH)
    return pyspiel.load_game(f"copa_ref_{name}", params)


def play_randomly(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p))
                                 for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_register_is_explicit() -> None:
    names = openspiel.register()
    assert names == tuple(f"copa_ref_{name}" for name in GAMES)
    assert openspiel.register() == names  # registering twice is harmless
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("name", "label", "params"), CASES,
                         ids=[f"{name}-{label}" for name, label, _ in CASES])
def test_random_sim(name: str, label: str, params: dict[str, Any]) -> None:
    game = load(name, params)
    assert config_from_parameters(GAMES[name], params) == game.config
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


class TestParameters:
    def test_each_option_is_a_parameter(self) -> None:
        game = load("kala", {"harvest": "mandatory", "first_player": 1})
        kala = GAMES["kala"]
        expected = {**kala.to_json(kala.default_config()), "harvest": "mandatory",
                    "first_player": 1}
        assert game.config == kala.config_from_json(expected)
        assert game.get_parameters()["harvest"] == "mandatory"

    def test_the_game_string_loads_the_same_game(self) -> None:
        shot = '{"type":"seat_accuracy","accuracy":["1/2","1/3"]}'
        game = load("hopper", {"shot_model": shot, "players": 2})
        again = pyspiel.load_game(str(game))
        assert again.config == game.config
        assert str(again) == str(game)

    def test_an_optional_integer_is_minus_one_for_none(self) -> None:
        assert load("kopa").config.first_dealer is None
        assert load("kopa", {"first_dealer": 2}).config.first_dealer == 2

    def test_an_action_space_follows_the_config(self) -> None:
        assert load("copas", {"players": 3}).num_distinct_actions() == len(
            openspiel.action_space(GAMES["copas"], load("copas", {"players": 3}).config))
        assert load("copas", {"players": 3}).num_players() == 3

    @pytest.mark.parametrize(("params", "error", "says"), [
        ({"harvest": "maybe"}, MalformedInputError, "harvest"),
        ({"first_player": 2}, InvalidStateError, "KALA-3"),
    ])
    def test_a_bad_value_names_the_option_or_rule(self, params: dict[str, Any],
                                                  error: type[Exception], says: str) -> None:
        with pytest.raises(error, match=says):
            load("kala", params)

    def test_an_unknown_parameter_is_refused(self) -> None:
        with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'zz'"):
            load("kala", {"zz": 1})

    def test_a_parameter_of_the_wrong_type_is_refused(self) -> None:
        with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter harvest"):
            load("kala", {"harvest": 1})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_returns_follow_the_outcome(name: str) -> None:
    state = play_randomly(load(name), 5)
    outcome = GAMES[name].outcome(state.state)
    returns = state.returns()
    if outcome is None:  # cut short by max_game_length: undecided
        assert state.truncated and len(state.history()) == KOPA_LENGTH
        assert returns == [0.0] * len(returns)
        return
    assert all(returns[s] == 1.0 for s in outcome.winners)
    assert all(returns[s] == -1.0 for s in outcome.losers)


def test_kopa_is_truncated_by_default_only() -> None:
    openspiel.register()
    game = pyspiel.load_game("copa_ref_kopa")
    assert game.get_parameters()[openspiel.LENGTH] == TRUNCATED_LENGTH
    assert game.max_game_length() == TRUNCATED_LENGTH
    assert pyspiel.load_game("copa_ref_kala").get_parameters()[openspiel.LENGTH] == 0


def test_a_kopa_match_played_out_ends_with_its_outcome() -> None:
    """Untruncated, a match whose players play a card whenever they can (seed 1) ends by
    its rules (KOPA-22) and OpenSpiel returns its outcome."""
    game = load("kopa", {openspiel.LENGTH: 0})
    rng, state = random.Random(1), game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        legal = state.legal_actions()
        cards = [a for a in legal if '"play"' in state.action_to_string(0, a)]
        state.apply_action(rng.choice(cards or legal))
    outcome = GAMES["kopa"].outcome(state.state)
    assert outcome is not None and not state.truncated
    assert state.returns() == [1.0 if s in outcome.winners else -1.0 for s in range(3)]


# -- observations ------------------------------------------------------------------------


def dealt(order: list[int] | None = None) -> Any:
    """A Copas state dealt in *order* (card indices, from the dealer's right; default: the
    lowest card left each time)."""
    state = load("copas").new_initial_state()
    for index in order or ():
        state.apply_action(index)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def deal_order() -> list[int]:
    """The card indices of the default deal, in the order dealt."""
    return [int(a) for a in dealt().history()]


class TestObservations:
    def test_the_tensor_is_the_seats_view(self) -> None:
        state = dealt()
        for seat in range(4):
            view = GAMES["copas"].dumps(GAMES["copas"].observe(state.state, Seat(seat)))
            expected = np.frombuffer(padded(view), dtype=np.uint8).astype(np.float32)
            assert np.array_equal(np.asarray(state.observation_tensor(seat)), expected)

    def test_another_seats_hidden_cards_change_nothing_for_this_seat(self) -> None:
        order = deal_order()  # the k-th card dealt goes to seat (dealer + 1 + k) % 4
        dealer = dealt().state.dealer
        to_one = next(k for k in range(len(order)) if (dealer + 1 + k) % 4 == 1)
        to_two = next(k for k in range(len(order)) if (dealer + 1 + k) % 4 == 2)
        swapped = list(order)
        swapped[to_one], swapped[to_two] = swapped[to_two], swapped[to_one]
        a, b = dealt(order), dealt(swapped)
        assert a.state.hands[1] != b.state.hands[1]
        assert a.state.hands[0] == b.state.hands[0]
        for seat in (0, 3):  # neither seat 1 nor seat 2: sees neither hand
            assert a.observation_tensor(seat) == b.observation_tensor(seat)
            assert a.observation_string(seat) == b.observation_string(seat)
            assert a.information_state_string(seat) == b.information_state_string(seat)
        for seat in (1, 2):
            assert a.observation_tensor(seat) != b.observation_tensor(seat)
            assert a.information_state_string(seat) != b.information_state_string(seat)

    def test_the_information_state_recalls_the_seats_own_choices(self) -> None:
        state = dealt()
        player = state.current_player()
        action = state.legal_actions()[0]
        state.apply_action(action)
        assert f"I chose {state.action_to_string(player, action)}" in (
            state.information_state_string(player))


# -- an algorithm on it ------------------------------------------------------------------

MCTS_GAMES = 10
"""KALA games between an MCTS bot and a uniform random player, seats alternating."""


def test_mcts_beats_a_random_player_at_kala() -> None:
    game = load("kala")
    wins = 0
    for k in range(MCTS_GAMES):
        seeded = np.random.RandomState(k)
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20, random_state=seeded,
                           evaluator=mcts.RandomRolloutEvaluator(1, seeded))
        rng, seat = random.Random(k), k % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            mine = state.current_player() == seat
            state.apply_action(bot.step(state) if mine else rng.choice(state.legal_actions()))
        wins += state.returns()[seat] > 0
    assert wins >= MCTS_GAMES - 2, f"MCTS won {wins} of {MCTS_GAMES}"  # it wins 9
