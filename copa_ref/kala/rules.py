"""KALA's rules as pure functions: a perfect-information game for two, no chance.

A turn is a sequence of single decisions: the path of the sowing (``Sow``), whether to
harvest (``Harvest``, where the last bean makes a harvest possible and harvesting is
optional), where the playing cup goes (``Place``, only after the last bean went into the
opponent's cup), whether to take the bonus move (``Bonus``, only when it is optional), and
the path of the bonus sowing, with its own harvest and placement. Choices with one option
are applied automatically.

Rule IDs refer to ``specs/kala.md``.
"""

from __future__ import annotations

import random
from typing import cast

import attrs

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
    rule,
    seam,
)
from copa_ref.core.entry import slot_builder
from copa_ref.core.fields import (
    check_bool,
    check_instance,
    check_int,
    check_seat,
    check_square,
    check_tuple,
)
from copa_ref.kala.paths import (
    NEIGHBOURS,
    PATH_SETS,
    PATHS,
    SQUARES,  # noqa: F401 - named by the contract of sow_beans
    longest_path,
    on_board,
    path_error,
)
from copa_ref.kala.state import (
    BOARD,
    MIN_STORE,
    PLAYERS,
    STORE,
    TOTAL_BEANS,
    Action,
    Bonus,
    BonusRule,
    Config,
    EndCheck,
    Harvest,
    HarvestRule,
    Phase,
    Place,
    Sow,
    Square,
    State,
)

__all__ = [
    "SOWING",
    "apply",
    "beans_in_play",
    "bonus_due",
    "bonus_length",
    "check_state",
    "cup_destination",
    "excess_receiver",
    "harvest_split",
    "harvestable",
    "is_legal",
    "legal_actions",
    "new_game",
    "num_players",
    "observe",
    "outcome",
    "sample_chance",
    "sow_beans",
    "to_move",
    "too_few",
    "total_beans",
    "well_formed",
]

Field = tuple[int, ...]
"""The 16 field cups' beans, row by row: square ``(row, col)`` is index ``4 * row + col``."""

START_SQUARES: tuple[Square, Square] = ((0, 0), (BOARD - 1, BOARD - 1))
"""KALA-2: the playing cups start on two diagonally opposite corners."""

SOWING = 4
"""KALA-4: a regular sowing takes this many beans from the store (one per square)."""

# The phases and options as module constants: the rules read them on every action, and a
# global name reads faster than an Enum member read from its class.
_SOW, _HARVEST, _PLACE, _BONUS, _BONUS_SOW, _OVER = (
    Phase.SOW, Phase.HARVEST, Phase.PLACE, Phase.BONUS, Phase.BONUS_SOW, Phase.OVER)
_MANDATORY_HARVEST = HarvestRule.MANDATORY
_OPTIONAL_BONUS, _MANDATORY_BONUS = BonusRule.OPTIONAL, BonusRule.MANDATORY
_AFTER_TURN = EndCheck.AFTER_TURN

_MOVERS = (ToMove.seat(0), ToMove.seat(1))

# Prebuilt actions: the legal sets are looked up, never rebuilt.
_SOWS: dict[tuple[int, Square, int], tuple[Sow, ...]] = {
    (seat, start, length): tuple(Sow(seat, path) for path in paths)
    for seat in range(PLAYERS)
    for (start, length), paths in PATHS.items()
}
_CHOICES: dict[tuple[type, int], tuple[Harvest, ...] | tuple[Bonus, ...]] = {
    **{(Harvest, s): (Harvest(s, False), Harvest(s, True)) for s in range(PLAYERS)},
    **{(Bonus, s): (Bonus(s, False), Bonus(s, True)) for s in range(PLAYERS)},
}
_PLACES: dict[tuple[int, Square], tuple[Place, ...]] = {
    (seat, sq): tuple(Place(seat, n) for n in NEIGHBOURS[sq])
    for seat in range(PLAYERS)
    for sq in NEIGHBOURS
}

# The rule that names what a phase waits for (a wrong kind of action breaks it).
_PHASE_RULE = {
    _SOW: ("KALA-4", Sow, "a turn begins by sowing 4 beans"),
    _HARVEST: ("KALA-16", Harvest, "the harvest is decided before the cup moves"),
    _PLACE: ("KALA-10", Place, "the playing cup must be placed next to the opponent's"),
    _BONUS: ("KALA-12", Bonus, "the bonus move is to be taken or declined"),
    _BONUS_SOW: ("KALA-12", Sow, "the bonus move sows the playing cup's beans"),
}


# --------------------------------------------------------------------------------------
# Setting up

_state = slot_builder(State)
"""``State(...)`` as the rules build it at every step, without the class's ``__init__`` (the
same object, its slots written directly: :func:`~copa_ref.core.entry.slot_builder`)."""


def num_players(config: Config) -> int:
    """KALA-1: always two.

    :raises MalformedInputError: for a value that is not a KALA config.
    """
    check_instance(config, Config, "a KALA config")
    return PLAYERS


def new_game(config: Config | None = None) -> State:
    """The starting position (KALA-1, KALA-2, KALA-3).

    :raises InvalidStateError: KALA-3 if the config names no seat as first player; KALA-1
        for a store outside 4 to 28 (KALA-V1).
    """
    config = Config() if config is None else config
    _check_config(config)
    state = _state(
        config=config,
        field=(0,) * (BOARD * BOARD),
        cups=START_SQUARES,
        cup_beans=(0, 0),
        stores=(beans_in_play(config) // PLAYERS,) * PLAYERS,
        bank=0,
        turn=config.first_player,
        phase=_SOW,
    )
    problem = _seats.test(state)  # KALA-3: the first player is a seat
    if problem is not None:
        raise InvalidStateError("KALA-3", problem)
    return _CHECKS.built(state)


# --------------------------------------------------------------------------------------
# Who moves, what is legal


def to_move(state: State) -> ToMove:
    """The seat whose turn it is, or nobody once the game is over (KALA-3, KALA-17).

    :raises MalformedInputError: for a value that is not a KALA state.
    :raises InvalidStateError: for a KALA state no legal play can produce.
    """
    _CHECKS.enter(state)
    return _to_move(state)


def _to_move(state: State) -> ToMove:
    if state.phase is _OVER:
        return NOBODY
    return _MOVERS[state.turn]


def bonus_length(state: State) -> int:
    """The number of beans the bonus sowing puts into play (KALA-13, KALA-14): all the
    beans in the playing cup, or as many as the longest path from its square holds."""
    return min(state.cup_beans[state.turn], longest_path(state.cups[state.turn]))


def legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """Every legal action, sorted by canonical JSON; only the mover has any.

    :raises MalformedInputError: for a value that is not a KALA state, or a seat that is
        neither ``None`` nor 0 or 1.
    :raises InvalidStateError: for a KALA state no legal play can produce.
    """
    _CHECKS.enter(state)
    check_seat(seat, PLAYERS, optional=True)
    return _legal_actions(state, seat)


def _legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    turn = state.turn
    if state.phase is _OVER or (seat is not None and seat != turn):
        return ()
    phase = state.phase
    if phase is _SOW:
        return _SOWS[(turn, state.cups[turn], SOWING)]
    if phase is _BONUS_SOW:
        return _SOWS[(turn, state.cups[turn], bonus_length(state))]
    if phase is _HARVEST:
        return _CHOICES[(Harvest, turn)]
    if phase is _BONUS:
        return _CHOICES[(Bonus, turn)]
    assert state.last is not None
    return _PLACES[(turn, state.last)]


def is_legal(state: State, action: Action) -> bool:
    """Whether :func:`apply` accepts *action*; never raises."""
    try:
        apply(state, action)
    except (RuleViolation, MalformedInputError):
        return False
    return True


# --------------------------------------------------------------------------------------
# The pieces of a turn, each one rule


def sow_beans(
    field: Field, cups: tuple[Square, Square], cup_beans: tuple[int, int], seat: int,
    path: tuple[Square, ...],
) -> tuple[Field, tuple[int, int]]:
    """One bean into each square of *path* (KALA-6, KALA-9): the first into the sower's
    own playing cup, one on the square of the opponent's playing cup into that cup (the
    field cup beneath receives nothing), the others into the field cups.

    :pre: len(field) == 16 and seat in (0, 1) and 1 <= len(path) <= 7
    :pre: all(square in SQUARES for square in path)
    :post: sum(__return__[0]) + sum(__return__[1]) == sum(field) + sum(cup_beans) + len(path)
    """
    other = 1 - seat
    opponent_square = cups[other]
    cells = list(field)
    beans = [cup_beans[0], cup_beans[1]]
    beans[seat] += 1
    for row, col in path[1:]:
        if (row, col) == opponent_square:
            beans[other] += 1
        else:
            cells[BOARD * row + col] += 1
    return tuple(cells), (beans[0], beans[1])


def harvest_split(beans: int) -> tuple[int, int]:
    """KALA-15: a harvested cup gives one bean to the bank and the rest to the store.

    :pre: beans >= 4
    :post: __return__[0] == 1 and __return__[0] + __return__[1] == beans
    """
    return 1, beans - 1


def _last_cup_beans(state: State) -> int:
    """Beans in the cup that took the last bean: the opponent's cup or a field cup."""
    assert state.last is not None
    other = 1 - state.turn
    if state.last == state.cups[other]:
        return state.cup_beans[other]
    row, col = state.last
    return state.field[BOARD * row + col]


def _after_sowing(state: State) -> State:
    """KALA-15, KALA-16: a harvest first (decided, or forced when mandatory), then the cup."""
    if harvestable(_last_cup_beans(state)):
        if state.config.harvest is _MANDATORY_HARVEST:
            return _harvest(state)
        return state if state.phase is _HARVEST else _with_phase(state, _HARVEST)
    return _move_cup(state)


def harvestable(beans: int) -> bool:
    """KALA-15: a cup the last bean leaves with 4 or more beans may be harvested."""
    return beans >= 4


def _harvest(state: State) -> State:
    """KALA-15: empty the cup that took the last bean (field cup or opponent's cup)."""
    assert state.last is not None
    seat, other = state.turn, 1 - state.turn
    field, cup_beans = state.field, state.cup_beans
    if state.last == state.cups[other]:
        to_bank, to_store = harvest_split(cup_beans[other])
        cup_beans = (0, cup_beans[1]) if other == 0 else (cup_beans[0], 0)
    else:
        row, col = state.last
        index = BOARD * row + col
        to_bank, to_store = harvest_split(field[index])
        field = (*field[:index], 0, *field[index + 1:])
    stores = (state.stores[0] + to_store, state.stores[1]) if seat == 0 else (
        state.stores[0], state.stores[1] + to_store)
    harvested = _state(state.config, field, state.cups, cup_beans, stores,
                      state.bank + to_bank, seat, _HARVEST, state.bonus_sowing, state.last)
    return _move_cup(harvested)


@seam
def cup_destination(state: State) -> Square | None:
    """Where the mover's playing cup goes after a sowing: onto the field cup that took the
    last bean (KALA-8), or ``None`` when the last bean fell into the opponent's playing cup,
    where the player chooses a neighbour of it (KALA-10)."""
    assert state.last is not None
    return None if state.last == state.cups[1 - state.turn] else state.last


def _move_cup(state: State) -> State:
    """KALA-8, KALA-10: onto the last bean's field cup, or (last bean in the opponent's cup)
    onto a neighbour of it that the player chooses."""
    square = cup_destination(state)
    if square is not None:
        return _place(state, square)
    assert state.last is not None
    options = NEIGHBOURS[state.last]
    if len(options) > 1:
        return _with_phase(state, _PLACE)
    return _place(state, options[0])


def _place(state: State, square: Square) -> State:
    """The playing cup onto *square*; then the bonus move (KALA-12) or the turn's end. The
    placed cup is passed on, not a state: one state is built for the rest of the turn."""
    seat = state.turn
    cups = (square, state.cups[1]) if seat == 0 else (state.cups[0], square)
    if not state.bonus_sowing and bonus_due(state.cup_beans[seat]):
        # KALA-12: after moving, 4 or more beans in the playing cup give a bonus move.
        if state.config.bonus is _OPTIONAL_BONUS:
            return _state(state.config, state.field, cups, state.cup_beans, state.stores,
                         state.bank, seat, _BONUS)
        return _start_bonus(state, cups)
    return _end_turn(state, cups)


def bonus_due(beans: int) -> bool:
    """KALA-12: 4 or more beans in the playing cup after it moved give a bonus move."""
    return beans >= 4


def too_few(beans: int) -> bool:
    """KALA-17: a player with fewer than 4 beans in his store cannot finish a turn."""
    return beans < 4


@seam
def excess_receiver(seat: int) -> int:
    """KALA-14: the beans no bonus path holds go to the opponent of *seat*."""
    return 1 - seat


def _start_bonus(state: State, cups: tuple[Square, Square] | None = None) -> State:
    """KALA-12: the bonus sowing begins (the playing cups on *cups*, default where they
    stand); with one path only, it is sown at once."""
    bonus = _state(state.config, state.field, state.cups if cups is None else cups,
                  state.cup_beans, state.stores, state.bank, state.turn, _BONUS_SOW)
    options = _SOWS[(bonus.turn, bonus.cups[bonus.turn], bonus_length(bonus))]
    if len(options) == 1:
        return _sow(bonus, options[0].path)
    return bonus


def _end_turn(state: State, cups: tuple[Square, Square] | None = None) -> State:
    """KALA-17: the game ends when a player has fewer than 4 beans for his turn (the
    playing cups on *cups*, default where they stand)."""
    seat, nxt = state.turn, 1 - state.turn
    cups = state.cups if cups is None else cups
    after_turn = state.config.end_check is _AFTER_TURN
    over = too_few(state.stores[seat] if after_turn else state.stores[nxt])
    if over and after_turn:
        return _state(state.config, state.field, cups, state.cup_beans, state.stores,
                     state.bank, seat, _OVER)
    return _state(state.config, state.field, cups, state.cup_beans, state.stores,
                 state.bank, nxt, _OVER if over else _SOW)


def _sow(state: State, path: tuple[Square, ...]) -> State:
    """Sow along a checked path: KALA-4 from the store, or KALA-12..14 from the cup."""
    seat = state.turn
    stores = state.stores
    cup_beans = state.cup_beans
    bonus = state.phase is _BONUS_SOW
    if bonus:
        # KALA-12: all beans leave the playing cup; KALA-14: those no path holds go to the
        # opponent's store.
        excess = cup_beans[seat] - len(path)
        cup_beans = (0, cup_beans[1]) if seat == 0 else (cup_beans[0], 0)
        if excess:
            receiver = excess_receiver(seat)
            stores = (stores[0] + excess, stores[1]) if receiver == 0 else (
                stores[0], stores[1] + excess)
    else:
        stores = (stores[0] - SOWING, stores[1]) if seat == 0 else (
            stores[0], stores[1] - SOWING)
    field, cup_beans = sow_beans(state.field, state.cups, cup_beans, seat, path)
    sown = _state(state.config, field, state.cups, cup_beans, stores, state.bank, seat,
                 _HARVEST, bonus, path[-1])
    return _after_sowing(sown)


def _with_phase(state: State, phase: Phase) -> State:
    """*state* waiting for the decision of *phase*."""
    return attrs.evolve(state, phase=phase)


# --------------------------------------------------------------------------------------
# Applying an action


def apply(state: State, action: Action) -> State:
    """The state after *action*; the given state is never changed.

    :raises IllegalActionError: naming the rule the action breaks (KALA-3 out of turn,
        KALA-4 .. KALA-7 a bad path, KALA-10 a bad placement, KALA-12/13 a bad bonus,
        KALA-16 out of order, KALA-17 after the end).
    :raises MalformedInputError: for an object that is not a KALA action, or a value that is
        not a KALA state.
    :raises InvalidStateError: for a KALA state no legal play can produce.
    """
    _CHECKS.enter(state)
    _check_action(action)
    return _CHECKS.built(_apply(state, action))


def _apply(state: State, action: Action) -> State:
    """:func:`apply` for a checked state and an action of exact types."""
    phase = state.phase
    # KALA-17: nothing is played once the game has ended.
    if phase is _OVER:
        msg = f"the game is over; seat {1 - state.turn} has won"
        raise IllegalActionError("KALA-17", msg)
    # KALA-3: the players take turns; only the player to move acts.
    if action.seat != state.turn:
        msg = f"seat {action.seat} acted, but it is seat {state.turn}'s turn"
        raise IllegalActionError("KALA-3", msg)
    rule, expected, wanted = _PHASE_RULE[phase]
    if type(action) is not expected:
        msg = f"{wanted}; got {type(action).__name__}"
        raise IllegalActionError(rule, msg)
    if isinstance(action, Sow):
        return _apply_sow(state, action.path)
    if isinstance(action, Harvest):
        return _harvest(state) if action.take else _move_cup(state)
    if isinstance(action, Bonus):
        return _start_bonus(state) if action.take else _end_turn(state)
    return _apply_place(state, action.square)


# The input check of an action: exact types (a state enters through ``_CHECKS.enter``).


def _check_action(action: object) -> None:
    """*action* is a KALA action whose fields have exactly their types (``True`` is not a
    seat, ``3.0`` is not a row, a list is not a path).

    :raises MalformedInputError: otherwise.
    """
    check_instance(action, (Sow, Harvest, Place, Bonus), "a KALA action")
    checked = cast(Action, action)
    check_int(checked.seat, "seat")
    if isinstance(checked, Sow):
        check_tuple(checked.path, "path", check_square)
    elif isinstance(checked, Place):
        check_square(checked.square, "square")
    else:
        check_bool(checked.take, "take")


def _apply_sow(state: State, path: tuple[Square, ...]) -> State:
    seat = state.turn
    start = state.cups[seat]
    length = SOWING if state.phase is _SOW else bonus_length(state)
    if path not in PATH_SETS[(start, length)]:
        _refuse_path(state, start, path, length)
    return _sow(state, path)


def _refuse_path(state: State, start: Square, path: tuple[Square, ...], length: int) -> None:
    """Name the rule a refused path breaks (never returns); *path* is shaped right."""
    error = path_error(start, path, length)
    assert error is not None, f"path {path} is legal but missing from the table"
    rule, msg = error
    if rule == "KALA-4" and state.phase is _BONUS_SOW:
        # KALA-13: the bonus sows every bean a path has room for.
        rule = "KALA-13"
        msg = f"the bonus sowing puts {length} beans into play; path has {len(path)} squares"
    raise IllegalActionError(rule, msg)


def _apply_place(state: State, square: Square) -> State:
    assert state.last is not None
    # KALA-10: next to the opponent's cup, horizontally or vertically, never onto it.
    if square == state.last:
        msg = f"the playing cup may not go onto the opponent's cup at {square}"
        raise IllegalActionError("KALA-10", msg)
    if not on_board(square) or square not in NEIGHBOURS[state.last]:
        msg = f"{square} is not a field cup next to the opponent's cup at {state.last}"
        raise IllegalActionError("KALA-10", msg)
    return _place(state, square)


# --------------------------------------------------------------------------------------
# The end


def outcome(state: State) -> Outcome | None:
    """KALA-17: once a player cannot finish a turn, the other player wins.

    :raises MalformedInputError: for a value that is not a KALA state.
    :raises InvalidStateError: for a KALA state no legal play can produce.
    """
    _CHECKS.enter(state)
    if state.phase is not _OVER:
        return None
    loser = state.turn
    return Outcome(winners=(Seat(1 - loser),), losers=(Seat(loser),), rule="KALA-17")


def observe(state: State, seat: int | None = None) -> State:
    """KALA-11: the players may look under both playing cups at any time; nothing is hidden.

    :raises MalformedInputError: for a value that is not a KALA state, or a seat that is
        neither ``None`` nor 0 or 1.
    """
    _CHECKS.enter(state)
    check_seat(seat, PLAYERS, optional=True)
    return state


def sample_chance(state: State, rng: random.Random) -> Action:
    """KALA has no chance nodes: a seat is to move, or nobody (KALA-3).

    :raises IllegalActionError: KALA-3, always (a ``ValueError``).
    :raises MalformedInputError: for a value that is not a KALA state, or an *rng* that is
        not a ``random.Random``.
    """
    _CHECKS.enter(state)
    check_rng(rng)
    msg = "KALA has no chance nodes"
    raise IllegalActionError("KALA-3", msg)


# --------------------------------------------------------------------------------------
# Checking a state


def total_beans(state: State) -> int:
    """KALA-18: every bean in play: stores, field cups, both playing cups and the bank."""
    return (sum(state.stores) + sum(state.field) + sum(state.cup_beans)
            + state.bank)


def beans_in_play(config: Config) -> int:
    """KALA-1, KALA-18: the beans of both stores at the start: the text's 56, or twice
    ``Config.store`` (KALA-V1)."""
    return TOTAL_BEANS if config.store is None else PLAYERS * config.store


def _check_config(config: object) -> None:
    check_instance(config, Config, "a KALA config", "config")
    checked = cast(Config, config)
    check_int(checked.first_player, "config.first_player")
    for name, kind in (("harvest", HarvestRule), ("bonus", BonusRule),
                       ("end_check", EndCheck)):
        if type(getattr(checked, name)) is not kind:
            raise MalformedInputError(f"config.{name} must be a {kind.__name__}")
    if checked.store is None:
        return
    check_int(checked.store, "config.store")
    # KALA-1 (KALA-V1): 28 beans a store, or fewer down to one regular sowing.
    if not MIN_STORE <= checked.store <= STORE:
        msg = f"a store starts with {MIN_STORE} to {STORE} beans, not {checked.store}"
        raise InvalidStateError("KALA-1", msg)


def _shape(state: State) -> None:
    """Every field of *state* has its exact type, its size, and integers within the codec's
    63 bits (:mod:`copa_ref.core.fields`)."""
    _check_config(state.config)
    check_tuple(state.field, "field", check_int, BOARD * BOARD)
    check_tuple(state.cups, "cups", check_square, 2)
    check_tuple(state.cup_beans, "cup_beans", check_int, 2)
    check_tuple(state.stores, "stores", check_int, 2)
    check_int(state.bank, "bank")
    check_int(state.turn, "turn")
    if type(state.phase) is not Phase:
        raise MalformedInputError("phase must be a KALA Phase")
    check_bool(state.bonus_sowing, "bonus_sowing")
    if state.last is not None:
        check_square(state.last, "last")


# The rules a state obeys, in the order of specs/kala.md, one check under each sentence.


@rule("KALA-3")
def _seats(state: State) -> str | None:
    """The first player is one of the two seats, and so is the player to move."""
    if state.config.first_player not in (0, 1) or state.turn not in (0, 1):
        return "seats are 0 and 1"
    return None


@rule("KALA-5")
def _on_the_field(state: State) -> str | None:
    """Both playing cups, and the square of the last bean, stand on the field."""
    if not all(on_board(c) for c in state.cups) or not (
            state.last is None or on_board(state.last)):
        return f"a square is off the field: {state.cups}, last {state.last}"
    return None


@rule("KALA-10")
def _cups_apart(state: State) -> str | None:
    """A playing cup never stands on the other."""
    if state.cups[0] == state.cups[1]:
        return f"both playing cups stand on {state.cups[0]}"
    return None


@rule("KALA-18")
def _beans_conserved(state: State) -> str | None:
    """No count is negative, and the 56 beans (KALA-V1: twice the store) are all there."""
    counts = [*state.stores, *state.cup_beans, state.bank, *state.field]
    if min(counts) < 0:
        return "a count is negative"
    expected = beans_in_play(state.config)
    if total_beans(state) != expected:
        return f"{total_beans(state)} beans in play, not {expected}"
    return None


def _in_sowing(phase: Phase) -> bool:
    """Whether a sowing is being finished: the harvest or the placement is to be decided."""
    return phase in (_HARVEST, _PLACE)


@rule("KALA-16")
def _last_while_sowing(state: State) -> str | None:
    """The square of the last bean is known exactly while its sowing is being finished."""
    if _in_sowing(state.phase) != (state.last is not None):
        return f"phase {state.phase.value} with last = {state.last}"
    return None


@rule("KALA-6")
def _first_bean_home(state: State) -> str | None:
    """While a sowing is being finished, its first bean lies in the mover's playing cup."""
    if _in_sowing(state.phase) and state.cup_beans[state.turn] < 1:
        return "a sowing is being finished, but its first bean is not in the mover's cup"
    return None


@rule("KALA-12")
def _bonus_sowing_finished(state: State) -> str | None:
    """Only a sowing being finished can be the bonus sowing; it took every bean out of the
    mover's playing cup and put the first one back, so the cup holds that one."""
    if state.bonus_sowing and not _in_sowing(state.phase):
        return f"a bonus sowing is being finished in phase {state.phase.value}"
    if state.bonus_sowing and state.cup_beans[state.turn] != 1:
        return (f"a bonus sowing is being finished with {state.cup_beans[state.turn]} beans "
                "in the mover's cup, not its first bean only")
    return None


@rule("KALA-17")
def _turn_needs_four(state: State) -> str | None:
    """A turn starts only with 4 beans in store; the game is over exactly when the player
    who cannot move has fewer."""
    seat, phase, stores = state.turn, state.phase, state.stores
    if phase is _SOW and too_few(stores[seat]):
        return f"seat {seat} is to sow with {stores[seat]} beans"
    if phase is _OVER and not too_few(stores[seat]):
        return f"game over, but seat {seat} holds {stores[seat]} beans"
    if (state.config.end_check is _AFTER_TURN and phase is not _OVER
            and too_few(stores[1 - seat])):
        return f"seat {1 - seat} ended a turn with {stores[1 - seat]} beans"
    return None


@rule("KALA-15")
def _harvest_decision(state: State) -> str | None:
    """A harvest is decided only where the last cup holds 4 beans and harvesting is
    optional."""
    if (state.phase is _HARVEST and state.last is not None
            and not harvestable(_last_cup_beans(state))):
        return "no harvest is possible from the last cup"
    if state.phase is _HARVEST and state.config.harvest is _MANDATORY_HARVEST:
        return "a mandatory harvest is never a decision"
    return None


@rule("KALA-10")
def _placement_decision(state: State) -> str | None:
    """The cup's square is a choice only after the opponent's cup took the last bean."""
    if state.phase is _PLACE and state.last != state.cups[1 - state.turn]:
        return "placement is a choice only after the opponent's cup took the last bean"
    return None


@rule("KALA-12")
def _bonus_decision(state: State) -> str | None:
    """A bonus move needs 4 beans in the playing cup, and is a decision only if optional."""
    seat = state.turn
    if state.phase in (_BONUS, _BONUS_SOW) and state.cup_beans[seat] < 4:
        return f"a bonus move with {state.cup_beans[seat]} beans in the cup"
    if state.phase is _BONUS and state.config.bonus is _MANDATORY_BONUS:
        return "a mandatory bonus is never a decision"
    return None


@rule("KALA-13")
def _cup_capacity(state: State) -> str | None:
    """With the bonus mandatory, a playing cup never holds more than 6 beans; at the start
    of a turn the mover's holds at most 5 and the other's at most 3, and each sowing of the
    turn adds at most one bean to the other's (at most 4 after the regular sowing, 5 after
    the bonus sowing)."""
    if state.config.bonus is not _MANDATORY_BONUS:
        return None
    seat, phase = state.turn, state.phase
    if max(state.cup_beans) > 6:
        return f"a playing cup holds {max(state.cup_beans)} beans"
    if phase is _SOW and (state.cup_beans[seat] > 5
                          or state.cup_beans[1 - seat] > 3):
        return f"playing cups hold {state.cup_beans} at the start of a turn"
    if phase is _OVER or phase is _SOW:
        return None
    most = 5 if state.bonus_sowing else 4
    if state.cup_beans[1 - seat] > most:
        return (f"the other playing cup holds {state.cup_beans[1 - seat]} beans after "
                f"{'the bonus' if state.bonus_sowing else 'the regular'} sowing")
    return None


_CHECKS: StateChecks[State] = StateChecks(
    State, "a KALA state", _shape,
    (_seats, _on_the_field, _first_bean_home, _cups_apart, _placement_decision,
     _bonus_sowing_finished, _bonus_decision, _cup_capacity, _harvest_decision,
     _last_while_sowing, _turn_needs_four, _beans_conserved),
)
"""KALA's state checks (:class:`~copa_ref.core.entry.StateChecks`): the shape, then each
rule in the order of the spec; the first rule broken is the one named."""


def check_state(state: State) -> None:
    """Raise the precise error if *state* could not arise from legal play.

    :raises MalformedInputError: when *state* is not a KALA state or a field has the wrong
        type, size or bounds.
    :raises InvalidStateError: naming the rule the state contradicts.
    """
    _CHECKS.check(state)


def well_formed(state: object) -> bool:
    """Whether *state* could arise from legal play (pure, total, never raises)."""
    return _CHECKS.well_formed(state)


# --------------------------------------------------------------------------------------
# The action space of the adapters


def action_space(config: Config) -> tuple[Action, ...]:
    """Every action that can ever be legal under *config*, sorted by canonical JSON text:
    every sowing path of every seat, every cup placement, and the harvest and bonus
    choices where the config leaves them to the player (KALA-Q7, KALA-Q8). The integer
    action space of the OpenSpiel and PettingZoo adapters."""
    actions: list[Action] = [a for sows in _SOWS.values() for a in sows]
    actions += [a for places in _PLACES.values() for a in places]
    if config.harvest is HarvestRule.OPTIONAL:
        actions += _CHOICES[(Harvest, 0)] + _CHOICES[(Harvest, 1)]
    if config.bonus is _OPTIONAL_BONUS:
        actions += _CHOICES[(Bonus, 0)] + _CHOICES[(Bonus, 1)]
    return _sorted_actions(actions)


def _sorted_actions(actions: list[Action]) -> tuple[Action, ...]:
    from copa_ref.core import canonical_json, make_converter, register_union

    converter = make_converter()
    register_union(converter, Action)
    texts = {canonical_json(converter.unstructure(a, unstructure_as=Action)): a
             for a in actions}
    return tuple(texts[t] for t in sorted(texts))
