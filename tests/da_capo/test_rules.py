"""DA CAPO: one class per rule or transition; every test names the rule it pins."""

from __future__ import annotations

import pytest

from copa_ref.core import (
    IllegalActionError,
    InvalidStateError,
    MalformedInputError,
    ToMove,
)
from copa_ref.da_capo import (
    GAME,
    Bid,
    Bids,
    Config,
    LastStep,
    Round,
    State,
    TargetReached,
    TieBreak,
    TieResolution,
    apply,
    check_state,
    joint,
    legal_actions,
    new_game,
    observe,
    outcome,
    round_winner,
    to_move,
    well_formed,
)
from copa_ref.da_capo.rules import advance, settle_round
from tests.support import assert_refused

CASCADE = TieResolution.CASCADE
TWO_LEVEL = TieResolution.TWO_LEVEL


def play(config: Config, *rounds: tuple[int | None, ...]) -> State:
    """The state after playing *rounds* (each a tuple of bids) from the start."""
    state = new_game(config)
    for bids in rounds:
        state = apply(state, Bids(bids))
    return state


def refused(state: State, action: Bids | Bid, rule: str) -> IllegalActionError:
    """Expect a refusal of *action* under *rule*, leaving *state* unchanged."""
    return assert_refused(GAME, state, action, rule)


TWO = Config(players=2)
THREE = Config(players=3)


def three_with_seat_2_out() -> State:
    """Three players; seat 2 spent its 16 beans (won three rounds with 5, lost one with 1)."""
    state = play(THREE, (1, 2, 5), (1, 2, 5), (1, 2, 5), (1, 2, 1))
    assert state.reserves == (12, 8, 0)
    return state


@pytest.mark.rule("DACAPO-1")
class TestPlayers:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_two_to_five(self, players: int) -> None:
        """DACAPO-1: 2 to 5 players can play."""
        state = new_game(Config(players=players))
        assert len(state.reserves) == players == GAME.num_players(state.config)

    @pytest.mark.parametrize("players", [-1, 0, 1, 6, 9])
    def test_invalid_player_count(self, players: int) -> None:
        """DACAPO-1: other player counts are refused."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(players=players))
        assert info.value.rule == "DACAPO-1"

    def test_invalid_config_type(self) -> None:
        """DACAPO-1: a config whose fields are not shaped right is malformed."""
        with pytest.raises(MalformedInputError):
            new_game(Config(players="3"))  # type: ignore[arg-type]


@pytest.mark.rule("DACAPO-2", "DACAPO-3")
class TestSetup:
    @pytest.mark.parametrize(("players", "length"), [(2, 4), (3, 4), (4, 3), (5, 3)])
    def test_line_length(self, players: int, length: int) -> None:
        """DACAPO-2: 4 cups per player with 2-3 players, 3 with 4-5; one empty target cup."""
        state = new_game(Config(players=players))
        assert state.lines == ((0,) * length,) * players
        assert state.target == 0 and state.finisher is None

    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_sixteen_beans(self, players: int) -> None:
        """DACAPO-3: 16 beans per player, none in the box."""
        state = new_game(Config(players=players))
        assert state.reserves == (16,) * players
        assert state.box == 0 and state.rounds == () and state.last_step is None


@pytest.mark.rule("DACAPO-4", "DACAPO-5")
class TestSimultaneous:
    def test_joint_node(self) -> None:
        """DACAPO-4: every seat bids at once; the round is one joint action."""
        state = new_game(Config(players=4))
        assert to_move(state) == ToMove.joint((0, 1, 2, 3))
        assert legal_actions(state, None) == ()

    def test_joint_combines_parts(self) -> None:
        """DACAPO-4: joint builds the bids action from one bid per seat, in seat order."""
        state = three_with_seat_2_out()
        assert to_move(state) == ToMove.joint((0, 1))
        assert joint(state, (Bid(0, 3), Bid(1, 5))) == Bids((3, 5, None))

    def test_invalid_lone_bid(self) -> None:
        """DACAPO-4: a lone bid is one seat's part, never applied by itself."""
        refused(new_game(TWO), Bid(0, 3), "DACAPO-4")

    @pytest.mark.parametrize("parts", [
        (Bid(0, 3),),
        (Bid(0, 3), Bid(1, 2), Bid(2, 1)),
        (Bid(1, 3), Bid(0, 2)),
    ])
    def test_invalid_joint_parts(self, parts: tuple[Bid | Bids, ...]) -> None:
        """DACAPO-5: joint needs exactly one bid per acting seat, in seat order."""
        with pytest.raises(IllegalActionError) as info:
            joint(new_game(TWO), parts)
        assert info.value.rule == "DACAPO-5"

    @pytest.mark.parametrize("parts", [
        (Bid(0, 3), Bids((1, 2))),
        [Bid(0, 3), Bid(1, 2)],
        (Bid(0, 3), Bid(True, 2)),
        (Bid(0, 3), Bid(1, 2.0)),
    ])
    def test_invalid_joint_part_shapes(self, parts: tuple[Bid | Bids, ...]) -> None:
        """DACAPO-4: joint combines a tuple of bids of integers; anything else is not even
        shaped right."""
        with pytest.raises(MalformedInputError):
            joint(new_game(TWO), parts)


@pytest.mark.rule("DACAPO-5", "DACAPO-6", "DACAPO-7", "DACAPO-13")
class TestBids:
    def test_legal_bids_at_start(self) -> None:
        """DACAPO-6: each seat's choices are 1 to 5 beans."""
        state = new_game(THREE)
        for seat in range(3):
            assert legal_actions(state, seat) == tuple(Bid(seat, b) for b in range(1, 6))

    def test_legal_bids_capped_by_reserve(self) -> None:
        """DACAPO-7: a seat holding fewer than 5 beans bids at most what it holds."""
        state = play(TWO, (5, 4), (5, 4), (3, 5))
        assert state.reserves == (3, 3)
        assert legal_actions(state, 0) == (Bid(0, 1), Bid(0, 2), Bid(0, 3))

    def test_legal_actions_sorted_by_canonical_json(self) -> None:
        """DACAPO-6: the per-seat list is sorted by canonical JSON."""
        actions = legal_actions(new_game(TWO), 1)
        assert list(actions) == sorted(actions, key=GAME.dumps)

    @pytest.mark.parametrize("bid", [0, -1, 6, 7, 100])
    def test_invalid_bid_out_of_range(self, bid: int) -> None:
        """DACAPO-6: a bid of 0, of 6 or more, or negative, is refused."""
        refused(new_game(TWO), Bids((3, bid)), "DACAPO-6")

    def test_invalid_bid_not_integer(self) -> None:
        """DACAPO-6: a bid that is not an integer (True, 0.5) is not even shaped right."""
        for bid in (True, 0.5):
            with pytest.raises(MalformedInputError):
                apply(new_game(TWO), Bids((bid, 2)))  # type: ignore[arg-type]

    def test_invalid_more_than_held(self) -> None:
        """DACAPO-7: nobody bids more than he holds."""
        state = play(TWO, (5, 4), (5, 4), (3, 5))
        refused(state, Bids((4, 1)), "DACAPO-7")
        refused(state, Bids((1, 5)), "DACAPO-7")

    def test_invalid_missing_bid(self) -> None:
        """DACAPO-5: every seat with beans must bid (null is refused)."""
        refused(new_game(TWO), Bids((3, None)), "DACAPO-5")
        refused(three_with_seat_2_out(), Bids((None, 2, None)), "DACAPO-5")

    @pytest.mark.parametrize("bids", [(), (3,), (3, 2, 1), (3, 2, None)])
    def test_invalid_wrong_length(self, bids: tuple[int | None, ...]) -> None:
        """DACAPO-5: a round holds exactly one place per seat."""
        refused(new_game(TWO), Bids(bids), "DACAPO-5")

    def test_invalid_bid_from_eliminated_seat(self) -> None:
        """DACAPO-13: a seat that is out bids nothing (its place must be null)."""
        state = three_with_seat_2_out()
        refused(state, Bids((1, 2, 3)), "DACAPO-13")
        refused(state, Bids((1, 2, 0)), "DACAPO-13")


@pytest.mark.rule("DACAPO-8")
class TestReveal:
    def test_round_recorded(self) -> None:
        """DACAPO-8: the bids of a round are public once revealed, with who advanced."""
        state = play(THREE, (5, 5, 2))
        assert state.rounds == (Round((5, 5, 2), 2),)

    def test_observation_is_public(self) -> None:
        """DACAPO-8: every seat and a spectator see the same, complete state."""
        state = play(THREE, (5, 5, 2), (1, 3, 4))
        for seat in (None, 0, 1, 2):
            assert observe(state, seat) == state
        with pytest.raises(MalformedInputError):
            observe(state, 3)

    def test_no_sealed_bid_in_state(self) -> None:
        """DACAPO-8: a joint node's state holds no bid of the coming round."""
        state = new_game(TWO)
        assert '"beans":' not in GAME.dumps(observe(state, 0))
        assert GAME.dumps(state).count("bids") == 0


# Bid patterns: (bids, cascade winner, two-level winner).
TIES = [
    pytest.param((5, 3), 0, 0, id="unique-highest"),
    pytest.param((2, 4, 1), 1, 1, id="unique-highest-3"),
    pytest.param((4, 4), None, None, id="two-players-tied"),
    pytest.param((3, 3, 3, 3, 3), None, None, id="all-equal"),
    pytest.param((5, 5, 3), 2, 2, id="top-tie-unique-lower"),
    pytest.param((5, 3, 5, 1), 1, 1, id="top-tie-unique-second"),
    pytest.param((5, 5, 3, 3, 1), 4, None, id="top-tie-tied-lower-then-unique"),
    pytest.param((5, 5, 3, 3), None, None, id="top-tie-tied-lower"),
    pytest.param((4, 4, 2, 2, None), None, None, id="tied-levels-one-out"),
    pytest.param((None, 2, 2, 1, None), 3, 3, id="tie-with-seats-out"),
]


@pytest.mark.rule("DACAPO-9", "DACAPO-10", "DACAPO-11", "DACAPO-12")
class TestWhoAdvances:
    @pytest.mark.parametrize(("bids", "cascade", "two_level"), TIES)
    def test_round_winner(self, bids: tuple[int | None, ...], cascade: int | None,
                          two_level: int | None) -> None:
        """DACAPO-11: tied levels cancel and the next level down benefits (cascade default,
        two-level option); DACAPO-12: with no single bid left, nobody advances."""
        assert round_winner(bids, CASCADE) == cascade
        assert round_winner(bids, TWO_LEVEL) == two_level

    def test_highest_bid_fills_next_cup(self) -> None:
        """DACAPO-9: the highest bid's beans fill the bidder's first empty cup."""
        state = play(TWO, (5, 3), (1, 2), (4, 2))
        assert state.lines == ((5, 4, 0, 0), (2, 0, 0, 0))

    def test_others_to_box(self) -> None:
        """DACAPO-10: every other revealed bean goes to the box."""
        state = play(THREE, (5, 4, 2))
        assert state.box == 6 and state.reserves == (11, 12, 14)

    def test_top_tie_second_benefits(self) -> None:
        """DACAPO-11: the tied top bids cancel into the box; the second highest advances."""
        state = play(THREE, (5, 5, 2))
        assert state.lines[2] == (2, 0, 0, 0) and state.box == 10

    def test_cascade_below_tied_second(self) -> None:
        """DACAPO-11: with the second level tied too, the cascade goes further down."""
        config = Config(players=5)
        state = play(config, (5, 5, 3, 3, 1))
        assert state.rounds[-1].winner == 4 and state.lines[4] == (1, 0, 0)
        assert state.box == 16

    def test_two_level_option(self) -> None:
        """DACAPO-11 (two_level): a tied second level means nobody advances."""
        config = Config(players=5, tie_resolution=TWO_LEVEL)
        state = play(config, (5, 5, 3, 3, 1))
        assert state.rounds[-1].winner is None and state.box == 17

    @pytest.mark.parametrize("bids", [(4, 4), (2, 2, 2), (5, 5, 1, 1)])
    def test_nobody_advances(self, bids: tuple[int, ...]) -> None:
        """DACAPO-12: with no single highest bid, nobody advances; all beans to the box."""
        state = play(Config(players=len(bids)), bids)
        assert all(advance(state, s) == 0 for s in range(len(bids)))
        assert state.box == sum(bids) and state.rounds[-1].winner is None

    def test_settle_round_conserves(self) -> None:
        """DACAPO-9/10: settling moves the winner's beans into his cup, the rest to the box."""
        table = ((16, 16), ((0, 0, 0, 0), (0, 0, 0, 0)), 0, 0)
        assert settle_round(table, (3, 5), 1) == ((13, 11), ((0, 0, 0, 0), (5, 0, 0, 0)), 0, 3)
        assert settle_round(table, (3, 3), None) == ((13, 13), table[1], 0, 6)


@pytest.mark.rule("DACAPO-13")
class TestOut:
    def test_out_seat_not_to_move(self) -> None:
        """DACAPO-13: a seat with no beans is out: not to move, no legal bid."""
        state = three_with_seat_2_out()
        assert to_move(state).seats == (0, 1)
        assert legal_actions(state, 2) == ()

    def test_out_seat_keeps_cups(self) -> None:
        """DACAPO-13: the cups of a seat that is out stay and count."""
        state = three_with_seat_2_out()
        assert state.lines[2] == (5, 5, 5, 0)
        after = apply(state, Bids((1, 1, None)))
        assert after.lines[2] == (5, 5, 5, 0)


@pytest.mark.rule("DACAPO-14", "DACAPO-15")
class TestLastPlayer:
    def test_last_player_step(self) -> None:
        """DACAPO-14: the last seat with beans puts one in his next cup, the rest in the box;
        the match is over."""
        state = play(TWO, (4, 5), (4, 5), (4, 5))
        assert state.reserves == (4, 1)
        after = apply(state, Bids((3, 1)))
        # Round: seat 0 wins cup 1 with 3; seat 1 is out; seat 0 holds 1: into cup 2.
        assert after.rounds[-1] == Round((3, 1), 0)
        assert after.last_step == LastStep(0, 1)
        assert after.lines[0] == (3, 1, 0, 0)
        assert after.reserves == (0, 0)
        assert after.box == state.box + 1
        assert to_move(after).is_over

    def test_same_seat_advances_twice(self) -> None:
        """DACAPO-14: the step follows a round the same seat won: two advances in one apply."""
        state = play(TWO, (4, 5), (4, 5), (4, 5))
        after = apply(state, Bids((2, 1)))
        assert advance(after, 0) - advance(state, 0) == 2
        assert after.lines[0] == (2, 1, 0, 0)
        assert after.last_step == LastStep(0, 2) and after.box == state.box + 1 + 1
        GAME.check_invariants(state, Bids((2, 1)), after)

    def test_step_for_a_loser(self) -> None:
        """DACAPO-14: the last seat need not have won the round."""
        state = play(TWO, (5, 4), (5, 5), (5, 5))
        assert state.reserves == (1, 2)
        after = apply(state, Bids((1, 1)))
        assert after.rounds[-1].winner is None
        assert after.last_step == LastStep(1, 1)
        assert after.lines == ((5, 0, 0, 0), (1, 0, 0, 0))

    def test_everyone_out_at_once(self) -> None:
        """DACAPO-14 (Q7): when the last players run out together there is no last step."""
        state = play(TWO, (5, 5), (5, 5), (5, 5), (1, 1))
        assert state.reserves == (0, 0) and state.last_step is None
        assert to_move(state).is_over

    def test_last_step_reaches_target(self) -> None:
        """DACAPO-14, DACAPO-15: with a full line the last bean fills the target cup."""
        state = play(TWO, (2, 1), (2, 1), (2, 1), (2, 1), (1, 5), (1, 5), (1, 2))
        assert state.last_step == LastStep(0, 5)
        assert state.lines[0] == (2, 2, 2, 2) and state.target == 1
        assert state.finisher == 0
        result = outcome(state)
        assert result is not None and result.winners == (0,) and result.rule == "DACAPO-15"


@pytest.mark.rule("DACAPO-15")
class TestTarget:
    def test_reach_target_wins_at_once(self) -> None:
        """DACAPO-15: the advance after a full line fills the target cup and wins at once;
        the others keep what they hold."""
        state = play(TWO, (2, 1), (2, 1), (2, 1), (2, 1))
        assert outcome(state) is None and state.lines[0] == (2, 2, 2, 2)
        state = apply(state, Bids((2, 1)))
        assert state.target == 2 and state.finisher == 0
        assert state.reserves == (6, 11)
        assert to_move(state).is_over
        result = outcome(state)
        assert result is not None and result.winners == (0,) and result.rule == "DACAPO-15"

    def test_line_full_option(self) -> None:
        """DACAPO-15 (line_full): filling the last cup of the line already wins."""
        config = Config(players=4, target_reached_when=TargetReached.LINE_FULL)
        state = play(config, (2, 1, 1, 1), (2, 1, 1, 1))
        assert outcome(state) is None
        state = apply(state, Bids((2, 1, 1, 1)))
        assert state.finisher == 0 and state.target == 0
        result = outcome(state)
        assert result is not None and result.winners == (0,) and result.rule == "DACAPO-15"

    def test_target_beats_last_step(self) -> None:
        """DACAPO-15: reaching the target ends the match before any last-player step."""
        state = play(TWO, (2, 1), (2, 1), (2, 1), (2, 1), (1, 5), (1, 5))
        assert state.reserves == (6, 2)
        after = apply(state, Bids((3, 2)))
        # Seat 1 is out and seat 0 alone holds beans, but seat 0 reached the target.
        assert after.finisher == 0 and after.target == 3
        assert after.last_step is None and after.reserves == (3, 0)

    def test_invalid_after_target(self) -> None:
        """DACAPO-15: once someone reached the target, nothing more is played."""
        state = play(TWO, (2, 1), (2, 1), (2, 1), (2, 1), (2, 1))
        refused(state, Bids((1, 1)), "DACAPO-15")
        assert legal_actions(state, 0) == ()
        with pytest.raises(IllegalActionError) as info:
            joint(state, (Bid(0, 1), Bid(1, 1)))
        assert info.value.rule == "DACAPO-15"


@pytest.mark.rule("DACAPO-16", "DACAPO-17")
class TestEnd:
    def test_furthest_advance_wins(self) -> None:
        """DACAPO-16: with every reserve used up, the furthest advance wins."""
        state = play(TWO, (4, 5), (4, 5), (4, 5), (3, 1))
        result = outcome(state)
        assert [advance(state, s) for s in (0, 1)] == [2, 3]
        assert result is not None and result.winners == (1,) and result.rule == "DACAPO-16"

    def test_invalid_after_exhaustion(self) -> None:
        """DACAPO-16: once every reserve is used up, nothing more is played."""
        state = play(TWO, (4, 5), (4, 5), (4, 5), (3, 1))
        refused(state, Bids((None, None)), "DACAPO-16")
        assert to_move(state).is_over and legal_actions(state, 1) == ()

    def test_tie_break_fewest_beans_in_cups(self) -> None:
        """DACAPO-17: equal advance, the fewest beans in his cups wins."""
        state = play(TWO, (5, 4), (1, 2), (5, 5), (5, 5))
        assert state.lines == ((5, 0, 0, 0), (2, 0, 0, 0)) and state.last_step is None
        result = outcome(state)
        assert result is not None and result.winners == (1,) and result.rule == "DACAPO-17"

    def test_tie_break_shared(self) -> None:
        """DACAPO-17: equal advance and equal beans: a shared win."""
        state = play(TWO, (5, 5), (5, 5), (5, 5), (1, 1))
        result = outcome(state)
        assert result is not None and result.winners == (0, 1) and result.rule == "DACAPO-17"
        assert result.losers == () and result.scores == ()

    def test_tie_break_beans_spent_option(self) -> None:
        """DACAPO-17 (beans_spent): every seat spent 16 at this end, so equals share."""
        config = Config(players=2, tie_break=TieBreak.BEANS_SPENT)
        state = play(config, (5, 4), (1, 2), (5, 5), (5, 5))
        result = outcome(state)
        assert result is not None and result.winners == (0, 1) and result.rule == "DACAPO-17"

    def test_not_over(self) -> None:
        """DACAPO-16: while two seats hold beans the match goes on."""
        state = play(THREE, (5, 5, 5))
        assert outcome(state) is None and not to_move(state).is_over


@pytest.mark.rule("DACAPO-2", "DACAPO-3", "DACAPO-6", "DACAPO-7", "DACAPO-9", "DACAPO-11",
                  "DACAPO-14", "DACAPO-15")
class TestCheckState:
    def test_new_game_well_formed(self) -> None:
        """DACAPO-3: a new game passes the state checks."""
        for players in range(2, 6):
            assert well_formed(new_game(Config(players=players)))

    def test_invalid_beans_lost(self) -> None:
        """DACAPO-3: a state whose beans do not add up is invalid."""
        state = play(TWO, (5, 4))
        bad = State(state.config, state.reserves, state.lines, state.target, None,
                    state.box - 1, state.rounds, None)
        with pytest.raises(InvalidStateError) as info:
            check_state(bad)
        assert info.value.rule == "DACAPO-3" and not well_formed(bad)

    def test_invalid_wrong_winner_recorded(self) -> None:
        """DACAPO-11: a recorded winner that the bids do not give is invalid."""
        state = play(TWO, (5, 4))
        bad = State(state.config, state.reserves, state.lines, state.target, None,
                    state.box, (Round((5, 4), 1),), None)
        with pytest.raises(InvalidStateError) as info:
            check_state(bad)
        assert info.value.rule == "DACAPO-11"

    def test_invalid_history_bid(self) -> None:
        """DACAPO-6: a history holding an impossible bid is invalid, naming that rule."""
        state = new_game(TWO)
        bad = State(state.config, (10, 16), state.lines, 0, None, 6, (Round((6, None), None),),
                    None)
        with pytest.raises(InvalidStateError) as info:
            check_state(bad)
        assert info.value.rule == "DACAPO-6"

    def test_invalid_fields_against_history(self) -> None:
        """DACAPO-7, DACAPO-9: reserves and cups must be what the rounds played give."""
        state = play(TWO, (5, 4))
        moved = State(state.config, (12, 11), state.lines, 0, None, 4, state.rounds, None)
        with pytest.raises(InvalidStateError) as info:
            check_state(moved)
        assert info.value.rule == "DACAPO-7"
        lines = ((0, 5, 0, 0), (0, 0, 0, 0))
        gap = State(state.config, state.reserves, lines, 0, None, 4, state.rounds, None)
        with pytest.raises(InvalidStateError) as info:
            check_state(gap)
        assert info.value.rule == "DACAPO-9"

    def test_invalid_last_step_record(self) -> None:
        """DACAPO-14: a last-player step that did not happen is invalid."""
        state = play(TWO, (5, 4))
        bad = State(state.config, state.reserves, state.lines, 0, None, 4, state.rounds,
                    LastStep(0, 1))
        with pytest.raises(InvalidStateError) as info:
            check_state(bad)
        assert info.value.rule == "DACAPO-14"

    def test_invalid_finisher(self) -> None:
        """DACAPO-15: a finisher who has not reached the target is invalid."""
        state = play(TWO, (5, 4))
        bad = State(state.config, state.reserves, state.lines, 0, 0, 4, state.rounds, None)
        with pytest.raises(InvalidStateError) as info:
            check_state(bad)
        assert info.value.rule == "DACAPO-15"

    def test_malformed_shapes(self) -> None:
        """DACAPO-2: lines of the wrong length are malformed."""
        state = new_game(TWO)
        bad = State(state.config, state.reserves, ((0, 0, 0), (0, 0, 0)), 0, None, 0, (), None)
        with pytest.raises(MalformedInputError):
            check_state(bad)
        assert not well_formed(bad)


@pytest.mark.rule("DACAPO-3", "DACAPO-4", "DACAPO-6", "DACAPO-8", "DACAPO-11")
class TestCodec:
    def test_round_trip(self) -> None:
        """DACAPO-8: states with history, actions and configs round-trip through JSON."""
        config = Config(players=3, tie_resolution=TWO_LEVEL,
                        target_reached_when=TargetReached.LINE_FULL,
                        tie_break=TieBreak.BEANS_SPENT)
        state = play(config, (5, 5, 2), (1, 2, 3))
        assert GAME.state_from_json(GAME.to_json(state)) == state
        assert GAME.config_from_json(GAME.to_json(config)) == config
        for action in (Bids((3, None, 5)), Bid(0, 3)):
            assert GAME.action_from_json(GAME.to_json(action)) == action

    def test_protocol_shapes(self) -> None:
        """DACAPO-4: the action encodings of protocol P-12."""
        assert GAME.dumps(Bids((3, None, 5))) == '{"bids":[3,null,5],"type":"bids"}'
        assert GAME.dumps(Bid(0, 3)) == '{"beans":3,"seat":0,"type":"bid"}'
        assert GAME.dumps(new_game(Config(players=3))) == (
            '{"box":0,"config":{"players":3,"target_reached_when":"target_cup",'
            '"tie_break":"beans_in_cups","tie_resolution":"cascade"},"finisher":null,'
            '"last_step":null,"lines":[[0,0,0,0],[0,0,0,0],[0,0,0,0]],'
            '"reserves":[16,16,16],"rounds":[],"target":0}')

    @pytest.mark.parametrize("data", [
        {"type": "bids", "bids": ["3", None]},
        {"type": "bids", "bids": [3.0, 2]},
        {"type": "bids", "bids": [True, 2]},
        {"type": "bids"},
        {"type": "bids", "bids": [3, 2], "seat": 0},
        {"type": "bet", "bids": [3, 2]},
        {"type": "bid", "seat": 0},
    ])
    def test_malformed_actions(self, data: object) -> None:
        """DACAPO-6: malformed action JSON is refused before any rule is asked."""
        with pytest.raises(MalformedInputError):
            GAME.action_from_json(data)

    def test_decoded_state_checked(self) -> None:
        """DACAPO-3: a decoded state whose beans do not add up is refused."""
        data = GAME.to_json(play(TWO, (5, 4)))
        data["box"] += 1
        with pytest.raises(InvalidStateError) as info:
            GAME.state_from_json(data)
        assert info.value.rule == "DACAPO-3"

    def test_bad_enum(self) -> None:
        """DACAPO-11: an unknown tie_resolution is malformed."""
        with pytest.raises(MalformedInputError):
            GAME.config_from_json({"players": 2, "tie_resolution": "random",
                                   "target_reached_when": "target_cup",
                                   "tie_break": "beans_in_cups"})


@pytest.mark.rule("DACAPO-1", "DACAPO-2", "DACAPO-4", "DACAPO-8")
class TestGameRecord:
    def test_facts(self) -> None:
        """DACAPO-1, DACAPO-4: the fact sheet: 2-5 players, simultaneous, no chance."""
        facts = GAME.facts
        assert (facts.min_players, facts.max_players) == (2, 5)
        assert facts.simultaneous and not facts.chance and not facts.hidden_information
        assert facts.max_decisions == 16
        assert GAME.name == "da_capo" and GAME.prefix == "DACAPO" and GAME.title == "DA CAPO"

    def test_no_chance(self) -> None:
        """DACAPO-4: there are no chance nodes to sample."""
        import random

        with pytest.raises(ValueError, match="no chance"):
            GAME.sample_chance(new_game(TWO), random.Random(0))

    def test_registered(self) -> None:
        """DACAPO-1: the registry lists DA CAPO."""
        from copa_ref.games import get_game

        assert get_game("da_capo") is GAME

    def test_demo(self) -> None:
        """DACAPO-8: the demo shows a seeded match round by round, revealed bids included."""
        first = list(GAME.demo(7))
        assert first == list(GAME.demo(7))
        text = "\n".join(first)
        assert "Round 1: the bids, revealed together: A " in text and "result: " in text

    def test_render(self) -> None:
        """DACAPO-2: the picture shows every line, the target cup and the box."""
        text = GAME.render(play(THREE, (5, 5, 2)))
        assert "cups [. . . .]" in text and "cups [2 . . .]" in text
        assert "box 10" in text and "C advances" in text
