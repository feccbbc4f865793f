"""Coexist as a PettingZoo AEC environment (the optional extra `[pettingzoo]`).

    from coexist_ai.pettingzoo import env
    e = env(players=3)
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        mask = obs["action_mask"]
        e.step(None if termination or truncation else e.action_space(agent).sample(mask))

Agents are "player_0".. by seat. An agent's observation is a dict: the
observation tensor of its seat (coexist_ai.tensor, float32 in [0, 1]) and
the action mask over the dense action ids (int8; all zeros unless it is the
agent to move). A seat plays several actions in a row within its turn, so
the same agent is often selected again. Chance (the cards dealt onto the
Mission) is resolved inside the environment by its own generator, seeded by
`reset(seed=...)`; the faunas, unless given, are drawn from it too. A reset
without a seed draws a fresh seed, kept in `env.unwrapped.seed_used`, so any
game can be replayed. `env.unwrapped.position` is the game's engine State
(AECEnv's own `state()` is left alone). The reward is the engine's return
at the end (zero-sum, +1/-1/0 at 2 players), 0 before. `env()` adds
PettingZoo's usual wrappers: an illegal action ends the game with -1 for
its author.
"""
from __future__ import annotations

from typing import Any, cast

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from coexist_ai._engine import State, action_of_id, num_distinct_actions
from coexist_ai.cards import CardSet, resolve_card_set
from coexist_ai.play.render import render_position
from coexist_ai.tensor import ObservationEncoder


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


# pettingzoo has no types: AECEnv is Any to mypy
class raw_env(AECEnv):  # type: ignore[misc]
    """Coexist for 2-4 players (see the module docstring)."""

    metadata: dict[str, Any] = {"name": "coexist_v0", "render_modes": ["ansi"],
                "is_parallelizable": False}

    def __init__(self, players: int = 2, faunas: list[str] | None = None,
                 first_player: int = 0, card_set: CardSet | str | None = None,
                 render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode {render_mode!r}: expected None or 'ansi'")
        self.card_set = resolve_card_set(card_set)
        self.players, self.faunas, self.first_player = players, faunas, first_player
        self.render_mode = render_mode
        self.encoder = ObservationEncoder(self.card_set)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        n = num_distinct_actions(self.card_set)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, self.encoder.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        }) for a in self.possible_agents}
        self.position: State | None = None
        self.seed_used: int | None = None
        self._rng: np.random.Generator | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    @property
    def _game(self) -> State:
        """The position, which reset() makes."""
        assert self.position is not None, "reset() first"
        return self.position

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            if seed is None:
                # a SeedSequence made without entropy draws an int from the OS
                seed = cast(int, np.random.SeedSequence().entropy) % (1 << 63)
            self._rng, _ = seeding.np_random(seed)
            self.seed_used = seed
        fauna_seed = int(self._rng.integers(1 << 63))
        self.position = State.new(self.card_set, self.players, self.faunas,
                               self.first_player, seed=fauna_seed, explicit_chance=True)
        self._deal()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.action_spaces[agent].n, np.int8)
        if agent == self.agent_selection and not self._game.is_over():
            mask[self._game.legal_action_ids()] = 1
        return {"observation": self.encoder.encode(self.position, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to move: step() needs an action, not None")
        self._cumulative_rewards[agent] = 0.0
        self._game.apply(action_of_id(self.card_set, int(action)))
        self._deal()
        if self._game.is_over():
            self.rewards = dict(zip(self.agents, self._game.returns()))
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            self.agent_selection = self._agent_to_move()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text: str = render_position(self._game.observation(self._game.turn_seat))
        return text

    def close(self) -> None:
        pass

    def _deal(self) -> None:
        """Resolve chance nodes (cards revealed onto the Mission) with the
        environment's generator."""
        assert self._rng is not None, "reset() first"
        while self._game.is_chance_node():
            outcomes = self._game.chance_outcomes()
            pick = self._rng.choice(len(outcomes), p=[p for _, p in outcomes])
            self._game.apply(outcomes[pick][0])

    def _agent_to_move(self) -> str:
        return self.possible_agents[self._game.current_player]
