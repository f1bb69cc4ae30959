"""Every game of the reference as a PettingZoo AEC environment (:func:`env`, wrapped as
PettingZoo's classic environments are; :func:`raw_env` bare) and as a parallel one
(:func:`parallel_env`: DA CAPO's bids chosen at once), with a versioned module per game::

    from copa_ref.adapters.pettingzoo import kala_v0

    e = kala_v0.env(render_mode="ansi")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        mask = obs["action_mask"]
        e.step(None if terminated or truncated else e.action_space(agent).sample(mask))
    print(e.render())

The agents are ``player_0``, ``player_1``, … (seat ``s`` is ``player_s``). Integer action
``i`` is the ``i``-th seat-independent action (:class:`~copa_ref.adapters.tensors.ActionIds`:
a card is one id whatever seat plays it); ``obs["action_mask"]`` marks the legal ones of the
agent to act (all zero for the others). ``obs["observation"]`` is the game's feature tensor
(:mod:`copa_ref.adapters.tensors`): by default the information-state tensor where the game
gives one (the view and the seat's bounded memory), else the observation tensor; built from
``observe(state, seat)`` and what the seat saw before, so it reveals nothing the seat may not
know (a game whose fact sheet declares no hidden information shows each seat the state
itself: there the state is read as the view). ``state()`` is every seat's observation
tensor, one after another (what the seats see between them: a centralised critic's input).
Chance actions are sampled inside the environment from its generator, seeded by
``reset(seed=...)``. The returns are
:func:`~copa_ref.adapters.returns_scheme`'s (the docs give them per game).
"""

from __future__ import annotations

import operator
import random
import sys
import types
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]  # untyped package
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from copa_ref.adapters import dealt_in_rounds, default_truncation, episode_over, returns_scheme
from copa_ref.adapters.tensors import ActionIds, Encoder, LegalIds, tables
from copa_ref.core import Game
from copa_ref.core.codec import excerpt
from copa_ref.core.entry import carry_mark
from copa_ref.core.errors import MalformedInputError
from copa_ref.core.types import MoverKind, Seat

__all__ = [
    "VERSION",
    "ClassicWrapper",
    "CopaEnv",
    "CopaParallelEnv",
    "GameTable",
    "UsualStep",
    "env",
    "parallel_env",
    "raw_env",
    "stacked_env",
]

VERSION = 0
"""The version of every environment here (``kala_v0``): raised when an environment's
observations, actions or rewards change."""

DEFAULT = object()
"""``max_steps`` left out: the game's default truncation
(:func:`~copa_ref.adapters.default_truncation`)."""

RENDER_MODES = ("ansi", "human")
_SEAT, _JOINT, _ANY, _CHANCE = MoverKind.SEAT, MoverKind.JOINT, MoverKind.ANY, MoverKind.CHANCE
OBSERVATIONS = ("information_state", "observation")
_INTEGER_TYPES = frozenset({int, np.int64, np.int32, np.int16, np.int8, np.uint32, np.uint16,
                            np.uint8, np.intp})
"""The types of an action for which ``Discrete.contains`` is a range check (an ``int``, the
NumPy integer scalars that cast to the space's ``int64``); any other value takes
``Discrete.contains`` itself."""


def _game(game: Game[Any, Any, Any, Any] | str) -> Game[Any, Any, Any, Any]:
    if isinstance(game, str):
        from copa_ref.games import get_game

        return get_game(game)
    return game


def raw_env(game: Game[Any, Any, Any, Any] | str, config: Any = None,
            **kwargs: Any) -> CopaEnv:
    """The bare AEC environment for *game* (a ``Game`` or its registry name) under *config*
    (default: the default reading): an illegal action raises ``ValueError``."""
    return CopaEnv(_game(game), config, **kwargs)


def env(game: Game[Any, Any, Any, Any] | str, config: Any = None, *,
        illegal_reward: float = -1.0, **kwargs: Any) -> ClassicWrapper:
    """The AEC environment for *game* wrapped as PettingZoo's classic environments are
    (``connect_four.env()``): PettingZoo's own ``TerminateIllegalWrapper`` (an illegal
    action ends the game with *illegal_reward* for its agent and 0 for the others),
    ``AssertOutOfBoundsWrapper`` (an action outside the space is an assertion error) and,
    outermost, ``OrderEnforcingWrapper`` (a call out of order is a clear error), as
    :class:`ClassicWrapper`, which passes the usual step straight on."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(game, config, **kwargs),
                                               illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return ClassicWrapper(wrapped)


def stacked_env(game: Game[Any, Any, Any, Any] | str, config: Any = None, *,
                illegal_reward: float = -1.0, **kwargs: Any) -> Any:
    """:func:`env` with PettingZoo's own ``OrderEnforcingWrapper`` outermost (no
    :class:`ClassicWrapper`): the classic stack as it is, for comparison."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(game, config, **kwargs),
                                               illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def _read(name: str) -> Any:
    """The environment's attribute *name*, read straight from it (``operator.attrgetter``:
    no Python frame, the read an agent loop makes several times a decision); before its
    ``reset`` it has none, and the ``AttributeError`` sends the read to
    ``OrderEnforcingWrapper``'s ``__getattr__``, which refuses it as before any reset."""

    def write(self: UsualStep, value: Any) -> None:
        setattr(self.raw, name, value)

    return property(operator.attrgetter(f"raw.{name}"), write,
                    doc=f"The environment's ``{name}``.")


class UsualStep(wrappers.BaseWrapper):  # type: ignore[misc]  # untyped
    """Next after ``OrderEnforcingWrapper`` in :class:`ClassicWrapper`'s method order: the
    usual step, a live agent's legal id, goes straight to the environment (what
    ``AssertOutOfBoundsWrapper`` and ``TerminateIllegalWrapper`` below would do with it,
    after their reads through each other layer); every other action goes through them.
    Observations, ``last`` and the attributes an agent loop reads come straight from the
    environment too (``TerminateIllegalWrapper`` observes for itself in a step that needs
    the mask).

    Measured (``bench/adapters.py --table pettingzoo``, the ``env()`` loop's median speed
    over the ``stacked_env()`` one's): KALA 3.2x, DA CAPO 2.8x, HOPPER 2.6x, RONDA 2.8x,
    Kopa 1.6x, Copas 1.5x.
    """

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.raw: CopaEnv = env.unwrapped
        """The environment under the wrappers."""

    agents = _read("agents")
    agent_selection = _read("agent_selection")
    rewards = _read("rewards")
    terminations = _read("terminations")
    truncations = _read("truncations")
    infos = _read("infos")
    _cumulative_rewards = _read("_cumulative_rewards")

    def step(self, action: Any) -> None:
        raw = self.raw
        if action is None:  # a finished agent's step: what the wrappers below do with it
            agent = raw.agent_selection  # is the environment's dead step
            if raw.terminations.get(agent, False) or raw.truncations.get(agent, False):
                raw.step(None)
                return
        elif type(action) in _INTEGER_TYPES and raw.step_if_legal(action):
            # played: the types for which Discrete.contains is a range check (an unsigned
            # 64-bit integer does not cast to the space's int64: it takes the long way)
            return
        super().step(action)

    def observe(self, agent: str) -> Any:
        return self.raw.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.agent_selection  # noqa: B018  # before reset: OrderEnforcingWrapper's error
        found: tuple[Any, float, bool, bool, dict[str, Any]] = self.raw.last(observe)
        return found


class ClassicWrapper(wrappers.OrderEnforcingWrapper, UsualStep):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper``, outermost over PettingZoo's
    ``AssertOutOfBoundsWrapper`` and ``TerminateIllegalWrapper`` (what :func:`env` stacks),
    with one fast path: its ``step`` and ``observe`` pass on to :class:`UsualStep`
    (next in this class's method order), which hands a live agent's legal id straight to
    the environment. The answers are the stack's: a test plays ``env()`` and
    :func:`stacked_env` side by side and compares every answer and warning.
    """

    def __init__(self, env: Any) -> None:
        """*env*: ``AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw_env))``."""
        super().__init__(env)

    def __str__(self) -> str:
        return str(self.env)  # as OrderEnforcingWrapper's own (it names any subclass)




def parallel_env(game: Game[Any, Any, Any, Any] | str, config: Any = None,
                 **kwargs: Any) -> CopaParallelEnv:
    """A new parallel environment for *game* under *config* (see :class:`CopaParallelEnv`)."""
    return CopaParallelEnv(_game(game), config, **kwargs)


class GameTable:
    """What both environments share: the game they play, its state, who acts, what is
    legal, the seats' memories, chance (sampled from the environment's own generator), the
    truncation. Pickled by the game's name (a ``Game`` record holds closures)."""

    def __init__(self, game: Game[Any, Any, Any, Any], config: Any, max_steps: Any,
                 observation: str, render_mode: str | None, one_deal: bool = False) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            msg = (f"render_mode {render_mode!r} is not supported: use 'ansi' (the text "
                   "picture as a string) or 'human' (printed); the games draw SVG pictures "
                   "(Game.svg), not pixel arrays")
            raise ValueError(msg)
        if observation not in OBSERVATIONS:
            msg = f"observation must be one of {OBSERVATIONS}, not {observation!r}"
            raise ValueError(msg)
        if config is not None and not isinstance(config, game.config_type):
            msg = (f"{game.title}: config must be a {game.config_type.__qualname__} value (or "
                   f"None, the default reading), not {excerpt(config)}")
            raise MalformedInputError(msg)
        self.game = game
        self.render_mode = render_mode
        self.config = game.default_config() if config is None else config
        self.coder: Encoder
        self.ids: ActionIds
        self.coder, self.ids = tables(game, self.config)
        self._id_count = len(self.ids)
        self.players = game.num_players(self.config)
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        self.max_steps: int | None = (default_truncation(game) if max_steps is DEFAULT
                                      else max_steps)
        if one_deal and not dealt_in_rounds(game):
            msg = f"{game.title} is not dealt in rounds: it has no one-deal episodes"
            raise ValueError(msg)
        self.one_deal = one_deal
        """Whether an episode is one deal (Copas, Kopa): it ends when the deal it starts in
        is booked (:func:`~copa_ref.adapters.episode_over`)."""
        self.scheme = returns_scheme(game, self.config, one_deal,
                                     self.max_steps or 100_000)
        self.observation_kind = observation
        self.information = observation == "information_state" and (
            self.coder.information is not None)
        layout = self.coder.information if self.information else self.coder.observation
        assert layout is not None
        self.observation_size = layout.size
        self._scratch = np.zeros(layout.size, np.float32)
        """The buffer an information-state tensor is filled in, then copied out: the same
        one each time, so the layout's views of its segments are made once (a new buffer
        each time costs RONDA's tensor nine reshapes)."""
        self._rng: random.Random | None = random.Random()
        """Chance's generator; ``None`` after a ``reset(seed=...)`` until chance first
        needs it (then made from :attr:`_seed`: seeding one costs more than a plain KALA
        decision, at every reset, and KALA has no chance)."""
        self._seed: int | None = None
        self._whole = not game.facts.hidden_information
        """Whether each seat's view is the whole state: a game whose fact sheet declares no
        hidden information (KALA, HOPPER, DA CAPO) has ``observe(state, seat)`` return the
        state itself (``tests/test_games.py`` checks the declaration against play, an
        adapter test the views), so the view is the state, without the call."""
        self._plain = self._whole and not self.information
        """Whether a seat's tensor is the observation tensor of the state itself (KALA's)."""
        self._inner()
        self._start = game.new_game(self.config)
        """The starting state: ``new_game`` is a pure function of the config and a state an
        immutable value, so every reset starts from this one (making it again cost about
        half a plain KALA decision at each reset)."""
        self.game_state: Any = self._start
        """The reference's own state (``game.outcome(env.game_state)``, ``game.svg``)."""
        self._set_state(self.game_state)
        self.steps = 0
        self._memories: list[Any] = [None] * self.players

    def _inner(self) -> None:
        """The game's inner functions, for the states the game built and the actions it
        listed for them (as the generic loop calls them)."""
        inner = self.game.trusted
        self._to_move_of, self._legal_of = inner.to_move, inner.legal_actions
        self._apply_of, self._joint_of = inner.apply, inner.joint

    def __getstate__(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["game"] = self.game.name
        for name in ("_to_move_of", "_legal_of", "_apply_of", "_joint_of"):
            del data[name]
        data["_acting"] = None
        data["_views"], data["_entries"] = {}, {}
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        from copa_ref.games import get_game

        data = dict(data)
        data["game"] = get_game(data["game"])
        self.__dict__.update(data)
        self._inner()

    def _seat(self, agent: str) -> int:
        return self._seats[agent]

    def _restart(self, seed: int | None) -> None:
        if seed is not None:  # else the generator goes on (Gymnasium's convention)
            self._rng, self._seed = None, seed
        self._set_state(self._start)
        self._memories = [None] * self.players
        self.steps = 0
        self._play_chance()

    def _set_state(self, state: Any) -> None:
        """Make *state* the current one, with who moves in it; the rest of what is known of
        it (the seats' views and legal ids) is worked out when first asked for, once."""
        self.game_state = state
        self._mover: Any = self._to_move_of(state)
        """Who moves in the state (every step asks)."""
        self._views: dict[int, Any] = {}
        self._acting: tuple[int, ...] | None = None
        self._entries: dict[int, LegalIds] = {}
        """The seats' legal ids here, each once asked for."""

    def _view(self, seat: int) -> Any:
        if self._whole:
            return self.game_state
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.game.observe(self.game_state, Seat(seat))
        return view

    @property
    def truncated(self) -> bool:
        """Whether ``max_steps`` cut the game short (an adapter's limit, not a rule)."""
        return self.max_steps is not None and self.steps >= self.max_steps

    def _acting_seats(self) -> tuple[int, ...]:
        """The seats to choose now, in seat order (none when the game is over)."""
        found = self._acting
        if found is None:
            mover = self._mover
            kind = mover.kind
            if kind is _SEAT:
                found = (int(mover.seats[0]),)
            elif kind is _JOINT:
                found = tuple(int(s) for s in mover.seats)
            elif kind is _ANY:
                able = [s for s in mover.seats if self._entry(s).ids]
                found = (int(able[0] if able else mover.seats[0]),)
            else:  # the end, or (one deal) the next deal, not dealt
                found = ()
            self._acting = found
        return found

    def _entry(self, seat: int) -> LegalIds:
        """*seat*'s legal actions now, by id (a seat to choose now)."""
        entries = self._entries
        entry = entries.get(seat)
        if entry is None:
            entry = entries[seat] = self.ids.legal(self._legal_of(
                self.game_state, None if self._mover.kind is _SEAT else Seat(seat)))
        return entry

    def _mask(self, seat: int, acting: bool, size: int) -> Any:
        if not acting:
            return np.zeros(size, dtype=np.int8)
        entry = self._entry(seat)
        if size == self._id_count:
            return entry.mask.copy()
        mask = np.zeros(size, dtype=np.int8)
        mask[entry.ids] = 1
        return mask

    def _vector(self, seat: int) -> Any:
        view = self.game_state if self._whole else self._view(seat)
        if self.information:  # coder.information_tensor, in the environment's own buffer
            out = self._scratch
            out.fill(0.0)
            self.coder.encode_information(view, self._memories[seat], seat, out)
            return out.copy()
        return self.coder.observation_tensor(view, seat)

    def _remember(self, before: list[Any], action: Any) -> None:
        """Fold every seat's memory over *action* (``None``: chance), given its views
        *before*."""
        for seat in range(self.players):
            self._memories[seat] = self.coder.remember(
                self._memories[seat], before[seat], action, self._view(seat), seat)

    def _advance(self, action: Any, public: Any, produced: bool) -> None:
        """Apply *action*: through the game's inner ``apply`` when the game produced it for
        this state (a legal action, a joint of legal parts, a chance outcome), else the
        public, checked one."""
        remembers = self.coder.remembers
        before = [self._view(s) for s in range(self.players)] if remembers else []
        if produced:
            after = self._apply_of(self.game_state, action)
            carry_mark(self.game_state, after)  # built from a checked state: valid
        else:
            after = self.game.apply(self.game_state, action)
        self._set_state(after)
        if remembers:
            self._remember(before, public)

    def _play_chance(self) -> None:
        while self._mover.kind is _CHANCE:
            if self.one_deal and episode_over(self.game_state, self._start.round):
                return  # the episode's deal is booked: the next one is not dealt
            rng = self._rng
            if rng is None:  # seeded by reset, made when first needed: the same draws
                rng = self._rng = random.Random(self._seed)
            self._advance(self.game.sample_chance(self.game_state, rng), None, True)

    def _number(self, agent: str, action: Any) -> int:
        """The id *action* is, when it is one in *agent*'s ``Discrete`` action space as
        Gymnasium's ``Discrete.contains`` decides (an ``int`` or a NumPy integer scalar of a
        type that casts to the space's, within it; not a float, a string, ``None``, a
        container).

        :raises ValueError: for any other value (not coerced: ``188.7`` is no id).
        """
        space = self._action_spaces[agent]
        if type(action) in _INTEGER_TYPES:  # Discrete.contains for these types
            if 0 <= action < self._space_size:
                return int(action)
        elif space.contains(action):
            return int(action)
        msg = (f"{self.game.title}: {excerpt(action)} is not an action id in {agent}'s "
               f"action space (an integer 0 .. {int(space.n) - 1})")
        raise ValueError(msg)

    def _check(self, agent: str, number: int) -> Any:
        """The action id *number* stands for when *agent* plays it now (the object the game
        listed as legal).

        :raises ValueError: when it is not legal for *agent* now.
        """
        seat = self._seats[agent]
        chosen = (self._entry(seat).by_id.get(number) if seat in self._acting_seats()
                  else None)
        if chosen is None:
            raise ValueError(self._illegal(agent, number))
        return chosen

    def _illegal(self, agent: str, number: int) -> str:
        name = self.ids.names[number] if 0 <= number < len(self.ids) else "no such id"
        return f"{self.game.title}: action {number} ({name}) is not legal for {agent}"

    def _apply(self, parts: tuple[Any, ...]) -> None:
        """Apply the acting seats' choices (one, or each part of a joint action)."""
        chosen, produced = parts[0], True
        if len(parts) > 1 or self._mover.kind is _JOINT:
            if self._joint_of is not None:
                chosen = self._joint_of(self.game_state, parts)
            else:
                assert self.game.joint is not None
                chosen, produced = self.game.joint(self.game_state, parts), False
        self._advance(chosen, chosen, produced)
        self.steps += 1
        self._play_chance()

    def _final_rewards(self) -> tuple[float, ...]:
        over = self.one_deal and episode_over(self.game_state, self._start.round)
        return self.scheme.returns(self.game, self.game_state, over, self._start)

    def _render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode")
            return None
        text = self.game.render(self.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> Any:
        """Every seat's observation tensor, seat 0's first: what the seats see between them
        (not what none sees: a stock, RONDA's covered cups)."""
        return np.concatenate([self.coder.observation_tensor(self._view(s), s)
                               for s in range(self.players)])

    def _spaces(self, actions: int) -> None:
        self._space_size = actions
        size = self.observation_size
        self.state_space = gymnasium.spaces.Box(-np.inf, np.inf,
                                                (self.players * self.coder.observation.size,),
                                                np.float32)
        self._action_spaces = {a: gymnasium.spaces.Discrete(actions)
                               for a in self.possible_agents}
        self._observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (actions,), np.int8),
        }) for a in self.possible_agents}

    def observation_space(self, agent: str) -> Any:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self._action_spaces[agent]

    def action_to_string(self, number: int) -> str:
        """The name of action id *number* (``play 7c``)."""
        return self.ids.names[number]


def _metadata(game: Game[Any, Any, Any, Any], parallel: bool) -> dict[str, Any]:
    return {"name": f"{game.name}_v{VERSION}", "render_modes": list(RENDER_MODES),
            "is_parallelizable": parallel or game.joint is None, "render_fps": 1}


class CopaEnv(GameTable, AECEnv):  # type: ignore[misc]  # AECEnv is untyped
    """One game of the reference as a bare AEC environment (see the module text).

    ``max_steps``: truncate every agent after this many steps (an adapter's limit, not a
    rule; ``None``: none); left out, the game's default
    (:func:`~copa_ref.adapters.default_truncation`: Kopa's random matches need not end).
    ``observation``: ``"information_state"`` (default; the observation tensor for a game
    without one) or ``"observation"``. ``one_deal`` (Copas, Kopa): an episode is one deal,
    to its booking, with the points booked as rewards (as OpenSpiel's ``one_deal``).
    """

    def __init__(self, game: Game[Any, Any, Any, Any], config: Any = None, *,
                 render_mode: str | None = None, max_steps: Any = DEFAULT,
                 observation: str = "information_state", one_deal: bool = False) -> None:
        AECEnv.__init__(self)
        GameTable.__init__(self, game, config, max_steps, observation, render_mode, one_deal)
        self.metadata = _metadata(game, False)
        self.action_count = len(self.ids)
        """The size of the ``Discrete`` action space."""
        self._spaces(self.action_count)
        self.action_spaces = self._action_spaces
        self.observation_spaces = self._observation_spaces
        self._parts: list[Any] = []
        """The parts of a joint action chosen so far (DA CAPO's bids, one agent a step)."""
        self._choice: LegalIds | None = None
        """The legal ids of the agent selected, worked out when it is selected (``None``
        once the game is over or cut short): its mask, its step."""

    def observe(self, agent: str) -> dict[str, Any]:
        """*agent*'s observation; the mask marks its legal ids when it is the agent selected
        and live. Valid for any agent of the game, one that has left ``agents`` at the end
        too (its last view, an empty mask), as the classic environments' ``observe`` is
        (SuperSuit's ``sticky_actions_v0`` and ``delay_observations_v0`` observe after the
        end)."""
        seat = self._seats.get(agent)
        if seat is None:
            msg = f"{self.game.title}: no agent {excerpt(agent)} in {self.possible_agents}"
            raise KeyError(msg)
        choice = self._choice
        if choice is not None and agent == self.agent_selection and not (
                self.terminations.get(agent, True) or self.truncations[agent]):  # live
            mask = choice.mask.copy()  # a user may write to it
        else:
            mask = np.zeros(self.action_count, dtype=np.int8)
        if self._plain:  # _vector's answer, without its call
            return {"observation": self.coder.observation_tensor(self.game_state, seat),
                    "action_mask": mask}
        return {"observation": self._vector(seat), "action_mask": mask}

    def step_if_legal(self, action: Any) -> bool:
        """Play *action* when it is an id the agent selected may play now (it is live and
        its action mask marks the id; a NumPy integer scalar is looked up as its ``int``),
        and say whether it did: else nothing changes. Both :meth:`step` and
        :class:`UsualStep` step through here."""
        choice = self._choice
        chosen = None if choice is None else choice.by_id.get(action)
        if chosen is None:
            return False
        agent = self.agent_selection  # selected with its legal ids: in the game, unless
        # an illegal action ended it in TerminateIllegalWrapper (which writes the flags)
        if self.terminations.get(agent, True) or self.truncations[agent]:
            return False
        self._cumulative_rewards[agent] = 0.0
        parts = self._parts  # the action, or the parts of a joint one chosen so far
        parts.append(chosen)
        if len(parts) == len(self._acting_seats()):
            self._parts = []
            self._apply(tuple(parts))
        if self._select():  # the final rewards (any other step's are all 0: nothing to add)
            self._accumulate_rewards()
        return True

    # -- the AEC protocol ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._restart(seed)
        self._parts = []
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()
        if self._choice is None:  # over before any choice (HOPPER without aiming, as a
            # rule): every agent is dead from the start, seat 0 the first to step out,
            # with the final rewards in last()
            self.agent_selection = self.agents[0]
            self._accumulate_rewards()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = self._number(agent, action)  # ValueError for a value not in the space
        if not self.step_if_legal(number):
            raise ValueError(self._illegal(agent, number))

    def _select(self) -> bool:
        """Select the agent to act next (the next part of a joint action, or the seat to
        move), or end the game: every agent terminated with the final rewards, or (cut
        short undecided) truncated. Return whether the final rewards were set: the rewards
        of every other step are 0 (the dict of zeros stays as it is)."""
        seats = self._acting_seats()
        cut = self.max_steps is not None and self.steps >= self.max_steps  # truncated
        if seats and not cut:
            seat = seats[len(self._parts)]
            self.agent_selection = self.possible_agents[seat]
            self._choice = self._entry(seat)
            return False
        self._choice = None
        if cut and self.game.outcome(self.game_state) is None:
            self.truncations = dict.fromkeys(self.agents, True)
            self.rewards = dict.fromkeys(self.agents, 0.0)  # the dead steps' own to empty
            return False
        final = self._final_rewards()
        self.rewards = {agent: final[s] for s, agent in enumerate(self.possible_agents)}
        self.terminations = dict.fromkeys(self.agents, True)
        return True

    def render(self) -> str | None:
        return self._render()

    def close(self) -> None:
        """Nothing to release: the environment holds only immutable values."""


class CopaParallelEnv(GameTable, ParallelEnv):  # type: ignore[misc]  # ParallelEnv is untyped
    """One game of the reference as a parallel environment: each step, every seat to choose
    chooses at once (all of DA CAPO's bidders; the one mover of a turn-based node).

    The action space has one more action than the game's ids, ``no_part``: the only legal
    action of a live agent that does not choose now (its mask marks it), which may also be
    left out of the actions. Observations, rewards, seeding and ``max_steps`` (counting
    parallel steps) are as for :class:`CopaEnv`; every agent leaves ``agents`` when the game
    ends.
    """

    def __init__(self, game: Game[Any, Any, Any, Any], config: Any = None, *,
                 render_mode: str | None = None, max_steps: Any = DEFAULT,
                 observation: str = "information_state", one_deal: bool = False) -> None:
        GameTable.__init__(self, game, config, max_steps, observation, render_mode, one_deal)
        self.metadata = _metadata(game, True)
        self.no_part = len(self.ids)
        self.agents: list[str] = []
        self._spaces(self.no_part + 1)

    def _observations(self) -> dict[str, Any]:
        acting = self._acting_seats()
        found = {}
        for agent in self.agents:
            seat = self._seat(agent)
            mask = self._mask(seat, seat in acting, self.no_part + 1)
            if seat not in acting:
                mask[self.no_part] = 1
            found[agent] = {"observation": self._vector(seat), "action_mask": mask}
        return found

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self._restart(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Step every agent to choose now with its id in *actions*: an integer within the
        agent's action space, as ``Discrete.contains`` decides (``ValueError`` for any other
        value)."""
        if not isinstance(actions, dict):
            msg = (f"{self.game.title}: actions must be a dict of agent to id, not "
                   f"{excerpt(actions)}")
            raise ValueError(msg)
        acting = self._acting_seats()
        parts = []
        for agent in self.agents:
            seat = self._seat(agent)
            given = actions.get(agent)
            number = None if given is None else self._number(agent, given)
            if seat not in acting:
                if number is not None and number != self.no_part:
                    msg = f"{self.game.title}: {agent} has no part to play now"
                    raise ValueError(msg)
                continue
            if number is None or number == self.no_part:
                msg = f"{self.game.title}: {agent} must choose now"
                raise ValueError(msg)
            parts.append(self._check(agent, number))
        if acting:  # else the game ended before any choice (HOPPER without aiming, at
            self._apply(tuple(parts))  # reset, as a rule): this step reports its end
        agents = list(self.agents)
        over = not self._acting_seats()
        final = self._final_rewards() if over else (0.0,) * self.players
        cut = self.truncated and not over
        rewards = {a: final[self._seat(a)] for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, cut)
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        observations = self._observations()
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self._render()

    def close(self) -> None:
        """Nothing to release: the environment holds only immutable values."""


# -- versioned modules: copa_ref.adapters.pettingzoo.kala_v0 and the others ---------------------


def _versioned(name: str) -> types.ModuleType:
    module = types.ModuleType(f"{__name__}.{name}_v{VERSION}",
                              f"The {name} environments, version {VERSION}: ``env``, "
                              "``raw_env``, ``parallel_env`` (keywords as there).")

    def versioned_env(config: Any = None, **kwargs: Any) -> Any:
        return env(name, config, **kwargs)

    def versioned_raw_env(config: Any = None, **kwargs: Any) -> CopaEnv:
        return raw_env(name, config, **kwargs)

    def versioned_parallel_env(config: Any = None, **kwargs: Any) -> CopaParallelEnv:
        return parallel_env(name, config, **kwargs)

    module.env = versioned_env  # type: ignore[attr-defined]
    module.raw_env = versioned_raw_env  # type: ignore[attr-defined]
    module.parallel_env = versioned_parallel_env  # type: ignore[attr-defined]
    module.__all__ = ["env", "parallel_env", "raw_env"]  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    return module


kala_v0 = _versioned("kala")
ronda_v0 = _versioned("ronda")
hopper_v0 = _versioned("hopper")
da_capo_v0 = _versioned("da_capo")
kopa_v0 = _versioned("kopa")
copas_v0 = _versioned("copas")
