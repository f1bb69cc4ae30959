"""HOPPER's executable invariants, each named after the rule it guards.

Each step invariant takes ``(before, action, after)`` and raises
:class:`~copa_ref.core.errors.InvariantViolation` naming its rule. They check what an
implementation (ours, or a foreign engine's reports) did, never the caller's input.
"""

from __future__ import annotations

from copa_ref.core import require
from copa_ref.core.codec import excerpt
from copa_ref.hopper.rules import (
    can_shoot,
    check_state,
    cup_value,
    next_turn,
    outcome,
    shoot_out,
    total_beans,
)
from copa_ref.hopper.state import (
    BLACK,
    CUP_BEANS,
    NEUTRAL_CUPS,
    Action,
    Ending,
    Land,
    Phase,
    Shoot,
    State,
)

__all__ = [
    "STEP_INVARIANTS",
    "beans_conserved",
    "black_cup_joins_on_time",
    "claims_follow_foursomes",
    "cups_accounted_for",
    "cups_hold_at_most_three",
    "replenish_only_when_empty",
    "scores_are_cup_values",
    "state_is_valid",
    "turns_go_clockwise",
]


def beans_conserved(before: State, action: Action, after: State) -> None:
    """HOPPER-19: hands + tray cups + loose beans = the beans in play, no count negative;
    a landing takes exactly one bean from the shooter's hand, and nobody else's changes."""
    expected = total_beans(before)
    require(total_beans(after) == expected, "HOPPER-19",
            f"{total_beans(after)} beans in play after {excerpt(action)}, not {expected}")
    require(min(after.hands) >= 0 and after.loose >= 0
            and all(b >= 0 for _, b in after.tray), "HOPPER-19",
            f"a negative count after {excerpt(action)}")
    if isinstance(action, Land) and before.turn is not None:
        hands = list(before.hands)
        hands[before.turn] -= 1
        started = after.turn if after.phase is Phase.LAND else None
        for s, now in enumerate(after.hands):
            if s == started and hands[s] == 0:
                continue  # replenished as its automatic shot began (HOPPER-10)
            require(now == hands[s], "HOPPER-19",
                    f"seat {s}'s hand went {before.hands[s]} -> {now} on {excerpt(action)}")


def replenish_only_when_empty(before: State, action: Action, after: State) -> None:
    """HOPPER-10: a shot by an empty-handed seat takes all the loose beans first; a seat
    holding beans never takes any."""
    if not isinstance(action, Shoot):
        return
    seat = action.seat
    if before.hands[seat] == 0:
        require(after.hands[seat] == before.loose and after.loose == 0, "HOPPER-10",
                f"seat {seat} shot with no beans: took {after.hands[seat]} of "
                f"{before.loose} loose beans")
    else:
        require(after.hands == before.hands and after.loose == before.loose, "HOPPER-10",
                f"seat {seat} holds beans, but hands or loose beans changed on its shot")


def cups_hold_at_most_three(before: State, action: Action, after: State) -> None:
    """HOPPER-7, HOPPER-8: after a shot is resolved no cup in the tray holds more than 3; a
    landing adds one bean to its cup unless it makes a foursome."""
    require(all(0 <= beans <= CUP_BEANS for _, beans in after.tray), "HOPPER-8",
            f"a cup holds more than {CUP_BEANS} beans after {excerpt(action)}: {after.tray}")
    if isinstance(action, Land) and action.cup is not None:
        was = dict(before.tray)[action.cup]
        now = dict(after.tray).get(action.cup)
        if was < CUP_BEANS:
            require(now == was + 1, "HOPPER-7",
                    f"cup {action.cup} went {was} -> {now} when a bean landed in it")


def claims_follow_foursomes(before: State, action: Action, after: State) -> None:
    """HOPPER-8: a cup is claimed exactly when a bean lands in it holding 3, by the shooter;
    claims are never undone."""
    require(after.claims[:len(before.claims)] == before.claims, "HOPPER-8",
            f"claims changed from {before.claims} to {after.claims}")
    new = after.claims[len(before.claims):]
    foursome = (isinstance(action, Land) and action.cup is not None
                and dict(before.tray).get(action.cup) == CUP_BEANS)
    if foursome:
        assert isinstance(action, Land)
        require(new == ((before.turn, action.cup),), "HOPPER-8",
                f"a foursome in cup {action.cup} by seat {before.turn} claimed {new}")
    else:
        require(not new, "HOPPER-8", f"cups {new} claimed without a foursome")


def cups_accounted_for(before: State, action: Action, after: State) -> None:
    """HOPPER-2, HOPPER-9: cups in the tray + cups claimed = 16 (17 once the black cup has
    joined); claimed cups are never more than the cups there were; the tray keeps its
    order as it closes up."""
    names = [cup for cup, _ in after.tray] + [cup for _, cup in after.claims]
    joined = BLACK in names
    require(sorted(names) == list(range(NEUTRAL_CUPS + joined)), "HOPPER-2",
            f"cups in the tray and claimed: {sorted(names)}")
    require(len(after.claims) <= NEUTRAL_CUPS + joined, "HOPPER-9",
            f"{len(after.claims)} cups claimed")
    kept = [cup for cup, _ in before.tray if cup in dict(after.tray)]
    require([cup for cup, _ in after.tray][:len(kept)] == kept, "HOPPER-9",
            f"the tray {after.tray} is out of the order of {before.tray}")


def black_cup_joins_on_time(before: State, action: Action, after: State) -> None:
    """HOPPER-14: the black cup joins exactly when three cups are left under End 2, and
    never under End 1."""
    def black_in(state: State) -> bool:
        return any(cup == BLACK for cup, _ in state.tray) or any(
            cup == BLACK for _, cup in state.claims)

    if after.config.ending is Ending.END_1:
        require(not black_in(after), "HOPPER-14", "the black cup joined under End 1")
        return
    neutral = sum(1 for cup, _ in after.tray if cup != BLACK)
    require(black_in(after) == (neutral <= 3), "HOPPER-14",
            f"black cup {'in' if black_in(after) else 'aside'} with {neutral} neutral cups")
    if black_in(after) and not black_in(before):
        require(len(after.tray) == 4 and (BLACK, 0) in after.tray, "HOPPER-14",
                f"the black cup joined a tray of {after.tray}")


def turns_go_clockwise(before: State, action: Action, after: State) -> None:
    """HOPPER-4, HOPPER-11, HOPPER-15: in turn play the next shot is the next seat's
    clockwise that may shoot; in the shoot-out nobody has the turn."""
    if after.phase is Phase.OVER:
        return
    if shoot_out(after):
        require(after.phase is Phase.LAND or after.turn is None, "HOPPER-15",
                f"seat {after.turn} has a turn in the shoot-out")
        return
    if after.turn is not None and after.phase is Phase.AIM:
        require(can_shoot(after.hands, after.loose, after.turn), "HOPPER-11",
                f"seat {after.turn} is to shoot with no beans and none loose")
    if isinstance(action, Land) and before.turn is not None:
        expected = next_turn(after.hands, after.loose, before.turn)
        require(after.turn == expected, "HOPPER-4",
                f"after seat {before.turn}'s shot the turn went to {after.turn}, "
                f"not {expected}")
    if isinstance(action, Shoot):
        require(after.turn == action.seat, "HOPPER-4",
                f"seat {action.seat} shot but seat {after.turn}'s bean is in the air")


def scores_are_cup_values(before: State, action: Action, after: State) -> None:
    """HOPPER-12, HOPPER-16, HOPPER-17: the outcome's scores are the claimed cups (End 1) or
    their values, the last cup 3 (End 2); the winners are the best of them."""
    result = outcome(after)
    if result is None:
        return
    n = len(after.hands)
    values = [0] * n
    for i, (seat, cup) in enumerate(after.claims):
        if after.config.ending is Ending.END_1:
            values[seat] += 1
        else:
            values[seat] += 3 if i == len(after.claims) - 1 else cup_value(cup)
    rule = "HOPPER-12" if after.config.ending is Ending.END_1 else "HOPPER-16"
    require(list(result.scores) == values, rule,
            f"scores {list(result.scores)}, but the claimed cups are worth {values}")
    if after.config.ending is Ending.END_1:
        require(list(result.winners) == [after.claims[-1][0]] and max(values) == 4,
                "HOPPER-12", f"winners {list(result.winners)} with cups {values}")
    else:
        best = max(values)
        require(list(result.winners) == [s for s in range(n) if values[s] == best],
                "HOPPER-17", f"winners {list(result.winners)} with points {values}")


def state_is_valid(before: State, action: Action, after: State) -> None:
    """HOPPER-1 … HOPPER-19: the state after the step is one legal play can produce."""
    try:
        check_state(after)
    except ValueError as exc:
        rule = getattr(exc, "rule", "HOPPER-19")
        require(False, rule, f"after {excerpt(action)}: {exc}")


STEP_INVARIANTS = (
    beans_conserved,
    replenish_only_when_empty,
    cups_hold_at_most_three,
    claims_follow_foursomes,
    cups_accounted_for,
    black_cup_joins_on_time,
    turns_go_clockwise,
    scores_are_cup_values,
    state_is_valid,
)
"""Every HOPPER step invariant, in the order of the spec."""
