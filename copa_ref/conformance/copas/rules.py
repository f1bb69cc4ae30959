"""What the conformance suite knows of each Copas rule, one entry a rule.

One ``RuleEntry`` (``copa_ref.conformance.entries``) per rule of ``specs/copas.md``, in its
order: the parts of the public view it decides, the checks naming it (the ``trick`` ladder
re-derives a finished trick from its cards, the ``round`` ladder the end of a round and its
booking, the ``legal`` ladder the cards the engine leaves out), the ``Config`` options
reading it, its wrong readings and why it has none. ``at`` is an item's place in its table
(the view rules, a ladder, the readings, a catalogue list), which is the order the runner
names rules in; the round ladder's three stops are placed among its checks at the end. The
tables the record uses (``VIEW_RULES``, ``diagnose``, ``READINGS``,
``CATALOGUE``) are built from ``RULES`` there. The predicates and the findings that
are searches are ``diagnosis.py``'s, the misread functions ``misreadings.py``'s.
"""

from __future__ import annotations

from copa_ref.conformance.copas import diagnosis as diag
from copa_ref.conformance.copas import misreadings as wrong
from copa_ref.conformance.entries import Checked, Misread, Option, RuleEntry, ViewPart, view_parts
from copa_ref.conformance.ladder import Diagnosis, Ladder, Stop
from copa_ref.conformance.predicates import at_start
from copa_ref.conformance.tables import (
    catalogue,
    ladder_checks,
    readings,
    view_rules,
)
from copa_ref.copas import rules as _rules
from copa_ref.copas.rules import BURST
from copa_ref.copas.state import Card, Suit

__all__ = ["CATALOGUE", "LEGAL", "READINGS", "ROUND", "RULES", "TRICK", "VIEW_RULES", "diagnose"]

RULES: tuple[RuleEntry, ...] = (
    RuleEntry(
        "COPAS-1",
        unmutatable="the 40 cards are the card encoding itself (P-12): a card that does not exist "
                    "cannot be decoded, and a card missing or dealt twice is the deal's rule "
                    "(COPAS-6)",
    ),
    RuleEntry(
        "COPAS-2",
        checks=(Checked(ladder="trick", at=1, observable="public.tricks.winner",
                        holds=diag._beaten_in_suit, go_on=True,
                        says=lambda t: f"trick {t.number}: {t.best} beats {t.given} in the "
                                       f"{'plain' if t.plain else 'printed'} order of the cards, "
                                       f"but the engine gives the trick to seat {t.trick.winner}, "
                                       f"not seat {t.right}"),),
        options=(Option(at=1, option="rank_order", question="COPAS-Q1"),),
        misread=(
            Misread(explains=1, mutant=1, slug="queen-above-jack",
                    description="the queen ranks above the jack (the order of most decks), not "
                                "below it as printed",
                    replacements={"strength": wrong._queen_above_jack}),
            Misread(mutant=12, slug="plain-keeps-queen-below-jack",
                    description="under rank_order=plain the queen stays below the jack",
                    replacements={"strength": wrong._plain_keeps_queen_below_jack}),
            Misread(pictured=1, slug="plain-order",
                    description="the plain order (Q above J, 7 below J)",
                    replacements={"strength": lambda card, plain: card.plain}),
        ),
    ),
    RuleEntry(
        "COPAS-3",
        checks=(
            Checked(ladder="round", at=1, observable="public.phase", holds=diag._ends_on_suit,
                    go_on=True,
                    says=lambda r: diag._penalty_suit_finding(
                        r.suit_ending or Suit.COPAS,
                        "ends the round when all of them are out, and books").message),
            Checked(ladder="round", at=2, observable="public.phase", holds=diag._ends_on_card,
                    go_on=True,
                    says=lambda r: diag._penalty_card_finding(
                        r.card_ending,
                        "ends the round when ten penalty cards are out, and books").message),
            Checked(ladder="round", at=8, observable="public.last_round", holds=diag._books_suit,
                    says=lambda r: diag._penalty_suit_finding(r.suit_booked or Suit.COPAS,
                                                         "books").message),
            Checked(ladder="round", at=9, observable="public.last_round", holds=diag._books_card,
                    says=lambda r: diag._penalty_card_finding(r.card_booked, "books").message),
        ),
        misread=(
            Misread(mutant=14, slug="ouros-are-the-penalty-suit",
                    description="the ouros, not the copas, are the penalty cards",
                    replacements={"_COPAS": Suit.OUROS}),
            Misread(mutant=17, slug="queen-of-espadas-counts",
                    description="the queen of espadas is a penalty card too, worth one point",
                    replacements={"copas_taken": wrong._queen_of_spades_counts}),
        ),
    ),
    RuleEntry(
        "COPAS-4",
        misread=(
            Misread(explains=2, mutant=2, slug="three-players-keep-two-of-clubs",
                    description="with three players the two of clubs stays in the deck",
                    replacements={"_deal": wrong._keeps_two_of_clubs}),
            Misread(mutant=13, slug="three-players-without-two-of-ouros",
                    description="with three players the two of ouros is left out, not the two of "
                                "clubs",
                    replacements={"left_out": wrong._two_of_ouros_left_out,
                                  "_DECK_3": tuple(c for c in _rules.DECK
                                                   if c is not Card.C2o)}),
        ),
    ),
    RuleEntry(
        "COPAS-5",
        views=(ViewPart(at=1, part="public.dealer", when=at_start,
                        says="the first dealer is the seat the config names"),),
        options=(Option(at=7, option="first_dealer", question="COPAS-Q8", values=(0, 1, 2, 3, 4)),),
        misread=(Misread(explains=3, mutant=3, slug="first-dealer-always-seat-0",
                         description="the first round is always dealt by seat 0, whatever "
                                     "first_dealer says",
                         replacements={"new_game": wrong._first_dealer_ignored}),),
    ),
    RuleEntry(
        "COPAS-6",
        views=(
            ViewPart(at=3, part="public.hand_sizes", when=diag._dealt,
                     says="every seat is dealt 13, 10 or 8 cards"),
            ViewPart(at=4, part="public.phase", when=diag._dealt,
                     says="the deal starts the round's play"),
            ViewPart(at=19, part="public.hand_sizes", says="every seat is dealt a hand"),
        ),
        misread=(Misread(mutant=15, slug="deal-unchecked",
                         description="a deal of unequal hands, or with a card twice, is dealt",
                         replacements={"_deal": wrong._accepting_deal("COPAS-6")}),),
    ),
    RuleEntry(
        "COPAS-7",
        views=(ViewPart(at=17, part="public.dealer",
                        says="the player to the dealer's right deals the next round"),),
        checks=(Checked(ladder="round", at=16, observable="public.dealer", holds=diag._next_dealer,
                        says=lambda r: f"seat {r.dealer} deals round {r.d.before.round + 1}; the "
                                       f"engine has seat {r.seen.dealer} deal round "
                                       f"{r.seen.round}"),),
        misread=(
            Misread(mutant=16, slug="dealer-rotates-left",
                    description="the next dealer is the player to the dealer's left",
                    replacements={"next_dealer": wrong._dealer_rotates_left}),
            Misread(mutant=18, slug="bonus-round-keeps-dealer",
                    description="after a bonus round the same dealer deals again",
                    replacements={"_end_round": wrong._bonus_round_keeps_dealer}),
        ),
    ),
    RuleEntry(
        "COPAS-8",
        views=(
            ViewPart(at=2, part="public.leader", when=at_start,
                     says="the shuffler, the dealer's right, leads the first trick"),
            *view_parts({"public.leader": 5, "to_move": 6}, when=diag._dealt,
                        says="the shuffler, the dealer's right, leads the first trick"),
            ViewPart(at=18, part="public.leader", when=diag._first_trick,
                     says="the shuffler leads the first trick of a round"),
        ),
        checks=(Checked(ladder="round", at=17, observable="public.leader", holds=diag._next_leader,
                        says=lambda r: f"seat {(r.dealer + 1) % r.players} leads the first trick; "
                                       f"the engine has seat {r.seen.leader}"),),
        misread=(Misread(explains=4, mutant=4, slug="dealer-leads",
                         description="the dealer leads the first trick, not the shuffler to his "
                                     "right",
                         replacements={"first_leader": wrong._dealer_leads}),),
    ),
    RuleEntry(
        "COPAS-9",
        views=(ViewPart(at=21, part="to_move",
                        says="counter-clockwise, one card each, starting with the leader"),),
        misread=(Misread(explains=5, mutant=5, slug="clockwise",
                         description="play runs clockwise (seat - 1), not counter-clockwise",
                         replacements={"seat_at": wrong._clockwise}),),
    ),
    RuleEntry(
        "COPAS-10",
        views=(ViewPart(at=20, part="public.trick", says="the card played joins the trick"),),
        misread=(Misread(mutant=19, slug="card-not-held",
                         description="a seat may play a card it does not hold",
                         replacements={"_play": wrong._play_any_card}),),
    ),
    RuleEntry(
        "COPAS-11",
        views=(ViewPart(at=22, part="legal", says="a seat follows suit when it can"),),
        checks=(Checked(ladder="legal", at=2, observable="legal", holds=diag._holds_led_suit,
                        says=lambda m: f"seat {m.mover} follows suit with any card of the led "
                                       f"suit: the engine leaves out {m.missing} of them"),),
        misread=(Misread(mutant=20, slug="revoke-allowed",
                         description="a seat holding the led suit may play another suit",
                         replacements={"legal_cards": wrong._revoke}),),
    ),
    RuleEntry(
        "COPAS-12",
        checks=(Checked(ladder="legal", at=3, observable="legal", holds=diag._void_in_led_suit,
                        says=lambda m: f"seat {m.mover} holds no card of the led suit and may "
                                       f"discard any card: the engine leaves out {m.missing}"),),
        misread=(Misread(mutant=21, slug="void-must-discard-copa",
                         description="a seat void in the led suit must discard a copa if it holds "
                                     "one",
                         replacements={"legal_cards": wrong._void_discards_copa}),),
    ),
    RuleEntry(
        "COPAS-13",
        views=(
            ViewPart(at=7, part="public.tricks.winner",
                     says="the highest card of the led suit takes the trick"),
            ViewPart(at=16, part="public.leader", when=diag._trick_done,
                     says="the trick's winner leads the next trick"),
        ),
        checks=(
            Checked(ladder="trick", at=2, observable="public.tricks.winner",
                    holds=diag._wrong_winner,
                    says=lambda t: f"trick {t.number} ({' '.join(map(str, t.trick.cards))}): the "
                                   f"highest card of the led suit is {t.best} (seat {t.right}); "
                                   f"the engine gives it to seat {t.trick.winner}"),
            Checked(ladder="trick", at=3, observable="public.leader",
                    holds=diag._winner_does_not_lead,
                    says=lambda t: f"seat {t.trick.winner} took trick {t.number} and leads the "
                                   f"next; the engine has seat {t.seen.leader} lead"),
        ),
        misread=(
            Misread(explains=6, mutant=6, pictured=2, slug="discard-can-win",
                    description="the highest card of any suit takes the trick",
                    replacements={"trick_winner": wrong._discard_can_win}),
        ),
    ),
    RuleEntry(
        "COPAS-14",
        views=(ViewPart(at=10, part="public.phase", when=diag._round_ended,
                        says="a round is played out: it ends when every card is played"),),
        checks=(
            Checked(ladder="round", at=3, observable="public.phase", holds=diag._ends_early,
                    says=lambda r: "a round is played out: the engine ends it with "
                                   f"{sum(len(h) for h in r.d.expected.hands)} cards still in the "
                                   "hands"),
            Checked(ladder="round", at=4, observable="public.phase", holds=diag._plays_on,
                    says=lambda r: "every card is played: the round ends here, and the engine "
                                   "plays on"),
        ),
        options=(Option(at=3, option="end_when_copas_out", question="COPAS-Q4"),),
        misread=(
            Misread(mutant=22, slug="hand-ends-when-copas-out",
                    description="a round ends as soon as all ten copas are out",
                    replacements={"round_over": wrong._ends_when_copas_out}),
            Misread(mutant=24, slug="end-when-copas-out-ignored",
                    description="the round is played out even under end_when_copas_out",
                    replacements={"round_over": wrong._house_end_ignored}),
        ),
    ),
    RuleEntry(
        "COPAS-15",
        checks=(Checked(ladder="legal", at=1, observable="legal", holds=diag._a_lead,
                        says=lambda m: "any card may be led "
                                       f"(copas_lead={m.d.config.copas_lead.value}): the engine "
                                       f"leaves out {m.missing} of seat {m.mover}'s cards"),),
        options=(Option(at=2, option="copas_lead", question="COPAS-Q4"),),
        misread=(
            Misread(mutant=23, slug="copas-must-be-broken",
                    description="no copa may be led before one has been played (as in Hearts)",
                    replacements={"_lead_cards": wrong._copas_lead_broken}),
            Misread(mutant=25, slug="copas-lead-broken-ignored",
                    description="copas may be led at once even under copas_lead=broken",
                    replacements={"_lead_cards": wrong._house_lead_ignored}),
        ),
    ),
    RuleEntry(
        "COPAS-16",
        views=view_parts({"public.scores": 14, "public.last_round": 15}, when=diag._round_ended,
                         says="each seat books one minus point per copa taken"),
        checks=(
            Checked(ladder="round", at=13, observable="public.last_round",
                    holds=diag._booked_otherwise,
                    says=lambda r: f"one minus point per copa taken: {r.text}"),
            Checked(ladder="round", at=14, observable="public.scores", holds=diag._scores_added,
                    says=lambda r: f"the booked points add up to {list(r.added)}; the engine has "
                                   f"{list(r.seen.scores)}"),
        ),
        misread=(Misread(mutant=27, slug="copas-to-the-leader",
                         description="a trick's copas are booked to the seat that led it",
                         replacements={"copas_taken": wrong._copas_to_leader}),),
    ),
    RuleEntry(
        "COPAS-17",
        views=(ViewPart(at=11, part="public.pending",
                        says="a seat that takes all ten copas books nothing; its bonus round "
                             "follows"),),
        checks=(Checked(ladder="round", at=12, observable="public.pending", holds=diag._all_ten,
                        go_on=True,
                        says=lambda r: f"seat {r.ten} took all ten copas: {r.text}"),),
        options=(Option(at=4, option="bonus_other_ten", question="COPAS-Q5"),),
        misread=(
            Misread(explains=7, mutant=7, slug="ten-copas-booked",
                    description="all ten copas are booked like any others: no bonus round",
                    replacements={"round_points": wrong._no_bonus_round}),
            Misread(mutant=28, slug="other-ten-booked",
                    description="another seat's ten copas in a bonus round are booked, even under "
                                "bonus_other_ten=new_bonus",
                    replacements={"round_points": wrong._points(wrong._other_ten_booked)}),
            Misread(mutant=29, slug="other-ten-new-bonus",
                    description="another seat's ten copas in a bonus round give a new bonus "
                                "round, even under bonus_other_ten=book",
                    replacements={"round_points": wrong._points(wrong._other_ten_new_bonus)}),
            Misread(pictured=3, slug="ten-booked",
                    description="all ten copas are booked at once, with no bonus round",
                    replacements={"round_points": wrong._ten_booked}),
        ),
    ),
    RuleEntry(
        "COPAS-18",
        views=view_parts({"public.scores": 12, "public.last_round": 13},
                         when=diag._pending_involved,
                         says="the bonus round erases the pending ten or books them"),
        checks=(Checked(ladder="round", at=11, observable="public.last_round",
                        holds=diag._bonus_round,
                        go_on=True, says=lambda r: f"the bonus round of seat {r.pending}: "
                                                   f"{r.text}"),),
        options=(Option(at=6, option="bonus_all_cards", question="COPAS-Q14"),),
        misread=(
            Misread(mutant=30, slug="bonus-lost-books-only-its-copas",
                    description="a pending seat that takes copas in its bonus round books only "
                                "them, not 10 more",
                    replacements={"round_points":
                                  wrong._points(wrong._pending_books_only_its_copas)}),
            Misread(mutant=31, slug="bonus-never-erased",
                    description="a pending seat that takes no copas in its bonus round still "
                                "books its ten",
                    replacements={"round_points":
                                  wrong._points(wrong._pending_never_erased)}),
            Misread(mutant=32, slug="ten-again-new-bonus",
                    description="a pending seat taking all ten copas again gets another bonus "
                                "round instead of 20",
                    replacements={"round_points":
                                  wrong._points(wrong._pending_ten_again_new_bonus)}),
        ),
    ),
    RuleEntry(
        "COPAS-19",
        checks=(Checked(ladder="round", at=10, observable="public.last_round",
                        holds=diag._every_trick,
                        go_on=True, says=lambda r: f"seat {r.taker} took every trick: {r.text}"),),
        options=(Option(at=5, option="all_cards", question="COPAS-Q6"),),
        misread=(
            Misread(explains=8, mutant=8, slug="no-all-cards-rule",
                    description="a seat taking every trick books its copas like any other round",
                    replacements={"round_points": wrong._no_all_cards}),
            Misread(pictured=4, slug="no-all-cards-rule",
                    description="taking every trick is no special case",
                    replacements={"_all_cards_taker": wrong._no_all_cards_taker}),
        ),
    ),
    RuleEntry(
        "COPAS-20",
        views=(ViewPart(at=8, part="public.phase", when=diag._over,
                        says="a seat at 51 or more minus points bursts and the match ends"),),
        checks=(Checked(ladder="round", at=15, observable="public.phase", holds=diag._burst,
                        says=lambda r: f"the match ends when a seat reaches {BURST}: the highest "
                                       f"score is {max(r.seen.scores)}, and the engine "
                                       f"{'ends' if max(r.seen.scores) < BURST else 'goes on with'}"
                                       " the match"),),
        misread=(
            Misread(explains=9, mutant=9, slug="burst-at-30",
                    description="the match ends when a seat reaches 30 minus points",
                    replacements={"BURST": 30}),
            Misread(explains=10, mutant=10, slug="burst-at-50",
                    description="a seat bursts at 50 minus points, not 51",
                    replacements={"BURST": 50}),
            Misread(mutant=26, slug="burst-above-51",
                    description="a seat bursts above 51 minus points, not at 51",
                    replacements={"BURST": 52}),
        ),
    ),
    RuleEntry(
        "COPAS-21",
        views=(ViewPart(at=9, part="outcome",
                        says="the highest total among the burst seats loses, the lowest total "
                             "wins"),),
        misread=(
            Misread(explains=11, mutant=11, slug="every-burst-seat-loses",
                    description="every seat at or over the limit loses, not only the highest",
                    replacements={"outcome": wrong._every_burst_seat_loses}),
            Misread(mutant=33, slug="tied-burst-first-seat-loses",
                    description="of several burst seats on the same highest total only the first "
                                "loses",
                    replacements={"outcome": wrong._tied_burst_first_seat_loses}),
        ),
    ),
    RuleEntry(
        "COPAS-22",
        unmutatable="it states an absence (the author's variants are lost): every variant an "
                    "engine might add changes the rule it concerns and is a mutant of that rule",
    ),
)
"""What the suite knows of each Copas rule."""


# -- The tables built from the entries ------------------------------------------------------

VIEW_RULES = view_rules(RULES)
"""Which rule decides which part of Copas's public view, most specific first."""

TRICK: Ladder[diag.TrickDone] = Ladder(context=diag._trick, checks=ladder_checks(RULES, "trick"))
"""The trick the step finished, re-derived from the reported cards: its winner by the
order of the cards (COPAS-2) and the led suit (COPAS-13), then its winner's lead."""

ROUND: Ladder[diag.Round] = Ladder(context=diag._round, checks=ladder_checks(RULES, "round", stops={
    5: Stop(holds=diag._still_playing, why="no round ends at this step"),
    6: Stop(holds=diag._unreadable, why="the reported tricks or scores cannot be booked"),
    7: Stop(holds=diag._not_ten_copas, why="the reported tricks do not hold the ten copas"),
}))
"""The end of the round and its booking, re-derived from the reported tricks."""

LEGAL: Ladder[diag.Missing] = Ladder(context=diag._missing, checks=ladder_checks(RULES, "legal"))
"""Legal cards the engine leaves out (and none it adds), named by the situation: a lead
(COPAS-15: no restriction unless copas_lead=broken), a follower who holds the led suit
(COPAS-11), one who does not (COPAS-12)."""

diagnose = Diagnosis((diag.lead_suit_findings, LEGAL, TRICK, ROUND, diag.ended))
"""Copas' own findings, re-derived from what the engine reported: the trick's winner from
its cards, the end of the round, the booking from the reported tricks, the burst and the
dealer from the reported scores, the losers and winners."""

READINGS = readings(RULES)
"""The ``Config`` options that implement readings of the register."""

CATALOGUE = catalogue(RULES, unnamed=wrong.UNNAMED, rare=wrong.RARE)
"""The one catalogue of Copas's misreadings, built from the entries: the explanations,
the kill matrix and the rule book take theirs from it."""
