"""DA CAPO's step invariants, each named after the rule it guards.

Each is a function ``(before, action, after) -> None`` raising
:class:`~copa_ref.core.errors.InvariantViolation` when an implementation broke its rule. They
restate the rules independently of :mod:`copa_ref.da_capo.rules` where that is cheap (the
round's winner is recomputed by a different method), so that the tests compare two
derivations, and the conformance runner can apply them to a foreign engine's states.
"""

from __future__ import annotations

from collections import Counter

from copa_ref.core import require
from copa_ref.da_capo.state import (
    MAX_BID,
    START_BEANS,
    Action,
    Bids,
    State,
    TargetReached,
    TieResolution,
)

__all__ = [
    "STEP_INVARIANTS",
    "beans_conserved",
    "bids_within_reserves",
    "match_ends_exactly",
    "one_advance_per_round",
    "positions_move_forward",
    "revealed_beans_placed",
    "unique_highest_bid_advances",
]


def _beans(state: State) -> int:
    return sum(state.reserves) + sum(map(sum, state.lines)) + state.target + state.box


def _advance(state: State, seat: int) -> int:
    line = state.lines[seat]
    steps = next((i for i, b in enumerate(line) if b == 0), len(line))
    return steps + (1 if state.finisher == seat and state.target else 0)


def beans_conserved(before: State, action: Action, after: State) -> None:
    """DACAPO-3: reserves + line cups + target cup + box = 16 × players (DACAPO-V1: the
    config's beans × players), before and after."""
    each = START_BEANS if before.config.beans is None else before.config.beans
    expected = each * before.config.players
    require(_beans(before) == expected, "DACAPO-3",
            f"{_beans(before)} beans before the round, not {expected}")
    require(_beans(after) == expected, "DACAPO-3",
            f"{_beans(after)} beans after {action!r}, not {expected}")


def bids_within_reserves(before: State, action: Action, after: State) -> None:
    """DACAPO-5/6/7/13: every seat with beans bid 1..min(5, held); seats that are out bid
    nothing; each reserve dropped by exactly the bid (and the last player's remainder)."""
    require(isinstance(action, Bids), "DACAPO-4", f"applied a lone {action!r}")
    assert isinstance(action, Bids)
    for seat, (held, bid) in enumerate(zip(before.reserves, action.bids, strict=True)):
        if held == 0:
            require(bid is None, "DACAPO-13", f"seat {seat} is out but bid {bid}")
            continue
        require(bid is not None, "DACAPO-5", f"seat {seat} holds {held} but did not bid")
        assert bid is not None
        require(1 <= bid <= min(MAX_BID, held), "DACAPO-7",
                f"seat {seat} bid {bid} holding {held}")
        left = held - bid
        if after.last_step is not None and after.last_step.seat == seat:
            require(after.last_step.beans == left, "DACAPO-14",
                    f"seat {seat} held {left} at the last step, recorded {after.last_step}")
            left = 0
        require(after.reserves[seat] == left, "DACAPO-7",
                f"seat {seat} held {held}, bid {bid}, now holds {after.reserves[seat]}")


def _expected_winner(bids: tuple[int | None, ...], rule: TieResolution) -> int | None:
    counts = Counter(b for b in bids if b is not None)
    levels = sorted(counts, reverse=True)
    if rule is TieResolution.TWO_LEVEL:
        levels = levels[:2]
    unique = [level for level in levels if counts[level] == 1]
    return bids.index(unique[0]) if unique else None


def unique_highest_bid_advances(before: State, action: Action, after: State) -> None:
    """DACAPO-8/11/12: the round is recorded as revealed, won by the highest unmatched bid."""
    require(len(after.rounds) == len(before.rounds) + 1
            and after.rounds[:-1] == before.rounds, "DACAPO-8",
            "a round must add exactly one record to the history")
    played = after.rounds[-1]
    assert isinstance(action, Bids)
    require(played.bids == action.bids, "DACAPO-8",
            f"recorded bids {played.bids} are not the revealed {action.bids}")
    expected = _expected_winner(action.bids, before.config.tie_resolution)
    require(played.winner == expected, "DACAPO-11",
            f"bids {list(action.bids)}: winner {played.winner}, expected {expected}")


def positions_move_forward(before: State, action: Action, after: State) -> None:
    """DACAPO-9: filled cups stay filled and keep their beans; lines fill from the player."""
    for seat, (old, new) in enumerate(zip(before.lines, after.lines, strict=True)):
        n_old = _advance(before, seat)
        require(_advance(after, seat) >= n_old, "DACAPO-9", f"seat {seat} moved back")
        require(new[:n_old] == old[:n_old], "DACAPO-9",
                f"seat {seat}'s filled cups changed: {old} -> {new}")
        n_new = _advance(after, seat)
        require(all(b == 0 for b in new[n_new:]), "DACAPO-9",
                f"seat {seat}'s line has a gap: {new}")


def one_advance_per_round(before: State, action: Action, after: State) -> None:
    """DACAPO-9/14: the round moves its winner (only) one cup; the last-player step, when
    recorded, moves its seat one more cup; nothing else moves."""
    played = after.rounds[-1]
    step = after.last_step
    require(before.last_step is None, "DACAPO-14", "a round after the last-player step")
    for seat in range(before.config.players):
        expected = (seat == played.winner) + (step is not None and step.seat == seat)
        moved = _advance(after, seat) - _advance(before, seat)
        require(moved == expected, "DACAPO-9",
                f"seat {seat} moved {moved} cup(s); the round and last step allow {expected}")


def revealed_beans_placed(before: State, action: Action, after: State) -> None:
    """DACAPO-10/14: the winner's beans fill his cup; every other revealed bean, and all but
    one of the last player's, go to the box."""
    played = after.rounds[-1]
    lost = sum(b for s, b in enumerate(played.bids) if b is not None and s != played.winner)
    if after.last_step is not None:
        lost += after.last_step.beans - 1
    require(after.box - before.box == lost, "DACAPO-10",
            f"the box grew by {after.box - before.box}, expected {lost}")
    if played.winner is not None:
        seat = played.winner
        cup = _advance(before, seat)
        bid = played.bids[seat]
        line = after.lines[seat]
        placed = line[cup] if cup < len(line) else after.target
        require(placed == bid, "DACAPO-9",
                f"seat {seat} won with {bid} but his next cup holds {placed}")


def match_ends_exactly(before: State, action: Action, after: State) -> None:
    """DACAPO-14/15/16: the match ends exactly when someone reaches the target or every
    reserve is empty; it never goes on with a single seat holding beans; the last-player
    step happens exactly when a round leaves one seat with beans and nobody finished."""
    length = len(after.lines[0])
    reach = length + (after.config.target_reached_when is TargetReached.TARGET_CUP)
    finished = [s for s in range(after.config.players) if _advance(after, s) >= reach]
    require(len(finished) <= 1, "DACAPO-15", f"several seats reached the target: {finished}")
    expected = finished[0] if finished else None
    require(after.finisher == expected, "DACAPO-15",
            f"finisher is {after.finisher}, but the seat at the target is {expected}")
    holders = sum(1 for r in after.reserves if r)
    require(after.finisher is not None or holders != 1, "DACAPO-14",
            "a single seat holds beans and the match goes on")
    played = after.rounds[-1]
    winner = played.winner
    round_finished = winner is not None and _advance(before, winner) + 1 == reach
    left = [s for s, (r, b) in enumerate(zip(before.reserves, played.bids, strict=True))
            if r - (b or 0) > 0]
    due = len(left) == 1 and not round_finished
    require((after.last_step is not None) == due, "DACAPO-14",
            f"last-player step {after.last_step} after a round leaving {left} with beans")
    if after.last_step is not None:
        require(after.last_step.seat == left[0], "DACAPO-14",
                f"the last step was taken by {after.last_step.seat}, not {left[0]}")
        require(not any(after.reserves), "DACAPO-16",
                "reserves remain after the last-player step")


STEP_INVARIANTS = (
    beans_conserved,
    bids_within_reserves,
    unique_highest_bid_advances,
    positions_move_forward,
    one_advance_per_round,
    revealed_beans_placed,
    match_ends_exactly,
)
"""Every step invariant, in spec order of the rules they guard."""
