"""PettingZoo's own API and seeding tests pass for every registered game's environment,
wrapped and bare (under each value of each config option), DA CAPO's parallel environment
passes the parallel API test, the environments pickle, behave as the classic ones do
(wrappers, state(), versioned modules, render modes), and an observation hides what a seat
may not know."""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (extra 'pettingzoo')")

from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils import wrappers

from copa_ref.adapters import TRUNCATED_LENGTH
from copa_ref.adapters.pettingzoo import env, parallel_env, raw_env, stacked_env
from copa_ref.core import MoverKind
from copa_ref.games import GAMES
from tests.adapters.configs import option_configs

pytestmark = pytest.mark.filterwarnings(
    # The observation is a Dict of the tensor and the action mask, as PettingZoo's classic
    # games have it; api_test warns about any observation that is not one array.
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
)

KOPA_STEPS = 300
"""Kopa's random matches need not end (KOPA-Q14): its environments here truncate after this
many steps (about three rounds) by the adapter's ``max_steps``, not by a rule."""

NO_DECISION = {("hopper", "aiming=false"): "without aiming (HOPPER-5) a HOPPER game is chance "
                                          "alone, no seat ever has an action: it is decided "
                                          "at reset, and api_test asserts 'terminations must "
                                          "all be False after reset'; passing it would take "
                                          "an action the rules do not have "
                                          "(test_a_game_decided_before_any_choice plays it)"}
SAMPLE = [pytest.param(name, label, config, marks=pytest.mark.skip(reason=NO_DECISION[name, label]))
          if (name, label) in NO_DECISION else (name, label, config)
          for name in sorted(GAMES) for label, config in option_configs(name)]
"""Each game's default config and each value of each option once (cheap here: the API test
plays 200 cycles, not whole games)."""
EVERY = [(name, label, config) for name in sorted(GAMES) for label, config in option_configs(name)]
"""As :data:`SAMPLE`, none skipped (``seed_test`` plays a game decided at reset)."""
IDS = [f"{name}-{label}" for name in sorted(GAMES) for label, _ in option_configs(name)]


def make(name: str, config: Any = None, *, bare: bool = False, **kwargs: Any) -> Any:
    if not GAMES[name].random_play_ends:
        kwargs.setdefault("max_steps", KOPA_STEPS)
    return (raw_env if bare else env)(GAMES[name], config, **kwargs)


def make_stacked(name: str, config: Any = None, **kwargs: Any) -> Any:
    """As :func:`make`, wrapped in PettingZoo's own three classes."""
    if not GAMES[name].random_play_ends:
        kwargs.setdefault("max_steps", KOPA_STEPS)
    return stacked_env(GAMES[name], config, **kwargs)


@pytest.mark.parametrize(("name", "label", "config"), SAMPLE, ids=IDS)
def test_api(name: str, label: str, config: Any) -> None:
    api_test(make(name, config, render_mode="ansi"), num_cycles=200)
    if label == "default":
        api_test(make(name, config, bare=True, observation="observation"), num_cycles=100)


@pytest.mark.parametrize(("name", "label", "config"), EVERY, ids=IDS)
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
        assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
        done = terminated or truncated
        e.step(None if done else e.action_space(agent).sample(obs["action_mask"]))
    assert isinstance(e.render(), str)
    base = e.unwrapped
    if GAMES[name].random_play_ends:
        assert GAMES[name].outcome(base.game_state) is not None
        assert sum(base._cumulative_rewards.values()) == pytest.approx(
            0.0 if name != "copas" else sum(base._cumulative_rewards.values()))
    else:  # cut short by max_steps: undecided, every agent truncated
        assert GAMES[name].outcome(base.game_state) is None and base.steps == KOPA_STEPS


@pytest.mark.parametrize(("name", "max_steps"), [("kala", None), ("kala", 6), ("kopa", 40)])
def test_a_steps_rewards_keep_their_values(name: str, max_steps: int | None) -> None:
    """The zero rewards of the steps are one dict, never written to: every ``rewards`` read
    keeps the values it had (the final ones and the truncation's are a dict of their own),
    but the last, which PettingZoo's steps of the finished agents empty."""
    e = env(GAMES[name], max_steps=max_steps)
    e.reset(seed=5)
    rng = random.Random(5)
    kept: list[tuple[dict[str, float], dict[str, float]]] = []
    for _ in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated
               else rng.choice(np.flatnonzero(obs["action_mask"])))
        kept.append((e.rewards, dict(e.rewards)))
    assert len(kept) > 3 and any(any(r.values()) for _, r in kept) == (max_steps is None)
    for read, then in kept[:-len(e.possible_agents) - 1]:  # the last: PettingZoo's dead
        assert read == then                                  # steps empty it, as ever
    e.reset(seed=6)
    assert e.rewards == dict.fromkeys(e.possible_agents, 0.0)


@pytest.mark.parametrize("name", ["ronda", "copas", "kala"])
def test_reset_seeds_chance_as_one_generator(name: str) -> None:
    """``reset(seed=s)`` deals as ``random.Random(s)`` does (made when chance first needs
    it), and a ``reset()`` after it goes on with the same generator."""
    game = GAMES[name]
    e = raw_env(game)
    rng = random.Random(9)

    draws = 0

    def dealt() -> Any:
        nonlocal draws
        state = game.new_game(game.default_config())
        while game.to_move(state).kind is MoverKind.CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            draws += 1
        return state

    e.reset(seed=9)
    assert e.game_state == dealt()
    e.reset()
    assert e.game_state == dealt()
    e.reset(seed=9)
    rng = random.Random(9)
    assert e.game_state == dealt()
    assert (draws > 0) == (name != "kala")  # KALA has no chance: its generator is never made
    assert (e._rng is None) == (name == "kala")


def test_kopa_is_truncated_by_default_only() -> None:
    assert raw_env(GAMES["kopa"]).max_steps == TRUNCATED_LENGTH
    assert raw_env(GAMES["kala"]).max_steps is None
    assert raw_env(GAMES["kopa"], max_steps=None).max_steps is None


# -- as PettingZoo's users expect -----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_env_pickles_mid_game(name: str) -> None:
    e = make(name)
    e.reset(seed=4)
    for _ in range(5):
        obs = e.observe(e.agent_selection)
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    copy = pickle.loads(pickle.dumps(e))
    assert copy.unwrapped.game_state == e.unwrapped.game_state
    agent = e.agent_selection
    assert np.array_equal(copy.observe(agent)["observation"], e.observe(agent)["observation"])
    pickle.loads(pickle.dumps(parallel_env(GAMES[name])))


def test_the_versioned_modules() -> None:
    from copa_ref.adapters.pettingzoo import copas_v0, kala_v0

    e = kala_v0.env(render_mode="ansi")
    assert e.metadata["name"] == "kala_v0" and "ansi" in e.metadata["render_modes"]
    assert e.unwrapped.game.name == "kala"
    import copa_ref.adapters.pettingzoo.kopa_v0 as kopa_v0  # importable by name too

    assert kopa_v0.raw_env().game.name == "kopa"
    assert copas_v0.parallel_env().game.name == "copas"
    assert env("ronda").unwrapped.game.name == "ronda"  # a registry name is enough


def test_the_wrappers_are_the_classic_ones() -> None:
    e = env(GAMES["kala"])
    with pytest.raises(AssertionError, match="reset"):  # OrderEnforcingWrapper
        e.step(0)
    e.reset(seed=1)
    with pytest.raises(AssertionError):  # AssertOutOfBoundsWrapper
        e.step(10_000)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    offender = e.agent_selection
    e.step(illegal)  # TerminateIllegalWrapper: the game ends, the offender loses
    assert all(e.terminations.values())
    assert e.rewards[offender] == -1.0
    assert all(r == 0.0 for a, r in e.rewards.items() if a != offender)
    bare = raw_env(GAMES["kala"])
    bare.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        bare.step(illegal)


@pytest.mark.parametrize("name", ["kala", "da_capo"])
def test_step_if_legal_plays_a_legal_id_only(name: str) -> None:
    """``step_if_legal`` (the step ``env()``'s wrapper hands a legal id to) plays an id the
    agent selected may play and says so; any other id changes nothing (the same ``last``,
    the same agent, the same state), as it does once the game is over."""
    e = raw_env(GAMES[name])
    e.reset(seed=3)
    while e.agents:
        before = (e.agent_selection, e.game_state, _plain(e.last()))
        mask = e.observe(e.agent_selection)["action_mask"]
        if e.terminations[e.agent_selection] or e.truncations[e.agent_selection]:
            assert not e.step_if_legal(0)
            e.step(None)
            continue
        for illegal in (*np.flatnonzero(mask == 0)[:1].tolist(), -1, len(mask)):
            assert not e.step_if_legal(illegal)
            assert (e.agent_selection, e.game_state, _plain(e.last())) == before
        assert e.step_if_legal(np.int64(np.flatnonzero(mask)[0]))
        assert (e.agent_selection, e.game_state) != before[:2]
    assert not e.step_if_legal(0)


def _answer(call: Any) -> Any:
    """What *call* gives (arrays as lists), or the exception it raises (type, message)."""
    try:
        found = call()
    except Exception as err:  # compared as values: the same error, the same message
        return type(err).__name__, str(err)
    return _plain(found)


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.dtype.str, value.tolist()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_plain(v) for v in value]
    return value


def _seen(e: Any) -> Any:
    """Everything an agent loop reads of an environment."""
    return [_answer(lambda name=name: getattr(e, name)) for name in (
        "agents", "agent_selection", "rewards", "_cumulative_rewards", "terminations",
        "truncations", "infos", "num_agents")] + [_answer(e.last), str(e)]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_env_behaves_as_the_classic_wrappers_stacked(name: str) -> None:
    """``env()``'s stack, its usual step passed straight on, against PettingZoo's three
    wrappers stacked as they are (``stacked_env``), the same calls side by side, every
    answer compared: before ``reset``, legal, illegal and out-of-bounds actions, dead
    steps, a step after the end, the warnings; the first episode plays legal actions only
    (to its end or the cut)."""
    from pettingzoo.utils.env_logger import EnvLogger

    one = make(name, max_steps=80)
    classic = make_stacked(name, max_steps=80)
    assert isinstance(one, wrappers.OrderEnforcingWrapper)
    for e in (one, classic):  # every call before reset
        e.before = [_answer(lambda e=e: e.step(0)), _answer(lambda e=e: e.observe("player_0")),
                    _answer(e.last), _answer(e.agent_iter), _answer(e.state),
                    _answer(lambda e=e: e.agent_selection)]
    assert one.before == classic.before
    rng = random.Random(11)
    for episode in range(4):
        EnvLogger.flush()
        for e in (one, classic):
            e.reset(seed=episode)
        warned: list[Any] = []
        loops = [iter(one.agent_iter()), iter(classic.agent_iter())]
        while True:
            agents = [_answer(lambda it=it: next(it)) for it in loops]
            assert agents[0] == agents[1]
            if agents[0] == ("StopIteration", ""):
                break
            assert _seen(one) == _seen(classic)
            obs, _, terminated, truncated, _ = one.last()
            legal = np.flatnonzero(obs["action_mask"])
            illegal = np.flatnonzero(obs["action_mask"] == 0)
            roll = rng.random()
            if terminated or truncated:
                action: Any = None if roll < 0.9 else int(rng.choice(legal.tolist() or [0]))
            elif episode and roll < 0.04:
                action = one.unwrapped.action_count  # outside the space
            elif episode and roll < 0.1 and len(illegal):
                action = int(rng.choice(illegal))
            elif episode and roll < 0.12:
                action = float(rng.choice(legal))  # a legal id as a float: outside
            else:  # a legal id as an int or a NumPy integer scalar (uint64: outside)
                pick = int(rng.choice(legal))
                action = (np.int64(pick), pick, np.int32(pick), np.uint16(pick),
                          np.uint64(pick))[rng.randrange(5)]
            queued = len(EnvLogger.mqueue)
            assert _answer(lambda a=action: one.step(a)) == _answer(
                lambda a=action: classic.step(a))
            warned.append(len(EnvLogger.mqueue) - queued)
        assert _seen(one) == _seen(classic)
        queued = len(EnvLogger.mqueue)
        assert _answer(lambda: one.step(None)) == _answer(lambda: classic.step(None))
        assert len(EnvLogger.mqueue) - queued == 2  # the step after the end, twice
    EnvLogger.flush()



def test_state_is_every_seats_observation() -> None:
    e = raw_env(GAMES["copas"])
    e.reset(seed=3)
    state = e.state()
    assert e.state_space.shape == state.shape == (4 * 552,)
    views = [e.coder.observation_tensor(GAMES["copas"].observe(e.game_state, s), s)
             for s in range(4)]
    assert np.array_equal(state, np.concatenate(views))
    hands = state.reshape(4, 552)[:, :40]
    assert hands.sum() == 40.0  # between them the seats hold every card


def test_render_modes() -> None:
    assert isinstance(raw_env(GAMES["kala"], render_mode="ansi").render(), str)
    with pytest.raises(ValueError, match="rgb_array"):
        raw_env(GAMES["kala"], render_mode="rgb_array")


def test_the_observation_can_be_the_plain_view() -> None:
    e = raw_env(GAMES["ronda"], observation="observation")
    assert e.observation_space("player_0")["observation"].shape == (132,)
    assert raw_env(GAMES["ronda"]).observation_space("player_0")["observation"].shape == (202,)
    assert raw_env(GAMES["kala"]).observation_space("player_0")["observation"].shape == (78,)


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


TURN_BASED = [(name, label, config) for name in sorted(GAMES) if name != "da_capo"
              for label, config in option_configs(name)]


@pytest.mark.parametrize(("name", "label", "config"), TURN_BASED,
                         ids=[f"{name}-{label}" for name, label, _ in TURN_BASED])
def test_parallel_api_every_game(name: str, label: str, config: Any) -> None:
    """PettingZoo's parallel API test on the other five games, each value of each option
    once (DA CAPO's above), HOPPER without aiming too: there the game is decided by chance
    before any choice (at reset, as a rule), and the first step reports its end."""
    options = {} if GAMES[name].random_play_ends else {"max_steps": KOPA_STEPS}
    parallel_api_test(parallel_env(GAMES[name], config, **options), num_cycles=300)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_parallel_seeding_every_game(name: str) -> None:
    """``parallel_seed_test`` with the masks: two parallel environments reset with one seed
    and stepped with the same masked choices answer alike to the end. (PettingZoo's own
    ``parallel_seed_test``, run on DA CAPO above, samples unmasked actions and stops after
    one step: in a turn-based game it would have a seat that does not move play an id.)"""
    options = {} if GAMES[name].random_play_ends else {"max_steps": KOPA_STEPS}
    envs = [parallel_env(GAMES[name], **options) for _ in range(2)]
    seen = [e.reset(seed=42) for e in envs]
    rng = np.random.default_rng(0)
    while envs[0].agents:
        obs = seen[0][0]
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                   for a in envs[0].agents}
        seen = [e.step(actions) for e in envs]
        for one, other in zip(*seen, strict=True):
            assert data_equivalence(one, other)
    assert envs[1].agents == []


HOPPER_UNAIMED = dict(option_configs("hopper"))["aiming=false"]


@pytest.mark.parametrize("seed", range(5))
def test_a_game_decided_before_any_choice(seed: int) -> None:
    """HOPPER without aiming is chance alone (every shot pure chance, HOPPER-5's option off):
    the game is decided at reset, as a rule. Both environments then play the episode PettingZoo's
    way: the AEC one has every agent terminated from the start, each with its final reward
    in ``last()``, and each steps out with ``None``; the parallel one reports the end and the
    rewards at its first step (every agent's one legal action ``no_part``). PettingZoo's
    ``api_test`` itself refuses an episode that ends at reset (it asserts no agent is
    terminated after ``reset``), so it is not run on this config (``NO_DECISION``)."""
    game = GAMES["hopper"]
    for make_env in (env, raw_env):
        e = make_env(game, HOPPER_UNAIMED)
        e.reset(seed=seed)
        outcome = game.outcome(e.unwrapped.game_state)
        assert outcome is not None
        assert all(e.terminations.values())
        got = {}
        for agent in e.agent_iter():
            _, reward, terminated, truncated, _ = e.last()
            assert terminated and not truncated
            assert not e.observe(agent)["action_mask"].any()
            got[agent] = reward
            e.step(None)
        assert not e.agents
        assert sorted(got) == e.possible_agents
        assert sorted(got.values()) == [-1.0, 1.0]  # a two-seat win and loss
    par = parallel_env(game, HOPPER_UNAIMED)
    obs, _ = par.reset(seed=seed)
    assert all(np.flatnonzero(o["action_mask"]).tolist() == [par.no_part]
               for o in obs.values())
    _, rewards, terminations, truncations, _ = par.step({})
    assert all(terminations.values()) and not any(truncations.values())
    assert rewards == got  # the same deal, seeded alike
    assert par.agents == []


def test_parallel_bids_are_applied_together() -> None:
    e = parallel_env(GAMES["da_capo"])
    obs, _ = e.reset(seed=1)
    assert all(o["action_mask"][e.no_part] == 0 for o in obs.values())  # both bid
    before = e.game_state
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    e.step(actions)
    assert e.game_state != before
    with pytest.raises(ValueError, match="must choose now"):
        e.step({})


# -- what a seat may know ----------------------------------------------------------------


def _swap_hidden_cards(e: Any, *, plant: bool = False) -> dict[str, bool]:
    """For each agent, whether its observation changes when seats 1 and 2 swap a card of
    their hands (a fresh deal of *e*'s game); *plant*: with a planted leak, each seat's
    view given the next seat's hand as its own."""
    name = e.game.name
    if plant:
        honest = e.game.observe

        def leaky(state: Any, seat: Any) -> Any:
            view = honest(state, seat)
            return view if seat is None else attrs.evolve(
                view, hand=state.hands[(seat + 1) % len(state.hands)])

        e.game = attrs.evolve(e.game, observe=leaky)
    e.reset(seed=2)
    dealt = e.game_state
    hands = [list(h) for h in dealt.hands]
    hands[1][0], hands[2][0] = hands[2][0], hands[1][0]
    swapped = attrs.evolve(dealt, hands=tuple(tuple(sorted(h, key=lambda c: c.index))
                                              for h in hands))
    GAMES[name].check_state(swapped)
    seen = {}
    for state in (dealt, swapped):
        e._set_state(state)
        seen[state] = {a: e.observe(a)["observation"] for a in e.possible_agents}
    return {a: not np.array_equal(seen[dealt][a], seen[swapped][a]) for a in e.possible_agents}


@pytest.mark.parametrize("name", ["copas", "kopa"])
def test_another_seats_hidden_cards_change_nothing_for_this_seat(name: str) -> None:
    changed = _swap_hidden_cards(make(name, bare=True))
    for agent, differs in changed.items():  # seats 1 and 2 see their own hands change
        assert differs == (agent in ("player_1", "player_2")), agent


@pytest.mark.parametrize("name", ["copas", "kopa"])
def test_a_planted_leak_is_caught(name: str) -> None:
    """The test above can fail: a view showing the next seat's hand shows seat 0 seat 1's
    change (seat 1 sees seat 2's, seat 2 seat 3's, none its own)."""
    changed = _swap_hidden_cards(make(name, bare=True), plant=True)
    assert changed["player_0"] and changed["player_1"]


def test_a_game_without_hidden_information_shows_every_seat_the_state() -> None:
    """What the environments rely on to read the state as a seat's view (no ``observe``
    call) for a game whose fact sheet declares no hidden information; a game declaring
    hidden information has its views made by ``observe``."""
    whole = sorted(n for n, g in GAMES.items() if not g.facts.hidden_information)
    assert whole == ["da_capo", "hopper", "kala"]
    for name in whole:
        game = GAMES[name]
        for seed in range(3):
            e = make(name, bare=True)
            e.reset(seed=seed)
            for agent in e.agent_iter(500):
                state = e.game_state
                for seat in range(e.players):
                    assert game.observe(state, seat) is state
                    assert e._view(seat) is state
                _, _, terminated, truncated, _ = e.last()
                mask = e.observe(agent)["action_mask"]
                e.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))
    for name in ("copas", "kopa", "ronda"):
        e = make(name, bare=True)
        e.reset(seed=0)
        assert not e._whole and e._view(0) == GAMES[name].observe(e.game_state, 0)


HOSTILE_ACTIONS = (188.7, 1.0, float("inf"), float("nan"), "1", b"0", None, [1], (1,),
                   {1: 1}, np.float64(1.0), np.array([1]), np.uint64(2**63 + 1), 2**70, -1,
                   10_000, object())
"""Values that are no action id: floats (even integral), strings, bytes, ``None``,
containers, a NumPy float, a one-element array, integers outside the space."""


@pytest.mark.parametrize("name", sorted(GAMES))
def test_bare_environments_take_only_ids_in_the_space(name: str) -> None:
    """``raw_env()`` and ``parallel_env()`` take an action as Gymnasium's ``Discrete.contains``
    decides and refuse any other value with ``ValueError``, state untouched (#32 finding 6:
    ``int()`` played 188.7 as 188 and raised ``OverflowError`` or ``TypeError``)."""
    bare = raw_env(name, max_steps=None)
    bare.reset(seed=1)
    agent = bare.agent_selection
    legal = int(np.flatnonzero(bare.observe(agent)["action_mask"])[0])
    before = bare.unwrapped.game_state
    for action in (*HOSTILE_ACTIONS, float(legal), str(legal)):
        if action is None:
            continue  # a live agent's None is refused below, as not an id
        with pytest.raises(ValueError):
            bare.step(action)
        assert bare.game_state is before and bare.agent_selection == agent
    with pytest.raises(ValueError):
        bare.step(None)
    for exact in (np.int64(legal), np.int32(legal), np.array(legal)):
        copy = pickle.loads(pickle.dumps(bare))
        copy.step(exact)
        assert copy.game_state is not before
    par = parallel_env(name, max_steps=None)
    observations, _ = par.reset(seed=1)
    base = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()
            if o["action_mask"][:-1].any()}
    mover = next(iter(base))
    start = par.game_state
    for action in HOSTILE_ACTIONS:
        if action is None:
            continue
        with pytest.raises(ValueError):
            par.step({**base, mover: action})
        assert par.game_state is start
    for bad in (list(base.values()), base.items()):
        with pytest.raises(ValueError):
            par.step(bad)  # type: ignore[arg-type]
    par.step({a: np.int64(chosen) for a, chosen in base.items()})
    assert par.game_state is not start


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_config_of_another_type_is_malformed(name: str) -> None:
    """``env(game, config='x')`` is ``MalformedInputError`` for every game (#32 finding 6:
    KALA raised a bare ``AttributeError``)."""
    from copa_ref.core.errors import MalformedInputError

    for bad in ("x", 3, {"players": 2}, GAMES["kala" if name != "kala" else "ronda"]
                .default_config()):
        for make in (env, raw_env, parallel_env):
            with pytest.raises(MalformedInputError, match="config must be"):
                make(name, config=bad)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_observe_after_the_end_and_supersuits_wrappers(name: str) -> None:
    """``observe()`` answers for every agent after the game ends (its last view, an empty
    mask), as ``connect_four``'s does, so SuperSuit's ``sticky_actions_v0`` and
    ``delay_observations_v0`` play whole games (they observe after the end)."""
    ss = pytest.importorskip("supersuit")
    options = {"max_steps": KOPA_STEPS} if name == "kopa" else {}
    for wrap in (lambda e: ss.sticky_actions_v0(e, 0.25),
                 lambda e: ss.delay_observations_v0(e, 2)):
        wrapped = wrap(env(name, **options))
        wrapped.reset(seed=0)
        rng = np.random.default_rng(0)
        for agent in wrapped.agent_iter():
            _, _, terminated, truncated, _ = wrapped.last()
            mask = wrapped.unwrapped.observe(agent)["action_mask"]
            done = terminated or truncated
            wrapped.step(None if done else int(rng.choice(np.flatnonzero(mask))))
        assert not wrapped.agents
        bare = wrapped.unwrapped
        for agent in bare.possible_agents:
            seen = bare.observe(agent)
            assert not seen["action_mask"].any()
            assert bare.observation_space(agent)["observation"].contains(seen["observation"])
        with pytest.raises(KeyError):
            bare.observe("player_99")


@pytest.mark.parametrize("name", ["copas", "kopa"])
@pytest.mark.parametrize("kind", ["information_state", "observation"])
def test_observe_after_a_one_deal_episode(name: str, kind: str) -> None:
    """After a one-deal episode ends, ``env()`` (the wrapped stack) answers ``observe`` for
    every agent with its view of the booked deal (the bare environment's) and an empty
    mask, as ``connect_four`` does after its game; ``last()`` then raises ``KeyError`` as
    ``connect_four``'s does (no agent is left)."""
    e = env(name, one_deal=True, observation=kind)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(
            obs["action_mask"]))))
    assert not e.agents
    bare = e.unwrapped
    for agent in e.possible_agents:
        seen = e.observe(agent)
        assert not seen["action_mask"].any()
        assert e.observation_space(agent)["observation"].contains(seen["observation"])
        assert np.array_equal(seen["observation"], bare.observe(agent)["observation"])
    with pytest.raises(KeyError):
        e.last()


SUPERSUIT_AEC = {
    "sticky_actions_v0": lambda ss, e: ss.sticky_actions_v0(e, 0.25),
    "delay_observations_v0": lambda ss, e: ss.delay_observations_v0(e, 2),
    "frame_skip_v0": lambda ss, e: ss.frame_skip_v0(e, 2),
    "clip_reward_v0": lambda ss, e: ss.clip_reward_v0(e, -0.5, 0.5),
    "reward_lambda_v0": lambda ss, e: ss.reward_lambda_v0(e, lambda r: 2 * r),
    "action_lambda_v1": lambda ss, e: ss.action_lambda_v1(e, lambda a, s: a, lambda s: s),
    "pad_action_space_v0": lambda ss, e: ss.pad_action_space_v0(e),
    "nan_noop_v0": lambda ss, e: ss.nan_noop_v0(e, 0),
    "nan_random_v0": lambda ss, e: ss.nan_random_v0(e),
    "nan_zeros_v0": lambda ss, e: ss.nan_zeros_v0(e),
}
"""SuperSuit's wrappers that play whole ``connect_four_v3`` games (SuperSuit 3.11, its
environment wrapped by ``env()``, random legal play, three games each); its others refuse
``connect_four``'s ``Dict`` observation or ``Discrete`` actions at construction (the frame
stacks, ``flatten_v0``, ``dtype_v0``, ``observation_lambda_v0``, ``normalize_obs_v0``,
``agent_indicator_v0``, ``pad_observations_v0``, ``black_death_v3``, ``max_observation_v0``,
the image and Box-action wrappers), and refuse ours alike."""


@pytest.mark.parametrize("wrapper", sorted(SUPERSUIT_AEC))
@pytest.mark.parametrize("name", sorted(GAMES))
def test_supersuits_wrappers_that_play_connect_four(name: str, wrapper: str) -> None:
    """Each SuperSuit wrapper that plays ``connect_four_v3`` plays a whole game here: every
    agent ends with a finite return (an action the wrapper repeats or replaces may be
    illegal, which ends the game by ``TerminateIllegalWrapper``, as on ``connect_four``)."""
    ss = pytest.importorskip("supersuit")
    options = {"max_steps": KOPA_STEPS} if name == "kopa" else {}
    wrapped = SUPERSUIT_AEC[wrapper](ss, env(name, **options))
    wrapped.reset(seed=3)
    rng = np.random.default_rng(3)
    returns = {}
    for agent in wrapped.agent_iter(100_000):
        _, reward, terminated, truncated, _ = wrapped.last()
        if terminated or truncated:
            returns[agent] = reward
            wrapped.step(None)
            continue
        mask = wrapped.unwrapped.observe(agent)["action_mask"]
        wrapped.step(int(rng.choice(np.flatnonzero(mask))))
    assert not wrapped.agents
    assert sorted(returns) == wrapped.possible_agents
    assert all(np.isfinite(r) for r in returns.values())
    if wrapper == "clip_reward_v0":
        assert all(abs(r) <= 0.5 for r in returns.values())
