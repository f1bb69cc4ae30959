"""One seat of a game as a single-agent Gymnasium environment, against fixed opponents: what
single-agent learners (Stable-Baselines3, sb3-contrib's ``MaskablePPO``) train on.

::

    from sb3_contrib import MaskablePPO
    from copa_ref.adapters.training import VersusEnv

    model = MaskablePPO("MlpPolicy", VersusEnv("da_capo", seed=0), seed=0)
    model.learn(5_000)

The observation is the PettingZoo environment's tensor (``obs["observation"]``), the
action space its action ids; ``action_masks()`` gives the legal ones (``MaskablePPO`` asks
for it). The learner's seat alternates between episodes (seat 0 first, unless ``seat`` is
given); the opponents choose uniformly among their legal actions (or by ``opponent``,
a function ``(observation, mask, rng) -> action``). The reward is the learner's return at the
end (:func:`~copa_ref.adapters.returns_scheme`), 0 on the way.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from copa_ref.adapters.pettingzoo import DEFAULT, CopaEnv, raw_env
from copa_ref.core import Game

__all__ = ["Opponent", "VersusEnv", "uniform_opponent"]

Opponent = Callable[[Any, Any, random.Random], int]
"""An opponent's policy: observation tensor, action mask, generator → action id."""


def uniform_opponent(observation: Any, mask: Any, rng: random.Random) -> int:
    """A legal action id, uniformly."""
    return int(rng.choice(np.flatnonzero(mask)))


class VersusEnv(gymnasium.Env[Any, Any]):
    """One seat of *game* against fixed opponents (see the module text)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  # as gymnasium.Env declares it

    def __init__(self, game: Game[Any, Any, Any, Any] | str, config: Any = None, *,
                 seat: int | None = None, opponent: Opponent = uniform_opponent,
                 seed: int | None = None, max_steps: Any = DEFAULT,
                 observation: str = "information_state") -> None:
        self.table: CopaEnv = raw_env(game, config, max_steps=max_steps,
                                      observation=observation, render_mode="ansi")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.opponent = opponent
        self._rng = random.Random(seed)
        self._episodes = 0
        agent = self.table.possible_agents[0]
        self.observation_space = self.table.observation_space(agent)["observation"]
        self.action_space = self.table.action_space(agent)

    @property
    def agent(self) -> str:
        return str(self.table.possible_agents[self.seat])

    def action_masks(self) -> Any:
        """The learner's legal actions now, as booleans."""
        return self.table.observe(self.agent)["action_mask"].astype(bool)

    def _over(self) -> bool:
        return bool(self.table.terminations[self.agent] or self.table.truncations[self.agent])

    def _opponents(self) -> None:
        """Let the opponents move until it is the learner's turn or the game is over."""
        table = self.table
        while not self._over() and table.agent_selection != self.agent:
            obs = table.observe(table.agent_selection)
            table.step(self.opponent(obs["observation"], obs["action_mask"], self._rng))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a new game (seeded by *seed*); play the opponents up to the learner's
        first turn; the learner's observation and an info dict with its action mask."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        if self.fixed_seat is None:
            self.seat = self._episodes % self.table.players
        self._episodes += 1
        self.table.reset(seed=self._rng.randrange(2**31))
        self._opponents()
        return self.table.observe(self.agent)["observation"], {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the learner's *action* (an action id), then the opponents up to its next
        turn: observation, reward, terminated, truncated, info."""
        self.table.step(int(action))
        self._opponents()
        obs = self.table.observe(self.agent)["observation"]
        terminated = bool(self.table.terminations[self.agent])
        truncated = bool(self.table.truncations[self.agent]) and not terminated
        reward = float(self.table._cumulative_rewards[self.agent]) if (
            terminated or truncated) else 0.0
        return obs, reward, terminated, truncated, {}

    def render(self) -> str | None:
        """The table as the PettingZoo env renders it (``render_mode``)."""
        return self.table.render()
