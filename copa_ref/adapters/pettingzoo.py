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
know. ``state()`` is every seat's observation tensor, one after another (what the seats see
between them: a centralised critic's input). Chance actions are sampled inside the
environment from its generator, seeded by ``reset(seed=...)``. The returns are
:func:`~copa_ref.adapters.returns_scheme`'s (the docs give them per game).
"""

from __future__ import annotations

import random
import sys
import types
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]  # untyped package
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from copa_ref.adapters import action_space as game_action_space
from copa_ref.adapters import default_truncation, returns_scheme
from copa_ref.adapters.tensors import ActionIds, Encoder, LegalIds, encoder
from copa_ref.core import Game
from copa_ref.core.entry import CHECKED
from copa_ref.core.types import MoverKind, Seat

__all__ = [
    "VERSION",
    "CopaEnv",
    "CopaParallelEnv",
    "GameTable",
    "env",
    "parallel_env",
    "raw_env",
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
        illegal_reward: float = -1.0, **kwargs: Any) -> Any:
    """The AEC environment for *game* wrapped as PettingZoo's classic environments are: an
    illegal action ends the game with *illegal_reward* for its agent and 0 for the others
    (``TerminateIllegalWrapper``), an action outside the space is an assertion error
    (``AssertOutOfBoundsWrapper``), a call out of order a clear error
    (``OrderEnforcingWrapper``)."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(game, config, **kwargs),
                                               illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(game: Game[Any, Any, Any, Any] | str, config: Any = None,
                 **kwargs: Any) -> CopaParallelEnv:
    """A new parallel environment for *game* under *config* (see :class:`CopaParallelEnv`)."""
    return CopaParallelEnv(_game(game), config, **kwargs)


class GameTable:
    """What both environments share: the game they play, its state, who acts, what is
    legal, the seats' memories, chance (sampled from the environment's own generator), the
    truncation. Pickled by the game's name (a ``Game`` record holds closures)."""

    def __init__(self, game: Game[Any, Any, Any, Any], config: Any, max_steps: Any,
                 observation: str, render_mode: str | None) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            msg = (f"render_mode {render_mode!r} is not supported: use 'ansi' (the text "
                   "picture as a string) or 'human' (printed); the games draw SVG pictures "
                   "(Game.svg), not pixel arrays")
            raise ValueError(msg)
        if observation not in OBSERVATIONS:
            msg = f"observation must be one of {OBSERVATIONS}, not {observation!r}"
            raise ValueError(msg)
        self.game = game
        self.render_mode = render_mode
        self.config = game.default_config() if config is None else config
        self.coder: Encoder = encoder(game, self.config)
        self.players = game.num_players(self.config)
        self.ids = ActionIds(game_action_space(game, self.config), self.players, self.coder)
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        self.max_steps: int | None = (default_truncation(game) if max_steps is DEFAULT
                                      else max_steps)
        self.scheme = returns_scheme(game, self.config, False, 0)
        self.observation_kind = observation
        self.information = observation == "information_state" and (
            self.coder.information is not None)
        layout = self.coder.information if self.information else self.coder.observation
        assert layout is not None
        self.observation_size = layout.size
        self._rng = random.Random()
        self._inner()
        self.game_state: Any = game.new_game(self.config)
        """The reference's own state (``game.outcome(env.game_state)``, ``game.svg``)."""
        self._set_state(self.game_state)
        self.steps = 0
        self._memories: list[Any] = [None] * self.players

    def _inner(self) -> None:
        """The game's inner functions, for the states the game built and the actions it
        listed for them (as the generic loop calls them)."""
        inner = self.game.inner()
        self._to_move_of, self._legal_of = inner.to_move, inner.legal_actions
        self._apply_of, self._joint_of = inner.apply, inner.joint
        self._trusted = self.game.trusted is not None

    def __getstate__(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["game"] = self.game.name
        for name in ("_to_move_of", "_legal_of", "_apply_of", "_joint_of"):
            del data[name]
        data["_views"] = data["_mover"] = data["_acting"] = data["_entries"] = None
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
            self._rng = random.Random(seed)
        self._set_state(self.game.new_game(self.config))
        self._memories = [None] * self.players
        self.steps = 0
        self._play_chance()

    def _set_state(self, state: Any) -> None:
        """Make *state* the current one; what is known of it (who moves, the seats' views
        and legal ids) is worked out when first asked for, once."""
        self.game_state = state
        self._views: dict[int, Any] | None = None
        self._mover: Any = None
        self._acting: tuple[int, ...] | None = None
        self._entries: dict[int, LegalIds] | None = None

    def _view(self, seat: int) -> Any:
        views = self._views
        if views is None:
            views = self._views = {}
        view = views.get(seat)
        if view is None:
            view = views[seat] = self.game.observe(self.game_state, Seat(seat))
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
            else:
                found = ()
            self._acting = found
        return found

    def _entry(self, seat: int) -> LegalIds:
        """*seat*'s legal actions now, by id (a seat to choose now)."""
        entries = self._entries
        if entries is None:
            entries = self._entries = {}
        entry = entries.get(seat)
        if entry is None:
            which = None if self._to_move().kind is _SEAT else Seat(seat)
            entry = entries[seat] = self.ids.legal(self._legal_of(self.game_state, which))
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
        out = np.zeros(self.observation_size, np.float32)
        if self.information:
            self.coder.encode_information(self._view(seat), self._memories[seat], seat, out)
        else:
            self.coder.encode(self._view(seat), seat, out)
        return out

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
            if self._trusted:  # built by the rules from a checked state: valid already
                object.__setattr__(after, CHECKED, True)
        else:
            after = self.game.apply(self.game_state, action)
        self._set_state(after)
        if remembers:
            self._remember(before, public)

    def _play_chance(self) -> None:
        while self._to_move().kind is _CHANCE:
            self._advance(self.game.sample_chance(self.game_state, self._rng), None, True)

    def _check(self, agent: str, number: int) -> Any:
        """The action id *number* stands for when *agent* plays it now (the object the game
        listed as legal).

        :raises ValueError: when it is not legal for *agent* now.
        """
        seat = self._seat(agent)
        chosen = (self._entry(seat).by_id.get(number) if seat in self._acting_seats()
                  else None)
        if chosen is None:
            name = self.ids.names[number] if 0 <= number < len(self.ids) else "no such id"
            msg = f"{self.game.title}: action {number} ({name}) is not legal for {agent}"
            raise ValueError(msg)
        return chosen

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
        return self.scheme.returns(self.game, self.game_state, False)

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
    without one) or ``"observation"``.
    """

    def __init__(self, game: Game[Any, Any, Any, Any], config: Any = None, *,
                 render_mode: str | None = None, max_steps: Any = DEFAULT,
                 observation: str = "information_state") -> None:
        AECEnv.__init__(self)
        GameTable.__init__(self, game, config, max_steps, observation, render_mode)
        self.metadata = _metadata(game, False)
        self._spaces(len(self.ids))
        self.action_spaces = self._action_spaces
        self.observation_spaces = self._observation_spaces
        self._parts: list[Any] = []

    def _acting_seat(self) -> int | None:
        """The seat to choose now (``None`` when the game is over or cut short)."""
        seats = self._acting_seats()
        if not seats or self.truncated:
            return None
        return seats[len(self._parts)]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat(agent)
        acting = not (self.terminations[agent] or self.truncations[agent]) and (
            seat == self._acting_seat())
        return {"observation": self._vector(seat),
                "action_mask": self._mask(seat, acting, len(self.ids))}

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

    def _select(self) -> None:
        seat = self._acting_seat()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif self.truncated and self.game.outcome(self.game_state) is None:
            for agent in self.possible_agents:
                self.truncations[agent] = True
        else:
            rewards = self._final_rewards()
            for s, agent in enumerate(self.possible_agents):
                self.rewards[agent] = rewards[s]
                self.terminations[agent] = True

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._check(agent, int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._parts.append(chosen)
        seats = self._acting_seats()
        if len(self._parts) < len(seats):
            self.agent_selection = self.possible_agents[seats[len(self._parts)]]
            return
        parts, self._parts = tuple(self._parts), []
        self._apply(parts)
        self._select()
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
                 observation: str = "information_state") -> None:
        GameTable.__init__(self, game, config, max_steps, observation, render_mode)
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
        acting = self._acting_seats()
        parts = []
        for agent in self.agents:
            seat = self._seat(agent)
            given = actions.get(agent)
            if seat not in acting:
                if given is not None and int(given) != self.no_part:
                    msg = f"{self.game.title}: {agent} has no part to play now"
                    raise ValueError(msg)
                continue
            if given is None or int(given) == self.no_part:
                msg = f"{self.game.title}: {agent} must choose now"
                raise ValueError(msg)
            parts.append(self._check(agent, int(given)))
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
