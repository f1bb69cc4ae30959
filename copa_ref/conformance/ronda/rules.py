"""What the conformance suite knows of each RONDA rule, one entry a rule.

One ``RuleEntry`` (``copa_ref.conformance.entries``) per rule of ``specs/ronda.md``, in its
order: the parts of the public view (RONDA-14) it decides, the checks naming it (the
``full_pair`` ladder re-derives a pair of the maximum, the ``settled`` ladder the reported
beans and turn), the ``Config`` options reading it, its wrong readings. ``at`` is an item's
place in its table (the view rules, a ladder, the readings, a catalogue list), which is the
order the runner names rules in. The tables the record uses (``VIEW_RULES``,
``diagnose``, ``READINGS``, ``CATALOGUE``) are built from ``RULES`` at the
end. The predicates are ``diagnosis.py``'s, the misread functions ``misreadings.py``'s.
"""

from __future__ import annotations

from copa_ref.conformance.entries import Checked, Misread, Option, RuleEntry, ViewPart, view_parts
from copa_ref.conformance.ladder import Diagnosis, Ladder
from copa_ref.conformance.predicates import action_is, at_start
from copa_ref.conformance.ronda import diagnosis as diag
from copa_ref.conformance.ronda import misreadings as wrong
from copa_ref.conformance.tables import (
    catalogue,
    ladder_checks,
    readings,
    view_rules,
)
from copa_ref.ronda import Add, Again, Keep, Lift, Stop

__all__ = ["CATALOGUE", "FULL_PAIR", "READINGS", "RULES", "SETTLED", "VIEW_RULES", "diagnose"]

RULES: tuple[RuleEntry, ...] = (
    RuleEntry(
        "RONDA-1",
        views=(ViewPart(at=3, part="public.circle", when=at_start,
                        says="twenty beans fill the cups of the circle"),),
        misread=(Misread(mutant=6, slug="circle-empty-before-arrangement",
                         description="the twenty beans are not counted in the circle before the "
                                     "cups are arranged",
                         replacements={"circle_beans": wrong._circle_empty_before_arrangement}),),
    ),
    RuleEntry(
        "RONDA-2",
        views=(ViewPart(at=4, part="public.supplies", when=at_start,
                        says="each player receives his beans (10, or 9)"),),
        options=(Option(at=1, option="beans_per_player", question="RONDA-Q1", values=(9, 10)),),
        misread=(
            Misread(mutant=7, slug="nine-beans-each",
                    description="each player receives nine beans (the materials list)",
                    replacements={"starting_beans": wrong._nine_beans}),
            Misread(mutant=8, slug="ten-beans-always",
                    description="each player receives ten beans whatever the option says",
                    replacements={"starting_beans": wrong._ten_beans}),
        ),
    ),
    RuleEntry(
        "RONDA-3",
        misread=(Misread(mutant=9, slug="any-twenty-beans",
                         description="any arrangement of twenty beans, four at most a cup, is "
                                     "accepted",
                         replacements={"arrangement_error": wrong._any_twenty}),),
    ),
    RuleEntry(
        "RONDA-4",
        views=view_parts({"public.turn": 22, "to_move": 23}, says="play goes on clockwise"),
        checks=(Checked(ladder="settled", at=2, observable="public.turn",
                        holds=diag._turn_to_previous,
                        says=lambda s: f"the turn passed from seat {s.d.before.turn} to seat "
                                       f"{s.previous}, not to the next seat {s.next}: play goes "
                                       f"on clockwise"),),
        misread=(Misread(mutant=10, slug="counter-clockwise",
                         description="the turn passes counter-clockwise",
                         replacements={"next_seat": wrong._counter_clockwise}),),
    ),
    RuleEntry(
        "RONDA-5",
        views=(
            ViewPart(at=20, part="legal",
                     says="any covered cup of the circle may be lifted, one at a time"),
            ViewPart(at=21, part="public.lifted",
                     says="a lifted cup stays open until covered; never more than two"),
        ),
        misread=(Misread(mutant=11, slug="lift-a-lifted-cup",
                         description="the open cup may be lifted again as the second cup",
                         replacements={"lift_error": wrong._lift_lifted, "_LIFTS": wrong._LIFT_ANY,
                                       "_ADDS": wrong._ADDS_WITH_TWINS}),),
    ),
    RuleEntry(
        "RONDA-6",
        views=(ViewPart(at=15, part="public", when=diag._mismatch,
                        says="different numbers: both covered, the next player's turn"),),
        misread=(Misread(mutant=12, slug="mismatch-keeps-the-turn",
                         description="after a mismatch the same player lifts again",
                         replacements={"_mismatch": wrong._mismatch_keeps_turn}),),
    ),
    RuleEntry(
        "RONDA-7",
        views=(
            ViewPart(at=12, part="public", when=diag._match,
                     says="two lifted cups with the identical number: a bean must be added"),
            ViewPart(at=13, part="legal", when=diag._match,
                     says="after a match the only actions add a bean to one of the two cups"),
            ViewPart(at=14, part="legal", when=action_is(Add),
                     says="the bean goes onto one of the two matched cups"),
        ),
        misread=(
            Misread(explains=1, mutant=1, slug="empty-cups-never-match",
                    description="two empty cups are taken for no match (0 = 0 is a match)",
                    replacements={"is_match": wrong.empties_never_match}),
            Misread(mutant=13, slug="adding-is-optional",
                    description="after a match the player may stop without adding a bean",
                    replacements={"_ADDS": wrong._ADDS_OR_STOP,
                                  "apply": wrong._apply_optional_add}),
        ),
    ),
    RuleEntry(
        "RONDA-8",
        views=(
            ViewPart(at=18, part="public", when=action_is(Keep),
                     says="one group stays open and a new cup is lifted"),
            ViewPart(at=19, part="legal", when=action_is(Keep),
                     says="after keeping a group any covered cup may be lifted"),
        ),
        misread=(Misread(mutant=14, slug="keep-covers-the-named-cup",
                         description="keep covers the named group and goes on with the other",
                         replacements={"_keep": wrong._keep_covers_it}),),
    ),
    RuleEntry(
        "RONDA-9",
        views=(ViewPart(at=16, part="public", when=action_is(Stop),
                        says="missing a go covers both groups and passes the turn"),),
        misread=(Misread(mutant=15, slug="stop-keeps-the-turn",
                         description="missing a go covers both, but the same player lifts again",
                         replacements={"_stop": wrong._stop_keeps_turn}),),
    ),
    RuleEntry(
        "RONDA-10",
        views=(ViewPart(at=8, part="public", when=diag._full_pair,
                        says="two fives: one group and the added bean go to the middle, the turn "
                             "ends"),),
        checks=(
            Checked(ladder="full_pair", at=3, observable="public.black, public.out",
                    holds=diag._group_without_bean,
                    says=lambda f: f"{f.top} beans went to the middle: the group goes with the "
                                   "added bean"),
            Checked(ladder="full_pair", at=5, observable="public.black, public.out",
                    holds=diag._both_stayed, says=diag._stayed_says),
            Checked(ladder="full_pair", at=7, observable="public.black, public.out",
                    holds=diag._other_size, says=diag._other_size_says),
        ),
        misread=(Misread(explains=2, mutant=2, slug="fives-to-the-middle-without-the-bean",
                         description="two fives: the group goes to the middle without the added "
                                     "bean",
                         replacements={"add_bean": wrong.fives_without_the_bean}),),
    ),
    RuleEntry(
        "RONDA-11",
        views=(
            ViewPart(at=9, part="public.black", when=diag._penalty_step,
                     says="a mismatch while the black cup holds beans costs a penalty bean"),
            ViewPart(at=10, part="public.supplies", when=diag._penalty_step,
                     says="the penalty bean goes into the mistaken player's supply"),
        ),
        misread=(
            Misread(explains=3, mutant=3, slug="penalty-for-the-first-pair-only",
                    description="a penalty bean only for a mismatched first pair, not for a "
                                "chain's new cup",
                    replacements={"penalty_due": wrong.penalty_first_pair_only}),
            Misread(mutant=16, slug="no-penalty-beans",
                    description="no penalty bean is ever taken",
                    replacements={"penalty_due": wrong._never_a_penalty}),
        ),
    ),
    RuleEntry(
        "RONDA-12",
        views=(ViewPart(at=6, part="public", when=diag._full_pair_black_holds,
                        says="a group of six leaves the game while the black cup holds beans"),),
        checks=(Checked(ladder="full_pair", at=2, observable="public.black",
                        holds=diag._black_while_holding,
                        says=lambda f: f"the black cup took {f.into_black} beans while it held "
                                       f"{f.black_before}: the group leaves the game"),),
        misread=(Misread(explains=4, mutant=4, slug="every-six-to-the-black-cup",
                         description="a group of six goes into the black cup even while it holds "
                                     "beans",
                         replacements={"goes_to_black": wrong.six_always_to_black}),),
    ),
    RuleEntry(
        "RONDA-13",
        views=(
            ViewPart(at=1, part="outcome",
                     says="the first player to get rid of all his beans wins"),
            ViewPart(at=2, part="public", when=diag._over,
                     says="the game is over the moment a player has no beans left"),
        ),
        misread=(Misread(mutant=17, slug="no-win-at-zero",
                         description="a player who gives his last bean plays on",
                         replacements={"has_won": wrong._never_wins}),),
    ),
    RuleEntry(
        "RONDA-14",
        views=(ViewPart(at=11, part="public.shown", when=action_is(Lift),
                        says="what a lifted cup holds is shown to everyone, also after a "
                             "mismatch"),),
        misread=(Misread(explains=5, mutant=5, slug="mismatch-not-shown",
                         description="the count of a cup covered again at once after a mismatch "
                                     "is not reported",
                         replacements={"observe": wrong.shown_only_while_lifted}),),
    ),
    RuleEntry(
        "RONDA-15",
        views=(
            ViewPart(at=24, part="public.circle",
                     says="circle + black cup + supplies + out of the game = 20 + the beans "
                          "dealt"),
            ViewPart(at=25, part="public", says="the beans are conserved"),
        ),
        checks=(Checked(ladder="settled", at=1, observable="public", holds=diag._beans_differ,
                        go_on=True,
                        says=lambda s: f"the reported view holds {s.total} beans, not {s.beans}: "
                                       "circle + black cup + supplies + out of the game are "
                                       "conserved"),),
        misread=(Misread(mutant=18, slug="circle-always-twenty",
                         description="the circle is reported as holding its twenty beans "
                                     "throughout",
                         replacements={"circle_beans": wrong._circle_always_twenty}),),
    ),
    RuleEntry(
        "RONDA-16",
        views=(ViewPart(at=17, part="public", when=action_is(Again),
                        says="under simpler rule 1 both groups are covered and two cups lifted "
                             "anew"),),
        options=(Option(at=2, option="relift_after_match", question="RONDA-Q7"),),
        misread=(Misread(mutant=19, slug="again-keeps-one-open",
                         description="simpler rule 1: one group stays open when lifting anew",
                         replacements={"_again": wrong._again_keeps_one}),),
    ),
    RuleEntry(
        "RONDA-17",
        views=(ViewPart(at=7, part="public", when=diag._full_pair_max_four,
                        says="under simpler rule 2 two fours and the bean go to the middle"),),
        checks=(
            Checked(ladder="full_pair", at=4, observable="public.black, public.out",
                    holds=diag._both_stayed_four, says=diag._stayed_says),
            Checked(ladder="full_pair", at=6, observable="public.black, public.out",
                    holds=diag._other_size_four, says=diag._other_size_says),
        ),
        options=(Option(at=3, option="max_beans", question="RONDA-Q7", values=(4, 5)),),
        misread=(Misread(mutant=20, slug="maximum-always-five",
                         description="simpler rule 2 ignored: two fours do not go to the middle",
                         replacements={"is_max_pair": wrong._always_five}),),
    ),
    RuleEntry(
        "RONDA-18",
        views=(ViewPart(at=5, part="public", when=diag._full_pair_no_penalty,
                        says="without penalty beans a dissolved group leaves the game with the "
                             "bean"),),
        checks=(Checked(ladder="full_pair", at=1, observable="public.black",
                        holds=diag._black_without_penalties,
                        says=lambda f: f"the black cup took {f.into_black} beans although no "
                                       "penalty beans are played: the group leaves the game"),),
        options=(Option(at=4, option="penalty_beans", question="RONDA-Q7"),),
        misread=(Misread(mutant=21, slug="black-cup-without-penalty-beans",
                         description="simpler rule 3 ignored: groups go to the black cup, "
                                     "penalties follow",
                         replacements={"goes_to_black": wrong._black_without_penalties}),),
    ),
)
"""What the suite knows of each RONDA rule."""


# -- The tables built from the entries ------------------------------------------------------

VIEW_RULES = view_rules(RULES)
"""Which rule decides which part of RONDA's public view, most specific first: the
conservation of RONDA-15 last."""

FULL_PAIR: Ladder[diag.FullPair] = Ladder(context=diag._full_pair_context,
                                     checks=ladder_checks(RULES, "full_pair"))
"""What went wrong with a pair of the maximum, re-derived from the reported view: the
black cup's part (RONDA-18, RONDA-12), then the group's size under the maximum in force
(RONDA-17 for four, RONDA-10)."""

SETTLED: Ladder[diag.Settled] = Ladder(context=diag._settled,
                                       checks=ladder_checks(RULES, "settled"))
"""A step's reported beans and turn: a reported view whose beans do not add up (RONDA-15), a
turn passed to the previous seat instead of the next (RONDA-4)."""

diagnose = Diagnosis((FULL_PAIR, SETTLED))
"""RONDA's own findings, re-derived from what the engine reported: a pair of the maximum
settled wrongly (:data:`FULL_PAIR`), then the reported beans and turn (:data:`SETTLED`)."""

READINGS = readings(RULES)
"""The ``Config`` options that implement readings of the register."""

CATALOGUE = catalogue(RULES, unnamed=wrong.UNNAMED, rare=wrong.RARE)
"""The one catalogue of RONDA's misreadings, built from the entries: the explanations,
the kill matrix and the rule book take theirs from it."""
