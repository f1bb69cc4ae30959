"""A DA CAPO position as an SVG picture: each seat's line of cups leading to the target cup.

Everything in DA CAPO is public between rounds (:rule:`DACAPO-8`), so a seat's view is the whole
position, titled as that seat's.
"""

from __future__ import annotations

import math

from copa_ref.core.svg import Drawing
from copa_ref.da_capo.rules import filled, is_over, observe, outcome
from copa_ref.da_capo.state import State

__all__ = ["svg"]

_WIDTH = 600
_SIZE = 520
_CENTRE = (_WIDTH / 2, _SIZE / 2 + 16)
_PLAYER = 196
_NEAR = 156
_FAR = 58


def _round_words(state: State) -> str:
    if not state.rounds:
        return "no round played yet"
    last = state.rounds[-1]
    bids = ", ".join(f"seat {s} {b}" for s, b in enumerate(last.bids) if b is not None)
    who = "nobody advanced" if last.winner is None else f"seat {last.winner} advanced"
    return f"round {len(state.rounds)}: bids {bids}; {who}"


def _status(state: State) -> str:
    result = outcome(state)
    if result is not None:
        winners = " and ".join(f"seat {s}" for s in result.winners)
        return f"over: {winners} {'win' if len(result.winners) > 1 else 'wins'}"
    return f"round {len(state.rounds) + 1}: everyone with beans bids"


def _describe(state: State) -> str:
    parts = [f"DA CAPO, {state.config.players} players, {_status(state)}."]
    for seat, (held, line) in enumerate(zip(state.reserves, state.lines, strict=True)):
        cups = ", ".join(str(b) for b in line)
        out = "" if held or is_over(state) else " (out of the match)"
        parts.append(f"Seat {seat} holds {held} beans{out}; its line, nearest cup first: "
                     f"{cups} ({filled(line)} filled).")
    owner = "" if state.finisher is None else f" (reached by seat {state.finisher})"
    parts.append(f"The target cup holds {state.target}{owner}; the box {state.box}.")
    parts.append(f"Last {_round_words(state)}.")
    if state.last_step is not None:
        parts.append(f"Last-player step: seat {state.last_step.seat} put one bean into a cup "
                     f"and {state.last_step.beans - 1} into the box.")
    return " ".join(parts)


def svg(state: State, seat: int | None = None) -> str:
    """The position as SVG text; with *seat*, titled as that seat's view (nothing is hidden).

    The black target cup stands in the middle; each seat's line runs from the seat (its hand
    of beans beside its name) towards it, the nearest cup first, each cup showing its beans.
    Below: the box and the last round's revealed bids. Pure and deterministic.

    :raises MalformedInputError: for a value that is not a DA CAPO state, or a seat that is
        not at the table.
    """
    state = observe(state, seat)  # the entry check: a state of the game, a seat at its table
    view = "" if seat is None else f", as seat {seat} sees it"
    players = len(state.lines)
    # Lift the table by the room its top seats leave empty (with three seats, say).
    highest = min(math.sin(math.pi / 2 + 2 * math.pi * s / players) for s in range(players))
    lift = max(0.0, (_PLAYER + 14) * (1 + highest) - 20)
    drawing = Drawing(_WIDTH, _SIZE + 40 - lift, title=f"DA CAPO: {_status(state)}{view}",
                      desc=_describe(state))
    drawing.text(_WIDTH / 2, 24, _status(state), size=16, bold=True)
    cx, cy = _CENTRE[0], _CENTRE[1] - lift
    last_winner = state.rounds[-1].winner if state.rounds else None
    for s, line in enumerate(state.lines):
        angle = math.pi / 2 + 2 * math.pi * s / players
        dx, dy = math.cos(angle), math.sin(angle)
        drawing.add("line", class_="line", x1=cx + dx * _PLAYER, y1=cy + dy * _PLAYER,
                    x2=cx + dx * 34, y2=cy + dy * 34)
        step = (_NEAR - _FAR) / max(1, len(line) - 1)
        for i, beans in enumerate(line):
            radius = _NEAR - step * i
            x, y = cx + dx * radius, cy + dy * radius
            drawing.add("circle", class_="cup", cx=x, cy=y, r=17)
            if beans:
                drawing.add("circle", class_="ring-dark" if s % 2 == 0 else "ring-light",
                            cx=x, cy=y, r=17)
                drawing.text(x, y + 5, str(beans), size=14, bold=True)
        offset = _PLAYER + 14 + 44 * abs(dx)
        px, py = cx + dx * offset, cy + dy * offset
        out = "" if state.reserves[s] or is_over(state) else " out"
        mark = " ★" if s == last_winner else ""
        drawing.add("rect", class_="board", x=px - 62, y=py - 15, width=124, height=30, rx=8)
        drawing.text(px, py + 5, f"seat {s} · hand {state.reserves[s]}{out}{mark}", size=12,
                     bold=s == seat)
    drawing.add("circle", class_="ink", cx=cx, cy=cy, r=30)
    drawing.text(cx, cy + 6, str(state.target), size=18, bold=True, cls="paper")
    if state.finisher is not None:
        drawing.text(cx, cy + 46, f"seat {state.finisher}", size=11, cls="muted")
    bottom = _SIZE - lift
    drawing.text(_WIDTH - 12, bottom + 8, f"box {state.box}", size=13, anchor="end")
    if state.rounds:
        last = state.rounds[-1]
        bids = " ".join("–" if b is None else str(b) for b in last.bids)
        who = "nobody" if last.winner is None else f"seat {last.winner}"
        drawing.text(12, bottom + 8, f"round {len(state.rounds)} bids {bids} → {who}",
                     size=12, anchor="start", cls="muted")
    if state.last_step is not None:
        drawing.text(12, bottom + 28, f"last-player step: seat {state.last_step.seat}",
                     size=12, anchor="start", cls="muted")
    return drawing.to_string()
