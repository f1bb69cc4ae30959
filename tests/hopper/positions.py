"""Hand-built HOPPER positions for the rule tests."""

from __future__ import annotations

from typing import Any

import attrs

from copa_ref.hopper import Config, Land, Phase, Shoot, State, apply, new_game


def tray_of(*beans: int, cups: tuple[int, ...] | None = None) -> tuple[tuple[int, int], ...]:
    """A tray: cups ``0 .. len(beans)-1`` (or *cups*) holding *beans*."""
    names = cups if cups is not None else tuple(range(len(beans)))
    return tuple(zip(names, beans, strict=True))


def position(config: Config | None = None, **changes: Any) -> State:
    """The initial position of *config* with *changes* to its fields (not checked)."""
    return attrs.evolve(new_game(config), **changes)


def shot(state: State, seat: int, aim: int | None, cup: int | None) -> State:
    """*seat* shoots at *aim* and the bean lands in *cup* (``None``: outside)."""
    if state.phase is Phase.AIM:
        state = apply(state, Shoot(seat, aim))
    return apply(state, Land(cup))


def table(config: Config | None = None, *, tray: tuple[tuple[int, int], ...],
          claims: tuple[tuple[int, int], ...] | None = None, loose: int = 0,
          hands: tuple[int, ...] | None = None, turn: int | None = 0,
          phase: Phase = Phase.AIM, aim: int | None = None) -> State:
    """A checked position: the cups not in *tray* are claimed round-robin from seat 1 unless
    *claims* says otherwise; the beans left over go to seat 0 unless *hands* is given (the
    other seats then hold 10 each)."""
    from copa_ref.hopper.rules import beans_in_play, check_state

    config = Config() if config is None else config
    n = config.players
    if claims is None:
        present = {cup for cup, _ in tray}
        missing = [c for c in range(17 if 16 in present else 16) if c not in present]
        claims = tuple(((i + 1) % n, c) for i, c in enumerate(missing))
    if hands is None:
        rest = beans_in_play(config) - sum(b for _, b in tray) - loose
        hands = (rest - 10 * (n - 1), *(10,) * (n - 1))
    state = State(config, hands, tray, loose, claims, phase, turn, aim)
    check_state(state)
    return state
