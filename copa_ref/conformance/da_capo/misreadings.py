"""Common misreadings of the DA CAPO rules that are no ``Config`` option.

Each is the reference with one rule read wrongly (:class:`~copa_ref.core.misreading.Misreading`), as
engine authors have read it: the conformance runner replays them to explain a failure
("your engine plays as if …"), and the kill-matrix test uses them as mutants. Rule IDs refer
to ``specs/da_capo.md``.
"""

from __future__ import annotations

import attrs

from copa_ref.conformance.vocabulary import Catalogue, Rare
from copa_ref.core import Misreading, Outcome, Seat
from copa_ref.da_capo import rules as _rules
from copa_ref.da_capo.state import MAX_BID, START_BEANS, Bid, Bids, Round, State, TieResolution

__all__ = ["CATALOGUE", "MISREADINGS", "MUTANTS", "PICTURED", "RARE", "UNMUTATABLE", "UNNAMED"]


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


# -- The kill matrix's mutants --------------------------------------------------------------
#
# DA CAPO mutants: the reference with one rule misread, at least one per rule of
# ``specs/da_capo.md`` (the kill-matrix test, ``tests/conformance/test_kill_matrix.py``).


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
"""The failing cases of a mutant that cannot name its rule (``"<slug> <case id>"``, or a
slug for all of a mutant's), and why (the kill-matrix test,
``tests/conformance/test_kill_matrix.py``): none."""


# -- The rule book's misreadings ------------------------------------------------------------


def _no_cascade(bids, tie_resolution):  # type: ignore[no-untyped-def]
    """DACAPO-11 misread: a tied top cancels and nobody advances."""
    top = max(b for b in bids if b is not None)
    return bids.index(top) if bids.count(top) == 1 else None


PICTURED: tuple[Misreading, ...] = (
        Misreading(rule="DACAPO-11", slug="no-cascade",
                   description="a tied top bid means nobody advances",
                   replacements={"round_winner": _no_cascade}),
        Misreading(rule="DACAPO-14", slug="no-last-player-step",
                   description="the last player with beans keeps them",
                   replacements={"last_player_step": lambda table, seat: table}),
    )
"""Misreadings the rule book uses to find the step where a rule it pictures fires, for
the rules no other misreading of the catalogue covers yet."""


RARE: tuple[Rare, ...] = (
    Rare("losing-bids-returned", (("players", 4), ("tie_resolution", "two_level"))),
    Rare("last-step-one-too-many-to-box",
         (("players", 4), ("target_reached_when", "line_full"))),
    Rare("bids-above-reserve-listed", (("players", 5), ("tie_break", "beans_spent"))),
)
"""The mutants above that act only in a rare situation (a combination of player count and
options the corpus never plays): what an exploration must find beyond the corpus."""


CATALOGUE = Catalogue(misreadings=MISREADINGS, mutants=MUTANTS, unmutatable=UNMUTATABLE,
                      unnamed=UNNAMED, rare=RARE, pictured=PICTURED)
"""The one catalogue of da_capo's misreadings: the explanations, the kill matrix and the rule
book take theirs from it."""
