"""RONDA's rules as pure functions: the Copa memory game for 2 to 5 players.

Imperfect information hidden from every player (the beans under the covered cups), one
chance action (the arrangement of the cups, :class:`~copa_ref.ronda.state.Arrange`), one
player acting at a time, clockwise (seat + 1). A turn is a sequence of single decisions:
lift a cup, lift a second; on a match add a bean to one of them, then stop or go on with a
new cup. Covering, penalty beans, moving a group to the middle and passing the turn are
automatic. Each rule lives in one small function, called through this module's globals.

Rule IDs (``RONDA-n``) refer to ``specs/ronda.md``.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import cast

from copa_ref.core import (
    CHANCE,
    NOBODY,
    IllegalActionError,
    InvalidStateError,
    MalformedInputError,
    Outcome,
    RuleViolation,
    Seat,
    ToMove,
    canonical_json,
    make_converter,
    register_union,
    shuffled,
)
from copa_ref.core.codec import MAX_INT
from copa_ref.core.entry import CHECKED, StateChecks, check_rng, rule, slot_builder
from copa_ref.core.fields import check_instance, check_int, check_position, check_tuple
from copa_ref.core.misreading import seam
from copa_ref.ronda.state import (
    CIRCLE_BEANS,
    COUNTS,
    PLACES,
    Action,
    Add,
    Again,
    Arrange,
    Config,
    Keep,
    Lift,
    Observation,
    Phase,
    State,
    Stop,
)

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Memory",
    "action_space",
    "add_bean",
    "apply",
    "arrangement_error",
    "chance_step",
    "check_config",
    "check_state",
    "circle_beans",
    "goes_to_black",
    "has_won",
    "is_legal",
    "is_match",
    "is_max_pair",
    "legal_actions",
    "lift_error",
    "new_game",
    "next_seat",
    "num_players",
    "observe",
    "outcome",
    "penalty_due",
    "remember",
    "sample_chance",
    "starting_beans",
    "take_penalty",
    "to_move",
    "total_beans",
    "well_formed",
]

_state = slot_builder(State)
"""``State(...)`` as the rules build it at every step, without the class's ``__init__`` (the same
object, its slots written directly: :func:`~copa_ref.core.entry.slot_builder`)."""

MIN_PLAYERS = 2
"""RONDA-1: 2 to 5 players."""
MAX_PLAYERS = 5
"""RONDA-1: 2 to 5 players."""
SOLVER_BEANS = 8
"""The most beans each of the solver variant RONDA-V1 (9 and 10 are the text's, RONDA-2)."""

Memory = tuple[int | None, ...]
"""For each place, the beans a perfect memory of the public history knows to be there
(``None`` for a place never lifted): see :func:`remember`."""

_MOVERS = tuple(ToMove.seat(s) for s in range(MAX_PLAYERS))

# The phases as module constants: the rules of play test them at every action, and a global
# name reads faster than an Enum member read from its class.
_SET_UP, _LIFT, _ADD, _CHOOSE, _OVER = (
    Phase.SET_UP, Phase.LIFT, Phase.ADD, Phase.CHOOSE, Phase.OVER)

# Prebuilt actions: legal sets are looked up, never rebuilt (sorted by canonical JSON: the
# places are single digits, and "keep" < "stop", "again" < "stop").
_LIFTS: tuple[dict[tuple[int, ...], tuple[Lift, ...]], ...] = tuple(
    {
        lifted: tuple(Lift(seat, c) for c in range(PLACES) if c not in lifted)
        for lifted in [(), *((c,) for c in range(PLACES))]
    }
    for seat in range(MAX_PLAYERS)
)
_PAIRS = [(a, b) for a in range(PLACES) for b in range(PLACES) if a != b]
_ADDS: tuple[dict[tuple[int, ...], tuple[Add, ...]], ...] = tuple(
    {(a, b): (Add(seat, min(a, b)), Add(seat, max(a, b))) for a, b in _PAIRS}
    for seat in range(MAX_PLAYERS)
)
_KEEPS: tuple[dict[tuple[int, ...], tuple[Keep | Stop, ...]], ...] = tuple(
    {(a, b): (Keep(seat, min(a, b)), Keep(seat, max(a, b)), Stop(seat)) for a, b in _PAIRS}
    for seat in range(MAX_PLAYERS)
)
_AGAINS: tuple[tuple[Again | Stop, ...], ...] = tuple(
    (Again(seat), Stop(seat)) for seat in range(MAX_PLAYERS)
)


# --------------------------------------------------------------------------------------
# Setting up


def check_config(config: Config) -> None:
    """Raise for a config no game can be played with.

    :raises MalformedInputError: for a field of the wrong type.
    :raises InvalidStateError: RONDA-1 for a player count other than 2 to 5, RONDA-2 for
        other than 9 or 10 beans each (or ``solver_beans`` other than 1 to 8), RONDA-17 for
        a maximum other than 5 or 4.
    """
    check_instance(config, Config, "a RONDA Config", "the config")
    check_int(config.players, "players")
    check_int(config.beans_per_player, "beans_per_player")
    check_int(config.max_beans, "max_beans")
    if type(config.relift_after_match) is not bool or type(config.penalty_beans) is not bool:
        msg = "relift_after_match and penalty_beans are true or false"
        raise MalformedInputError(msg)
    # RONDA-1: a game for 2 to 5 players.
    if not MIN_PLAYERS <= config.players <= MAX_PLAYERS:
        msg = f"RONDA is played by 2 to 5 players, not {config.players}"
        raise InvalidStateError("RONDA-1", msg)
    # RONDA-2: 10 beans each (the preparation) or 9 (the materials).
    if config.beans_per_player not in (9, 10):
        msg = f"each player receives 9 or 10 beans, not {config.beans_per_player}"
        raise InvalidStateError("RONDA-2", msg)
    # RONDA-2 (RONDA-V1): fewer beans each, 1 to 8, for exact solvers.
    if config.solver_beans is not None:
        check_int(config.solver_beans, "solver_beans")
        if not 1 <= config.solver_beans <= SOLVER_BEANS:
            msg = (f"the solver variant gives 1 to {SOLVER_BEANS} beans each, not "
                   f"{config.solver_beans}")
            raise InvalidStateError("RONDA-2", msg)
    # RONDA-17: up to 5 beans under a cup, or 4 under the simpler rule.
    if config.max_beans not in (4, 5):
        msg = f"a cup holds at most 5 beans, or 4 under the simpler rule; not {config.max_beans}"
        raise InvalidStateError("RONDA-17", msg)


def num_players(config: Config) -> int:
    """RONDA-1: how many seats play.

    :raises MalformedInputError: for a value that is not a RONDA config.
    """
    check_instance(config, Config, "a RONDA config")
    return config.players


@seam
def starting_beans(config: Config) -> int:
    """RONDA-2: the beans each player receives (10 by the preparation, or 9; RONDA-V1: the
    config's ``solver_beans``, 1 to 8)."""
    return config.beans_per_player if config.solver_beans is None else config.solver_beans


def new_game(config: Config | None = None) -> State:
    """The position before the arrangement: every player with his beans, the black cup empty
    (RONDA-2, RONDA-3).

    :raises InvalidStateError: RONDA-1/RONDA-2/RONDA-17 for an unplayable config.
    """
    config = Config() if config is None else config
    check_config(config)
    return _CHECKS.built(State(
        config=config,
        phase=Phase.SET_UP,
        cups=(),
        lifted=(),
        shown=None,
        black=0,
        out=0,
        supplies=(starting_beans(config),) * config.players,
        turn=0,
    ))


def arrangement_error(cups: object) -> str | None:
    """RONDA-3: what is wrong with *cups* as the beans under the ten places, or ``None`` if it
    is a permutation of 1,1,2,2,3,3,4,4,0,0.

    :raises MalformedInputError: when *cups* is not a tuple of integers.
    """
    check_tuple(cups, "cups", check_int)
    cups = cast(tuple[int, ...], cups)
    if len(cups) != PLACES:
        return f"{len(cups)} places, not {PLACES}"
    if sorted(cups) != list(COUNTS):
        return f"{list(cups)} is not an order of 1,1,2,2,3,3,4,4,0,0"
    return None


# --------------------------------------------------------------------------------------
# Who moves, what is legal


def to_move(state: State) -> ToMove:
    """Chance at the set-up, the seat whose turn it is, nobody once a player has won
    (RONDA-3, RONDA-4, RONDA-13).

    :raises MalformedInputError: for a value that is not a RONDA state.
    """
    _check_state(state)
    return _to_move(state)


def _to_move(state: State) -> ToMove:
    """:func:`to_move` without the entry check (:attr:`~copa_ref.core.game.Game.trusted`)."""
    phase = state.phase
    if phase is _OVER:
        return NOBODY
    if phase is _SET_UP:
        return CHANCE
    return _MOVERS[state.turn]


def legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """Every legal action, sorted by canonical JSON; only the mover has any (none at the
    chance node and once over).

    :raises MalformedInputError: for a value that is not a RONDA state, or a seat that is
        neither ``None`` nor a seat of the game.
    """
    _check_state(state, seat)
    return _legal_actions(state, seat)


def _legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """:func:`legal_actions` without the entry check (:attr:`~copa_ref.core.game.Game.trusted`)."""
    phase = state.phase
    turn = state.turn
    if seat is not None and seat != turn:
        return ()
    if phase is _LIFT:
        return _LIFTS[turn][state.lifted]
    if phase is _ADD:
        return _ADDS[turn][state.lifted]
    if phase is _CHOOSE:
        if state.config.relift_after_match:
            return _AGAINS[turn]
        return _KEEPS[turn][state.lifted]
    return ()


def is_legal(state: State, action: Action) -> bool:
    """Whether :func:`apply` accepts *action*; never raises."""
    try:
        apply(state, action)
    except (RuleViolation, MalformedInputError):
        return False
    return True


def action_space(config: Config) -> tuple[Action, ...]:
    """Every non-chance action that can ever be legal under *config*, sorted by canonical
    JSON: the integer action space of the OpenSpiel and PettingZoo adapters."""
    check_config(config)
    actions: list[Action] = []
    for seat in range(config.players):
        for cup in range(PLACES):
            actions += [Lift(seat, cup), Add(seat, cup)]
            if not config.relift_after_match:
                actions.append(Keep(seat, cup))
        actions.append(Stop(seat))
        if config.relift_after_match:
            actions.append(Again(seat))
    return tuple(sorted(actions, key=lambda a: canonical_json(_CONVERTER.unstructure(
        a, unstructure_as=Action))))


_CONVERTER = make_converter()
register_union(_CONVERTER, Action)


# --------------------------------------------------------------------------------------
# The pieces of a turn, each one rule


def next_seat(state: State) -> int:
    """RONDA-4: play goes on clockwise, to the next seat.

    :pre: 0 <= state.turn < len(state.supplies)
    :post: 0 <= __return__ < len(state.supplies)
    """
    return (state.turn + 1) % len(state.supplies)


@seam
def is_match(first: int, second: int) -> bool:
    """RONDA-7: two lifted cups match when they show the identical number (0 = 0 too)."""
    return first == second


@seam
def is_max_pair(beans: int, config: Config) -> bool:
    """RONDA-10, RONDA-17: a matched pair of the maximum (5, or 4 under simpler rule 2) goes
    to the middle."""
    return beans == config.max_beans


def goes_to_black(config: Config, black: int) -> bool:
    """RONDA-10, RONDA-12, RONDA-18: a group of the maximum goes to the black cup while it is
    empty (and penalty beans are played), else out of the game."""
    return config.penalty_beans and black == 0


def penalty_due(state: State) -> bool:
    """RONDA-11: a mismatch costs a penalty bean from the black cup while it holds beans
    (never under simpler rule 3, RONDA-18: then the black cup stays empty)."""
    return state.black > 0


@seam
def has_won(supply: int) -> bool:
    """RONDA-13: the first player with no beans wins."""
    return supply == 0


def lift_error(lifted: tuple[int, ...], cup: int) -> str | None:
    """RONDA-5: why *cup* cannot be lifted with *lifted* open (a place outside the circle, or
    a cup lifted already), or ``None``; ``_LIFTS`` lists exactly the others."""
    if not 0 <= cup < PLACES:
        return f"there is no cup at place {cup}; the circle has places 0 to 9"
    if cup in lifted:
        return f"the cup at place {cup} is lifted already"
    return None


def _mismatch(state: State, cup: int, beans: int) -> State:
    """RONDA-6: different numbers: both cups are covered again and the turn passes, with a
    penalty bean from the black cup first if one is due (RONDA-11)."""
    supplies = state.supplies
    black = state.black
    turn = state.turn
    if penalty_due(state):
        black, supply = take_penalty(black, supplies[turn])
        supplies = (*supplies[:turn], supply, *supplies[turn + 1:])
    return _state(config=state.config, phase=_LIFT, cups=state.cups, lifted=(),
                  shown=(cup, beans), black=black, out=state.out, supplies=supplies,
                  turn=next_seat(state))


def _lift(state: State, cup: int) -> State:
    """RONDA-5: lift a covered cup; with two open, compare them (RONDA-6, RONDA-7)."""
    cups = state.cups
    beans = cups[cup]
    lifted = state.lifted
    if not lifted:
        return _state(config=state.config, phase=_LIFT, cups=cups, lifted=(cup,),
                      shown=(cup, beans), black=state.black, out=state.out,
                      supplies=state.supplies, turn=state.turn)
    first = lifted[0]
    if is_match(cups[first], beans):
        return _state(config=state.config, phase=_ADD, cups=cups, lifted=(first, cup),
                      shown=(cup, beans), black=state.black, out=state.out,
                      supplies=state.supplies, turn=state.turn)
    return _mismatch(state, cup, beans)


def _add(state: State, cup: int) -> State:
    """RONDA-7: one of the mover's beans onto the matched cup; a pair of the maximum goes to
    the middle (RONDA-10); a player left without beans has won (RONDA-13)."""
    config = state.config
    turn = state.turn
    cups = state.cups
    supplies = state.supplies
    beans, left, black, out = add_bean(cups[cup], supplies[turn], state.black, state.out,
                                       config)
    supplies = (*supplies[:turn], left, *supplies[turn + 1:])
    cups = (*cups[:cup], beans, *cups[cup + 1:])
    won = has_won(left)
    if beans == 0:
        # RONDA-10: the pair of the maximum is settled; both covered, the turn ends.
        return _state(config=config, phase=_OVER if won else _LIFT, cups=cups,
                      lifted=(), shown=None, black=black, out=out, supplies=supplies,
                      turn=turn if won else next_seat(state))
    return _state(config=config, phase=_OVER if won else _CHOOSE, cups=cups,
                  lifted=() if won else state.lifted, shown=None, black=black, out=out,
                  supplies=supplies, turn=turn)


def add_bean(beans: int, supply: int, black: int, out: int, config: Config
             ) -> tuple[int, int, int, int]:
    """RONDA-7, RONDA-10, RONDA-12, RONDA-18: one bean from the supply onto a matched cup of
    *beans*; a cup of the maximum goes with the bean to the black cup (while it is empty and
    penalty beans are played) or out of the game, and is left empty.

    Returns the cup's beans, the supply, the black cup and the beans out of the game.

    :pre: config.max_beans in (4, 5) and 0 <= beans <= config.max_beans
    :pre: supply >= 1 and black >= 0 and out >= 0
    :post: sum(__return__) == beans + supply + black + out
    :post: __return__[1] == supply - 1 and 0 <= __return__[0] <= config.max_beans
    :post: __return__[2] == black or (black == 0 and __return__[2] == config.max_beans + 1)
    :post: (__return__[0] == 0) == (beans == config.max_beans)
    """
    if is_max_pair(beans, config):
        if goes_to_black(config, black):
            return 0, supply - 1, black + beans + 1, out
        return 0, supply - 1, black, out + beans + 1
    return beans + 1, supply - 1, black, out


def take_penalty(black: int, supply: int) -> tuple[int, int]:
    """RONDA-11: the penalty bean moves from the black cup into the mover's supply.

    :pre: black >= 1 and supply >= 0
    :post: __return__[0] + __return__[1] == black + supply
    :post: __return__[0] == black - 1 and __return__[0] >= 0
    """
    return black - 1, supply + 1


def _stop(state: State) -> State:
    """RONDA-9: missing a go: both groups covered, the turn passes, no penalty."""
    return _state(config=state.config, phase=_LIFT, cups=state.cups, lifted=(),
                  shown=None, black=state.black, out=state.out, supplies=state.supplies,
                  turn=next_seat(state))


def _keep(state: State, cup: int) -> State:
    """RONDA-8: cover the other group; *cup* stays open for the new lift."""
    return _state(config=state.config, phase=_LIFT, cups=state.cups, lifted=(cup,),
                  shown=None, black=state.black, out=state.out, supplies=state.supplies,
                  turn=state.turn)


def _again(state: State) -> State:
    """RONDA-16: simpler rule 1: cover both groups and lift two cups anew."""
    return _state(config=state.config, phase=_LIFT, cups=state.cups, lifted=(),
                  shown=None, black=state.black, out=state.out, supplies=state.supplies,
                  turn=state.turn)


def _arrange(state: State, cups: tuple[int, ...]) -> State:
    """RONDA-3: the beans go under the cups; the nominated player (seat 0) begins (RONDA-4)."""
    return _state(config=state.config, phase=_LIFT, cups=cups, lifted=(), shown=None,
                  black=state.black, out=state.out, supplies=state.supplies, turn=0)


# --------------------------------------------------------------------------------------
# Applying an action

_TYPES = (Arrange, Lift, Add, Stop, Keep, Again)

# The rule that names what a decision phase waits for (a wrong kind of action breaks it).
_PHASE_RULE = {
    Phase.LIFT: ("RONDA-5", "a covered cup is to be lifted"),
    Phase.ADD: ("RONDA-7", "a bean must be added to one of the two matched cups"),
    Phase.CHOOSE: ("RONDA-8", "the player stops or keeps one group open"),
}


def apply(state: State, action: Action) -> State:
    """The state after *action*; the given state is never changed.

    :raises MalformedInputError: for an object that is not a RONDA action, or a field of the
        wrong type.
    :raises IllegalActionError: naming the rule the action breaks, in the refusal order of
        ``specs/ronda.md``: RONDA-13 after the end, RONDA-3 the set-up, RONDA-4 out of turn,
        RONDA-5/7/8/16 the wrong kind of action or place.
    """
    _check_state(state)
    _check_action(action)
    return _CHECKS.built(_apply(state, action))


def _apply(state: State, action: Action) -> State:
    """:func:`apply` without the entry checks: for a state and an action whose types are
    known to be right (the rules' own, or checked by :func:`apply`)."""
    kind = type(action)
    if kind is Arrange:
        return _apply_arrange(state, action)  # type: ignore[arg-type]
    seat = action.seat  # type: ignore[union-attr]
    phase = state.phase
    # RONDA-13: nothing is played once a player has won.
    if phase is _OVER:
        msg = f"the game is over; seat {state.turn} has won"
        raise IllegalActionError("RONDA-13", msg)
    # RONDA-3: the cups are arranged first.
    if phase is _SET_UP:
        msg = "the cups must be arranged first"
        raise IllegalActionError("RONDA-3", msg)
    # RONDA-4: only the player to move acts.
    if seat != state.turn:
        msg = f"seat {seat} acted, but it is seat {state.turn}'s turn"
        raise IllegalActionError("RONDA-4", msg)
    if kind is Lift:
        if phase is not _LIFT:
            raise _wrong_kind(state, "lift")
        cup = action.cup  # type: ignore[union-attr]
        error = lift_error(state.lifted, cup)
        if error is not None:
            raise IllegalActionError("RONDA-5", error)
        return _lift(state, cup)
    if kind is Add:
        if phase is not _ADD:
            raise _wrong_kind(state, "add")
        cup = action.cup  # type: ignore[union-attr]
        # RONDA-7: the bean goes onto one of the two matched cups.
        if cup not in state.lifted:
            msg = f"place {cup} is not one of the matched cups {list(state.lifted)}"
            raise IllegalActionError("RONDA-7", msg)
        return _add(state, cup)
    if phase is not _CHOOSE:
        raise _wrong_kind(state, kind.__name__.lower())
    if kind is Stop:
        return _stop(state)
    relift = state.config.relift_after_match
    if kind is Keep:
        # RONDA-16: under simpler rule 1 both groups are covered; none is kept.
        if relift:
            msg = "under simpler rule 1 both groups are covered and two cups lifted anew"
            raise IllegalActionError("RONDA-16", msg)
        # RONDA-8: one of the two open groups stays open.
        cup = action.cup  # type: ignore[union-attr]
        if cup not in state.lifted:
            msg = f"place {cup} is not one of the open cups {list(state.lifted)}"
            raise IllegalActionError("RONDA-8", msg)
        return _keep(state, cup)
    # RONDA-8: without simpler rule 1 the player covers one group, not both.
    if not relift:
        msg = "the player covers one of the two groups and keeps the other open"
        raise IllegalActionError("RONDA-8", msg)
    return _again(state)


# The input checks of the entry points: a RONDA state, a seat, an action of exact types.


def _check_state(state: object, seat: object = None) -> None:
    """*state* passes the whole :func:`check_state` (its shape, then every rule), checked
    once per state object and marked, or carries the mark of this module's checks
    (:mod:`copa_ref.core.entry`), and *seat* is ``None`` or a seat at its table: the first
    line of every entry point.

    :raises MalformedInputError: not a RONDA state, a field not shaped right, or a seat not
        at the table.
    :raises InvalidStateError: naming the first rule the state breaks.
    """
    if type(state) is not State or getattr(state, CHECKED, None) is not _KEY:
        _CHECKS.enter(state)  # a state this module's checks have not marked: check it
    if seat is not None:
        check_position(state, State, "a RONDA state", seat, _seats)


def _seats(state: State) -> int:
    return state.config.players


def _check_action(action: object) -> None:
    """*action* is a RONDA action whose fields have exactly their types (``True`` is not a
    seat, ``3.0`` is not a place, a list is not an arrangement).

    :raises MalformedInputError: otherwise.
    """
    kind = type(action)
    if kind is Lift or kind is Add or kind is Keep:
        seat, cup = action.seat, action.cup  # type: ignore[attr-defined]
        if (type(seat) is int and type(cup) is int and -MAX_INT <= seat <= MAX_INT
                and -MAX_INT <= cup <= MAX_INT):
            return  # the common case, checked without a call
    check_instance(action, _TYPES, "a RONDA action")
    checked = cast(Action, action)
    if isinstance(checked, Arrange):
        check_tuple(checked.cups, "cups", check_int)
        return
    check_int(checked.seat, "seat")
    if isinstance(checked, Lift | Add | Keep):
        check_int(checked.cup, "cup")


def _wrong_kind(state: State, what: str) -> IllegalActionError:
    rule, wanted = _PHASE_RULE[state.phase]
    if state.phase is _CHOOSE and state.config.relift_after_match:
        rule, wanted = "RONDA-16", "the player stops or covers both groups to lift two anew"
    return IllegalActionError(rule, f"{wanted}; got {what}")


def _apply_arrange(state: State, action: Arrange) -> State:
    cups = action.cups
    error = arrangement_error(cups)
    if state.phase is _OVER:
        msg = f"the game is over; seat {state.turn} has won"
        raise IllegalActionError("RONDA-13", msg)
    # RONDA-3: the cups are arranged once, at the start.
    if state.phase is not _SET_UP:
        msg = "the cups are arranged already"
        raise IllegalActionError("RONDA-3", msg)
    if error is not None:
        raise IllegalActionError("RONDA-3", error)
    return _arrange(state, cups)


# --------------------------------------------------------------------------------------
# Chance, the end, what is seen




def sample_chance(state: State, rng: random.Random) -> Arrange:
    """RONDA-3: shuffle the filled cups (a uniformly random arrangement).

    :raises IllegalActionError: RONDA-3 when no arrangement is due.
    :raises MalformedInputError: for a value that is not a RONDA state.
    """
    _check_state(state)
    check_rng(rng)
    if state.phase is not _SET_UP:
        msg = "the cups are arranged already"
        raise IllegalActionError("RONDA-3", msg)
    return Arrange(shuffled(rng, COUNTS))


def chance_step(
    state: State, prefix: tuple[int, ...]
) -> tuple[tuple[int, Fraction], ...] | Arrange:
    """The arrangement one place at a time: given the beans chosen for the first places,
    the outcomes for the next place (the count itself, with its probability), or, with all
    ten chosen, the arrangement they make.

    :raises IllegalActionError: RONDA-3 when no arrangement is due, or *prefix* is no start
        of one.
    :raises MalformedInputError: for a value that is not a RONDA state, or a prefix that is
        not a tuple of integers.
    """
    _check_state(state)
    check_tuple(prefix, "prefix", check_int)
    if state.phase is not Phase.SET_UP:
        msg = "the cups are arranged already"
        raise IllegalActionError("RONDA-3", msg)
    left = list(COUNTS)
    for count in prefix:
        if count not in left:
            msg = f"{list(prefix)} is no start of an arrangement of 1,1,2,2,3,3,4,4,0,0"
            raise IllegalActionError("RONDA-3", msg)
        left.remove(count)
    if not left:
        return Arrange(tuple(prefix))
    return tuple((c, Fraction(left.count(c), len(left))) for c in sorted(set(left)))


def outcome(state: State) -> Outcome | None:
    """RONDA-13: the first player to get rid of all his beans wins; ``None`` while the game
    goes on.

    :raises MalformedInputError: for a value that is not a RONDA state.
    """
    _check_state(state)
    if state.phase is not Phase.OVER:
        return None
    return Outcome(winners=(Seat(state.turn),), rule="RONDA-13")


def circle_beans(state: State) -> int:
    """RONDA-15: the beans in the circle (before the arrangement, the 20 to be hidden)."""
    return sum(state.cups) if state.cups else CIRCLE_BEANS


def observe(state: State, seat: int | None = None) -> Observation:
    """RONDA-14: what *seat* sees, the same as every other seat and a spectator: the lifted
    cups and what the last lift showed, the total in the circle, the black cup, the beans
    out of the game, every supply. Never a covered cup's count.

    :raises MalformedInputError: when *seat* is neither ``None`` nor a seat of the game.
    """
    _check_state(state, seat)
    cups = state.cups
    return Observation(
        config=state.config,
        seat=seat,
        phase=state.phase,
        lifted=tuple([(c, cups[c]) for c in state.lifted]),
        shown=state.shown,
        circle=circle_beans(state),
        black=state.black,
        out=state.out,
        supplies=state.supplies,
        turn=state.turn,
    )


def remember(memory: Memory | None, action: Action, after: Observation) -> Memory:
    """What a perfect memory of the public history knows after *action* (RONDA-14): for each
    place, the beans there, or ``None`` if that place was never lifted. Start from ``None``
    (or the arrangement's step); fold over every action and the observation after it.

    A covered cup changes only in the open (a bean added while lifted, a group moved to the
    middle), so the memory is never wrong and holds all the public history holds about the
    cups.
    """
    if memory is None or type(action) is Arrange:
        memory = (None,) * PLACES
    known = list(memory)
    if type(action) is Lift and after.shown is not None:
        known[after.shown[0]] = after.shown[1]
    elif type(action) is Add:
        cup = action.cup
        beans = known[cup]
        if beans is not None:
            known[cup] = 0 if is_max_pair(beans, after.config) else beans + 1
    return tuple(known)


# --------------------------------------------------------------------------------------
# Checking a state


def total_beans(state: State) -> int:
    """RONDA-15: every bean: the circle, the black cup, every supply, out of the game."""
    return circle_beans(state) + state.black + sum(state.supplies) + state.out


def _int_ok(value: object) -> bool:
    """An integer within the codec's bound (``True`` is not one)."""
    return type(value) is int and -MAX_INT <= value <= MAX_INT


def _ints_ok(value: object) -> bool:
    """A tuple of integers within the codec's bound."""
    return type(value) is tuple and all([_int_ok(v) for v in value])


def _shape_error(state: State) -> str | None:
    """What is wrong with the types and shape of *state* (a ``MalformedInputError``), or
    ``None``: every field of exactly its type, integers within the codec's bound, one supply
    per seat, ten places or none, the mover a seat. The config is checked already."""
    n = state.config.players
    if type(state.phase) is not Phase:
        return "phase is not a RONDA phase"
    if not (_ints_ok(state.cups) and _ints_ok(state.lifted) and _ints_ok(state.supplies)):
        return "cups, lifted and supplies are lists of integers"
    shown = state.shown
    if shown is not None and not (_ints_ok(shown) and len(shown) == 2):
        return "shown is null or [place, beans]"
    if not (_int_ok(state.black) and _int_ok(state.out) and _int_ok(state.turn)):
        return "black, out and turn are integers"
    if len(state.supplies) != n:
        return f"supplies has one entry per seat ({n})"
    if len(state.cups) not in (0, PLACES):
        return f"cups has {PLACES} places (none before the arrangement)"
    # RONDA-4: the mover is a seat.
    if not 0 <= state.turn < n:
        return f"turn {state.turn} is no seat (0 to {n - 1})"
    return None


def _shape(state: State) -> None:
    """The shape of a RONDA state: a playable config, then :func:`_shape_error`.

    :raises MalformedInputError: naming the first field not shaped right.
    :raises InvalidStateError: RONDA-1/RONDA-2/RONDA-17 for a config no game is played with.
    """
    check_config(state.config)
    shape = _shape_error(state)
    if shape is not None:
        msg = f"malformed RONDA state: {shape}"
        raise MalformedInputError(msg)


def _open_pair(state: State) -> list[int]:
    return [state.cups[c] for c in state.lifted]


@rule("RONDA-2")
def _starting_supplies(state: State) -> str | None:
    # RONDA-2: every player starts with his beans.
    config = state.config
    if state.phase is Phase.SET_UP and state.supplies != (starting_beans(config),) * len(
            state.supplies):
        return "every player starts with his beans"
    return None


@rule("RONDA-3")
def _arrangement(state: State) -> str | None:
    # RONDA-3: the cups are arranged exactly when the game is past its set-up; before it
    # nothing is lifted or shown, and the nominated player (seat 0) will begin.
    arranged = state.phase is not Phase.SET_UP
    if arranged != bool(state.cups):
        return f"phase {state.phase.value} with {len(state.cups)} cups arranged"
    if not arranged and (state.lifted or state.shown is not None or state.turn != 0):
        return "nothing is lifted before the arrangement"
    return None


@rule("RONDA-5")
def _lifted(state: State) -> str | None:
    # RONDA-5: at most two cups lifted, each once, each a place of the circle; a lift is due
    # with at most one open.
    lifted = state.lifted
    if len(lifted) > 2 or len(set(lifted)) != len(lifted) or any(
            not 0 <= c < PLACES for c in lifted):
        return f"lifted cups {list(lifted)}"
    if state.phase is Phase.LIFT and len(lifted) > 1:
        return "a lift is due with two cups open"
    return None


@rule("RONDA-7")
def _matched(state: State) -> str | None:
    # RONDA-7: a bean is added to one of two open cups that match.
    pair = _open_pair(state)
    if state.phase is Phase.ADD and (len(pair) != 2 or not is_match(pair[0], pair[1])):
        return f"a bean is to be added with cups {pair} open"
    return None


@rule("RONDA-8")
def _choice(state: State) -> str | None:
    # RONDA-8: after the bean, the two open groups differ by that bean.
    pair = _open_pair(state)
    if state.phase is Phase.CHOOSE and (len(pair) != 2 or abs(pair[0] - pair[1]) != 1):
        return f"a choice after adding with cups {pair} open"
    return None


def _most(state: State) -> str | None:
    # RONDA-10 (RONDA-17: or 4 under simpler rule 2): no cup holds more than the maximum.
    if state.cups and max(state.cups) > state.config.max_beans:
        return f"a cup holds {max(state.cups)} beans"
    return None


_at_most_five = rule("RONDA-10")(lambda state: None if state.config.max_beans == 4 else
                                 _most(state))
_at_most_four = rule("RONDA-17")(lambda state: None if state.config.max_beans != 4 else
                                 _most(state))


@rule("RONDA-12")
def _groups(state: State) -> str | None:
    # RONDA-12: the black cup holds at most one group and its bean; out of the game go
    # whole groups.
    top = state.config.max_beans
    if state.black > top + 1 or state.out % (top + 1):
        return f"black cup {state.black}, out {state.out}: not whole groups"
    return None


@rule("RONDA-13")
def _winner(state: State) -> str | None:
    # RONDA-13: the game is over exactly when the mover has no beans; no one else has none.
    zeros = [s for s, supply in enumerate(state.supplies) if has_won(supply)]
    if state.phase is Phase.OVER and (zeros != [state.turn] or state.lifted):
        return f"game over with players {zeros} out of beans"
    if state.phase is not Phase.OVER and zeros:
        return f"seat {zeros[0]} has no beans, but the game goes on"
    return None


@rule("RONDA-14")
def _shown(state: State) -> str | None:
    # RONDA-14: what the last lift showed is what that cup holds; a bean to add follows the
    # lift of the second cup, which it showed; a choice follows an added bean, and the end
    # and the set-up no lift, which show nothing; with one cup open, the last lift showed
    # that cup (or nothing showed: the cup kept open).
    shown, lifted, phase = state.shown, state.lifted, state.phase
    if shown is not None and (not 0 <= shown[0] < PLACES or state.cups[shown[0]] != shown[1]):
        return f"shown {list(shown)} is not what the cup holds"
    if phase is Phase.ADD and (shown is None or shown[0] != lifted[-1]):
        return "a bean to add, but the second cup's lift showed nothing"
    if phase in (Phase.CHOOSE, Phase.OVER, Phase.SET_UP) and shown is not None:
        return f"phase {phase.value} after a lift that showed {list(shown)}"
    if phase is Phase.LIFT and len(lifted) == 1 and shown is not None and (
            shown[0] != lifted[0]):
        return f"cup {lifted[0]} is open, but the last lift showed cup {shown[0]}"
    return None


@rule("RONDA-16")
def _kept_open(state: State) -> str | None:
    # RONDA-16: with simpler rule 1 no cup is kept open: one open cup was just lifted.
    if (state.config.relift_after_match and state.phase is Phase.LIFT
            and len(state.lifted) == 1 and state.shown is None):
        return "a cup kept open under simpler rule 1"
    return None


@rule("RONDA-15")
def _conserved(state: State) -> str | None:
    # RONDA-15: no count is negative, and every bean is there.
    if min((*state.cups, *state.supplies, state.black, state.out)) < 0:
        return "a count is negative"
    expected = CIRCLE_BEANS + state.config.players * starting_beans(state.config)
    if total_beans(state) != expected:
        return f"{total_beans(state)} beans in play, not {expected}"
    return None


@rule("RONDA-18")
def _no_penalty_beans(state: State) -> str | None:
    # RONDA-18: without penalty beans the black cup stays empty.
    if not state.config.penalty_beans and state.black:
        return "the black cup holds beans without penalty beans"
    return None


CHECKS: StateChecks[State] = StateChecks(
    cls=State, what="a RONDA state", shape=_shape,
    rules=(_starting_supplies, _arrangement, _lifted, _matched, _choice, _at_most_five,
           _groups, _winner, _shown, _conserved, _kept_open, _at_most_four,
           _no_penalty_beans))
"""The checks of a RONDA state: its shape, then one check per rule in the order of
``specs/ronda.md`` (:class:`~copa_ref.core.entry.StateChecks`)."""

_CHECKS: StateChecks[State] = CHECKS
"""The entry check of every public function: the whole :data:`CHECKS`
(:mod:`copa_ref.core.entry`)."""
_KEY = _CHECKS.key
"""The mark :data:`_CHECKS` writes on a state it checked or the rules built."""


def check_state(state: State) -> None:
    """Raise the precise error if *state* could not arise from legal play.

    :raises MalformedInputError: for a value that is not a RONDA state, or a field of the
        wrong shape or type (an integer beyond the codec's bound included).
    :raises InvalidStateError: naming the first rule, in spec order, the state (or its
        config) contradicts.
    """
    CHECKS.check(state)


def well_formed(state: State) -> bool:
    """Whether *state* could arise from legal play (pure, total, never raises)."""
    return CHECKS.well_formed(state)
