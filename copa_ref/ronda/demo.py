"""A readable RONDA position, and a seeded game between players with a perfect memory."""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs

from copa_ref.ronda.rules import (
    apply,
    legal_actions,
    new_game,
    observe,
    outcome,
    remember,
    sample_chance,
)
from copa_ref.ronda.state import (
    Action,
    Add,
    Again,
    Arrange,
    Config,
    Keep,
    Lift,
    Observation,
    Phase,
    State,
    Stop,
)

__all__ = ["demo", "describe", "memory_player", "render", "status"]


def render(state: State) -> str:
    """The circle as text: a lifted cup shows its beans, a covered cup ``?`` (the hidden
    count in brackets), then the black cup, the beans out of the game and every supply."""
    if not state.cups:
        circle = "cups not arranged yet"
    else:
        circle = "  ".join(
            f"{place}:{state.cups[place]}" if place in state.lifted
            else f"{place}:?({state.cups[place]})"
            for place in range(len(state.cups)))
    supplies = " ".join(f"{s}:{b}" for s, b in enumerate(state.supplies))
    return (f"  circle {circle}\n  black cup {state.black}, out of the game {state.out}, "
            f"supplies {supplies}; {status(state)}")


def status(state: State) -> str:
    """Who is to do what, or who has won, in words."""
    if state.phase is Phase.OVER:
        return f"seat {state.turn} has won"
    if state.phase is Phase.SET_UP:
        return "the cups are to be arranged"
    return f"seat {state.turn} is to {state.phase.value}"


def describe(state: State, action: Action) -> str:
    """One line saying what *action* does in *state*."""
    if isinstance(action, Arrange):
        return f"the cups are arranged: {list(action.cups)}"
    who = f"seat {action.seat}"
    if isinstance(action, Lift):
        return f"{who} lifts place {action.cup}: {state.cups[action.cup]} beans"
    if isinstance(action, Add):
        return f"{who} adds a bean to place {action.cup}"
    if isinstance(action, Keep):
        return f"{who} keeps place {action.cup} open and goes on"
    if isinstance(action, Again):
        return f"{who} covers both and lifts two anew"
    assert isinstance(action, Stop)
    return f"{who} misses a go"


def memory_player(state: State, memory: tuple[int | None, ...], rng: random.Random) -> Action:
    """A simple player with a perfect memory of what everyone saw (never the hidden cups):
    lifts a remembered partner of an open cup when it knows one, goes on when it knows a
    partner, otherwise lifts a cup it knows least about."""
    legal = legal_actions(state)
    open_beans = [state.cups[c] for c in state.lifted]
    if state.phase is Phase.LIFT:
        lifts = [a for a in legal if isinstance(a, Lift)]
        if open_beans:
            partner = [a for a in lifts if memory[a.cup] == open_beans[0]]
            if partner:
                return rng.choice(partner)
        unknown = [a for a in lifts if memory[a.cup] is None]
        return rng.choice(unknown or lifts)
    if state.phase is Phase.CHOOSE:
        keeps = [a for a in legal if isinstance(a, Keep)]
        for keep in keeps:
            partners = [c for c, b in enumerate(memory)
                        if b == state.cups[keep.cup] and c not in state.lifted]
            if partners:
                return keep
        again = [a for a in legal if isinstance(a, Again)]
        return again[0] if again and rng.random() < 0.5 else next(
            a for a in legal if isinstance(a, Stop))
    return rng.choice(legal)


def demo(seed: int = 1, config: Config | None = None,
         players: int | None = None) -> Iterator[str]:
    """A seeded game between players with a perfect memory, turn by turn (*players* of
    them, else as *config* says)."""
    rng = random.Random(seed)
    if players is not None:
        config = attrs.evolve(config or Config(), players=players)
    state = new_game(config)
    yield f"RONDA, {state.config.players} players, seed {seed}"
    memory: tuple[int | None, ...] | None = None
    seen: Observation
    turn_no = 0
    while outcome(state) is None:
        if state.phase is Phase.SET_UP:
            action: Action = sample_chance(state, rng)
        else:
            assert memory is not None
            action = memory_player(state, memory, rng)
        mover = state.turn
        yield f"  {describe(state, action)}"
        state = apply(state, action)
        seen = observe(state, None)
        memory = remember(memory, action, seen)
        if state.turn != mover or state.phase is Phase.OVER or isinstance(action, Arrange):
            turn_no += 1
            yield f"after turn {turn_no}:" if not isinstance(action, Arrange) else "set up:"
            yield render(state)
    result = outcome(state)
    assert result is not None
    yield (f"seat {result.winners[0]} wins: the first to get rid of all his beans "
           f"({result.rule}).")
