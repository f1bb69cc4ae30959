"""DA CAPO's rules as pure functions: a simultaneous-move bidding game for 2–5, no chance.

Every round is one joint action (:class:`~copa_ref.da_capo.state.Bids`) holding the sealed
bid of every seat that still has beans; the bids are revealed by applying it, so no state
ever holds a bid not yet revealed, and every state is public. The highest bid no other
seat matched fills its bidder's next cup; all other revealed beans go to the box. When a
round leaves a single seat with beans, the last-player step follows automatically (it has
one option). Reaching the target cup wins at once; otherwise, when every reserve is empty,
the furthest advance wins, then the fewest beans used.

Rule IDs refer to ``specs/da_capo.md``.
"""

from __future__ import annotations

import random
from typing import cast

from copa_ref.core import (
    NOBODY,
    IllegalActionError,
    InvalidStateError,
    MalformedInputError,
    Outcome,
    RuleViolation,
    Seat,
    StateChecks,
    ToMove,
    check_rng,
    remember,
    rule,
)
from copa_ref.core.codec import excerpt
from copa_ref.core.entry import slot_builder
from copa_ref.core.fields import check_instance, check_int, check_seat, check_tuple
from copa_ref.da_capo.state import (
    MAX_BID,
    START_BEANS,
    Action,
    Bid,
    Bids,
    Config,
    LastStep,
    Round,
    State,
    TargetReached,
    TieBreak,
    TieResolution,
)

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "active_seats",
    "advance",
    "apply",
    "check_state",
    "filled",
    "is_legal",
    "is_over",
    "joint",
    "last_player_step",
    "legal_actions",
    "line_length",
    "new_game",
    "num_players",
    "observe",
    "outcome",
    "round_winner",
    "sample_chance",
    "settle_round",
    "starting_beans",
    "to_move",
    "total_beans",
    "well_formed",
]

MIN_PLAYERS = 2
"""DACAPO-1: the fewest players."""
MAX_PLAYERS = 5
"""DACAPO-1: the most players."""

# Options read every round, as module constants: a global name reads faster than an Enum
# member read from its class.
_TARGET_CUP = TargetReached.TARGET_CUP
_TWO_LEVEL = TieResolution.TWO_LEVEL

Lines = tuple[tuple[int, ...], ...]
Table = tuple[tuple[int, ...], Lines, int, int]
"""Where the beans are: reserves, lines, target cup, box."""

# Prebuilt per-seat choices: ``_BIDS[seat][reserve]`` (DACAPO-6, DACAPO-7).
_BIDS: tuple[tuple[tuple[Bid, ...], ...], ...] = tuple(
    tuple(tuple(Bid(seat, b) for b in range(1, min(MAX_BID, r) + 1))
          for r in range(START_BEANS + 1))
    for seat in range(MAX_PLAYERS)
)


# -- materials and preparation -------------------------------------------------------------

_state = slot_builder(State)
"""``State(...)`` as the rules build it at every step, without the class's ``__init__`` (the
same object, its slots written directly: :func:`~copa_ref.core.entry.slot_builder`)."""


def num_players(config: Config) -> int:
    """How many seats *config* has (DACAPO-1).

    :raises MalformedInputError: for a value that is not a DA CAPO config.
    """
    check_instance(config, Config, "a DA CAPO config")
    return config.players


def line_length(players: int) -> int:
    """DACAPO-2: 4 cups per player with 2–3 players, 3 with 4–5."""
    return 4 if players <= 3 else 3


def _reach(config: Config) -> int:
    """The advance that reaches the target (DACAPO-15): past a full line, or a full line."""
    length = line_length(config.players)
    return length + 1 if config.target_reached_when is _TARGET_CUP else length


def _initial(config: Config) -> State:
    players = config.players
    # DACAPO-2: every line empty; DACAPO-3: 16 beans in every hand (DACAPO-V1: the config's),
    # none in the box.
    return _state(
        config=config,
        reserves=(starting_beans(config),) * players,
        lines=((0,) * line_length(players),) * players,
        target=0,
        finisher=None,
        box=0,
        rounds=(),
        last_step=None,
    )


def new_game(config: Config) -> State:
    """The position before the first round.

    :raises InvalidStateError: DACAPO-1 for a player count outside 2–5; DACAPO-3 for beans
        outside 1 to 16 (DACAPO-V1).
    :raises MalformedInputError: for a config that is not shaped right.
    """
    _check_config(config)
    return _CHECKS.built(_initial(config))


def starting_beans(config: Config) -> int:
    """DACAPO-3: the beans every player receives, the text's 16 or ``Config.beans``
    (DACAPO-V1)."""
    return START_BEANS if config.beans is None else config.beans


def _check_config(config: object) -> None:
    if type(config) is not Config:
        msg = f"expected a DA CAPO Config, got {excerpt(config)}"
        raise MalformedInputError(msg)
    check_int(config.players, "players")
    if config.beans is not None:
        check_int(config.beans, "beans")
    for name, kind in (("tie_resolution", TieResolution),
                       ("target_reached_when", TargetReached), ("tie_break", TieBreak)):
        if type(getattr(config, name)) is not kind:
            msg = f"{name} must be a {kind.__name__}, got {excerpt(getattr(config, name))}"
            raise MalformedInputError(msg)
    # DACAPO-1: two to five players.
    if not MIN_PLAYERS <= config.players <= MAX_PLAYERS:
        msg = f"DA CAPO is for 2-5 players, not {config.players}"
        raise InvalidStateError("DACAPO-1", msg)
    # DACAPO-3 (DACAPO-V1): sixteen beans each, or fewer down to one.
    if config.beans is not None and not 1 <= config.beans <= START_BEANS:
        msg = f"every player receives 1 to {START_BEANS} beans, not {config.beans}"
        raise InvalidStateError("DACAPO-3", msg)


# -- small pure helpers (contracted, checked by CrossHair) ----------------------------------


def filled(line: tuple[int, ...]) -> int:
    """How many cups of *line* hold beans (they are always a prefix, DACAPO-9)."""
    count = 0
    for beans in line:
        if beans == 0:
            break
        count += 1
    return count


def total_beans(table: Table) -> int:
    """All beans on a table: reserves + line cups + target cup + box (DACAPO-3)."""
    reserves, lines, target, box = table
    return sum(reserves) + sum(sum(line) for line in lines) + target + box


def round_winner(bids: tuple[int | None, ...], tie_resolution: TieResolution) -> int | None:
    """The seat that advances for *bids*, or ``None`` (DACAPO-9, DACAPO-11, DACAPO-12).

    Going down from the highest number of beans bid, a number bid by several seats cancels;
    the first number bid by exactly one seat wins. Under ``TWO_LEVEL`` only the two highest
    numbers are looked at.

    :pre: len(bids) <= 5
    :pre: all(b is None or 1 <= b <= 5 for b in bids)
    :post: __return__ is None or bids.count(bids[__return__]) == 1
    :post: __return__ is None or all(bids.count(b) > 1 for b in bids if b is not None and b > bids[__return__])
    :post: tie_resolution != TieResolution.CASCADE or __return__ is not None or all(bids.count(b) != 1 for b in bids if b is not None)
    """  # noqa: E501 - a contract is one line
    counts = [0] * (MAX_BID + 1)
    for b in bids:
        if b is not None:
            counts[b] += 1
    # DACAPO-11: tied levels cancel, the next level down benefits.
    tied_levels = 0
    for level in range(MAX_BID, 0, -1):
        if counts[level] == 1:
            return bids.index(level)
        if counts[level] > 1:
            tied_levels += 1
            # DACAPO-11 option two_level: a tied second level ends the search.
            if tied_levels == 2 and tie_resolution is _TWO_LEVEL:
                break
    # DACAPO-12: no single highest bid, nobody advances.
    return None


def _fill(line: tuple[int, ...], target: int, beans: int) -> tuple[tuple[int, ...], int]:
    """Put *beans* into the first empty cup of *line*, or the target cup if it is full."""
    for i, cup in enumerate(line):
        if cup == 0:
            return (*line[:i], beans, *line[i + 1:]), target
    return line, target + beans


def settle_round(table: Table, bids: tuple[int | None, ...], winner: int | None) -> Table:
    """Move the revealed beans of a round: the winner's into his next cup, the rest to the box.

    (DACAPO-9, DACAPO-10.)

    :pre: len(table[0]) == len(table[1]) == len(bids) and 2 <= len(bids) <= 5
    :pre: all(len(line) <= 4 for line in table[1])
    :pre: all(b is None or 1 <= b <= r for b, r in zip(bids, table[0]))
    :pre: winner is None or (0 <= winner < len(bids) and bids[winner] is not None)
    :post: total_beans(__return__) == total_beans(table)
    :post: sum(filled(a) != filled(b) for a, b in zip(__return__[1], table[1])) <= 1
    """
    reserves, lines, target, box = table
    new_reserves = tuple(r if b is None else r - b for r, b in zip(reserves, bids, strict=True))
    for seat, b in enumerate(bids):
        if b is None:
            continue
        if seat == winner:
            # DACAPO-9: the winner's beans fill the first empty cup nearest to him.
            line, target = _fill(lines[seat], target, b)
            lines = (*lines[:seat], line, *lines[seat + 1:])
        else:
            # DACAPO-10: every other revealed bean goes to the box.
            box += b
    return new_reserves, lines, target, box


def last_player_step(table: Table, seat: int) -> Table:
    """DACAPO-14: the last seat with beans puts one in his next cup, the rest in the box.

    :pre: 0 <= seat < len(table[0]) == len(table[1]) <= 5
    :pre: table[0][seat] >= 1
    :post: total_beans(__return__) == total_beans(table)
    :post: __return__[0][seat] == 0
    """
    reserves, lines, target, box = table
    held = reserves[seat]
    line, target = _fill(lines[seat], target, 1)
    return (
        (*reserves[:seat], 0, *reserves[seat + 1:]),
        (*lines[:seat], line, *lines[seat + 1:]),
        target,
        box + held - 1,
    )


# -- who moves ------------------------------------------------------------------------------


def is_over(state: State) -> bool:
    """Whether the match has ended (DACAPO-15, DACAPO-16)."""
    return state.finisher is not None or not any(state.reserves)


def active_seats(state: State) -> tuple[int, ...]:
    """The seats still in the match: those that hold beans (DACAPO-13)."""
    return tuple(seat for seat, r in enumerate(state.reserves) if r)


def to_move(state: State) -> ToMove:
    """``joint`` over the seats with beans (DACAPO-4, DACAPO-13); ``nobody`` once over.

    :raises MalformedInputError: for a value that is not a DA CAPO state.
    :raises InvalidStateError: for a DA CAPO state no legal play can produce.
    """
    _CHECKS.enter(state)
    return _to_move(state)


_MEMO = object()
"""This module's key to the ``_mover`` memo of a state: a misread copy of the module has
its own, so it never reads a mover worked out under another reading."""


def _to_move(state: State) -> ToMove:
    """Who moves, worked out once per state (DACAPO-4, DACAPO-13) and kept in its memo."""
    memo = getattr(state, "_mover", None)
    if memo is not None and memo[0] is _MEMO:
        mover: ToMove = memo[1]
        return mover
    return _remember_mover(state)


def _remember_mover(state: State) -> ToMove:
    """Work out who moves in *state* and keep it in its memo (the rules do so for every
    state they build, so that reading it never takes the slow path of an empty slot)."""
    mover: ToMove
    if is_over(state):
        mover = NOBODY
    else:
        seats = active_seats(state)
        mover = _JOINT.get(seats) or ToMove.joint(seats)
    remember(state, "_mover", (_MEMO, mover))
    return mover


_JOINT: dict[tuple[int, ...], ToMove] = {
    seats: ToMove.joint(seats)
    for seats in (tuple(s for s in range(MAX_PLAYERS) if mask >> s & 1)
                  for mask in range(1, 1 << MAX_PLAYERS))
}
"""Who moves for each set of seats with beans, built once (a table, never changed)."""


def legal_actions(state: State, seat: int | None = None) -> tuple[Bid, ...]:
    """A seat's own bids, ``1 .. min(5, reserve)`` (DACAPO-6, DACAPO-7), sorted.

    With ``None``: nothing, as at every joint node (protocol P-4). A seat that is out
    (DACAPO-13), and every seat once the match is over, has no choice.

    :raises MalformedInputError: for a value that is not a DA CAPO state, or a seat that is
        not at the table.
    """
    _CHECKS.enter(state)
    check_seat(seat, len(state.reserves), optional=True)
    return _legal_actions(state, seat)


def _legal_actions(state: State, seat: int | None = None) -> tuple[Bid, ...]:
    if seat is None or _to_move(state) is NOBODY:
        return ()
    return _BIDS[seat][state.reserves[seat]]


def _refuse_when_over(state: State) -> None:
    if state.finisher is not None:
        msg = f"the match is over: seat {state.finisher} reached the target cup"
        raise IllegalActionError("DACAPO-15", msg)
    if not any(state.reserves):
        msg = "the match is over: every reserve is used up"
        raise IllegalActionError("DACAPO-16", msg)


def joint(state: State, parts: tuple[Action, ...]) -> Bids:
    """Combine one :class:`~copa_ref.da_capo.state.Bid` per acting seat, in seat order, into
    the round's :class:`~copa_ref.da_capo.state.Bids`.

    :raises IllegalActionError: DACAPO-15/16 once the match is over; DACAPO-5 unless the
        parts are one bid per seat with beans, in seat order. The bids themselves are
        checked by :func:`apply`.
    :raises MalformedInputError: for parts that are not a tuple of well-typed bids.
    """
    _CHECKS.enter(state)
    check_tuple(parts, "parts", _check_bid)
    return _joint(state, parts)


def _joint(state: State, parts: tuple[Action, ...]) -> Bids:
    _refuse_when_over(state)
    seats = _to_move(state).seats
    # DACAPO-5: every seat with beans bids, once.
    if len(parts) != len(seats):
        msg = f"expected bids from seats {list(seats)}, got {len(parts)} part(s)"
        raise IllegalActionError("DACAPO-5", msg)
    bids: list[int | None] = [None] * len(state.reserves)
    for seat, part in zip(seats, parts, strict=True):
        if not isinstance(part, Bid) or part.seat != seat:
            msg = f"expected a bid of seat {seat}, got {excerpt(part)}"
            raise IllegalActionError("DACAPO-5", msg)
        bids[seat] = part.beans
    return Bids(tuple(bids))


# -- the round ------------------------------------------------------------------------------


def _check_bids(state: State, bids: tuple[int | None, ...]) -> None:
    reserves = state.reserves
    # DACAPO-5: one place per seat.
    if len(bids) != len(reserves):
        msg = f"a round holds one bid per seat ({len(reserves)}), got {len(bids)}"
        raise IllegalActionError("DACAPO-5", msg)
    for seat, b in enumerate(bids):
        held = reserves[seat]
        if held == 0:
            # DACAPO-13: a seat with no beans is out and bids nothing.
            if b is not None:
                msg = f"seat {seat} is out of the match (no beans) but bid {b}"
                raise IllegalActionError("DACAPO-13", msg)
            continue
        # DACAPO-5: every seat with beans bids.
        if b is None:
            msg = f"seat {seat} holds {held} beans and must bid"
            raise IllegalActionError("DACAPO-5", msg)
        # DACAPO-6: a bid is 1 to 5 beans.
        if not 1 <= b <= MAX_BID:
            msg = f"seat {seat} bid {b}; a bid is 1 to {MAX_BID} beans"
            raise IllegalActionError("DACAPO-6", msg)
        # DACAPO-7: nobody bids more than he holds.
        if b > held:
            msg = f"seat {seat} bid {b} but holds only {held}"
            raise IllegalActionError("DACAPO-7", msg)


def apply(state: State, action: Action) -> State:
    """The state after a round (and the last-player step, when it follows).

    :raises IllegalActionError: DACAPO-15/16 once the match is over; DACAPO-4 for a lone
        :class:`~copa_ref.da_capo.state.Bid`; DACAPO-5, DACAPO-6, DACAPO-7 or DACAPO-13 for
        a bad bid.
    :raises MalformedInputError: for a value that is not a DA CAPO state, or an action whose
        fields do not have exactly their types (``True`` or ``0.5`` is not a bid).
    :raises InvalidStateError: for a DA CAPO state no legal play can produce.
    """
    _CHECKS.enter(state)
    _check_action(action)
    return _CHECKS.built(_apply(state, action))


def _apply(state: State, action: Action) -> State:
    """:func:`apply` for a checked state and an action of exact types."""
    _refuse_when_over(state)
    # DACAPO-4: a round is simultaneous; one seat's bid alone is no action.
    if not isinstance(action, Bids):
        msg = f"bids are simultaneous: apply one joint bids action, not {excerpt(action)}"
        raise IllegalActionError("DACAPO-4", msg)
    bids = action.bids
    _check_bids(state, bids)
    config = state.config
    reach = _reach(config)
    # DACAPO-8: the bids are revealed together; DACAPO-11/12 decide who advances.
    winner = round_winner(bids, config.tie_resolution)
    finisher: int | None = None
    # DACAPO-15: an advance that reaches the target wins at once.
    if winner is not None and filled(state.lines[winner]) + 1 == reach:
        finisher = winner
    reserves, lines, target, box = settle_round(
        (state.reserves, state.lines, state.target, state.box), bids, winner)
    last_step: LastStep | None = None
    if finisher is None:
        left = [seat for seat, r in enumerate(reserves) if r]
        if len(left) == 1:
            # DACAPO-14: the last player with beans: one bean in his next cup, rest to box.
            seat = left[0]
            last_step = LastStep(seat, reserves[seat])
            if filled(lines[seat]) + 1 == reach:
                finisher = seat
            reserves, lines, target, box = last_player_step(
                (reserves, lines, target, box), seat)
    after = _state(
        config=config,
        reserves=reserves,
        lines=lines,
        target=target,
        finisher=finisher,
        box=box,
        rounds=(*state.rounds, Round(bids, winner)),
        last_step=last_step,
    )
    _remember_mover(after)
    return after


def is_legal(state: State, action: Action) -> bool:
    """Whether :func:`apply` accepts *action*; never raises."""
    try:
        apply(state, action)
    except (RuleViolation, MalformedInputError):
        return False
    return True


# The input checks of an action: exact types (a state enters through ``_CHECKS.enter``).


def _check_bid(part: object, what: str) -> None:
    check_instance(part, Bid, "a DA CAPO bid", what)
    check_int(part.seat, f"{what}.seat", 0)  # type: ignore[attr-defined]
    check_int(part.beans, f"{what}.beans")  # type: ignore[attr-defined]


def _check_round_bid(value: object, what: str) -> None:
    if value is not None:
        check_int(value, what)


def _check_action(action: object) -> None:
    """*action* is a DA CAPO action whose fields have exactly their types: a
    :class:`~copa_ref.da_capo.state.Bid` of integers, or
    :class:`~copa_ref.da_capo.state.Bids` holding a tuple of integers and ``None``.

    :raises MalformedInputError: otherwise.
    """
    if isinstance(action, Bid):
        _check_bid(action, "bid")
        return
    check_instance(action, (Bid, Bids), "a DA CAPO action")
    check_tuple(action.bids, "bids", _check_round_bid)  # type: ignore[attr-defined]


# -- the end --------------------------------------------------------------------------------


def advance(state: State, seat: int) -> int:
    """How far *seat* has advanced: his filled cups, plus the target cup if he filled it."""
    steps = filled(state.lines[seat])
    if state.finisher == seat and state.target:
        steps += 1
    return steps


def outcome(state: State) -> Outcome | None:
    """The result once the match is over (DACAPO-15, DACAPO-16, DACAPO-17), else ``None``.

    :raises MalformedInputError: for a value that is not a DA CAPO state.
    :raises InvalidStateError: for a DA CAPO state no legal play can produce.
    """
    _CHECKS.enter(state)
    # DACAPO-15: the seat that reached the target wins.
    if state.finisher is not None:
        return Outcome(winners=(Seat(state.finisher),), rule="DACAPO-15")
    if any(state.reserves):
        return None
    # DACAPO-16: every reserve used up; the furthest advance wins.
    seats = range(len(state.reserves))
    best = max(advance(state, s) for s in seats)
    leaders = [s for s in seats if advance(state, s) == best]
    if len(leaders) == 1:
        return Outcome(winners=(Seat(leaders[0]),), rule="DACAPO-16")
    # DACAPO-17: equal advance, fewest beans used; still equal, a shared win.
    if state.config.tie_break is TieBreak.BEANS_IN_CUPS:
        used = {s: sum(state.lines[s]) for s in leaders}
    else:
        used = {s: starting_beans(state.config) - state.reserves[s] for s in leaders}
    fewest = min(used.values())
    winners = tuple(Seat(s) for s in leaders if used[s] == fewest)
    return Outcome(winners=winners, rule="DACAPO-17")


# -- views ----------------------------------------------------------------------------------


def observe(state: State, seat: int | None = None) -> State:
    """What *seat* may know: everything (DACAPO-8; bids exist only once revealed).

    :raises MalformedInputError: for a value that is not a DA CAPO state, or a seat that is
        not at the table.
    """
    _CHECKS.enter(state)
    check_seat(seat, len(state.reserves), optional=True)
    return state


def sample_chance(state: State, rng: random.Random) -> Action:
    """DA CAPO has no chance nodes: the seats bid together, or nobody acts (DACAPO-4).

    :raises IllegalActionError: DACAPO-4, always (a ``ValueError``).
    :raises MalformedInputError: for a value that is not a DA CAPO state, or an *rng* that
        is not a ``random.Random``.
    """
    _CHECKS.enter(state)
    check_rng(rng)
    msg = "DA CAPO has no chance nodes"
    raise IllegalActionError("DACAPO-4", msg)


# -- state checks ---------------------------------------------------------------------------


def _check_round(value: object, what: str) -> None:
    check_instance(value, Round, "a DA CAPO round", what)
    played = cast(Round, value)
    check_tuple(played.bids, f"{what}.bids", _check_round_bid)
    _check_round_bid(played.winner, f"{what}.winner")


def _shape(state: State) -> None:
    """Every field of *state* has its exact type, its size, and integers within the codec's
    63 bits; the config is DA CAPO's (DACAPO-1: 2 to 5 players)."""
    _check_config(state.config)
    players = state.config.players
    length = line_length(players)
    check_tuple(state.reserves, "reserves", check_int, players)
    check_tuple(state.lines, "lines", None, players)
    for seat, line in enumerate(state.lines):
        check_tuple(line, f"lines[{seat}]", check_int, length)
    check_int(state.target, "target")
    check_int(state.box, "box")
    check_seat(state.finisher, players, "finisher", optional=True)
    check_tuple(state.rounds, "rounds", _check_round)
    step = state.last_step
    if step is not None:
        check_instance(step, LastStep, "a last-player step or None", "last_step")
        check_int(step.seat, "last_step.seat")
        check_int(step.beans, "last_step.beans")


# The rules a state obeys, in the order of specs/da_capo.md. The state is a function of its
# config, ``rounds`` and ``last_step``: the history is replayed and every other field
# compared with the replay.


@rule("DACAPO-3")
def _no_negative_count(state: State) -> str | None:
    """No cup, reserve, target or box holds fewer than no beans."""
    counts = (*state.reserves, *(b for line in state.lines for b in line),
              state.target, state.box)
    if any(v < 0 for v in counts):
        return f"negative bean count in {excerpt(state)}"
    return None


@rule("DACAPO-3")
def _sixteen_each(state: State) -> str | None:
    """The beans on the table add up to 16 per player (DACAPO-V1: the config's)."""
    total = total_beans((state.reserves, state.lines, state.target, state.box))
    expected = starting_beans(state.config) * state.config.players
    if total != expected:
        return f"{total} beans on the table, not {expected}"
    return None


@rule("DACAPO-5")
def _history(state: State) -> str | None:
    """The rounds recorded could be played, in order, from the start (each bid breaks the
    rule it breaks: DACAPO-5 .. DACAPO-7, DACAPO-13), their winners are those the bids give
    (DACAPO-11), and every other field is what they leave (DACAPO-7, -9, -10, -14, -15).

    The replay goes through :func:`apply`, so that a misreading of ``apply`` replays its
    own reading."""
    replay = _initial(state.config)
    for number, played in enumerate(state.rounds, start=1):
        try:
            replay = apply(replay, Bids(played.bids))
        except IllegalActionError as exc:
            msg = f"round {number} cannot have been played: {exc.message}"
            raise InvalidStateError(exc.rule, msg) from exc
        # DACAPO-11: the recorded winner is the one the bids give.
        if replay.rounds[-1].winner != played.winner:
            msg = (f"round {number} bids {excerpt(list(played.bids))} are won by "
                   f"{replay.rounds[-1].winner}, not {played.winner}")
            raise InvalidStateError("DACAPO-11", msg)
    fields = (
        ("DACAPO-14", "last_step", replay.last_step, state.last_step),
        ("DACAPO-15", "finisher", replay.finisher, state.finisher),
        ("DACAPO-7", "reserves", replay.reserves, state.reserves),
        ("DACAPO-9", "lines", replay.lines, state.lines),
        ("DACAPO-15", "target", replay.target, state.target),
        ("DACAPO-10", "box", replay.box, state.box),
    )
    for rule_id, name, expected, found in fields:
        if expected != found:
            msg = (f"{name} is {excerpt(found)}, but the rounds played give "
                   f"{excerpt(expected)}")
            raise InvalidStateError(rule_id, msg)
    return None


_CHECKS: StateChecks[State] = StateChecks(
    State, "a DA CAPO state", _shape, (_no_negative_count, _sixteen_each, _history))
"""DA CAPO's state checks (:class:`~copa_ref.core.entry.StateChecks`): the shape, then the
rules in the order of the spec."""


def check_state(state: State) -> None:
    """Raise the precise error for a state no legal play can produce.

    :raises MalformedInputError: for a state that is not shaped right.
    :raises InvalidStateError: naming the rule a field contradicts.
    """
    _CHECKS.check(state)


def well_formed(state: object) -> bool:
    """Whether *state* could be reached by legal play; pure and total, never raises."""
    return _CHECKS.well_formed(state)


# -- the action space of the adapters ------------------------------------------------------


def action_space(config: Config) -> tuple[Action, ...]:
    """Every seat's part of a round that can ever be legal under *config*: a bid of 1 to 5
    beans by each seat (DACAPO-6), sorted by canonical JSON text. The integer action space
    of the OpenSpiel and PettingZoo adapters (the parts of the joint node)."""
    from copa_ref.core import canonical_json

    _check_config(config)
    bids = [Bid(seat, beans) for seat in range(config.players)
            for beans in range(1, MAX_BID + 1)]
    return tuple(sorted(bids, key=lambda b: canonical_json(
        {"beans": b.beans, "seat": b.seat, "type": "bid"})))
