"""Misreadings: the reference with one rule read wrongly, as a game of its own.

A :class:`Misreading` names the rule it misreads and replaces a few names in a *private
copy* of the game's rules module (``copa_ref.<game>.rules``). :func:`misread` loads that
copy, puts the replacements into its namespace and returns a :class:`~copa_ref.core.game.Game`
whose transition functions are the copy's, so a misread game never changes the reference
itself: the reference and any number of misread copies can run side by side in one process.

Two catalogues use this shape:

* each game's common misreadings (not ``Config`` options), which the conformance runner
  replays to explain a failure ("your engine plays as if …");
* the mutants of the kill-matrix test, one or more per rule.

Both are lists of a game's catalogue (``CATALOGUE``), declared with their rules in
``copa_ref/conformance/<game>/rules.py``.

A misread game's inner functions (:attr:`~copa_ref.core.game.Game.trusted`, the ones the
generic loop calls) come from the copy as well; where a misreading replaces a public entry
point (``apply``) but not its inner twin (``_apply``), the replacement stands for both.

A copy runs its module's code anew, so its state checker (``_CHECKS``) is its own, with its
own key (:attr:`~copa_ref.core.entry.StateChecks.key`): the states its rules build carry the
copy's mark, and the reference checks them in full when they enter it, as it checks an
equal fresh object. A speed layer installed over the reference's functions (such as
:mod:`copa_ref.kopa.fast`) is not installed in a copy: a copy plays the plain functions.

Rule functions call each other through their module's globals, so replacing a name in the
copy changes every caller inside the copy. Names a module computed at import time from a
replaced function (a precomputed table, say) are not recomputed: replace them too.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import Any, TypeVar

import attrs

from copa_ref.core.entry import StateChecks
from copa_ref.core.game import Game

__all__ = [
    "Deferred", "Misreading", "misread", "misread_module", "seam"]

F = TypeVar("F", bound=Callable[..., Any])


def seam(function: F) -> F:
    """Mark *function* as a mutation seam: a rule's formula kept as a name of its own so
    that a misreading can replace it (its callers would read as well without it). A no-op
    but for the mark ``__copa_seam__``; see the contributor notes in the README."""
    function.__copa_seam__ = True  # type: ignore[attr-defined]
    return function

_GAME_FUNCTIONS = (
    "new_game",
    "num_players",
    "to_move",
    "legal_actions",
    "apply",
    "outcome",
    "observe",
    "sample_chance",
    "chance_outcomes",
)
"""The fields of a :class:`Game` taken from the misread copy where it defines them."""

_INNER = {"to_move": "_to_move", "legal_actions": "_legal_actions", "apply": "_apply",
          "joint": "_joint"}
"""The fields of :class:`~copa_ref.core.game.Trusted`, by the name of the public function
in a rules module and of its inner function. A misreading that replaces a public function
(``apply``) and not its inner one replaces both: the misread game's loop then plays the
misreading too."""

_copies = itertools.count()


class Deferred(Mapping[str, object]):
    """Replacements built on first use: ``Deferred(lambda: tables(...))`` for tables that
    are costly to build (a misreading's path tables), so that a catalogue costs nothing to
    import. Compared and hashed by identity, never by building them."""

    def __init__(self, make: Callable[[], Mapping[str, object]]) -> None:
        self._make = make
        self._made: dict[str, object] | None = None

    def _built(self) -> dict[str, object]:
        if self._made is None:
            self._made = dict(self._make())
        return self._made

    def __getitem__(self, key: str) -> object:
        return self._built()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())

    __eq__ = object.__eq__
    __hash__ = object.__hash__


def _freeze(replacements: Mapping[str, object]) -> tuple[tuple[str, object], ...] | Deferred:
    if isinstance(replacements, Deferred):
        return replacements
    return tuple(sorted(replacements.items()))


@attrs.frozen(kw_only=True)
class Misreading:
    """One rule read wrongly: names to replace in a copy of a game's rules module."""

    rule: str
    """The ID of the rule misread (``"COPAS-2"``): the rule a conformance run must name."""
    slug: str
    """A short stable name (``"queen-above-jack"``)."""
    description: str
    """What the misreading does, in words an engine author recognises."""
    replacements: tuple[tuple[str, object], ...] | Deferred = attrs.field(converter=_freeze)
    """``(name, value)`` pairs put into the copied module's namespace (functions, tables);
    a :class:`Deferred` mapping where they are built on first use."""
    module: str = ""
    """The module to copy; empty for the game's own ``copa_ref.<game>.rules``."""

    def module_name(self, game_name: str) -> str:
        """The module this misreading copies, for a game registered as *game_name*."""
        return self.module or f"copa_ref.{game_name}.rules"


def misread_module(module_name: str, replacements: Mapping[str, object]) -> ModuleType:
    """A fresh, private copy of the module *module_name* with *replacements* in it.

    The copy is not entered in :data:`sys.modules` and shares every other module (state
    classes, enums, core) with the reference, so its values are the reference's values.

    :raises ValueError: when the module cannot be found, or a replaced name does not exist in it.
    """
    original = sys.modules.get(module_name) or importlib.import_module(module_name)
    spec = importlib.util.find_spec(module_name)
    if spec is None or spec.origin is None or spec.loader is None:
        msg = f"cannot copy module {module_name!r}"
        raise ValueError(msg)
    name = f"{module_name}.__misread_{next(_copies)}__"
    copy_spec = importlib.util.spec_from_file_location(name, spec.origin)
    if copy_spec is None or copy_spec.loader is None:
        msg = f"cannot copy module {module_name!r}"
        raise ValueError(msg)
    copy = importlib.util.module_from_spec(copy_spec)
    copy.__package__ = original.__package__
    copy_spec.loader.exec_module(copy)
    for key, value in replacements.items():
        if not hasattr(copy, key):
            msg = f"{module_name} has no name {key!r} to replace"
            raise ValueError(msg)
        setattr(copy, key, value)
    checks = getattr(copy, "_CHECKS", None)
    if isinstance(checks, StateChecks) and "_CHECKS" not in replacements:
        # A misread game's own states may break the reference's rules (that is the
        # misreading): its entry points check a state's class and shape, not the rules;
        # the checker keeps the copy's key (attrs.evolve keeps it), not the reference's.
        copy._CHECKS = attrs.evolve(checks, rules=())  # type: ignore[attr-defined]
    return copy


def misread(game: Game[Any, Any, Any, Any], misreading: Misreading) -> Game[Any, Any, Any, Any]:
    """*game* with *misreading* applied: its transition functions come from a misread copy
    of the game's rules module; everything else (codec, types, invariants) is the game's."""
    copy = misread_module(misreading.module_name(game.name), dict(misreading.replacements))
    changes: dict[str, Any] = {
        field: getattr(copy, field) for field in _GAME_FUNCTIONS if hasattr(copy, field)
    }
    if game.chance_outcomes is None:
        changes.pop("chance_outcomes", None)
    if game.joint is not None and hasattr(copy, "joint"):
        changes["joint"] = copy.joint
    replaced = dict(misreading.replacements)
    inner: dict[str, Any] = {}
    for public, name in _INNER.items():
        if getattr(game.trusted, public) is None:
            continue
        if public in replaced and name not in replaced:
            inner[public] = getattr(copy, public)
        elif hasattr(copy, name):  # a copy of another module keeps the game's own
            inner[public] = getattr(copy, name)
    changes["trusted"] = attrs.evolve(game.trusted, **inner)
    return attrs.evolve(game, name=game.name, **changes)
