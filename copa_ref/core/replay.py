"""Replaying a game from the JSON of its actions, and what data from outside may raise.

The conformance runner, its explanations, the corpus viewer and the checks of an engine's
reports all replay a game from a config and a list of actions as canonical JSON: they do it
here, one way.

A case may start from a full canonical state instead of ``new_game(config)`` (the engine
feature ``load_state``, ``specs/protocol.md`` P-13): while :func:`starting_from` holds that
state, every replay starts from it (decoded by the replaying game, with the replaying
config put in where another reading is tried).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import Any

import attrs

from copa_ref.core.codec import JSON
from copa_ref.core.errors import InvariantViolation

__all__ = ["BAD_DATA", "ENGINE_DATA", "initial", "replay", "replayed", "starting_from"]

BAD_DATA: tuple[type[Exception], ...] = (
    ValueError, TypeError, KeyError, AttributeError, InvariantViolation, RecursionError,
    OverflowError)
"""What decoding, replaying or judging data from outside may raise (a refused action, a
misshapen config or report, a value out of range, a reported view that breaks an
invariant). :class:`~copa_ref.core.RuleViolation` and
:class:`~copa_ref.core.MalformedInputError` are ``ValueError``\\ s, so they are in it. An
``IndexError`` or a bare ``AssertionError`` is a bug of the code that judges, and raises."""

ENGINE_DATA: tuple[type[Exception], ...] = (ValueError, TypeError, KeyError)
"""What a game's diagnosis and the ``when`` of its view rules may raise from the engine's data
(a refused action, a value out of range, a missing or misshapen key of a reported view):
narrower than :data:`BAD_DATA`, so that their own bug (an ``IndexError``, an
``AssertionError``, an ``AttributeError``) raises instead of being taken for a misshapen
report."""


_START: ContextVar[JSON] = ContextVar("replay_start", default=None)


@contextlib.contextmanager
def starting_from(state: JSON) -> Iterator[None]:
    """Within the block, replays start from the canonical *state* (``None``: from
    ``new_game``)."""
    token = _START.set(state)
    try:
        yield
    finally:
        _START.reset(token)


def initial(game: Any, config: Any) -> Any:
    """The state a replay starts from: ``new_game(config)``, or the state of
    :func:`starting_from` (with *config* put in when it differs)."""
    data = _START.get()
    if data is None:
        return game.new_game(config)
    state = game.state_from_json(data)
    if getattr(state, "config", config) != config:
        state = attrs.evolve(state, config=config)
    return state


def replayed(game: Any, config: Any, actions: Iterable[JSON]) -> Iterator[Any]:
    """The states of *game* from ``new_game(config)`` along *actions* (JSON, decoded with
    ``game.action_from_json``): the initial state first, then the state after each action.

    :raises ~copa_ref.core.RuleViolation: where the rules refuse an action (the states
        before it have been yielded).
    """
    state = initial(game, config)
    yield state
    for action in actions:
        state = game.apply(state, game.action_from_json(action))
        yield state


def replay(game: Any, config: Any, actions: Iterable[JSON]) -> list[Any]:
    """The states of *game* along *actions* as a list: ``states[i]`` after *i* actions
    (:func:`replayed`)."""
    return list(replayed(game, config, actions))
