"""Common misreadings of the KALA rules that are no ``Config`` option.

Each is the reference with one rule read wrongly (:class:`~copa_ref.core.misreading.Misreading`), as
engine authors have read it: the conformance runner replays them to explain a failure
("your engine plays as if …"), and the kill-matrix test uses them as mutants. Rule IDs refer
to ``specs/kala.md``.
"""

from __future__ import annotations

from copa_ref.core import Misreading
from copa_ref.kala import rules as _rules
from copa_ref.kala.paths import DIRECTIONS, MAX_PATH, SQUARES, on_board
from copa_ref.kala.state import BOARD, PLAYERS, Sow, Square

__all__ = ["MISREADINGS", "path_tables"]

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


MISREADINGS: tuple[Misreading, ...] = (
    Misreading(rule="KALA-6", slug="first-bean-into-field-cup",
               description="the first bean goes into the field cup beneath the playing cup",
               replacements={"sow_beans": _first_bean_beneath}),
    Misreading(rule="KALA-7", slug="two-turns",
               description="a path may turn by 90 degrees twice",
               replacements=path_tables(max_turns=2)),
    Misreading(rule="KALA-9", slug="no-bean-into-opponent-cup",
               description="a bean sown over the opponent's playing cup goes into the field "
               "cup beneath it", replacements={"sow_beans": _nothing_into_opponent_cup}),
    Misreading(rule="KALA-12", slug="bonus-above-four",
               description="the bonus move needs more than 4 beans in the cup, not 4 or more",
               replacements={"bonus_due": _bonus_above_four}),
    Misreading(rule="KALA-13", slug="bonus-sows-four",
               description="the bonus move sows 4 beans like a regular sowing; the rest go to "
               "the opponent", replacements={"bonus_length": _bonus_of_four}),
    Misreading(rule="KALA-14", slug="sower-keeps-excess",
               description="the beans no bonus path holds go back to the sower's store",
               replacements={"excess_receiver": _sower_keeps_excess}),
    Misreading(rule="KALA-15", slug="harvest-all-to-store",
               description="a harvest puts every bean into the store, none into the bank",
               replacements={"harvest_split": _harvest_all_to_store}),
    Misreading(rule="KALA-17", slug="end-at-four",
               description="the game ends with 4 beans or fewer, not fewer than 4",
               replacements={"too_few": _end_at_four}),
)
"""Common misreadings of the KALA rules (not ``Config`` options), each tagged with its rule."""
