"""RONDA rules, one class per rule; every test names the rule it pins, and every way an
action can be refused has its ``test_invalid_*``."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import attrs
import pytest

from copa_ref.core import (
    CHANCE,
    NOBODY,
    IllegalActionError,
    InvalidStateError,
    MalformedInputError,
    MoverKind,
    canonical_json,
)
from copa_ref.ronda import (
    GAME,
    Add,
    Again,
    Arrange,
    Config,
    Keep,
    Lift,
    Phase,
    State,
    Stop,
    action_space,
    apply,
    chance_step,
    check_state,
    is_legal,
    legal_actions,
    new_game,
    observe,
    outcome,
    remember,
    sample_chance,
    to_move,
    well_formed,
)
from copa_ref.ronda.rules import COUNTS, total_beans
from tests.ronda.helpers import ARRANGEMENT, act, arranged, play, position
from tests.support import assert_refused

FIVES = (5, 5, 1, 1, 2, 2, 3, 0, 0, 1)
"""Two groups of five at places 0 and 1 (20 beans in the circle)."""
FOURS = (4, 4, 1, 1, 2, 2, 3, 3, 0, 0)
"""The set-up's two fours at places 0 and 1."""


def refused(state: State, action: object, rule: str) -> IllegalActionError:
    """Expect a refusal under *rule*, the state unchanged, ``is_legal`` agreeing."""
    err = assert_refused(GAME, state, action, rule)
    assert not is_legal(state, action)  # type: ignore[arg-type]
    return err


def malformed(state: State, action: object) -> None:
    with pytest.raises(MalformedInputError):
        apply(state, action)  # type: ignore[arg-type]
    assert not is_legal(state, action)  # type: ignore[arg-type]
    assert not GAME.is_legal(state, action)


@pytest.mark.rule("RONDA-1")
class TestMaterials:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_two_to_five_players(self, players: int) -> None:
        """RONDA-1: 2 to 5 players, each with a supply; twenty beans to hide."""
        state = new_game(Config(players=players))
        assert len(state.supplies) == players
        assert observe(state).circle == 20

    @pytest.mark.parametrize("players", [0, 1, 6])
    def test_invalid_player_count(self, players: int) -> None:
        """RONDA-1: any other number of players is refused."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(players=players))
        assert info.value.rule == "RONDA-1"

    def test_invalid_config_types(self) -> None:
        """RONDA-1: a config of the wrong types is malformed, never a bare TypeError."""
        for bad in (Config(players=True), Config(max_beans=4.0),  # type: ignore[arg-type]
                    Config(penalty_beans=1)):  # type: ignore[arg-type]
            with pytest.raises(MalformedInputError):
                new_game(bad)
        with pytest.raises(MalformedInputError):
            new_game("default")  # type: ignore[arg-type]


@pytest.mark.rule("RONDA-2")
class TestBeansPerPlayer:
    def test_ten_by_default_nine_as_option(self) -> None:
        """RONDA-2: ten beans each by default (the preparation); nine as the option."""
        assert new_game().supplies == (10, 10)
        assert new_game(Config(players=3, beans_per_player=9)).supplies == (9, 9, 9)

    def test_invalid_beans_per_player(self) -> None:
        """RONDA-2: only 9 or 10."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(beans_per_player=8))
        assert info.value.rule == "RONDA-2"


@pytest.mark.rule("RONDA-3")
class TestArrangement:
    def test_chance_first(self) -> None:
        """RONDA-3: the game starts at a chance node; nothing is arranged yet."""
        state = new_game()
        assert to_move(state) == CHANCE and state.cups == () and state.black == 0
        assert legal_actions(state) == ()

    def test_sampled_arrangement_is_a_permutation(self) -> None:
        """RONDA-3: a sampled arrangement is an order of 1,1,2,2,3,3,4,4,0,0; replayable."""
        state = new_game()
        for seed in range(20):
            action = sample_chance(state, random.Random(seed))
            assert sorted(action.cups) == list(COUNTS)
            assert action == sample_chance(state, random.Random(seed))
        after = apply(state, Arrange(ARRANGEMENT))
        assert after.cups == ARRANGEMENT and after.phase is Phase.LIFT and after.turn == 0

    def test_sample_only_at_set_up(self) -> None:
        """RONDA-3: there is no chance node after the arrangement."""
        with pytest.raises(ValueError, match="arranged"):
            sample_chance(arranged(), random.Random(1))

    def test_chance_step_builds_an_arrangement(self) -> None:
        """RONDA-3: one place at a time, exact probabilities, the arrangement at the end."""
        state = new_game()
        first = chance_step(state, ())
        assert first == tuple((c, Fraction(1, 5)) for c in range(5))
        assert chance_step(state, (4, 4)) == ((0, Fraction(2, 8)), (1, Fraction(2, 8)),
                                              (2, Fraction(2, 8)), (3, Fraction(2, 8)))
        assert chance_step(state, ARRANGEMENT) == Arrange(ARRANGEMENT)
        with pytest.raises(ValueError, match="no start"):
            chance_step(state, (4, 4, 4))
        with pytest.raises(ValueError, match="arranged"):
            chance_step(arranged(), ())

    def test_chance_step_probabilities_sum_to_one(self) -> None:
        """RONDA-3: every step's outcomes are a distribution."""
        state = new_game()
        prefix: tuple[int, ...] = ()
        rng = random.Random(3)
        while True:
            step = chance_step(state, prefix)
            if isinstance(step, Arrange):
                assert sorted(step.cups) == list(COUNTS)
                break
            assert sum(p for _, p in step) == 1
            prefix = (*prefix, rng.choice([c for c, _ in step]))

    @pytest.mark.parametrize("cups", [
        (0, 0, 1, 1, 2, 2, 3, 3, 4, 5),
        (0, 0, 1, 1, 2, 2, 3, 3, 4),
        (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0),
        (0, 1, 1, 1, 2, 2, 3, 3, 4, 3),
    ])
    def test_invalid_arrangement(self, cups: tuple[int, ...]) -> None:
        """RONDA-3: an arrangement must be a permutation of exactly those ten counts."""
        refused(new_game(), Arrange(cups), "RONDA-3")

    def test_invalid_arrangement_shape(self) -> None:
        """RONDA-3: a list, or counts that are not integers, are malformed."""
        malformed(new_game(), Arrange(list(ARRANGEMENT)))  # type: ignore[arg-type]
        malformed(new_game(), Arrange((*ARRANGEMENT[:-1], 3.0)))  # type: ignore[arg-type]

    def test_invalid_arrange_twice(self) -> None:
        """RONDA-3: the cups are arranged once."""
        refused(arranged(), Arrange(ARRANGEMENT), "RONDA-3")

    def test_invalid_play_before_arrangement(self) -> None:
        """RONDA-3: no lift before the cups are arranged."""
        refused(new_game(), Lift(0, 0), "RONDA-3")
        refused(new_game(), Stop(0), "RONDA-3")


@pytest.mark.rule("RONDA-4")
class TestTurnOrder:
    def test_seat_zero_begins_then_clockwise(self) -> None:
        """RONDA-4: the nominated player (seat 0) begins; the turn passes to seat + 1."""
        state = arranged(Config(players=3))
        assert to_move(state).seats == (0,)
        state = play(state, "lift:0 lift:1")
        assert state.turn == 1
        state = play(state, "lift:0 lift:1")
        assert state.turn == 2
        state = play(state, "lift:0 lift:1")
        assert state.turn == 0

    def test_invalid_out_of_turn(self) -> None:
        """RONDA-4: only the mover acts."""
        state = arranged(Config(players=3))
        refused(state, Lift(1, 0), "RONDA-4")
        refused(play(state, "lift:4 lift:5"), Add(2, 4), "RONDA-4")


@pytest.mark.rule("RONDA-5")
class TestLifting:
    def test_ten_then_nine_covered_cups(self) -> None:
        """RONDA-5: any covered cup may be lifted, one at a time; the count is seen by all."""
        state = arranged()
        assert legal_actions(state) == tuple(Lift(0, c) for c in range(10))
        state = play(state, "lift:4")
        assert state.lifted == (4,) and observe(state, 1).lifted == ((4, 2),)
        assert legal_actions(state) == tuple(Lift(0, c) for c in range(10) if c != 4)

    def test_invalid_lift_lifted_cup(self) -> None:
        """RONDA-5: a lifted cup cannot be lifted again."""
        refused(play(arranged(), "lift:4"), Lift(0, 4), "RONDA-5")

    @pytest.mark.parametrize("cup", [-1, 10, 11])
    def test_invalid_lift_no_place(self, cup: int) -> None:
        """RONDA-5: only the ten places of the circle hold cups."""
        refused(arranged(), Lift(0, cup), "RONDA-5")

    @pytest.mark.parametrize("action", [Add(0, 4), Stop(0), Keep(0, 4), Again(0)])
    def test_invalid_other_action_while_lifting(self, action: object) -> None:
        """RONDA-5: while a lift is due, nothing else is played."""
        refused(play(arranged(), "lift:4"), action, "RONDA-5")


@pytest.mark.rule("RONDA-6")
class TestMismatch:
    def test_different_numbers_cover_and_pass(self) -> None:
        """RONDA-6: different numbers: both covered, the next player's turn; the second
        cup's count stays seen."""
        state = play(arranged(), "lift:0 lift:1")
        assert state.turn == 1 and state.lifted == () and state.phase is Phase.LIFT
        assert state.shown == (1, 0) and observe(state).shown == (1, 0)
        assert state.supplies == (10, 10)


@pytest.mark.rule("RONDA-5", "RONDA-7")
class TestMatch:
    def test_equal_numbers_oblige_an_added_bean(self) -> None:
        """RONDA-7: a match: the only legal actions add one bean to one of the two cups."""
        state = play(arranged(), "lift:4 lift:5")
        assert state.phase is Phase.ADD
        assert legal_actions(state) == (Add(0, 4), Add(0, 5))
        after = play(state, "add:5")
        assert after.cups[5] == 3 and after.supplies == (9, 10)

    def test_two_empty_cups_match(self) -> None:
        """RONDA-7: 0 = 0 is a match (RONDA-Q10)."""
        state = play(arranged(), "lift:1 lift:6 add:6")
        assert state.cups[6] == 1 and state.phase is Phase.CHOOSE

    def test_invalid_add_to_other_cup(self) -> None:
        """RONDA-7: the bean goes onto one of the two matched cups only."""
        state = play(arranged(), "lift:4 lift:5")
        refused(state, Add(0, 0), "RONDA-7")
        refused(state, Add(0, 12), "RONDA-7")

    @pytest.mark.parametrize("action", [Lift(0, 0), Stop(0), Keep(0, 4), Again(0)])
    def test_invalid_other_action_on_a_match(self, action: object) -> None:
        """RONDA-7: adding is required (RONDA-Q3): no lift, stop or keep before it."""
        refused(play(arranged(), "lift:4 lift:5"), action, "RONDA-7")

    def test_invalid_add_without_a_match(self) -> None:
        """RONDA-5: no add while a cup is to be lifted."""
        refused(arranged(), Add(0, 4), "RONDA-5")


@pytest.mark.rule("RONDA-8")
class TestGoingOn:
    def test_keep_one_group_and_lift_a_new_cup(self) -> None:
        """RONDA-8: after adding, keep one group open and lift any covered cup (the one
        just covered too, RONDA-Q12)."""
        state = play(arranged(), "lift:4 lift:5 add:5")
        assert legal_actions(state) == (Keep(0, 4), Keep(0, 5), Stop(0))
        state = play(state, "keep:5")
        assert state.lifted == (5,) and state.phase is Phase.LIFT and state.turn == 0
        assert Lift(0, 4) in legal_actions(state) and Lift(0, 5) not in legal_actions(state)

    def test_the_chain(self) -> None:
        """RONDA-8: keep the three, find the other three: add again; then a mismatch ends
        the turn."""
        state = play(arranged(), "lift:4 lift:5 add:5 keep:5 lift:0")
        assert state.phase is Phase.ADD and state.lifted == (5, 0)
        state = play(state, "add:0 keep:0 lift:3 add:3 keep:3 lift:9")
        assert state.turn == 1 and state.supplies == (7, 10) and state.lifted == ()

    def test_invalid_keep_covered_cup(self) -> None:
        """RONDA-8: only an open group can stay open."""
        refused(play(arranged(), "lift:4 lift:5 add:5"), Keep(0, 0), "RONDA-8")

    @pytest.mark.parametrize("action", [Lift(0, 0), Add(0, 4), Again(0)])
    def test_invalid_other_action_at_the_choice(self, action: object) -> None:
        """RONDA-8: after adding, stop or keep a group (no lift yet, no second bean, no
        re-lift of both without simpler rule 1)."""
        refused(play(arranged(), "lift:4 lift:5 add:5"), action, "RONDA-8")


@pytest.mark.rule("RONDA-9")
class TestMissingAGo:
    def test_stop_covers_both_and_passes(self) -> None:
        """RONDA-9: stopping covers both groups; the turn passes; no penalty."""
        state = position(FIVES, black=0)
        state = play(arranged(), "lift:4 lift:5 add:4 stop")
        assert state.turn == 1 and state.lifted == () and state.supplies == (9, 10)
        black = position((3, 0, 1, 4, 2, 2, 0, 4, 1, 1), black=2, supplies=(10, 10))
        after = play(black, "lift:4 lift:5 add:4 stop")
        assert after.black == 2 and after.supplies == (9, 10)


@pytest.mark.rule("RONDA-10")
class TestOffToTheMiddle:
    def test_two_fives_to_the_black_cup(self) -> None:
        """RONDA-10: two fives: one group and the added bean (6) into the empty black cup;
        that place is left empty; the turn ends."""
        state = play(position(FIVES), "lift:0 lift:1")
        assert state.phase is Phase.ADD
        after = play(state, "add:1")
        assert after.black == 6 and after.cups[1] == 0 and after.cups[0] == 5
        assert after.turn == 1 and after.lifted == () and after.supplies == (9, 10)

    def test_emptied_cup_stays_in_play(self) -> None:
        """RONDA-10: the emptied place can be lifted again, like the set-up's empty cups."""
        after = play(position(FIVES), "lift:0 lift:1 add:1")
        assert Lift(1, 1) in legal_actions(after)
        assert observe(play(after, "lift:1")).lifted == ((1, 0),)

    def test_no_cup_over_five(self) -> None:
        """RONDA-10: a four matched becomes five at most; a five never six."""
        state = play(position(FOURS), "lift:0 lift:1 add:0")
        assert state.cups[:2] == (5, 4)


@pytest.mark.rule("RONDA-11")
class TestPenaltyBeans:
    BLACK = (3, 0, 1, 4, 2, 2, 0, 1, 1, 0)  # 14 in the circle, 6 in the black cup

    def test_mismatch_takes_a_penalty_bean(self) -> None:
        """RONDA-11: while the black cup holds beans, a mismatch takes one from it."""
        after = play(position(self.BLACK, black=6), "lift:0 lift:1")
        assert after.black == 5 and after.supplies == (11, 10) and after.turn == 1

    def test_chain_mismatch_takes_one_too(self) -> None:
        """RONDA-11: a mismatch later in a chain is a mistake too (RONDA-Q5)."""
        after = play(position(self.BLACK, black=6), "lift:4 lift:5 add:4 keep:5 lift:0")
        assert after.black == 5 and after.supplies == (10, 10)

    def test_no_penalty_while_black_cup_is_empty(self) -> None:
        """RONDA-11: an empty black cup takes no penalty."""
        after = play(arranged(), "lift:0 lift:1")
        assert after.black == 0 and after.supplies == (10, 10)

    def test_last_penalty_empties_the_black_cup(self) -> None:
        """RONDA-11: the black cup empties; then mistakes cost nothing."""
        cups = (3, 0, 1, 4, 2, 2, 0, 4, 1, 2)
        state = play(position(cups, black=1), "lift:0 lift:1")
        assert state.black == 0 and state.supplies == (11, 10)
        assert play(state, "lift:0 lift:1").supplies == (11, 10)


@pytest.mark.rule("RONDA-12")
class TestSixOut:
    def test_a_six_leaves_the_game_while_the_black_cup_holds_beans(self) -> None:
        """RONDA-12: two fives while the black cup holds beans: the six go out of the game."""
        cups = (5, 5, 1, 1, 2, 0, 0, 0, 0, 0)  # 14, and 6 in the black cup
        after = play(position(cups, black=6), "lift:0 lift:1 add:0")
        assert after.out == 6 and after.black == 6 and after.cups[0] == 0


@pytest.mark.rule("RONDA-13")
class TestEnd:
    def test_last_bean_wins_at_once(self) -> None:
        """RONDA-13: the first player to get rid of all his beans wins, at once."""
        end = play(position(ARRANGEMENT, supplies=(1, 19)),
                   "lift:4 lift:5 add:4")
        assert end.phase is Phase.OVER and to_move(end) == NOBODY
        result = outcome(end)
        assert result is not None and result.winners == (0,) and result.rule == "RONDA-13"
        assert legal_actions(end) == () and end.lifted == ()

    def test_last_bean_on_two_fives(self) -> None:
        """RONDA-13: a last bean on two fives: the group goes to the middle, then he wins."""
        end = play(position(FIVES, supplies=(1, 19)), "lift:0 lift:1 add:1")
        assert end.phase is Phase.OVER and end.black == 6 and outcome(end) is not None

    @pytest.mark.parametrize("action", [Lift(0, 0), Lift(1, 0), Stop(0),
                                        Arrange(ARRANGEMENT)])
    def test_invalid_after_the_end(self, action: object) -> None:
        """RONDA-13: nothing is played once a player has won."""
        end = play(position(ARRANGEMENT, supplies=(1, 19)), "lift:4 lift:5 add:4")
        refused(end, action, "RONDA-13")

    def test_no_outcome_while_playing(self) -> None:
        """RONDA-13: no result while every player holds beans."""
        assert outcome(arranged()) is None and outcome(new_game()) is None


@pytest.mark.rule("RONDA-14")
class TestWhatIsSeen:
    def test_observation_hides_covered_cups(self) -> None:
        """RONDA-14: the observation holds the lifted cups' counts, never a covered one's."""
        state = play(arranged(), "lift:4")
        seen = observe(state, 0)
        assert seen.lifted == ((4, 2),) and seen.circle == 20
        assert "cups" not in json.loads(GAME.dumps(seen))
        assert attrs.evolve(observe(state, 1), seat=0) == seen
        assert attrs.evolve(observe(state, None), seat=0) == seen

    def test_invalid_observer(self) -> None:
        """RONDA-14: an observer that is no seat is malformed input."""
        for seat in (2, -1, True, "0"):
            with pytest.raises(MalformedInputError):
                observe(arranged(), seat)  # type: ignore[arg-type]

    def test_memory_of_the_public_history(self) -> None:
        """RONDA-14: ``remember`` knows what every lift showed, and every open change."""
        state = arranged()
        memory = remember(None, Arrange(ARRANGEMENT), observe(state))
        script = ["lift:4", "lift:5", "add:5", "keep:5", "lift:0", "add:0", "stop",
                  "lift:1", "lift:2"]
        for word in script:
            kind, _, cup = word.partition(":")
            action = act(state, kind, int(cup) if cup else None)
            state = apply(state, action)
            memory = remember(memory, action, observe(state))
        assert memory == (4, 0, 1, None, 2, 3, None, None, None, None)
        assert all(b is None or b == state.cups[c] for c, b in enumerate(memory))
        # starting from nothing at the first lift is the same as starting at the arrangement
        assert remember(None, Lift(0, 4), observe(play(arranged(), "lift:4")))[4] == 2
        # the mismatched second cup of seat 1's pair is remembered from `shown`
        assert state.shown == (2, 1) and state.lifted == ()


@pytest.mark.rule("RONDA-15")
class TestConservation:
    def test_total_beans(self) -> None:
        """RONDA-15: circle + black + supplies + out = 20 + beans dealt."""
        assert total_beans(new_game()) == 40 == total_beans(arranged())
        assert total_beans(new_game(Config(players=5, beans_per_player=9))) == 65

    def test_invalid_state_beans_lost(self) -> None:
        """RONDA-15: a state whose beans do not add up is refused as invalid."""
        bad = attrs.evolve(arranged(), black=1)
        with pytest.raises(InvalidStateError) as info:
            check_state(bad)
        assert info.value.rule == "RONDA-15" and not well_formed(bad)

    @pytest.mark.parametrize(("change", "rule"), [
        ({"cups": (6, 0, 1, 3, 2, 2, 0, 4, 1, 1)}, "RONDA-10"),
        ({"lifted": (0, 1, 2)}, "RONDA-5"),
        ({"supplies": (0, 10), "cups": (3, 0, 1, 4, 2, 2, 0, 4, 1, 13)}, "RONDA-10"),
        ({"turn": 2}, "RONDA-4"),
        ({"phase": Phase.ADD, "lifted": (0, 1)}, "RONDA-7"),
        ({"shown": (0, 1)}, "RONDA-14"),
        ({"black": 7, "supplies": (6, 7)}, "RONDA-12"),
    ])
    def test_invalid_states(self, change: dict[str, object], rule: str) -> None:
        """RONDA-15: states no play can produce are refused, naming their rule."""
        bad = attrs.evolve(arranged(), **change)  # type: ignore[arg-type]
        with pytest.raises(InvalidStateError) as info:
            check_state(bad)
        assert info.value.rule == rule, str(info.value)


@pytest.mark.rule("RONDA-16")
class TestSimplerRuleOne:
    CONFIG = Config(relift_after_match=True)

    def test_cover_both_and_lift_two_again(self) -> None:
        """RONDA-16: after a match and the bean, stop or cover both and lift two anew."""
        state = play(arranged(self.CONFIG), "lift:4 lift:5 add:4")
        assert legal_actions(state) == (Again(0), Stop(0))
        again = play(state, "again")
        assert again.lifted == () and again.turn == 0 and again.phase is Phase.LIFT
        assert play(state, "stop").turn == 1

    def test_invalid_keep_under_rule_one(self) -> None:
        """RONDA-16: no group stays open under simpler rule 1."""
        state = play(arranged(self.CONFIG), "lift:4 lift:5 add:4")
        refused(state, Keep(0, 4), "RONDA-16")
        refused(state, Lift(0, 0), "RONDA-16")


@pytest.mark.rule("RONDA-17")
class TestSimplerRuleTwo:
    CONFIG = Config(max_beans=4)

    def test_two_fours_go_to_the_middle(self) -> None:
        """RONDA-17: at most four: two fours and the bean (5) go to the middle."""
        after = play(position(FOURS, config=self.CONFIG), "lift:0 lift:1 add:0")
        assert after.black == 5 and after.cups[0] == 0 and after.turn == 1

    def test_invalid_maximum(self) -> None:
        """RONDA-17: the maximum is 5 or 4."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(max_beans=3))
        assert info.value.rule == "RONDA-17"


@pytest.mark.rule("RONDA-18")
class TestSimplerRuleThree:
    CONFIG = Config(penalty_beans=False)

    def test_groups_leave_the_game_no_penalty(self) -> None:
        """RONDA-18: no penalty beans: the group and the bean leave the game; the black cup
        stays empty, mismatches cost nothing."""
        after = play(position(FIVES, config=self.CONFIG), "lift:0 lift:1 add:0")
        assert after.out == 6 and after.black == 0
        assert play(after, "lift:2 lift:4").supplies == (9, 10)


@pytest.mark.rule("RONDA-3", "RONDA-5", "RONDA-15")
class TestMalformed:
    @pytest.mark.parametrize("action", [
        Lift(True, 0), Lift(0, 3.0), Add(0, "4"), Stop(None), "lift", None, Keep(0, None),
    ])
    def test_invalid_types_are_malformed(self, action: object) -> None:
        """RONDA-5: ill-typed actions are malformed (a bool is no seat, 3.0 no place)."""
        malformed(play(arranged(), "lift:4 lift:5"), action)

    def test_invalid_state_object(self) -> None:
        """RONDA-15: apply refuses an object that is no RONDA state."""
        with pytest.raises(MalformedInputError):
            apply(None, Lift(0, 0))  # type: ignore[arg-type]

    @pytest.mark.parametrize("data", [
        {"type": "lift", "seat": 0},
        {"type": "lift", "seat": 0, "cup": "3"},
        {"type": "lift", "seat": True, "cup": 3},
        {"type": "peek", "seat": 0, "cup": 3},
        {"type": "arrange", "cups": [0, 1, "2"]},
        {"type": "stop", "seat": 0, "extra": 1},
        [1, 2],
    ])
    def test_invalid_json(self, data: object) -> None:
        """RONDA-3: misshapen JSON never decodes (P-8)."""
        with pytest.raises(MalformedInputError):
            GAME.action_from_json(data)

    def test_invalid_state_json(self) -> None:
        """RONDA-15: a decoded state is checked."""
        data = GAME.to_json(arranged())
        data["black"] = 3
        with pytest.raises(InvalidStateError):
            GAME.state_from_json(data)
        data["black"] = "3"
        with pytest.raises(MalformedInputError):
            GAME.state_from_json(data)


@pytest.mark.rule("RONDA-5")
class TestActions:
    def test_encoding_example(self) -> None:
        """RONDA-5: the state and observation encodings of the spec."""
        state = play(arranged(cups=(3, 0, 1, 4, 2, 2, 0, 4, 1, 3)), "lift:4")
        assert GAME.dumps(state) == (
            '{"black":0,"config":{"beans_per_player":10,"max_beans":5,"penalty_beans":true,'
            '"players":2,"relift_after_match":false},"cups":[3,0,1,4,2,2,0,4,1,3],'
            '"lifted":[4],"out":0,"phase":"lift","shown":[4,2],"supplies":[10,10],"turn":0}')
        assert GAME.dumps(Lift(0, 4)) == '{"cup":4,"seat":0,"type":"lift"}'
        assert GAME.dumps(observe(state)) == (
            '{"black":0,"circle":20,"config":{"beans_per_player":10,"max_beans":5,'
            '"penalty_beans":true,"players":2,"relift_after_match":false},"lifted":[[4,2]],'
            '"out":0,"phase":"lift","seat":null,"shown":[4,2],"supplies":[10,10],"turn":0}')

    @pytest.mark.parametrize("config", [Config(players=3), Config(relift_after_match=True)])
    def test_action_space(self, config: Config) -> None:
        """RONDA-5: every action that can ever be legal, sorted by canonical JSON, and every
        legal action of a game is in it."""
        space = action_space(config)
        texts = [GAME.dumps(a) for a in space]
        assert texts == sorted(texts) and len(set(space)) == len(space)
        rng = random.Random(2)
        state = new_game(config)
        for _ in range(400):
            if to_move(state).kind is MoverKind.NOBODY:
                break
            if to_move(state).is_chance:
                state = apply(state, sample_chance(state, rng))
                continue
            legal = legal_actions(state)
            assert set(legal) <= set(space)
            assert [canonical_json(GAME.to_json(a)) for a in legal] == sorted(
                canonical_json(GAME.to_json(a)) for a in legal)
            state = apply(state, rng.choice(legal))
