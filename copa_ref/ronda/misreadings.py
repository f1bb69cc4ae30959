"""Common misreadings of the RONDA rules that are not ``Config`` options.

Each :class:`~copa_ref.core.misreading.Misreading` is tagged with the rule it misreads; the
conformance runner replays a failing case under each of them to explain the failure ("your
engine plays as if ..."). See :mod:`copa_ref.core.misreading`.
"""

from __future__ import annotations

import attrs

from copa_ref.core.misreading import Misreading
from copa_ref.ronda import rules as _rules
from copa_ref.ronda.state import Config, Observation, State

__all__ = [
    "MISREADINGS",
    "empties_never_match",
    "fives_without_the_bean",
    "penalty_first_pair_only",
    "shown_only_while_lifted",
    "six_always_to_black",
]


def empties_never_match(first: int, second: int) -> bool:
    """RONDA-7 misread: two empty cups are no match ("no beans to match")."""
    return first == second and first > 0


def penalty_first_pair_only(state: State) -> bool:
    """RONDA-11 misread: only the first pair of a turn is a mistake, not a chain's new cup
    (asked before the second lift: the first pair's open cup is the one the last lift
    showed; after ``keep`` nothing was shown)."""
    return state.black > 0 and state.shown is not None and state.shown[0] in state.lifted


def fives_without_the_bean(beans: int, supply: int, black: int, out: int, config: Config
                           ) -> tuple[int, int, int, int]:
    """RONDA-10 misread: the group of five goes to the middle without the added bean, which
    the player keeps."""
    if _rules.is_max_pair(beans, config):
        if _rules.goes_to_black(config, black):
            return 0, supply, black + beans, out
        return 0, supply, black, out + beans
    return beans + 1, supply - 1, black, out


def six_always_to_black(config: Config, black: int) -> bool:
    """RONDA-12 misread: every group of the maximum goes into the black cup, even while it
    holds beans."""
    return config.penalty_beans


def shown_only_while_lifted(state: State, seat: int | None = None) -> Observation:
    """RONDA-14 misread: a mismatched cup is covered before anyone reports what it showed."""
    seen = _rules.observe(state, seat)
    return attrs.evolve(seen, shown=None) if not state.lifted else seen


MISREADINGS: tuple[Misreading, ...] = (
    Misreading(rule="RONDA-7", slug="empty-cups-never-match",
               description="two empty cups are taken for no match (0 = 0 is a match)",
               replacements={"is_match": empties_never_match}),
    Misreading(rule="RONDA-10", slug="fives-to-the-middle-without-the-bean",
               description="two fives: the group goes to the middle without the added bean",
               replacements={"add_bean": fives_without_the_bean}),
    Misreading(rule="RONDA-11", slug="penalty-for-the-first-pair-only",
               description="a penalty bean only for a mismatched first pair, not for a "
               "chain's new cup",
               replacements={"penalty_due": penalty_first_pair_only}),
    Misreading(rule="RONDA-12", slug="every-six-to-the-black-cup",
               description="a group of six goes into the black cup even while it holds beans",
               replacements={"goes_to_black": six_always_to_black}),
    Misreading(rule="RONDA-14", slug="mismatch-not-shown",
               description="the count of a cup covered again at once after a mismatch is "
               "not reported",
               replacements={"observe": shown_only_while_lifted}),
)
"""The catalogue, one entry per common misreading."""
