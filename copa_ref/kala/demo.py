"""A readable KALA position, and a seeded game between two simple players."""

from __future__ import annotations

import random
from collections.abc import Iterator

from copa_ref.kala.rules import apply, legal_actions, new_game, outcome
from copa_ref.kala.state import BOARD, Action, Bonus, Harvest, Phase, Place, Sow, State

__all__ = ["demo", "describe", "greedy_action", "render"]

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


def describe(state: State, action: Action) -> str:
    """One line saying what *action* does in *state*."""
    who = NAMES[action.seat]
    if isinstance(action, Sow):
        kind = "bonus-sows" if state.phase is Phase.BONUS_SOW else "sows"
        squares = " ".join(f"{r},{c}" for r, c in action.path)
        return f"{who} {kind} {len(action.path)} along {squares}"
    if isinstance(action, Harvest):
        return f"{who} {'harvests' if action.take else 'declines the harvest'}"
    if isinstance(action, Bonus):
        return f"{who} {'takes' if action.take else 'declines'} the bonus move"
    assert isinstance(action, Place)
    return f"{who} places the playing cup on {action.square[0]},{action.square[1]}"


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


def demo(seed: int = 1) -> Iterator[str]:
    """A seeded game between two greedy players, each turn shown on the board."""
    rng = random.Random(seed)
    state = new_game()
    yield f"KALA, seed {seed}: A (seat 0) starts on 0,0; B (seat 1) on 3,3."
    yield render(state)
    turn_no = 1
    while outcome(state) is None:
        mover = state.turn
        action = greedy_action(state, rng)
        yield f"  {describe(state, action)}"
        state = apply(state, action)
        if state.turn != mover or state.phase is Phase.OVER:
            yield f"after turn {turn_no}:"
            yield render(state)
            turn_no += 1
    result = outcome(state)
    assert result is not None
    yield (f"{NAMES[result.winners[0]]} wins: {NAMES[result.losers[0]]} has fewer than 4 "
           f"beans for a turn (KALA-17).")
