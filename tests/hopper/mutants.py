"""HOPPER's kill-matrix mutants: at least one per rule of ``specs/hopper.md``, each
misreading exactly that rule (a replaced rule function in a private copy of
:mod:`copa_ref.hopper.rules`); the corpus must kill every one with its rule named first."""

from __future__ import annotations

from copa_ref.core import InvalidStateError, Misreading, Outcome, Seat
from copa_ref.hopper import rules
from copa_ref.hopper.misreadings import MISREADINGS
from copa_ref.hopper.state import Config, Ending, Phase, SeatAccuracy, State, TrayCup

__all__ = ["MUTANTS", "UNMUTATABLE"]


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
                                           "replenish-one-bean", "black-cup-at-four",
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
"""Mutants the runner does not yet name with their own rule in every failing case, and why
(the kill-matrix test, ``tests/conformance/test_kill_matrix.py``)."""

VACUOUS: dict[str, str] = {}
"""Hand-made cases no mutant of their rules fails yet (the kill-matrix test)."""
