"""Common misreadings of the RONDA rules that are not ``Config`` options.

Each :class:`~copa_ref.core.misreading.Misreading` is tagged with the rule it misreads; the
conformance runner replays a failing case under each of them to explain the failure ("your
engine plays as if ..."). See :mod:`copa_ref.core.misreading`.
"""

from __future__ import annotations

import attrs

from copa_ref.conformance.vocabulary import Catalogue, Rare
from copa_ref.core import Misreading
from copa_ref.ronda import rules as _rules
from copa_ref.ronda.state import (
    CIRCLE_BEANS,
    PLACES,
    Action,
    Add,
    Config,
    Lift,
    Observation,
    Phase,
    State,
    Stop,
)

__all__ = ["CATALOGUE", "MISREADINGS", "MUTANTS", "PICTURED", "RARE", "UNMUTATABLE", "UNNAMED"]



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


# -- The kill matrix's mutants --------------------------------------------------------------
#
# RONDA mutants: the reference with one rule misread, at least one per rule of
# ``specs/ronda.md`` (the kill-matrix test, ``tests/conformance/test_kill_matrix.py``).


def _circle_empty_before_arrangement(state: State) -> int:
    return sum(state.cups)


def _nine_beans(config: Config) -> int:
    return 9


def _ten_beans(config: Config) -> int:
    return 10


def _any_twenty(cups: object) -> str | None:
    error = _rules.arrangement_error(cups)
    assert isinstance(cups, tuple)
    if error is not None and len(cups) == PLACES and sum(cups) == CIRCLE_BEANS and max(
            cups) <= 4:
        return None
    return error


def _counter_clockwise(state: State) -> int:
    return (state.turn - 1) % len(state.supplies)


def _lift_lifted(lifted: tuple[int, ...], cup: int) -> str | None:
    return None if 0 <= cup < PLACES else "there is no cup there"


_LIFT_ANY = tuple(
    {lifted: tuple(Lift(seat, c) for c in range(PLACES))
     for lifted in [(), *((c,) for c in range(PLACES))]}
    for seat in range(5))
_ADDS_WITH_TWINS = tuple(
    {**table, **{(c, c): (Add(seat, c),) for c in range(PLACES)}}
    for seat, table in enumerate(_rules._ADDS))


_ADDS_OR_STOP = tuple(
    {pair: (*adds, Stop(seat)) for pair, adds in table.items()}
    for seat, table in enumerate(_rules._ADDS))


def _apply_optional_add(state: State, action: Action) -> State:
    if state.phase is Phase.ADD and type(action) is Stop and action.seat == state.turn:
        return _rules._stop(state)
    return _rules.apply(state, action)


def _mismatch_keeps_turn(state: State, cup: int, beans: int) -> State:
    after = _rules._mismatch(state, cup, beans)
    return attrs.evolve(after, turn=state.turn)


def _keep_covers_it(state: State, cup: int) -> State:
    other = next(c for c in state.lifted if c != cup)
    return attrs.evolve(_rules._keep(state, cup), lifted=(other,))


def _stop_keeps_turn(state: State) -> State:
    return attrs.evolve(_rules._stop(state), turn=state.turn)


def _never_a_penalty(state: State) -> bool:
    return False


def _never_wins(supply: int) -> bool:
    return supply < 0


def _circle_always_twenty(state: State) -> int:
    return CIRCLE_BEANS


def _again_keeps_one(state: State) -> State:
    return attrs.evolve(_rules._again(state), lifted=state.lifted[:1])


def _always_five(beans: int, config: Config) -> bool:
    return beans == 5


def _black_without_penalties(config: Config, black: int) -> bool:
    return black == 0


MUTANTS: tuple[Misreading, ...] = (
    *MISREADINGS,
    Misreading(rule="RONDA-1", slug="circle-empty-before-arrangement",
               description="the twenty beans are not counted in the circle before the cups "
               "are arranged", replacements={"circle_beans": _circle_empty_before_arrangement}),
    Misreading(rule="RONDA-2", slug="nine-beans-each",
               description="each player receives nine beans (the materials list)",
               replacements={"starting_beans": _nine_beans}),
    Misreading(rule="RONDA-2", slug="ten-beans-always",
               description="each player receives ten beans whatever the option says",
               replacements={"starting_beans": _ten_beans}),
    Misreading(rule="RONDA-3", slug="any-twenty-beans",
               description="any arrangement of twenty beans, four at most a cup, is accepted",
               replacements={"arrangement_error": _any_twenty}),
    Misreading(rule="RONDA-4", slug="counter-clockwise",
               description="the turn passes counter-clockwise",
               replacements={"next_seat": _counter_clockwise}),
    Misreading(rule="RONDA-5", slug="lift-a-lifted-cup",
               description="the open cup may be lifted again as the second cup",
               replacements={"lift_error": _lift_lifted, "_LIFTS": _LIFT_ANY,
                             "_ADDS": _ADDS_WITH_TWINS}),
    Misreading(rule="RONDA-6", slug="mismatch-keeps-the-turn",
               description="after a mismatch the same player lifts again",
               replacements={"_mismatch": _mismatch_keeps_turn}),
    Misreading(rule="RONDA-7", slug="adding-is-optional",
               description="after a match the player may stop without adding a bean",
               replacements={"_ADDS": _ADDS_OR_STOP, "apply": _apply_optional_add}),
    Misreading(rule="RONDA-8", slug="keep-covers-the-named-cup",
               description="keep covers the named group and goes on with the other",
               replacements={"_keep": _keep_covers_it}),
    Misreading(rule="RONDA-9", slug="stop-keeps-the-turn",
               description="missing a go covers both, but the same player lifts again",
               replacements={"_stop": _stop_keeps_turn}),
    Misreading(rule="RONDA-11", slug="no-penalty-beans",
               description="no penalty bean is ever taken",
               replacements={"penalty_due": _never_a_penalty}),
    Misreading(rule="RONDA-13", slug="no-win-at-zero",
               description="a player who gives his last bean plays on",
               replacements={"has_won": _never_wins}),
    Misreading(rule="RONDA-15", slug="circle-always-twenty",
               description="the circle is reported as holding its twenty beans throughout",
               replacements={"circle_beans": _circle_always_twenty}),
    Misreading(rule="RONDA-16", slug="again-keeps-one-open",
               description="simpler rule 1: one group stays open when lifting anew",
               replacements={"_again": _again_keeps_one}),
    Misreading(rule="RONDA-17", slug="maximum-always-five",
               description="simpler rule 2 ignored: two fours do not go to the middle",
               replacements={"is_max_pair": _always_five}),
    Misreading(rule="RONDA-18", slug="black-cup-without-penalty-beans",
               description="simpler rule 3 ignored: groups go to the black cup, penalties "
               "follow", replacements={"goes_to_black": _black_without_penalties}),
)
"""Every RONDA mutant: the common misreadings and one or more per rule."""

UNMUTATABLE: dict[str, str] = {}
"""Every RONDA rule has a mutant."""


UNNAMED: dict[str, str] = {}
"""The failing cases of a mutant that cannot name its rule (``"<slug> <case id>"``, or a
slug for all of a mutant's), and why (the kill-matrix test,
``tests/conformance/test_kill_matrix.py``): none."""


# -- The rule book's misreadings ------------------------------------------------------------

PICTURED: tuple[Misreading, ...] = ()
"""Misreadings the rule book uses to find the step where a rule it pictures fires, for
the rules no other misreading of the catalogue covers yet."""


RARE: tuple[Rare, ...] = (
    Rare("mismatch-keeps-the-turn", (("players", 5), ("relift_after_match", True))),
    Rare("stop-keeps-the-turn", (("players", 3), ("max_beans", 4))),
    Rare("empty-cups-never-match", (("players", 4), ("beans_per_player", 9))),
)
"""The mutants above that act only in a rare situation (a combination of player count and
options the corpus never plays): what an exploration must find beyond the corpus."""


CATALOGUE = Catalogue(misreadings=MISREADINGS, mutants=MUTANTS, unmutatable=UNMUTATABLE,
                      unnamed=UNNAMED, rare=RARE, pictured=PICTURED)
"""The one catalogue of ronda's misreadings: the explanations, the kill matrix and the rule
book take theirs from it."""
