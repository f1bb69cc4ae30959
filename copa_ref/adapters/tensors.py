"""Per-game observation tensors with a documented layout, and seat-independent action ids.

Every tensor here is built from ``observe(state, seat)`` alone (and, for an information
state, from what the seat saw earlier: its own observations and the public actions), so it
reveals nothing the seat may not know. A tensor is a flat ``float32`` vector made of named
*segments* (:class:`Segment`), each with a shape and a meaning; :class:`Layout` gives their
offsets, and OpenSpiel's observer ``dict`` and the documentation's tables are made from it.

Seats in a tensor are **relative to the observing seat**: row 0 is the seat itself, row 1 the
next seat in seat order, and so on, so one network serves every seat.

Each game has an :class:`Encoder` (``copa_ref.adapters.tensor_<game>``, looked up by
:func:`encoder`): its observation layout, its information-state layout (or ``None`` when the
observation already is what the seat knows and the game has no hidden information), the
fold that keeps a seat's bounded memory, a compact text of an observation, and the order
and names of its seat-independent actions (:class:`ActionIds`).
"""

from __future__ import annotations

import abc
import functools
import importlib
from collections.abc import Iterable
from typing import Any

import attrs
import numpy as np

from copa_ref.core import Game

__all__ = [
    "ActionIds",
    "Encoder",
    "Layout",
    "LegalIds",
    "Segment",
    "encoder",
    "relative",
    "tables",
]


@attrs.frozen
class Segment:
    """One named part of a tensor."""

    name: str
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        size = 1
        for n in self.shape:
            size *= n
        return size


VIEWS_KEPT = 4
"""The buffers whose segment views a :class:`Layout` keeps."""


@attrs.frozen(slots=False)
class Layout:
    """A tensor as consecutive segments."""

    segments: tuple[Segment, ...]

    @functools.cached_property
    def size(self) -> int:
        return sum(s.size for s in self.segments)

    @functools.cached_property
    def _slices(self) -> tuple[tuple[str, int, int, tuple[int, ...]], ...]:
        found, at = [], 0
        for segment in self.segments:
            found.append((segment.name, at, at + segment.size, segment.shape))
            at += segment.size
        return tuple(found)

    def offsets(self) -> dict[str, int]:
        found, at = {}, 0
        for segment in self.segments:
            found[segment.name] = at
            at += segment.size
        return found

    def views(self, buffer: Any) -> dict[str, Any]:
        """Each segment as a view of *buffer* (a flat array of ``size``), shaped; kept for
        the last few buffers (an OpenSpiel observer fills the same one each time, and a
        game's observation and information-state observers take turns). Read them: the
        dict may be handed out again."""
        kept: list[tuple[Any, dict[str, Any]]] = self.__dict__.setdefault("_kept_views", [])
        for held, found in kept:
            if held is buffer:
                return found
        found = {name: buffer[start:stop].reshape(shape)
                 for name, start, stop, shape in self._slices}
        if len(kept) >= VIEWS_KEPT:
            del kept[0]
        kept.append((buffer, found))
        return found

    def table(self, skip: int = 0) -> str:
        """The layout as a Markdown table (offset, segment, shape, meaning), from its
        *skip*-th segment on."""
        lines = ["| offset | segment | shape | meaning |", "|---:|---|---|---|"]
        offsets = self.offsets()
        for s in self.segments[skip:]:
            shape = " × ".join(str(n) for n in s.shape)
            lines.append(f"| {offsets[s.name]} | `{s.name}` | {shape} | {s.meaning} |")
        lines.append(f"| {self.size} | | | total |")
        return "\n".join(lines)


def relative(seat: int, observer: int, players: int) -> int:
    """*seat*'s row in a tensor seen by *observer*: 0 for itself, 1 for the next seat, …"""
    return (seat - observer) % players


def one_hot(view: Any, index: int | None) -> None:
    """Set ``view[index]`` to 1 (nothing for ``None``)."""
    if index is not None:
        view[index] = 1.0


class Encoder(abc.ABC):
    """What a game's tensors look like and how they are filled (one per game and config).

    Subclasses set ``observation`` (a :class:`Layout`), ``information`` (a layout,
    or ``None``: the game gives no information-state tensor) and :attr:`remembers` (whether
    the information state folds over the history, :meth:`remember`), and fill them in
    :meth:`encode` and :meth:`encode_information`.
    """

    observation: Layout
    information: Layout | None = None
    remembers: bool = False
    """Whether :meth:`remember` keeps something the observation does not show."""
    _last_split: tuple[Any, Any, Any] | None = None

    def __init__(self, game: Game[Any, Any, Any, Any], config: Any) -> None:
        self.game = game
        self.config = config
        self.players = game.num_players(config)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by game name and config (the game record holds closures)."""
        return _rebuild, (self.game.name, self.config)

    # -- tensors --------------------------------------------------------------------------

    @abc.abstractmethod
    def encode(self, observation: Any, seat: int, out: Any) -> None:
        """Fill *out* (zeros, ``observation``'s size) with *observation* of *seat*.

        Every game's encoder (``tensor_<game>.py``) defines it."""

    def encode_information(self, observation: Any, memory: Any, seat: int, out: Any) -> None:
        """Fill *out* (zeros, ``information``'s size): by default the observation tensor
        then the memory's segments (:meth:`encode_memory`)."""
        head, tail = self.split(out)
        self.encode(observation, seat, head)
        self.encode_memory(memory, seat, tail)

    def split(self, out: Any) -> tuple[Any, Any]:
        """An information-state tensor *out* as two views, the observation's part and the
        rest; kept for the last buffer (an OpenSpiel observer fills the same one)."""
        last = self._last_split
        if last is None or last[0] is not out:
            size = self.observation.size
            last = self._last_split = (out, out[:size], out[size:])
        return last[1], last[2]

    def encode_memory(self, memory: Any, seat: int, out: Any) -> None:
        """Fill the part of the information state after the observation (by default there
        is none: nothing to fill)."""
        return None

    def observation_tensor(self, observation: Any, seat: int) -> Any:
        out = np.zeros(self.observation.size, np.float32)
        self.encode(observation, seat, out)
        return out

    def information_tensor(self, observation: Any, memory: Any, seat: int) -> Any:
        assert self.information is not None
        out = np.zeros(self.information.size, np.float32)
        self.encode_information(observation, memory, seat, out)
        return out

    # -- memory ---------------------------------------------------------------------------

    def remember(self, memory: Any, before: Any, action: Any, after: Any, seat: int) -> Any:
        """*seat*'s memory after *action* (``None`` for a chance action, which no seat
        sees), given its observations *before* and *after*; the start is ``None``."""
        return None

    # -- texts ----------------------------------------------------------------------------

    @abc.abstractmethod
    def brief(self, observation: Any, seat: int) -> str:
        """A compact text of *observation* (an information-state key).

        Every game's encoder (``tensor_<game>.py``) defines it."""

    def brief_memory(self, memory: Any) -> str:
        return ""

    # -- actions --------------------------------------------------------------------------

    def action_ids(self, free: tuple[Any, ...]) -> tuple[Any, ...]:
        """The seat-independent actions in id order, given those of the action space: by
        default sorted by :meth:`action_key`; a game whose ids are fixed whatever the config
        (a card's id) lists them all, some never legal under a config."""
        return tuple(sorted(free, key=self.action_key))

    def action_key(self, action: Any) -> Any:
        """The sort key of a seat-independent action (its id order)."""
        return self.game.dumps(action)

    def action_name(self, action: Any) -> str:
        """A short name of a seat-independent action (``action_to_string``)."""
        return str(self.game.dumps(action))


def _free(action: Any) -> Any:
    """The seat-independent form of *action*: the action of seat 0 (the same for a seatless
    action)."""
    if attrs.has(type(action)) and "seat" in attrs.fields_dict(type(action)):
        return attrs.evolve(action, seat=0)
    return action


class LegalIds:
    """One tuple of legal actions, as ``legal_actions`` returned it, by id: the ids in
    increasing order, the action each id stands for (the very object of the tuple, so the
    game's inner ``apply`` may take it) and the mask (``int8``, 1 at each id; copy it
    before handing it out), made when first asked for (OpenSpiel asks only for the ids)."""

    __slots__ = ("_mask", "_size", "actions", "by_id", "ids")

    def __init__(self, actions: tuple[Any, ...], number: dict[Any, int], size: int) -> None:
        self.actions = actions
        self.by_id: dict[int, Any] = {number[a]: a for a in actions}
        self.ids: list[int] = sorted(self.by_id)
        self._size = size
        self._mask: Any = None

    @property
    def mask(self) -> Any:
        """1 at each legal id, 0 elsewhere (``int8``, the size of the action space)."""
        found = self._mask
        if found is None:
            found = self._mask = np.zeros(self._size, np.int8)
            found[self.ids] = 1
        return found


MEMO_SIZE = 4096
"""The most tuples of legal actions :meth:`ActionIds.legal` keeps (then it starts over)."""


class ActionIds:
    """A game's actions as seat-independent integer ids: a card is one id whatever seat
    plays it. Id ``i`` is the ``i``-th seat-independent action (an action of seat 0) of
    the game's ``action_space(config)``, in the encoder's documented order."""

    def __init__(self, actions: Iterable[Any], players: int, coder: Encoder) -> None:
        self._memo: dict[int, LegalIds] = {}
        free: dict[Any, None] = {}
        every = tuple(actions)
        for action in every:
            free[_free(action)] = None
        self.free: tuple[Any, ...] = coder.action_ids(tuple(free))
        number = {a: i for i, a in enumerate(self.free)}
        self.id: dict[Any, int] = {a: number[_free(a)] for a in every}
        """The id of each action of any seat."""
        self.of: dict[tuple[int, int], Any] = {}
        """The action of ``(id, seat)``."""
        for action in every:
            seat = getattr(action, "seat", None)
            seats = range(players) if seat is None else (seat,)
            for s in seats:
                self.of[self.id[action], s] = action
        self.names: tuple[str, ...] = tuple(coder.action_name(a) for a in self.free)

    def __len__(self) -> int:
        return len(self.free)

    def legal(self, actions: tuple[Any, ...]) -> LegalIds:
        """*actions* (a tuple ``legal_actions`` returned) by id, kept for that tuple object:
        a game that hands out prebuilt tuples (KALA) has each one's ids worked out once.

        Keyed by the tuple's identity: an entry holds its tuple, so no other object can
        have that identity while the entry is kept."""
        found = self._memo.get(id(actions))
        if found is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            found = self._memo[id(actions)] = LegalIds(actions, self.id, len(self.free))
        return found

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the memo (its keys are identities in this process)."""
        return {**self.__dict__, "_memo": {}}

    def action(self, number: int, seat: int) -> Any:
        """The action id *number* stands for when *seat* plays it.

        :raises ValueError: for an id out of range or one that seat can never play.
        """
        found = self.of.get((number, seat))
        if found is None:
            msg = f"action id {number} is not an action of seat {seat} (0..{len(self) - 1})"
            raise ValueError(msg)
        return found


_TABLES: dict[tuple[Any, Any], tuple[Encoder, ActionIds]] = {}
TABLES_SIZE = 256
"""The most configs :func:`tables` keeps (then it starts over)."""


def tables(game: Game[Any, Any, Any, Any], config: Any) -> tuple[Encoder, ActionIds]:
    """The encoder and the action ids of *game* under *config*, made once per game and
    config: OpenSpiel loads a game again for each state it deserialises, and a vector of
    environments makes one per copy. Both are immutable (but for the ids' memo, a cache).
    """
    try:
        key: tuple[Any, Any] | None = (game, config)
        found = _TABLES.get(key)  # type: ignore[arg-type]
    except TypeError:  # a config that is not hashable: made each time
        key, found = None, None
    if found is None:
        from copa_ref.adapters import action_space

        coder = encoder(game, config)
        found = coder, ActionIds(action_space(game, config), game.num_players(config), coder)
        if key is not None:
            if len(_TABLES) >= TABLES_SIZE:
                _TABLES.clear()
            _TABLES[key] = found
    return found


def _rebuild(name: str, config: Any) -> Encoder:
    from copa_ref.games import get_game

    return encoder(get_game(name), config)


_MODULES = {"kala", "copas", "kopa", "ronda", "hopper", "da_capo"}


def encoder(game: Game[Any, Any, Any, Any], config: Any) -> Encoder:
    """The tensor encoder of *game* under *config*.

    :raises ValueError: for a game without one.
    """
    if game.name not in _MODULES:
        msg = f"{game.title} has no tensor encoder (copa_ref.adapters.tensor_{game.name})"
        raise ValueError(msg)
    module = importlib.import_module(f"copa_ref.adapters.tensor_{game.name}")
    made: Encoder = module.ENCODER(game, config)
    return made
