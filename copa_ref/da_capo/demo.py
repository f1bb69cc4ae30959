"""A readable DA CAPO position, and a seeded match between simple bluffing players."""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs

from copa_ref.da_capo.rules import (
    advance,
    apply,
    is_over,
    joint,
    legal_actions,
    new_game,
    outcome,
    to_move,
)
from copa_ref.da_capo.state import Bid, Config, Round, State

__all__ = [
    "LEGEND",
    "NAMES",
    "demo",
    "describe_round",
    "narrate",
    "render",
    "result_line",
    "simple_bid",
    "why",
]

NAMES = ("A", "B", "C", "D", "E")
"""How the demo names seats 0 to 4."""


LEGEND = """\
  Legend: "hand" is the beans a player still holds, hidden until he bids. "cups" is his
  line of cups from his end towards the target cup, each with the beans that filled it
  ("." empty). Each round every player with beans bids 1 to 5 of them at once; the highest
  bid that no one else made fills the bidder's next cup (higher bids that tie cancel), all
  the other bids go to the box. Filling the target cup wins; when every hand is empty, the
  player furthest along wins."""
"""What the demo prints under its first picture."""


def render(state: State, *, history: bool = True) -> str:
    """Every seat's hand and line (nearest cup first, ``.`` empty), the target cup, the box,
    and (with *history*) the last round's revealed bids, the last player's step and the
    result."""
    when = f"after round {len(state.rounds)}" if state.rounds else "at the start"
    rows = [f"DA CAPO, {state.config.players} players, {when}"]
    for seat, (held, line) in enumerate(zip(state.reserves, state.lines, strict=True)):
        cups = " ".join(str(b) if b else "." for b in line)
        mark = "*" if state.finisher == seat and state.target else ""
        status = "" if held or is_over(state) else "  (out)"
        rows.append(f"  {NAMES[seat]}  hand {held:2}  cups [{cups}] > target{mark}{status}")
    target = f"{state.target} beans" if state.target else "empty"
    rows.append(f"  target cup {target}; box {state.box}")
    if not history:
        return "\n".join(rows)
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


def _beans(n: int) -> str:
    return f"{n} bean{'' if n == 1 else 's'}"


def _names(seats: list[int]) -> str:
    names = [NAMES[s] for s in seats]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def why(played: Round) -> str:
    """Why the round's winner advanced, or why nobody did, in plain words (DACAPO-11,
    DACAPO-12, under the default reading: from the highest bid down, numbers bid by
    several players cancel, the first bid by one player alone wins)."""
    by_number: dict[int, list[int]] = {}
    for seat, bid in enumerate(played.bids):
        if bid is not None:
            by_number.setdefault(bid, []).append(seat)
    cancelled = []
    for number in sorted(by_number, reverse=True):
        seats = by_number[number]
        if len(seats) == 1:
            break
        cancelled.append(f"{_names(seats)} both bid {number}" if len(seats) == 2
                         else f"{_names(seats)} all bid {number}")
    ties = "; ".join(cancelled)
    if played.winner is None:
        return (f"{ties}: every bid is tied, so they cancel and nobody advances (DACAPO-12)")
    bid = played.bids[played.winner]
    alone = f"{NAMES[played.winner]}'s {bid} is the highest bid nobody else made"
    if not cancelled:
        return f"{alone}: {NAMES[played.winner]} advances (DACAPO-9)"
    return (f"{ties}, so they cancel (DACAPO-11); {alone}: {NAMES[played.winner]} advances "
            "(DACAPO-9)")


def narrate(before: State, after: State) -> Iterator[str]:
    """The lines of one round: the bids once, why the winner advanced, where the beans
    went, who is out, the last player's step."""
    played = after.rounds[-1]
    bids = ", ".join(f"{NAMES[s]} {b}" for s, b in enumerate(played.bids) if b is not None)
    yield f"Round {len(after.rounds)}: the bids, revealed together: {bids}"
    yield f"  why: {why(played)}"
    if played.winner is not None:
        seat = played.winner
        beans = played.bids[seat]
        assert beans is not None
        cup = advance(before, seat) + 1
        where = (f"cup {cup} of {NAMES[seat]}'s line" if cup <= len(after.lines[seat])
                 else "the target cup")
        yield f"  {NAMES[seat]}'s {_beans(beans)} {'fills' if beans == 1 else 'fill'} {where}"
    lost = [f"{NAMES[s]}'s {b}" for s, b in enumerate(played.bids)
            if b is not None and s != played.winner]
    if lost:
        yield f"  to the box: {', '.join(lost)} (DACAPO-10)"
    out = [s for s, (was, now) in enumerate(zip(before.reserves, after.reserves, strict=True))
           if was and not now and (after.last_step is None or after.last_step.seat != s)]
    if out:
        yield f"  {_names(out)} {'has' if len(out) == 1 else 'have'} no beans left: out (DACAPO-13)"
    if after.last_step is not None and before.last_step is None:
        seat = after.last_step.seat
        yield (f"  only {NAMES[seat]} has beans left: one bean into {NAMES[seat]}'s next cup, "
               f"the other {after.last_step.beans - 1} to the box (DACAPO-14)")


def result_line(state: State) -> str:
    """The result of a finished match, with its reason."""
    result = outcome(state)
    assert result is not None
    winners = _names(list(result.winners))
    if result.rule == "DACAPO-15":
        return (f"result: {winners} wins: filled the target cup, which ends the game at "
                "once (DACAPO-15).")
    furthest = max(advance(state, s) for s in range(len(state.reserves)))
    if result.rule == "DACAPO-16":
        return (f"result: {winners} wins: every hand is empty and {winners} advanced "
                f"furthest, {furthest} cups (DACAPO-16).")
    used = ", ".join(f"{NAMES[s]} {sum(state.lines[s])}" for s in range(len(state.lines))
                     if advance(state, s) == furthest)
    share = "share the win" if len(result.winners) > 1 else "wins"
    return (f"result: {winners} {share}: every hand is empty and several advanced "
            f"{furthest} cups; beans in their cups: {used}; the fewest win (DACAPO-17).")


def simple_bid(state: State, seat: int, rng: random.Random) -> Bid:
    """A simple player: mostly a random bid, sometimes all-in on a small reserve."""
    choices = legal_actions(state, seat)
    if len(choices) < 5 and rng.random() < 0.5:
        return choices[-1]
    return rng.choice(choices)


def demo(seed: int, players: int | None = None, config: Config | None = None
         ) -> Iterator[str]:
    """A seeded match between simple players (*players* of them, or 2–5 chosen by the seed),
    round by round: the revealed bids, why who advanced, the table after each round, the
    result and its reason."""
    rng = random.Random(seed)
    if config is None:
        config = Config(players=rng.randint(2, 5) if players is None else players)
    elif players is not None:
        config = attrs.evolve(config, players=players)
    state = new_game(config)
    yield f"DA CAPO, seed {seed}: {config.players} simple players, 16 beans each"
    yield render(state)
    yield LEGEND
    while not is_over(state):
        bids = joint(state, tuple(simple_bid(state, seat, rng) for seat in to_move(state).seats))
        after = apply(state, bids)
        yield ""
        yield from narrate(state, after)
        yield render(after, history=False)
        state = after
    yield ""
    yield result_line(state)
