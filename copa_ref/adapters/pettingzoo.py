"""Every game of the reference as a PettingZoo AEC environment (:func:`env`) and as a
parallel one (:func:`parallel_env`: DA CAPO's bids chosen at once).

::

    from copa_ref.adapters.pettingzoo import env
    from copa_ref.games import get_game

    e = env(get_game("kala"), render_mode="ansi")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        mask = obs["action_mask"]
        e.step(None if terminated or truncated else e.action_space(agent).sample(mask))
    print(e.render())

The agents are ``player_0``, ``player_1``, … (seat ``s`` is ``player_s``). Integer action
``i`` is the ``i``-th action of the game's ``action_space(config)``
(``copa_ref.adapters.action_space``); ``obs["action_mask"]`` marks the legal ones of
the agent to act (all zero for the others). ``obs["observation"]`` is the canonical JSON
text of ``game.observe(state, seat)`` as UTF-8 bytes, zero-padded to a fixed length
(``decode_observation`` turns it back into text). Chance actions are sampled inside the
environment from its generator, seeded by ``reset(seed=...)``. At a joint node (DA CAPO's
bids) the acting seats choose their parts in turn, and the joint action is applied once the
last part is in; no seat sees another's part, as none is in the state before it is applied.
At an any-of node (HOPPER's shoot-out) the lowest listed seat with a legal action acts. At
the end each winner is rewarded +1, each seat the outcome names a loser -1, the others 0.
``max_steps`` truncates every agent after that many steps (an adapter's limit, not a rule;
by default none, but Kopa's :data:`~copa_ref.adapters.TRUNCATED_LENGTH`, as its random
matches need not end).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]  # untyped package

from copa_ref.adapters import OBSERVATION_BYTES, default_truncation, observation_bytes, rewards_of
from copa_ref.adapters import action_space as game_action_space
from copa_ref.core import Game
from copa_ref.core.types import MoverKind, Seat

__all__ = [
    "OBSERVATION_BYTES",
    "CopaEnv",
    "CopaParallelEnv",
    "GameTable",
    "decode_observation",
    "env",
    "parallel_env",
    "rewards_of",
]

DEFAULT = object()
"""``max_steps`` left out: the game's default truncation
(:func:`~copa_ref.adapters.default_truncation`)."""


def decode_observation(vector: Any) -> str:
    """The JSON text an observation vector carries."""
    return bytes(np.asarray(vector, dtype=np.uint8)).rstrip(b"\0").decode("utf-8")


def env(game: Game[Any, Any, Any, Any], config: Any = None, **kwargs: Any) -> CopaEnv:
    """A new AEC environment for *game* under *config* (default: the default reading)."""
    return CopaEnv(game, config, **kwargs)


def parallel_env(game: Game[Any, Any, Any, Any], config: Any = None,
                 **kwargs: Any) -> CopaParallelEnv:
    """A new parallel environment for *game* under *config* (see :class:`CopaParallelEnv`)."""
    return CopaParallelEnv(game, config, **kwargs)


class GameTable:
    """What both environments share: the game they play, its state, who acts, what is
    legal, chance (sampled from the environment's own generator), the truncation."""

    def __init__(self, game: Game[Any, Any, Any, Any], config: Any, observation_bytes: int,
                 max_steps: Any) -> None:
        self.game = game
        self.config = game.default_config() if config is None else config
        self.actions: tuple[Any, ...] = game_action_space(game, self.config)
        self.index: dict[Any, int] = {a: i for i, a in enumerate(self.actions)}
        self.players = game.num_players(self.config)
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self.max_steps: int | None = (default_truncation(game) if max_steps is DEFAULT
                                      else max_steps)
        self._bytes = observation_bytes
        self._rng = random.Random()
        self.state: Any = game.new_game(self.config)
        self.steps = 0
        self._memo: tuple[Any, int, tuple[Any, ...]] | None = None

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _restart(self, seed: int | None) -> None:
        if seed is not None:  # else the generator goes on (Gymnasium's convention)
            self._rng = random.Random(seed)
        self.state = self.game.new_game(self.config)
        self.steps = 0
        self._play_chance()

    @property
    def truncated(self) -> bool:
        """Whether ``max_steps`` cut the game short (an adapter's limit, not a rule)."""
        return self.max_steps is not None and self.steps >= self.max_steps

    def _acting_seats(self) -> tuple[int, ...]:
        """The seats to choose now, in seat order (none when the game is over)."""
        game, state = self.game, self.state
        mover = game.to_move(state)
        if mover.kind is MoverKind.JOINT:
            return tuple(int(s) for s in mover.seats)
        if mover.kind is MoverKind.ANY:
            able = [s for s in mover.seats if game.legal_actions(state, Seat(s))]
            return (int(able[0] if able else mover.seats[0]),)
        if mover.kind is MoverKind.SEAT:
            return (int(mover.seats[0]),)
        return ()

    def _legal(self, seat: int) -> tuple[Any, ...]:
        """*seat*'s legal actions now (kept for the state: the mask, then the step's
        check, ask for them)."""
        memo = self._memo
        if memo is not None and memo[0] is self.state and memo[1] == seat:
            return memo[2]
        mover = self.game.to_move(self.state)
        legal: tuple[Any, ...] = tuple(self.game.legal_actions(
            self.state, None if mover.kind is MoverKind.SEAT else Seat(seat)))
        self._memo = (self.state, seat, legal)
        return legal

    def _mask(self, seat: int, acting: bool, size: int) -> Any:
        mask = np.zeros(size, dtype=np.int8)
        if acting:
            for action in self._legal(seat):
                mask[self.index[action]] = 1
        return mask

    def _vector(self, seat: int) -> Any:
        data = observation_bytes(self.game, self.state, seat, self._bytes)
        return np.frombuffer(data, dtype=np.uint8).copy()

    def _play_chance(self) -> None:
        while self.game.to_move(self.state).kind is MoverKind.CHANCE:
            self.state = self.game.apply(self.state, self.game.sample_chance(self.state,
                                                                             self._rng))

    def _check(self, agent: str, chosen: Any) -> None:
        if chosen not in self._legal(self._seat(agent)):
            msg = f"{self.game.title}: action {self.index.get(chosen)} " \
                  f"({self.game.dumps(chosen)}) is not legal for {agent}"
            raise ValueError(msg)

    def _apply(self, parts: tuple[Any, ...]) -> None:
        """Apply the acting seats' choices (one, or each part of a joint action)."""
        chosen = parts[0]
        if self.game.to_move(self.state).kind is MoverKind.JOINT:
            assert self.game.joint is not None
            chosen = self.game.joint(self.state, parts)
        self.state = self.game.apply(self.state, chosen)
        self.steps += 1
        self._play_chance()

    def _final_rewards(self) -> tuple[float, ...]:
        outcome = self.game.outcome(self.state)
        return rewards_of(outcome, self.players) if outcome else (0.0,) * self.players

    def _render(self, render_mode: str | None) -> str | None:
        if render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode")
            return None
        text = self.game.render(self.state)
        if render_mode == "human":
            print(text)
            return None
        return text


class CopaEnv(GameTable, AECEnv):  # type: ignore[misc]  # AECEnv is untyped
    """One game of the reference as an AEC environment (see the module text).

    ``max_steps``: truncate every agent after this many steps (an adapter's limit, not a
    rule; ``None``: none); left out, the game's default
    (:func:`~copa_ref.adapters.default_truncation`: Kopa's random matches need not end).
    """

    def __init__(self, game: Game[Any, Any, Any, Any], config: Any = None, *,
                 render_mode: str | None = None,
                 observation_bytes: int = OBSERVATION_BYTES, max_steps: Any = DEFAULT) -> None:
        AECEnv.__init__(self)
        GameTable.__init__(self, game, config, observation_bytes, max_steps)
        self.render_mode = render_mode
        self.metadata = {"name": f"copa_ref_{game.name}_v0", "render_modes": ["ansi", "human"],
                         "is_parallelizable": False}
        self.action_spaces = {a: gymnasium.spaces.Discrete(len(self.actions))
                              for a in self.possible_agents}
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 255, (observation_bytes,), np.uint8),
            "action_mask": gymnasium.spaces.Box(0, 1, (len(self.actions),), np.int8),
        }) for a in self.possible_agents}
        self._parts: list[Any] = []

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _acting_seat(self) -> int | None:
        """The seat to choose now (``None`` when the game is over or cut short)."""
        seats = self._acting_seats()
        if not seats or self.truncated:
            return None
        return seats[len(self._parts)]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat(agent)
        return {"observation": self._vector(seat),
                "action_mask": self._mask(seat, seat == self._acting_seat(), len(self.actions))}

    # -- the AEC protocol ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._restart(seed)
        self._parts = []
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self._acting_seat()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif self.truncated and self.game.outcome(self.state) is None:
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
        chosen = self.actions[int(action)]
        self._check(agent, chosen)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
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
        return self._render(self.render_mode)

    def close(self) -> None:
        """Nothing to release: the environment holds only immutable values."""


class CopaParallelEnv(GameTable, ParallelEnv):  # type: ignore[misc]  # ParallelEnv is untyped
    """One game of the reference as a parallel environment: each step, every seat to choose
    chooses at once (all of DA CAPO's bidders; the one mover of a turn-based node).

    The action space has one more action than the game's, ``len(action_space)``, "no
    part": the only legal action of a live agent that does not choose now (its mask marks
    it), which may also be left out of the actions. Observations, rewards, seeding and
    ``max_steps`` (counting parallel steps) are as for :class:`CopaEnv`; every agent
    leaves ``agents`` when the game ends.
    """

    def __init__(self, game: Game[Any, Any, Any, Any], config: Any = None, *,
                 render_mode: str | None = None,
                 observation_bytes: int = OBSERVATION_BYTES, max_steps: Any = DEFAULT) -> None:
        GameTable.__init__(self, game, config, observation_bytes, max_steps)
        self.render_mode = render_mode
        self.metadata = {"name": f"copa_ref_{game.name}_parallel_v0",
                         "render_modes": ["ansi", "human"]}
        self.no_part = len(self.actions)
        self.agents: list[str] = []
        self._action_spaces = {a: gymnasium.spaces.Discrete(self.no_part + 1)
                               for a in self.possible_agents}
        self._observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 255, (observation_bytes,), np.uint8),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.no_part + 1,), np.int8),
        }) for a in self.possible_agents}

    def observation_space(self, agent: str) -> Any:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self._action_spaces[agent]

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
            chosen = self.actions[int(given)]
            self._check(agent, chosen)
            parts.append(chosen)
        self._apply(tuple(parts))
        agents = list(self.agents)
        over = not self._acting_seats()
        final = self._final_rewards() if over else (0.0,) * self.players
        cut = self.truncated and not over
        rewards = {a: final[self._seat(a)] for a in agents}
        terminations = {a: over for a in agents}
        truncations = {a: cut for a in agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        observations = self._observations()
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self._render(self.render_mode)

    def close(self) -> None:
        """Nothing to release: the environment holds only immutable values."""
