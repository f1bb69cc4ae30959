"""DA CAPO properties: a state machine over random matches, whole random games, and
targeted properties of the rules (every test names the rules it pins)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import rule

from copa_ref.core import IllegalActionError, InvariantViolation, MoverKind, steps, uniform
from copa_ref.da_capo import (
    GAME,
    Bid,
    Bids,
    Config,
    Round,
    State,
    TargetReached,
    TieBreak,
    TieResolution,
    apply,
    joint,
    legal_actions,
    new_game,
    observe,
    round_winner,
    to_move,
)
from copa_ref.da_capo.invariants import STEP_INVARIANTS
from copa_ref.da_capo.rules import starting_beans
from tests.support import play_random, playout_machine

configs = st.builds(
    Config,
    players=st.integers(2, 5),
    tie_resolution=st.sampled_from(TieResolution),
    target_reached_when=st.sampled_from(TargetReached),
    tie_break=st.sampled_from(TieBreak),
    beans=st.sampled_from([None, None, 1, 2, 5, 16]),
)
"""Every config: 2-5 players, every reading, and the solver variant's fewer beans."""

raw_bid = st.one_of(st.none(), st.integers(-1, 7))
"""A bid as an engine might send it: null, or any small integer, legal or not."""


def candidates(state: State) -> list[Bids | Bid]:
    """Legal and illegal actions for a state (used where the node is not joint)."""
    n = state.config.players
    return [Bids((1,) * n), Bids((None,) * n), Bid(0, 1)]


def accepted(state: State, action: Bids) -> bool:
    try:
        apply(state, action)
    except IllegalActionError:
        return False
    return True


def legal_per_seat(state: State, bids: tuple[int | None, ...]) -> bool:
    """The product of the per-seat choices, as the protocol defines the legal joint set."""
    if to_move(state).kind is not MoverKind.JOINT or len(bids) != state.config.players:
        return False
    active = set(to_move(state).seats)
    for seat, b in enumerate(bids):
        if seat in active:
            if b is None or Bid(seat, b) not in legal_actions(state, seat):
                return False
        elif b is not None:
            return False
    return True


_Base = playout_machine(GAME, configs, candidates)


class DaCapoMachine(_Base):
    """Random matches (DACAPO-1 … DACAPO-17 checked by the step invariants after every
    round), plus: at every joint node, a random bids action is accepted exactly when each
    seat's part is among that seat's legal choices (DACAPO-5, DACAPO-6, DACAPO-7,
    DACAPO-13), and a refused one leaves the state unchanged."""

    @rule(bids=st.lists(raw_bid, min_size=1, max_size=6))
    def legal_iff_accepted(self, bids: list[int | None]) -> None:
        state: State = self.state
        if to_move(state).is_over:
            return
        action = Bids(tuple(bids))
        before = GAME.dumps(state)
        assert accepted(state, action) == legal_per_seat(state, action.bids)
        assert GAME.dumps(state) == before

    @rule(data=st.data())
    def legal_bids_differ_from_one_seat(self, data: st.DataObject) -> None:
        """One legal joint action with a single seat's part replaced by a random value."""
        state: State = self.state
        mover = to_move(state)
        if mover.is_over:
            return
        parts = [data.draw(st.sampled_from(legal_actions(state, s))) for s in mover.seats]
        action = joint(state, tuple(parts))
        seat = data.draw(st.integers(0, state.config.players - 1))
        bids = list(action.bids)
        bids[seat] = data.draw(raw_bid)
        changed = Bids(tuple(bids))
        assert accepted(state, changed) == legal_per_seat(state, changed.bids)


TestDaCapoMachine = DaCapoMachine.TestCase


class TestRandomGames:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    @pytest.mark.parametrize("seed", range(12))
    def test_random_matches(self, players: int, seed: int) -> None:
        """DACAPO-3, DACAPO-9, DACAPO-14, DACAPO-16: random matches end within 16 rounds,
        every transition passing every invariant, JSON round trip and state check."""
        rng = random.Random(seed * 7 + players)
        config = Config(
            players=players,
            tie_resolution=rng.choice(list(TieResolution)),
            target_reached_when=rng.choice(list(TargetReached)),
            tie_break=rng.choice(list(TieBreak)),
        )
        steps = play_random(GAME, config, rng)
        assert 1 <= len(steps) <= GAME.facts.max_decisions  # type: ignore[operator]
        state = steps[-1][0]
        final = GAME.apply(state, steps[-1][1])
        result = GAME.outcome(final)
        assert result is not None and result.rule in {"DACAPO-15", "DACAPO-16", "DACAPO-17"}

    def test_many_fast_matches(self) -> None:
        """DACAPO-15, DACAPO-16, DACAPO-17: over many matches every end is reached, and the
        round count never exceeds 16."""
        rules: Counter[str] = Counter()
        for seed in range(300):
            played = list(steps(GAME, uniform, random.Random(seed),
                                config=Config(players=2 + seed % 4)))
            assert len(played) <= 16
            result = GAME.outcome(played[-1].after)
            assert result is not None
            rules[result.rule] += 1
        assert set(rules) == {"DACAPO-15", "DACAPO-16", "DACAPO-17"}


def oracle(bids: tuple[int | None, ...], reading: TieResolution) -> int | None:
    """An independent statement of DACAPO-11/12: the seats whose bid nobody else matched,
    the highest such bid (cascade), or within the top two levels only (two-level)."""
    levels = sorted({b for b in bids if b is not None}, reverse=True)
    if reading is TieResolution.TWO_LEVEL:
        levels = levels[:2]
    for level in levels:
        holders = [s for s, b in enumerate(bids) if b == level]
        if len(holders) == 1:
            return holders[0]
    return None


class TestRoundWinner:
    @given(bids=st.lists(st.one_of(st.none(), st.integers(1, 5)), min_size=2, max_size=5),
           reading=st.sampled_from(TieResolution))
    def test_matches_oracle(self, bids: list[int | None], reading: TieResolution) -> None:
        """DACAPO-11, DACAPO-12: the winner is the highest bid nobody matched (cascade), or
        the unmatched one of the top two levels (two-level); else nobody."""
        assert round_winner(tuple(bids), reading) == oracle(tuple(bids), reading)

    @given(bids=st.lists(st.integers(1, 5), min_size=2, max_size=5))
    def test_winner_unique_and_cascade_dominates(self, bids: list[int]) -> None:
        """DACAPO-9, DACAPO-11: a winner's bid is unique, and the two-level winner, when
        there is one, is also the cascade winner."""
        t = tuple(bids)
        for reading in TieResolution:
            w = round_winner(t, reading)
            assert w is None or t.count(t[w]) == 1
        two = round_winner(t, TieResolution.TWO_LEVEL)
        assert two is None or two == round_winner(t, TieResolution.CASCADE)


def reached(config: Config, rounds: list[list[int]]) -> State:
    """Play the legal prefix of *rounds*, each bid clipped to the seat's legal range."""
    state = new_game(config)
    for raw in rounds:
        mover = to_move(state)
        if mover.is_over:
            break
        parts = []
        for seat in mover.seats:
            choices = legal_actions(state, seat)
            parts.append(choices[raw[seat % len(raw)] % len(choices)])
        state = apply(state, joint(state, tuple(parts)))
    return state


positions = st.builds(
    reached, configs,
    st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=5), max_size=16))
"""States reached by legal play from every config."""


class TestStates:
    @given(state=positions)
    def test_observation_public(self, state: State) -> None:
        """DACAPO-8: every seat and a spectator observe the whole state."""
        views = {GAME.dumps(observe(state, s)) for s in (None, *range(state.config.players))}
        assert views == {GAME.dumps(state)}

    @given(state=positions)
    def test_legal_bids_are_reserve_capped(self, state: State) -> None:
        """DACAPO-6, DACAPO-7, DACAPO-13: a seat's choices are 1..min(5, reserve), none when
        out or over; legal_actions(None) is always empty."""
        over = to_move(state).is_over
        assert legal_actions(state, None) == ()
        for seat, held in enumerate(state.reserves):
            beans = [a.beans for a in legal_actions(state, seat)]
            assert beans == ([] if over else list(range(1, min(5, held) + 1)))

    @given(state=positions)
    def test_conservation_and_well_formed(self, state: State) -> None:
        """DACAPO-3: reserves + cups + target + box = 16 per player (DACAPO-V1: the config's
        beans) in every reached state."""
        total = sum(state.reserves) + sum(map(sum, state.lines)) + state.target + state.box
        assert total == starting_beans(state.config) * state.config.players
        assert GAME.well_formed(state)
        assert GAME.state_from_json(GAME.to_json(state)) == state

    @given(state=positions)
    def test_single_holder_never_to_move(self, state: State) -> None:
        """DACAPO-14: no reached state has exactly one seat holding beans and still goes on."""
        mover = to_move(state)
        if not mover.is_over:
            assert len(mover.seats) >= 2


class TestInvariantsBite:
    """The step invariants catch broken transitions (so the machine's checks are not vacuous)."""

    def _step(self) -> tuple[State, Bids, State]:
        before = new_game(Config(players=3))
        action = Bids((5, 5, 2))
        return before, action, apply(before, action)

    def _fails(self, before: State, action: Bids, after: State, rule: str) -> None:
        with pytest.raises(InvariantViolation) as info:
            for invariant in STEP_INVARIANTS:
                invariant(before, action, after)
        assert info.value.rule == rule

    def test_lost_bean(self) -> None:
        """DACAPO-3: a transition that loses a bean is caught."""
        before, action, after = self._step()
        bad = State(after.config, after.reserves, after.lines, 0, None, after.box - 1,
                    after.rounds, None)
        self._fails(before, action, bad, "DACAPO-3")

    def test_wrong_winner(self) -> None:
        """DACAPO-11: a transition that lets a tied top bid advance is caught."""
        before, action, after = self._step()
        lines = ((5, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
        bad = State(after.config, after.reserves, lines, 0, None, 7,
                    (Round((5, 5, 2), 0),), None)
        self._fails(before, action, bad, "DACAPO-11")

    def test_double_advance(self) -> None:
        """DACAPO-9: a round moving its winner two cups is caught."""
        before, action, after = self._step()
        lines = ((0, 0, 0, 0), (0, 0, 0, 0), (1, 1, 0, 0))
        bad = State(after.config, after.reserves, lines, 0, None, 10, after.rounds, None)
        self._fails(before, action, bad, "DACAPO-9")

    def test_overspent_reserve(self) -> None:
        """DACAPO-7: a reserve that drops by more than the bid is caught."""
        before, action, after = self._step()
        bad = State(after.config, (11, 11, 13), after.lines, 0, None, 11, after.rounds, None)
        self._fails(before, action, bad, "DACAPO-7")

    def test_missing_last_step(self) -> None:
        """DACAPO-14: a round leaving one seat with beans and no last step is caught."""
        before = new_game(Config(players=2))
        for bids in ((4, 5), (4, 5), (4, 5)):
            before = apply(before, Bids(bids))
        action = Bids((3, 1))
        after = apply(before, action)
        bad = State(after.config, (1, 0), ((3, 0, 0, 0), after.lines[1]), 0, None,
                    before.box + 1, after.rounds, None)
        self._fails(before, action, bad, "DACAPO-14")
