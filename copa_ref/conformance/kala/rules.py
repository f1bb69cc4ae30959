"""What the conformance suite knows of each KALA rule, one entry a rule.

One ``RuleEntry`` (``copa_ref.conformance.entries``) per rule of ``specs/kala.md``, in its
order (P-11, the protocol's rule a diagnosis check names, last): the parts of the view it
decides, the diagnosis checks naming it (the ``turn`` ladder compares a step's parts with
the engine's reported state, the ``legal`` ladder the sowing paths it leaves out), the
``Config`` options reading it, its wrong readings and why it has none. ``at`` is an item's
place in its table (the view rules, a ladder, the readings, a catalogue list), which is
the order the runner names rules in. The tables the record uses (``VIEW_RULES``,
``diagnose``, ``READINGS``, ``CATALOGUE``) are built from ``RULES`` at the
end. The predicates are ``diagnosis.py``'s, the misread functions ``misreadings.py``'s;
what a step exercises is ``events`` and the record itself is ``record.py``.
"""

from __future__ import annotations

from copa_ref.conformance.entries import Checked, Misread, Option, RuleEntry, ViewPart, view_parts
from copa_ref.conformance.kala import diagnosis as diag
from copa_ref.conformance.kala import misreadings as wrong
from copa_ref.conformance.ladder import Diagnosis, Ladder
from copa_ref.conformance.predicates import at_start
from copa_ref.conformance.tables import (
    catalogue,
    ladder_checks,
    readings,
    view_rules,
)
from copa_ref.core.misreading import Deferred
from copa_ref.kala import Bonus
from copa_ref.kala import rules as _rules
from copa_ref.kala.paths import DIRECTIONS, PATH_SETS
from copa_ref.kala.rules import bonus_length

__all__ = ["CATALOGUE", "LEGAL", "READINGS", "RULES", "TURN", "VIEW_RULES", "diagnose"]

RULES: tuple[RuleEntry, ...] = (
    RuleEntry(
        "KALA-1",
        views=(ViewPart(at=4, part="public", when=at_start,
                        says="28 beans in each store, the field and the playing cups empty"),),
        misread=(Misread(mutant=9, slug="stores-of-14",
                         description="the 28 beans are shared: each store starts with 14",
                         replacements={"TOTAL_BEANS": 28}),),
    ),
    RuleEntry(
        "KALA-2",
        views=(ViewPart(at=1, part="public.cups", when=at_start,
                        says="the playing cups start in opposite corners"),),
        misread=(Misread(mutant=10, slug="other-diagonal",
                         description="the playing cups start on the other two corners",
                         replacements={"START_SQUARES": ((0, 3), (3, 0))}),),
    ),
    RuleEntry(
        "KALA-3",
        views=(*view_parts({"public.turn": 2, "to_move": 3}, when=at_start,
                           says="the nominated first player moves first"),
               *view_parts({"public.turn": 20, "to_move": 21}, says="the players take turns")),
        checks=(Checked(ladder="turn", at=20, observable="public.turn", holds=diag._turn_passed,
                        says=lambda t: f"seat {t.want.turn} moves next; the engine has seat "
                                       f"{t.seen.turn}"),),
        options=(Option(at=1, option="first_player", question="KALA-Q1", values=(0, 1)),),
        misread=(Misread(mutant=11, slug="first-player-ignored",
                         description="seat 0 always moves first, whatever first_player says",
                         replacements={"new_game": wrong._first_player_ignored}),),
    ),
    RuleEntry(
        "KALA-4",
        views=(ViewPart(at=17, part="public.stores", when=diag._regular_sow,
                        says="a regular sowing takes 4 beans from the store"),),
        checks=(
            Checked(ladder="turn", at=10, observable="public.stores", holds=diag._opponent_store,
                    says=lambda t: f"the opponent's store holds {t.want.stores[t.other]}; the "
                                   f"engine has {t.seen.stores[t.other]}"),
            Checked(ladder="turn", at=12, observable="public.stores", holds=diag._own_store,
                    says=lambda t: "a regular sowing takes 4 beans from the store: "
                                   f"{t.want.stores[t.seat]}; the engine has "
                                   f"{t.seen.stores[t.seat]}"),
            Checked(ladder="legal", at=3, observable="legal", holds=diag._lengths,
                    says=diag._lengths_says),
        ),
        misread=(Misread(mutant=12, slug="sowing-of-five",
                         description="a regular sowing puts 5 beans into play: the cup's and "
                         "4 more", replacements={"SOWING": 5}),),
    ),
    RuleEntry(
        "KALA-5",
        views=(ViewPart(at=19, part="public.field",
                        says="one bean into each cup of the path, cup by cup"),),
        checks=(Checked(ladder="turn", at=4, observable="public.field", holds=diag._sown_into_path,
                        says=lambda t: "one bean into each cup of the path: the cup at "
                                       f"{list(t.sown_wrong or ())} holds "
                                       f"{t.field(t.sown_wrong or (0, 0))}, the engine has "
                                       f"{t.seen_field(t.sown_wrong or (0, 0))}"),),
        misread=(Misread(mutant=13, slug="diagonal-steps",
                         description="a path may step diagonally",
                         replacements=Deferred(lambda: wrong.path_tables(
                             steps=(*DIRECTIONS, *wrong.DIAGONAL)))),),
    ),
    RuleEntry(
        "KALA-6",
        views=(ViewPart(at=18, part="public.cup_beans", when=diag._regular_sow,
                        says="the first bean goes into the own playing cup"),),
        checks=(Checked(ladder="turn", at=18, observable="public.cup_beans", holds=diag._first_bean,
                        says=lambda t: "the first bean goes into the own playing cup: cups hold "
                                       f"{list(t.want.cup_beans)}; the engine has "
                                       f"{list(t.seen.cup_beans)}"),),
        misread=(Misread(explains=1, mutant=1, slug="first-bean-into-field-cup",
                         description="the first bean goes into the field cup beneath the "
                         "playing cup", replacements={"sow_beans": wrong._first_bean_beneath}),),
    ),
    RuleEntry(
        "KALA-7",
        checks=(
            Checked(ladder="turn", at=1, observable="the bonus sowing's path",
                    holds=diag._bonus_sown_straight,
                    says=lambda t: "a path may turn by 90 degrees once, the bonus sowing too (its "
                                   "own turn, KALA-Q5): with the turn a path holds all "
                                   f"{bonus_length(t.want)} beans; the engine sowed them straight "
                                   f"along {len(t.bonus_sown or ())} squares"),
            Checked(ladder="legal", at=1, observable="legal", holds=diag._only_straight,
                    says=lambda x: "a path may turn by 90 degrees once, the bonus sowing too (its "
                                   "own turn, KALA-Q5): with the turn a path holds all "
                                   f"{x.length} beans; the engine lists only straight paths, of "
                                   f"{x.straight_only} squares"),
            Checked(ladder="legal", at=4, observable="legal", holds=diag._turning_left_out,
                    go_on=True,
                    says=lambda x: "one 90-degree turn per sowing is allowed: the engine leaves "
                                   f"out {len(x.missing)} paths that turn once"),
        ),
        misread=(
            Misread(explains=2, mutant=2, slug="two-turns",
                    description="a path may turn by 90 degrees twice",
                    replacements=Deferred(lambda: wrong.path_tables(max_turns=2))),
            Misread(mutant=19, slug="never-turns",
                    description="a path never turns: straight only, and the longest path "
                    "(for the bonus) the longest straight one",
                    replacements=Deferred(lambda: {
                        **wrong.path_tables(max_turns=0),
                        "longest_path": wrong._straight_longest().__getitem__})),
            Misread(mutant=20, slug="bonus-goes-straight",
                    description="the bonus sowing has no 90-degree turn of its own: it goes "
                    "straight, as far as a straight path holds its beans (the rest to the "
                    "opponent)",
                    replacements=Deferred(lambda: {
                        "bonus_length": wrong._straight_bonus_length,
                        "PATH_SETS": wrong._StraightBonus(PATH_SETS),
                        "_SOWS": wrong._StraightBonus(_rules._SOWS),
                        "_refuse_path": wrong._refuse_turning_bonus})),
        ),
    ),
    RuleEntry(
        "KALA-8",
        views=(ViewPart(at=16, part="public.cups",
                        says="the playing cup moves onto the cup that took the last bean"),),
        checks=(Checked(ladder="turn", at=15, observable="public.cups", holds=diag._cup_moved,
                        says=lambda t: f"the playing cup goes to {list(t.want.cups[t.seat])}; the "
                                       f"engine has {list(t.seen.cups[t.seat])}"),),
        misread=(Misread(mutant=14, slug="cup-stays",
                         description="the playing cup stays where it is after the sowing",
                         replacements={"cup_destination": wrong._cup_stays}),),
    ),
    RuleEntry(
        "KALA-9",
        views=(ViewPart(at=12, part="public.cup_beans", when=diag._over_opponent,
                        says="a bean sown on the opponent's playing cup goes into that cup"),
               ViewPart(at=13, part="public.field", when=diag._over_opponent,
                        says="the field cup beneath the opponent's playing cup receives "
                        "nothing")),
        checks=(
            Checked(ladder="turn", at=3, observable="public.field", holds=diag._sown_over_opponent,
                    says=lambda t: "the bean sown on the opponent's cup at "
                                   f"{list(t.sown_wrong or ())} goes into that cup, not the field "
                                   "cup beneath"),
            Checked(ladder="legal", at=5, observable="legal", holds=diag._passing_left_out,
                    says=lambda x: "a path may pass over the opponent's cup: the engine leaves "
                                   f"out {len(x.missing)} paths that do"),
        ),
        misread=(
            Misread(explains=3, mutant=3, slug="no-bean-into-opponent-cup",
                    description="a bean sown over the opponent's playing cup goes into the "
                    "field cup beneath it",
                    replacements={"sow_beans": wrong._nothing_into_opponent_cup}),
            Misread(pictured=1, slug="bean-beneath-opponent-cup",
                    description="a bean on the opponent's cup goes into the field cup beneath",
                    replacements={"sow_beans": wrong._sow_beneath}),
        ),
    ),
    RuleEntry(
        "KALA-10",
        views=(ViewPart(at=14, part="public.cups", when=diag._into_opponent,
                        says="the playing cup goes next to the opponent's cup, never onto it"),
               ViewPart(at=15, part="public.phase", when=diag._into_opponent,
                        says="the player chooses a neighbouring cup of the opponent's cup")),
        checks=(Checked(ladder="turn", at=14, observable="public.cups", holds=diag._cup_placed,
                        says=lambda t: f"the playing cup goes to {list(t.want.cups[t.seat])}; the "
                                       f"engine has {list(t.seen.cups[t.seat])}"),),
        misread=(Misread(mutant=15, slug="placed-diagonally",
                         description="the cup may also be placed diagonally next to the "
                         "opponent's cup", replacements={"NEIGHBOURS": wrong._DIAGONAL_NEIGHBOURS,
                                       "_PLACES": wrong._DIAGONAL_PLACES}),),
    ),
    RuleEntry(
        "KALA-11",
        checks=(Checked(ladder="turn", at=5, observable="public.cup_beans", holds=diag._cups_hidden,
                        says=lambda t: "nothing is hidden: the playing cups hold "
                                       f"{list(t.want.cup_beans)} beans; the engine's public view "
                                       "shows none"),),
        misread=(Misread(mutant=16, slug="cups-hidden",
                         description="a spectator does not see the beans in the playing cups",
                         replacements={"observe": wrong._hidden_cups}),),
    ),
    RuleEntry(
        "KALA-12",
        views=(ViewPart(at=10, part="public", when=diag._bonus_started,
                        says="4 or more beans in the playing cup after moving give a bonus "
                        "move"),),
        checks=(
            Checked(ladder="turn", at=11, observable="public.stores",
                    holds=diag._bonus_decision_store,
                    says=lambda t: "a declined bonus leaves the beans in the playing cup: store "
                                   f"{t.want.stores[t.seat]}, cup {t.want.cup_beans[t.seat]}; the "
                                   f"engine has store {t.seen.stores[t.seat]}, cup "
                                   f"{t.seen.cup_beans[t.seat]}"
                                   if isinstance(t.action, Bonus) and not t.action.take else
                                   "a bonus taken sows the playing cup's beans: store "
                                   f"{t.want.stores[t.seat]}; the engine has "
                                   f"{t.seen.stores[t.seat]}"),
            Checked(ladder="turn", at=17, observable="public.phase", holds=diag._bonus_given,
                    says=lambda t: "4 or more beans in the playing cup after it moved give a "
                                   f"bonus move: the cup holds {t.want.cup_beans[t.seat]}, phase "
                                   f"{t.want.phase.value}; the engine has {t.seen.phase.value}"),
        ),
        options=(Option(at=3, option="bonus", question="KALA-Q8"),),
        misread=(
            Misread(explains=4, mutant=4, slug="bonus-above-four",
                    description="the bonus move needs more than 4 beans in the cup, not 4 or "
                    "more", replacements={"bonus_due": wrong._bonus_above_four}),
            Misread(mutant=21, slug="declined-bonus-to-store",
                    description="a declined bonus (bonus=optional) empties the playing cup "
                    "into the mover's store",
                    replacements={"_end_turn": wrong._declined_bonus_to_store}),
        ),
    ),
    RuleEntry(
        "KALA-13",
        views=(ViewPart(at=11, part="legal", when=diag._bonus_phase,
                        says="every bean of the bonus is sown: the path is as long as the "
                        "beans allow"),),
        checks=(
            Checked(ladder="turn", at=2, observable="the bonus sowing's path",
                    holds=diag._bonus_sown_short,
                    says=lambda t: "every bean of the bonus is sown: the path holds "
                                   f"{bonus_length(t.want)} beans; the engine sowed "
                                   f"{len(t.bonus_sown or ())} along "
                                   f"{[list(sq) for sq in t.bonus_sown or ()]}"),
            Checked(ladder="legal", at=2, observable="legal", holds=diag._bonus_lengths,
                    says=diag._lengths_says),
        ),
        misread=(Misread(explains=5, mutant=5, slug="bonus-sows-four",
                         description="the bonus move sows 4 beans like a regular sowing; the "
                         "rest go to the opponent",
                         replacements={"bonus_length": wrong._bonus_of_four}),),
    ),
    RuleEntry(
        "KALA-14",
        views=(ViewPart(at=5, part="public.stores", when=diag._excess,
                        says="the beans of a bonus that no path holds go to the opponent's "
                        "store"),),
        checks=(
            Checked(ladder="turn", at=6, observable="public.stores", holds=diag._excess_elsewhere,
                    says=lambda t: "the beans of a bonus that no path holds go to the opponent's "
                                   f"store: {t.want.stores[t.other]}; the engine has "
                                   f"{t.seen.stores[t.other]} (bank {t.seen.bank})"),
            Checked(ladder="turn", at=9, observable="public.stores", holds=diag._bonus_excess_store,
                    says=lambda t: f"the opponent's store holds {t.want.stores[t.other]}; the "
                                   f"engine has {t.seen.stores[t.other]} (the beans of a bonus no "
                                   "path holds go to it)"),
        ),
        misread=(
            Misread(explains=6, mutant=6, slug="sower-keeps-excess",
                    description="the beans no bonus path holds go back to the sower's store",
                    replacements={"excess_receiver": wrong._sower_keeps_excess}),
            Misread(mutant=22, slug="sixth-bean-to-bank",
                    description="the beans no bonus path holds go to the bank box",
                    replacements={"_sow": wrong._sixth_bean_to_bank}),
            Misread(pictured=2, slug="no-sixth-bean",
                    description="the bonus sows every bean in the cup, however many",
                    replacements={"bonus_length": wrong._every_bean}),
        ),
    ),
    RuleEntry(
        "KALA-15",
        views=(ViewPart(at=8, part="public", when=diag._harvested,
                        says="a harvested cup gives one bean to the bank and the rest to the "
                        "store"),
               ViewPart(at=9, part="public.phase", when=diag._harvest_phase,
                        says="a cup holding 4 or more beans after the last bean may be "
                        "harvested")),
        checks=(
            Checked(ladder="turn", at=7, observable="public.bank", holds=diag._harvest_counted,
                    says=lambda t: "a harvest gives one bean to the bank and the rest to the "
                                   f"store: bank {t.want.bank}, store {t.want.stores[t.seat]}; "
                                   f"the engine has bank {t.seen.bank}, store "
                                   f"{t.seen.stores[t.seat]}"),
            Checked(ladder="turn", at=8, observable="public.phase", holds=diag._harvest_decided,
                    says=lambda t: "a cup with 4 or more beans after the last bean is harvested: "
                                   f"phase {t.want.phase.value}, the engine has "
                                   f"{t.seen.phase.value}"),
        ),
        options=(Option(at=2, option="harvest", question="KALA-Q7"),),
        misread=(
            Misread(explains=7, mutant=7, pictured=3, slug="harvest-all-to-store",
                    description="a harvest puts every bean into the store, none into the bank",
                    replacements={"harvest_split": wrong._harvest_all_to_store}),
            Misread(mutant=17, slug="harvest-at-three",
                    description="a cup left with 3 beans may be harvested too",
                    replacements={"harvestable": wrong._harvest_at_three}),
        ),
    ),
    RuleEntry(
        "KALA-16",
        checks=(Checked(ladder="turn", at=13, observable="public.cups",
                        holds=diag._cup_moved_before_harvest,
                        says=lambda t: "the harvest is decided before the playing cup moves: it "
                                       f"stays on {list(t.want.cups[t.seat])} while the harvest "
                                       "is pending; the engine has it on "
                                       f"{list(t.seen.cups[t.seat])}"),),
        misread=(
            Misread(mutant=23, slug="cup-moves-before-harvest",
                    description="the playing cup moves onto the harvest cup before the "
                    "harvest is decided",
                    replacements={"_after_sowing": wrong._cup_moves_before_harvest}),
            Misread(mutant=24, slug="place-before-harvest",
                    description="with the last bean in the opponent's cup, the cup may be "
                    "placed before the harvest is decided (which declines it)",
                    replacements={"legal_actions": wrong._place_while_harvest_pending,
                                  "apply": wrong._apply_place_first}),
        ),
    ),
    RuleEntry(
        "KALA-17",
        views=(ViewPart(at=6, part="public", when=diag._over,
                        says="the game ends when a player has fewer than 4 beans for his "
                        "turn"),
               ViewPart(at=7, part="outcome",
                        says="once a player cannot finish a turn, the other player wins")),
        checks=(Checked(ladder="turn", at=19, observable="public.phase", holds=diag._ended,
                        says=lambda t: "the game ends when a player has fewer than 4 beans for "
                                       f"his turn: stores {list(t.want.stores)}, phase "
                                       f"{t.want.phase.value}; the engine has "
                                       f"{t.seen.phase.value}"),),
        options=(Option(at=4, option="end_check", question="KALA-Q10"),),
        misread=(
            Misread(explains=8, mutant=8, slug="end-at-four",
                    description="the game ends with 4 beans or fewer, not fewer than 4",
                    replacements={"too_few": wrong._end_at_four}),
            Misread(mutant=18, slug="end-below-three",
                    description="a player with 3 beans may still sow; the game ends below 3",
                    replacements={"too_few": wrong._end_below_three}),
        ),
    ),
    RuleEntry(
        "KALA-18",
        views=(ViewPart(at=22, part="public", says="the 56 beans are conserved"),),
        unmutatable="conservation is a consequence of the other rules: every engine that "
        "loses or makes a bean misreads a more specific rule (the bank bean of KALA-15, the sixth "
        "bean of KALA-14, the sowing of KALA-4 to KALA-9), which is named instead",
    ),
    RuleEntry(
        "P-11",
        checks=(Checked(ladder="turn", at=16, observable="public.phase",
                        holds=diag._bonus_phase_named,
                        says=lambda t: f"the phase is {t.want.phase.value}: bonus_sow while the "
                                       "bonus sowing's path is chosen, bonus only for the "
                                       "decision to take it (bonus=optional); the engine has "
                                       f"{t.seen.phase.value}"),),
    ),
)
"""What the suite knows of each KALA rule (and of the protocol rule its checks name)."""


# -- The tables built from the entries ------------------------------------------------------

VIEW_RULES = view_rules(RULES)
"""Which rule decides which part of KALA's public view (the whole state, KALA-11), most
specific first: the bean conservation of KALA-18 last."""

TURN: Ladder[diag.Turn] = Ladder(context=diag._turn, checks=ladder_checks(RULES, "turn"))
"""The parts of a turn in their order, each compared with what the engine reports: the
sowing, the harvest, the sixth bean, the stores, the cup's move, the bonus, the end and the
turn."""

LEGAL: Ladder[diag.Listed] = Ladder(context=diag._listed, checks=ladder_checks(RULES, "legal"))
"""Legal paths the engine leaves out, named by what they share (KALA-7, KALA-9)."""

diagnose = Diagnosis((TURN, LEGAL))
"""KALA's own findings: the turn's parts in their order compared with the engine's
reported state, and legal paths left out named by what they share."""

READINGS = readings(RULES)
"""The ``Config`` options that implement readings of the register."""

CATALOGUE = catalogue(RULES, unnamed=wrong.UNNAMED, rare=wrong.RARE)
"""The one catalogue of KALA's misreadings, built from the entries: the explanations,
the kill matrix and the rule book take theirs from it."""
