"""Common misreadings of the DA CAPO rules that are no ``Config`` option.

Each is the reference with one rule read wrongly (:class:`~copa_ref.core.misreading.Misreading`), as
engine authors have read it: the conformance runner replays them to explain a failure
("your engine plays as if …"), and the kill-matrix test uses them as mutants. Rule IDs refer
to ``specs/da_capo.md``.
"""

from __future__ import annotations

from copa_ref.core import Misreading, Outcome, Seat
from copa_ref.da_capo import rules as _rules
from copa_ref.da_capo.state import MAX_BID, START_BEANS, Bid, State, TieResolution

__all__ = ["MISREADINGS"]

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


MISREADINGS: tuple[Misreading, ...] = (
    Misreading(rule="DACAPO-5", slug="null-bid-sits-out",
               description="a seat that still has beans may sit a round out with a null bid",
               replacements={"_check_bids": _null_bid_sits_out}),
    Misreading(rule="DACAPO-7", slug="bids-above-reserve-listed",
               description="every bid of 1 to 5 is listed as legal, even above the reserve",
               replacements={"_BIDS": _bids_table(1, cap=False)}),
    Misreading(rule="DACAPO-10", slug="losing-bids-returned",
               description="the bids that lose to the winner go back to their bidders, not "
               "to the box",
               replacements={"settle_round": _losing_bids_returned}),
    Misreading(rule="DACAPO-11", slug="tied-top-nobody-advances",
               description="a tied highest bid means nobody advances (no cascade down)",
               replacements={"round_winner": _top_tie_nobody}),
    Misreading(rule="DACAPO-14", slug="last-step-one-too-many-to-box",
               description="in the last-player step every bean he held goes to the box, as "
               "well as one into his cup",
               replacements={"last_player_step": _last_step_all_to_box}),
    Misreading(rule="DACAPO-16", slug="advance-counted-in-beans",
               description="the furthest advance is counted in beans in the cups, not in cups",
               replacements={"advance": _advance_by_beans}),
    Misreading(rule="DACAPO-17", slug="most-beans-wins-tie",
               description="at equal advance the seat with the most beans in its cups wins",
               replacements={"outcome": _most_beans_wins_tie}),
)
"""Common misreadings of the DA CAPO rules (not ``Config`` options), each tagged with its rule."""
