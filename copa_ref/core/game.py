"""The ``Game`` protocol: the one shape every game of the reference has.

A game is a record of pure functions over immutable values. Nothing in it holds state,
performs I/O or draws random numbers on its own: chance is an explicit action, sampled only
by :attr:`Game.sample_chance` from a random generator the caller passes in.

The record does not check anything itself: every function it holds is the game's public
entry point, which checks its arguments where they enter (:mod:`copa_ref.core.entry`: a
state once per object, with the game's ``check_state``; an action at ``apply``) and hands
them to the rules' inner functions. :attr:`Game.trusted` holds those inner functions, for
the generic loop (:mod:`copa_ref.core.loop`), which calls them only with values the game
produced. :meth:`Game.check_invariants` runs the step invariants of a transition; the state
checks are :attr:`Game.check_state`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any, Generic, TypeVar, get_args

import attrs
import cattrs

from copa_ref.core.codec import JSON, LIMITS, Limits, canonical_json, loads, structure
from copa_ref.core.types import FactSheet, MoverKind, Outcome, Seat, ToMove

__all__ = ["Game", "Policy", "Trusted", "choose", "decision_legal", "next_action", "uniform"]

S = TypeVar("S")
A = TypeVar("A")
C = TypeVar("C")
O = TypeVar("O")  # noqa: E741 - the conventional name of the observation type


@attrs.frozen(kw_only=True)
class Trusted(Generic[S, A]):
    """A game's inner functions: its public entry points without their entry checks.

    Call them only with values the game produced: a state its rules built (``new_game``,
    ``apply``, or a state that entered through a public function), an action its
    ``legal_actions`` returned for that same state. They do no exact-type check and no
    state check; they do check every rule (an action still breaks its rule the same way).
    """

    to_move: Callable[[S], ToMove]
    """Who acts (the game's ``_to_move``)."""
    legal_actions: Callable[[S, Seat | None], tuple[A, ...]]
    """The legal actions (``_legal_actions``)."""
    apply: Callable[[S, A], S]
    """The state after an action (``_apply``)."""
    joint: Callable[[S, tuple[A, ...]], A] | None = None
    """The joint action of the parts, where the game has joint nodes (``_joint``)."""


@attrs.frozen(kw_only=True)
class Game(Generic[S, A, C, O]):
    """One game of the reference, as a record of its pure functions.

    The functions are the game package's own (``copa_ref.<game>.rules``); this record only
    gathers them so that the conformance runner, the command line, the benchmark and the
    generic tests can reach every game the same way.
    """

    name: str
    """The registry name, lower case (``"kala"``, ``"da_capo"``)."""
    title: str
    """The name as the source prints it (``"KALA"``, ``"DA CAPO"``)."""
    prefix: str
    """The rule-ID prefix (``"KALA"``, ``"DACAPO"``)."""
    facts: FactSheet
    """The declared fact sheet."""
    config_type: type[C]
    """The variant options, an attrs class whose default instance is the default reading."""
    state_type: type[S]
    """The state class."""
    action_type: Any
    """The action type: one class, or a union of classes told apart by their JSON tag."""
    observation_type: type[O]
    """What :attr:`observe` returns."""
    converter: cattrs.Converter
    """The game's strict JSON converter (see :mod:`copa_ref.core.codec`)."""

    new_game: Callable[[C], S]
    """The initial state for a config; raises ``InvalidStateError`` for a bad config."""
    num_players: Callable[[C], int]
    """How many seats a config has."""
    to_move: Callable[[S], ToMove]
    """Who acts in a state."""
    legal_actions: Callable[[S, Seat | None], tuple[A, ...]]
    """Sorted legal actions. With ``None``: everything legal at a seat or any-of node (empty at
    chance, joint and terminal nodes). With a seat: that seat's own choices (at a joint node,
    its part of the joint action)."""
    apply: Callable[[S, A], S]
    """The state after an action; raises ``IllegalActionError`` naming the broken rule."""
    outcome: Callable[[S], Outcome | None]
    """The result of a finished game, ``None`` while it goes on."""
    observe: Callable[[S, Seat | None], O]
    """What a seat may know; ``None`` gives the public view (a spectator's)."""
    sample_chance: Callable[[S, random.Random], A]
    """Draw a chance action at a chance node from the caller's generator."""
    well_formed: Callable[[S], bool]
    """Pure and total: whether a state could be produced by legal play (shape and counts)."""
    check_state: Callable[[S], None]
    """Raise the precise ``InvalidStateError``/``MalformedInputError`` for a bad state."""
    step_invariants: tuple[Callable[[S, A, S], None], ...]
    """Checks of one transition ``(before, action, after)``; each raises ``InvariantViolation``."""
    render: Callable[[S], str]
    """A readable text picture of a state."""
    demo: Callable[[int], Iterator[str]]
    """A seeded game between simple players, as lines of text."""
    chance_outcomes: Callable[[S], tuple[tuple[A, Fraction], ...]] | None = None
    """Every chance action with its probability, for games whose chance nodes are small."""
    joint: Callable[[S, tuple[A, ...]], A] | None = None
    """Combine each acting seat's choice (in seat order) into one joint action."""
    svg: Callable[[S, Seat | None], str] | None = None
    """A picture of a state as SVG text (``copa_ref.<game>.svg``); with a seat, only what that
    seat may see. Pure and deterministic, with a ``<title>`` and a ``<desc>`` in words."""
    trusted: Trusted[S, A]
    """The inner functions (:class:`Trusted`), for callers that pass only values the game
    produced (:mod:`copa_ref.core.loop`, the adapters); every state they build is marked
    checked."""
    random_play_ends: bool = True
    """Whether uniformly random play ends every game. ``False`` where a pass is always legal
    and costs points without end (Kopa, KOPA-Q14): generic tests then cut random games short
    instead of waiting for their end."""

    # -- derived helpers, the same for every game ------------------------------------------

    def default_config(self) -> C:
        """The config of the default reading."""
        return self.config_type()

    def is_legal(self, state: S, action: A) -> bool:
        """Whether :attr:`apply` accepts *action* in *state*; never raises, whatever the
        values."""
        try:
            self.apply(state, action)
        except Exception:  # apply raises only RuleViolation or MalformedInputError
            return False
        return True

    def check_invariants(self, before: S, action: A, after: S) -> None:
        """Run every step invariant on a transition (the state checks are
        :attr:`check_state`).

        :raises InvariantViolation: naming the rule an implementation broke.
        """
        for invariant in self.step_invariants:
            invariant(before, action, after)

    def random_action(self, state: S, rng: random.Random) -> A:
        """A uniformly random legal action (chance sampled, joint actions combined; at an
        any-of node, uniform over every seat's actions); see :func:`copa_ref.core.loop.play`."""
        if self.to_move(state).kind is MoverKind.ANY:
            return rng.choice(self.legal_actions(state, None))
        return next_action(self, state, uniform, rng)

    # -- JSON --------------------------------------------------------------------------------

    def to_json(self, value: object) -> JSON:
        """The JSON value of a state, action, config, observation or outcome (an action
        carries its ``"type"`` tag)."""
        if type(value) in (get_args(self.action_type) or (self.action_type,)):
            return self.converter.unstructure(value, unstructure_as=self.action_type)
        return self.converter.unstructure(value)

    def dumps(self, value: object) -> str:
        """The canonical JSON text of a value."""
        return canonical_json(self.to_json(value))

    def action_from_json(self, data: object) -> A:
        """Decode an action; :class:`~copa_ref.core.errors.MalformedInputError` when misshapen."""
        result: A = structure(self.converter, data, self.action_type, f"{self.title} action")
        return result

    def config_from_json(self, data: object) -> C:
        """Decode a config and check it with its rule (through :attr:`new_game`).

        :raises ~copa_ref.core.errors.MalformedInputError: when misshapen.
        :raises ~copa_ref.core.errors.InvalidStateError: naming the rule a value breaks
            (``players: 99``).
        """
        result: C = structure(self.converter, data, self.config_type, f"{self.title} config")
        self.new_game(result)
        return result

    def state_from_json(self, data: object) -> S:
        """Decode a state and check it (:attr:`check_state`)."""
        state: S = structure(self.converter, data, self.state_type, f"{self.title} state")
        self.check_state(state)
        return state

    def loads(self, text: str | bytes, cls: Any, limits: Limits = LIMITS) -> Any:
        """Decode JSON text as *cls*: the text counterpart of :meth:`dumps`.

        The text is read within *limits* (:func:`~copa_ref.core.codec.loads`), then decoded
        as :attr:`action_type`, :attr:`config_type` or :attr:`state_type` through the
        matching ``*_from_json`` (so configs and states are checked), or as any other class
        of the game (:attr:`observation_type`, ``Outcome``) strictly.

        :raises ~copa_ref.core.errors.MalformedInputError: for text or a value not shaped
            right.
        :raises ~copa_ref.core.errors.InvalidStateError: for a config or state that breaks a
            rule.
        """
        data = loads(text, limits, f"{self.title} JSON")
        if cls is self.action_type:
            return self.action_from_json(data)
        if cls is self.config_type:
            return self.config_from_json(data)
        if cls is self.state_type:
            return self.state_from_json(data)
        name = getattr(cls, "__name__", "value")
        return structure(self.converter, data, cls, f"{self.title} {name}")


# -- the next action, for any game (the loop's step; :meth:`Game.random_action`) -----------

Policy = Callable[[S, Seat, tuple[A, ...], random.Random], A]
"""``policy(state, seat, legal, rng) -> action``: one of *legal*, the seat's sorted actions."""

# The kinds of node as module constants: the loop tells them apart at every step, and a
# global name reads faster than an Enum member read from its class.
SEAT, JOINT, ANY, CHANCE, NOBODY = (
    MoverKind.SEAT, MoverKind.JOINT, MoverKind.ANY, MoverKind.CHANCE, MoverKind.NOBODY)


def uniform(state: object, seat: Seat, legal: tuple[A, ...], rng: random.Random) -> A:
    """The uniformly random policy."""
    return rng.choice(legal)


def next_action(game: Game[S, A, Any, Any], state: S, policy: Policy[S, A],
                rng: random.Random) -> A:
    """The next action in *state*: sampled at a chance node, else chosen by *policy* (for
    each acting seat at a joint node; for a seat drawn from *rng* at an any-of node).

    *state* may come from anywhere: it enters through the public ``to_move``.

    :raises ValueError: when the game is over, or a decision node offers no legal action.
    """
    mover = game.to_move(state)
    return choose(game, game.trusted, state, mover, policy, rng)[0]


def _produced(action: object, legal: tuple[Any, ...]) -> bool:
    """Whether *action* is one of the objects in *legal* (by identity: an equal value built
    elsewhere, ``Harvest(0, 1)`` for ``Harvest(0, True)``, is not what the game produced)."""
    for candidate in legal:  # noqa: SIM110 - a loop is faster than any() over a generator
        if candidate is action:
            return True
    return False


def choose(game: Game[S, A, Any, Any], inner: Trusted[S, A], state: S, mover: ToMove,
            policy: Policy[S, A], rng: random.Random) -> tuple[A, bool]:
    """The next action in *state* (a state the game checked or built, *mover* its mover),
    and whether the game produced it (then :attr:`Trusted.apply` may take it)."""
    kind = mover.kind
    if kind is CHANCE:
        return game.sample_chance(state, rng), True
    if kind is SEAT:
        legal = decision_legal(game, inner, state, None)
        action = policy(state, mover.seats[0], legal, rng)
        return action, _produced(action, legal)
    if kind is JOINT:
        if game.joint is None:
            msg = f"{game.title} has a joint node but no Game.joint to combine the parts"
            raise ValueError(msg)
        parts = []
        produced = True
        for seat in mover.seats:
            legal = decision_legal(game, inner, state, seat)
            part = policy(state, seat, legal, rng)
            produced = produced and _produced(part, legal)
            parts.append(part)
        if produced and inner.joint is not None:
            return inner.joint(state, tuple(parts)), True
        return game.joint(state, tuple(parts)), False
    if kind is ANY:
        able = [s for s in mover.seats if inner.legal_actions(state, s)]
        seat = rng.choice(able) if able else mover.seats[0]
        legal = decision_legal(game, inner, state, seat)
        action = policy(state, seat, legal, rng)
        return action, _produced(action, legal)
    msg = "the game is over; nobody acts"
    raise ValueError(msg)


def decision_legal(game: Game[S, A, Any, Any], inner: Trusted[S, A], state: S,
           seat: Seat | None) -> tuple[A, ...]:
    legal = inner.legal_actions(state, seat)
    if not legal:
        who = "the mover" if seat is None else f"seat {seat}"
        msg = f"{game.title}: {who} has no legal action at a decision node"
        raise ValueError(msg)
    return legal
