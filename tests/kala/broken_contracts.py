"""Deliberately wrong copies of contracted KALA functions, with the same contracts.

The CrossHair test runs on these and must report a counterexample for each: proof that the
checks of the real functions are not vacuous. Never imported by the library.
"""

from __future__ import annotations

Square = tuple[int, int]
Field = tuple[int, ...]
SQUARES = tuple((r, c) for r in range(4) for c in range(4))


def sow_beans_losing_at_turn(
    field: Field, cups: tuple[Square, Square], cup_beans: tuple[int, int], seat: int,
    path: tuple[Square, ...],
) -> tuple[Field, tuple[int, int]]:
    """Like ``copa_ref.kala.rules.sow_beans``, but the bean at the turn square is lost.

    :pre: len(field) == 16 and seat in (0, 1) and 1 <= len(path) <= 7
    :pre: all(square in SQUARES for square in path)
    :post: sum(__return__[0]) + sum(__return__[1]) == sum(field) + sum(cup_beans) + len(path)
    """
    other = 1 - seat
    opponent_square = cups[other]
    cells = list(field)
    beans = [cup_beans[0], cup_beans[1]]
    beans[seat] += 1
    for i in range(1, len(path)):
        row, col = path[i]
        turning = i + 1 < len(path) and (path[i + 1][0] - row, path[i + 1][1] - col) != (
            row - path[i - 1][0], col - path[i - 1][1])
        if turning:
            continue  # the planted bug: the bean at the turn square vanishes
        if (row, col) == opponent_square:
            beans[other] += 1
        else:
            cells[4 * row + col] += 1
    return tuple(cells), (beans[0], beans[1])


def is_path_allowing_two_turns(start: Square, path: tuple[Square, ...], length: int) -> bool:
    """Like ``copa_ref.kala.paths.is_path``, but the turn count is not checked.

    :pre: len(path) <= 8
    :post: implies(__return__, len(path) == length and path[0] == start)
    :post: implies(__return__, len(set(path)) == len(path))
    :post: implies(__return__, turns(path) <= 1)
    """
    if len(path) != length or not path or path[0] != start:
        return False
    for row, col in path:
        if not (0 <= row < 4 and 0 <= col < 4):
            return False
    for i in range(1, len(path)):
        (r0, c0), (r1, c1) = path[i - 1], path[i]
        if abs(r0 - r1) + abs(c0 - c1) != 1:
            return False
        if i >= 2 and path[i] == path[i - 2]:
            return False
    return True  # the planted bug: two turns pass


def turns(path: tuple[Square, ...]) -> int:
    """The number of direction changes (as in ``copa_ref.kala.paths.turns``)."""
    count = 0
    for i in range(2, len(path)):
        before = (path[i - 1][0] - path[i - 2][0], path[i - 1][1] - path[i - 2][1])
        after = (path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1])
        if before != after:
            count += 1
    return count
