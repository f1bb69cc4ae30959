"""HOPPER's rules as pure functions: a perfect-information game of chance for 2–5 players.

A turn is one shot: the shooter's decision (:class:`~copa_ref.hopper.state.Shoot`, the cup
aimed at), then a chance action (:class:`~copa_ref.hopper.state.Land`, where the bean
falls). A foursome claims the cup, its beans go loose and the tray closes up; all of that,
replenishing from the loose beans, skipping an empty-handed player and the black cup's
arrival under End 2 are automatic. Under End 2, once the black cup has joined, any seat that
may shoot shoots next (an ``any`` node). Where a bean lands is never drawn by the rules: the
shot model in the config only serves :func:`chance_outcomes` and :func:`sample_chance`.

Rule IDs refer to ``specs/hopper.md``.
"""

from __future__ import annotations

import functools
import math
import operator
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
)
from copa_ref.core.codec import MAX_INT, excerpt
from copa_ref.core.entry import CHECKED, StateChecks, check_rng, rule, slot_builder
from copa_ref.core.fields import check_instance, check_int, check_position
from copa_ref.core.misreading import seam
from copa_ref.hopper.state import (
    BLACK,
    CUP_BEANS,
    NEUTRAL_CUPS,
    Action,
    AimedShot,
    Claim,
    Config,
    Ending,
    Land,
    Phase,
    Remainder,
    SeatAccuracy,
    Shoot,
    ShotModel,
    State,
    TrayCup,
)

__all__ = [
    "MAX_BEANS",
    "MAX_PLAYERS",
    "MAX_TERM",
    "MIN_BEANS_IN_PLAY",
    "MIN_PLAYERS",
    "action_space",
    "aim_chosen",
    "aim_targets",
    "apply",
    "beans_in_play",
    "black_joins",
    "can_shoot",
    "chance_outcomes",
    "check_aim",
    "check_config",
    "check_landing",
    "check_phase",
    "check_seat",
    "check_shot_model",
    "check_state",
    "check_turn",
    "close_up",
    "cup_value",
    "deal",
    "drop_bean",
    "first_turn",
    "game_over",
    "initial_tray",
    "is_foursome",
    "is_legal",
    "landing_probabilities",
    "legal_actions",
    "new_game",
    "next_turn",
    "num_players",
    "observe",
    "outcome",
    "points",
    "replenish",
    "sample_chance",
    "shoot_out",
    "shooters",
    "to_move",
    "total_beans",
    "well_formed",
    "winner_end_1",
]

MIN_PLAYERS = 2
"""HOPPER-1: the fewest players."""
MAX_PLAYERS = 5
"""HOPPER-1: the most players."""
CUPS_TO_WIN = 4
"""HOPPER-12: the cups that win under End 1."""
BLACK_JOINS_AT = 3
"""HOPPER-14: the cups left in the tray when the black cup joins."""
MIN_BEANS_IN_PLAY = CUP_BEANS * NEUTRAL_CUPS + 1
"""HOPPER-3: with 49 beans in play some bean is always in a hand or loose (HOPPER-Q3)."""
MAX_BEANS = 1000
"""HOPPER-3: the most beans a config may put in the box ("about 80"; a bound, so that a game
always ends in a bounded number of shots)."""
MAX_TERM = MAX_INT
"""HOPPER-6: the largest numerator or denominator of a shot model's probability, the codec's
bound on integers (the probabilities of the landings, built from them, then stay small
enough to encode)."""

_SEATS = tuple(ToMove.seat(s) for s in range(MAX_PLAYERS))
_first = operator.itemgetter(0)

# The phases and endings as module constants: the rules of play test them at every action,
# and a global name reads faster than an Enum member read from its class.
_AIM, _LAND, _OVER = Phase.AIM, Phase.LAND, Phase.OVER
_END_1, _END_2 = Ending.END_1, Ending.END_2


# --------------------------------------------------------------------------------------
# Materials and preparation

_state = slot_builder(State)
"""``State(...)`` as the rules build it at every step, without the class's ``__init__`` (the
same object, its slots written directly: :func:`~copa_ref.core.entry.slot_builder`)."""


def num_players(config: Config) -> int:
    """How many seats *config* has (HOPPER-1).

    :raises MalformedInputError: for a value that is not a HOPPER config.
    """
    check_instance(config, Config, "a HOPPER config")
    return config.players


def beans_in_play(config: Config) -> int:
    """HOPPER-3: the beans dealt, plus the remainder when it lies loose; the box keeps the
    remainder otherwise."""
    if config.remainder is Remainder.BOX:
        return config.total_beans - config.total_beans % config.players
    return config.total_beans


def deal(config: Config) -> tuple[tuple[int, ...], int]:
    """HOPPER-3: the hands and the loose beans at the start: ``total_beans // players`` each,
    the remainder in the box, loose, or one each to the first seats.

    :pre: 2 <= config.players <= 5 and 0 <= config.total_beans <= 1000
    :post: sum(__return__[0]) + __return__[1] == beans_in_play(config)
    :post: max(__return__[0]) - min(__return__[0]) <= 1
    """
    players = config.players
    share, rest = divmod(config.total_beans, players)
    if config.remainder is Remainder.FIRST_SEATS:
        return tuple(share + (1 if s < rest else 0) for s in range(players)), 0
    loose = rest if config.remainder is Remainder.LOOSE else 0
    return (share,) * players, loose


def _is_probability(value: object) -> bool:
    return type(value) is Fraction and 0 <= value <= 1


def check_config(config: object) -> None:
    """Refuse a config that is not shaped right, or that no game can be played under.

    :raises MalformedInputError: for a field of the wrong type.
    :raises InvalidStateError: HOPPER-1 (players), HOPPER-3 (too few beans), HOPPER-4 (first
        player), HOPPER-6 (a shot model that is no distribution).
    """
    if not isinstance(config, Config):
        msg = f"expected a HOPPER Config, got {type(config).__name__}"
        raise MalformedInputError(msg)
    for name in ("players", "total_beans", "first_player"):
        check_int(getattr(config, name), name)
    for name, kind in (("remainder", Remainder), ("ending", Ending)):
        if not isinstance(getattr(config, name), kind):
            msg = f"{name} must be a {kind.__name__}, got {excerpt(getattr(config, name))}"
            raise MalformedInputError(msg)
    if type(config.aiming) is not bool:
        msg = f"aiming must be true or false, got {excerpt(config.aiming)}"
        raise MalformedInputError(msg)
    model = config.shot_model
    if not isinstance(model, AimedShot | SeatAccuracy) or (
            isinstance(model, SeatAccuracy) and type(model.accuracy) is not tuple):
        msg = f"shot_model must be a HOPPER shot model, got {excerpt(model)}"
        raise MalformedInputError(msg)
    values = (model.outside, model.aimed) if isinstance(model, AimedShot) else model.accuracy
    if not all(type(v) is Fraction for v in values):
        msg = f"a shot model's probabilities are fractions, got {excerpt(model)}"
        raise MalformedInputError(msg)
    if not all(abs(v.numerator) <= MAX_TERM and v.denominator <= MAX_TERM for v in values):
        msg = f"a shot model's probabilities have terms of at most {MAX_TERM}"
        raise MalformedInputError(msg)
    # HOPPER-1: two to five players.
    if not MIN_PLAYERS <= config.players <= MAX_PLAYERS:
        msg = f"HOPPER is for 2-5 players, not {config.players}"
        raise InvalidStateError("HOPPER-1", msg)
    # HOPPER-3: enough beans that play can never stall, and "about 80" at most a thousand.
    if config.total_beans < 0 or beans_in_play(config) < MIN_BEANS_IN_PLAY:
        msg = (f"{config.total_beans} beans leave {beans_in_play(config)} in play; at least "
               f"{MIN_BEANS_IN_PLAY} are needed")
        raise InvalidStateError("HOPPER-3", msg)
    if config.total_beans > MAX_BEANS:
        msg = f"{config.total_beans} beans in the box; at most {MAX_BEANS}"
        raise InvalidStateError("HOPPER-3", msg)
    # HOPPER-4: the first player is a seat.
    if not 0 <= config.first_player < config.players:
        msg = f"first_player {config.first_player} is no seat of {config.players}"
        raise InvalidStateError("HOPPER-4", msg)
    check_shot_model(config)


def check_shot_model(config: Config) -> None:
    """HOPPER-6: the shot model is a distribution over the landings: an aimed shot's
    ``outside`` and ``aimed`` are probabilities adding to at most 1, a seat accuracy model
    has one probability per seat. Either model is data any engine can read.

    :raises InvalidStateError: HOPPER-6.
    """
    model = config.shot_model
    if isinstance(model, AimedShot):
        if not (_is_probability(model.outside) and _is_probability(model.aimed)
                and model.outside + model.aimed <= 1):
            msg = f"outside {model.outside} and aimed {model.aimed} are not probabilities"
            raise InvalidStateError("HOPPER-6", msg)
    elif len(model.accuracy) != config.players or not all(
            _is_probability(a) for a in model.accuracy):
        msg = f"accuracy needs one probability per seat, got {excerpt(model.accuracy)}"
        raise InvalidStateError("HOPPER-6", msg)


@seam
def first_turn(config: Config) -> int:
    """HOPPER-4: the nominated first player (``Config.first_player``) shoots first."""
    return config.first_player


@seam
def initial_tray(config: Config) -> tuple[TrayCup, ...]:
    """HOPPER-2: the 16 neutral cups in the tray, empty; the black cup aside."""
    return tuple((cup, 0) for cup in range(NEUTRAL_CUPS))


def new_game(config: Config | None = None) -> State:
    """The position before the first shot (HOPPER-1 … HOPPER-4).

    :raises InvalidStateError: naming the rule a config breaks (see :func:`check_config`).
    :raises MalformedInputError: for a config that is not shaped right.
    """
    config = Config() if config is None else config
    check_config(config)
    hands, loose = deal(config)
    tray = initial_tray(config)
    first = first_turn(config)
    # HOPPER-11: a first player with no beans (none loose) would be skipped.
    if not can_shoot(hands, loose, first):  # pragma: no cover - 49+ beans
        first = next_turn(hands, loose, first)
    state = _state(config=config, hands=hands, tray=tray, loose=loose, claims=(),
                   phase=Phase.AIM, turn=first, aim=None)
    return _CHECKS.built(_settle(state))


# --------------------------------------------------------------------------------------
# Who shoots, and at what


def shoot_out(state: State) -> bool:
    """HOPPER-15: under End 2, from the moment the black cup has joined, everybody shoots."""
    return state.config.ending is _END_2 and len(state.tray) + len(
        state.claims) > NEUTRAL_CUPS


def can_shoot(hands: tuple[int, ...], loose: int, seat: int) -> bool:
    """HOPPER-10, HOPPER-11: a seat may shoot when it holds beans or beans are loose.

    :pre: 0 <= seat < len(hands)
    :post: __return__ == (hands[seat] > 0 or loose > 0)
    """
    return hands[seat] > 0 or loose > 0


def next_turn(hands: tuple[int, ...], loose: int, seat: int) -> int:
    """HOPPER-4, HOPPER-11: the next seat clockwise that may shoot (skipping every seat
    with no beans while none are loose); *seat* itself when nobody else may.

    :pre: 2 <= len(hands) <= 5 and 0 <= seat < len(hands) and all(h >= 0 for h in hands)
    :post: 0 <= __return__ < len(hands)
    :post: implies(any(h > 0 for h in hands) or loose > 0, can_shoot(hands, loose, __return__))
    """
    n = len(hands)
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if can_shoot(hands, loose, candidate):
            return candidate
    return seat


def shooters(state: State) -> tuple[int, ...]:
    """The seats that may shoot at an aim node: the seat whose turn it is, or in the
    shoot-out every seat that may shoot (HOPPER-4, HOPPER-15)."""
    if state.phase is not _AIM:
        return ()
    if state.turn is not None:
        return (state.turn,)
    return tuple(s for s in range(len(state.hands))
                 if can_shoot(state.hands, state.loose, s))


def aim_targets(state: State) -> tuple[int | None, ...]:
    """HOPPER-5: the cups a shot may be aimed at: every cup in the tray (``None`` alone
    when aiming is off)."""
    if not state.config.aiming:
        return (None,)
    return tuple(map(_first, state.tray))


def aim_chosen(state: State) -> bool:
    """HOPPER-5: whether the shooter chooses an aim: aiming is on and the tray does not hold
    a single cup. Otherwise a shot is pure chance (aiming off) or its one aim is taken
    (P-3), and a seat that alone may shoot makes no decision: its shot starts by itself."""
    return state.config.aiming and len(state.tray) != 1


def _text_key(aim: int | None) -> str:
    """Sorting by this key sorts shots by their canonical JSON text, ``{"aim":A,"seat":S,…}``
    (cup 10 before cup 2: the text compares ``"10,"`` with ``"2,"``)."""
    return f"{'null' if aim is None else aim},"


_PREBUILT = {(s, a): Shoot(s, a) for s in range(MAX_PLAYERS) for a in (None, *range(BLACK + 1))}


@functools.lru_cache(maxsize=8192)
def _shots(seats: tuple[int, ...], aims: tuple[int | None, ...]) -> tuple[Shoot, ...]:
    ordered = sorted(aims, key=_text_key)
    return tuple(_PREBUILT[(s, a)] for a in ordered for s in seats)


def to_move(state: State) -> ToMove:
    """Who acts: the seat whose turn it is, any seat that may shoot (the shoot-out), chance
    while a bean is in the air, or nobody once the game is over.

    :raises MalformedInputError: for a value that is not a HOPPER state.
    """
    _check_state(state)
    return _to_move(state)


def _to_move(state: State) -> ToMove:
    """:func:`to_move` without the entry check (:attr:`~copa_ref.core.game.Game.trusted`)."""
    phase = state.phase
    if phase is _LAND:
        return CHANCE
    if phase is _OVER:
        return NOBODY
    if state.turn is not None:
        return _SEATS[state.turn]
    return _any_of(shooters(state))


@functools.lru_cache(maxsize=64)
def _any_of(seats: tuple[int, ...]) -> ToMove:
    return ToMove.any_of(seats)


def legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """The legal shots, sorted by canonical JSON; those of *seat* alone when given; empty
    at chance and terminal nodes.

    :raises MalformedInputError: for a value that is not a HOPPER state, or a seat that is
        neither ``None`` nor one of its seats.
    """
    _check_state(state, seat)
    return _legal_actions(state, seat)


def _legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """:func:`legal_actions` without the entry check (:attr:`~copa_ref.core.game.Game.trusted`)."""
    if state.phase is not _AIM:
        return ()
    seats = shooters(state)
    if seat is not None:
        if seat not in seats:
            return ()
        seats = (seat,)
    return _shots(seats, aim_targets(state))


def is_legal(state: State, action: Action) -> bool:
    """Whether :func:`apply` accepts *action*; never raises."""
    try:
        apply(state, action)
    except (RuleViolation, MalformedInputError):
        return False
    return True


def action_space(config: Config) -> tuple[Action, ...]:
    """Every shot that can ever be legal under *config*, sorted by canonical JSON text: a
    shot by every seat at every cup that can be in the tray (the black cup under End 2), or
    unaimed shots when aiming is off. Landings are chance actions (:func:`chance_outcomes`)."""
    seats = tuple(range(config.players))
    if not config.aiming:
        return _shots(seats, (None,))
    cups = NEUTRAL_CUPS + (1 if config.ending is _END_2 else 0)
    return _shots(seats, tuple(range(cups)))


# --------------------------------------------------------------------------------------
# A shot, each piece one rule


def replenish(hand: int, loose: int) -> tuple[int, int]:
    """HOPPER-10: a shooter with no beans first takes all the loose beans.

    :pre: hand >= 0 and loose >= 0
    :post: __return__[0] + __return__[1] == hand + loose
    :post: __return__ == ((loose, 0) if hand == 0 else (hand, loose))
    """
    if hand == 0:
        return loose, 0
    return hand, loose


@seam
def is_foursome(beans: int) -> bool:
    """HOPPER-8: a bean into a cup holding 3 makes a foursome.

    :post: __return__ == (beans == 3)
    """
    return beans == CUP_BEANS


def drop_bean(tray: tuple[TrayCup, ...], cup: int | None, loose: int
              ) -> tuple[tuple[TrayCup, ...], int, bool]:
    """HOPPER-7, HOPPER-8: where the bean goes: into the cup it lands in, or loose; a
    foursome empties the cup into the loose beans. Returns the tray, the loose beans and
    whether the cup is claimed (a claimed cup is still in the returned tray, emptied).

    :pre: len(tray) <= 17 and all(0 <= b <= 3 for _, b in tray) and loose >= 0
    :post: sum(b for _, b in __return__[0]) + __return__[1] == sum(b for _, b in tray) + loose + 1
    :post: all(0 <= b <= 3 for _, b in __return__[0])
    """
    if cup is None:
        return tray, loose + 1, False
    cups = list(tray)
    for i, (name, beans) in enumerate(cups):
        if name == cup:
            if is_foursome(beans):
                cups[i] = (name, 0)
                return tuple(cups), loose + beans + 1, True
            cups[i] = (name, beans + 1)
            return tuple(cups), loose, False
    return tray, loose + 1, False  # not in the tray: refused by apply before (HOPPER-6)


def close_up(tray: tuple[TrayCup, ...], cup: int) -> tuple[TrayCup, ...]:
    """HOPPER-9: the claimed cup leaves the tray; the others keep their beans and order.

    :pre: len(tray) <= 17
    :post: len(__return__) == len(tray) - sum(1 for c, _ in tray if c == cup)
    :post: all(c != cup for c, _ in __return__)
    """
    return tuple(pair for pair in tray if pair[0] != cup)


def black_joins(config: Config, tray: tuple[TrayCup, ...], claims: tuple[Claim, ...]
                ) -> tuple[TrayCup, ...]:
    """HOPPER-14: under End 2, when a claim leaves 3 cups in the tray, the black cup joins
    them, empty, at the end of the tray; under End 1 never."""
    if (config.ending is _END_2 and len(tray) == BLACK_JOINS_AT
            and len(tray) + len(claims) == NEUTRAL_CUPS):
        return (*tray, (BLACK, 0))
    return tray


def winner_end_1(claims: tuple[Claim, ...]) -> int | None:
    """HOPPER-12: the seat that has claimed 4 cups (the first to do so), else ``None``."""
    counts: dict[int, int] = {}
    for seat, _ in claims:
        counts[seat] = counts.get(seat, 0) + 1
        if counts[seat] == CUPS_TO_WIN:
            return seat
    return None


def game_over(state: State) -> bool:
    """HOPPER-12, HOPPER-13: End 1 is over once a seat has 4 cups; End 2 once the tray is
    empty."""
    if state.config.ending is _END_1:
        return winner_end_1(state.claims) is not None
    return not state.tray


def _start_shot(state: State, seat: int, aim: int | None) -> State:
    """The shot begins: replenishing first (HOPPER-10), then the bean is in the air."""
    hands = state.hands
    hand, loose = replenish(hands[seat], state.loose)
    if hand != hands[seat]:
        hands = (*hands[:seat], hand, *hands[seat + 1:])
    return _state(state.config, hands, state.tray, loose, state.claims, _LAND, seat, aim)


def _settle(state: State) -> State:
    """P-3: an aim node with a single option is no decision; its shot starts by itself."""
    if state.phase is _AIM:
        seats = (state.turn,) if state.turn is not None else shooters(state)
        if len(seats) == 1 and not aim_chosen(state):
            return _start_shot(state, seats[0], aim_targets(state)[0])
    return state


def _shooter(state: State) -> int:
    """HOPPER-10: the seat whose bean is in the air (it was shot from that seat's hand)."""
    if state.turn is None:
        raise InvalidStateError("HOPPER-10", "a bean in the air from no seat")
    return state.turn


def _land(state: State, cup: int | None) -> State:
    """Resolve the shot: the bean leaves the hand and lands (HOPPER-7, HOPPER-8); a claimed
    cup leaves the tray (HOPPER-9) and the black cup may join (HOPPER-14); then the end
    (HOPPER-12, HOPPER-13), or the next shot (HOPPER-4, HOPPER-11, HOPPER-15)."""
    seat = _shooter(state)
    config = state.config
    hands = state.hands
    hands = (*hands[:seat], hands[seat] - 1, *hands[seat + 1:])
    tray, loose, claimed = drop_bean(state.tray, cup, state.loose)
    claims = state.claims
    if claimed and cup is not None:
        claims = (*claims, (seat, cup))
        tray = black_joins(config, close_up(tray, cup), claims)
    # One state for the next shot in turn play; the end, the shoot-out and a shot that
    # starts by itself (P-3) change it once more.
    after = _state(config, hands, tray, loose, claims, _AIM, next_turn(hands, loose, seat),
                   None)
    if claimed and game_over(after):
        return _state(config, hands, tray, loose, claims, _OVER, None, None)
    if shoot_out(after):
        after = _state(config, hands, tray, loose, claims, _AIM, None, None)
    return _settle(after)


# --------------------------------------------------------------------------------------
# Applying an action


def _end_rule(state: State) -> str:
    return "HOPPER-12" if state.config.ending is _END_1 else "HOPPER-13"


def apply(state: State, action: Action) -> State:
    """The state after *action*; the given state is never changed.

    :raises IllegalActionError: naming the rule the action breaks, in the refusal order of
        ``specs/hopper.md`` (HOPPER-12/13 after the end, HOPPER-5 out of order or a bad aim,
        HOPPER-1 no such seat, HOPPER-4 out of turn, HOPPER-11 no beans in the shoot-out,
        HOPPER-6 a landing in no cup of the tray).
    :raises MalformedInputError: for an object that is not a HOPPER action, or a field of
        the wrong type.
    """
    _check_state(state)
    _check_action(action)
    return _CHECKS.built(_apply(state, action))


def _apply(state: State, action: Action) -> State:
    """:func:`apply` without the entry checks: for a state and an action whose types are
    known to be right (the rules' own, or checked by :func:`apply`)."""
    if type(action) is Land:
        return _apply_land(state, action)
    return _apply_shoot(state, cast(Shoot, action))


# The input checks of the entry points: a HOPPER state, a seat, an action of exact types.


def _check_state(state: object, seat: object = None) -> None:
    """*state* passes the whole :func:`check_state` (its shape, then every rule), checked
    once per state object and marked, or carries the mark of this module's checks
    (:mod:`copa_ref.core.entry`), and *seat* is ``None`` or a seat at its table: the first
    line of every entry point.

    :raises MalformedInputError: not a HOPPER state, a field not shaped right, or a seat not
        at the table.
    :raises InvalidStateError: naming the first rule the state breaks.
    """
    if type(state) is not State or getattr(state, CHECKED, None) is not _KEY:
        _CHECKS.enter(state)  # a state this module's checks have not marked: check it
    if seat is not None:
        check_position(state, State, "a HOPPER state", seat, _seats)


def _seats(state: State) -> int:
    return len(state.hands)


def _check_action(action: object) -> None:
    """*action* is a HOPPER action whose fields have exactly their types (``True`` is not a
    seat, ``3.0`` is not a cup).

    :raises MalformedInputError: otherwise.
    """
    check_instance(action, (Shoot, Land), "a HOPPER action")
    if type(action) is Shoot:
        check_int(action.seat, "seat")
        if action.aim is not None:
            check_int(action.aim, "aim")
    elif cast(Land, action).cup is not None:
        check_int(cast(Land, action).cup, "cup")


def _refuse_ended(state: State) -> None:
    if state.phase is _OVER:
        result = outcome(state)
        winners = [] if result is None else list(result.winners)
        msg = f"the game is over; won by seat(s) {winners}"
        raise IllegalActionError(_end_rule(state), msg)


def _in_tray(tray: tuple[TrayCup, ...], cup: int) -> bool:
    """Whether the cup named *cup* is in *tray* (HOPPER-5, HOPPER-6)."""
    for name, _ in tray:  # noqa: SIM110 - a loop is faster than any() over a generator
        if name == cup:
            return True
    return False


def check_phase(state: State, action: Action) -> None:
    """HOPPER-5: a shot is aimed while no bean is in the air; a bean lands only after one.

    :raises IllegalActionError: HOPPER-5.
    """
    if type(action) is Shoot and state.phase is _LAND:
        msg = f"seat {state.turn}'s bean is in the air; it lands before the next shot"
        raise IllegalActionError("HOPPER-5", msg)
    if type(action) is Land and state.phase is not _LAND:
        msg = "no bean is in the air: a shot comes first"
        raise IllegalActionError("HOPPER-5", msg)


def check_seat(state: State, seat: int) -> None:
    """HOPPER-1: the seats are ``0 .. n-1``.

    :raises IllegalActionError: HOPPER-1.
    """
    if not 0 <= seat < len(state.hands):
        msg = f"there is no seat {seat} among {len(state.hands)} players"
        raise IllegalActionError("HOPPER-1", msg)


def check_turn(state: State, seat: int) -> None:
    """HOPPER-4 in turn play: only the seat whose turn it is shoots; HOPPER-11 in the
    shoot-out: a seat with no beans while none are loose cannot.

    :raises IllegalActionError: HOPPER-4 or HOPPER-11.
    """
    if state.turn is not None:
        if seat != state.turn:
            msg = f"seat {seat} shot, but it is seat {state.turn}'s turn"
            raise IllegalActionError("HOPPER-4", msg)
    elif not can_shoot(state.hands, state.loose, seat):
        msg = f"seat {seat} holds no beans and none are loose"
        raise IllegalActionError("HOPPER-11", msg)


def check_aim(state: State, aim: int | None) -> None:
    """HOPPER-5: a shot is aimed at a cup in the tray; with aiming off it names no cup.

    :raises IllegalActionError: HOPPER-5.
    """
    if not state.config.aiming:
        if aim is not None:
            msg = f"aiming is off; a shot names no cup, got aim {aim}"
            raise IllegalActionError("HOPPER-5", msg)
    elif aim is None:
        msg = "a shot is aimed at a cup in the tray; no aim given"
        raise IllegalActionError("HOPPER-5", msg)
    elif not _in_tray(state.tray, aim):
        msg = f"cup {aim} is not in the tray {[c for c, _ in state.tray]}"
        raise IllegalActionError("HOPPER-5", msg)


def check_landing(state: State, cup: int | None) -> None:
    """HOPPER-6: a bean lands in a cup in the tray, or outside the cups.

    :raises IllegalActionError: HOPPER-6.
    """
    if cup is not None and not _in_tray(state.tray, cup):
        msg = f"cup {cup} is not in the tray {[c for c, _ in state.tray]}"
        raise IllegalActionError("HOPPER-6", msg)


def _apply_shoot(state: State, action: Shoot) -> State:
    seat, aim = action.seat, action.aim
    _refuse_ended(state)
    check_phase(state, action)
    check_seat(state, seat)
    check_turn(state, seat)
    check_aim(state, aim)
    return _start_shot(state, seat, aim)


def _apply_land(state: State, action: Land) -> State:
    cup = action.cup
    _refuse_ended(state)
    check_phase(state, action)
    check_landing(state, cup)
    return _land(state, cup)


# --------------------------------------------------------------------------------------
# Chance: the shot model (never called by the rules)


@functools.lru_cache(maxsize=4096)
def landing_probabilities(model: ShotModel, seat: int, cups: int, aimed: bool
                          ) -> tuple[Fraction, Fraction, Fraction]:
    """HOPPER-6: ``(outside, the aimed cup, each other cup)`` for a shot by *seat* at a tray
    of *cups* cups (``aimed`` false: no aimed cup, every cup is an "other" one).

    :pre: cups >= 1
    """
    if isinstance(model, AimedShot):
        outside = model.outside
        if not aimed:
            return outside, Fraction(0), (1 - outside) / cups
        if cups == 1:
            return outside, 1 - outside, Fraction(0)
        return outside, model.aimed, (1 - outside - model.aimed) / (cups - 1)
    accuracy = model.accuracy[seat]
    if not aimed:
        return 1 - accuracy, Fraction(0), accuracy / cups
    return 1 - accuracy, accuracy, Fraction(0)


def chance_outcomes(state: State) -> tuple[tuple[Action, Fraction], ...]:
    """HOPPER-6: every landing with a positive probability under the shot model, with its
    exact probability (they sum to 1), sorted by canonical JSON; empty at decision nodes.

    :raises MalformedInputError: for a value that is not a HOPPER state.
    """
    _check_state(state)
    if state.phase is not _LAND:
        return ()
    seat = _shooter(state)
    aim = state.aim
    outside, aimed, other = landing_probabilities(
        state.config.shot_model, seat, len(state.tray), aim is not None)
    pairs: list[tuple[int | None, Fraction]] = [(None, outside)]
    for cup, _ in state.tray:
        pairs.append((cup, aimed if cup == aim else other))
    found = [(Land(cup), p) for cup, p in pairs if p > 0]
    return tuple(sorted(found, key=lambda pair: _land_text(pair[0].cup)))


def _land_text(cup: int | None) -> str:
    return '{"cup":null,"type":"land"}' if cup is None else f'{{"cup":{cup},"type":"land"}}'


@functools.lru_cache(maxsize=4096)
def _weights(model: ShotModel, seat: int, cups: int, aimed: bool) -> tuple[int, int, int, int]:
    """The probabilities of :func:`landing_probabilities` as integers over one denominator."""
    probabilities = landing_probabilities(model, seat, cups, aimed)
    denominator = math.lcm(*(p.denominator for p in probabilities))
    outside, aim, other = (p.numerator * (denominator // p.denominator) for p in probabilities)
    return denominator, outside, aim, other


_LANDINGS = {cup: Land(cup) for cup in (None, *range(BLACK + 1))}
"""The landings outside and in each of the 17 cups, prebuilt (a cup of another name, in a
state set up by hand, gets a new one)."""


def sample_chance(state: State, rng: random.Random) -> Land:
    """Draw where the bean in the air lands, exactly under the shot model (HOPPER-6).

    :raises IllegalActionError: HOPPER-5 when no bean is in the air (a ``ValueError``),
        HOPPER-12 or HOPPER-13 once the game is over.
    :raises MalformedInputError: for a value that is not a HOPPER state.
    """
    _check_state(state)
    check_rng(rng)
    _refuse_ended(state)
    if state.phase is not _LAND or state.turn is None:
        msg = "no bean is in the air: a shot comes first"
        raise IllegalActionError("HOPPER-5", msg)
    aim = state.aim
    total, outside, aimed, other = _weights(state.config.shot_model, state.turn,
                                            len(state.tray), aim is not None)
    draw = rng.randrange(total)
    if draw < outside:
        return _LANDINGS[None]
    draw -= outside
    if aim is not None:
        if draw < aimed:
            return _LANDINGS.get(aim) or Land(aim)
        draw -= aimed
    index = draw // other
    for cup, _ in state.tray:
        if cup != aim:
            if index == 0:
                return _LANDINGS.get(cup) or Land(cup)
            index -= 1
    msg = "the shot model's weights do not add up"  # pragma: no cover - sums to 1
    raise AssertionError(msg)


# --------------------------------------------------------------------------------------
# The end


def cup_value(cup: int) -> int:
    """HOPPER-16: a neutral cup counts 1 point, the black cup 2.

    :post: __return__ == (2 if cup == 16 else 1)
    """
    return 2 if cup == BLACK else 1


def points(claims: tuple[Claim, ...], players: int, finished: bool) -> tuple[int, ...]:
    """HOPPER-16: each seat's points: its cups' values, the last cup counting 3 once the
    tray is empty (*finished*).

    :pre: 2 <= players <= 5 and len(claims) <= 17
    :pre: all(0 <= s < players and 0 <= c <= 16 for s, c in claims)
    :post: len(__return__) == players
    :post: implies(finished and len(claims) > 0, sum(__return__) == sum(cup_value(c) for _, c in claims) - cup_value(claims[-1][1]) + 3)
    """  # noqa: E501 - a contract is one line
    scores = [0] * players
    last = len(claims) - 1
    for i, (seat, cup) in enumerate(claims):
        scores[seat] += 3 if finished and i == last else cup_value(cup)
    return tuple(scores)


def outcome(state: State) -> Outcome | None:
    """HOPPER-12 (End 1: the first to 4 cups), HOPPER-17 (End 2: the most points, a tie
    shared); ``None`` while the game goes on.

    :raises MalformedInputError: for a value that is not a HOPPER state.
    """
    _check_state(state)
    if state.phase is not Phase.OVER:
        return None
    players = len(state.hands)
    if state.config.ending is Ending.END_1:
        cups = [0] * players
        for seat, _ in state.claims:
            cups[seat] += 1
        winner = winner_end_1(state.claims)
        if winner is None:
            # HOPPER-12: End 1 is over only once a seat has claimed 4 cups.
            raise InvalidStateError("HOPPER-12", "the game is over, but no seat has 4 cups")
        return Outcome(winners=(Seat(winner),), scores=tuple(cups), rule="HOPPER-12")
    scores = points(state.claims, players, True)
    best = max(scores)
    winners = tuple(Seat(s) for s in range(players) if scores[s] == best)
    return Outcome(winners=winners, scores=scores, rule="HOPPER-17")


def observe(state: State, seat: int | None = None) -> State:
    """HOPPER-18: every bean is in sight; every seat and a spectator see the whole state.

    :raises MalformedInputError: for a value that is not a HOPPER state, or a seat that is
        neither ``None`` nor one of its seats.
    """
    _check_state(state, seat)
    return state


# --------------------------------------------------------------------------------------
# Checking a state


def total_beans(state: State) -> int:
    """HOPPER-19: the beans in play: hands + the tray's cups + loose beans."""
    return sum(state.hands) + sum(beans for _, beans in state.tray) + state.loose


def _is_int(value: object) -> bool:
    """An integer within the codec's bound (``True`` is not one)."""
    return type(value) is int and -MAX_INT <= value <= MAX_INT


def _is_pair(value: object) -> bool:
    return type(value) is tuple and len(value) == 2 and _is_int(value[0]) and _is_int(value[1])


def _shape_error(state: State) -> str | None:
    """What is wrong with the types and shape of *state* (a ``MalformedInputError``), or
    ``None``: every field of exactly its type, integers within the codec's bound, one hand
    per seat, at most the 17 cups in the tray and claimed, the seat to shoot or in the air
    ``None`` or a seat. The config is checked already."""
    players = state.config.players
    hands = state.hands
    if not (type(hands) is tuple and len(hands) == players and all([_is_int(h) for h in hands])):
        return f"hands must be one integer per seat ({players})"
    for name in ("tray", "claims"):
        value = getattr(state, name)
        if not (type(value) is tuple and len(value) <= BLACK + 1
                and all([_is_pair(p) for p in value])):
            return f"{name} must be a list of at most {BLACK + 1} [integer, integer] pairs"
    if not (_is_int(state.loose) and type(state.phase) is Phase):
        return "loose or phase has the wrong type"
    turn, aim = state.turn, state.aim
    if not (turn is None or (_is_int(turn) and 0 <= turn < players)):
        return f"turn must be null or a seat (0 to {players - 1})"
    if not (aim is None or _is_int(aim)):
        return "aim must be null or an integer"
    return None


def _shape(state: State) -> None:
    """The shape of a HOPPER state: a playable config, then :func:`_shape_error`.

    :raises MalformedInputError: naming the first field not shaped right.
    :raises InvalidStateError: naming the rule a config breaks (see :func:`check_config`).
    """
    check_config(state.config)
    shape = _shape_error(state)
    if shape is not None:
        msg = f"malformed HOPPER state: {shape}"
        raise MalformedInputError(msg)


def _cups(state: State) -> list[int]:
    return [cup for cup, _ in state.tray] + [cup for _, cup in state.claims]


@rule("HOPPER-2")
def _every_cup_once(state: State) -> str | None:
    # HOPPER-2: the 16 neutral cups, each in the tray or claimed, once; the black cup (16)
    # at most once.
    cups = _cups(state)
    for cup in cups:
        if not 0 <= cup <= BLACK:
            return f"cup {cup} is no cup (0 to {BLACK})"
        if cups.count(cup) > 1:
            return f"cup {cup} is in two places"
    if len(cups) - (BLACK in cups) != NEUTRAL_CUPS:
        return f"cup {min(set(range(NEUTRAL_CUPS)) - set(cups))} is neither in the tray nor claimed"
    return None


@rule("HOPPER-3")
def _beans_dealt(state: State) -> str | None:
    # HOPPER-3: the beans in play are the beans dealt.
    if total_beans(state) != beans_in_play(state.config):
        return f"{total_beans(state)} beans in play, not {beans_in_play(state.config)}"
    return None


@rule("HOPPER-4")
def _turn_play(state: State) -> str | None:
    # HOPPER-4: in turn play, a seat's turn to shoot.
    if state.phase is Phase.AIM and not shoot_out(state) and state.turn is None:
        return "turn play without a seat to shoot"
    return None


@rule("HOPPER-5")
def _aim(state: State) -> str | None:
    # HOPPER-5: a bean in the air has the aim of its shot (a cup in the tray, or none with
    # aiming off); no aim while no bean is in the air; a shot with a single option is never
    # a decision (P-3: it starts by itself).
    aim, aiming = state.aim, state.config.aiming
    if state.phase is Phase.LAND:
        if aiming and aim not in [cup for cup, _ in state.tray]:
            return f"the bean in the air is aimed at {aim}, not a cup in the tray"
        if not aiming and aim is not None:
            return "aiming is off, but the bean in the air has an aim"
    elif aim is not None:
        return "no bean is in the air, but an aim is recorded"
    if state.phase is Phase.AIM:
        seats = (state.turn,) if state.turn is not None else shooters(state)
        if len(seats) == 1 and not aim_chosen(state):
            return "a shot with a single option is never a decision"
    return None


@rule("HOPPER-8")
def _cup_beans(state: State) -> str | None:
    # HOPPER-8: a cup in the tray holds 0 to 3 beans; a claimed cup is a seat's.
    if any(not 0 <= beans <= CUP_BEANS for _, beans in state.tray):
        return f"a cup in the tray holds more than {CUP_BEANS} beans"
    if any(not 0 <= seat < state.config.players for seat, _ in state.claims):
        return "a cup is claimed by no seat"
    return None


@rule("HOPPER-9")
def _tray_order(state: State) -> str | None:
    # HOPPER-9: the tray keeps its order.
    in_tray = [cup for cup, _ in state.tray]
    return "the tray is out of its order" if in_tray != sorted(in_tray) else None


@rule("HOPPER-10")
def _bean_in_the_air(state: State) -> str | None:
    # HOPPER-10: a bean in the air comes from the hand of the seat that shot it.
    turn = state.turn
    if state.phase is Phase.LAND and (turn is None or state.hands[turn] < 1):
        return f"a bean in the air from seat {turn}, holding none"
    return None


@rule("HOPPER-11")
def _may_shoot(state: State) -> str | None:
    # HOPPER-11: the seat whose turn it is may shoot (it holds beans, or beans are loose).
    turn = state.turn
    if state.phase is Phase.AIM and turn is not None and not can_shoot(
            state.hands, state.loose, turn):
        return f"seat {turn} is to shoot with no beans and none loose"
    return None


@rule("HOPPER-12")
def _end_1(state: State) -> str | None:
    # HOPPER-12: End 1 is over exactly when the last claim gave a seat its 4th cup.
    if state.config.ending is not Ending.END_1:
        return None
    counts = [0] * state.config.players
    for seat, _ in state.claims:
        counts[seat] += 1
    most, over = max(counts), state.phase is Phase.OVER
    if most > CUPS_TO_WIN or (most == CUPS_TO_WIN and (
            counts[state.claims[-1][0]] != CUPS_TO_WIN or counts.count(CUPS_TO_WIN) > 1)):
        return f"cups claimed {counts}"
    if over != (most == CUPS_TO_WIN):
        return f"phase {state.phase.value} with cups claimed {counts}"
    if over and state.turn is not None:
        return "a finished game has no turn"
    return None


@rule("HOPPER-13")
def _end_2(state: State) -> str | None:
    # HOPPER-13: End 2 is over exactly when the tray is empty.
    if state.config.ending is not Ending.END_2:
        return None
    over = state.phase is Phase.OVER
    if over != (not state.tray):
        return f"phase {state.phase.value} with {len(state.tray)} cups in the tray"
    if over and state.turn is not None:
        return "a finished game has no turn"
    return None


@rule("HOPPER-14")
def _black_cup(state: State) -> str | None:
    # HOPPER-14: under End 2 the black cup joins exactly when 3 neutral cups are left.
    in_tray = [cup for cup, _ in state.tray]
    joined = BLACK in _cups(state)
    neutral_left = len(in_tray) - (BLACK in in_tray)
    if joined != (state.config.ending is Ending.END_2 and neutral_left <= BLACK_JOINS_AT):
        return (f"black cup {'in play' if joined else 'aside'} with {neutral_left} neutral "
                "cups in the tray")
    return None


@rule("HOPPER-15")
def _no_turns_in_the_shoot_out(state: State) -> str | None:
    # HOPPER-15: no turns in the shoot-out's aim phase: any seat that may shoot does.
    if state.phase is Phase.AIM and shoot_out(state) and state.turn is not None:
        return f"a turn (seat {state.turn}) in the shoot-out"
    return None


@rule("HOPPER-19")
def _counts(state: State) -> str | None:
    # HOPPER-19: no count is negative.
    if min(state.hands) < 0 or state.loose < 0:
        return "a count is negative"
    return None


CHECKS: StateChecks[State] = StateChecks(
    cls=State, what="a HOPPER state", shape=_shape,
    rules=(_every_cup_once, _beans_dealt, _turn_play, _aim, _cup_beans, _tray_order,
           _bean_in_the_air, _may_shoot, _end_1, _end_2, _black_cup,
           _no_turns_in_the_shoot_out, _counts))
"""The checks of a HOPPER state: its shape, then one check per rule in the order of
``specs/hopper.md`` (:class:`~copa_ref.core.entry.StateChecks`)."""

_CHECKS: StateChecks[State] = CHECKS
"""The entry check of every public function: the whole :data:`CHECKS`
(:mod:`copa_ref.core.entry`)."""
_KEY = _CHECKS.key
"""The mark :data:`_CHECKS` writes on a state it checked or the rules built."""


def check_state(state: State) -> None:
    """Raise the precise error if *state* could not arise from legal play.

    :raises MalformedInputError: for a value that is not a HOPPER state, or a field of the
        wrong shape or type (an integer beyond the codec's bound included).
    :raises InvalidStateError: naming the first rule, in spec order, the state (or its
        config) contradicts.
    """
    CHECKS.check(state)


def well_formed(state: State) -> bool:
    """Whether *state* could arise from legal play (pure, total, never raises)."""
    return CHECKS.well_formed(state)
