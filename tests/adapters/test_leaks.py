"""No view leaks, proven per game and config, with power.

For each game and each value of each config option (``tests/adapters/configs.py``) a seeded
episode is played through OpenSpiel and replayed with a perturbed deal: two things a seat may
not see are swapped (two cards in other hands or the stock for Copas and Kopa, two covered
cups of different counts for RONDA) among those that stay hidden from that seat over a window
of the deal, and the same decisions are replayed. Where the public history is the same (every
decision still legal, the rules' public consequences the same), that seat's observation
tensor, information-state tensor, observation and information-state strings (OpenSpiel, from
the deal's first chance step on, mid-deal too) and its PettingZoo observation (both kinds,
the tensor and the action mask) must be the same at every position of the window. The
test's power: swapping one of the seat's own cards (Copas, Kopa) or a cup it sees lifted
(RONDA) for a hidden one must change every one of them.

Copas's solver variant sets the cards it does not deal aside unseen (COPAS-V1): a card of
another hand replaced by one set aside must change nothing the seat is shown
(:func:`test_cards_set_aside_stay_hidden`).

Kopa's seat memory spans the match: what stayed hidden from a seat through a whole deal,
swapped, must leave its views unchanged into the next deal's play too
(:func:`test_no_view_leaks_into_the_next_deal`).

The fast tier plays one episode per config and one swap per window end, and two Kopa
configs into the next deal (about 20 s on the shared machine); ``pytest --full`` two
episodes and three swaps, and every Kopa config into the next deal.

"Hidden from the seat" is read from the reference state alone, never from ``observe``: a card
in another seat's hand or in the stock, a cup neither lifted nor shown.

Public consequences of hidden facts that the rules reveal, listed here as such: a Kopa
penalty booked for a false pass or a declined playable draw (KOPA-16, KOPA-Q15: the
penalty is public at once) and a deal's booking (scores and ``last_round``, from the cards
left in hand). A perturbation that changes one of :data:`PUBLIC_CONSEQUENCES` changes the
public history: the comparison stops there (counted, and asserted not to be every case).

DA CAPO's sealed bids (every config): in the AEC environment a joint node's parts are chosen
one agent at a time; no other agent's observation or mask may depend on the parts chosen
before the joint action is made (a later bidder's above all). KALA,
HOPPER and DA CAPO declare no hidden information: each seat's view is the whole state, and
distinct states give distinct observation tensors (power).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import attrs
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (extra 'openspiel')")
pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (extra 'pettingzoo')")

from copa_ref.adapters import config_from_parameters, openspiel, rules_function  # noqa: E402
from copa_ref.adapters.pettingzoo import raw_env  # noqa: E402
from copa_ref.core import Seat  # noqa: E402
from copa_ref.games import GAMES  # noqa: E402
from tests.adapters.configs import cases, option_configs  # noqa: E402
from tests.adapters.test_openspiel import random_step  # noqa: E402
from tests.conftest import full_tier  # noqa: E402

PUBLIC_CONSEQUENCES: dict[str, tuple[str, ...]] = {
    "kopa": ("penalties", "scores", "last_round"),  # KOPA-16 / KOPA-Q15, the booking
}
"""Per game, the state fields through which the rules reveal a hidden fact in public."""

HIDDEN = ("copas", "kopa", "ronda")
WINDOW = 60
"""At most this many positions after the deal are compared (the deal's first decisions)."""
CASES = [case for case in cases() if case[0] in HIDDEN]
OPEN_CASES = [case for case in cases() if case[0] not in HIDDEN]


def load(name: str, params: dict[str, Any]) -> Any:
    openspiel.register()
    return pyspiel.load_game(f"copa_ref_{name}", {**params, openspiel.LENGTH: 0}
                             if GAMES[name].random_play_ends else params)


def play(game: Any, rng: random.Random, limit: int) -> list[Any]:
    """A random episode's OpenSpiel actions (an int, or a list at a joint node)."""
    state = game.new_initial_state()
    actions: list[Any] = []
    while not state.is_terminal() and len(actions) < limit:
        if state.is_chance_node():
            action: Any = rng.choice(state.chance_outcomes())[0]
            state.apply_action(action)
        elif state.is_simultaneous_node():
            action = [rng.choice(state.legal_actions(p)) for p in range(state.num_players())]
            state.apply_actions(action)
        else:
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
        actions.append(action)
    return actions


def outputs(game: Any, state: Any, seat: int) -> tuple[Any, ...]:
    """Everything OpenSpiel shows *seat* at *state*."""
    info = (tuple(state.information_state_tensor(seat))
            if game.get_type().provides_information_state_tensor else None)
    return (tuple(state.observation_tensor(seat)), info, state.observation_string(seat),
            state.information_state_string(seat))


def replay(name: str, game: Any, actions: list[Any], seat: int, stop: int
           ) -> tuple[list[tuple[Any, ...]], list[Any], list[Any]]:
    """Replay *actions* up to position *stop*: *seat*'s outputs and the reference state
    before each action (until one is refused), and the chance actions the ids made."""
    rules = GAMES[name]
    chance_step = rules_function(rules, "chance_step")
    state = game.new_initial_state()
    seen: list[tuple[Any, ...]] = []
    states: list[Any] = []
    made: list[Any] = []
    prefix: list[int] = []
    for action in actions[:stop]:
        seen.append(outputs(game, state, seat))
        states.append(state.state)
        before = state.state
        try:
            if state.is_simultaneous_node():
                state.apply_actions(action)
            else:
                chance = state.is_chance_node()
                state.apply_action(action)
                if chance:
                    prefix.append(action)
                    if chance_step is None:
                        outcomes = rules.chance_outcomes
                        assert outcomes is not None
                        made.append(outcomes(before)[action][0])
                        prefix = []
                    elif state.state is not before:
                        made.append(chance_step(before, tuple(prefix)))
                        prefix = []
        except (ValueError, pyspiel.SpielError):
            break
    return seen, states, made


def zoo(name: str, config: Any, made: list[Any], actions: list[Any], flags: list[bool],
        seat: int, stop: int, kind: str) -> list[tuple[bytes, bytes] | None]:
    """*seat*'s PettingZoo observations (the tensor and the action mask) before each of the
    first *stop* actions (``None`` at a chance position, *flags*), the chance dealt as
    *made*."""
    script = iter(made)
    game = attrs.evolve(GAMES[name], sample_chance=lambda state, rng: next(script))
    env = raw_env(game, config, observation=kind, max_steps=None)
    env.reset(seed=0)
    agent = f"player_{seat}"
    found: list[tuple[bytes, bytes] | None] = []
    for action, chance in zip(actions[:stop], flags, strict=False):
        if chance:  # the environment deals by itself
            found.append(None)
            continue
        seen = env.observe(agent)
        found.append((seen["observation"].tobytes(), seen["action_mask"].tobytes()))
        try:
            if isinstance(action, list):  # a joint node: each acting seat's part in turn
                for _ in range(len(env._acting_seats())):
                    env.step(action[int(env.agent_selection.split("_")[1])])
            else:
                env.step(action)
        except (ValueError, StopIteration):
            break
    return found


def chance_positions(game: Any, actions: list[Any]) -> list[bool]:
    state = game.new_initial_state()
    found = []
    for action in actions:
        found.append(state.is_chance_node())
        if state.is_simultaneous_node():
            state.apply_actions(action)
        else:
            state.apply_action(action)
    return found


def hidden_things(name: str, state: Any, seat: int) -> set[Any]:
    """What *seat* may not see at *state*, read from the state alone: the cards in the
    other hands and the stock and another seat's drawn card (KOPA-Q15), or the covered
    cups (places neither lifted nor shown)."""
    if name == "ronda":
        if not state.cups:
            return set()
        open_places = set(state.lifted) | ({state.shown[0]} if state.shown else set())
        return {p for p in range(len(state.cups)) if p not in open_places}
    found = {card for k, hand in enumerate(state.hands) if k != seat for card in hand}
    found |= set(getattr(state, "stock", ()))
    drawn = getattr(state, "drawn", None)  # Kopa, two players: another seat's drawn card
    if drawn is not None and state.turn != seat:
        found.add(drawn)
    return found


def deal_span(name: str, game: Any, actions: list[Any]) -> tuple[int, int]:
    """The positions of the first deal's chance ids: ``(start, end)``."""
    flags = chance_positions(game, actions)
    start = flags.index(True)
    end = start
    while end < len(flags) and flags[end]:
        end += 1
    return start, end


def swapped(actions: list[Any], i: int, j: int) -> list[Any]:
    changed = list(actions)
    changed[i], changed[j] = changed[j], changed[i]
    return changed


def where(name: str, actions: list[Any], start: int, end: int, thing: Any) -> int:
    """The position of *thing* (a card, a place) among the deal's chance ids."""
    if name == "ronda":
        return start + int(thing)
    return actions.index(thing.index, start, end)


def compare(name: str, label: str, game: Any, config: Any, other: list[Any], seat: int,
            seen: list[Any], states: list[Any], views: dict[str, list[Any]],
            flags: list[bool], start: int, last: int, what: Any) -> tuple[int, str]:
    """Replay the perturbed actions *other* and compare what *seat* is shown with *seen*
    and *views* at each position from the deal's *start* (mid-deal views too: OpenSpiel's
    alone, the PettingZoo environment deals inside reset) to *last*, until the public
    history differs. The last position compared, and why it stopped: ``"end"``,
    ``"refused"`` (a decision no longer legal) or ``"consequence"`` (a public consequence
    the rules reveal, :data:`PUBLIC_CONSEQUENCES`)."""
    seen2, states2, made2 = replay(name, game, other, seat, last + 1)
    views2 = {kind: zoo(name, config, made2, other, flags, seat, last + 1, kind)
              for kind in views}
    fields = PUBLIC_CONSEQUENCES.get(name, ())
    for t in range(start, last + 1):
        if t >= len(seen2):
            return t - 1, "refused"
        if any(getattr(states[t], f) != getattr(states2[t], f) for f in fields):
            return t - 1, "consequence"
        assert seen2[t] == seen[t], (
            f"{name} {label}: seat {seat} sees a perturbation of hidden {what} at {t}")
        for kind, found in views.items():
            if t < len(views2[kind]):
                assert views2[kind][t] == found[t], (
                    f"{name} {label}: seat {seat}'s PettingZoo {kind} observation shows "
                    f"a perturbation of hidden {what} at {t}")
    return last, "end"


@pytest.mark.parametrize(("name", "label", "params"), CASES,
                         ids=[f"{n}-{label}" for n, label, _ in CASES])
def test_no_view_leaks(name: str, label: str, params: dict[str, Any],
                       request: pytest.FixtureRequest) -> None:
    """Every game with hidden information and every config: swaps of what a seat may not
    see leave all it is shown unchanged while the public history is; a swap it sees
    changes it. The fast tier plays one episode and one swap per window end; ``--full``
    (the heavy tier) two episodes and three swaps."""
    episodes, swaps = (2, 3) if full_tier(request.config) else (1, 1)
    game = load(name, params)
    config = config_from_parameters(GAMES[name], params)
    rng = random.Random(f"{name} {label}")
    compared = consequences = refused = powered = 0
    for _episode in range(episodes):
        actions = play(game, rng, 400)
        start, end = deal_span(name, game, actions)
        stop = min(len(actions), end + WINDOW)
        flags = chance_positions(game, actions)
        if True in flags[end:stop]:  # the window ends at the next chance node
            stop = end + flags[end:stop].index(True)
        for seat in range(game.num_players()):
            seen, states, made = replay(name, game, actions, seat, stop)
            views = {kind: zoo(name, config, made, actions, flags, seat, stop, kind)
                     for kind in ("information_state", "observation")}
            # what stays hidden from the seat over the window, at each of three ends
            ends = {end, (end + stop) // 2, stop - 1}
            if name == "ronda":  # the cups are lifted fast: look at more early windows
                ends |= {end + k for k in (1, 2, 3, 5, 8, 12)}
            for last in sorted(ends):
                if last < end or last >= len(states):
                    continue
                keep = set.intersection(*(hidden_things(name, s, seat)
                                          for s in states[end:last + 1]))
                if name == "ronda":
                    cups = states[end].cups
                    pairs = [(p, q) for p in sorted(keep) for q in sorted(keep)
                             if p < q and cups[p] != cups[q]]
                else:
                    ordered = sorted(keep, key=lambda c: c.index)
                    pairs = [(a, b) for a in ordered for b in ordered if a.index < b.index]
                for a, b in rng.sample(pairs, min(swaps, len(pairs))):
                    other = swapped(actions, where(name, actions, start, end, a),
                                    where(name, actions, start, end, b))
                    reached, why = compare(name, label, game, config, other, seat, seen,
                                           states, views, flags, start, last, (a, b))
                    compared += max(0, reached + 1 - end)  # the decisions (the deal's own
                    refused += why == "refused"            # are extra)
                    consequences += why == "consequence"
            powered += power(name, game, config, actions, seat, states, seen, views,
                             start, end, stop)
    assert compared > 0, f"{name} {label}: no position compared"
    assert powered > 0, f"{name} {label}: the visible perturbations were never tried"
    assert consequences + refused < compared, (compared, consequences, refused)


ASIDE = [("copas", "cards_each=2", {"cards_each": 2}),
         ("copas", "cards_each=3,players=3", {"cards_each": 3, "players": 3})]


@pytest.mark.parametrize(("name", "label", "params"), ASIDE, ids=[c[1] for c in ASIDE])
def test_cards_set_aside_stay_hidden(name: str, label: str, params: dict[str, Any]) -> None:
    """Copas's solver variant deals fewer cards and sets the rest of the deck aside unseen
    (COPAS-V1): a card of another hand replaced in the deal by a card set aside leaves all
    a seat is shown unchanged while the public history is; one of the seat's own cards so
    replaced changes every one of them (power)."""
    from copa_ref.copas.rules import deck

    game = load(name, params)
    config = config_from_parameters(GAMES[name], params)
    rng = random.Random(f"aside {label}")
    compared = powered = 0
    for _episode in range(2):
        actions = play(game, rng, 400)
        flags = chance_positions(game, actions)
        start, end = deal_span(name, game, actions)
        stop = end + flags[end:].index(True) if True in flags[end:] else len(actions)
        dealt = set(actions[start:end])
        aside = [card for card in deck(config.players) if card.index not in dealt]
        for seat in range(game.num_players()):
            seen, states, made = replay(name, game, actions, seat, stop)
            views = {kind: zoo(name, config, made, actions, flags, seat, stop, kind)
                     for kind in ("information_state", "observation")}
            for last in range(end, stop):  # hidden from the seat up to *last*
                keep = set.intersection(*(hidden_things(name, s, seat)
                                          for s in states[end:last + 1]))
                for card in sorted(keep, key=lambda c: c.index)[:1]:
                    other = list(actions)
                    other[where(name, actions, start, end, card)] = rng.choice(aside).index
                    reached, _ = compare(name, label, game, config, other, seat, seen,
                                         states, views, flags, start, last, card)
                    compared += max(0, reached + 1 - end)
            mine = states[end].hands[seat]
            other = list(actions)
            other[where(name, actions, start, end, mine[0])] = aside[0].index
            powered += check_power(name, game, config, actions, seat, seen, views, other,
                                   end)
    assert compared > 0 and powered > 0, (compared, powered)


FAST_NEXT_DEAL = ("default", "players=2")
"""The configs the fast tier plays into the next deal (the others are marked ``full``)."""
NEXT_DEAL = [pytest.param(*case, id=f"{case[0]}-{case[1]}",
                          marks=() if case[1] in FAST_NEXT_DEAL else pytest.mark.full)
             for case in CASES if case[0] == "kopa"]


@pytest.mark.parametrize(("name", "label", "params"), NEXT_DEAL)
def test_no_view_leaks_into_the_next_deal(name: str, label: str,
                                          params: dict[str, Any]) -> None:
    """Kopa's deals are booked one after another (KOPA-21) and a seat's memory spans the
    match: what stayed hidden from a seat through the whole first deal (cards left in the
    other hands, the stock, another seat's drawn card; KOPA-Q15), swapped, leaves all it
    is shown unchanged into the next deal (its deal and 30 positions of its play), where
    the public history is the same (the booking counts the cards left, not which they
    are: KOPA-20). Copas has no such test: every card of a deal is played face up, so
    nothing stays hidden through one (COPAS-14)."""
    game = load(name, params)
    config = config_from_parameters(GAMES[name], params)
    rng = random.Random(f"next deal {name} {label}")
    into_next = 0
    for _episode in range(12):  # until one deal's swaps reach the next deal's play
        if into_next:
            break
        actions = play(game, rng, 1000)
        flags = chance_positions(game, actions)
        start, end = deal_span(name, game, actions)
        if True not in flags[end:]:
            continue
        booked = flags.index(True, end)  # the next deal's first chance step
        dealt = booked + flags[booked:].index(False) if False in flags[booked:] else None
        if dealt is None:
            continue
        last = min(len(actions), dealt + 30) - 1
        for seat in range(game.num_players()):
            seen, states, made = replay(name, game, actions, seat, last + 1)
            views = {kind: zoo(name, config, made, actions, flags, seat, last + 1, kind)
                     for kind in ("information_state", "observation")}
            keep = set.intersection(*(hidden_things(name, s, seat)
                                      for s in states[end:booked]))
            ordered = sorted(keep, key=lambda c: c.index)
            pairs = [(a, b) for a in ordered for b in ordered if a.index < b.index]
            for a, b in rng.sample(pairs, min(4, len(pairs))):
                other = swapped(actions, where(name, actions, start, end, a),
                                where(name, actions, start, end, b))
                reached, _ = compare(name, label, game, config, other, seat, seen, states,
                                     views, flags, start, last, (a, b))
                into_next += reached >= dealt
    assert into_next > 0, f"{name} {label}: no comparison reached the next deal's play"


def power(name: str, game: Any, config: Any, actions: list[Any], seat: int,
          states: list[Any], seen: list[Any], views: dict[str, list[Any]],
          start: int, end: int, stop: int) -> int:
    """Swap something *seat* sees for something hidden from it; every output it is shown
    must change. Return how many such swaps were checked."""
    if end >= len(states):
        return 0
    if name == "ronda":  # a cup the seat sees lifted, for a covered one of another count
        cups = states[end].cups
        for t in range(end, min(stop, len(states))):
            shown = states[t].shown
            if shown is None:
                continue
            covered = set.intersection(*(hidden_things(name, s, seat)
                                        for s in states[end:t + 1]))
            others = [q for q in sorted(covered) if cups[q] != cups[shown[0]]]
            if others:
                return check_power(name, game, config, actions, seat, seen, views,
                                   swapped(actions, start + shown[0], start + others[0]), t)
        return 0
    mine = states[end].hands[seat]
    hidden = sorted(hidden_things(name, states[end], seat), key=lambda c: c.index)
    if not mine or not hidden:
        return 0
    other = swapped(actions, actions.index(mine[0].index, start, end),
                    actions.index(hidden[-1].index, start, end))
    return check_power(name, game, config, actions, seat, seen, views, other, end)


def check_power(name: str, game: Any, config: Any, actions: list[Any], seat: int,
                seen: list[Any], views: dict[str, list[Any]], other: list[Any],
                t: int) -> int:
    seen2, _, made2 = replay(name, game, other, seat, t + 1)
    assert len(seen2) == t + 1
    for k, what in enumerate(("observation tensor", "information-state tensor",
                              "observation string", "information-state string")):
        if seen[t][k] is not None:
            assert seen2[t][k] != seen[t][k], f"{name}: the seat's own {what} ignores a swap"
    for kind, found in views.items():
        changed = zoo(name, config, made2, other, chance_positions(game, actions),
                      seat, t + 1, kind)[t]
        assert changed is not None and found[t] is not None
        assert changed[0] != found[t][0], (
            f"{name}: the PettingZoo {kind} observation ignores a swap the seat sees")
    return 1


@pytest.mark.parametrize(("name", "label", "params"), OPEN_CASES,
                         ids=[f"{n}-{label}" for n, label, _ in OPEN_CASES])
def test_open_games_show_the_state(name: str, label: str, params: dict[str, Any]) -> None:
    """KALA, HOPPER, DA CAPO declare no hidden information: each seat's view is the state,
    and two distinct states give distinct observation tensors (the tensors' power)."""
    rules = GAMES[name]
    assert not rules.facts.hidden_information
    game = load(name, params)
    rng = random.Random(f"{name} {label}")
    state = game.new_initial_state()
    tensors: dict[bytes, str] = {}
    while not state.is_terminal() and len(tensors) < 300:
        for seat in range(game.num_players()):
            assert rules.observe(state.state, Seat(seat)) == state.state
        key = np.asarray(state.observation_tensor(0), np.float32).tobytes()
        text = rules.dumps(rules.to_json(state.state))
        assert tensors.setdefault(key, text) == text, (
            f"{name} {label}: two states give seat 0 one observation tensor")
        random_step(state, rng)


SEALED = option_configs("da_capo")


@pytest.mark.parametrize(("label", "config"), SEALED, ids=[label for label, _ in SEALED])
def test_sealed_bids(label: str, config: Any) -> None:
    """DA CAPO in the AEC environment, every config: at a joint node, every other agent's
    observation (both kinds, the tensor and the mask) is the same whatever the first bidder
    chose, while the later bidders choose their parts (DACAPO-Q8); once the joint action is
    made the bids are public (power: some other first bid changes what another seat
    sees)."""
    for kind in ("information_state", "observation"):
        env = raw_env("da_capo", config, observation=kind)
        env.reset(seed=3)
        rng = random.Random(3)
        nodes = changed = 0
        while env.agents and nodes < 12:
            agent = env.agent_selection
            obs = env.observe(agent)
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if len(env._acting_seats()) > 1 and not env._parts:
                nodes += 1
                others = [a for a in env.possible_agents if a != agent]
                during: dict[int, set[tuple[bytes, ...]]] = {}
                after: set[tuple[bytes, ...]] = set()
                for bid in legal:
                    trial = copy.deepcopy(env)
                    trial.step(int(bid))
                    while trial._parts:  # the later bidders' parts, each its first legal
                        during.setdefault(len(trial._parts), set()).add(
                            tuple(views(trial, others)))
                        later = trial.agent_selection
                        trial.step(int(np.flatnonzero(
                            trial.observe(later)["action_mask"])[0]))
                    after.add(tuple(views(trial, others)))
                assert len(during) == len(env._acting_seats()) - 1
                assert all(len(found) == 1 for found in during.values()), (
                    f"{label}: a sealed bid shows in another seat's view")
                changed += len(after) > 1
            env.step(int(rng.choice(legal)))
        assert nodes > 0
        assert changed > 0, f"{label}: no first bid ever showed once the bids were made"


def views(env: Any, agents: list[str]) -> list[bytes]:
    """What each of *agents* is shown now: its observation tensor and its mask."""
    return [env.observe(a)["observation"].tobytes() + env.observe(a)["action_mask"].tobytes()
            for a in agents]
