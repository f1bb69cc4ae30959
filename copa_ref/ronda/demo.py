"""A readable RONDA position, and a seeded game between players with a perfect memory, told
turn by turn in plain words: what each lifted cup showed, why the numbers matched or not,
and what followed, with the rule."""

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
    Phase,
    State,
    Stop,
)

__all__ = ["LEGEND", "demo", "describe", "memory_player", "render", "status"]

LEGEND = (
    "  Legend: the circle is the 10 upturned cups, by place 0 to 9. ?(3) is a covered cup "
    "with",
    "  3 beans under it: the players do not see the number (they remember what they saw "
    "lifted);",
    "  the demo shows it so you can follow. A lifted cup shows its number without the ?. "
    "The",
    "  black cup in the middle starts empty; \"out of the game\" counts the beans removed "
    "for",
    "  good; \"supplies\" is each seat's own beans, to get rid of. A turn: lift two cups; "
    "the",
    "  same number twice and the player adds one of his beans to one of them, then goes on "
    "with",
    "  one cup open or stops; different numbers end the turn.",
)
"""The legend printed under the first picture."""


def _beans(n: int) -> str:
    return f"{n} bean" if n == 1 else f"{n} beans"


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
    supplies = ", ".join(f"seat {s} {b}" for s, b in enumerate(state.supplies))
    return (f"  circle {circle}\n  black cup {state.black}, out of the game {state.out}; "
            f"supplies: {supplies}; {status(state)}")


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
        return f"{who} lifts place {action.cup}: {_beans(state.cups[action.cup])}"
    if isinstance(action, Add):
        return f"{who} adds a bean to place {action.cup}"
    if isinstance(action, Keep):
        return f"{who} keeps place {action.cup} open and goes on"
    if isinstance(action, Again):
        return f"{who} covers both and lifts two anew"
    assert isinstance(action, Stop)
    return f"{who} stops: covers both cups and ends the turn"


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


def _lift(state: State, after: State, action: Lift, memory: tuple[int | None, ...]
          ) -> Iterator[str]:
    """The lines for a lift: what it showed, and why that matched or did not."""
    seat, cup = action.seat, action.cup
    beans = state.cups[cup]
    why = (f"remembered as {beans}" if memory[cup] is not None else "a cup nobody has lifted yet")
    if not state.lifted:
        yield f"  lifts place {cup} ({why}): {_beans(beans)}, seen by everyone (RONDA-5)"
        return
    other = state.lifted[0]
    shown = state.cups[other]
    if after.phase is Phase.ADD:
        yield (f"  lifts place {cup} ({why}): {_beans(beans)}, the same number as place "
               f"{other}'s {shown}: seat {seat} must add one of his beans (RONDA-7)")
        return
    yield (f"  lifts place {cup} ({why}): {_beans(beans)}, not the {shown} of place {other}: "
           f"different numbers, both are covered again and the turn ends (RONDA-6)")
    if after.black < state.black:
        yield (f"  the black cup holds beans, so seat {seat} takes a penalty bean from it: "
               f"{after.supplies[seat]} beans now (RONDA-11)")


def _add(state: State, after: State, action: Add) -> Iterator[str]:
    seat, cup = action.seat, action.cup
    left = after.supplies[seat]
    most = ("the most a cup holds" if state.config.max_beans == 5 else
            "the most a cup holds under simpler rule 2 (RONDA-17)")
    if after.out > state.out and not state.config.penalty_beans:
        yield (f"  two groups of {state.cups[cup]}, {most}: with no penalty beans (simpler "
               f"rule 3, RONDA-18) place {cup}'s {state.cups[cup]} and seat {seat}'s bean "
               f"leave the game; both are covered and his turn ends; {_beans(left)} left")
    elif after.black > state.black:
        yield (f"  two groups of {state.cups[cup]}, {most}: seat {seat} puts "
               f"place {cup}'s {state.cups[cup]} and his bean into the black cup, "
               f"{_beans(after.black)} there; place {cup} stays empty, both are covered "
               f"and his turn ends (RONDA-10); {_beans(left)} left")
    elif after.out > state.out:
        yield (f"  two groups of {state.cups[cup]}, {most}, while the black cup holds beans: "
               f"place "
               f"{cup}'s {state.cups[cup]} and seat {seat}'s bean leave the game; both are "
               f"covered and his turn ends (RONDA-12); {_beans(left)} left")
    else:
        yield (f"  adds a bean to place {cup}: {_beans(after.cups[cup])} there now; "
               f"{_beans(left)} left (RONDA-7)")
    if after.phase is Phase.OVER:
        yield f"  seat {seat} has no beans left: the game is over (RONDA-13)"


def demo(seed: int = 1, config: Config | None = None,
         players: int | None = None) -> Iterator[str]:
    """A seeded game between players with a perfect memory, turn by turn (*players* of
    them, else as *config* says)."""
    rng = random.Random(seed)
    if players is not None:
        config = attrs.evolve(config or Config(), players=players)
    state = new_game(config)
    yield (f"RONDA, seed {seed}: {state.config.players} players with a perfect memory (each "
           "lifts a cup it remembers as a partner, else one it has not seen), "
           f"{state.config.beans_per_player} beans each")
    memory: tuple[int | None, ...] | None = None
    turn_no = 0
    while outcome(state) is None:
        if state.phase is Phase.SET_UP:
            arrange = sample_chance(state, rng)
            state = apply(state, arrange)
            memory = remember(memory, arrange, observe(state, None))
            yield ("set up: the beans are hidden under the cups, shuffled (1, 2, 3 and 4 "
                   "beans under two cups each, two cups empty; RONDA-3):")
            yield render(state)
            yield from LEGEND
            continue
        assert memory is not None
        mover = state.turn
        if not state.lifted and state.phase is Phase.LIFT:
            turn_no += 1
            yield f"turn {turn_no}, seat {mover} ({_beans(state.supplies[mover])}):"
        action = memory_player(state, memory, rng)
        after = apply(state, action)
        if isinstance(action, Lift):
            yield from _lift(state, after, action, memory)
        elif isinstance(action, Add):
            yield from _add(state, after, action)
        elif isinstance(action, Keep):
            other = next(c for c in state.lifted if c != action.cup)
            yield (f"  keeps place {action.cup} open ({_beans(state.cups[action.cup])}), "
                   f"covers place {other} and goes on (RONDA-8)")
        elif isinstance(action, Again):
            yield "  covers both cups and lifts two anew (simpler rule 1, RONDA-16)"
        else:
            yield "  stops: covers both cups, and his turn ends (RONDA-9)"
        memory = remember(memory, action, observe(after, None))
        state = after
        if state.turn != mover or state.phase is Phase.OVER:
            yield render(state)
    result = outcome(state)
    assert result is not None
    winner = result.winners[0]
    others = ", ".join(f"seat {s} {_beans(b)}" for s, b in enumerate(state.supplies)
                       if s != winner)
    yield (f"result: seat {winner} wins: the first to get rid of all his beans, in turn "
           f"{turn_no}; still held: {others} ({result.rule}).")
