"""One loop that plays any game of the reference to its end.

Every kind of node is handled the same way for every game: at a chance node the chance
action is sampled (:attr:`~copa_ref.core.game.Game.sample_chance`) from the caller's
generator; at a seat's node the *policy* picks among that seat's legal actions; at a joint
node the policy picks each acting seat's part and :attr:`~copa_ref.core.game.Game.joint`
combines them; at an any-of node a seat with a legal action is drawn from the generator and
the policy picks its action::

    import random
    from copa_ref.core import play, uniform
    from copa_ref.games import get_game

    game = get_game("copas")
    final = play(game, uniform, random.Random(7))
    print(game.outcome(final))

A policy is any function ``policy(state, seat, legal, rng) -> action`` choosing one of the
sorted, non-empty *legal* actions of *seat* in *state*. :func:`steps` yields each transition
as a :class:`Step`, for callers that narrate, count or check the game as it goes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Generic, NamedTuple, TypeVar

from copa_ref.core.entry import CHECKED, mark_checked, write_mark
from copa_ref.core.game import (
    NOBODY,
    SEAT,
    Game,
    Policy,
    choose,
    decision_legal,
    next_action,
    uniform,
)
from copa_ref.core.types import ToMove

__all__ = ["MAX_STEPS", "Policy", "Step", "next_action", "play", "steps", "uniform"]

S = TypeVar("S")
A = TypeVar("A")

MAX_STEPS = 100_000
"""The default cap on the steps of one game (chance actions included): far above the
longest game any registered game allows, a stop for games with no length bound."""


class Step(NamedTuple, Generic[S, A]):
    """One transition of a game played by :func:`steps`: a named tuple (immutable; read by
    field name, or unpacked as ``before, mover, action, after``)."""

    before: S
    """The state the action was chosen in."""
    mover: ToMove
    """Who acted (:attr:`~copa_ref.core.types.MoverKind.CHANCE` for a chance action)."""
    action: A
    """The action applied (a joint action at a joint node)."""
    after: S
    """The state after it."""


_new_step = tuple.__new__
"""``Step(...)`` in :func:`steps` without the generated ``__new__`` (one C call)."""


def steps(game: Game[S, A, Any, Any], policy: Policy[S, A], rng: random.Random, *,
          state: S | None = None, config: Any = None,
          max_steps: int = MAX_STEPS) -> Iterator[Step[S, A]]:
    """Play from *state* (default: a new game under *config*, default: the default reading)
    until the game is over or *max_steps* steps are made; yield each step.

    Stopping at the cap is not an error: the last step's ``after`` then has no outcome.

    Validated once: *state* enters through the public ``to_move`` (checked once); after
    that the loop calls the game's inner functions (:attr:`~copa_ref.core.game.Game.trusted`)
    with the states they built and the actions ``legal_actions`` returned, and asks who
    moves once per state. An action the *policy* made up itself (not one of the objects
    it was offered) goes through the public ``apply`` and all its checks.
    """
    if state is None:
        state = game.new_game(game.default_config() if config is None else config)
    inner = game.trusted
    to_move, legal_actions, apply = inner.to_move, inner.legal_actions, inner.apply
    mark, new_step, step_class = write_mark, _new_step, Step
    seat_node, nobody = SEAT, NOBODY
    mover = game.to_move(state)
    key = getattr(state, CHECKED, None)  # the mark the game's entry check left on it
    for _ in range(max_steps):
        kind = mover.kind
        if kind is seat_node:  # the usual node, inline: one seat picks among its actions
            legal = legal_actions(state, None)
            if not legal:
                decision_legal(game, inner, state, None)
            action = policy(state, mover.seats[0], legal, rng)
            for candidate in legal:  # _produced, inline
                if candidate is action:
                    after = apply(state, action)
                    break
            else:
                after = game.apply(state, action)
        elif kind is nobody:
            return
        else:
            action, produced = choose(game, inner, state, mover, policy, rng)
            after = apply(state, action) if produced else game.apply(state, action)
        # built by the rules from a checked state: valid already, as marked
        try:
            mark(after, key)
        except TypeError:  # a state class without the plain slot
            mark_checked(after, key)
        yield new_step(step_class, (state, mover, action, after))
        state = after
        mover = to_move(state)


def play(game: Game[S, A, Any, Any], policy: Policy[S, A], rng: random.Random, *,
         state: S | None = None, config: Any = None, max_steps: int = MAX_STEPS) -> S:
    """Play a whole game with :func:`steps`; return the last state (over, unless the cap of
    *max_steps* steps stopped it first: check ``game.outcome``)."""
    if state is None:
        state = game.new_game(game.default_config() if config is None else config)
    for step in steps(game, policy, rng, state=state, max_steps=max_steps):
        state = step.after
    return state
