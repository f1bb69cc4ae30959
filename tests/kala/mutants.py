"""KALA mutants: the reference with one rule misread, at least one per rule of
``specs/kala.md`` (the kill-matrix test, ``tests/conformance/test_kill_matrix.py``)."""

from __future__ import annotations

import attrs

from copa_ref.core import Misreading
from copa_ref.kala import rules as _rules
from copa_ref.kala.misreadings import MISREADINGS, path_tables
from copa_ref.kala.paths import DIRECTIONS, NEIGHBOURS, SQUARES, on_board
from copa_ref.kala.state import PLAYERS, Config, Phase, Place, State

DIAGONAL = ((-1, 1), (1, 1), (1, -1), (-1, -1))


def _first_player_ignored(config: Config | None = None) -> State:
    return attrs.evolve(_rules.new_game(config), turn=0)


def _cup_stays(cups: object, seat: int, last: object) -> object:
    return cups[seat]  # type: ignore[index]


def _hidden_cups(state: State, seat: int | None = None) -> State:
    return attrs.evolve(state, cup_beans=(0, 0)) if seat is None else state


_DIAGONAL_NEIGHBOURS = {
    sq: tuple(sorted((sq[0] + dr, sq[1] + dc) for dr, dc in (*DIRECTIONS, *DIAGONAL)
                     if on_board((sq[0] + dr, sq[1] + dc))))
    for sq in SQUARES
}


def _place_while_harvest_pending(state: State, seat: int | None = None) -> tuple[object, ...]:
    actions = _rules.legal_actions(state, seat)
    if state.phase is Phase.HARVEST and state.last == state.cups[1 - state.turn] and (
            seat is None or seat == state.turn):
        return (*actions, *(Place(state.turn, sq) for sq in NEIGHBOURS[state.last]))
    return actions


def _apply_place_first(state: State, action: object) -> State:
    if state.phase is Phase.HARVEST and isinstance(action, Place) and action.seat == state.turn:
        # The cup is placed first; the harvest is then declined.
        return _rules._apply_place(attrs.evolve(state, phase=Phase.PLACE), action.square)
    return _rules.apply(state, action)  # type: ignore[arg-type]


def _harvest_at_three(beans: int) -> bool:
    return beans >= 3


def _end_below_three(beans: int) -> bool:
    return beans < 3


def _cup_moves_before_harvest(state: State) -> State:
    """The playing cup moves onto the last bean's field cup before the harvest decision."""
    after = _rules._after_sowing(state)
    seat = state.turn
    if (after.phase is Phase.HARVEST and after.last is not None
            and after.last != after.cups[1 - seat]):
        cups = (after.last, after.cups[1]) if seat == 0 else (after.cups[0], after.last)
        return attrs.evolve(after, cups=cups)
    return after


MUTANTS: tuple[Misreading, ...] = (
    *MISREADINGS,
    Misreading(rule="KALA-1", slug="stores-of-14",
               description="the 28 beans are shared: each store starts with 14",
               replacements={"TOTAL_BEANS": 28}),
    Misreading(rule="KALA-2", slug="other-diagonal",
               description="the playing cups start on the other two corners",
               replacements={"START_SQUARES": ((0, 3), (3, 0))}),
    Misreading(rule="KALA-3", slug="first-player-ignored",
               description="seat 0 always moves first, whatever first_player says",
               replacements={"new_game": _first_player_ignored}),
    Misreading(rule="KALA-4", slug="sowing-of-five",
               description="a regular sowing puts 5 beans into play: the cup's and 4 more",
               replacements={"SOWING": 5}),
    Misreading(rule="KALA-5", slug="diagonal-steps",
               description="a path may step diagonally",
               replacements=path_tables(steps=(*DIRECTIONS, *DIAGONAL))),
    Misreading(rule="KALA-8", slug="cup-stays",
               description="the playing cup stays where it is after the sowing",
               replacements={"cup_destination": _cup_stays}),
    Misreading(rule="KALA-10", slug="placed-diagonally",
               description="the cup may also be placed diagonally next to the opponent's cup",
               replacements={"NEIGHBOURS": _DIAGONAL_NEIGHBOURS,
                             "_PLACES": {(seat, sq): tuple(Place(seat, n) for n in near)
                                         for seat in range(PLAYERS)
                                         for sq, near in _DIAGONAL_NEIGHBOURS.items()}}),
    Misreading(rule="KALA-11", slug="cups-hidden",
               description="a spectator does not see the beans in the playing cups",
               replacements={"observe": _hidden_cups}),
    Misreading(rule="KALA-15", slug="harvest-at-three",
               description="a cup left with 3 beans may be harvested too",
               replacements={"harvestable": _harvest_at_three}),
    Misreading(rule="KALA-17", slug="end-below-three",
               description="a player with 3 beans may still sow; the game ends below 3",
               replacements={"too_few": _end_below_three}),
    Misreading(rule="KALA-16", slug="cup-moves-before-harvest",
               description="the playing cup moves onto the harvest cup before the harvest is "
               "decided", replacements={"_after_sowing": _cup_moves_before_harvest}),
    Misreading(rule="KALA-16", slug="place-before-harvest",
               description="with the last bean in the opponent's cup, the cup may be placed "
               "before the harvest is decided (which declines it)",
               replacements={"legal_actions": _place_while_harvest_pending,
                             "apply": _apply_place_first}),
)
"""The KALA mutants: the common misreadings and one-rule mistakes of every rule."""

UNMUTATABLE: dict[str, str] = {
    "KALA-18": "conservation is a consequence of the other rules: every engine that loses or "
    "makes a bean misreads a more specific rule (the bank bean of KALA-15, the sixth bean "
    "of KALA-14, the sowing of KALA-4 to KALA-9), which is named instead",
}
"""Rules with no one-rule mutant, and why."""

UNNAMED: dict[str, str] = {
}
"""Mutants the runner does not yet name with their own rule in every failing case, and why."""

