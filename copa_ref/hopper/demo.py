"""A readable HOPPER position, and a seeded game between simple players, told shot by shot
in plain words: where each bean landed and why that mattered, with the rule."""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs

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

__all__ = ["LEGEND", "NAMES", "cup_name", "demo", "describe", "render", "simple_shot"]

NAMES = ("A", "B", "C", "D", "E")
"""How the demo names seats 0 to 4."""

LEGEND = (
    "  Legend: the tray lists every cup in it as cup:beans (cups 0 to 15 are the neutral "
    "cups;",
    "  \"black\" is the black cup, which joins only in End 2's shoot-out). \"loose\" is the "
    "beans",
    "  that landed outside the cups: they stay in the tray, in play. A to E are the "
    "players:",
    "  \"hand\" is the beans each still holds, \"cups\" the cups he has claimed. A turn is "
    "one",
    "  shot, aimed at a cup; chance says where the bean lands. A bean into a cup that "
    "already",
    "  holds 3 makes a foursome: the shooter claims the cup and its 4 beans go back into "
    "play,",
    "  loose. A player with no beans takes all the loose ones before he shoots. The turn "
    "passes",
    "  clockwise, A, B, C, ... (HOPPER-4).",
)
"""The legend printed under the first picture."""


def cup_name(cup: int) -> str:
    """``"cup 5"``, or ``"the black cup"``."""
    return "the black cup" if cup == BLACK else f"cup {cup}"


def _short(cup: int) -> str:
    return "black" if cup == BLACK else str(cup)


def render(state: State) -> str:
    """The tray (``cup:beans``, ``black`` the black cup), the loose beans, every seat's hand
    and claimed cups, and who is to act."""
    tray = " ".join(f"{_short(cup)}:{beans}" for cup, beans in state.tray)
    rows = [f"  tray [{tray or 'empty'}]   loose {state.loose}"]
    for seat, held in enumerate(state.hands):
        cups = [_short(cup) for s, cup in state.claims if s == seat]
        rows.append(f"  {NAMES[seat]}  hand {held:2}  cups [{' '.join(cups)}]")
    result = outcome(state)
    if result is not None:
        winners = ", ".join(NAMES[s] for s in result.winners)
        rows.append(f"  game over: {winners} {'win' if len(result.winners) > 1 else 'wins'}")
    elif state.phase is Phase.LAND:
        aim = "" if state.aim is None else f" aimed at {cup_name(state.aim)}"
        rows.append(f"  {NAMES[state.turn or 0]}'s bean is in the air{aim}")
    elif state.turn is None:
        rows.append("  shoot-out: anyone with beans may shoot")
    else:
        rows.append(f"  {NAMES[state.turn]} to shoot")
    return "\n".join(rows)


def _close_up(before: State, claimed: int | None) -> str:
    """How the other cups close up around the claimed cup, in words: which cups now stand
    side by side (the tray as :func:`render` draws it)."""
    cups = [cup for cup, _ in before.tray]
    if claimed not in cups:
        return "the other cups close up"
    at = cups.index(claimed)
    left = cups[at - 1] if at > 0 else None
    right = cups[at + 1] if at + 1 < len(cups) else None
    if left is not None and right is not None:
        return (f"the other cups close up: {cup_name(left)} and {cup_name(right)} now stand "
                "side by side")
    if left is None and right is None:
        return "no other cup is left in the tray"
    end = right if left is None else left
    assert end is not None
    return f"the other cups close up: {cup_name(end)} is now at the end"


def _beans(n: int) -> str:
    return f"{n} bean" if n == 1 else f"{n} beans"


def describe(state: State, action: Action) -> str:
    """One line saying what *action* does in *state* and why, with the rule."""
    if isinstance(action, Shoot):
        aim = "" if action.aim is None else f" at {cup_name(action.aim)}"
        return f"{NAMES[action.seat]} shoots{aim} (HOPPER-5)"
    who = NAMES[state.turn or 0]
    if action.cup is None:
        return ("the bean lands outside the cups: it stays in the tray, loose "
                "(HOPPER-7)")
    beans = dict(state.tray)[action.cup]
    where = ("the cup aimed at" if action.cup == state.aim
             else "not the cup aimed at: chance, HOPPER-6" if state.aim is not None
             else "by chance, HOPPER-6")
    if beans == 3:
        return (f"into {cup_name(action.cup)} ({where}), which already held 3: a foursome, "
                f"so {who} claims it (HOPPER-8)")
    return f"into {cup_name(action.cup)} ({where}): {_beans(beans + 1)} in it now (HOPPER-7)"


def simple_shot(state: State, rng: random.Random) -> Action:
    """A simple player: aims at a fullest cup in the tray, ties broken at random."""
    options = legal_actions(state)
    beans = dict(state.tray)
    best = max(beans.get(a.aim, 0) for a in options if isinstance(a, Shoot) and a.aim
               is not None) if state.config.aiming else 0
    return rng.choice([a for a in options if isinstance(a, Shoot)
                       and (a.aim is None or beans[a.aim] == best)])


def _why_aim(state: State, aim: int | None) -> str:
    if aim is None:
        return ""
    beans = dict(state.tray)[aim]
    return (f", the fullest cup ({_beans(beans)})" if beans
            else ", every cup being empty")


def _result(state: State) -> str:
    result = outcome(state)
    assert result is not None
    names = " and ".join(NAMES[s] for s in result.winners)
    verb = "win" if len(result.winners) > 1 else "wins"
    if state.config.ending is Ending.END_1:
        seat = result.winners[0]
        cups = ", ".join(_short(c) for s, c in state.claims if s == seat)
        return (f"result: {names} {verb}: the first to claim 4 cups ({cups}); cups claimed "
                + ", ".join(f"{NAMES[s]} {n}" for s, n in enumerate(result.scores))
                + f" ({result.rule}).")
    return (f"result: {names} {verb}: the most points (1 a neutral cup, 2 the black cup, "
            "3 the last cup): "
            + ", ".join(f"{NAMES[s]} {n}" for s, n in enumerate(result.scores))
            + f" ({result.rule}).")


def demo(seed: int, players: int | None = None, config: Config | None = None
         ) -> Iterator[str]:
    """A seeded game between simple players (*players* of them, else 2–5 chosen by the seed;
    the ending chosen by the seed): every shot in words with its rule, the tray after every
    claim, and the result."""
    rng = random.Random(seed)
    if config is None:
        config = Config(players=rng.randint(2, 5) if players is None else players,
                        ending=Ending.END_2 if seed % 2 == 0 else Ending.END_1)
    elif players is not None:
        config = attrs.evolve(config, players=players)
    state = new_game(config)
    n = config.players
    ending = ("End 2, the longer version: play until the last cup is taken"
              if config.ending is Ending.END_2 else "End 1: the first to claim 4 cups wins")
    yield (f"HOPPER, seed {seed}: {n} simple players (each aims at a fullest cup), "
           f"{state.hands[0]} beans each, {ending}")
    yield render(state)
    yield from LEGEND
    shots = 0
    while outcome(state) is None:
        if state.phase is Phase.AIM:
            action: Action = simple_shot(state, rng)
            assert isinstance(action, Shoot)
            seat = action.seat
            held = state.hands[seat]
            loose = state.loose
            line = f"  {describe(state, action)[:-len(' (HOPPER-5)')]}"
            line += _why_aim(state, action.aim)
            state = apply(state, action)
            if held == 0:
                yield (f"  {NAMES[seat]} has no beans left: he takes the {_beans(loose)} "
                       f"lying loose first (HOPPER-10)")
            yield line
            continue
        # The bean is in the air (after a shot, or a shot that started by itself because
        # only one cup was left to aim at).
        seat = state.turn or 0
        land = sample_chance(state, rng)
        assert isinstance(land, Land)
        shots += 1
        text = describe(state, land)
        claims = len(state.claims)
        joined = shoot_out(state)
        before = state
        state = apply(state, land)
        yield f"    shot {shots}: {text}"
        if len(state.claims) > claims:
            yield (f"    its 4 beans go back into play, loose (HOPPER-8); "
                   f"{_close_up(before, land.cup)} (HOPPER-9)")
            if shoot_out(state) and not joined:
                yield ("  three cups are left: the black cup joins them, and from now on "
                       "everybody shoots at once (HOPPER-14, HOPPER-15)")
            yield render(state)
        if state.phase is Phase.AIM and state.turn is not None and not shoot_out(state):
            expected = (seat + 1) % n
            while expected != state.turn:
                yield (f"  {NAMES[expected]} has no beans and none lie loose: "
                       f"skipped (HOPPER-11)")
                expected = (expected + 1) % n
        elif state.phase is Phase.LAND and before.phase is Phase.LAND:
            yield (f"  only {cup_name(state.aim or 0)} is left: {NAMES[state.turn or 0]}"
                   "'s shot goes at it (HOPPER-5)")
    if config.ending is Ending.END_2:
        yield (f"{shots} shots; points "
               + ", ".join(f"{NAMES[s]} {p}" for s, p in
                           enumerate(points(state.claims, n, True))))
    else:
        yield f"{shots} shots"
    yield _result(state)
