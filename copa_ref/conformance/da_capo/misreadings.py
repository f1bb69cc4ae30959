"""The code of DA CAPO's misreadings: the functions a misread copy of
:mod:`copa_ref.da_capo.rules` is given in place of the reference's.

Each misreading (the reference with one rule read wrongly, as engine authors have read it)
is declared with its rule in ``rules.py``, which builds the catalogue: the runner replays
them to explain a failure ("your engine plays as if …"), the kill-matrix test uses them as
mutants. What stays here is what those declarations refer to, and the kill matrix's lists
by mutant (:data:`UNNAMED`, :data:`RARE`). Rule IDs refer to ``specs/da_capo.md``.
"""

from __future__ import annotations

import attrs

from copa_ref.conformance.vocabulary import Rare
from copa_ref.core import Outcome, Seat
from copa_ref.da_capo import rules as _rules
from copa_ref.da_capo.state import MAX_BID, START_BEANS, Bid, Bids, Round, State, TieResolution

__all__ = ["RARE", "UNNAMED"]


Table = tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, int]


def _bids_table(low: int, cap: bool) -> tuple[tuple[tuple[Bid, ...], ...], ...]:
    """Per-seat choices ``[seat][reserve]``: from *low* to 5, capped at the reserve if *cap*."""
    return tuple(
        tuple(tuple(Bid(seat, b) for b in range(low, (min(MAX_BID, r) if cap else MAX_BID) + 1))
              for r in range(START_BEANS + 1))
        for seat in range(_rules.MAX_PLAYERS))


def _last_step_all_to_box(table: Table, seat: int) -> Table:
    reserves, lines, target, box = _rules.last_player_step(table, seat)
    return reserves, lines, target, box + 1


def _top_tie_nobody(bids: tuple[int | None, ...], tie_resolution: TieResolution) -> int | None:
    placed = [b for b in bids if b is not None]
    if not placed:
        return None
    top = max(placed)
    return bids.index(top) if placed.count(top) == 1 else None


def _losing_bids_returned(table: Table, bids: tuple[int | None, ...],
                          winner: int | None) -> Table:
    if winner is None:
        return _rules.settle_round(table, bids, None)
    kept = tuple(b if s == winner else None for s, b in enumerate(bids))
    return _rules.settle_round(table, kept, winner)


def _null_bid_sits_out(state: State, bids: tuple[int | None, ...]) -> None:
    """A seat with beans may pass with a null bid, as long as some seat bids."""
    if len(bids) == len(state.reserves) and any(b is not None for b in bids):
        filled = tuple(b if b is not None or not state.reserves[s] else 1
                       for s, b in enumerate(bids))
        _rules._check_bids(state, filled)
        return
    _rules._check_bids(state, bids)


def _most_beans_wins_tie(state: State) -> Outcome | None:
    result = _rules.outcome(state)
    if result is None or result.rule != "DACAPO-17":
        return result
    seats = range(len(state.reserves))
    best = max(_rules.advance(state, s) for s in seats)
    leaders = [s for s in seats if _rules.advance(state, s) == best]
    most = max(sum(state.lines[s]) for s in leaders)
    return Outcome(winners=tuple(Seat(s) for s in leaders if sum(state.lines[s]) == most),
                   rule="DACAPO-17")


def _advance_by_beans(state: State, seat: int) -> int:
    return sum(state.lines[seat]) + (state.target if state.finisher == seat else 0)


# -- The kill matrix's further mutants ------------------------------------------------------


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


# -- The kill matrix's lists by mutant -----------------------------------------------------

UNNAMED: dict[str, str] = {}
"""The failing cases of a mutant that cannot name its rule (``"<slug> <case id>"``, or a
slug for all of a mutant's), and why (the kill-matrix test,
``tests/conformance/test_kill_matrix.py``): none."""


RARE: tuple[Rare, ...] = (
    Rare("losing-bids-returned", (("players", 4), ("tie_resolution", "two_level"))),
    Rare("last-step-one-too-many-to-box",
         (("players", 4), ("target_reached_when", "line_full"))),
    Rare("bids-above-reserve-listed", (("players", 5), ("tie_break", "beans_spent"))),
)
"""The mutants (``mutants`` of ``rules.CATALOGUE``) that act only in a rare
situation (a combination of player count and options the corpus never plays): what an
exploration must find beyond the corpus."""
