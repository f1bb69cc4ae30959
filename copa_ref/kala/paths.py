"""Sowing paths on the 4×4 field: their geometry (KALA-5, KALA-6, KALA-7) and their tables.

A path is the tuple of squares that take one bean each, in order. It is legal when every
step goes to an orthogonally adjacent square of the field (KALA-5), it starts on the
sowing player's own playing cup (KALA-6), and it turns by 90° at most once, never back
(KALA-7). Such a path never visits a square twice.

Every legal path is enumerated once at import time; the rules look paths up in these tables
and use :func:`path_error` only to name the rule a refused path breaks.
"""

from __future__ import annotations

from copa_ref.kala.state import BOARD, Square

__all__ = [
    "DIRECTIONS",
    "MAX_PATH",
    "NEIGHBOURS",
    "PATHS",
    "PATH_SETS",
    "SQUARES",
    "is_path",
    "longest_path",
    "on_board",
    "path_error",
    "turns",
]

DIRECTIONS: tuple[Square, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
"""Up, right, down, left."""

SQUARES: tuple[Square, ...] = tuple((r, c) for r in range(BOARD) for c in range(BOARD))
"""The 16 squares of the field, row by row."""


def on_board(square: Square) -> bool:
    """Whether *square* is one of the 16 field cups.

    :post: __return__ == (0 <= square[0] < 4 and 0 <= square[1] < 4)
    """
    row, col = square
    return 0 <= row < BOARD and 0 <= col < BOARD


def turns(path: tuple[Square, ...]) -> int:
    """How many times the direction changes along *path* (a reversal counts as a change).

    :pre: len(path) <= 8
    :post: 0 <= __return__ <= max(0, len(path) - 2)
    """
    count = 0
    for i in range(2, len(path)):
        before = (path[i - 1][0] - path[i - 2][0], path[i - 1][1] - path[i - 2][1])
        after = (path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1])
        if before != after:
            count += 1
    return count


def path_error(start: Square, path: tuple[Square, ...], length: int) -> tuple[str, str] | None:
    """The rule *path* breaks as a sowing of *length* beans from *start*, or ``None``.

    Checks in the order of the spec: the number of beans (KALA-4, or KALA-13 for a bonus
    sowing: the caller maps it), each step (KALA-5), the start (KALA-6), the turn (KALA-7).

    :pre: len(path) <= 8
    :post: (__return__ is None) == is_path(start, path, length)
    """
    # KALA-4: one bean per square, as many squares as beans.
    if len(path) != length or not path:
        return ("KALA-4", f"path has {len(path)} squares, the sowing has {length} beans")
    # KALA-5: each bean goes into the cup immediately alongside, on the field.
    for square in path:
        if not on_board(square):
            return ("KALA-5", f"square {square} is off the field")
    for i in range(1, len(path)):
        (r0, c0), (r1, c1) = path[i - 1], path[i]
        if abs(r0 - r1) + abs(c0 - c1) != 1:
            return ("KALA-5", f"{path[i]} is not orthogonally adjacent to {path[i - 1]}")
    # KALA-6: the first bean always goes into the personal playing cup.
    if path[0] != start:
        return ("KALA-6", f"path starts at {path[0]}, the playing cup stands on {start}")
    # KALA-7: one 90-degree turn at most, never back.
    for i in range(2, len(path)):
        if path[i] == path[i - 2]:
            return ("KALA-7", f"path turns back at {path[i - 1]}")
    if turns(path) > 1:
        return ("KALA-7", f"path turns {turns(path)} times")
    return None


def is_path(start: Square, path: tuple[Square, ...], length: int) -> bool:
    """Whether *path* is a legal sowing of *length* beans from *start* (KALA-4 to KALA-7).

    :pre: len(path) <= 8
    :post: implies(__return__, len(path) == length and path[0] == start)
    :post: implies(__return__, len(set(path)) == len(path))
    :post: implies(__return__, turns(path) <= 1)
    """
    if len(path) != length or not path or path[0] != start:
        return False
    for square in path:
        if not on_board(square):
            return False
    for i in range(1, len(path)):
        (r0, c0), (r1, c1) = path[i - 1], path[i]
        if abs(r0 - r1) + abs(c0 - c1) != 1:
            return False
        if i >= 2 and path[i] == path[i - 2]:
            return False
    return turns(path) <= 1


def _enumerate(start: Square, length: int) -> tuple[tuple[Square, ...], ...]:
    """Every legal path of *length* squares from *start*: straight, or one 90° turn."""
    found: list[tuple[Square, ...]] = []
    moves = length - 1
    if moves == 0:
        return ((start,),)
    for first in DIRECTIONS:
        for k in range(1, moves + 1):
            seconds = [first] if k == moves else [d for d in DIRECTIONS
                                                  if d[0] * first[0] + d[1] * first[1] == 0]
            for second in seconds:
                path = [start]
                for step in range(moves):
                    dr, dc = first if step < k else second
                    path.append((path[-1][0] + dr, path[-1][1] + dc))
                if all(on_board(sq) for sq in path):
                    found.append(tuple(path))
                if k == moves:
                    break
    return tuple(sorted(set(found)))


MAX_PATH = 2 * BOARD - 1
"""The longest path anywhere: corner to opposite corner with one turn (7 squares)."""

PATHS: dict[tuple[Square, int], tuple[tuple[Square, ...], ...]] = {
    (start, length): _enumerate(start, length)
    for start in SQUARES
    for length in range(1, MAX_PATH + 1)
}
"""Every legal path by (start, number of squares), sorted."""

PATH_SETS: dict[tuple[Square, int], frozenset[tuple[Square, ...]]] = {
    key: frozenset(paths) for key, paths in PATHS.items()
}
"""The same paths as sets, for membership tests."""

_LONGEST: dict[Square, int] = {
    start: max(n for n in range(1, MAX_PATH + 1) if PATHS[(start, n)]) for start in SQUARES
}

NEIGHBOURS: dict[Square, tuple[Square, ...]] = {
    sq: tuple(sorted((sq[0] + dr, sq[1] + dc) for dr, dc in DIRECTIONS
                     if on_board((sq[0] + dr, sq[1] + dc))))
    for sq in SQUARES
}
"""The orthogonal neighbours of every square on the field, sorted."""


def longest_path(start: Square) -> int:
    """The most squares a legal path from *start* can have (5 inside, 6 on an edge, 7 in a
    corner): a shorter path always exists too, since a path cut short is still legal."""
    return _LONGEST[start]
