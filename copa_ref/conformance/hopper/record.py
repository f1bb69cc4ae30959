"""HOPPER's scenarios: the rules of ``specs/hopper.md`` shown by traces whose landings are
chosen on purpose (a policy picks where each bean falls), whole seeded games under both
endings and 2–5 players, rejections and counts.

Every trace gives its landings explicitly, so no case depends on the shot model. Rule IDs
refer to ``specs/hopper.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from copa_ref.conformance.hopper.diagnosis import config_rule, legal_rule
from copa_ref.conformance.hopper.rules import CATALOGUE, READINGS, RULES, VIEW_RULES, diagnose
from copa_ref.conformance.predicates import step_into
from copa_ref.conformance.vocabulary import CountSpec, GameRecord, RandomGames, Scenario
from copa_ref.core import JSON, MoverKind
from copa_ref.hopper import (
    GAME,
    Action,
    Config,
    Ending,
    Land,
    Phase,
    Remainder,
    SeatAccuracy,
    Shoot,
    State,
)
from copa_ref.hopper.rules import shoot_out
from copa_ref.hopper.state import BLACK

__all__ = ["RECORD", "events"]

DEFAULT = Config()
END_2 = Config(ending=Ending.END_2)
FEW_BEANS = Config(total_beans=50)
"""25 beans each: hands run out while the cups still hold many beans."""
UNAIMED = Config(aiming=False)
UNAIMED_END_2 = Config(ending=Ending.END_2, aiming=False)

Fires = Callable[[State, Any, State, tuple[Any, ...]], bool]


# -- policies: where the beans fall, chosen on purpose ------------------------------------------


def _fullest(state: State, black: bool = True) -> list[int]:
    cups = [(beans, cup) for cup, beans in state.tray if black or cup != BLACK]
    if not cups:
        cups = [(beans, cup) for cup, beans in state.tray]
    top = max(beans for beans, _ in cups)
    return [cup for beans, cup in cups if beans == top]


def hits(avoid_black_last: bool = False) -> Any:
    """Every shot aimed at a fullest cup and every bean into the cup aimed at (or, aiming
    off, into a fullest cup): cups fill and are claimed quickly."""
    def policy(game: Any, state: State, rng: Any) -> Any:
        if state.phase is Phase.LAND:
            if state.aim is not None:
                return Land(state.aim)
            return Land(rng.choice(_fullest(state, not avoid_black_last)))
        if state.phase is Phase.AIM and state.config.aiming:
            seats = game.to_move(state).seats
            return Shoot(rng.choice(seats), rng.choice(_fullest(state, not avoid_black_last)))
        return None
    return policy


def into_low_cups(game: Any, state: State, rng: Any) -> Any:
    """Nine beans in ten into a cup holding fewer than 3 (no foursome, nothing loose): the
    hands run dry while few beans are loose."""
    if state.phase is not Phase.LAND:
        return None
    low = [cup for cup, beans in state.tray if beans < 3]
    if low and rng.random() < 0.9:
        return Land(rng.choice(low))
    return Land(rng.choice([cup for cup, _ in state.tray]))


# -- what a step shows ------------------------------------------------------------------------


def _claimed(before: State, after: State) -> bool:
    return len(after.claims) > len(before.claims)


def _skipped(before: State, action: Any, after: State) -> bool:
    if not isinstance(action, Land) or before.turn is None or shoot_out(after):
        return False
    return after.phase is not Phase.OVER and after.turn != (before.turn + 1) % len(before.hands)


def events(before: State, action: Any, after: State) -> frozenset[str]:
    """The rules one HOPPER step exercises."""
    rules = {"HOPPER-18", "HOPPER-19"}
    if isinstance(action, Shoot):
        rules |= {"HOPPER-1", "HOPPER-5"}
        rules.add("HOPPER-15" if before.turn is None else "HOPPER-4")
        if before.hands[action.seat] == 0:
            rules.add("HOPPER-10")
        return frozenset(rules)
    rules |= {"HOPPER-6", "HOPPER-7"}
    if _claimed(before, after):
        rules |= {"HOPPER-8", "HOPPER-9"}
    if shoot_out(after) and not shoot_out(before):
        rules.add("HOPPER-14")
    if _skipped(before, action, after):
        rules.add("HOPPER-11")
    if after.phase is Phase.LAND and after.hands != before.hands and (
            after.loose == 0 and before.loose > 0):
        rules.add("HOPPER-10")
    if after.phase is Phase.OVER:
        rules |= ({"HOPPER-12"} if after.config.ending is Ending.END_1
                  else {"HOPPER-13", "HOPPER-16", "HOPPER-17"})
    return frozenset(rules)


# -- when a scenario fires --------------------------------------------------------------------


def _landing(test: Callable[[State, Land, State], bool]) -> Fires:
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        return isinstance(action, Land) and test(before, action, after)
    return fires


def _into_cup(before: State, action: Land, after: State) -> bool:
    return action.cup is not None and dict(before.tray)[action.cup] < 3


def _outside(before: State, action: Land, after: State) -> bool:
    return action.cup is None


def _claim_mid_tray(before: State, action: Land, after: State) -> bool:
    return _claimed(before, after) and action.cup not in (before.tray[0][0], before.tray[-1][0])


def _replenished(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    return isinstance(action, Shoot) and before.hands[action.seat] == 0 and before.loose > 0


def _skip(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    return _skipped(before, action, after)


def _black_joins(before: State, action: Land, after: State) -> bool:
    return shoot_out(after) and not shoot_out(before)


def _any_order(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    """Three shoot-out shots in a row by seats a, a, b (a != b)."""
    if not (isinstance(action, Shoot) and before.turn is None):
        return False
    shots = [a.seat for a in earlier if isinstance(a, Shoot)][-2:]
    return len(shots) == 2 and shots[0] == shots[1] != action.seat


def _shoot_out_shot(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    return isinstance(action, Shoot) and before.turn is None


def _tie(state: State) -> bool:
    from copa_ref.hopper import outcome

    result = outcome(state)
    return result is not None and len(result.winners) > 1


def _black_last(state: State) -> bool:
    return state.claims[-1][1] == BLACK


def _neutral_last(state: State) -> bool:
    return state.claims[-1][1] != BLACK


def _first_step(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    return len(earlier) == 3


def _seat_left_out(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    from copa_ref.hopper import to_move

    mover = to_move(after)
    return mover.kind is MoverKind.ANY and len(mover.seats) < len(after.hands)


def _node(kind: MoverKind) -> Fires:
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        from copa_ref.hopper import to_move

        return to_move(after).kind is kind and shoot_out(after)
    return fires


# -- rejections the generic mutations do not find -----------------------------------------------


def candidates(game: Any, state: State) -> Iterator[tuple[str, str, JSON]]:
    """HOPPER's own candidate refusals: aims and landings at claimed cups, at the black cup
    before it joins and at no cup, no aim with aiming on and an aim with it off, a seat that
    does not exist, and in the shoot-out a seat with no beans while none are loose."""
    n = len(state.hands)
    claimed = [cup for _, cup in state.claims]
    present = {cup for cup, _ in state.tray}
    if state.phase is Phase.LAND:
        for cup, kind in ((claimed[0] if claimed else None, "into-claimed-cup"),
                          (BLACK if BLACK not in present else None, "into-black-cup-aside"),
                          (17, "into-no-cup")):
            if cup is not None:
                yield kind, f"a bean landing in cup {cup}, not in the tray", {
                    "type": "land", "cup": cup}
        return
    if state.phase is not Phase.AIM:
        return
    seats = game.to_move(state).seats
    seat = seats[0]
    some = next(iter(sorted(present)))
    if state.config.aiming:
        for cup, kind in ((claimed[-1] if claimed else None, "aim-at-claimed-cup"),
                          (BLACK if BLACK not in present else None, "aim-at-black-cup-aside"),
                          (17, "aim-at-no-cup")):
            if cup is not None:
                yield kind, f"a shot aimed at cup {cup}, not in the tray", {
                    "type": "shoot", "seat": seat, "aim": cup}
        yield "no-aim", "a shot with no aim while aiming is on", {
            "type": "shoot", "seat": seat, "aim": None}
    else:
        yield "aim-when-off", f"a shot aimed at cup {some} while aiming is off", {
            "type": "shoot", "seat": seat, "aim": some}
    aim = some if state.config.aiming else None
    yield "no-such-seat", f"a shot by seat {n} of {n} players", {
        "type": "shoot", "seat": n, "aim": aim}
    for other in range(n):
        if other not in seats:
            yield "seat-without-beans", f"a shot by seat {other}, which may not shoot", {
                "type": "shoot", "seat": other, "aim": aim}


RECORD: GameRecord[State, Action, Config, State] = GameRecord(
    game=GAME,
    random_games=(
        RandomGames("default", DEFAULT, (1,)),
        RandomGames("end-2", END_2, (1,)),
        *(RandomGames(f"{n}-players", Config(players=n), (n,)) for n in (3, 4, 5)),
        *(RandomGames(f"end-2-{n}-players", Config(players=n, ending=Ending.END_2), (n,))
          for n in (3, 4, 5)),
        RandomGames("aiming-off", UNAIMED, (1,)),
    ),
    whole_game_rules=("HOPPER-1", "HOPPER-2", "HOPPER-3", "HOPPER-4", "HOPPER-5", "HOPPER-6",
                      "HOPPER-7", "HOPPER-8", "HOPPER-9", "HOPPER-18", "HOPPER-19"),
    scenarios=(
        Scenario("plain-landing", "A bean falls into a cup holding fewer than 3 and stays "
                 "there; the shooter's hand gives it up and the next seat shoots",
                 ("HOPPER-4", "HOPPER-5", "HOPPER-6", "HOPPER-7"), DEFAULT,
                 _landing(_into_cup), extra=1),
        Scenario("landing-outside", "A bean lands outside the cups: it lies loose",
                 ("HOPPER-6", "HOPPER-7"), DEFAULT, _landing(_outside), extra=1),
        Scenario("foursome-and-close-up", "A bean into a cup holding 3 makes a foursome: the "
                 "shooter claims the cup at once, its four beans go loose and the other cups "
                 "close up, keeping their order and names",
                 ("HOPPER-8", "HOPPER-9", "HOPPER-19"), DEFAULT, _landing(_claim_mid_tray),
                 extra=2, policy=hits()),
        Scenario("replenish", "A seat with no beans shoots: it first takes all the loose "
                 "beans", ("HOPPER-10",), FEW_BEANS, _replenished, extra=1,
                 policy=into_low_cups),
        Scenario("skipped-seat", "A seat with no beans, none loose, is skipped",
                 ("HOPPER-11", "HOPPER-4"), FEW_BEANS, _skip, extra=2, policy=into_low_cups),
        Scenario("shoot-out-empty-seat", "The shoot-out with a seat holding no beans while "
                 "none are loose: it is not among the seats that may shoot",
                 ("HOPPER-11", "HOPPER-15"), Config(players=3, total_beans=51,
                                                     ending=Ending.END_2),
                 _seat_left_out, extra=1, policy=into_low_cups),
        Scenario("end-1-fourth-cup", "End 1: the first seat to claim four cups wins at once",
                 ("HOPPER-12",), DEFAULT, step_into(Phase.OVER), policy=hits()),
        Scenario("end-1-five-players", "End 1 with five players: the tray never empties first",
                 ("HOPPER-12", "HOPPER-1"), Config(players=5), step_into(Phase.OVER),
                 policy=hits()),
        Scenario("black-cup-joins", "End 2: four cups claimed end nothing; when three cups "
                 "are left the black cup joins them, empty, and the shoot-out begins",
                 ("HOPPER-13", "HOPPER-14", "HOPPER-15"), END_2, _landing(_black_joins),
                 extra=2, policy=hits()),
        Scenario("shoot-out-any-order", "The shoot-out: any seat with beans shoots next, one "
                 "shot at a time: the same seat twice running, then another",
                 ("HOPPER-15",), Config(players=3, ending=Ending.END_2), _any_order,
                 extra=1, policy=hits()),
        Scenario("last-cup-three-points", "End 2 ends when the last cup is shot down: it "
                 "counts 3 whatever its colour, the black cup 2, a neutral cup 1",
                 ("HOPPER-13", "HOPPER-16", "HOPPER-17"), END_2,
                 step_into(Phase.OVER, _neutral_last),
                 policy=hits(avoid_black_last=False)),
        Scenario("black-cup-last", "End 2 with the black cup shot down last: it counts 3, "
                 "not 2, and the points add to 19", ("HOPPER-16",), END_2,
                 step_into(Phase.OVER, _black_last), policy=hits(avoid_black_last=True)),
        Scenario("tie-shared", "End 2 ends with a tie on points: a shared win",
                 ("HOPPER-17",), Config(players=3, ending=Ending.END_2),
                 step_into(Phase.OVER, _tie), policy=hits()),
        Scenario("aiming-off", "With aiming off every turn-play shot is pure chance: no "
                 "decision, the landing follows at once", ("HOPPER-5", "HOPPER-6"), UNAIMED,
                 _first_step),
        Scenario("aiming-off-shoot-out", "With aiming off, the shoot-out's one decision is "
                 "who shoots next", ("HOPPER-5", "HOPPER-15"), UNAIMED_END_2, _shoot_out_shot,
                 extra=1, policy=hits()),
        Scenario("seat-accuracy-model", "The shot model is data: a per-seat accuracy model "
                 "in the config changes no rule", ("HOPPER-6",),
                 Config(shot_model=SeatAccuracy((Fraction(2, 3), Fraction(1, 3)))), _first_step),
        Scenario("remainder-loose", "Three players: the 2 beans left over lie loose from the "
                 "start", ("HOPPER-3",), Config(players=3, remainder=Remainder.LOOSE),
                 _first_step),
        Scenario("remainder-first-seats", "Three players: the 2 beans left over go to seats 0 "
                 "and 1", ("HOPPER-3",), Config(players=3, remainder=Remainder.FIRST_SEATS),
                 _first_step),
    ),
    counts=(
        CountSpec("initial", "The initial position: 16 cups to aim at",
                  ("HOPPER-2", "HOPPER-5"), DEFAULT, 1),
        CountSpec("initial-first-player-2", "Five players, seat 2 first",
                  ("HOPPER-4",), Config(players=5, first_player=2), 1),
        CountSpec("shoot-out", "A shoot-out node: every seat that may shoot, every cup",
                  ("HOPPER-15",), Config(players=4, ending=Ending.END_2), 1,
                  _node(MoverKind.ANY)),
        CountSpec("shoot-out-unaimed", "A shoot-out node with aiming off: who shoots",
                  ("HOPPER-15", "HOPPER-5"), UNAIMED_END_2, 1, _node(MoverKind.ANY)),
    ),
    events=events,
    candidates=candidates,
    rejection_games=3,
    rejections_per_rule=8,
    rules=RULES,
    view_rules=VIEW_RULES,
    readings=READINGS,
    catalogue=CATALOGUE,
    bad_configs=({"players": 6}, {"total_beans": 40}),
    diagnose=diagnose,
    config_rule=config_rule,
    legal_rule=legal_rule,
)
"""HOPPER's conformance record."""
