"""The registry: every game of the reference, listed explicitly by name.

No game registers itself by being imported; this module names them all. The conformance
runner, the command line and the benchmark reach the games only through it.
"""

from __future__ import annotations

from typing import Any

from copa_ref.copas import GAME as COPAS
from copa_ref.core import Game
from copa_ref.da_capo import GAME as DA_CAPO
from copa_ref.hopper import GAME as HOPPER
from copa_ref.kala import GAME as KALA
from copa_ref.kopa import GAME as KOPA
from copa_ref.ronda import GAME as RONDA

__all__ = ["GAMES", "get_game"]

AnyGame = Game[Any, Any, Any, Any]

_ALL: tuple[AnyGame, ...] = (
    COPAS,
    DA_CAPO,
    HOPPER,
    KALA,
    KOPA,
    RONDA,
)

GAMES: dict[str, AnyGame] = {game.name: game for game in _ALL}
"""Every game by its registry name (``"kala"``, ``"copas"``, ``"da_capo"``, …)."""


def get_game(name: str) -> AnyGame:
    """The game registered as *name*.

    :raises KeyError: naming the known games, for an unknown name.
    """
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        msg = f"unknown game {name!r}; known games: {known}"
        raise KeyError(msg) from None
