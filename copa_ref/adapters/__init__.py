"""Adapters that offer every game of the reference through other projects' APIs.

Each adapter is generic over the :class:`~copa_ref.core.Game` record and imports its
third-party package only when its own module is imported (the core library keeps its
runtime dependencies as they are):

- :mod:`copa_ref.adapters.pettingzoo`: a PettingZoo AEC environment per game
  (``pip install 'copa-ref[pettingzoo]'``).
- :mod:`copa_ref.adapters.openspiel`: every game as an OpenSpiel Python game, after an
  explicit :func:`copa_ref.adapters.openspiel.register` (``pip install 'copa-ref[openspiel]'``).

Both use the same integer action space: :func:`action_space`, the game's ``action_space``
function (every non-chance action that can ever be legal under the config, sorted by
canonical JSON text); integer ``i`` is the ``i``-th action of that tuple.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from copa_ref.core import Game

__all__ = ["action_space", "rules_function"]


def rules_function(game: Game[Any, Any, Any, Any], name: str) -> Callable[..., Any] | None:
    """The function *name* of the game: the ``Game`` field of that name when the record
    has one and it is set, else the function of that name in ``copa_ref.<game>.rules``, else
    ``None``."""
    found = getattr(game, name, None)
    if callable(found):
        field: Callable[..., Any] = found
        return field
    try:
        rules = importlib.import_module(f"copa_ref.{game.name}.rules")
    except ImportError:
        return None
    found = getattr(rules, name, None)
    if callable(found):
        function: Callable[..., Any] = found
        return function
    return None


def action_space(game: Game[Any, Any, Any, Any], config: Any) -> tuple[Any, ...]:
    """The integer action space of *game* under *config*: integer ``i`` is action ``i``.

    :raises ValueError: when the game has no ``action_space`` function.
    """
    function = rules_function(game, "action_space")
    if function is None:
        msg = f"{game.title} has no action_space(config) in its rules"
        raise ValueError(msg)
    actions: tuple[Any, ...] = tuple(function(config))
    return actions
