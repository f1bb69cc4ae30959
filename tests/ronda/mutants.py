"""RONDA mutants: the reference with one rule misread, at least one per rule of
``specs/ronda.md`` (the kill-matrix test, ``tests/conformance/test_kill_matrix.py``)."""

from __future__ import annotations

import attrs

from copa_ref.core import Misreading
from copa_ref.ronda import rules as _rules
from copa_ref.ronda.misreadings import MISREADINGS
from copa_ref.ronda.state import (
    CIRCLE_BEANS,
    PLACES,
    Action,
    Add,
    Config,
    Lift,
    Phase,
    State,
    Stop,
)


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


UNNAMED: dict[str, str] = {
}
"""Mutants the runner does not yet name with their own rule in every failing case, and why
(the kill-matrix test, ``tests/conformance/test_kill_matrix.py``)."""
