"""One class per HOPPER rule; every test names the rule it pins."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from copa_ref.core import (
    IllegalActionError,
    InvalidStateError,
    MalformedInputError,
    MoverKind,
    Seat,
    ToMove,
)
from copa_ref.hopper import (
    GAME,
    AimedShot,
    Config,
    Ending,
    Land,
    Phase,
    Remainder,
    SeatAccuracy,
    Shoot,
    State,
    action_space,
    apply,
    chance_outcomes,
    legal_actions,
    new_game,
    observe,
    outcome,
    sample_chance,
    to_move,
)
from copa_ref.hopper.codec import parse_fraction
from copa_ref.hopper.rules import points, total_beans
from tests.support import assert_refused

from .positions import shot, table, tray_of

END_2 = Config(ending=Ending.END_2)


def refused(state: State, action: object, rule: str) -> IllegalActionError:
    """Expect a refusal of *action* under *rule*, leaving *state* unchanged."""
    return assert_refused(GAME, state, action, rule)


def in_air(state: State, seat: int = 0, aim: int | None = 0) -> State:
    return apply(state, Shoot(seat, aim))


@pytest.mark.rule("HOPPER-1")
class TestPlayers:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_two_to_five(self, players: int) -> None:
        """HOPPER-1: 2 to 5 players, one hand each."""
        state = new_game(Config(players=players))
        assert len(state.hands) == players == GAME.num_players(state.config)

    @pytest.mark.parametrize("players", [0, 1, 6])
    def test_invalid_player_count(self, players: int) -> None:
        """HOPPER-1: other counts are refused."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(players=players))
        assert info.value.rule == "HOPPER-1"

    def test_invalid_no_such_seat(self) -> None:
        """HOPPER-1: a shot by a seat that does not exist."""
        refused(new_game(), Shoot(2, 0), "HOPPER-1")
        refused(new_game(), Shoot(-1, 0), "HOPPER-1")


@pytest.mark.rule("HOPPER-2")
class TestTray:
    def test_sixteen_empty_cups(self) -> None:
        """HOPPER-2: the 16 neutral cups in the tray, empty; nothing claimed or loose; the
        black cup aside."""
        state = new_game()
        assert state.tray == tuple((c, 0) for c in range(16))
        assert state.claims == () and state.loose == 0
        assert all(cup != 16 for cup, _ in new_game(END_2).tray)


@pytest.mark.rule("HOPPER-3")
class TestDeal:
    @pytest.mark.parametrize(("players", "each"), [(2, 40), (3, 26), (4, 20), (5, 16)])
    def test_even_shares(self, players: int, each: int) -> None:
        """HOPPER-3: 80 beans dealt evenly; the remainder stays in the box by default."""
        state = new_game(Config(players=players))
        assert state.hands == (each,) * players and state.loose == 0

    def test_remainder_options(self) -> None:
        """HOPPER-3: the remainder may lie loose, or go one each to the first seats."""
        assert new_game(Config(players=3, remainder=Remainder.LOOSE)).loose == 2
        assert new_game(Config(players=3, remainder=Remainder.FIRST_SEATS)).hands == (27, 27, 26)
        assert total_beans(new_game(Config(players=3))) == 78

    def test_total_beans(self) -> None:
        """HOPPER-3: another number of beans, down to 49 in play."""
        assert new_game(Config(total_beans=49, remainder=Remainder.FIRST_SEATS)).hands == (25, 24)

    @pytest.mark.parametrize("total", [0, 48, -2])
    def test_invalid_too_few_beans(self, total: int) -> None:
        """HOPPER-3: fewer than 49 beans in play could stall the game."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(total_beans=total))
        assert info.value.rule == "HOPPER-3"

    def test_invalid_remainder_to_box_leaves_too_few(self) -> None:
        """HOPPER-3: 50 beans among 4 leave 48 in play when the remainder stays in the box."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(players=4, total_beans=50))
        assert info.value.rule == "HOPPER-3"


@pytest.mark.rule("HOPPER-4")
class TestTurns:
    def test_first_player(self) -> None:
        """HOPPER-4: the nominated first player shoots first."""
        assert to_move(new_game()) == ToMove.seat(0)
        assert to_move(new_game(Config(players=3, first_player=2))) == ToMove.seat(2)

    def test_clockwise(self) -> None:
        """HOPPER-4: after every shot, the next seat; a hit gives no extra shot."""
        state = new_game(Config(players=3))
        for seat in (0, 1, 2, 0):
            assert state.turn == seat
            state = shot(state, seat, 0, 0)

    def test_invalid_first_player(self) -> None:
        """HOPPER-4: the first player is one of the seats."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(first_player=2))
        assert info.value.rule == "HOPPER-4"

    def test_invalid_out_of_turn(self) -> None:
        """HOPPER-4: only the seat whose turn it is shoots."""
        refused(new_game(), Shoot(1, 0), "HOPPER-4")


@pytest.mark.rule("HOPPER-5")
class TestShot:
    def test_aim_then_land(self) -> None:
        """HOPPER-5: a shot is a decision (the cup aimed at), then a chance node."""
        state = new_game()
        assert len(legal_actions(state)) == 16
        assert legal_actions(state, 1) == ()
        air = in_air(state, 0, 7)
        assert (air.phase, air.turn, air.aim) == (Phase.LAND, 0, 7)
        assert to_move(air).kind is MoverKind.CHANCE and legal_actions(air) == ()

    def test_sorted_by_canonical_json(self) -> None:
        """HOPPER-5: the shots are listed in canonical JSON order (cup 10 before cup 2)."""
        texts = [GAME.dumps(a) for a in legal_actions(new_game())]
        assert texts == sorted(texts)

    def test_aiming_off(self) -> None:
        """HOPPER-5: with aiming off, a turn-play shot starts by itself: pure chance."""
        state = new_game(Config(aiming=False))
        assert to_move(state).is_chance and state.aim is None and state.turn == 0
        assert to_move(apply(state, Land(3))).is_chance

    def test_single_cup_is_aimed_automatically(self) -> None:
        """HOPPER-5, P-3: with one cup in the tray the aim is no decision."""
        config = Config(players=5)
        claims = tuple((s, c) for s in range(5) for c in (3 * s, 3 * s + 1))
        state = table(config, tray=tray_of(2, 0, 0, 0, 0, 0, cups=(2, 5, 8, 11, 14, 15)),
                      claims=claims, hands=(20, 20, 20, 8, 10))
        state = shot(state, 0, 2, 2)  # 3 beans in cup 2 now
        for seat, cup in ((1, 5), (2, 8), (3, 11), (4, 14)):
            state = shot(state, seat, cup, None)
        assert state.turn == 0

    @pytest.mark.parametrize("aim", [16, 17, -1, 99])
    def test_invalid_aim_at_absent_cup(self, aim: int) -> None:
        """HOPPER-5: the aim is a cup in the tray (the black cup is aside under End 1)."""
        refused(new_game(), Shoot(0, aim), "HOPPER-5")

    def test_invalid_aim_at_claimed_cup(self) -> None:
        """HOPPER-5: a claimed cup has left the tray."""
        state = table(tray=tray_of(*(0,) * 15, cups=tuple(range(1, 16))), claims=((1, 0),))
        refused(state, Shoot(0, 0), "HOPPER-5")

    def test_invalid_no_aim(self) -> None:
        """HOPPER-5: with aiming on, a shot names its cup."""
        refused(new_game(), Shoot(0, None), "HOPPER-5")

    def test_invalid_aim_when_off(self) -> None:
        """HOPPER-5: with aiming off a shot names no cup (the shoot-out's only decision)."""
        state = table(Config(ending=Ending.END_2, aiming=False),
                      tray=tray_of(0, 0, 0, 0, cups=(0, 1, 2, 16)), turn=None)
        refused(state, Shoot(0, 1), "HOPPER-5")

    def test_invalid_land_before_shot(self) -> None:
        """HOPPER-5: no bean lands before a shot."""
        refused(new_game(), Land(0), "HOPPER-5")

    def test_invalid_shot_while_in_air(self) -> None:
        """HOPPER-5: the bean in the air lands before the next shot."""
        refused(in_air(new_game()), Shoot(0, 1), "HOPPER-5")
        refused(in_air(new_game()), Shoot(1, 1), "HOPPER-5")


@pytest.mark.rule("HOPPER-6")
class TestLanding:
    def test_default_model(self) -> None:
        """HOPPER-6: half outside, a quarter in the aimed cup, the rest shared by the 15
        other cups; exact fractions that sum to 1."""
        outcomes = dict(chance_outcomes(in_air(new_game(), 0, 3)))
        assert outcomes[Land(None)] == Fraction(1, 2)
        assert outcomes[Land(3)] == Fraction(1, 4)
        assert outcomes[Land(4)] == Fraction(1, 60)
        assert sum(outcomes.values()) == 1 and len(outcomes) == 17

    def test_unaimed_default_model(self) -> None:
        """HOPPER-6: with aiming off, the cups share the half that does not miss."""
        outcomes = dict(chance_outcomes(new_game(Config(aiming=False))))
        assert outcomes[Land(0)] == Fraction(1, 32) and sum(outcomes.values()) == 1

    def test_seat_accuracy(self) -> None:
        """HOPPER-6: the second model: a seat's accuracy, a miss lands outside; a landing of
        probability 0 is not listed."""
        config = Config(shot_model=SeatAccuracy((Fraction(1, 3), Fraction(1))))
        air = in_air(new_game(config), 0, 5)
        assert dict(chance_outcomes(air)) == {Land(None): Fraction(2, 3), Land(5): Fraction(1, 3)}
        air = in_air(shot(new_game(config), 0, 5, None), 1, 6)
        assert dict(chance_outcomes(air)) == {Land(6): Fraction(1)}
        assert sample_chance(air, random.Random(1)) == Land(6)

    def test_sampling_is_exact(self) -> None:
        """HOPPER-6: ``sample_chance`` draws every listed landing at its frequency."""
        air = in_air(new_game(Config(shot_model=AimedShot(Fraction(1, 4), Fraction(1, 2)))))
        rng = random.Random(5)
        seen = Counter(sample_chance(air, rng) for _ in range(4000))
        assert set(seen) == {a for a, _ in chance_outcomes(air)}
        assert abs(seen[Land(0)] / 4000 - 0.5) < 0.03

    def test_no_outcomes_at_decision_nodes(self) -> None:
        """HOPPER-6: chance acts only while a bean is in the air."""
        assert chance_outcomes(new_game()) == ()
        with pytest.raises(ValueError, match="no bean"):
            sample_chance(new_game(), random.Random(1))

    @pytest.mark.parametrize("model", [
        AimedShot(Fraction(3, 4), Fraction(1, 2)), AimedShot(Fraction(-1, 2), Fraction(0)),
        SeatAccuracy((Fraction(1, 2),)), SeatAccuracy((Fraction(1, 2), Fraction(3, 2))),
    ])
    def test_invalid_model(self, model: AimedShot | SeatAccuracy) -> None:
        """HOPPER-6: a shot model is a distribution, with one accuracy per seat."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(shot_model=model))
        assert info.value.rule == "HOPPER-6"

    @pytest.mark.parametrize("cup", [16, 17, -1])
    def test_invalid_landing(self, cup: int) -> None:
        """HOPPER-6: a bean lands in a cup in the tray or outside."""
        refused(in_air(new_game()), Land(cup), "HOPPER-6")

    def test_invalid_landing_in_claimed_cup(self) -> None:
        """HOPPER-6: a claimed cup takes no bean."""
        state = table(tray=tray_of(*(0,) * 15, cups=tuple(range(1, 16))), claims=((1, 0),))
        refused(in_air(state, 0, 1), Land(0), "HOPPER-6")

    def test_any_landing_is_accepted(self) -> None:
        """HOPPER-6: the model is no rule: a landing it gives probability 0 is legal."""
        config = Config(shot_model=SeatAccuracy((Fraction(1), Fraction(1))))
        assert apply(in_air(new_game(config), 0, 5), Land(9)).tray[9] == (9, 1)


@pytest.mark.rule("HOPPER-7")
class TestBeanStays:
    @pytest.mark.parametrize("beans", [0, 1, 2])
    def test_into_a_cup(self, beans: int) -> None:
        """HOPPER-7: a bean into a cup with 0-2 beans stays; the hand gives one up."""
        state = table(tray=tray_of(beans, *(0,) * 15))
        after = shot(state, 0, 0, 0)
        assert after.tray[0] == (0, beans + 1) and after.hands[0] == state.hands[0] - 1

    def test_outside(self) -> None:
        """HOPPER-7: a bean outside the cups lies loose."""
        after = shot(new_game(), 0, 0, None)
        assert after.loose == 1 and after.hands == (39, 40) and after.tray == new_game().tray


@pytest.mark.rule("HOPPER-8")
class TestFoursome:
    def test_claim(self) -> None:
        """HOPPER-8: a bean into a cup with 3 makes a foursome: the shooter claims the cup
        at once and its four beans go loose."""
        state = table(tray=tray_of(3, *(0,) * 15), loose=2)
        after = shot(state, 0, 0, 0)
        assert after.claims == ((0, 0),) and after.loose == 6
        assert all(cup != 0 for cup, _ in after.tray) and after.turn == 1


@pytest.mark.rule("HOPPER-9")
class TestCloseUp:
    def test_order_kept(self) -> None:
        """HOPPER-9: the claimed cup leaves; the others keep their beans, names and order."""
        state = table(tray=tray_of(1, 2, 3, *(0,) * 13))
        after = shot(state, 0, 2, 2)
        assert after.tray[:3] == ((0, 1), (1, 2), (3, 0)) and len(after.tray) == 15


@pytest.mark.rule("HOPPER-10")
class TestReplenish:
    def test_takes_all_loose(self) -> None:
        """HOPPER-10: a seat with no beans first takes all the loose beans, then shoots."""
        state = table(tray=tray_of(*(0,) * 16), loose=5, hands=(0, 75))
        assert to_move(state) == ToMove.seat(0)
        air = in_air(state)
        assert air.hands == (5, 75) and air.loose == 0
        assert apply(air, Land(None)).hands == (4, 75)

    def test_only_when_empty(self) -> None:
        """HOPPER-10: a seat holding beans never takes loose ones."""
        state = table(tray=tray_of(*(0,) * 16), loose=5, hands=(1, 74))
        assert in_air(state).hands == (1, 74)


@pytest.mark.rule("HOPPER-10", "HOPPER-11")
class TestSkip:
    def test_skipped_with_none_loose(self) -> None:
        """HOPPER-11: no beans and none loose: the turn passes over the seat."""
        state = table(Config(players=3), tray=tray_of(*(0,) * 16), hands=(38, 0, 40))
        assert shot(state, 0, 0, 0).turn == 2

    def test_not_skipped_when_loose(self) -> None:
        """HOPPER-11, HOPPER-10: with a bean loose the empty seat shoots."""
        state = table(Config(players=3), tray=tray_of(*(0,) * 16), hands=(38, 0, 40))
        after = shot(state, 0, 0, None)
        assert after.turn == 1 and in_air(after, 1, 0).hands[1] == 1

    def test_invalid_no_beans_in_shoot_out(self) -> None:
        """HOPPER-11: in the shoot-out a seat with no beans, none loose, cannot shoot."""
        state = table(Config(players=3, ending=Ending.END_2),
                      tray=tray_of(0, 0, 0, 0, cups=(0, 1, 2, 16)), hands=(40, 0, 38), turn=None)
        assert to_move(state) == ToMove.any_of((0, 2))
        refused(state, Shoot(1, 0), "HOPPER-11")


def three_cups(config: Config) -> State:
    """Seat 0 holds 3 cups, cup 3 holds 3 beans; the other claims are seat 1's and 2's."""
    n = config.players
    claims = ((0, 0), (0, 1), (0, 2), *(((s % (n - 1)) + 1, c) for s, c in
                                        enumerate(range(4, 4 + 2 * (n - 1)))))
    present = [c for c in range(16) if c not in {cup for _, cup in claims}]
    return table(config, tray=tuple((c, 3 if c == 3 else 0) for c in present), claims=claims)


@pytest.mark.rule("HOPPER-12", "HOPPER-14")
class TestEnd1:
    def test_fourth_cup_wins(self) -> None:
        """HOPPER-12: the first to claim 4 cups wins at once."""
        after = shot(three_cups(Config(players=3)), 0, 3, 3)
        assert to_move(after).is_over
        result = outcome(after)
        assert result is not None and result.winners == (Seat(0),)
        assert result.scores == (4, 2, 2) and result.rule == "HOPPER-12"

    def test_three_cups_left_no_black(self) -> None:
        """HOPPER-12, HOPPER-14: under End 1 the black cup never joins."""
        claims = ((0, 0), (0, 1), (0, 2), (1, 4), (1, 5), (2, 6), (2, 7), (3, 8), (3, 9),
                  (4, 10), (4, 11), (4, 12))
        state = table(Config(players=5), tray=tray_of(3, 0, 0, 0, cups=(3, 13, 14, 15)),
                      claims=claims, turn=1)
        after = shot(state, 1, 3, 3)
        assert after.tray == ((13, 0), (14, 0), (15, 0)) and after.turn == 2

    def test_invalid_after_the_end(self) -> None:
        """HOPPER-12: nothing is played once a seat has won."""
        after = shot(three_cups(Config(players=3)), 0, 3, 3)
        refused(after, Shoot(1, 4), "HOPPER-12")
        refused(after, Land(None), "HOPPER-12")
        assert legal_actions(after) == () and chance_outcomes(after) == ()


def shoot_out(config: Config = END_2, beans: tuple[int, ...] = (0, 0, 0, 0)) -> State:
    """The shoot-out: cups 0, 1, 2 and the black cup left; seat 0 claimed 7, seat 1 six."""
    claims = tuple((0 if c < 7 else 1, c) for c in range(3, 16))
    return table(config, tray=tray_of(*beans, cups=(0, 1, 2, 16)), claims=claims, turn=None)


@pytest.mark.rule("HOPPER-13")
class TestEnd2:
    def test_four_cups_do_not_end(self) -> None:
        """HOPPER-13: under End 2 claiming four cups ends nothing."""
        state = three_cups(Config(players=3, ending=Ending.END_2))
        after = shot(state, 0, 3, 3)
        assert not to_move(after).is_over and len(after.claims) == 8

    def test_last_cup_ends(self) -> None:
        """HOPPER-13: the game ends when the last cup is shot down."""
        claims = (*tuple((c % 2, c) for c in (*range(16),) if c != 5), (0, 16))
        state = table(END_2, tray=tray_of(3, cups=(5,)), claims=claims, turn=None)
        assert to_move(state).kind is MoverKind.ANY
        after = shot(state, 1, 5, 5)
        assert to_move(after).is_over and after.tray == ()

    def test_invalid_after_the_end(self) -> None:
        """HOPPER-13: nothing is played once the tray is empty."""
        claims = (*tuple((c % 2, c) for c in range(16) if c != 5), (0, 16))
        state = table(END_2, tray=tray_of(3, cups=(5,)), claims=claims, turn=None)
        after = shot(state, 1, 5, 5)
        refused(after, Shoot(0, 5), "HOPPER-13")
        refused(after, Land(None), "HOPPER-13")


@pytest.mark.rule("HOPPER-14")
class TestBlackCup:
    def test_joins_at_three(self) -> None:
        """HOPPER-14: under End 2, when a claim leaves 3 cups, the black cup joins, empty."""
        claims = tuple((c % 2, c) for c in range(4, 16))
        state = table(END_2, tray=tray_of(3, 1, 0, 2), claims=claims)
        after = shot(state, 0, 0, 0)
        assert after.tray == ((1, 1), (2, 0), (3, 2), (16, 0))
        assert to_move(after).kind is MoverKind.ANY and after.turn is None

    def test_black_cup_is_hit_and_claimed(self) -> None:
        """HOPPER-14: the black cup takes beans and is claimed like any cup."""
        state = shoot_out(beans=(0, 0, 0, 3))
        after = shot(state, 1, 16, 16)
        assert after.claims[-1] == (1, 16)


@pytest.mark.rule("HOPPER-15")
class TestShootOut:
    def test_any_seat_with_beans(self) -> None:
        """HOPPER-15: every seat that may shoot may shoot next, one shot at a time."""
        state = shoot_out()
        assert to_move(state) == ToMove.any_of((0, 1))
        assert len(legal_actions(state)) == 8 and len(legal_actions(state, 1)) == 4

    def test_any_order(self) -> None:
        """HOPPER-15: the same seat may shoot twice running, or the other."""
        state = shoot_out()
        twice = shot(shot(state, 0, 0, None), 0, 1, None)
        other = shot(shot(state, 1, 0, None), 0, 1, None)
        assert twice.hands != other.hands and twice.loose == other.loose == 2

    def test_single_shooter_is_still_any(self) -> None:
        """HOPPER-15: with one seat able, several cups: an ``any`` node of one seat."""
        claims = tuple((0 if c < 7 else 1, c) for c in range(3, 16))
        state = table(END_2, tray=tray_of(0, 0, 0, 0, cups=(0, 1, 2, 16)), claims=claims,
                      hands=(80, 0), turn=None)
        assert to_move(state) == ToMove.any_of((0,))

    def test_unaimed_shoot_out_decides_who(self) -> None:
        """HOPPER-15: with aiming off, the shoot-out's decision is who shoots."""
        state = shoot_out(Config(ending=Ending.END_2, aiming=False))
        assert legal_actions(state) == (Shoot(0, None), Shoot(1, None))


@pytest.mark.rule("HOPPER-16")
class TestPoints:
    def test_values(self) -> None:
        """HOPPER-16: neutral 1, black 2, the last cup 3 whatever its colour."""
        assert points(((0, 1), (1, 16), (0, 2)), 2, True) == (4, 2)
        assert points(((0, 1), (0, 2), (1, 16)), 2, True) == (2, 3)
        assert points(((0, 1), (1, 16)), 2, False) == (1, 2)

    def test_total(self) -> None:
        """HOPPER-16: 20 points when the last cup is neutral, 19 when it is black."""
        neutral_last = tuple((0, c) for c in (16, *range(16)))
        black_last = tuple((0, c) for c in (*range(16), 16))
        assert sum(points(neutral_last, 2, True)) == 20
        assert sum(points(black_last, 2, True)) == 19


@pytest.mark.rule("HOPPER-17")
class TestWinner:
    def test_most_points(self) -> None:
        """HOPPER-17: the most points win."""
        claims = (*tuple((0, c) for c in range(16) if c != 5), (1, 16))
        state = table(END_2, tray=tray_of(3, cups=(5,)), claims=claims, turn=None)
        result = outcome(shot(state, 1, 5, 5))
        assert result is not None and result.scores == (15, 5)
        assert result.winners == (Seat(0),) and result.rule == "HOPPER-17"

    @pytest.mark.parametrize(("first", "scores"), [(7, (12, 8)), (6, (11, 9)), (4, (9, 11)),
                                                   (5, (10, 10))])
    def test_tie_shared(self, first: int, scores: tuple[int, int]) -> None:
        """HOPPER-17: the most points win; a tie on points is a shared win."""
        claims = (*((0, c) for c in range(first)), *((1, c) for c in range(first, 15)), (0, 16))
        state = table(END_2, tray=tray_of(3, cups=(15,)), claims=claims, turn=None)
        result = outcome(shot(state, 0, 15, 15))
        assert result is not None and result.scores == scores
        best = max(scores)
        assert result.winners == tuple(Seat(s) for s in (0, 1) if scores[s] == best)


@pytest.mark.rule("HOPPER-18")
class TestPublic:
    def test_everything_seen(self) -> None:
        """HOPPER-18: every seat and a spectator see the whole state."""
        state = in_air(new_game(Config(players=3)), 0, 2)
        assert all(observe(state, s) == state for s in (None, 0, 1, 2))


@pytest.mark.rule("HOPPER-2", "HOPPER-3", "HOPPER-8", "HOPPER-9", "HOPPER-14", "HOPPER-15",
                  "HOPPER-19")
class TestConservation:
    def test_totals(self) -> None:
        """HOPPER-19: hands + cups + loose = the beans in play, after every kind of shot."""
        state = table(tray=tray_of(3, 1, *(0,) * 14), loose=3)
        for cup in (0, None, 1):
            state = shot(state, state.turn or 0, 1, cup)
            assert total_beans(state) == 80

    def test_invalid_state_refused(self) -> None:
        """HOPPER-2, HOPPER-3, HOPPER-8, HOPPER-9, HOPPER-14, HOPPER-15, HOPPER-19: impossible
        states are refused."""
        good = new_game()
        cases = {
            "HOPPER-3": State(good.config, (40, 39), good.tray, 0, (), Phase.AIM, 0),
            "HOPPER-19": State(good.config, (41, -1), good.tray, 0, (), Phase.AIM, 0),
            "HOPPER-8": State(good.config, (36, 40), ((0, 4), *good.tray[1:]), 0, (),
                              Phase.AIM, 0),
            "HOPPER-2": State(good.config, good.hands, good.tray[1:], 0, (), Phase.AIM, 0),
            "HOPPER-9": State(good.config, good.hands, good.tray[::-1], 0, (), Phase.AIM, 0),
            "HOPPER-14": State(good.config, good.hands, (*good.tray, (16, 0)), 0, (),
                               Phase.AIM, 0),
            "HOPPER-15": State(END_2, good.hands, shoot_out().tray, 0, shoot_out().claims,
                               Phase.AIM, 0),
        }
        for rule, state in cases.items():
            with pytest.raises(InvalidStateError) as info:
                GAME.check_state(state)
            assert info.value.rule == rule, str(info.value)
            assert not GAME.well_formed(state)


class TestMalformed:
    @pytest.mark.parametrize("action", [
        Shoot(True, 0), Shoot(0, "3"), Shoot(0, 3.0), Shoot(0.0, 3),  # type: ignore[arg-type]
        Land("3"), Land(True), "shoot", None,  # type: ignore[arg-type]
    ])
    def test_ill_typed_actions(self, action: object) -> None:
        """P-8: a wrong type is malformed input, never a rule violation or a bare error."""
        state = new_game()
        for where in (state, in_air(state)):
            with pytest.raises(MalformedInputError):
                apply(where, action)  # type: ignore[arg-type]
            assert not GAME.is_legal(where, action)  # type: ignore[arg-type]

    @pytest.mark.parametrize("data", [
        {"type": "shoot", "seat": 0}, {"type": "shoot", "seat": "0", "aim": 1},
        {"type": "land", "cup": 1.0}, {"type": "fly", "cup": 1}, [0, 1],
        {"type": "land", "cup": 1, "extra": 2},
    ])
    def test_misshapen_json(self, data: object) -> None:
        """P-8: misshapen action JSON is refused with MalformedInputError."""
        with pytest.raises(MalformedInputError):
            GAME.action_from_json(data)

    @pytest.mark.parametrize("text", ["2/4", "0.5", "1", "1/0", "-1/2", " 1/2", 0.5, "1/2 "])
    def test_probability_text(self, text: object) -> None:
        """P-8: a probability is an exact "p/q" string in lowest terms, nothing else."""
        with pytest.raises((ValueError, TypeError)):
            parse_fraction(text)
        config = GAME.to_json(Config())
        config["shot_model"]["outside"] = text
        with pytest.raises(MalformedInputError):
            GAME.config_from_json(config)

    def test_probability_round_trip(self) -> None:
        """P-8: "0/1", "1/1" and "1/2" decode to exact fractions and back."""
        config = Config(shot_model=SeatAccuracy((Fraction(0), Fraction(1))))
        data = GAME.to_json(config)
        assert data["shot_model"]["accuracy"] == ["0/1", "1/1"]
        assert GAME.config_from_json(data) == config

    def test_ill_typed_config(self) -> None:
        """P-8: a config field of the wrong type is malformed input."""
        with pytest.raises(MalformedInputError):
            new_game(Config(players="2"))  # type: ignore[arg-type]
        with pytest.raises(MalformedInputError):
            new_game(Config(shot_model=AimedShot(0.5, 0.25)))  # type: ignore[arg-type]
        with pytest.raises(MalformedInputError):
            GAME.check_state("state")  # type: ignore[arg-type]

    def test_misshapen_state(self) -> None:
        """P-8: a state whose fields have the wrong shapes is malformed input."""
        data = GAME.to_json(new_game())
        data["tray"][0] = [0, 0, 0]
        with pytest.raises(MalformedInputError):
            GAME.state_from_json(data)


@pytest.mark.rule("HOPPER-5", "HOPPER-14")
class TestActionSpace:
    def test_every_possible_shot(self) -> None:
        """HOPPER-5, HOPPER-14: the shots any position can allow, sorted by canonical JSON."""
        assert len(action_space(Config())) == 2 * 16
        assert len(action_space(Config(players=5, ending=Ending.END_2))) == 5 * 17
        assert action_space(Config(aiming=False)) == (Shoot(0, None), Shoot(1, None))
        texts = [GAME.dumps(a) for a in action_space(Config(players=3))]
        assert texts == sorted(texts)


@pytest.mark.rule("HOPPER-1", "HOPPER-5")
class TestRefusalOrder:
    """The refusal order of ``specs/hopper.md``: an action breaking several rules names the
    first that applies."""

    def test_over_first(self) -> None:
        """HOPPER-12 before HOPPER-5, HOPPER-1 and HOPPER-6: after the end, the end."""
        after = shot(three_cups(Config(players=3)), 0, 3, 3)
        refused(after, Shoot(7, 17), "HOPPER-12")
        refused(after, Land(17), "HOPPER-12")

    def test_phase_before_seat_and_aim(self) -> None:
        """HOPPER-5 (a bean in the air) before HOPPER-1, HOPPER-4 and the aim; a landing
        before a shot is HOPPER-5, not HOPPER-6."""
        state = new_game()
        refused(in_air(state), Shoot(7, 17), "HOPPER-5")
        refused(in_air(state), Shoot(1, 17), "HOPPER-5")
        refused(state, Land(17), "HOPPER-5")

    def test_seat_before_aim(self) -> None:
        """HOPPER-1 (no such seat), HOPPER-4 (out of turn) and HOPPER-11 (no beans in the
        shoot-out) before HOPPER-5 (an aim at no cup in the tray)."""
        refused(new_game(), Shoot(7, 17), "HOPPER-1")
        refused(new_game(), Shoot(1, 17), "HOPPER-4")
        state = table(Config(players=3, ending=Ending.END_2),
                      tray=tray_of(0, 0, 0, 0, cups=(0, 1, 2, 16)), hands=(40, 0, 38), turn=None)
        refused(state, Shoot(1, 5), "HOPPER-11")
        refused(state, Shoot(1, None), "HOPPER-11")
