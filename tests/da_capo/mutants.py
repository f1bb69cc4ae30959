"""DA CAPO mutants: the reference with one rule misread, at least one per rule of
``specs/da_capo.md`` (the kill-matrix test, ``tests/conformance/test_kill_matrix.py``)."""

from __future__ import annotations

import attrs

from copa_ref.core import Misreading, Outcome, Seat
from copa_ref.da_capo import rules as _rules
from copa_ref.da_capo.misreadings import MISREADINGS, Table, _bids_table
from copa_ref.da_capo.state import Bid, Bids, Round, State


def _four_cups_up_to_four(players: int) -> int:
    return 4 if players <= 4 else 3


def _lone_bid_played(state: State, action: object) -> State:
    if isinstance(action, Bid) and type(action.seat) is int and 0 <= action.seat < len(
            state.reserves):
        bids = tuple(action.beans if s == action.seat else (1 if r else None)
                     for s, r in enumerate(state.reserves))
        return _rules.apply(state, Bids(bids))
    return _rules.apply(state, action)  # type: ignore[arg-type]


def _only_winner_revealed(state: State, action: object) -> State:
    after = _rules.apply(state, action)  # type: ignore[arg-type]
    played = after.rounds[-1]
    shown = tuple(b if s == played.winner else None for s, b in enumerate(played.bids))
    return attrs.evolve(after, rounds=(*after.rounds[:-1], Round(shown, played.winner)))


def _winner_keeps_one(table: Table, bids: tuple[int | None, ...], winner: int | None) -> Table:
    if winner is None:
        return _rules.settle_round(table, bids, None)
    reserves, lines, target, box = _rules.settle_round(
        table, tuple(1 if s == winner else b for s, b in enumerate(bids)), winner)
    spent = bids[winner] or 0
    reserves = tuple(r - (spent - 1) if s == winner else r for s, r in enumerate(reserves))
    return reserves, lines, target, box + spent - 1


def _void_round_returned(table: Table, bids: tuple[int | None, ...],
                         winner: int | None) -> Table:
    if winner is None:
        return table
    return _rules.settle_round(table, bids, winner)


def _out_seat_bid_ignored(state: State, action: object) -> State:
    if isinstance(action, Bids) and isinstance(action.bids, tuple) and len(
            action.bids) == len(state.reserves):
        action = Bids(tuple(None if not r else b for b, r in zip(action.bids, state.reserves,
                                                                  strict=True)))
    return _rules.apply(state, action)  # type: ignore[arg-type]


def _reach_line_full(config: object) -> int:
    return _rules.line_length(config.players)  # type: ignore[attr-defined]


def _out_seat_still_moves(state: State) -> tuple[int, ...]:
    return tuple(range(len(state.reserves)))


def _target_cup_always(config: object) -> int:
    return _rules.line_length(config.players) + 1  # type: ignore[attr-defined]


def _fewest_beans_wins(state: State) -> Outcome | None:
    result = _rules.outcome(state)
    if result is None or result.rule != "DACAPO-16":
        return result
    seats = range(len(state.reserves))
    fewest = min(sum(state.lines[s]) for s in seats)
    return Outcome(winners=tuple(Seat(s) for s in seats if sum(state.lines[s]) == fewest),
                   rule=result.rule)


def _last_step_cannot_finish(state: State, action: object) -> State:
    after = _rules.apply(state, action)  # type: ignore[arg-type]
    step = after.last_step
    if step is not None and after.finisher == step.seat and after.rounds[-1].winner != step.seat:
        return attrs.evolve(after, finisher=None)
    return after


MUTANTS: tuple[Misreading, ...] = (
    *MISREADINGS,
    Misreading(rule="DACAPO-1", slug="three-to-five-players",
               description="DA CAPO is for three to five players",
               replacements={"MIN_PLAYERS": 3}),
    Misreading(rule="DACAPO-2", slug="four-cups-with-four-players",
               description="lines of 4 cups with up to four players, 3 only with five",
               replacements={"line_length": _four_cups_up_to_four}),
    Misreading(rule="DACAPO-3", slug="fifteen-beans",
               description="every reserve starts with 15 beans",
               replacements={"START_BEANS": 15}),
    Misreading(rule="DACAPO-4", slug="lone-bid-played",
               description="a lone bid is played as a round (the others bid 1)",
               replacements={"apply": _lone_bid_played}),
    Misreading(rule="DACAPO-6", slug="bid-of-zero",
               description="a bid of 0 beans (a pass) is allowed",
               replacements={"MAX_BID": 5, "_BIDS": _bids_table(0, cap=True)}),
    Misreading(rule="DACAPO-8", slug="only-the-winning-bid-revealed",
               description="only the winning bid is revealed; the others stay secret",
               replacements={"apply": _only_winner_revealed}),
    Misreading(rule="DACAPO-9", slug="winner-puts-one-bean",
               description="the winner puts one bean into his cup and the rest to the box",
               replacements={"settle_round": _winner_keeps_one}),
    Misreading(rule="DACAPO-12", slug="void-round-returned",
               description="a round nobody wins is void: the beans go back to the bidders",
               replacements={"settle_round": _void_round_returned}),
    Misreading(rule="DACAPO-13", slug="out-seat-bid-ignored",
               description="a bid for a seat without beans is ignored instead of refused",
               replacements={"apply": _out_seat_bid_ignored}),
    Misreading(rule="DACAPO-13", slug="out-seat-still-to-move",
               description="a seat without beans is still among the seats to move",
               replacements={"active_seats": _out_seat_still_moves}),
    Misreading(rule="DACAPO-15", slug="last-step-cannot-finish",
               description="the last-player step into the target cup does not win at once",
               replacements={"apply": _last_step_cannot_finish}),
    Misreading(rule="DACAPO-15", slug="target-cup-always",
               description="the target cup must be filled even under target_reached_when="
               "line_full", replacements={"_reach": _target_cup_always}),
    Misreading(rule="DACAPO-16", slug="fewest-beans-wins",
               description="with every reserve used up and one seat furthest ahead, the "
               "fewest beans in the cups win all the same",
               replacements={"outcome": _fewest_beans_wins}),
    Misreading(rule="DACAPO-15", slug="full-line-reaches-target",
               description="filling the last cup of the line already reaches the target",
               replacements={"_reach": _reach_line_full}),
)
"""The DA CAPO mutants: the common misreadings and one-rule mistakes of every rule."""

UNMUTATABLE: dict[str, str] = {}
"""Rules with no one-rule mutant, and why."""

UNNAMED: dict[str, str] = {}
"""Mutants the runner does not yet name with their own rule in every failing case, and why."""

