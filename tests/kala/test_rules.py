"""One class per KALA rule or transition; every test names the rule it pins."""

from __future__ import annotations

import pytest

from copa_ref.core import (
    IllegalActionError,
    InvalidStateError,
    MalformedInputError,
    MoverKind,
    Seat,
)
from copa_ref.kala import (
    GAME,
    Bonus,
    BonusRule,
    Config,
    EndCheck,
    Harvest,
    HarvestRule,
    Phase,
    Place,
    Sow,
    State,
    apply,
    legal_actions,
    new_game,
    observe,
    outcome,
    to_move,
)
from copa_ref.kala.paths import PATHS, is_path, longest_path, path_error
from copa_ref.kala.rules import total_beans
from tests.support import assert_refused

from .positions import beans_at, position


def refused(state: State, action: object, rule: str) -> IllegalActionError:
    """Expect a refusal of *action* under *rule*, leaving *state* unchanged."""
    return assert_refused(GAME, state, action, rule)


@pytest.mark.rule("KALA-1", "KALA-2", "KALA-3")
class TestSetup:
    def test_materials(self) -> None:
        """KALA-1: 16 empty field cups, two empty playing cups, 28 beans a store, empty bank."""
        state = new_game()
        assert state.field == (0,) * 16
        assert state.cup_beans == (0, 0)
        assert state.stores == (28, 28)
        assert state.bank == 0
        assert total_beans(state) == 56
        assert GAME.num_players(Config()) == 2

    def test_corners(self) -> None:
        """KALA-2: the playing cups start on diagonally opposite corners."""
        assert new_game().cups == ((0, 0), (3, 3))

    def test_first_player(self) -> None:
        """KALA-3: the nominated first player moves first."""
        assert to_move(new_game()).seats == (Seat(0),)
        assert to_move(new_game(Config(first_player=1))).seats == (Seat(1),)

    def test_invalid_first_player(self) -> None:
        """KALA-3: only seats 0 and 1 exist."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(first_player=2))
        assert info.value.rule == "KALA-3"


@pytest.mark.rule("KALA-3", "KALA-4", "KALA-5", "KALA-6", "KALA-7", "KALA-14")
class TestSowing:
    def test_four_beans_from_store(self) -> None:
        """KALA-4: a regular sowing takes 4 beans from the mover's store, one per square."""
        state = new_game()
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert after.stores == (24, 28)
        assert (beans_at(after, (0, 1)), beans_at(after, (0, 2))) == (1, 1)

    def test_first_bean_into_own_cup(self) -> None:
        """KALA-6: the first bean goes into the own playing cup, not the field cup beneath."""
        after = apply(new_game(), Sow(0, ((0, 0), (1, 0), (2, 0), (3, 0))))
        assert after.cup_beans[0] == 1
        assert beans_at(after, (0, 0)) == 0

    def test_legal_paths_from_corner_and_inside(self) -> None:
        """KALA-5, KALA-7: 6 four-square paths from a corner, 8 from an inner square."""
        assert len(legal_actions(new_game())) == 6
        inner = position(cups=((1, 1), (3, 3)))
        assert len(legal_actions(inner)) == 8

    def test_path_table_matches_the_rule(self) -> None:
        """KALA-5 .. KALA-7: the path table is exactly the walks the rule allows."""
        squares = [(r, c) for r in range(4) for c in range(4)]
        for start in squares:
            walks: list[tuple[tuple[int, int], ...]] = [(start,)]
            for length in range(1, 8):
                if length > 1:
                    walks = [(*w, n) for w in walks for n in squares
                             if abs(n[0] - w[-1][0]) + abs(n[1] - w[-1][1]) == 1]
                legal = {w for w in walks if is_path(start, w, length)}
                assert legal == set(PATHS[(start, length)])
                assert all((path_error(start, w, length) is None) == (w in legal) for w in walks)

    def test_longest_paths(self) -> None:
        """KALA-14: the longest path has 7 squares from a corner, 6 on an edge, 5 inside."""
        assert [longest_path(s) for s in ((0, 0), (0, 1), (1, 1), (2, 2))] == [7, 6, 5, 5]

    def test_invalid_out_of_turn(self) -> None:
        """KALA-3: only the seat to move may act."""
        refused(new_game(), Sow(1, ((3, 3), (3, 2), (3, 1), (3, 0))), "KALA-3")

    def test_invalid_length(self) -> None:
        """KALA-4: a regular sowing has exactly 4 beans."""
        refused(new_game(), Sow(0, ((0, 0), (0, 1), (0, 2))), "KALA-4")
        refused(new_game(), Sow(0, ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1))), "KALA-4")

    def test_invalid_jump(self) -> None:
        """KALA-5: each bean goes into the cup immediately alongside."""
        refused(new_game(), Sow(0, ((0, 0), (0, 2), (0, 3), (1, 3))), "KALA-5")
        refused(new_game(), Sow(0, ((0, 0), (1, 1), (2, 1), (3, 1))), "KALA-5")

    def test_invalid_off_board(self) -> None:
        """KALA-5: a path never leaves the field (no wrap-around)."""
        refused(new_game(), Sow(0, ((0, 0), (0, -1), (0, -2), (0, -3))), "KALA-5")
        state = position(cups=((0, 2), (3, 3)))
        refused(state, Sow(0, ((0, 2), (0, 3), (0, 4), (0, 5))), "KALA-5")

    def test_invalid_start(self) -> None:
        """KALA-6: a path starts on the mover's own playing cup."""
        refused(new_game(), Sow(0, ((0, 1), (0, 2), (0, 3), (1, 3))), "KALA-6")

    def test_invalid_two_turns(self) -> None:
        """KALA-7: one 90-degree turn at most."""
        refused(new_game(), Sow(0, ((0, 0), (0, 1), (1, 1), (1, 2))), "KALA-7")

    def test_invalid_reversal(self) -> None:
        """KALA-7: a path never turns back."""
        state = position(cups=((1, 1), (3, 3)))
        refused(state, Sow(0, ((1, 1), (1, 2), (1, 1), (1, 0))), "KALA-7")

    def test_invalid_malformed_path(self) -> None:
        """KALA-5: a path of things that are not squares is malformed, not a rule case."""
        with pytest.raises(MalformedInputError):
            apply(new_game(), Sow(0, ((0, 0), "x", (0, 2), (0, 3))))  # type: ignore[arg-type]
        with pytest.raises(MalformedInputError):
            apply(new_game(), "sow")  # type: ignore[arg-type]

    def test_invalid_action_kind(self) -> None:
        """KALA-4: a turn begins with the sowing; nothing else is accepted first."""
        refused(new_game(), Harvest(0, True), "KALA-4")
        refused(new_game(), Place(0, (0, 1)), "KALA-4")


@pytest.mark.rule("KALA-8")
class TestMovingTheCup:
    def test_cup_moves_onto_last_field_cup(self) -> None:
        """KALA-8: the playing cup moves onto the field cup of the last bean, automatically."""
        after = apply(new_game(), Sow(0, ((0, 0), (0, 1), (0, 2), (1, 2))))
        assert after.cups[0] == (1, 2)
        assert beans_at(after, (1, 2)) == 1
        assert after.phase is Phase.SOW and after.turn == 1


@pytest.mark.rule("KALA-9", "KALA-10", "KALA-11")
class TestOpponentsCup:
    def test_bean_into_opponents_cup(self) -> None:
        """KALA-9: a bean on the opponent's square goes into his cup; the field cup gets none."""
        state = position(cups=((0, 0), (0, 2)), field={(0, 2): 2})
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert after.cup_beans == (1, 1)
        assert beans_at(after, (0, 2)) == 2
        assert beans_at(after, (0, 3)) == 1

    def test_last_bean_into_opponents_cup_gives_a_choice(self) -> None:
        """KALA-10: last bean in the opponent's cup: choose a square next to it."""
        state = position(cups=((0, 0), (0, 3)))
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert after.phase is Phase.PLACE
        assert legal_actions(after) == (Place(0, (0, 2)), Place(0, (1, 3)))
        placed = apply(after, Place(0, (1, 3)))
        assert placed.cups == ((1, 3), (0, 3))
        assert placed.turn == 1

    def test_invalid_place_on_opponents_cup(self) -> None:
        """KALA-10: never onto the opponent's cup."""
        state = position(cups=((0, 0), (0, 3)))
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        refused(after, Place(0, (0, 3)), "KALA-10")

    def test_invalid_place_not_adjacent(self) -> None:
        """KALA-10: only a field cup orthogonally adjacent to the opponent's cup."""
        state = position(cups=((0, 0), (0, 3)))
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        refused(after, Place(0, (1, 2)), "KALA-10")
        refused(after, Place(0, (0, 4)), "KALA-10")
        refused(after, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))), "KALA-10")
        refused(after, Place(1, (0, 2)), "KALA-3")

    def test_nothing_hidden(self) -> None:
        """KALA-11: every seat and every spectator sees the whole state."""
        state = position(cups=((1, 1), (2, 2)), cup_beans=(3, 2))
        assert observe(state, 0) == observe(state, 1) == observe(state, None) == state


@pytest.mark.rule("KALA-12", "KALA-13", "KALA-14")
class TestBonus:
    def test_bonus_after_moving(self) -> None:
        """KALA-12: 4+ beans in the playing cup after moving: a bonus sowing from there."""
        state = position(cups=((0, 0), (3, 3)), cup_beans=(3, 0))
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (1, 2))))
        assert after.phase is Phase.BONUS_SOW and after.turn == 0
        assert after.cups[0] == (1, 2) and after.cup_beans[0] == 4
        paths = legal_actions(after)
        assert paths and all(len(a.path) == 4 and a.path[0] == (1, 2) for a in paths
                             if isinstance(a, Sow))
        done = apply(after, paths[0])
        assert done.cup_beans[0] == 1  # the first bean of the bonus, back into the cup
        assert done.turn == 1 and done.phase is Phase.SOW

    def test_bonus_not_checked_at_turn_start(self) -> None:
        """KALA-12: a cup the opponent filled to 4 waits for its owner's move."""
        state = position(cups=((0, 0), (0, 3)), cup_beans=(0, 3))
        after = apply(state, Sow(0, ((0, 0), (1, 0), (2, 0), (3, 0))))
        assert after.turn == 1 and after.phase is Phase.SOW and after.cup_beans[1] == 3
        filled = apply(position(cups=((0, 0), (0, 2)), cup_beans=(0, 3)),
                       Sow(0, ((0, 0), (0, 1), (0, 2), (1, 2))))
        assert filled.cup_beans[1] == 4 and filled.phase is Phase.SOW and filled.turn == 1

    def test_optional_bonus(self) -> None:
        """KALA-12: with the bonus optional, the mover decides; declining ends the turn."""
        config = Config(bonus=BonusRule.OPTIONAL)
        state = position(cups=((0, 0), (3, 3)), cup_beans=(3, 0), config=config)
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (1, 2))))
        assert after.phase is Phase.BONUS
        assert legal_actions(after) == (Bonus(0, False), Bonus(0, True))
        declined = apply(after, Bonus(0, False))
        assert declined.turn == 1 and declined.cup_beans[0] == 4
        taken = apply(after, Bonus(0, True))
        assert taken.phase is Phase.BONUS_SOW
        refused(after, Sow(0, ((1, 2), (1, 1), (1, 0), (0, 0))), "KALA-12")

    def test_invalid_action_during_bonus(self) -> None:
        """KALA-12: the bonus path is the only thing to do."""
        state = position(cups=((0, 0), (3, 3)), cup_beans=(3, 0))
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (1, 2))))
        refused(after, Bonus(0, True), "KALA-12")

    def test_invalid_short_bonus(self) -> None:
        """KALA-13: every bean of the bonus is sown where a path has room."""
        state = position(cups=((0, 1), (3, 3)), cup_beans=(4, 0), store0=24)
        after = apply(state, Sow(0, ((0, 1), (0, 2), (0, 3), (1, 3))))
        assert after.phase is Phase.BONUS_SOW and after.cup_beans[0] == 5
        refused(after, Sow(0, ((1, 3), (2, 3), (3, 3), (3, 2))), "KALA-13")
        assert all(len(a.path) == 5 for a in legal_actions(after) if isinstance(a, Sow))

    def test_sixth_bean_to_the_opponent(self) -> None:
        """KALA-14: 6 beans on an inner square: 5 sown, the sixth to the opponent's store."""
        state = position(cups=((2, 3), (3, 0)), cup_beans=(5, 0))
        after = apply(state, Sow(0, ((2, 3), (2, 2), (2, 1), (1, 1))))
        assert after.cups[0] == (1, 1) and after.cup_beans[0] == 6
        paths = legal_actions(after)
        assert paths == (Sow(0, ((1, 1), (1, 2), (1, 3), (2, 3), (3, 3))),
                         Sow(0, ((1, 1), (2, 1), (3, 1), (3, 2), (3, 3))))
        done = apply(after, paths[0])
        assert done.stores[1] == after.stores[1] + 1
        assert done.cups[0] == (3, 3)  # the fifth bean counts as the last
        assert total_beans(done) == 56

    def test_six_beans_on_an_edge_are_all_sown(self) -> None:
        """KALA-13, KALA-14: on an edge square a 6-square path exists, so all 6 are sown."""
        state = position(cups=((1, 3), (3, 0)), cup_beans=(5, 0))
        after = apply(state, Sow(0, ((1, 3), (1, 2), (1, 1), (0, 1))))
        assert after.cups[0] == (0, 1) and after.cup_beans[0] == 6
        assert {len(a.path) for a in legal_actions(after) if isinstance(a, Sow)} == {6}


@pytest.mark.rule("KALA-10", "KALA-15", "KALA-16")
class TestHarvest:
    def test_harvest_field_cup(self) -> None:
        """KALA-15: last bean into a cup of 3 or more: empty it, one to the bank."""
        state = position(field={(0, 3): 3})
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert after.phase is Phase.HARVEST
        assert legal_actions(after) == (Harvest(0, False), Harvest(0, True))
        taken = apply(after, Harvest(0, True))
        assert beans_at(taken, (0, 3)) == 0
        assert taken.bank == 1
        assert taken.stores[0] == after.stores[0] + 3
        assert taken.cups[0] == (0, 3)  # KALA-16: then the cup moves onto the empty cup

    def test_decline_harvest(self) -> None:
        """KALA-15: the harvest is optional by default."""
        state = position(field={(0, 3): 3})
        after = apply(apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3)))), Harvest(0, False))
        assert beans_at(after, (0, 3)) == 4 and after.bank == 0 and after.cups[0] == (0, 3)

    def test_no_harvest_below_four(self) -> None:
        """KALA-15: a cup left with fewer than 4 beans cannot be harvested."""
        state = position(field={(0, 3): 2})
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert after.phase is Phase.SOW and after.turn == 1

    def test_mandatory_harvest(self) -> None:
        """KALA-15: with the harvest mandatory it happens without a decision."""
        state = position(field={(0, 3): 3}, config=Config(harvest=HarvestRule.MANDATORY))
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert after.phase is Phase.SOW and after.bank == 1

    def test_harvest_opponents_cup(self) -> None:
        """KALA-15, KALA-10: the opponent's cup can be harvested; then the cup goes next to it."""
        state = position(cups=((0, 0), (0, 3)), cup_beans=(0, 3))
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert after.phase is Phase.HARVEST
        taken = apply(after, Harvest(0, True))
        assert taken.cup_beans == (1, 0) and taken.bank == 1
        assert taken.stores[0] == after.stores[0] + 3
        assert taken.phase is Phase.PLACE

    def test_harvest_on_the_bonus_sowing(self) -> None:
        """KALA-15: the bonus sowing's last bean may harvest too (KALA-Q11)."""
        state = position(cups=((0, 0), (3, 0)), cup_beans=(3, 0), field={(3, 3): 3})
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (1, 2))))
        assert after.phase is Phase.BONUS_SOW
        done = apply(after, Sow(0, ((1, 2), (2, 2), (3, 2), (3, 3))))
        assert done.phase is Phase.HARVEST and done.bonus_sowing and done.last == (3, 3)
        taken = apply(done, Harvest(0, True))
        assert taken.bank == 1 and taken.cups[0] == (3, 3) and taken.turn == 1

    def test_invalid_action_while_harvest_pending(self) -> None:
        """KALA-16: the harvest is decided before the cup moves."""
        state = position(field={(0, 3): 3})
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        refused(after, Place(0, (0, 2)), "KALA-16")
        refused(after, Bonus(0, True), "KALA-16")


@pytest.mark.rule("KALA-17")
class TestEnd:
    def test_ends_after_turn(self) -> None:
        """KALA-17: a turn that leaves the mover with fewer than 4 beans ends the game."""
        state = position(store0=4)
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert to_move(after).kind is MoverKind.NOBODY
        result = outcome(after)
        assert result is not None and result.winners == (Seat(1),) and result.rule == "KALA-17"
        refused(after, Sow(1, ((3, 3), (3, 2), (3, 1), (3, 0))), "KALA-17")

    def test_harvest_can_keep_a_player_in(self) -> None:
        """KALA-17: the store is counted after the harvest."""
        config = Config(harvest=HarvestRule.MANDATORY)
        state = position(store0=4, field={(0, 3): 4}, config=config)
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert after.stores[0] == 4 and outcome(after) is None
        state = position(store0=4, field={(0, 3): 3}, config=config)
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert after.stores[0] == 3 and outcome(after) is not None

    def test_start_of_turn_rescue(self) -> None:
        """KALA-17 (KALA-Q10): checked at the start of a turn, a sixth bean can rescue."""
        config = Config(end_check=EndCheck.START_OF_TURN, first_player=1)
        # Seat 1 to move, seat 0 holds 3; seat 1's bonus on an inner square awards one.
        state = position(store0=3, cups=((3, 0), (2, 3)), cup_beans=(0, 5), config=config,
                         turn=1)
        after = apply(state, Sow(1, ((2, 3), (2, 2), (2, 1), (1, 1))))
        done = apply(after, legal_actions(after)[0])
        assert done.stores[0] == 4 and outcome(done) is None and done.turn == 0
        # Without the award, seat 0 is due with 3 beans and loses.
        state = position(store0=3, cups=((3, 0), (2, 3)), config=config, turn=1)
        after = apply(state, Sow(1, ((2, 3), (2, 2), (2, 1), (1, 1))))
        result = outcome(after)
        assert result is not None and result.losers == (Seat(0),) and after.turn == 0

    def test_after_turn_allows_no_rescue(self) -> None:
        """KALA-17 (KALA-Q10): by default the game ends as the turn leaves 3 beans."""
        state = position(store0=7)
        after = apply(state, Sow(0, ((0, 0), (1, 0), (2, 0), (3, 0))))
        result = outcome(after)
        assert result is not None and result.losers == (Seat(0),)
        assert to_move(after).is_over

@pytest.mark.rule("KALA-5", "KALA-10", "KALA-13", "KALA-17", "KALA-18")
class TestConservation:
    def test_invalid_bean_count(self) -> None:
        """KALA-18: a state whose beans do not add up to 56 is invalid."""
        good = new_game()
        data = GAME.to_json(good)
        data["bank"] = 1
        with pytest.raises(InvalidStateError) as info:
            GAME.state_from_json(data)
        assert info.value.rule == "KALA-18"
        data["bank"] = -1
        data["stores"] = [29, 28]
        with pytest.raises(InvalidStateError) as info:
            GAME.state_from_json(data)
        assert info.value.rule == "KALA-18"

    def test_invalid_cups_together(self) -> None:
        """KALA-10: a state with both playing cups on one square is invalid."""
        data = GAME.to_json(new_game())
        data["cups"] = [[1, 1], [1, 1]]
        with pytest.raises(InvalidStateError) as info:
            GAME.state_from_json(data)
        assert info.value.rule == "KALA-10"

    def test_invalid_cup_off_board(self) -> None:
        """KALA-5: a playing cup off the field is invalid."""
        data = GAME.to_json(new_game())
        data["cups"] = [[0, 0], [4, 3]]
        with pytest.raises(InvalidStateError) as info:
            GAME.state_from_json(data)
        assert info.value.rule == "KALA-5"

    def test_invalid_store_at_turn_start(self) -> None:
        """KALA-17: a player never starts a turn with fewer than 4 beans."""
        data = GAME.to_json(new_game())
        data["stores"] = [3, 53]
        with pytest.raises(InvalidStateError) as info:
            GAME.state_from_json(data)
        assert info.value.rule == "KALA-17"

    def test_invalid_overfull_cup(self) -> None:
        """KALA-13: with the bonus mandatory a playing cup never holds more than 6 beans."""
        data = GAME.to_json(new_game())
        data["cup_beans"] = [0, 7]
        data["stores"] = [28, 21]
        with pytest.raises(InvalidStateError) as info:
            GAME.state_from_json(data)
        assert info.value.rule == "KALA-13"


class TestCodec:
    def test_round_trip(self) -> None:
        """P-8: states, actions and configs round-trip through canonical JSON."""
        state = position(cups=((1, 1), (2, 2)), cup_beans=(2, 3), field={(0, 0): 4})
        assert GAME.state_from_json(GAME.to_json(state)) == state
        for action in (Sow(0, ((0, 0), (0, 1))), Harvest(1, True), Place(0, (1, 2)),
                       Bonus(1, False)):
            assert GAME.action_from_json(GAME.to_json(action)) == action
        assert GAME.dumps(Harvest(0, True)) == '{"seat":0,"take":true,"type":"harvest"}'
        config = Config(harvest=HarvestRule.MANDATORY, end_check=EndCheck.START_OF_TURN)
        assert GAME.config_from_json(GAME.to_json(config)) == config

    @pytest.mark.parametrize("data", [
        {"type": "dig", "seat": 0},
        {"type": "harvest", "seat": 0},
        {"type": "harvest", "seat": 0, "take": 1},
        {"type": "harvest", "seat": "0", "take": True},
        {"type": "harvest", "seat": 0, "take": True, "extra": 1},
        {"seat": 0, "take": True},
        [1, 2],
        "sow",
    ])
    def test_invalid_action_json(self, data: object) -> None:
        """P-8: misshapen action JSON is a MalformedInputError, never a bare exception."""
        with pytest.raises(MalformedInputError):
            GAME.action_from_json(data)

    def test_invalid_state_json(self) -> None:
        """P-8: a field of the wrong size or type is malformed."""
        data = GAME.to_json(new_game())
        data["field"] = [0] * 15
        with pytest.raises(MalformedInputError):
            GAME.state_from_json(data)
        data = GAME.to_json(new_game())
        data["phase"] = "dance"
        with pytest.raises(MalformedInputError):
            GAME.state_from_json(data)
