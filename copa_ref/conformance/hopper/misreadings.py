"""Common misreadings of HOPPER that are not ``Config`` options.

Each :class:`~copa_ref.core.misreading.Misreading` replaces a rule function in a private copy of
:mod:`copa_ref.hopper.rules` (see :mod:`copa_ref.core.misreading`); the conformance runner
replays them to explain a failure ("your engine plays as if …").
"""

from __future__ import annotations

from copa_ref.conformance.vocabulary import Catalogue, Rare
from copa_ref.core import InvalidStateError, Misreading, Outcome, Seat
from copa_ref.hopper import rules
from copa_ref.hopper.state import BLACK, Claim, Config, Ending, Phase, SeatAccuracy, State, TrayCup

__all__ = ["CATALOGUE", "MISREADINGS", "MUTANTS", "PICTURED", "RARE", "UNMUTATABLE", "UNNAMED",
           "VACUOUS"]



def drop_bean_claimed_beans_to_box(tray: tuple[TrayCup, ...], cup: int | None, loose: int
                                   ) -> tuple[tuple[TrayCup, ...], int, bool]:
    """HOPPER-19 misread: a claimed cup's four beans leave the game (into the box)."""
    tray, loose, claimed = rules.drop_bean(tray, cup, loose)
    return tray, loose - 4 if claimed else loose, claimed


def replenish_one_bean(hand: int, loose: int) -> tuple[int, int]:
    """HOPPER-10 misread: an empty-handed shooter takes one loose bean, not all of them."""
    if hand == 0 and loose > 0:
        return 1, loose - 1
    return hand, loose


def replenish_while_holding(hand: int, loose: int) -> tuple[int, int]:
    """HOPPER-10 misread: every shooter takes up the loose beans, empty-handed or not."""
    return hand + loose, 0


def counter_clockwise(hands: tuple[int, ...], loose: int, seat: int) -> int:
    """HOPPER-4 misread: the turn passes to ``seat - 1`` (skipping as HOPPER-11 says)."""
    n = len(hands)
    for step in range(1, n + 1):
        candidate = (seat - step) % n
        if hands[candidate] > 0 or loose > 0:
            return candidate
    return seat


def close_up_moving_the_last_cup(tray: tuple[TrayCup, ...], cup: int) -> tuple[TrayCup, ...]:
    """HOPPER-9 misread: the gap is filled by moving the tray's last cup into it."""
    cups = list(tray)
    for i, (name, _) in enumerate(cups):
        if name == cup:
            last = cups.pop()
            if i < len(cups):
                cups[i] = last
            return tuple(cups)
    return tray


def black_joins_at_four(config: Config, tray: tuple[TrayCup, ...], claims: tuple[Claim, ...]
                        ) -> tuple[TrayCup, ...]:
    """HOPPER-14 misread: the black cup joins when 4 cups are left, not 3."""
    if config.ending is Ending.END_2 and len(tray) == 4 and len(tray) + len(claims) == 16:
        return (*tray, (BLACK, 0))
    return tray


def last_cup_bonus_added(claims: tuple[Claim, ...], players: int, finished: bool
                         ) -> tuple[int, ...]:
    """HOPPER-16 misread: the last cup's 3 points come on top of its value."""
    scores = list(rules.points(claims, players, finished))
    if finished and claims:
        seat, cup = claims[-1]
        scores[seat] += rules.cup_value(cup)
    return tuple(scores)


MISREADINGS: tuple[Misreading, ...] = (
    Misreading(rule="HOPPER-19", slug="claimed-beans-to-box",
               description="a claimed cup's four beans are taken out of the game instead of "
                           "being put back into play as loose beans",
               replacements={"drop_bean": drop_bean_claimed_beans_to_box}),
    Misreading(rule="HOPPER-10", slug="replenish-one-bean",
               description="a player who runs out takes one loose bean, not all of them",
               replacements={"replenish": replenish_one_bean}),
    Misreading(rule="HOPPER-10", slug="replenish-while-holding",
               description="every shooter takes up the loose beans, even with beans in hand",
               replacements={"replenish": replenish_while_holding}),
    Misreading(rule="HOPPER-4", slug="counter-clockwise",
               description="the turn passes to the right (seat - 1) instead of clockwise",
               replacements={"next_turn": counter_clockwise}),
    Misreading(rule="HOPPER-9", slug="close-up-moving-last-cup",
               description="the gap of a claimed cup is filled by moving the last cup into it "
                           "instead of shifting the others closer",
               replacements={"close_up": close_up_moving_the_last_cup}),
    Misreading(rule="HOPPER-14", slug="black-cup-at-four",
               description="the black cup joins when four cups are left, not three",
               replacements={"black_joins": black_joins_at_four}),
    Misreading(rule="HOPPER-16", slug="last-cup-bonus-added",
               description="the last cup scores 3 on top of its value instead of 3 in all",
               replacements={"points": last_cup_bonus_added}),
)
"""HOPPER's common misreadings, each naming the rule it misreads."""


# -- The kill matrix's mutants --------------------------------------------------------------
#
# HOPPER's kill-matrix mutants: at least one per rule of ``specs/hopper.md``, each
# misreading exactly that rule (a replaced rule function in a private copy of
# :mod:`copa_ref.hopper.rules`); the corpus must kill every one with its rule named first.



def _no_check(state: State, value: object) -> None:
    """Accept anything (the check of a rule left out)."""


def _fifteen_cups(config: Config) -> tuple[TrayCup, ...]:
    return tuple((cup, 0) for cup in range(15))


def _remainder_dealt(config: Config) -> tuple[tuple[int, ...], int]:
    share, rest = divmod(config.total_beans, config.players)
    return tuple(share + (1 if s < rest else 0) for s in range(config.players)), 0


def _remainder_ignored(config: Config) -> tuple[tuple[int, ...], int]:
    return (config.total_beans // config.players,) * config.players, 0


def _seat_0_first(config: Config) -> int:
    return 0


def _unaimed_shot_decided(state: State) -> bool:
    return len(state.tray) != 1


def _aimed_shot_model_only(config: Config) -> None:
    if isinstance(config.shot_model, SeatAccuracy):
        msg = "the only shot model is the aimed shot"
        raise InvalidStateError("HOPPER-6", msg)
    rules.check_shot_model(config)


def _empty_cup_bounces(tray: tuple[TrayCup, ...], cup: int | None, loose: int
                       ) -> tuple[tuple[TrayCup, ...], int, bool]:
    if cup is not None and dict(tray).get(cup) == 0:
        return tray, loose + 1, False
    return rules.drop_bean(tray, cup, loose)


def _outside_bean_lost(tray: tuple[TrayCup, ...], cup: int | None, loose: int
                       ) -> tuple[tuple[TrayCup, ...], int, bool]:
    if cup is None:
        return tray, loose, False
    return rules.drop_bean(tray, cup, loose)


def _foursome_at_five(beans: int) -> bool:
    return beans == 4


def _anyone_shoots(hands: tuple[int, ...], loose: int, seat: int) -> bool:
    return True


def _five_cups_win(claims: tuple[tuple[int, int], ...]) -> int | None:
    counts: dict[int, int] = {}
    for seat, _ in claims:
        counts[seat] = counts.get(seat, 0) + 1
        if counts[seat] == 5:
            return seat
    return None


def _end_2_ends_at_four(state: State) -> bool:
    return rules.winner_end_1(state.claims) is not None or not state.tray


def _no_shoot_out(state: State) -> bool:
    return False


def _tie_to_lowest_seat(state: State) -> Outcome | None:
    result = rules.outcome(state)
    if result is None or state.config.ending is Ending.END_1 or state.phase is not Phase.OVER:
        return result
    return Outcome(winners=(Seat(result.winners[0]),), scores=result.scores, rule=result.rule)


def _mutant(rule: str, slug: str, description: str, **replacements: object) -> Misreading:
    return Misreading(rule=rule, slug=slug, description=description, replacements=replacements)


MUTANTS: tuple[Misreading, ...] = (
    _mutant("HOPPER-1", "any-seat-number", "a shot by a seat that does not exist is not "
            "refused for that reason", check_seat=_no_check),
    _mutant("HOPPER-2", "fifteen-cups", "the tray starts with 15 cups", initial_tray=_fifteen_cups),
    _mutant("HOPPER-3", "remainder-dealt", "the remainder is dealt to the first seats",
            deal=_remainder_dealt),
    _mutant("HOPPER-3", "remainder-ignored", "the remainder stays in the box whatever "
            "Config.remainder says", deal=_remainder_ignored),
    _mutant("HOPPER-4", "first-player-ignored", "seat 0 shoots first whoever is nominated",
            first_turn=_seat_0_first),
    _mutant("HOPPER-5", "unaimed-shot-decided", "with aiming off the shooter still decides "
            "each turn-play shot (an unaimed shoot) instead of every shot being pure chance",
            aim_chosen=_unaimed_shot_decided),
    _mutant("HOPPER-6", "aimed-shot-model-only", "only the default aimed-shot model is "
            "accepted: a config with a per-seat accuracy model is refused",
            check_shot_model=_aimed_shot_model_only),
    _mutant("HOPPER-5", "aim-anywhere", "a shot may be aimed at any cup name, or none",
            check_aim=_no_check),
    _mutant("HOPPER-6", "land-anywhere", "a bean may land in a cup that is not in the tray",
            check_landing=_no_check),
    _mutant("HOPPER-7", "empty-cup-bounces", "a bean bounces out of an empty cup",
            drop_bean=_empty_cup_bounces),
    _mutant("HOPPER-7", "outside-bean-lost", "a bean landing outside the cups leaves the "
            "game instead of lying loose (back in play for a seat that runs out)",
            drop_bean=_outside_bean_lost),
    _mutant("HOPPER-8", "foursome-at-five", "a cup is claimed by its fifth bean, not its fourth",
            is_foursome=_foursome_at_five),
    _mutant("HOPPER-11", "no-skip", "an empty-handed seat is not skipped when none are loose",
            can_shoot=_anyone_shoots),
    _mutant("HOPPER-12", "five-cups-win", "End 1 is won with 5 cups", winner_end_1=_five_cups_win),
    _mutant("HOPPER-13", "end-2-at-four-cups", "End 2 also ends when a seat has 4 cups",
            game_over=_end_2_ends_at_four),
    _mutant("HOPPER-15", "no-shoot-out", "the turns go on after the black cup has joined",
            shoot_out=_no_shoot_out),
    _mutant("HOPPER-17", "tie-to-lowest-seat", "a tie on points goes to the lowest seat",
            outcome=_tie_to_lowest_seat),
    *(m for m in MISREADINGS if m.slug in {"counter-clockwise", "close-up-moving-last-cup",
                                           "replenish-one-bean", "replenish-while-holding",
                                           "black-cup-at-four",
                                           "last-cup-bonus-added", "claimed-beans-to-box"}),
)
"""One or more mutants per mutatable rule."""

UNMUTATABLE: dict[str, str] = {
    "HOPPER-18": "states an absence (nothing is hidden): observe returns the whole state, and "
                 "any change to it shows as the part of the view it changes, named by that "
                 "part's rule",
}
"""Rules no one-rule mutant can misread, and why."""

UNNAMED: dict[str, str] = {}
"""The failing cases of a mutant that cannot name its rule (``"<slug> <case id>"``, or a
slug for all of a mutant's), and why (the kill-matrix test,
``tests/conformance/test_kill_matrix.py``): none."""

VACUOUS: dict[str, str] = {}
"""Hand-made cases no mutant of their rules fails yet (the kill-matrix test)."""


# -- The rule book's misreadings ------------------------------------------------------------

PICTURED: tuple[Misreading, ...] = ()
"""Misreadings the rule book uses to find the step where a rule it pictures fires, for
the rules no other misreading of the catalogue covers yet."""


RARE: tuple[Rare, ...] = (
    Rare("no-shoot-out", (("players", 4), ("ending", "end_2"), ("remainder", "loose"))),
    Rare("empty-cup-bounces", (("players", 5), ("aiming", False))),
    Rare("replenish-one-bean", (("players", 3), ("total_beans", 50))),
)
"""The mutants above that act only in a rare situation (a combination of player count and
options the corpus never plays): what an exploration must find beyond the corpus."""


CATALOGUE = Catalogue(misreadings=MISREADINGS, mutants=MUTANTS, unmutatable=UNMUTATABLE,
                      unnamed=UNNAMED, rare=RARE, vacuous=VACUOUS, pictured=PICTURED)
"""The one catalogue of hopper's misreadings: the explanations, the kill matrix and the rule
book take theirs from it."""
