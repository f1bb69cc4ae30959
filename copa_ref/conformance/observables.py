"""What a case expects an engine to report in a position, computed from the reference.

The observables of a position are the same for every game (``conformance/README.md``):
who is to move, the legal actions (sorted by canonical JSON text; per seat at joint nodes;
none at chance nodes), the public view ``observe(state, None)`` and the outcome.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from copa_ref.core import JSON, MoverKind, canonical_json

__all__ = [
    "CORPUS_VERSION",
    "PROTOCOL_VERSION",
    "ActionTexts",
    "observables",
    "options_of",
    "sorted_actions",
]

CORPUS_VERSION = "2.0.0"
"""The version of the corpus this reference generates (semver; ``conformance/VERSION``)."""

PROTOCOL_VERSION = "1.1"
"""The version of the engine protocol (``conformance/README.md``)."""


class ActionTexts:
    """The JSON of a game's actions and its canonical text, each computed once (actions are
    values: equal ones encode alike). The JSON is the converter's, which is what JSON
    text reads back as (:meth:`~copa_ref.core.game.Game.to_json`); it is shared by every
    listing that holds the action, so it must not be changed."""

    MAX_ENTRIES = 50_000
    """Past this many actions kept, the table starts afresh."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self._known: dict[tuple[type, Any], tuple[JSON, str]] = {}

    def __call__(self, action: Any) -> tuple[JSON, str]:
        """The JSON of *action* and its canonical text."""
        key = (type(action), action)
        found = self._known.get(key)
        if found is None:
            if len(self._known) >= self.MAX_ENTRIES:
                self._known.clear()
            data = self.game.to_json(action)
            found = self._known[key] = (data, canonical_json(data))
        return found


def sorted_actions(game: Any, actions: tuple[Any, ...],
                   texts: ActionTexts | None = None) -> list[JSON]:
    """The JSON of *actions*, sorted by their canonical text (*texts*: the actions' JSON
    and texts, kept)."""
    if texts is None:
        encoded = [game.to_json(a) for a in actions]
        return sorted(encoded, key=canonical_json)
    return [data for data, _text in sorted(map(texts, actions), key=itemgetter(1))]


def observables(game: Any, state: Any, texts: ActionTexts | None = None) -> dict[str, JSON]:
    """The observables of *state*: ``to_move``, ``legal``, ``legal_by_seat``, ``public``,
    ``outcome`` (see ``conformance/schema/corpus.schema.json``, ``observables``). With
    *texts*, the legal actions' JSON is taken from it (shared, see :class:`ActionTexts`)."""
    mover = game.to_move(state)
    legal: list[JSON] | None = None
    by_seat: list[JSON] | None = None
    if mover.kind is MoverKind.JOINT:
        by_seat = [{"seat": int(s),
                    "actions": sorted_actions(game, game.legal_actions(state, s), texts)}
                   for s in mover.seats]
    elif mover.kind is not MoverKind.CHANCE:
        legal = sorted_actions(game, game.legal_actions(state, None), texts)
    result = game.outcome(state)
    return {
        "to_move": game.to_json(mover),
        "legal": legal,
        "legal_by_seat": by_seat,
        "public": game.to_json(game.observe(state, None)),
        "outcome": None if result is None else game.to_json(result),
    }


def options_of(game: Any, config: Any) -> list[str]:
    """The options a config needs of an engine: ``field=value`` for every field that differs
    from the default config (strings bare, other values as canonical JSON), sorted."""
    default = game.to_json(game.default_config())
    given = game.to_json(config)
    options = []
    for key in sorted(given):
        if given[key] != default.get(key):
            value = given[key]
            options.append(f"{key}={value if isinstance(value, str) else canonical_json(value)}")
    return options
