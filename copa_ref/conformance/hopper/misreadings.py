"""The code of HOPPER's misreadings: the functions a misread copy of
:mod:`copa_ref.hopper.rules` is given in place of the reference's (see
:mod:`copa_ref.core.misreading`).

Each misreading is declared with its rule in ``rules.py``, which builds the catalogue: the
runner replays them to explain a failure ("your engine plays as if …"), the kill-matrix
test uses them as mutants. What stays here is what those declarations refer to, and the
kill matrix's lists by mutant and case (:data:`UNNAMED`, :data:`VACUOUS`, :data:`RARE`).
"""

from __future__ import annotations

from copa_ref.conformance.vocabulary import Rare
from copa_ref.core import InvalidStateError, Outcome, Seat
from copa_ref.hopper import rules
from copa_ref.hopper.state import BLACK, Claim, Config, Ending, Phase, SeatAccuracy, State, TrayCup

__all__ = ["RARE", "UNNAMED", "VACUOUS"]


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


# -- The kill matrix's further mutants ------------------------------------------------------



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


# -- The kill matrix's lists by mutant -----------------------------------------------------

UNNAMED: dict[str, str] = {}
"""The failing cases of a mutant that cannot name its rule (``"<slug> <case id>"``, or a
slug for all of a mutant's), and why (the kill-matrix test,
``tests/conformance/test_kill_matrix.py``): none."""

VACUOUS: dict[str, str] = {}
"""Hand-made cases no mutant of their rules fails yet (the kill-matrix test)."""


RARE: tuple[Rare, ...] = (
    Rare("no-shoot-out", (("players", 4), ("ending", "end_2"), ("remainder", "loose"))),
    Rare("empty-cup-bounces", (("players", 5), ("aiming", False))),
    Rare("replenish-one-bean", (("players", 3), ("total_beans", 50))),
)
"""The mutants (``mutants`` of ``rules.CATALOGUE``) that act only in a rare
situation (a combination of player count and options the corpus never plays): what an
exploration must find beyond the corpus."""
