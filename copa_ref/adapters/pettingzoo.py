"""Every game of the reference as a PettingZoo AEC environment.

::

    import random
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
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # untyped third-party package

from copa_ref.adapters import action_space as game_action_space
from copa_ref.core import Game
from copa_ref.core.types import MoverKind, Outcome, Seat

__all__ = ["OBSERVATION_BYTES", "CopaEnv", "decode_observation", "env", "rewards_of"]

OBSERVATION_BYTES = 4096
"""The default length of the observation vector: the longest canonical JSON observation of
any registered game, with room to spare (a longer one raises ``ValueError``)."""


def decode_observation(vector: Any) -> str:
    """The JSON text an observation vector carries."""
    return bytes(np.asarray(vector, dtype=np.uint8)).rstrip(b"\0").decode("utf-8")


def rewards_of(outcome: Outcome, players: int) -> tuple[float, ...]:
    """+1 for each winner, -1 for each loser the outcome names, 0 for the other seats."""
    return tuple(1.0 if s in outcome.winners else -1.0 if s in outcome.losers else 0.0
                 for s in range(players))


def env(game: Game[Any, Any, Any, Any], config: Any = None, **kwargs: Any) -> CopaEnv:
    """A new environment for *game* under *config* (default: the default reading)."""
    return CopaEnv(game, config, **kwargs)


class CopaEnv(AECEnv):  # type: ignore[misc]  # AECEnv is untyped
    """One game of the reference as an AEC environment (see the module text)."""

    def __init__(self, game: Game[Any, Any, Any, Any], config: Any = None, *,
                 render_mode: str | None = None,
                 observation_bytes: int = OBSERVATION_BYTES) -> None:
        super().__init__()
        self.game = game
        self.config = game.default_config() if config is None else config
        self.render_mode = render_mode
        self.metadata = {"name": f"copa_ref_{game.name}_v0", "render_modes": ["ansi", "human"],
                         "is_parallelizable": False}
        self.actions: tuple[Any, ...] = game_action_space(game, self.config)
        self.index: dict[Any, int] = {a: i for i, a in enumerate(self.actions)}
        self.players = game.num_players(self.config)
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self._bytes = observation_bytes
        self.action_spaces = {a: gymnasium.spaces.Discrete(len(self.actions))
                              for a in self.possible_agents}
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 255, (observation_bytes,), np.uint8),
            "action_mask": gymnasium.spaces.Box(0, 1, (len(self.actions),), np.int8),
        }) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: Any = game.new_game(self.config)
        self._parts: list[Any] = []

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # -- the game ------------------------------------------------------------------------

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _acting_seat(self) -> int | None:
        """The seat to choose now (``None`` when the game is over)."""
        game, state = self.game, self.state
        mover = game.to_move(state)
        if mover.kind is MoverKind.JOINT:
            return int(mover.seats[len(self._parts)])
        if mover.kind is MoverKind.ANY:
            able = [s for s in mover.seats if game.legal_actions(state, Seat(s))]
            return int(able[0] if able else mover.seats[0])
        if mover.kind is MoverKind.SEAT:
            return int(mover.seats[0])
        return None

    def _legal(self, seat: int) -> tuple[Any, ...]:
        mover = self.game.to_move(self.state)
        if mover.kind is MoverKind.SEAT:
            legal: tuple[Any, ...] = self.game.legal_actions(self.state, None)
            return legal
        return tuple(self.game.legal_actions(self.state, Seat(seat)))

    def _play_chance(self) -> None:
        while self.game.to_move(self.state).kind is MoverKind.CHANCE:
            self.state = self.game.apply(self.state, self.game.sample_chance(self.state,
                                                                             self._rng))

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat(agent)
        text = self.game.dumps(self.game.observe(self.state, Seat(seat))).encode("utf-8")
        if len(text) > self._bytes:
            msg = f"an observation of {len(text)} bytes exceeds observation_bytes={self._bytes}"
            raise ValueError(msg)
        vector = np.zeros(self._bytes, dtype=np.uint8)
        vector[: len(text)] = np.frombuffer(text, dtype=np.uint8)
        mask = np.zeros(len(self.actions), dtype=np.int8)
        if seat == self._acting_seat():
            for action in self._legal(seat):
                mask[self.index[action]] = 1
        return {"observation": vector, "action_mask": mask}

    # -- the AEC protocol ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(seed)
        self.state = self.game.new_game(self.config)
        self._parts = []
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._play_chance()
        self._select()

    def _select(self) -> None:
        seat = self._acting_seat()
        if seat is None:
            outcome = self.game.outcome(self.state)
            rewards = rewards_of(outcome, self.players) if outcome else (0.0,) * self.players
            for s, agent in enumerate(self.possible_agents):
                self.rewards[agent] = rewards[s]
                self.terminations[agent] = True
            return
        self.agent_selection = self.possible_agents[seat]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        chosen = self.actions[int(action)]
        if chosen not in self._legal(seat):
            msg = f"{self.game.title}: action {int(action)} ({self.game.dumps(chosen)}) " \
                  f"is not legal for {agent}"
            raise ValueError(msg)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        mover = self.game.to_move(self.state)
        if mover.kind is MoverKind.JOINT:
            self._parts.append(chosen)
            if len(self._parts) < len(mover.seats):
                self.agent_selection = self.possible_agents[int(mover.seats[len(self._parts)])]
                return
            assert self.game.joint is not None
            chosen = self.game.joint(self.state, tuple(self._parts))
            self._parts = []
        self.state = self.game.apply(self.state, chosen)
        self._play_chance()
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode")
            return None
        text = self.game.render(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds only immutable values."""
