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

import random
import sys
import types
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]  # untyped package
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers.order_enforcing import (  # type: ignore[import-untyped]
    AECOrderEnforcingIterable,
)

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
"""The types of an action the wrapper's usual step looks up at once (one set lookup): an
``int`` and the NumPy integer scalars that cast to the space's ``int64``; any other value
takes the long way, through ``Discrete.contains``."""


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
    (:class:`ClassicWrapper`: their three wrappers' behaviour in one layer): an illegal
    action ends the game with *illegal_reward* for its agent and 0 for the others, an
    action outside the space is an assertion error, a call out of order a clear error."""
    return ClassicWrapper(raw_env(game, config, **kwargs), illegal_reward)


def stacked_env(game: Game[Any, Any, Any, Any] | str, config: Any = None, *,
                illegal_reward: float = -1.0, **kwargs: Any) -> Any:
    """The same as :func:`env` through PettingZoo's own wrapper classes, stacked as the
    classic environments stack them: ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(
    TerminateIllegalWrapper(raw_env, illegal_reward)))`` (several times slower: each
    attribute read passes each layer)."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(game, config, **kwargs),
                                               illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def _forwarded(name: str) -> Any:
    """An attribute of the environment read through the wrapper, refused before ``reset``
    as ``OrderEnforcingWrapper`` refuses it."""

    def read(self: ClassicWrapper) -> Any:
        if not self._has_reset:
            msg = f"{name} cannot be accessed before reset"
            raise AttributeError(msg)
        return getattr(self.env, name)

    def write(self: ClassicWrapper, value: Any) -> None:
        setattr(self.env, name, value)

    return property(read, write, doc=f"The environment's ``{name}``.")


class ClassicWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # untyped
    """What :func:`env` gives: a :class:`CopaEnv` with the behaviour of PettingZoo's three
    classic wrappers in one layer (what :func:`stacked_env` stacks):

    - ``OrderEnforcingWrapper`` (this is one): ``step``, ``observe``, ``state``,
      ``render`` and ``agent_iter`` before ``reset`` are errors and the environment's
      attributes unreadable; a ``step`` with no agent left is a warning; ``agent_iter``
      checks that each agent stepped;
    - ``AssertOutOfBoundsWrapper``: an action outside the action space (``None`` but for a
      finished agent) is an ``AssertionError``;
    - ``TerminateIllegalWrapper``: an action the mask does not mark ends the game, the
      agent gets *illegal_reward*, the others 0, every agent terminated and truncated.

    Stacked, PettingZoo's wrappers cost more than the game itself: every attribute read
    goes through each layer's ``__getattr__``. Here the attributes an agent loop reads are
    properties of one layer, and ``last``/``step``/``observe`` call the environment
    directly; a test plays both side by side and compares every answer.
    """

    agents = _forwarded("agents")
    agent_selection = _forwarded("agent_selection")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    def __init__(self, env: CopaEnv, illegal_reward: float = -1.0) -> None:
        super().__init__(env)
        self._illegal_value = illegal_reward
        self._terminated = False
        """Whether an illegal action ended the game."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._has_reset = True
        self._has_updated = True
        self._terminated = False
        self.env.reset(seed=seed, options=options)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """``OrderEnforcingWrapper``'s agent iterator (it checks that each agent stepped),
        reading the environment directly."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        env = self.env
        if not self._has_reset:
            msg = "agent_selection cannot be accessed before reset"
            raise AttributeError(msg)
        agent = env.agent_selection
        assert agent is not None
        if env._seats[agent] == env._now:  # the agent to choose: live (see CopaEnv._now)
            if not observe:
                found = None
            elif env._whole and not env.information:  # CopaEnv._observation's usual, inline
                found = {"observation": env.coder.observation_tensor(env.game_state, env._now),
                         "action_mask": env._now_entry.mask.copy()}
            else:
                found = env._observation(agent, False)
            return found, env._cumulative_rewards[agent], False, False, env.infos[agent]
        terminated, truncated = env.terminations[agent], env.truncations[agent]
        return (env._observation(agent, terminated or truncated) if observe else None,
                env._cumulative_rewards[agent], terminated, truncated, env.infos[agent])

    def step(self, action: Any) -> None:
        env = self.env
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = env.agent_selection
        entry = env._now_entry  # CopaEnv._chosen, inline
        if (entry is not None and env._seats[agent] == env._now
                and type(action) in _INTEGER_TYPES):
            # the usual step: the agent to choose (live: see CopaEnv._now), an id the mask
            # marks, so in the space (a NumPy integer scalar is looked up as its int: the
            # same hash, equal)
            chosen = entry.by_id.get(action)
            if chosen is not None:
                env._step(agent, chosen)
                return
        done = env.terminations[agent] or env.truncations[agent]
        if done and action is None:  # a finished agent's step: the only action it may take
            env._was_dead_step(None)
            return
        if type(action) is int:  # Discrete.contains for an int, inline
            number, inside = action, 0 <= action < env.action_count
        else:  # any other value: Discrete.contains itself (a NumPy scalar's dtype must
            # cast to the space's: an unsigned 64-bit one does not)
            inside = env.action_space(agent).contains(action)
            number = int(action) if inside else -1
        assert (action is None and done) or inside, "action is not in action space"
        if done:
            if self._terminated:
                env._was_dead_step(action)
            else:
                env.step(action)
            return
        chosen = (entry.by_id.get(number)
                  if entry is not None and env._seats[agent] == env._now else None)
        if chosen is None:  # the mask does not mark it
            EnvLogger.warn_on_illegal_move()
            env._now = env._now_entry = None  # nobody chooses any more
            env._cumulative_rewards[agent] = 0
            env.terminations = dict.fromkeys(env.agents, True)
            env.truncations = dict.fromkeys(env.agents, True)
            env.rewards = dict.fromkeys(env.truncations, 0)
            env.rewards[agent] = float(self._illegal_value)
            env._accumulate_rewards()
            env._deads_step_first()
            self._terminated = True
        else:
            env._step(agent, chosen)

    def __str__(self) -> str:
        return str(self.env)


class _AgentIterable(AECOrderEnforcingIterable):  # type: ignore[misc]  # untyped
    def __iter__(self) -> Iterator[str]:
        return _agents(self.env, self.max_iter)


def _agents(wrapper: ClassicWrapper, max_iter: int) -> Iterator[str]:
    """``OrderEnforcingWrapper``'s agent iterator (``AECOrderEnforcingIterator``: the same
    checks, each before an agent is handed out), reading the environment directly; a
    generator (resumed without a method call)."""
    env = wrapper.env
    while env.agents and max_iter > 0:
        max_iter -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        yield env.agent_selection


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
        self._memo = self.ids._memo
        """The legal ids of the action tuples the game handed out (``ActionIds.legal``;
        not pickled: the ids' own is made anew)."""
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
        for name in ("_to_move_of", "_legal_of", "_apply_of", "_joint_of", "_memo"):
            del data[name]
        data["_mover"] = data["_acting"] = None
        data["_views"], data["_entries"] = {}, {}
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        from copa_ref.games import get_game

        data = dict(data)
        data["game"] = get_game(data["game"])
        self.__dict__.update(data)
        self._memo = self.ids._memo
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
        """Make *state* the current one; what is known of it (who moves, the seats' views
        and legal ids) is worked out when first asked for, once."""
        self.game_state = state
        self._views: dict[int, Any] = {}
        self._mover: Any = None
        self._acting: tuple[int, ...] | None = None
        self._entries: dict[int, LegalIds] | None = {}
        """The seats' legal ids here, each once asked for (``None``: none yet)."""

    def _view(self, seat: int) -> Any:
        if self._whole:
            return self.game_state
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.game.observe(self.game_state, Seat(seat))
        return view

    def _to_move(self) -> Any:
        mover = self._mover
        if mover is None:
            mover = self._mover = self._to_move_of(self.game_state)
        return mover

    @property
    def truncated(self) -> bool:
        """Whether ``max_steps`` cut the game short (an adapter's limit, not a rule)."""
        return self.max_steps is not None and self.steps >= self.max_steps

    def _acting_seats(self) -> tuple[int, ...]:
        """The seats to choose now, in seat order (none when the game is over)."""
        found = self._acting
        if found is None:
            mover = self._to_move()
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
        if entries is None:  # none kept yet (the usual step keeps its one as _now_entry)
            entries = self._entries = {}
        entry = entries.get(seat)
        if entry is None:
            entry = entries[seat] = self.ids.of_seat(
                self._legal_of, self.game_state, self._to_move(), seat)
        return entry

    def _mask(self, seat: int, acting: bool, size: int) -> Any:
        if not acting:
            return np.zeros(size, dtype=np.int8)
        entry = self._entry(seat)
        if size == len(self.ids):
            return entry.mask.copy()
        mask = np.zeros(size, dtype=np.int8)
        mask[entry.ids] = 1
        return mask

    def _vector(self, seat: int) -> Any:
        if self.information:
            return self.coder.information_tensor(self._view(seat), self._memories[seat], seat)
        return self.coder.observation_tensor(self._view(seat), seat)

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
        while self._to_move().kind is _CHANCE:
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
        if type(action) is int:
            if 0 <= action < space.n:
                return action
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
        seat = self._seat(agent)
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
        if len(parts) > 1 or self._to_move().kind is _JOINT:
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
        self._remembers = self.coder.remembers
        """Whether a seat's memory folds over the actions (then a step takes the long way)."""
        self._now: int | None = None
        """The seat to choose now (worked out once a step); ``None`` when nobody does (the
        game is over or cut short, or an illegal action ended it in :class:`ClassicWrapper`).
        So under that wrapper the agent of a seat here is live, neither terminated nor
        truncated: its usual ``step`` and ``last`` read that from it. (PettingZoo's own
        ``TerminateIllegalWrapper`` ends a game by writing the terminations alone; this
        class's own methods read them.)"""
        self._now_entry: LegalIds | None = None
        """Its legal ids."""

    def _acting_seat(self) -> int | None:
        """The seat to choose now (``None`` when the game is over or cut short)."""
        seats = self._acting_seats()
        if not seats or self.truncated:
            return None
        return seats[len(self._parts)]

    def observe(self, agent: str) -> dict[str, Any]:
        """*agent*'s observation; valid for any agent of the game, one that has left
        ``agents`` at the end too (its last view, an empty mask), as the classic
        environments' ``observe`` is (SuperSuit's ``sticky_actions_v0`` and
        ``delay_observations_v0`` observe after the end)."""
        if agent not in self.terminations:
            if agent not in self._seats:
                msg = f"{self.game.title}: no agent {excerpt(agent)} in {self.possible_agents}"
                raise KeyError(msg)
            return self._observation(agent, True)
        return self._observation(agent, self.terminations[agent] or self.truncations[agent])

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``, the agent's terminated and truncated flags read once."""
        agent = self.agent_selection
        assert agent is not None
        terminated, truncated = self.terminations[agent], self.truncations[agent]
        return (self._observation(agent, terminated or truncated) if observe else None,
                self._cumulative_rewards[agent], terminated, truncated, self.infos[agent])

    def _observation(self, agent: str, done: bool) -> dict[str, Any]:
        """*agent*'s observation, *done* whether it is terminated or truncated."""
        seat = self._seats[agent]
        entry = self._now_entry
        if entry is not None and seat == self._now and not done:
            mask = entry.mask.copy()  # a user may write to it
        else:
            mask = np.zeros(self.action_count, dtype=np.int8)
        if self.information:
            return {"observation": self._vector(seat), "action_mask": mask}
        if self._whole:  # the seat's view is the state (see GameTable._whole)
            view = self.game_state
        else:  # the observation tensor of the seat's view, inline
            views = self._views
            view = views.get(seat)
            if view is None:  # a seat number is a Seat (a NewType: no call)
                view = views[seat] = self.game.observe(
                    self.game_state, seat)  # type: ignore[arg-type]
        return {"observation": self.coder.observation_tensor(view, seat), "action_mask": mask}


    # -- the AEC protocol ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._restart(seed)
        self._parts = []
        self.agents = list(self.possible_agents)
        self.rewards = self._zeros = dict.fromkeys(self.agents, 0.0)
        """The rewards of a step while every one is 0 (never written to: replaced)."""
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _choosing(self, seat: int | None) -> None:
        """*seat* chooses next (``None``: nobody, the game is over or cut short): its legal
        ids are worked out now (its mask and its step read them)."""
        self._now = seat
        self._now_entry = None if seat is None else self._entry(seat)

    def _select(self) -> bool:
        """Select the agent to act next, or end the game; return whether it ended with
        rewards (until then every step's rewards are 0)."""
        mover = self._to_move()
        if mover.kind is _SEAT and not self.truncated:  # the usual node, inline
            seat = int(mover.seats[0])
            entry = self.ids.legal(self._legal_of(self.game_state, None))
            self._acting, self._entries = (seat,), {seat: entry}
            self._now, self._now_entry = seat, entry
            self.agent_selection = self.possible_agents[seat]
            return False
        now = self._acting_seat()
        self._choosing(now)
        if now is not None:
            self.agent_selection = self.possible_agents[now]
            return False
        if self.truncated and self.game.outcome(self.game_state) is None:
            for agent in self.possible_agents:
                self.truncations[agent] = True
            self.rewards = dict(self.rewards)  # the dead steps shrink it, not the zeros
            return False
        rewards = self._final_rewards()
        self.rewards = {}  # a new dict: a step's rewards, all 0, are kept as they were
        for s, agent in enumerate(self.possible_agents):
            self.rewards[agent] = rewards[s]
            self.terminations[agent] = True
        return True

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) in _INTEGER_TYPES and 0 <= action < self.action_count:
            number = int(action)  # an int, or a NumPy integer scalar that casts to int64
        else:  # Discrete.contains decides (ValueError for a value it refuses)
            number = self._number(agent, action)
        chosen = self._chosen(agent, number)
        if chosen is None:
            raise ValueError(self._illegal(agent, number))
        self._step(agent, chosen)

    def _chosen(self, agent: str, number: int) -> Any:
        """The action id *number* stands for when *agent* (the agent selected, not done)
        plays it now, or ``None`` when its action mask does not mark it."""
        entry = self._now_entry
        if entry is None or self._seats[agent] != self._now:
            return None
        return entry.by_id.get(number)

    def _step(self, agent: str, chosen: Any) -> None:
        """Step the agent selected with *chosen*, legal for it now."""
        self._cumulative_rewards[agent] = 0.0
        if self.rewards is not self._zeros:  # else every reward is 0 still
            self.rewards = self._zeros = dict.fromkeys(self.agents, 0.0)
        mover = self._mover
        if mover is None:
            mover = self._to_move()
        if mover.kind is _SEAT and not self._remembers:  # (one seat: no joint parts held)
            # the usual node, inline (_advance, _play_chance, _select): one seat chooses,
            # no seat remembers anything
            after = self._apply_of(self.game_state, chosen)
            carry_mark(self.game_state, after)  # built from a checked state: valid
            self.game_state = after  # _set_state, inline
            if not self._whole:  # else no view is kept
                self._views = {}
            steps = self.steps = self.steps + 1
            mover = self._mover = self._to_move_of(after)
            kind = mover.kind
            if kind is _CHANCE:
                self._acting, self._entries = None, {}
                self._play_chance()
                mover = self._mover
                kind = mover.kind
            limit = self.max_steps
            if kind is _SEAT and (limit is None or steps < limit):
                seat = mover.seats[0]  # a Seat is an int (a NewType)
                legal = self._legal_of(self.game_state, None)  # chance may have moved on
                entry = self._memo.get(id(legal))  # ActionIds.legal, inline
                if entry is None:
                    entry = self.ids.legal(legal)
                self._acting = self._entries = None  # worked out when asked for
                self._now, self._now_entry = seat, entry
                self.agent_selection = self.possible_agents[seat]
                return
            self._acting, self._entries = None, {}
        elif not self._parts and mover.kind is not _JOINT:  # the usual node: one seat
            self._advance(chosen, chosen, True)
            self.steps += 1
            self._play_chance()
        else:  # a part of a joint action
            parts = self._parts
            parts.append(chosen)
            seats = self._acting_seats()
            if len(parts) < len(seats):
                self._choosing(seats[len(parts)])
                self.agent_selection = self.possible_agents[seats[len(parts)]]
                return
            self._parts = []
            self._apply(tuple(parts))
        if self._select():  # the rewards of any other step are all 0: nothing to add
            self._accumulate_rewards()

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
        self._apply(tuple(parts))
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
