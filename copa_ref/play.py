"""``copa-ref play GAME``: a person plays one or more seats in the terminal against the demo
players.

At each of the person's decisions the board is drawn as the demo draws it (only what that
seat may see: no other hand, no covered cup's count), the seat's legal moves are listed and
numbered, and the person answers with a number, ``u`` (undo the last own decision), ``?``
(help), ``q`` (quit), or a move typed in words (``play 4o``, ``bid 3``, ``sow
[[0,0],[0,1],[0,2],[1,2]]``): a typed move the rules refuse is explained with the rule it
breaks (``illegal: KOPA-9: ...``). The other seats are the demo's simple players; chance
(deals, arrangements) is drawn from ``--seed``, so the same seed and the same answers play
the same game. Undo replays the game from its start with the person's earlier answers.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import typing
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TextIO

import attrs

from copa_ref.core import IllegalActionError, MalformedInputError, steps
from copa_ref.core.types import MoverKind
from copa_ref.games import AnyGame

__all__ = ["VIEWS", "View", "move_words", "play_game"]

MAX_STEPS = 20_000
"""A cap on one game's steps (Kopa's matches need not end, KOPA-Q14)."""


@attrs.frozen
class View:
    """How ``play`` shows one game: the board as *seat* may see it, a move in words, and the
    demo's player for the other seats."""

    board: Callable[[Any, int], str]
    policy: Callable[[Any, int, tuple[Any, ...], random.Random], Any]
    describe: Callable[[Any, Any], str] | None = None
    seat_name: Callable[[int], str] = lambda seat: f"seat {seat}"


def move_words(game: AnyGame, action: Any) -> str:
    """A move as a player would type it: its kind, then its values (``play 4o``, ``pass``,
    ``bid 3``), read back by :func:`parse_move`."""
    data = game.to_json(action)
    assert isinstance(data, dict)
    kind = str(data.pop("type", type(action).__name__.lower()))
    data.pop("seat", None)
    values = [v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))
              for v in data.values()]
    return " ".join([kind, *values])


def _classes(game: AnyGame) -> list[type]:
    return list(typing.get_args(game.action_type)) or [game.action_type]


def parse_move(game: AnyGame, seat: int, text: str) -> Any:
    """The action *text* names for *seat* (``play 4o``: the kind, then the values of its
    fields other than the seat, in order; each read as JSON, else as text).

    :raises MalformedInputError: when *text* names no action of the game.
    """
    words = text.split()
    if not words:
        msg = "an empty move"
        raise MalformedInputError(msg)
    for cls in _classes(game):
        if cls.__name__.lower() != words[0].lower():
            continue
        names = [f.name for f in attrs.fields(cls) if f.name != "seat"]
        if len(words) - 1 != len(names):
            wanted = " ".join(f"<{n}>" for n in names)
            msg = f"{words[0]} takes {len(names)} value(s): {words[0]} {wanted}".rstrip()
            raise MalformedInputError(msg)
        data: dict[str, Any] = {"type": words[0].lower(), "seat": seat}
        for name, word in zip(names, words[1:], strict=True):
            try:
                data[name] = json.loads(word)
            except ValueError:
                data[name] = word
        return game.action_from_json(data)
    kinds = ", ".join(sorted(c.__name__.lower() for c in _classes(game)))
    msg = f"no move {words[0]!r} (the moves: {kinds})"
    raise MalformedInputError(msg)


# -- the games' views ----------------------------------------------------------------------

def _kala() -> View:
    demo: Any = importlib.import_module("copa_ref.kala.demo")

    return View(board=lambda s, seat: demo.render(s),
                policy=lambda s, seat, legal, rng: demo.greedy_action(s, rng),
                describe=demo.describe, seat_name=lambda seat: demo.NAMES[seat])


def _hopper() -> View:
    demo: Any = importlib.import_module("copa_ref.hopper.demo")

    return View(board=lambda s, seat: demo.render(s),
                policy=lambda s, seat, legal, rng: demo.simple_shot(s, rng),
                describe=demo.describe, seat_name=lambda seat: demo.NAMES[seat])


def _ronda() -> View:
    demo: Any = importlib.import_module("copa_ref.ronda.demo")

    def board(state: Any, seat: int) -> str:   # a covered cup's count is hidden
        return re.sub(r"\?\(\d+\)", "?", demo.render(state))

    def policy(state: Any, seat: int, legal: tuple[Any, ...], rng: random.Random) -> Any:
        seen = tuple(state.cups[c] if c in state.lifted else None
                     for c in range(len(state.cups)))
        return demo.memory_player(state, seen, rng)

    return View(board=board, policy=policy, describe=demo.describe)


def _kopa() -> View:
    demo: Any = importlib.import_module("copa_ref.kopa.demo")

    def board(state: Any, seat: int) -> str:
        return f"{demo.render(state)}\n     your hand: {demo.hand_text(state.hands[seat])}"

    return View(board=board, policy=lambda s, seat, legal, rng: demo.simple_player(s, rng))


def _copas() -> View:
    demo: Any = importlib.import_module("copa_ref.copas.demo")

    def board(state: Any, seat: int) -> str:
        scores = ", ".join(f"seat {s} {p}" for s, p in enumerate(state.scores))
        trick = " ".join(str(card) for card in state.trick) or "-"
        return (f"  round {state.round}; scores: {scores}\n"
                f"  trick led by seat {state.leader}: {trick}\n"
                f"  your hand: {demo.hand_text(state.hands[seat])}")

    return View(board=board, policy=lambda s, seat, legal, rng: demo.simple_player(s, rng))


def _da_capo() -> View:
    demo: Any = importlib.import_module("copa_ref.da_capo.demo")

    return View(board=lambda s, seat: demo.render(s),
                policy=lambda s, seat, legal, rng: demo.simple_bid(s, seat, rng),
                seat_name=lambda seat: demo.NAMES[seat])


VIEWS: dict[str, Callable[[], View]] = {
    "copas": _copas, "da_capo": _da_capo, "hopper": _hopper, "kala": _kala, "kopa": _kopa,
    "ronda": _ronda,
}
"""Each registered game's view, by registry name (tests/test_play.py checks the list)."""


# -- the game ------------------------------------------------------------------------------

class _Undo(Exception):
    """The player typed ``u``: the game is played again from its seed with their last
    answer taken back (the other seats' moves follow again as before)."""


class _Quit(Exception):
    """The player typed ``q``, or their answers ran out: the game ends unfinished."""


HELP = ("answer with a move's number, or type a move in words (the listed form: kind, then "
        "values); u: undo your last move; q: quit; ?: this help")


def play_game(game: AnyGame, humans: Iterable[int], *, seed: int = 1, config: Any = None,
              lines: Iterator[str], out: TextIO) -> int:
    """Play *game* with the person at the seats *humans*, reading answers from *lines* and
    writing to *out*; the other seats are the demo's players. Returns 0 (the game ended),
    1 (quit, or the answers ran out)."""
    view = VIEWS[game.name]()
    seats = frozenset(humans)
    if config is None:
        config = game.default_config()
    answers: list[int] = []   # the person's decisions so far, as indices into their lists
    while True:
        try:
            final = _one_pass(game, view, seats, seed, config, answers, lines, out)
        except _Undo:
            if answers:
                answers.pop()
                out.write("undone: your last move is taken back\n")
            else:
                out.write("nothing to undo yet\n")
            continue
        except _Quit:
            out.write("quit\n")
            return 1
        result = game.outcome(final)
        if result is None:
            out.write(f"stopped after {MAX_STEPS} steps without an end\n")
            return 1
        out.write("\n" + view.board(final, min(seats)) + "\n")
        winners = ", ".join(view.seat_name(s) for s in result.winners) or "nobody"
        out.write(f"result: {winners} {'win' if len(result.winners) > 1 else 'wins'} "
                  f"({result.rule})\n")
        return 0


def _one_pass(game: AnyGame, view: View, seats: frozenset[int], seed: int, config: Any,
              answers: list[int], lines: Iterator[str], out: TextIO) -> Any:
    """Play from the start, replaying *answers* silently, then asking; the last state."""
    replay = list(answers)
    telling = not replay

    def say(text: str) -> None:
        if telling:
            out.write(text + "\n")

    def words(state: Any, action: Any) -> str:
        return view.describe(state, action) if view.describe else move_words(game, action)

    def policy(state: Any, seat: int, legal: tuple[Any, ...], rng: random.Random) -> Any:
        nonlocal telling
        if seat not in seats:
            return view.policy(state, seat, legal, rng)
        if replay:
            index = replay.pop(0)
            telling = not replay
            return legal[index]
        telling = True
        index = _ask(game, view, state, seat, legal, lines, out)
        answers.append(index)
        return legal[index]

    state = game.new_game(config)
    for step in steps(game, policy, random.Random(seed), config=config, max_steps=MAX_STEPS):
        state = step.after
        mover = step.mover
        if mover.kind is MoverKind.CHANCE:
            say(f"  chance: {move_words(game, step.action)[:70]}")
        elif mover.kind is MoverKind.JOINT:   # DA CAPO's bids, shown together
            parts = getattr(step.action, "bids", None) or ()
            said = "; ".join(f"{view.seat_name(s)} bids {n}" for s, n in enumerate(parts)
                             if n is not None)
            say(f"  {said or move_words(game, step.action)}")
        else:
            say(f"  {view.seat_name(mover.seats[0])}: {words(step.before, step.action)}")
    return state


def _ask(game: AnyGame, view: View, state: Any, seat: int, legal: Sequence[Any],
         lines: Iterator[str], out: TextIO) -> int:
    """The index in *legal* of the person's choice for *seat*."""
    out.write("\n" + view.board(state, seat) + "\n")
    out.write(f"{view.seat_name(seat)} to move:\n")
    described = [view.describe(state, a) if view.describe else move_words(game, a)
                 for a in legal]
    for number, text in enumerate(described, 1):
        out.write(f"  {number:2}. {text}\n")
    while True:
        out.write(f"your move (1-{len(legal)}, u, q, ?): ")
        out.flush()
        try:
            answer = next(lines).strip()
        except StopIteration:
            out.write("\n")
            raise _Quit from None
        if answer in {"q", "quit"}:
            raise _Quit
        if answer in {"u", "undo"}:
            raise _Undo
        if answer in {"?", "h", "help"}:
            out.write(HELP + "\n")
            for number, action in enumerate(legal, 1):
                out.write(f"  {number:2}. {move_words(game, action)}\n")
            continue
        if answer.isdigit():
            if 1 <= int(answer) <= len(legal):
                return int(answer) - 1
            out.write(f"no move {answer}: choose 1-{len(legal)}\n")
            continue
        try:
            action = parse_move(game, seat, answer)
            game.apply(state, action)
        except IllegalActionError as exc:
            out.write(f"illegal: {exc}\n")
            continue
        except MalformedInputError as exc:
            out.write(f"not a move: {str(exc).splitlines()[0]} ({HELP})\n")
            continue
        if action in legal:
            return legal.index(action)
        out.write(f"illegal: {game.prefix}: not one of the moves listed\n")
