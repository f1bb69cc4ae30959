"""Deliberately broken copies of DA CAPO's contracted helpers, with the same contracts.

CrossHair must report a counterexample on each (tests/da_capo/test_crosshair.py): proof
that the CrossHair setup checks something. Never imported by the library.
"""

from __future__ import annotations

from copa_ref.da_capo.rules import Table, TieResolution, filled, total_beans

__all__ = ["broken_round_winner", "broken_settle_round", "filled", "total_beans"]


def broken_round_winner(bids: tuple[int | None, ...], tie_resolution: TieResolution
                        ) -> int | None:
    """Like ``round_winner``, but a tied top bid wins (DACAPO-11 broken).

    :pre: len(bids) <= 5
    :pre: all(b is None or 1 <= b <= 5 for b in bids)
    :post: __return__ is None or bids.count(bids[__return__]) == 1
    """
    present = [b for b in bids if b is not None]
    if not present:
        return None
    return bids.index(max(present))


def broken_settle_round(table: Table, bids: tuple[int | None, ...], winner: int | None
                        ) -> Table:
    """Like ``settle_round``, but a round without a winner loses the last seat's beans
    instead of boxing them (DACAPO-3/DACAPO-10 broken).

    :pre: len(table[0]) == len(table[1]) == len(bids) and 2 <= len(bids) <= 5
    :pre: all(len(line) <= 4 for line in table[1])
    :pre: all(b is None or 1 <= b <= r for b, r in zip(bids, table[0]))
    :pre: winner is None or (0 <= winner < len(bids) and bids[winner] is not None)
    :post: total_beans(__return__) == total_beans(table)
    """
    reserves, lines, target, box = table
    new_reserves = tuple(r if b is None else r - b for r, b in zip(reserves, bids, strict=True))
    last = len(bids) - 1
    for seat, b in enumerate(bids):
        if b is None:
            continue
        if seat == winner:
            line = lines[seat]
            count = filled(line)
            if count < len(line):
                line = (*line[:count], b, *line[count + 1:])
            else:
                target += b
            lines = (*lines[:seat], line, *lines[seat + 1:])
        elif winner is None and seat == last:
            continue
        else:
            box += b
    return new_reserves, lines, target, box
