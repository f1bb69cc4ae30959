"""What the conformance suite knows of each Kopa rule, one entry a rule.

One ``RuleEntry`` (``copa_ref.conformance.entries``) per rule of ``specs/kopa.md``, in its
order: the parts of the public view it decides, the checks naming it (the ``round_start``
ladder compares a round's first mover and dealer, the ``round_end`` ladder where a round
ends), the ``Config`` options reading it, its wrong readings. ``at`` is an item's place in
its table (the view rules, a ladder, the readings, a catalogue list), which is the order
the runner names rules in. The tables the record uses (``VIEW_RULES``,
``diagnose``, ``READINGS``, ``CATALOGUE``) are built from ``RULES`` at the
end. The predicates and the findings that are searches are ``diagnosis.py``'s, the misread
functions ``misreadings.py``'s.
"""

from __future__ import annotations

from copa_ref.conformance.entries import Checked, Misread, Option, RuleEntry, ViewPart, view_parts
from copa_ref.conformance.kopa import diagnosis as diag
from copa_ref.conformance.kopa import misreadings as wrong
from copa_ref.conformance.ladder import Diagnosis, Ladder
from copa_ref.conformance.tables import (
    catalogue,
    ladder_checks,
    readings,
    view_rules,
)
from copa_ref.kopa.rules import next_dealer

__all__ = ["CATALOGUE", "READINGS", "ROUND_END", "ROUND_START", "RULES", "VIEW_RULES", "diagnose"]

RULES: tuple[RuleEntry, ...] = (
    RuleEntry(
        "KOPA-1",
        views=(ViewPart(at=21, part="public", says="every card is in exactly one place"),),
        misread=(Misread(mutant=1, slug="thirteen-per-suit",
                         description="the deck of the 1890s game: 1 to 13 per suit",
                         replacements={"DECK": wrong._thirteen_deck()}),),
    ),
    RuleEntry(
        "KOPA-2",
        misread=(Misread(mutant=2, slug="no-two-players", description="only 3 to 5 players",
                         replacements={"PLAYERS": (3, 4, 5)}),),
    ),
    RuleEntry(
        "KOPA-3",
        checks=(Checked(ladder="round_start", at=1, observable="public.dealer",
                        holds=diag._first_dealer,
                        says=lambda r: f"the engine's first dealer is seat {r.seen.dealer}"),),
        options=(Option(at=3, option="first_dealer", question="KOPA-Q9",
                        values=(None, 0, 1, 2, 3, 4)),),
        misread=(Misread(mutant=3, slug="seat-0-deals", description="seat 0 deals the first round",
                         replacements={"first_dealer": wrong._first_dealer_zero}),),
    ),
    RuleEntry(
        "KOPA-4",
        views=(ViewPart(at=17, part="public.hand_sizes", when=diag._dealt,
                        says="the cards are dealt evenly"),),
        misread=(Misread(mutant=4, slug="cards-aside-with-four",
                         description="four players get 14 each, four cards aside",
                         replacements={"deal_shape": wrong._four_aside}),),
    ),
    RuleEntry(
        "KOPA-5",
        views=(ViewPart(at=14, part="public.turn", when=diag._dealt,
                        says="the player to the dealer's left begins"),),
        checks=(Checked(ladder="round_start", at=3, observable="public.turn",
                        holds=diag._dealers_left_begins,
                        says=lambda r: f"the engine's dealer is seat {r.seen.dealer}, its first "
                                       f"player seat {r.seen.turn}: the dealer's left begins"),),
        misread=(Misread(mutant=5, slug="dealer-begins", description="the dealer begins the round",
                         replacements={"leader": wrong._dealer_begins}),),
    ),
    RuleEntry(
        "KOPA-6",
        views=view_parts({"public.turn": 15, "to_move": 19},
                         says="play proceeds clockwise, one turn each"),
        misread=(Misread(mutant=6, slug="counter-clockwise",
                         description="play proceeds counter-clockwise",
                         replacements={"next_seat": wrong._counter_clockwise}),),
    ),
    RuleEntry(
        "KOPA-7",
        views=(ViewPart(at=18, part="public.hand_sizes", says="a card played leaves the hand"),),
        misread=(Misread(mutant=7, slug="any-card",
                         description="a player may play a card from any hand",
                         replacements={"holds": wrong._holds_anything}),),
    ),
    RuleEntry(
        "KOPA-8",
        misread=(Misread(explains=1, mutant=8, slug="any-card-starts-a-pile",
                         description="a pile may be started with any card of its half of the suit "
                                     "(the worked example's 'Gules 2 … starting the Gules "
                                     "building-up sequence')",
                         replacements={"start_cards": wrong._any_start}),),
    ),
    RuleEntry(
        "KOPA-9",
        misread=(Misread(mutant=9, slug="up-to-six", description="an up-pile ends at its 6",
                         replacements={"next_up": wrong._up_to_six}),),
    ),
    RuleEntry(
        "KOPA-10",
        misread=(Misread(mutant=10, slug="down-to-ten", description="a down-pile ends at its 10",
                         replacements={"next_down": wrong._down_to_ten}),),
    ),
    RuleEntry(
        "KOPA-11",
        misread=(Misread(mutant=11, slug="any-suit",
                         description="a card builds on the next number of any suit's pile",
                         replacements={"pile_accepts": wrong._any_suit}),),
    ),
    RuleEntry(
        "KOPA-12",
        views=(
            ViewPart(at=2, part="public.piles",
                     says="a card goes on its own pile as the next number, nothing skipped"),
            ViewPart(at=20, part="legal",
                     says="the legal cards are each pile's next card (a 1 or 15 on an empty pile) "
                          "and each ready 8, and a pass"),
        ),
        misread=(Misread(mutant=12, slug="skipping-up",
                         description="an up-pile takes any higher number to 7",
                         replacements={"next_up": wrong._skipping_up}),),
    ),
    RuleEntry(
        "KOPA-13",
        views=(ViewPart(at=1, part="public.eights",
                        says="an 8 lies across its suit's 7 and 9, and only then"),),
        misread=(
            Misread(explains=2, mutant=13, slug="eight-on-seven-or-nine",
                    description="an 8 may be laid once its suit's 7 or its 9 is down, not both",
                    replacements={"eight_ready": wrong._eight_on_either}),
            Misread(pictured=1, slug="eight-never-laid",
                    description="an 8 is never laid: a suit's 7 and 9 stay open",
                    replacements={"eight_ready": wrong._eight_never_laid}),
        ),
    ),
    RuleEntry(
        "KOPA-14",
        misread=(Misread(mutant=14, slug="or-at-the-top",
                         description="the table is listed from Or to Sable",
                         replacements={"arrange": wrong._arranged_or_first}),),
    ),
    RuleEntry(
        "KOPA-15",
        views=(ViewPart(at=5, part="public.penalties",
                        says="a turn without a card costs one point; a card played costs "
                             "nothing"),),
        misread=(Misread(mutant=15, slug="free-pass", description="a pass costs nothing",
                         replacements={"failed_turn_penalty": wrong._free_pass}),),
    ),
    RuleEntry(
        "KOPA-16",
        views=(ViewPart(at=3, part="public.penalties", when=diag._false_pass,
                        says="a pass while a card was playable costs four more points"),),
        options=(Option(at=1, option="false_pass", question="KOPA-Q3"),),
        misread=(
            Misread(explains=3, mutant=16, slug="false-pass-costs-one",
                    description="a pass costs one point even when a card was playable (the +4 "
                                "only when someone 'later discovers' it)",
                    replacements={"false_claim_penalty": wrong._no_extra}),
            Misread(mutant=17, slug="false-claim-accepted",
                    description="a false claim is accepted at its price even under "
                                "false_pass=refused",
                    replacements={"pass_refused": wrong._claims_accepted}),
        ),
    ),
    RuleEntry(
        "KOPA-17",
        views=(ViewPart(at=16, part="public.hand_sizes",
                        when=lambda d: diag._dealt(d) and d.config.players == 2,
                        says="two players are dealt three hands of 20, the third the stock"),),
        misread=(Misread(mutant=18, slug="no-stock",
                         description="two players are dealt 30 each, no stock",
                         replacements={"deal_shape": wrong._no_stock}),),
    ),
    RuleEntry(
        "KOPA-18",
        views=(
            ViewPart(at=4, part="public.penalties", when=diag._draw,
                     says="a drawn card that is not played is kept for one point"),
            ViewPart(at=6, part="public.stock_size",
                     says="with two players a pass draws the stock's top card"),
        ),
        options=(Option(at=2, option="declined_draw", question="KOPA-Q6"),),
        misread=(Misread(mutant=19, slug="drawn-card-kept",
                         description="a drawn card is always kept, even when playable",
                         replacements={"offer_drawn": wrong._never_offered}),),
    ),
    RuleEntry(
        "KOPA-19",
        views=(ViewPart(at=9, part="public.phase", when=diag._round_ended,
                        says="the round ends the moment a hand is empty, and only then"),),
        checks=(
            Checked(ladder="round_end", at=1, observable="public.phase",
                    holds=diag._play_empties_hand,
                    says=lambda r: f"seat {diag._play(r).seat}'s play of {diag._play(r).card} "
                                   "empties its hand; the engine goes on with the round"),
            Checked(ladder="round_end", at=2, observable="public.phase",
                    holds=diag._round_ended_early,
                    says=lambda r: f"the engine ends the round after seat {diag._play(r).seat}'s "
                                   f"{diag._play(r).card}, with "
                                   f"{len(r.want.hands[diag._play(r).seat])} cards still in its "
                                   "hand"),
        ),
        misread=(Misread(mutant=20, slug="last-card-ends",
                         description="the round ends when a player is down to one card",
                         replacements={"round_over": wrong._one_card_left}),),
    ),
    RuleEntry(
        "KOPA-20",
        views=view_parts({"public.scores": 10, "public.last_round": 11},
                         says="the winner gains one point per card in the other hands; penalties "
                              "are subtracted"),
        misread=(
            Misread(explains=4, mutant=22, slug="stock-scored",
                    description="the round's winner also scores the cards left in the two-player "
                                "stock",
                    replacements={"round_changes": wrong._stock_scored}),
            Misread(mutant=21, slug="penalties-not-subtracted",
                    description="penalty points are not subtracted",
                    replacements={"round_changes": wrong._penalties_kept}),
        ),
    ),
    RuleEntry(
        "KOPA-21",
        views=(
            ViewPart(at=12, part="public.dealer", says="the deal passes clockwise"),
            ViewPart(at=13, part="public.round", says="a new round follows a scored round"),
        ),
        checks=(Checked(ladder="round_start", at=2, observable="public.dealer",
                        holds=diag._next_dealer,
                        says=lambda r: f"seat {r.d.before.dealer} dealt the last round; the "
                                       f"engine's next dealer is seat {r.seen.dealer}, not seat "
                                       f"{next_dealer(r.d.before.dealer, r.players)}"),),
        misread=(Misread(mutant=23, slug="same-dealer", description="the same seat deals every "
                                                                    "round",
                         replacements={"next_dealer": wrong._same_dealer}),),
    ),
    RuleEntry(
        "KOPA-22",
        views=(
            ViewPart(at=7, part="public.phase", when=diag._over,
                     says="the match ends when a seat reaches the target"),
            ViewPart(at=8, part="outcome", says="the seat that reached the target wins"),
        ),
        misread=(Misread(mutant=24, slug="beyond-the-target",
                         description="the match ends only above the target",
                         replacements={"match_over": wrong._beyond_target}),),
    ),
)
"""What the suite knows of each Kopa rule."""


# -- The tables built from the entries ------------------------------------------------------

VIEW_RULES = view_rules(RULES)
"""Which rule decides which part of Kopa's public view, most specific first."""

ROUND_START: Ladder[diag.RoundStep] = Ladder(context=diag._round_start,
                                        checks=ladder_checks(RULES, "round_start"))
"""At a round's start, the engine's first mover and dealer against its own reports: the
dealer is the first dealer (KOPA-3) or the previous one's left (KOPA-21); the first mover
is its dealer's left (KOPA-5)."""

ROUND_END: Ladder[diag.RoundStep] = Ladder(context=diag._round_end,
                                      checks=ladder_checks(RULES, "round_end"))
"""A play ends the round exactly when it empties the hand (KOPA-19)."""

diagnose = Diagnosis((ROUND_START, ROUND_END, diag.play_findings))
"""Kopa's own findings, re-derived from what the engine reported: the round's start and
end, then the pass's draw and price, the piles and the 8s, the legal cards, the round's
scores (:func:`~.diagnosis.play_findings`)."""

READINGS = readings(RULES)
"""The ``Config`` options that implement readings of the register."""

CATALOGUE = catalogue(RULES, unnamed=wrong.UNNAMED, rare=wrong.RARE, vacuous=wrong.VACUOUS)
"""The one catalogue of Kopa's misreadings, built from the entries: the explanations,
the kill matrix and the rule book take theirs from it."""
