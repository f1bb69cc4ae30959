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
a function ``(observation, mask, rng) -> action``; one with a ``start_episode(rng)``
method, as :class:`OpponentPool`, is told when each episode starts). The reward is the
learner's return at the end (:func:`~copa_ref.adapters.returns_scheme`), 0 on the way.

Beside it: :func:`sb3_vec_env`, SuperSuit's vector environment as a Stable-Baselines3
``VecEnv`` with action masks; :func:`rllib_env`, the AEC environment as RLlib's
``PettingZooEnv`` with the observation its action-masking module reads; :func:`snapshot`
and :class:`OpponentPool`, frozen copies of a learner as opponents (self-play); and
:func:`evaluate`, a policy's mean return and wins against an opponent. The learning
libraries are imported only by the functions that need them (``pip install
'copa-ref[train]'``; RLlib: ``'copa-ref[rllib]'``); docs/adapters/training.md has the recipes.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import attrs
import gymnasium
import numpy as np
from pettingzoo.utils.wrappers import BaseWrapper  # type: ignore[import-untyped]  # untyped

from copa_ref.adapters.pettingzoo import DEFAULT, CopaEnv, env, raw_env
from copa_ref.core import Game

__all__ = ["Opponent", "OpponentPool", "RLlibObservation", "Score", "VersusEnv", "evaluate",
           "rllib_env", "sb3_vec_env", "snapshot", "uniform_opponent"]

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
        start = getattr(self.opponent, "start_episode", None)
        if start is not None:  # an OpponentPool draws this episode's opponent
            start(self._rng)
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
        reward = self.returns()[self.agent] if terminated or truncated else 0.0
        return obs, reward, terminated, truncated, {}

    def returns(self) -> dict[str, float]:
        """Every agent's return so far in this episode (at its end, the game's returns)."""
        return {agent: float(value)
                for agent, value in self.table._cumulative_rewards.items()}

    def render(self) -> str | None:
        """The table as the PettingZoo env renders it (``render_mode``)."""
        return self.table.render()


def snapshot(model: Any, *, deterministic: bool = False) -> Opponent:
    """A frozen copy of a Stable-Baselines3 model's policy (``MaskablePPO``), as an opponent:
    later training of *model* does not change it. It samples its action from the policy's
    masked distribution (the most likely legal action if *deterministic*). A policy trained
    on a parallel environment (:func:`sb3_vec_env`) plays the AEC game too: its extra
    ``no_part`` id is never legal there."""
    live = model.policy  # rebuilt from its parameters (its tensors do not deep-copy)
    policy = type(live)(**live._get_constructor_parameters())
    policy.load_state_dict(live.state_dict())
    policy.set_training_mode(False)
    size = int(policy.action_space.n)

    def act(observation: Any, mask: Any, rng: random.Random) -> int:
        legal = np.zeros(size, dtype=bool)  # a parallel env's policy has one id more: no_part
        legal[:len(mask)] = np.asarray(mask, dtype=bool)
        action, _ = policy.predict(observation, action_masks=legal,
                                   deterministic=deterministic)
        return int(action)

    return act


@attrs.define
class OpponentPool:
    """Opponents of which one plays each episode, drawn uniformly when it starts
    (:class:`VersusEnv` calls :meth:`start_episode`): self-play against a learner's
    snapshots, the uniform player kept among them."""

    opponents: list[Opponent] = attrs.field(factory=lambda: [uniform_opponent])
    current: Opponent = uniform_opponent

    def add(self, opponent: Opponent) -> None:
        """One more opponent to draw from (a new :func:`snapshot`)."""
        self.opponents.append(opponent)

    def start_episode(self, rng: random.Random) -> None:
        """Draw the opponent of the episode that starts."""
        self.current = rng.choice(self.opponents)

    def __call__(self, observation: Any, mask: Any, rng: random.Random) -> int:
        return self.current(observation, mask, rng)


@attrs.frozen
class Score:
    """A policy's results over some episodes: its mean return and its share of wins (a
    return above every other seat's)."""

    episodes: int
    mean_return: float
    wins: float


def evaluate(policy: Opponent | Any, game: Game[Any, Any, Any, Any] | str, episodes: int, *,
             opponent: Opponent = uniform_opponent, config: Any = None,
             seed: int = 0) -> Score:
    """Play *policy* (an :data:`Opponent` function, or a Stable-Baselines3 model, played
    deterministically) against *opponent* in every other seat for *episodes* seeded games,
    its seat alternating."""
    if not callable(policy):
        policy = snapshot(policy, deterministic=True)
    versus = VersusEnv(game, config, opponent=opponent, seed=seed)
    rng = random.Random(seed)
    total, wins = 0.0, 0
    for _ in range(episodes):
        obs, _ = versus.reset()
        done = False
        while not done:
            obs, _, terminated, truncated, _ = versus.step(
                policy(obs, versus.action_masks(), rng))
            done = terminated or truncated
        returns = versus.returns()
        mine = returns.pop(versus.agent)
        total += mine
        wins += all(mine > other for other in returns.values())
    return Score(episodes, total / episodes, wins / episodes)


def sb3_vec_env(vector: Any) -> Any:
    """SuperSuit's vector environment (``concat_vec_envs_v1(...,
    base_class="gymnasium")`` over ``pettingzoo_env_to_vec_env_v1(parallel_env(...))``) as a
    Stable-Baselines3 ``VecEnv``: each agent of each copy is one of its environments, all
    played by the one policy being trained. The policy sees the observation tensor; the
    legal actions come from ``action_masks()`` (``env_method("action_masks")``, which
    ``MaskablePPO`` asks for). ``seed(s)`` seeds the next ``reset``, as Stable-Baselines3's
    own vector environments do (SuperSuit's ``base_class="stable_baselines3"`` has no
    ``seed``). A parallel environment's agent that does not choose now has ``no_part`` as
    its only legal action."""
    base: Any = importlib.import_module("stable_baselines3.common.vec_env").VecEnv  # train extra

    class MaskedVecEnv(base):  # type: ignore[misc]  # imported by name: Any
        """A SuperSuit vector environment for Stable-Baselines3, with action masks."""

        def __init__(self, venv: Any) -> None:
            super().__init__(venv.num_envs, venv.observation_space["observation"],
                             venv.action_space)
            self.venv = venv
            self.masks = np.ones((venv.num_envs, venv.action_space.n), dtype=bool)
            self._actions: Any = None

        def _split(self, obs: Any) -> Any:
            self.masks = np.asarray(obs["action_mask"], dtype=bool)
            return obs["observation"]

        def reset(self) -> Any:
            seed = self._seeds[0]
            obs, infos = self.venv.reset(seed=seed)
            self._reset_seeds()
            self.reset_infos = list(infos)
            return self._split(obs)

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = actions

        def step_wait(self) -> Any:
            obs, rewards, terminations, truncations, infos = self.venv.step(self._actions)
            infos = [dict(info) for info in infos]
            for info, truncated in zip(infos, truncations, strict=True):
                if "terminal_observation" in info:
                    info["terminal_observation"] = info["terminal_observation"]["observation"]
                info["TimeLimit.truncated"] = bool(truncated)
            dones = np.logical_or(terminations, truncations)
            return self._split(obs), np.asarray(rewards, dtype=np.float32), dones, infos

        def close(self) -> None:
            self.venv.close()

        def action_masks(self) -> Any:
            """Each environment's legal actions now, as booleans."""
            return self.masks

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            if attr_name == "action_masks":
                return [lambda i=i: self.masks[i] for i in self._get_indices(indices)]
            if attr_name == "render_mode":
                return [None for _ in self._get_indices(indices)]
            raise AttributeError(attr_name)

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            raise AttributeError(attr_name)

        def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                       **method_kwargs: Any) -> list[Any]:
            return [method(*method_args, **method_kwargs)
                    for method in self.get_attr(method_name, indices)]

        def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
            return [False for _ in self._get_indices(indices)]

    return MaskedVecEnv(vector)


class RLlibObservation(BaseWrapper):  # type: ignore[misc]  # BaseWrapper is untyped
    """An AEC environment whose observation is what RLlib's action-masking module reads:
    ``{"observations": tensor, "action_mask": float32 mask}`` (RLlib's default encoders have
    none for this adapter's ``{"observation", "action_mask"}`` with an ``int8`` mask)."""

    def __init__(self, inner: Any) -> None:  # an AECEnv of this adapter's
        super().__init__(inner)
        spaces = gymnasium.spaces
        self._spaces: dict[str, gymnasium.spaces.Dict] = {}
        for agent in inner.possible_agents:
            space = inner.observation_space(agent)
            mask = space["action_mask"]
            self._spaces[agent] = spaces.Dict({
                "observations": space["observation"],
                "action_mask": spaces.Box(0.0, 1.0, mask.shape, dtype=np.float32)})

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._spaces[agent]

    def observe(self, agent: str) -> Any:
        obs = self.env.observe(agent)
        return {"observations": obs["observation"],
                "action_mask": np.asarray(obs["action_mask"], dtype=np.float32)}


def rllib_env(game: Game[Any, Any, Any, Any] | str, config: Any = None,
              **kwargs: Any) -> Any:
    """*game* (``env(game, config, **kwargs)``) as RLlib's ``PettingZooEnv`` multi-agent
    environment, observed through :class:`RLlibObservation`, for a PPO with RLlib's
    ``ActionMaskingTorchRLModule`` (examples/rllib_kala.py)."""
    wrappers = importlib.import_module("ray.rllib.env.wrappers.pettingzoo_env")  # rllib extra
    return wrappers.PettingZooEnv(RLlibObservation(env(game, config, **kwargs)))
