"""A readable HOPPER position, and a seeded game between simple players."""

from __future__ import annotations

import random
from collections.abc import Iterator

from copa_ref.hopper.rules import (
    apply,
    legal_actions,
    new_game,
    outcome,
    points,
    sample_chance,
    shoot_out,
)
from copa_ref.hopper.state import BLACK, Action, Config, Ending, Land, Phase, Shoot, State

__all__ = ["NAMES", "cup_name", "demo", "describe", "render", "simple_shot"]

NAMES = ("A", "B", "C", "D", "E")
"""How the demo names seats 0 to 4."""


def cup_name(cup: int) -> str:
    """``"cup 5"``, or ``"the black cup"``."""
    return "the black cup" if cup == BLACK else f"cup {cup}"


def render(state: State) -> str:
    """The tray (``cup:beans``, ``B`` the black cup), the loose beans, every seat's hand and
    claimed cups, and who is to act."""
    tray = " ".join(f"{'B' if cup == BLACK else cup}:{beans}" for cup, beans in state.tray)
    rows = [f"  tray [{tray or 'empty'}]   loose {state.loose}"]
    for seat, held in enumerate(state.hands):
        cups = [("B" if cup == BLACK else str(cup)) for s, cup in state.claims if s == seat]
        rows.append(f"  {NAMES[seat]}  hand {held:2}  cups [{' '.join(cups)}]")
    result = outcome(state)
    if result is not None:
        winners = ", ".join(NAMES[s] for s in result.winners)
        rows.append(f"  over: {winners} {'win' if len(result.winners) > 1 else 'wins'}, "
                    f"scores {list(result.scores)} ({result.rule})")
    elif state.phase is Phase.LAND:
        aim = "" if state.aim is None else f" aimed at {cup_name(state.aim)}"
        rows.append(f"  {NAMES[state.turn or 0]}'s bean is in the air{aim}")
    elif state.turn is None:
        rows.append("  shoot-out: anyone with beans may shoot")
    else:
        rows.append(f"  {NAMES[state.turn]} to shoot")
    return "\n".join(rows)


def describe(state: State, action: Action) -> str:
    """One line saying what *action* does in *state*."""
    if isinstance(action, Shoot):
        aim = "" if action.aim is None else f" at {cup_name(action.aim)}"
        return f"{NAMES[action.seat]} shoots{aim}"
    if action.cup is None:
        return "  ... the bean lands outside the cups"
    beans = dict(state.tray)[action.cup]
    if beans == 3:
        return f"  ... into {cup_name(action.cup)}: a foursome, {NAMES[state.turn or 0]} " \
               "claims it"
    return f"  ... into {cup_name(action.cup)} ({beans + 1} in it)"


def simple_shot(state: State, rng: random.Random) -> Action:
    """A simple player: aims at a fullest cup in the tray, ties broken at random."""
    options = legal_actions(state)
    beans = dict(state.tray)
    best = max(beans.get(a.aim, 0) for a in options if isinstance(a, Shoot) and a.aim
               is not None) if state.config.aiming else 0
    return rng.choice([a for a in options if isinstance(a, Shoot)
                       and (a.aim is None or beans[a.aim] == best)])


def demo(seed: int, players: int | None = None) -> Iterator[str]:
    """A seeded game between simple players (*players* of them, else 2–5 chosen by the seed;
    the ending chosen by the seed): every claim, with the shots since the one before, the
    tray after it, and the result."""
    rng = random.Random(seed)
    config = Config(players=rng.randint(2, 5) if players is None else players,
                    ending=Ending.END_2 if seed % 2 == 0 else Ending.END_1)
    state = new_game(config)
    ending = "End 2, the longer version" if config.ending is Ending.END_2 else "End 1"
    yield (f"HOPPER, seed {seed}: {config.players} players, {state.hands[0]} beans each, "
           f"{ending}")
    yield render(state)
    shots = since = 0
    while outcome(state) is None:
        action: Action = (sample_chance(state, rng) if state.phase is Phase.LAND
                          else simple_shot(state, rng))
        claims = len(state.claims)
        joined = shoot_out(state)
        if isinstance(action, Land):
            shots += 1
            since += 1
        line = describe(state, action)
        state = apply(state, action)
        if len(state.claims) > claims:
            yield f"  ... {since} shot{'s' if since > 1 else ''} on, {line.strip()[4:]}"
            since = 0
            if shoot_out(state) and not joined:
                yield "  three cups are left: the black cup joins them; the shoot-out begins"
            yield render(state)
    result = outcome(state)
    assert result is not None
    if config.ending is Ending.END_2:
        yield f"{shots} shots; points {list(points(state.claims, config.players, True))}"
    else:
        yield f"{shots} shots; {NAMES[result.winners[0]]} claimed 4 cups first"
