"""OpenSpiel's own random simulation test passes for every registered game, under each
value of each config option as a game parameter and with one-deal episodes; the tensors
follow the documented layouts and hide what a seat may not know; the action ids are
seat-independent; the game types are truthful."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (extra 'openspiel')")

from open_spiel.python.algorithms import mcts  # noqa: E402

from copa_ref.adapters import (  # noqa: E402
    TRUNCATED_LENGTH,
    action_space,
    config_from_parameters,
    openspiel,
)
from copa_ref.adapters.tensors import ActionIds, encoder, tables  # noqa: E402
from copa_ref.core.errors import InvalidStateError, MalformedInputError  # noqa: E402
from copa_ref.core.types import Seat  # noqa: E402
from copa_ref.games import GAMES  # noqa: E402
from tests.adapters.configs import cases  # noqa: E402

KOPA_LENGTH = 600
"""Kopa's random matches need not end (KOPA-Q14): its games here are cut at this many
actions (about four rounds) by the adapter's ``max_game_length``, not by a rule."""

OPTION_LENGTH = 240
"""The actions after which a Copas or Kopa random simulation under a non-default option is
cut (about three deals: the options act within deals and between them)."""

CASES = cases()


def load(name: str, params: dict[str, Any] | None = None) -> Any:
    openspiel.register()
    params = dict(params or {})
    if not GAMES[name].random_play_ends:
        params.setdefault(openspiel.LENGTH, KOPA_LENGTH)
    return pyspiel.load_game(f"copa_ref_{name}", params)


def random_step(state: Any, rng: random.Random) -> None:
    """One uniformly random action (chance, a joint action, or the current player's)."""
    if state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    elif state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p))
                             for p in range(state.num_players())])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def play_randomly(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        random_step(state, rng)
    return state


def test_register_is_explicit() -> None:
    names = openspiel.register()
    assert names == tuple(f"copa_ref_{name}" for name in GAMES)
    assert openspiel.register() == names  # registering twice is harmless
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("name", "label", "params"), CASES,
                         ids=[f"{name}-{label}" for name, label, _ in CASES])
def test_random_sim(name: str, label: str, params: dict[str, Any]) -> None:
    """Every option value of every game; a whole match for each default config, the other
    Copas and Kopa configs cut after OPTION_LENGTH actions (three deals or so)."""
    if name in ("copas", "kopa") and label != "default":
        params = {**params, openspiel.LENGTH: OPTION_LENGTH}
    game = load(name, params)
    assert config_from_parameters(GAMES[name], {
        k: v for k, v in params.items() if k != openspiel.LENGTH}) == game.config
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["copas", "kopa"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_sim_one_deal(name: str, players: int) -> None:
    if players < GAMES[name].facts.min_players:
        pytest.skip(f"{name} has no {players}-player game")
    game = load(name, {openspiel.ONE_DEAL: True, "players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


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
        assert load("copas", {"players": 3}).num_distinct_actions() == 40
        assert load("copas", {"players": 3}).num_players() == 3
        assert load("hopper", {"ending": "end_2"}).num_distinct_actions() == 17
        assert load("ronda", {"relift_after_match": True}).num_distinct_actions() == 22

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


# -- returns and game types ----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_returns_follow_the_outcome(name: str) -> None:
    state = play_randomly(load(name), 5)
    outcome = GAMES[name].outcome(state.state)
    returns = state.returns()
    if outcome is None:  # cut short by max_game_length: undecided
        assert state.truncated and len(state.history()) == KOPA_LENGTH
        assert returns == [0.0] * len(returns)
        return
    n = len(returns)
    if name == "copas":  # ranked: +1 winners, -1 losers, 0 the others
        assert all(returns[s] == 1.0 for s in outcome.winners)
        assert all(returns[s] == -1.0 for s in outcome.losers)
        assert load(name).get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
        return
    share = 1 / len(outcome.winners)  # the zero-sum win share
    for s in range(n):
        expected = n / (n - 1) * ((share if s in outcome.winners else 0.0) - 1 / n)
        assert returns[s] == pytest.approx(expected)
    assert sum(returns) == pytest.approx(0.0)
    assert load(name).get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_kala_is_zero_sum_plus_or_minus_one() -> None:
    game = load("kala")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert sorted(play_randomly(game, 2).returns()) == [-1.0, 1.0]


@pytest.mark.parametrize("name", ["copas", "kopa"])
def test_one_deal_ends_with_the_deals_scores(name: str) -> None:
    game = load(name, {openspiel.ONE_DEAL: True})
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.get_parameters()[openspiel.ONE_DEAL] is True
    for seed in range(3):
        state = play_randomly(game, seed)
        reference = state.state
        assert reference.round >= 2 or GAMES[name].outcome(reference) is not None
        sign = -1 if name == "copas" else 1  # Copas books minus points
        # the points booked since the start (a pending ten's bonus round included)
        start = game.new_initial_state().state
        assert state.returns() == [float(sign * (a - b))
                                   for a, b in zip(reference.scores, start.scores, strict=True)]
        assert game.min_utility() <= min(state.returns()) <= max(state.returns()) <= (
            game.max_utility())
    whole = play_randomly(load(name), 0)
    assert whole.state.round > 2 or whole.truncated  # the default is the whole match


def test_only_games_dealt_in_rounds_take_one_deal() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'one_deal'"):
        load("kala", {openspiel.ONE_DEAL: True})


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
        cards = [a for a in legal if state.action_to_string(0, a).startswith("play")]
        state.apply_action(rng.choice(cards or legal))
    outcome = GAMES["kopa"].outcome(state.state)
    assert outcome is not None and not state.truncated
    assert outcome.winners and len(outcome.winners) == 1
    assert state.returns() == [1.0 if s in outcome.winners else -0.5 for s in range(3)]


def test_a_game_starts_from_a_given_position() -> None:
    kala = GAMES["kala"]
    start = play_randomly(load("kala"), 3).state  # a finished game: terminal at once
    game = load("kala", {openspiel.INITIAL: kala.dumps(start).replace(",", ";")})
    state = game.new_initial_state()
    assert state.state == start and state.is_terminal()
    assert pyspiel.load_game(str(game)).new_initial_state().state == start
    with pytest.raises(ValueError, match="another config"):
        load("kala", {openspiel.INITIAL: kala.dumps(start).replace(",", ";"),
                      "harvest": "mandatory"})


# -- action ids ----------------------------------------------------------------------------


class TestActionIds:
    def test_a_card_is_one_id_whatever_seat_plays_it(self) -> None:
        state = dealt()
        seen: dict[int, set[str]] = {}
        while not state.is_terminal() and len(seen) < 40:
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
                continue
            player = state.current_player()
            for action in state.legal_actions():
                name = state.action_to_string(player, action)
                assert name == f"play {state.table.ids.free[action].card.value}"
                seen.setdefault(action, set()).add(name)
            state.apply_action(state.legal_actions()[-1])
        assert all(len(names) == 1 for names in seen.values())
        assert load("copas").num_distinct_actions() == 40

    @pytest.mark.parametrize(("name", "count", "first", "last"), [
        ("copas", 40, "play 2p", "play Ao"),
        ("kopa", 61, "play S1", "pass"),
        ("kala", 418, "sow 00", "place 33"),
        ("ronda", 31, "lift 0", "stop"),
        ("hopper", 16, "shoot at 0", "shoot at 15"),
        ("da_capo", 5, "bid 1", "bid 5"),
    ])
    def test_the_ids_are_documented(self, name: str, count: int, first: str,
                                    last: str) -> None:
        game = GAMES[name]
        ids = ActionIds(action_space(game, game.default_config()),
                        game.num_players(game.default_config()),
                        encoder(game, game.default_config()))
        assert (len(ids), ids.names[0], ids.names[-1]) == (count, first, last)
        assert len(set(ids.names)) == count

    def test_the_legal_ids_are_kept_per_tuple(self) -> None:
        """The ids of a tuple of legal actions are worked out once per tuple object (KALA
        hands out prebuilt tuples), the very objects kept; an equal tuple elsewhere gets
        its own entry; a pickled copy starts without them; one table per config."""
        game = GAMES["kala"]
        config = game.default_config()
        coder, ids = tables(game, config)
        again_coder, again_ids = tables(game, config)
        assert again_coder is coder and again_ids is ids  # made once
        legal = game.legal_actions(game.new_game(config))
        entry = ids.legal(legal)
        assert ids.legal(legal) is entry
        assert entry.ids == sorted(ids.id[a] for a in legal)
        assert all(entry.by_id[ids.id[a]] is a for a in legal)
        assert entry.mask.sum() == len(legal) and entry.mask[entry.ids].all()
        again = tuple(list(legal))
        assert again is not legal and ids.legal(again) is not entry
        assert ids.legal(again).ids == entry.ids
        assert pickle.loads(pickle.dumps(ids))._memo == {}

    def test_an_illegal_id_is_refused(self) -> None:
        state = load("kala").new_initial_state()
        illegal = next(a for a in range(418) if a not in state.legal_actions())
        with pytest.raises((ValueError, pyspiel.SpielError), match="not legal"):
            state.apply_action(illegal)


PSEUDO = (-1, -2, -3, -4)
"""OpenSpiel's pseudo-players (chance, simultaneous, invalid, terminal)."""


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_python_answers_are_openspiels(name: str) -> None:
    """The state's own ``legal_actions`` (its usual call answered in Python, no round trip
    into C++) answers as OpenSpiel's C++ ``PyState`` does, and so do the node tests: at
    every node of a random game, for every player and pseudo-player."""
    game = load(name, {openspiel.LENGTH: 120})
    rng = random.Random(3)
    state, base = game.new_initial_state(), pyspiel.State
    while True:
        for method in ("is_chance_node", "is_simultaneous_node", "is_player_node",
                       "is_terminal", "current_player", "legal_actions"):
            assert getattr(state, method)() == getattr(base, method)(state), method
        for player in (*range(game.num_players()), *PSEUDO):
            try:
                expected: Any = base.legal_actions(state, player)
            except pyspiel.SpielError as err:
                expected = str(err)
            try:
                found: Any = state.legal_actions(player)
            except pyspiel.SpielError as err:
                found = str(err)
            assert found == expected, player
        if state.is_terminal():
            break
        random_step(state, rng)


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


TENSORS = {  # name: (observation size, information-state size or None), default config
    "copas": (552, 2192), "kopa": (272, 455), "ronda": (132, 202), "kala": (78, None),
    "hopper": (433, 433), "da_capo": (256, 256)}


class TestObservations:
    @pytest.mark.parametrize("name", sorted(GAMES))
    def test_the_tensors_have_the_documented_sizes(self, name: str) -> None:
        game = load(name)
        size, information = TENSORS[name]
        assert game.observation_tensor_shape() == [size]
        provides = game.get_type().provides_information_state_tensor
        assert provides == (information is not None)
        if information is not None:
            assert game.information_state_tensor_shape() == [information]

    def test_the_tensor_is_the_seats_view_in_the_layout(self) -> None:
        state = dealt()
        state.apply_action(state.legal_actions()[0])
        coder = state.table.coder
        for seat in range(4):
            view = GAMES["copas"].observe(state.state, Seat(seat))
            expected = coder.observation_tensor(view, seat)
            assert np.array_equal(np.asarray(state.observation_tensor(seat)), expected)
            hand = np.asarray(state.observation_tensor(seat))[:40]
            cards = {state.table.ids.free[k].card for k in np.flatnonzero(hand)}
            assert cards == set(view.hand)

    def test_the_observer_dict_names_the_segments(self) -> None:
        game = load("kala")
        from open_spiel.python.observation import make_observation

        observation = make_observation(game)
        state = game.new_initial_state()
        observation.set_from(state, 0)
        assert list(observation.dict) == [s.name for s in state.table.coder.observation.segments]
        assert observation.dict["stores"].tolist() == [28.0, 28.0]
        assert observation.dict["cups"].shape == (2, 4, 4)

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
            assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
            assert a.observation_string(seat) == b.observation_string(seat)
            assert a.information_state_string(seat) == b.information_state_string(seat)
        for seat in (1, 2):
            assert a.observation_tensor(seat) != b.observation_tensor(seat)
            assert a.information_state_string(seat) != b.information_state_string(seat)

    @pytest.mark.parametrize("name", sorted(GAMES))
    def test_information_state_strings_are_compact(self, name: str) -> None:
        game = load(name)
        state = play_randomly(game, 4)
        for seat in range(game.num_players()):
            assert len(state.information_state_string(seat)) < 600
            assert state.information_state_string(seat).startswith(f"p{seat} ")

    def test_the_information_state_holds_the_order_of_play(self) -> None:
        state = dealt()
        first = state.current_player()
        state.apply_action(state.legal_actions()[0])
        size = state.table.coder.observation.size
        for seat in range(4):
            history = np.asarray(state.information_state_tensor(seat))[size:]
            assert history.sum() == 0.0  # no trick finished yet
        while len(state.state.tricks) == 0:
            state.apply_action(state.legal_actions()[0])
        history = np.asarray(state.information_state_tensor(first))[size:]
        assert history[:4 * 40].sum() == 4.0  # the first trick's four cards

    def test_ronda_remembers_what_a_lift_showed(self) -> None:
        game = load("ronda")
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        coder = state.table.coder
        lift = next(a for a in state.legal_actions()
                    if state.action_to_string(0, a) == "lift 0")
        state.apply_action(lift)
        beans = state.state.cups[0]
        memory = np.asarray(state.information_state_tensor(1))[coder.observation.size:]
        plane = memory.reshape(10, coder.beans + 1)
        assert plane[0, beans] == 1.0 and plane[1:, coder.beans].tolist() == [1.0] * 9
        assert "mem " in state.information_state_string(1)


# -- algorithms on it ------------------------------------------------------------------

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


def _random_prefix(game: Any, steps: int, seed: int, stop_at_chance: bool = False) -> Any:
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal() or (stop_at_chance and state.is_chance_node()):
            break
        random_step(state, rng)
    return state


@pytest.mark.parametrize("name", [n for n in sorted(GAMES) if GAMES[n].facts.chance])
def test_a_chance_id_not_listed_is_refused(name: str) -> None:
    """A chance action is one of the ids ``chance_outcomes`` lists (#32 finding 5: HOPPER
    took ``-2`` as the second outcome from the end, and an id past the end raised a bare
    ``IndexError``); the history is left as it was."""
    game = load(name)
    found = 0
    for seed in range(40):
        state = _random_prefix(game, 10 + seed * 3, seed)
        rng = random.Random(seed)
        for _ in range(200):  # on to a chance node (RONDA's is at the start only)
            if state.is_terminal() or state.is_chance_node():
                break
            random_step(state, rng)
        if not state.is_chance_node():
            state = game.new_initial_state()  # the first chance node, at the start
            if not state.is_chance_node():
                continue
        listed = {k for k, _ in state.chance_outcomes()}
        history = state.history()
        with pytest.raises(pyspiel.SpielError):  # OpenSpiel's own check: kInvalidAction
            state.apply_action(-1)
        for bad in (-2, -3, max(listed) + 1, openspiel.MAX_CHANCE_OUTCOMES,
                    *[k for k in range(openspiel.MAX_CHANCE_OUTCOMES) if k not in listed][:3]):
            with pytest.raises(ValueError, match="chance outcome"):
                state.apply_action(bad)
            assert state.history() == history
        found += 1
        if found >= 3:
            break
    assert found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_games_and_states_pickle_mid_game(name: str) -> None:
    """Games and states pickle as OpenSpiel's Python games' do (#32 finding 5), mid-game,
    and the copy plays on as the original."""
    params = {openspiel.ONE_DEAL: True} if name in ("copas", "kopa") else {}
    game = load(name, params)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and str(again) == str(game)
    state = _random_prefix(game, 25, 1)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() and copy.state == state.state
    assert str(copy.get_game()) == str(game)
    for seat in range(game.num_players()):
        assert copy.information_state_string(seat) == state.information_state_string(seat)
        assert copy.observation_tensor(seat) == state.observation_tensor(seat)
    rng1, rng2 = random.Random(5), random.Random(5)
    for _ in range(20):
        if state.is_terminal():
            break
        random_step(state, rng1)
        random_step(copy, rng2)
    assert copy.history() == state.history() and copy.returns() == state.returns()


@pytest.mark.parametrize("name", ["kala", "ronda", "da_capo"])
def test_copies_read_their_own_values(name: str) -> None:
    """A state reads its values from a slot, and OpenSpiel copies them from ``__dict__``
    (``Clone``, ``deserialize_state``, pickling): each copy reads the values it was given,
    and a step of the copy leaves the original as it was."""
    game = load(name)
    state = _random_prefix(game, 4, 3)
    assert not state.is_terminal()
    held = state.held
    for copy in (state.clone(), game.deserialize_state(state.serialize()),
                 pickle.loads(pickle.dumps(state))):
        assert copy.held is copy.__dict__["held"]
        assert copy.state == state.state and copy.current_player() == state.current_player()
        random_step(copy, random.Random(1))
        assert copy.held is copy.__dict__["held"] and copy.held is not held
        assert len(copy.history()) > len(state.history())
        assert state.held is held and state.__dict__["held"] is held


def test_a_state_unpickles_in_a_fresh_process(tmp_path: Any) -> None:
    """The unpickled class registers its game: a new process needs no ``register()``."""
    import subprocess
    import sys

    game = load("hopper")
    state = _random_prefix(game, 30, 2)
    path = tmp_path / "state.pkl"
    path.write_bytes(pickle.dumps((game, state)))
    code = ("import pickle,sys; g, s = pickle.load(open(sys.argv[1], 'rb')); "
            "print(type(g).__name__, len(s.history()))")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["CopaHopperGame", str(len(state.history()))]
