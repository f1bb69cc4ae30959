"""Replaying a game from the JSON of its actions, and what data from outside may raise.

The conformance runner, its explanations, the corpus viewer and the checks of an engine's
reports all replay a game from a config and a list of actions as canonical JSON: they do it
here, one way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from copa_ref.core.codec import JSON

__all__ = ["BAD_DATA", "replay", "replayed"]

BAD_DATA: tuple[type[Exception], ...] = (
    ValueError, TypeError, KeyError, IndexError, AttributeError, AssertionError,
    RecursionError, OverflowError)
"""What decoding, replaying or judging data from outside may raise (a refused action, a
misshapen config or report, a value out of range). :class:`~copa_ref.core.RuleViolation`
and :class:`~copa_ref.core.MalformedInputError` are ``ValueError``\\ s, so they are in it."""


def replayed(game: Any, config: Any, actions: Iterable[JSON]) -> Iterator[Any]:
    """The states of *game* from ``new_game(config)`` along *actions* (JSON, decoded with
    ``game.action_from_json``): the initial state first, then the state after each action.

    :raises ~copa_ref.core.RuleViolation: where the rules refuse an action (the states
        before it have been yielded).
    """
    state = game.new_game(config)
    yield state
    for action in actions:
        state = game.apply(state, game.action_from_json(action))
        yield state


def replay(game: Any, config: Any, actions: Iterable[JSON]) -> list[Any]:
    """The states of *game* along *actions* as a list: ``states[i]`` after *i* actions
    (:func:`replayed`)."""
    return list(replayed(game, config, actions))
