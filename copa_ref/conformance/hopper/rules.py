"""What the conformance suite knows of each HOPPER rule, one entry a rule.

One ``RuleEntry`` (``copa_ref.conformance.entries``) per rule of ``specs/hopper.md``, in its
order: the parts of the view it decides (the spec's table "Which rule decides which part of
the public view"), the checks of the decoded report naming it (the ``report`` ladder), the
``Config`` options reading it, its wrong readings and why it has none. ``at`` is an item's
place in its table (the view rules, the ladder, the readings, a catalogue list), which is
the order the runner names rules in. The tables the record uses (``VIEW_RULES``,
``diagnose``, ``READINGS``, ``CATALOGUE``) are built from ``RULES`` at the
end. The predicates are ``diagnosis.py``'s, the misread functions ``misreadings.py``'s.
"""

from __future__ import annotations

from copa_ref.conformance.entries import Checked, Misread, Option, RuleEntry, ViewPart, view_parts
from copa_ref.conformance.hopper import diagnosis as diag
from copa_ref.conformance.hopper import misreadings as wrong
from copa_ref.conformance.ladder import Diagnosis, Ladder
from copa_ref.conformance.predicates import at_start
from copa_ref.conformance.tables import (
    catalogue,
    ladder_checks,
    readings,
    view_rules,
)
from copa_ref.hopper.state import CUP_BEANS

__all__ = ["CATALOGUE", "READINGS", "REPORT", "RULES", "VIEW_RULES", "diagnose"]

RULES: tuple[RuleEntry, ...] = (
    RuleEntry(
        "HOPPER-1",
        misread=(Misread(mutant=1, slug="any-seat-number",
                         description="a shot by a seat that does not exist is not "
                                     "refused for that reason",
                         replacements={"check_seat": wrong._no_check}),),
    ),
    RuleEntry(
        "HOPPER-2",
        views=(ViewPart(at=3, part="public.tray", when=at_start,
                        says="the 16 neutral cups start in the tray, empty; the black cup "
                             "aside"),),
        misread=(Misread(mutant=2, slug="fifteen-cups", description="the tray starts with 15 cups",
                         replacements={"initial_tray": wrong._fifteen_cups}),),
    ),
    RuleEntry(
        "HOPPER-3",
        views=view_parts({"public.hands": 1, "public.loose": 2}, when=at_start,
                         says="the beans are dealt evenly; the remainder goes where "
                              "Config.remainder says"),
        options=(Option(at=3, option="remainder", question="HOPPER-Q3"),),
        misread=(
            Misread(mutant=3, slug="remainder-dealt",
                    description="the remainder is dealt to the first seats",
                    replacements={"deal": wrong._remainder_dealt}),
            Misread(mutant=4, slug="remainder-ignored",
                    description="the remainder stays in the box whatever Config.remainder says",
                    replacements={"deal": wrong._remainder_ignored}),
        ),
    ),
    RuleEntry(
        "HOPPER-4",
        views=view_parts({"public.turn": 24, "to_move": 25}, says="the turn passes clockwise"),
        options=(Option(at=5, option="first_player", question="HOPPER-Q10", values=(0, 1)),),
        misread=(
            Misread(explains=4, mutant=21, slug="counter-clockwise",
                    description="the turn passes to the right (seat - 1) instead of clockwise",
                    replacements={"next_turn": wrong.counter_clockwise}),
            Misread(mutant=5, slug="first-player-ignored",
                    description="seat 0 shoots first whoever is nominated",
                    replacements={"first_turn": wrong._seat_0_first}),
        ),
    ),
    RuleEntry(
        "HOPPER-5",
        views=(
            *view_parts({"public.phase": 22, "to_move": 23}, when=diag._shot_started,
                        says="a shot is the shooter's decision only when it chooses among aims; "
                             "with aiming off (or one cup) a seat that alone may shoot starts its "
                             "shot at once"),
            ViewPart(at=26, part="public.aim", says="a shot is aimed at a cup in the tray"),
            ViewPart(at=27, part="public.phase", says="every shot is followed by its landing"),
            ViewPart(at=28, part="legal", says="a shot is aimed at any cup in the tray"),
        ),
        checks=(Checked(ladder="report", at=2, observable="legal", holds=diag._stray, go_on=True,
                        says=lambda r: "the engine's legal shots and its own reported tray "
                                       f"disagree on cups {', '.join(map(str, r.stray))}: a shot "
                                       "may be aimed at every cup in the tray and no other"),),
        options=(Option(at=4, option="aiming", question="HOPPER-Q6"),),
        misread=(
            Misread(mutant=6, slug="unaimed-shot-decided",
                    description="with aiming off the shooter still decides each turn-play shot "
                                "(an unaimed shoot) instead of every shot being pure chance",
                    replacements={"aim_chosen": wrong._unaimed_shot_decided}),
            Misread(mutant=8, slug="aim-anywhere",
                    description="a shot may be aimed at any cup name, or none",
                    replacements={"check_aim": wrong._no_check}),
        ),
    ),
    RuleEntry(
        "HOPPER-6",
        misread=(
            Misread(mutant=7, slug="aimed-shot-model-only",
                    description="only the default aimed-shot model is accepted: a config with a "
                                "per-seat accuracy model is refused",
                    replacements={"check_shot_model": wrong._aimed_shot_model_only}),
            Misread(mutant=9, slug="land-anywhere",
                    description="a bean may land in a cup that is not in the tray",
                    replacements={"check_landing": wrong._no_check}),
        ),
    ),
    RuleEntry(
        "HOPPER-7",
        views=(
            ViewPart(at=14, part="public.tray", when=diag._into_cup,
                     says="a bean into a cup holding fewer than 3 stays in it"),
            ViewPart(at=15, part="public.loose", when=diag._outside,
                     says="a bean landing outside the cups lies loose"),
        ),
        misread=(
            Misread(mutant=10, slug="empty-cup-bounces",
                    description="a bean bounces out of an empty cup",
                    replacements={"drop_bean": wrong._empty_cup_bounces}),
            Misread(mutant=11, slug="outside-bean-lost",
                    description="a bean landing outside the cups leaves the game instead of lying "
                                "loose (back in play for a seat that runs out)",
                    replacements={"drop_bean": wrong._outside_bean_lost}),
        ),
    ),
    RuleEntry(
        "HOPPER-8",
        views=(
            ViewPart(at=10, part="public.claims", when=diag._foursome,
                     says="a bean into a cup holding 3 makes a foursome: the shooter claims the "
                          "cup"),
            ViewPart(at=11, part="public.loose", when=diag._foursome,
                     says="a claimed cup's four beans go back into play as loose beans"),
            ViewPart(at=13, part="public.claims", when=diag._landing,
                     says="a cup is claimed only by a foursome"),
        ),
        checks=(Checked(ladder="report", at=1, observable="public.tray", holds=diag._overfull_cup,
                        go_on=True,
                        says=lambda r: f"a cup in the reported tray holds more than {CUP_BEANS} "
                                       "beans: a foursome claims the cup"),),
        misread=(Misread(mutant=12, slug="foursome-at-five",
                         description="a cup is claimed by its fifth bean, not its fourth",
                         replacements={"is_foursome": wrong._foursome_at_five}),),
    ),
    RuleEntry(
        "HOPPER-9",
        views=(ViewPart(at=12, part="public.tray", when=diag._foursome,
                        says="the claimed cup leaves the tray; the others close up, keeping their "
                             "order"),),
        misread=(Misread(explains=5, mutant=22, slug="close-up-moving-last-cup",
                         description="the gap of a claimed cup is filled by moving the last cup "
                                     "into it instead of shifting the others closer",
                         replacements={"close_up": wrong.close_up_moving_the_last_cup}),),
    ),
    RuleEntry(
        "HOPPER-10",
        views=view_parts({"public.hands": 16, "public.loose": 17}, when=diag._replenished,
                         says="a seat with no beans first takes all the loose beans"),
        misread=(
            Misread(explains=2, mutant=19, slug="replenish-one-bean",
                    description="a player who runs out takes one loose bean, not all of them",
                    replacements={"replenish": wrong.replenish_one_bean}),
            Misread(explains=3, mutant=20, slug="replenish-while-holding",
                    description="every shooter takes up the loose beans, even with beans in hand",
                    replacements={"replenish": wrong.replenish_while_holding}),
        ),
    ),
    RuleEntry(
        "HOPPER-11",
        views=(ViewPart(at=18, part="public.turn", when=diag._skip,
                        says="a seat with no beans, none loose, is skipped"),),
        checks=(Checked(ladder="report", at=3, observable="to_move, legal",
                        holds=diag._empty_shooter, go_on=True,
                        says=lambda r: f"the engine lists seat {r.empty[0]} to shoot, which by "
                                       "its own report holds no beans while none are loose: such "
                                       "a seat cannot shoot"),),
        misread=(Misread(mutant=13, slug="no-skip",
                         description="an empty-handed seat is not skipped when none are loose",
                         replacements={"can_shoot": wrong._anyone_shoots}),),
    ),
    RuleEntry(
        "HOPPER-12",
        views=(
            ViewPart(at=5, part="public", when=diag._end_1,
                     says="under End 1 the first seat to claim four cups wins at once"),
            ViewPart(at=9, part="outcome", when=diag._end_1,
                     says="under End 1 the first seat to claim four cups wins"),
        ),
        options=(Option(at=2, option="ending", question="HOPPER-Q5", values=("end_2",)),),
        misread=(Misread(mutant=14, slug="five-cups-win", description="End 1 is won with 5 cups",
                         replacements={"winner_end_1": wrong._five_cups_win}),),
    ),
    RuleEntry(
        "HOPPER-13",
        views=(ViewPart(at=6, part="public.phase", when=diag._end_2,
                        says="under End 2 the game ends when the last cup is shot down"),),
        options=(Option(at=1, option="ending", question="HOPPER-Q5", values=("end_1",)),),
        misread=(Misread(mutant=15, slug="end-2-at-four-cups",
                         description="End 2 also ends when a seat has 4 cups",
                         replacements={"game_over": wrong._end_2_ends_at_four}),),
    ),
    RuleEntry(
        "HOPPER-14",
        views=(ViewPart(at=4, part="public.tray", when=diag._black_joins,
                        says="under End 2 the black cup joins, empty, when three cups are left"),),
        misread=(Misread(explains=6, mutant=23, slug="black-cup-at-four",
                         description="the black cup joins when four cups are left, not three",
                         replacements={"black_joins": wrong.black_joins_at_four}),),
    ),
    RuleEntry(
        "HOPPER-15",
        views=(
            ViewPart(at=19, part="to_move", when=diag._shoot_out,
                     says="in the shoot-out any seat that may shoot shoots next"),
            ViewPart(at=20, part="public.turn", when=diag._shoot_out,
                     says="in the shoot-out nobody has the turn"),
            ViewPart(at=21, part="legal", when=diag._shoot_out,
                     says="in the shoot-out every seat that may shoot, at every cup"),
        ),
        misread=(Misread(mutant=16, slug="no-shoot-out",
                         description="the turns go on after the black cup has joined",
                         replacements={"shoot_out": wrong._no_shoot_out}),),
    ),
    RuleEntry(
        "HOPPER-16",
        views=(ViewPart(at=7, part="outcome.scores", when=diag._end_2,
                        says="a neutral cup counts 1, the black cup 2, the last cup 3"),),
        misread=(Misread(explains=7, mutant=24, slug="last-cup-bonus-added",
                         description="the last cup scores 3 on top of its value instead of 3 in "
                                     "all",
                         replacements={"points": wrong.last_cup_bonus_added}),),
    ),
    RuleEntry(
        "HOPPER-17",
        views=(ViewPart(at=8, part="outcome", when=diag._end_2,
                        says="the most points win; a tie is a shared win"),),
        misread=(Misread(mutant=17, slug="tie-to-lowest-seat",
                         description="a tie on points goes to the lowest seat",
                         replacements={"outcome": wrong._tie_to_lowest_seat}),),
    ),
    RuleEntry(
        "HOPPER-18",
        unmutatable="states an absence (nothing is hidden): observe returns the whole state, and "
                    "any change to it shows as the part of the view it changes, named by that "
                    "part's rule",
    ),
    RuleEntry(
        "HOPPER-19",
        views=(
            ViewPart(at=29, part="public.hands", when=diag._landing,
                     says="a landing takes one bean from the shooter's hand"),
            ViewPart(at=30, part="public", says="the beans in play are conserved"),
        ),
        checks=(Checked(ladder="report", at=4, observable="public",
                        holds=diag._beans_differ, go_on=True,
                        says=lambda r: f"{r.beans[1]} beans in play reported, {r.beans[0]} before "
                                       "the step"),),
        misread=(Misread(explains=1, mutant=18, slug="claimed-beans-to-box",
                         description="a claimed cup's four beans are taken out of the game "
                                     "instead of being put back into play as loose beans",
                         replacements={"drop_bean": wrong.drop_bean_claimed_beans_to_box}),),
    ),
)
"""What the suite knows of each HOPPER rule."""


# -- The tables built from the entries ------------------------------------------------------

VIEW_RULES = view_rules(RULES)
"""Which rule decides which part of HOPPER's public view (the whole state, HOPPER-18), most
specific first: the bean conservation of HOPPER-19 last."""

REPORT: Ladder[diag.Reported] = Ladder(context=diag.report_context(VIEW_RULES),
                                  checks=ladder_checks(RULES, "report"))
"""Each check of the decoded report, every one that holds: a reported cup holding 4 or more
beans (HOPPER-8), legal shots aimed otherwise than at the cups of the engine's own reported
tray (HOPPER-5), a seat the engine lists to shoot although its own report gives it no beans
and none loose (HOPPER-11), the beans of the reported view not adding up (HOPPER-19)."""

diagnose = Diagnosis((REPORT,))
"""HOPPER's own findings: the checks of :data:`REPORT`."""

READINGS = readings(RULES)
"""The ``Config`` options that implement readings of the register."""

CATALOGUE = catalogue(RULES, unnamed=wrong.UNNAMED, rare=wrong.RARE, vacuous=wrong.VACUOUS)
"""The one catalogue of HOPPER's misreadings, built from the entries: the explanations,
the kill matrix and the rule book take theirs from it."""
