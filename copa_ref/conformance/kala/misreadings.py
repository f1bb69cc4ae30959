"""The code of KALA's misreadings: the functions and tables a misread copy of
:mod:`copa_ref.kala.rules` is given in place of the reference's.

Each misreading (the reference with one rule read wrongly, as engine authors have read it)
is declared with its rule in ``rules.py``, which builds the catalogue: the runner replays
them to explain a failure ("your engine plays as if …"), the kill-matrix test uses them as
mutants. What stays here is what those declarations refer to, and the kill matrix's lists
by mutant (:data:`UNNAMED`, :data:`RARE`). Rule IDs refer to ``specs/kala.md``.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs

from copa_ref.conformance.vocabulary import Rare
from copa_ref.core import IllegalActionError
from copa_ref.kala import rules as _rules
from copa_ref.kala.paths import (
    DIRECTIONS,
    MAX_PATH,
    NEIGHBOURS,
    SQUARES,
    on_board,
    path_error,
    turns,
)
from copa_ref.kala.state import BOARD, PLAYERS, Config, Phase, Place, Sow, Square, State

__all__ = ["DIAGONAL", "RARE", "UNNAMED", "path_tables"]


Field = tuple[int, ...]
Path = tuple[Square, ...]


def _walks(path: Path, length: int, steps: tuple[Square, ...], max_turns: int,
           turned: int) -> list[Path]:
    if len(path) == length:
        return [path]
    found: list[Path] = []
    for dr, dc in steps:
        nxt = (path[-1][0] + dr, path[-1][1] + dc)
        if not on_board(nxt) or nxt in path:
            continue
        turn = turned
        if len(path) >= 2:
            before = (path[-1][0] - path[-2][0], path[-1][1] - path[-2][1])
            turn += before != (dr, dc)
        if turn <= max_turns:
            found += _walks((*path, nxt), length, steps, max_turns, turn)
    return found


def path_tables(steps: tuple[Square, ...] = DIRECTIONS, max_turns: int = 1,
                ) -> dict[str, object]:
    """The rules module's path tables (``PATH_SETS``, ``_SOWS``) for paths taking *steps*
    and turning at most *max_turns* times: the replacements of a path misreading."""
    paths = {(start, n): tuple(sorted(_walks((start,), n, steps, max_turns, 0)))
             for start in SQUARES for n in range(1, MAX_PATH + 1)}
    return {
        "PATH_SETS": {key: frozenset(found) for key, found in paths.items()},
        "_SOWS": {(seat, start, n): tuple(Sow(seat, p) for p in found)
                  for seat in range(PLAYERS) for (start, n), found in paths.items()},
    }


def _bonus_above_four(beans: int) -> bool:
    return beans > 4


def _sower_keeps_excess(seat: int) -> int:
    return seat


def _end_at_four(beans: int) -> bool:
    return beans <= 4


def _first_bean_beneath(field: Field, cups: tuple[Square, Square], cup_beans: tuple[int, int],
                        seat: int, path: Path) -> tuple[Field, tuple[int, int]]:
    cells, beans = _rules.sow_beans(field, cups, cup_beans, seat, path)
    row, col = path[0]
    moved = list(cells)
    moved[BOARD * row + col] += 1
    held = (beans[0] - 1, beans[1]) if seat == 0 else (beans[0], beans[1] - 1)
    return tuple(moved), held


def _nothing_into_opponent_cup(field: Field, cups: tuple[Square, Square],
                               cup_beans: tuple[int, int], seat: int,
                               path: Path) -> tuple[Field, tuple[int, int]]:
    cells, beans = _rules.sow_beans(field, cups, cup_beans, seat, path)
    other = 1 - seat
    if cups[other] not in path[1:]:
        return cells, beans
    row, col = cups[other]
    moved = list(cells)
    moved[BOARD * row + col] += 1
    held = (beans[0] - 1, beans[1]) if other == 0 else (beans[0], beans[1] - 1)
    return tuple(moved), held


def _harvest_all_to_store(beans: int) -> tuple[int, int]:
    return 0, beans


def _bonus_of_four(state: object) -> int:
    from copa_ref.kala.paths import longest_path
    from copa_ref.kala.state import State

    assert isinstance(state, State)
    return min(4, state.cup_beans[state.turn], longest_path(state.cups[state.turn]))


# -- The kill matrix's further mutants ------------------------------------------------------

DIAGONAL = ((-1, 1), (1, 1), (1, -1), (-1, -1))


def _first_player_ignored(config: Config | None = None) -> State:
    return attrs.evolve(_rules.new_game(config), turn=0)


def _cup_stays(state: State) -> Square | None:
    """The cup stays where it was (KALA-8 misread); the opponent's cup still asks (KALA-10)."""
    assert state.last is not None
    return None if state.last == state.cups[1 - state.turn] else state.cups[state.turn]


def _hidden_cups(state: State, seat: int | None = None) -> State:
    return attrs.evolve(state, cup_beans=(0, 0)) if seat is None else state


_DIAGONAL_NEIGHBOURS = {
    sq: tuple(sorted((sq[0] + dr, sq[1] + dc) for dr, dc in (*DIRECTIONS, *DIAGONAL)
                     if on_board((sq[0] + dr, sq[1] + dc))))
    for sq in SQUARES
}
_DIAGONAL_PLACES = {(seat, sq): tuple(Place(seat, n) for n in near)
                    for seat in range(PLAYERS) for sq, near in _DIAGONAL_NEIGHBOURS.items()}


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


def _declined_bonus_to_store(state: State, cups: tuple[Square, Square] | None = None) -> State:
    """KALA-12 misread: a declined bonus empties the playing cup into the mover's store."""
    if state.phase is Phase.BONUS:
        seat = state.turn
        held = state.cup_beans[seat]
        stores = (state.stores[0] + held, state.stores[1]) if seat == 0 else (
            state.stores[0], state.stores[1] + held)
        cup_beans = (0, state.cup_beans[1]) if seat == 0 else (state.cup_beans[0], 0)
        state = attrs.evolve(state, stores=stores, cup_beans=cup_beans)
    return _rules._end_turn(state, cups)


def _sixth_bean_to_bank(state: State, path: Path) -> State:
    """KALA-14 misread: the beans no bonus path holds go to the bank, not the opponent."""
    seat = state.turn
    excess = state.cup_beans[seat] - len(path)
    if state.phase is Phase.BONUS_SOW and excess > 0:
        cup_beans = (len(path), state.cup_beans[1]) if seat == 0 else (
            state.cup_beans[0], len(path))
        state = attrs.evolve(state, cup_beans=cup_beans, bank=state.bank + excess)
    return _rules._sow(state, path)


@functools.cache
def _straight_longest() -> dict[Square, int]:
    tables = path_tables(max_turns=0)["PATH_SETS"]
    assert isinstance(tables, dict)
    return {start: max(n for n in range(1, MAX_PATH + 1) if tables[(start, n)])
            for start in SQUARES}


class _BonusLength(int):
    """A bonus sowing's length: the tables below give it straight paths only."""


def _straight_bonus_length(state: State) -> int:
    seat = state.turn
    return _BonusLength(min(state.cup_beans[seat], _straight_longest()[state.cups[seat]]))


class _StraightBonus(dict):  # type: ignore[type-arg]
    """A path table whose entries for a bonus length (:class:`_BonusLength`, the last part
    of the key) hold the straight paths only."""

    def __init__(self, table: dict[Any, Any]) -> None:
        super().__init__(table)
        self.straight = {key: type(paths)(p for p in paths
                                          if turns(p if isinstance(p, tuple) else p.path) == 0)
                         for key, paths in table.items()}

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key[-1], _BonusLength):
            return self.straight[key]
        return super().__getitem__(key)


def _refuse_turning_bonus(state: State, start: Square, path: Path, length: int) -> None:
    if path_error(start, path, length) is None:  # a legal path by the reference: it turns
        raise IllegalActionError("KALA-7", f"the bonus sowing goes straight; path turns "
                                           f"{turns(path)} times")
    _rules._refuse_path(state, start, path, length)


# -- The rule book's misreadings ------------------------------------------------------------


def _sow_beneath(field, cups, cup_beans, seat, path):  # type: ignore[no-untyped-def]
    """KALA-9 misread: a bean sown on the opponent's cup falls into the field cup beneath."""
    cells = list(field)
    beans = [cup_beans[0], cup_beans[1]]
    beans[seat] += 1
    for row, col in path[1:]:
        cells[4 * row + col] += 1
    return tuple(cells), (beans[0], beans[1])


def _every_bean(state: State) -> int:
    """KALA-14 misread: the bonus sows every bean in the cup, however many."""
    return state.cup_beans[state.turn]


# -- The kill matrix's lists by mutant -----------------------------------------------------

UNNAMED: dict[str, str] = {}
"""The failing cases of a mutant that cannot name its rule (``"<slug> <case id>"``, or a
slug for all of a mutant's), and why (the kill-matrix test,
``tests/conformance/test_kill_matrix.py``): none."""


RARE: tuple[Rare, ...] = (
    Rare("harvest-all-to-store", (("harvest", "mandatory"), ("first_player", 1))),
    Rare("bonus-above-four",
         (("bonus", "optional"), ("end_check", "start_of_turn"), ("harvest", "optional"))),
    Rare("sower-keeps-excess",
         (("harvest", "mandatory"), ("bonus", "optional"), ("first_player", 0))),
)
"""The mutants (``mutants`` of ``rules.CATALOGUE``) that act only in a rare
situation (a combination of player count and options the corpus never plays): what an
exploration must find beyond the corpus."""
