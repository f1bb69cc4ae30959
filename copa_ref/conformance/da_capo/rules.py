"""What the conformance suite knows of each DA CAPO rule, one entry a rule.

One ``RuleEntry`` (``copa_ref.conformance.entries``) per rule of ``specs/da_capo.md``, in
its order: the parts of the view it decides, the checks naming it (the ``round`` ladder
re-derives the round from the reported bids and winner, the ``raw_winner`` ladder the
winner of a view that does not decode), the ``Config`` options reading it, its wrong
readings. ``at`` is an item's place in its table (the view rules, a ladder, the readings, a
catalogue list), which is the order the runner names rules in; the round ladder's two stops
are placed among its checks at the end. The tables the record uses (``VIEW_RULES``,
``diagnose``, ``READINGS``, ``CATALOGUE``) are built from ``RULES`` there.
The predicates are ``diagnosis.py``'s, the misread functions ``misreadings.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable

from copa_ref.conformance.da_capo import diagnosis as diag
from copa_ref.conformance.da_capo import misreadings as wrong
from copa_ref.conformance.entries import Checked, Misread, Option, RuleEntry, ViewPart
from copa_ref.conformance.ladder import Diagnosis, Ladder, Stop
from copa_ref.conformance.predicates import at_start
from copa_ref.conformance.tables import (
    catalogue,
    ladder_checks,
    readings,
    view_rules,
)

__all__ = ["CATALOGUE", "RAW_WINNER", "READINGS", "ROUND", "RULES", "VIEW_RULES", "diagnose"]


def _who_advances(*, raw_at: int, raw: Callable[[diag.RawWinner], bool], at: int,
                  holds: Callable[[diag.Round], bool]) -> tuple[Checked, Checked]:
    """The two checks of ``public.rounds.winner`` by a rule that decides who advances
    (DACAPO-9, DACAPO-11, DACAPO-12): *raw* on the winner read from the reported JSON, at
    place *raw_at* of the ``raw_winner`` ladder, and *holds* on the round re-derived from
    the reported bids, at place *at* of the ``round`` ladder."""
    return (Checked(ladder="raw_winner", at=raw_at, observable="public.rounds.winner",
                    holds=raw, says=diag._raw_says),
            Checked(ladder="round", at=at, observable="public.rounds.winner", holds=holds,
                    says=diag._winner_has))


RULES: tuple[RuleEntry, ...] = (
    RuleEntry(
        "DACAPO-1",
        misread=(Misread(mutant=8, slug="three-to-five-players",
                         description="DA CAPO is for three to five players",
                         replacements={"MIN_PLAYERS": 3}),),
    ),
    RuleEntry(
        "DACAPO-2",
        views=(
            ViewPart(at=1, part="public.lines", when=at_start,
                     says="each player's line of cups (4 cups with 2-3 players, 3 with 4-5), "
                          "empty"),
            ViewPart(at=2, part="public.target", when=at_start, says="the target cup starts "
                                                                     "empty"),
        ),
        misread=(Misread(mutant=9, slug="four-cups-with-four-players",
                         description="lines of 4 cups with up to four players, 3 only with five",
                         replacements={"line_length": wrong._four_cups_up_to_four}),),
    ),
    RuleEntry(
        "DACAPO-3",
        views=(
            ViewPart(at=3, part="public", when=at_start,
                     says="sixteen beans in each player's hand, none in the box"),
            ViewPart(at=19, part="public", says="the beans are conserved"),
        ),
        misread=(Misread(mutant=10, slug="fifteen-beans",
                         description="every reserve starts with 15 beans",
                         replacements={"START_BEANS": 15}),),
    ),
    RuleEntry(
        "DACAPO-4",
        views=(ViewPart(at=4, part="to_move", when=at_start,
                        says="a round is simultaneous: every player bids at once"),),
        misread=(Misread(mutant=11, slug="lone-bid-played",
                         description="a lone bid is played as a round (the others bid 1)",
                         replacements={"apply": wrong._lone_bid_played}),),
    ),
    RuleEntry(
        "DACAPO-5",
        misread=(Misread(explains=1, mutant=1, slug="null-bid-sits-out",
                         description="a seat that still has beans may sit a round out with a null "
                                     "bid",
                         replacements={"_check_bids": wrong._null_bid_sits_out}),),
    ),
    RuleEntry(
        "DACAPO-6",
        views=(ViewPart(at=18, part="legal", says="a bid is 1 to 5 beans"),),
        misread=(Misread(mutant=12, slug="bid-of-zero",
                         description="a bid of 0 beans (a pass) is allowed",
                         replacements={"MAX_BID": 5, "_BIDS": wrong._bids_table(0, cap=True)}),),
    ),
    RuleEntry(
        "DACAPO-7",
        views=(ViewPart(at=14, part="public.reserves", says="a bid comes from the bidder's "
                                                            "reserve"),),
        checks=(Checked(ladder="round", at=10, observable="public.reserves", holds=diag._reserve,
                        says=lambda r: f"seat {r.reserve_wrong} bid "
                                       f"{r.bids[r.reserve_wrong or 0]} from a reserve of "
                                       f"{r.before.reserves[r.reserve_wrong or 0]}: "
                                       f"{r.settled[0][r.reserve_wrong or 0]} left; the engine "
                                       f"has {r.seen.reserves[r.reserve_wrong or 0]}"),),
        misread=(Misread(explains=2, mutant=2, slug="bids-above-reserve-listed",
                         description="every bid of 1 to 5 is listed as legal, even above the "
                                     "reserve",
                         replacements={"_BIDS": wrong._bids_table(1, cap=False)}),),
    ),
    RuleEntry(
        "DACAPO-8",
        views=(ViewPart(at=15, part="public.rounds", says="the bids are revealed together"),),
        checks=(
            Checked(ladder="round", at=1, observable="public.rounds", holds=diag._rounds_recorded,
                    says=lambda r: "the round's bids are revealed and recorded: the engine "
                                   f"records {len(r.seen.rounds)} rounds, not {r.done + 1}"),
            Checked(ladder="round", at=3, observable="public.rounds.bids",
                    holds=diag._bids_revealed,
                    says=lambda r: f"the bids revealed are {list(r.bids)}; the engine records "
                                   f"{list(r.seen.rounds[-1].bids)}"),
        ),
        misread=(Misread(mutant=13, slug="only-the-winning-bid-revealed",
                         description="only the winning bid is revealed; the others stay secret",
                         replacements={"apply": wrong._only_winner_revealed}),),
    ),
    RuleEntry(
        "DACAPO-9",
        views=(
            ViewPart(at=8, part="public.rounds.winner", says="the single highest bid advances"),
            ViewPart(at=12, part="public.lines",
                     says="the winning bid fills the winner's next empty cup"),
        ),
        checks=(
            *_who_advances(raw_at=3, raw=diag._raw_highest, at=6, holds=diag._highest_advances),
            Checked(ladder="round", at=12, observable="public.lines", holds=diag._into_line,
                    says=diag._line_says),
        ),
        misread=(Misread(mutant=14, slug="winner-puts-one-bean",
                         description="the winner puts one bean into his cup and the rest to the "
                                     "box",
                         replacements={"settle_round": wrong._winner_keeps_one}),),
    ),
    RuleEntry(
        "DACAPO-10",
        views=(ViewPart(at=13, part="public.box", says="the other bids go to the box"),),
        checks=(
            Checked(ladder="round", at=9, observable="public.reserves", holds=diag._returned_losers,
                    says=diag._returned_says),
            Checked(ladder="round", at=15, observable="public.box", holds=diag._box,
                    says=lambda r: "the bids that do not advance go to the box: box "
                                   f"{r.settled[3]}; the engine has {r.seen.box}"),
        ),
        misread=(Misread(explains=3, mutant=3, slug="losing-bids-returned",
                         description="the bids that lose to the winner go back to their bidders, "
                                     "not to the box",
                         replacements={"settle_round": wrong._losing_bids_returned}),),
    ),
    RuleEntry(
        "DACAPO-11",
        views=(ViewPart(at=6, part="public.rounds.winner", when=diag._tied_top,
                        says="tied bids cancel; the next level down bid by one player advances"),),
        checks=_who_advances(raw_at=1, raw=diag._raw_tied, at=4, holds=diag._tied_cancel),
        options=(Option(at=1, option="tie_resolution", question="DACAPO-Q3"),),
        misread=(
            Misread(explains=4, mutant=4, pictured=1, slug="tied-top-nobody-advances",
                    description="a tied highest bid means nobody advances (no cascade down)",
                    replacements={"round_winner": wrong._top_tie_nobody}),
        ),
    ),
    RuleEntry(
        "DACAPO-12",
        views=(ViewPart(at=7, part="public.rounds.winner", when=diag._nobody,
                        says="with no single highest bid nobody advances"),),
        checks=(
            *_who_advances(raw_at=2, raw=diag._raw_nobody, at=5, holds=diag._nobody_advances),
            Checked(ladder="round", at=8, observable="public.reserves", holds=diag._returned_nobody,
                    says=diag._returned_says),
        ),
        misread=(Misread(mutant=15, slug="void-round-returned",
                         description="a round nobody wins is void: the beans go back to the "
                                     "bidders",
                         replacements={"settle_round": wrong._void_round_returned}),),
    ),
    RuleEntry(
        "DACAPO-13",
        views=(ViewPart(at=17, part="to_move",
                        says="a player with no beans is out; every other player bids"),),
        misread=(
            Misread(mutant=16, slug="out-seat-bid-ignored",
                    description="a bid for a seat without beans is ignored instead of refused",
                    replacements={"apply": wrong._out_seat_bid_ignored}),
            Misread(mutant=17, slug="out-seat-still-to-move",
                    description="a seat without beans is still among the seats to move",
                    replacements={"active_seats": wrong._out_seat_still_moves}),
        ),
    ),
    RuleEntry(
        "DACAPO-14",
        views=(ViewPart(at=5, part="public", when=diag._last_step,
                        says="the last player with beans puts one into his next cup, the rest "
                             "into the box"),),
        checks=(
            Checked(ladder="round", at=13, observable="public.last_step",
                    holds=diag._last_step_wrong, says=diag._last_step_says),
            Checked(ladder="round", at=14, observable="public.last_step", holds=diag._no_last_step,
                    says=lambda r: f"{len(r.left)} seats still hold beans: no last-player step"),
        ),
        misread=(
            Misread(explains=5, mutant=5, slug="last-step-one-too-many-to-box",
                    description="in the last-player step every bean he held goes to the box, as "
                                "well as one into his cup",
                    replacements={"last_player_step": wrong._last_step_all_to_box}),
            Misread(pictured=2, slug="no-last-player-step",
                    description="the last player with beans keeps them",
                    replacements={"last_player_step": lambda table, seat: table}),
        ),
    ),
    RuleEntry(
        "DACAPO-15",
        views=(
            ViewPart(at=9, part="public.finisher",
                     says="an advance into the target cup wins at once"),
            ViewPart(at=10, part="public.target",
                     says="the advance after a full line puts the beans into the target cup"),
            ViewPart(at=11, part="public.lines", when=diag._ended,
                     says="an advance into the target cup wins at once"),
        ),
        checks=(
            Checked(ladder="round", at=11, observable="public.lines", holds=diag._into_target,
                    says=diag._line_says),
            Checked(ladder="round", at=16, observable="public.target", holds=diag._target,
                    says=lambda r: f"the target cup holds {r.settled[2]}; the engine has "
                                   f"{r.seen.target}"),
            Checked(ladder="round", at=17, observable="public.finisher", holds=diag._finished,
                    says=lambda r: "reaching the target cup wins at once: the finisher is "
                                   f"{r.d.expected.finisher}; the engine has {r.seen.finisher}"),
        ),
        options=(Option(at=2, option="target_reached_when", question="DACAPO-Q4"),),
        misread=(
            Misread(mutant=18, slug="last-step-cannot-finish",
                    description="the last-player step into the target cup does not win at once",
                    replacements={"apply": wrong._last_step_cannot_finish}),
            Misread(mutant=19, slug="target-cup-always",
                    description="the target cup must be filled even under target_reached_when="
                                "line_full",
                    replacements={"_reach": wrong._target_cup_always}),
            Misread(mutant=21, slug="full-line-reaches-target",
                    description="filling the last cup of the line already reaches the target",
                    replacements={"_reach": wrong._reach_line_full}),
        ),
    ),
    RuleEntry(
        "DACAPO-16",
        views=(ViewPart(at=16, part="outcome",
                        says="when every reserve is used up the furthest advance wins"),),
        misread=(
            Misread(explains=6, mutant=6, slug="advance-counted-in-beans",
                    description="the furthest advance is counted in beans in the cups, not in "
                                "cups",
                    replacements={"advance": wrong._advance_by_beans}),
            Misread(mutant=20, slug="fewest-beans-wins",
                    description="with every reserve used up and one seat furthest ahead, the "
                                "fewest beans in the cups win all the same",
                    replacements={"outcome": wrong._fewest_beans_wins}),
        ),
    ),
    RuleEntry(
        "DACAPO-17",
        options=(Option(at=3, option="tie_break", question="DACAPO-Q6"),),
        misread=(Misread(explains=7, mutant=7, slug="most-beans-wins-tie",
                         description="at equal advance the seat with the most beans in its cups "
                                     "wins",
                         replacements={"outcome": wrong._most_beans_wins_tie}),),
    ),
)
"""What the suite knows of each DA CAPO rule."""


# -- The tables built from the entries ------------------------------------------------------

VIEW_RULES = view_rules(RULES)
"""Which rule decides which part of DA CAPO's public view (the whole state, DACAPO-8), most
specific first: the bean conservation of DACAPO-3 last."""

ROUND: Ladder[diag.Round] = Ladder(context=diag._round, checks=ladder_checks(RULES, "round", stops={
    2: Stop(holds=diag._shape_differs, why="the reserves or lines are not one a seat"),
    7: Stop(holds=diag._winner_not_a_bidder, why="the beans are settled from the engine's winner"),
}))
"""The round's record and the beans it moves, re-derived from the reported winner."""

RAW_WINNER: Ladder[diag.RawWinner] = Ladder(context=diag._raw_round,
                                       checks=ladder_checks(RULES, "raw_winner"))
"""The round's winner read from the reported JSON itself, for a view that does not decode
(a winner that is no seat, say both tied seats): a wrong winner is named by the rule that
decides who advances (tied top bids cancel, DACAPO-11; no single highest bid, DACAPO-12;
the single highest bid, DACAPO-9), before the generic P-8 of an undecodable view."""

diagnose = Diagnosis((ROUND, RAW_WINNER, diag.outcome_findings))
"""DA CAPO's own findings: the round re-derived from the reported bids and winner (who
advances, the reserves, the lines, the box, the last-player step, the finisher) or, for a
view that does not decode, its winner from the JSON; then a differing outcome named by the
rule that decides it."""

READINGS = readings(RULES)
"""The ``Config`` options that implement readings of the register."""

CATALOGUE = catalogue(RULES, unnamed=wrong.UNNAMED, rare=wrong.RARE)
"""The one catalogue of DA CAPO's misreadings, built from the entries: the explanations,
the kill matrix and the rule book take theirs from it."""
