"""Shared RONDA test helpers: arranged games, positions built to order, scripted turns."""

from __future__ import annotations

from copa_ref.ronda import (
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
    apply,
    check_state,
    new_game,
)

ARRANGEMENT = (3, 0, 1, 4, 2, 2, 0, 4, 1, 3)
"""Places 0..9: 3, 0, 1, 4, 2, 2, 0, 4, 1, 3 (the pairs: 1+6, 2+8, 4+5, 0+9, 3+7)."""


def arranged(config: Config | None = None, cups: tuple[int, ...] = ARRANGEMENT) -> State:
    """A new game with the cups arranged as *cups*."""
    return apply(new_game(config), Arrange(cups))


def position(cups: tuple[int, ...], *, config: Config | None = None,
             supplies: tuple[int, ...] | None = None, black: int = 0, out: int = 0,
             turn: int = 0, lifted: tuple[int, ...] = (), phase: Phase = Phase.LIFT,
             shown: tuple[int, int] | None = None) -> State:
    """A checked position built to order (the beans must add up)."""
    config = config or Config()
    state = State(config=config, phase=phase, cups=cups, lifted=lifted, shown=shown,
                  black=black, out=out,
                  supplies=supplies or (config.beans_per_player,) * config.players, turn=turn)
    check_state(state)
    return state


def act(state: State, kind: str, cup: int | None = None) -> Action:
    """The action *kind* (``lift``, ``add``, ``keep``, ``stop``, ``again``) by the mover."""
    seat = state.turn
    if kind == "lift":
        assert cup is not None
        return Lift(seat, cup)
    if kind == "add":
        assert cup is not None
        return Add(seat, cup)
    if kind == "keep":
        assert cup is not None
        return Keep(seat, cup)
    return Stop(seat) if kind == "stop" else Again(seat)


def play(state: State, script: str) -> State:
    """Play *script*, words like ``lift:4 lift:5 add:4 keep:4 stop``, each by the mover."""
    for word in script.split():
        kind, _, cup = word.partition(":")
        state = apply(state, act(state, kind, int(cup) if cup else None))
    return state
