"""A readable KALA position, and a seeded game between two simple players."""

from __future__ import annotations

import random
from collections.abc import Iterator

from copa_ref.kala.rules import apply, legal_actions, new_game, outcome
from copa_ref.kala.state import (
    BOARD,
    PLAYERS,
    Action,
    Bonus,
    Config,
    Harvest,
    Phase,
    Place,
    Sow,
    Square,
    State,
)

__all__ = [
    "LEGEND",
    "consequences",
    "demo",
    "describe",
    "greedy_action",
    "render",
    "result_line",
]

NAMES = ("A", "B")
"""How the demo names seat 0 (dark cups) and seat 1 (light cups)."""


def render(state: State) -> str:
    """The 4×4 field with both playing cups, the stores and the bank, as text.

    A field cup shows its beans; a square under a playing cup shows the cup's owner and
    beans, then the beans of the field cup beneath (``A3/1``).
    """
    lines = ["       " + "".join(f"{c:^7}" for c in range(BOARD))]
    for row in range(BOARD):
        cells = []
        for col in range(BOARD):
            beans = state.field[BOARD * row + col]
            cell = f"{beans}"
            for seat in (0, 1):
                if state.cups[seat] == (row, col):
                    cell = f"{NAMES[seat]}{state.cup_beans[seat]}/{beans}"
            cells.append(f"{cell:^7}")
        lines.append(f"  {row}    " + "".join(cells))
    if state.phase is Phase.OVER:
        status = f"game over: {NAMES[1 - state.turn]} wins"
    else:
        status = f"{NAMES[state.turn]} to {state.phase.value.replace('_', ' ')}"
    lines.append(f"  stores A {state.stores[0]}, B {state.stores[1]}; bank {state.bank}; "
                 f"{status}")
    return "\n".join(lines)


LEGEND = """\
  Legend: each number is a field cup and the beans in it (row, column from the top left).
  A3/1 is A's playing cup standing on that square with 3 beans in it, over a field cup with 1.
  A is seat 0 (dark cups), B seat 1 (light cups). A store is a player's own beans, still to
  be sown; the bank keeps the beans that harvests give back (out of play).
  A turn: sow 4 beans from the store one a cup along a line (at most one 90° turn), the
  first into your own playing cup, which then moves onto the cup that took the last bean.
  A cup left with 4 or more beans may be harvested; a playing cup with 4 or more beans
  gives a bonus move. Whoever has fewer than 4 beans for a turn loses."""
"""What the demo prints under its first picture."""


def _where(square: Square) -> str:
    return f"{square[0]},{square[1]}"


def _beans(n: int) -> str:
    return f"{n} bean{'' if n == 1 else 's'}"


def _beans_at(state: State, square: Square) -> int:
    """The beans a harvest of *square* takes: the opponent's playing cup there, else the
    field cup."""
    other = 1 - state.turn
    if state.cups[other] == square:
        return state.cup_beans[other]
    return state.field[BOARD * square[0] + square[1]]


def describe(state: State, action: Action) -> str:
    """One line saying what *action* does in *state*."""
    who = NAMES[action.seat]
    if isinstance(action, Sow):
        squares = " → ".join(_where(s) for s in action.path)
        if state.phase is Phase.BONUS_SOW:
            held = state.cup_beans[action.seat]
            sown = "them" if held == len(action.path) else f"{len(action.path)} of them"
            return f"{who} sows {sown} again along {squares}"
        return (f"sow: 4 beans from {who}'s store, one a cup along {squares}, the first into "
                f"{who}'s own playing cup (KALA-4 … KALA-7)")
    if isinstance(action, Harvest):
        if not action.take:
            return f"{who} leaves the cup as it is (no harvest)"
        assert state.last is not None
        beans = _beans_at(state, state.last)
        return (f"harvest: the cup on {_where(state.last)} held {beans} → 1 to the bank, "
                f"{beans - 1} to {who}'s store (KALA-15)")
    if isinstance(action, Bonus):
        return f"{who} {'takes' if action.take else 'declines'} the bonus move"
    assert isinstance(action, Place)
    return (f"{who} places the playing cup on {_where(action.square)}, next to "
            f"{NAMES[1 - action.seat]}'s cup (KALA-10)")


def consequences(before: State, action: Action, after: State) -> list[str]:
    """A line in plain words for each rule that fired after *action* itself: the cup moved,
    a harvest or a placement due, a bonus move, a bean awarded, the end."""
    seat = action.seat
    who, other = NAMES[seat], NAMES[1 - seat]
    lines: list[str] = []
    if after.stores[1 - seat] > before.stores[1 - seat]:
        gift = after.stores[1 - seat] - before.stores[1 - seat]
        lines.append(f"no path holds every bean: {'the last' if gift == 1 else gift} "
                     f"left over {'goes' if gift == 1 else 'go'} to {other}'s store (KALA-14)")
    if after.phase is Phase.HARVEST and after.last is not None:
        lines.append(f"the cup on {_where(after.last)} now holds "
                     f"{_beans_at(after, after.last)}: 4 or more, so {who} may harvest it "
                     "(KALA-15)")
    if after.phase is Phase.PLACE:
        lines.append(f"the last bean fell into {other}'s playing cup, which {who}'s cup may "
                     "not cover: it goes next to it (KALA-10)")
    if not isinstance(action, Place) and after.cups[seat] != before.cups[seat]:
        lines.append(f"{who}'s playing cup ({_beans(after.cup_beans[seat])}) moves onto "
                     f"{_where(after.cups[seat])}, where the last bean fell (KALA-8)")
    if after.phase in (Phase.BONUS, Phase.BONUS_SOW) and before.phase is not after.phase:
        does = ("may take them all out and sow" if after.phase is Phase.BONUS
                else "takes them all out and sows")
        lines.append(f"bonus: {who}'s playing cup holds {_beans(after.cup_beans[seat])}, 4 "
                     f"or more, so {who} {does} them again from there (KALA-12)")
    return lines


def result_line(state: State) -> str:
    """The result of a finished game, with its reason."""
    result = outcome(state)
    assert result is not None
    loser = result.losers[0]
    return (f"result: {NAMES[result.winners[0]]} wins: {NAMES[loser]} has "
            f"{_beans(state.stores[loser])}, fewer than the 4 a turn needs; stores "
            f"{NAMES[0]} {state.stores[0]}, {NAMES[1]} {state.stores[1]} (KALA-17).")


def greedy_action(state: State, rng: random.Random) -> Action:
    """A simple player: the action that leaves the best store difference right after it,
    ties broken at random."""
    seat = state.turn
    best: list[Action] = []
    best_score = None
    for action in legal_actions(state):
        after = apply(state, action)
        score = after.stores[seat] - after.stores[1 - seat]
        if best_score is None or score > best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return rng.choice(best)


def demo(seed: int = 1, players: int | None = None, config: Config | None = None
         ) -> Iterator[str]:
    """A seeded game between two greedy players, each decision and each rule it sets off told
    in a line, the board shown after every turn.

    :param players: 2 (KALA is for two) or ``None``.
    :param config: the options (default: the default reading).
    """
    if players not in (None, PLAYERS):
        msg = f"KALA is for {PLAYERS} players, not {players}"
        raise ValueError(msg)
    rng = random.Random(seed)
    yield (f"KALA, seed {seed}: two greedy players (each takes what gains most beans at "
           "once). A (seat 0) starts on 0,0; B (seat 1) on 3,3.")
    state = new_game(config)
    yield render(state)
    yield LEGEND
    turn_no = 1
    while state.phase is not Phase.OVER:
        action = greedy_action(state, rng)
        after = apply(state, action)
        if state.phase is Phase.SOW:
            yield f"turn {turn_no}, {NAMES[action.seat]}:"
        yield f"  {describe(state, action)}"
        for line in consequences(state, action, after):
            yield f"  {line}"
        if after.turn != action.seat or after.phase is Phase.OVER:
            yield render(after)
            turn_no += 1
        state = after
    yield result_line(state)
