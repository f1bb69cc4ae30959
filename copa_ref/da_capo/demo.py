"""A readable DA CAPO position, and a seeded match between simple bluffing players."""

from __future__ import annotations

import random
from collections.abc import Iterator

from copa_ref.da_capo.rules import (
    active_seats,
    advance,
    apply,
    is_over,
    joint,
    legal_actions,
    new_game,
    outcome,
)
from copa_ref.da_capo.state import Bid, Config, Round, State

__all__ = ["NAMES", "demo", "describe_round", "render", "simple_bid"]

NAMES = ("A", "B", "C", "D", "E")
"""How the demo names seats 0 to 4."""


def render(state: State) -> str:
    """Every seat's hand and line (nearest cup first, ``.`` empty), the target cup, the box,
    and the last round's revealed bids."""
    rows = [f"DA CAPO, {state.config.players} players, after round {len(state.rounds)}"]
    for seat, (held, line) in enumerate(zip(state.reserves, state.lines, strict=True)):
        cups = " ".join(str(b) if b else "." for b in line)
        mark = "*" if state.finisher == seat and state.target else ""
        status = "" if held or is_over(state) else "  (out)"
        rows.append(f"  {NAMES[seat]}  hand {held:2}  cups [{cups}] > target{mark}{status}")
    target = f"{state.target} beans" if state.target else "empty"
    rows.append(f"  target cup {target}; box {state.box}")
    if state.rounds:
        rows.append(f"  last round: {describe_round(state.rounds[-1])}")
    if state.last_step is not None:
        step = state.last_step
        rows.append(f"  last player {NAMES[step.seat]}: 1 bean into a cup, "
                    f"{step.beans - 1} to the box")
    result = outcome(state)
    if result is not None:
        winners = ", ".join(NAMES[s] for s in result.winners)
        rows.append(f"  over: {winners} {'win' if len(result.winners) > 1 else 'wins'} "
                    f"({result.rule})")
    return "\n".join(rows)


def describe_round(played: Round) -> str:
    """The revealed bids of a round and who advanced."""
    bids = ", ".join(f"{NAMES[s]} {b}" for s, b in enumerate(played.bids) if b is not None)
    who = "nobody advances" if played.winner is None else f"{NAMES[played.winner]} advances"
    return f"bids {bids}: {who}"


def simple_bid(state: State, seat: int, rng: random.Random) -> Bid:
    """A simple player: mostly a random bid, sometimes all-in on a small reserve."""
    choices = legal_actions(state, seat)
    if len(choices) < 5 and rng.random() < 0.5:
        return choices[-1]
    return rng.choice(choices)


def demo(seed: int) -> Iterator[str]:
    """A seeded match between simple players (2–5 of them, chosen by the seed), round by
    round: the revealed bids, who advanced, the table after each round, the result."""
    rng = random.Random(seed)
    config = Config(players=rng.randint(2, 5))
    state = new_game(config)
    yield f"DA CAPO, seed {seed}: {config.players} players, 16 beans each"
    yield render(state)
    while not is_over(state):
        parts = tuple(simple_bid(state, s, rng) for s in active_seats(state))
        before = state
        state = apply(state, joint(state, parts))
        played = state.rounds[-1]
        yield ""
        yield f"Round {len(state.rounds)}: {describe_round(played)}"
        if played.winner is not None:
            seat = played.winner
            beans = played.bids[seat]
            cup = advance(before, seat) + 1
            where = f"cup {cup}" if cup <= len(state.lines[seat]) else "the target cup"
            yield f"  {NAMES[seat]} fills {where} with {beans} bean{'s' if beans != 1 else ''}"
        if state.last_step is not None:
            seat = state.last_step.seat
            yield (f"  only {NAMES[seat]} has beans left: one bean into his next cup, "
                   f"{state.last_step.beans - 1} to the box")
        yield render(state)
