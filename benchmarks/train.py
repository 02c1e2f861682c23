"""Training speed: MaskablePPO frames/s on Contack (4 players) against the same learner on connect_four_v3.

    python benchmarks/train.py [--updates 3] [--settings] [--seed 0]

The learner is ``contack train``'s: sb3-contrib ``MaskablePPO``, ``MlpPolicy`` with separate 256x256 policy
and value networks, 8 environments in a ``DummyVecEnv``, rollouts of 512 steps per environment, 4 epochs of
minibatches of 512, one torch thread. A *frame* is one learner decision, the unit of ``total_timesteps``.

- Contack: ``training.seat_env.ContackSeatEnv`` with 4 players, the learner in a random seat, the three other
  seats played uniformly at random (observation 787 floats, ``Discrete(105)``).
- Connect four: PettingZoo's ``connect_four_v3`` wrapped as a single-agent ``gymnasium.Env`` the way
  PettingZoo's SB3 action-mask tutorial does (``SB3ActionMaskWrapper``, here subclassing ``gymnasium.Env`` as
  gymnasium 1.x requires), the learner first or second at random, the other player uniformly random
  (observation 84 floats, ``Discrete(7)``).

Both run ``--updates`` full PPO iterations (collect a rollout, update) after one warm-up iteration, in the same
process, alternating, so machine load hits both alike. ``--settings`` first measures the choices
``docs/training.md`` makes for the fast path: torch threads 1 vs 2, on an idle machine and with a second process
keeping one core busy (as a second run or an evaluation does on a 2-core machine), and DummyVecEnv vs
SubprocVecEnv. Needs the bench extras for connect four's pygame: ``pip install -c constraints.txt -e '.[bench]'``.
Last line: ``contack_fps=<x> connect_four_fps=<y> ratio=<x/y>``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from typing import Any, Callable

import gymnasium
import numpy as np
import torch
from gymnasium import spaces

N_ENVS = 8
N_STEPS = 512
PPO = dict(n_steps=N_STEPS, batch_size=512, n_epochs=4, policy_kwargs={"net_arch": {"pi": [256, 256], "vf": [256, 256]}})


class ConnectFourSeat(gymnasium.Env):
    """connect_four_v3 from one side, the other side playing uniformly at random (PettingZoo's SB3 tutorial)."""

    def __init__(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pettingzoo.classic import connect_four_v3

            self.aec = connect_four_v3.env()
        self.observation_space = spaces.Box(0, 1, shape=(84,), dtype=np.float32)
        self.action_space = spaces.Discrete(7)
        self.me = "player_0"

    def _obs(self) -> np.ndarray:
        return self.aec.observe(self.me)["observation"].astype(np.float32).reshape(-1)

    def action_masks(self) -> np.ndarray:
        return self.aec.observe(self.me)["action_mask"].astype(bool)

    def _opponent(self) -> None:
        while self.aec.agents and self.aec.agent_selection != self.me:
            agent = self.aec.agent_selection
            if self.aec.terminations[agent] or self.aec.truncations[agent]:
                return
            mask = self.aec.observe(agent)["action_mask"]
            self.aec.step(int(self.np_random.choice(np.flatnonzero(mask))))

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(2**31)))
        self.me = self.aec.possible_agents[int(self.np_random.integers(2))]
        self._opponent()
        return self._obs(), {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        self.aec.step(int(action))
        self._opponent()
        done = self.aec.terminations[self.me] or self.aec.truncations[self.me]
        return self._obs(), float(self.aec.rewards[self.me]), bool(done), False, {}


def contack_env() -> gymnasium.Env:
    from training.opponents import OpponentPool
    from training.seat_env import ContackSeatEnv

    return ContackSeatEnv(4, OpponentPool({"random": 1}), reward="margin")


def build(make: Callable[[], gymnasium.Env], seed: int, vec: str = "dummy") -> Any:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    cls = SubprocVecEnv if vec == "subproc" else DummyVecEnv
    venv = cls([make] * N_ENVS)
    return MaskablePPO("MlpPolicy", venv, seed=seed, device="cpu", verbose=0, **PPO)


def iteration_fps(model: Any) -> float:
    """One PPO iteration (rollout + update); frames per second of wall-clock time."""
    frames = N_ENVS * N_STEPS
    start = time.perf_counter()
    model.learn(frames, reset_num_timesteps=False)
    return frames / (time.perf_counter() - start)


def _spin(seconds: float) -> None:
    """Keep one core busy, as a second run or an evaluation would on a 2-core machine."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def measure_settings(seed: int) -> None:
    import multiprocessing

    for busy in (False, True):
        for threads in (1, 2):
            torch.set_num_threads(threads)
            model = build(contack_env, seed)
            iteration_fps(model)
            spinner = multiprocessing.get_context("spawn").Process(target=_spin, args=(120.0,), daemon=True)
            if busy:
                spinner.start()
            fps = iteration_fps(model)
            if busy:
                spinner.terminate()
                spinner.join()
            where = "one core busy" if busy else "idle machine "
            print(f"contack 4p  torch_threads={threads} DummyVecEnv   {where} fps={fps:8.0f}", flush=True)
    torch.set_num_threads(1)
    model = build(contack_env, seed, "subproc")
    iteration_fps(model)
    print(f"contack 4p  torch_threads=1 SubprocVecEnv idle machine  fps={iteration_fps(model):8.0f}", flush=True)
    model.get_env().close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--updates", type=int, default=3, help="PPO iterations measured per environment (default 3)")
    parser.add_argument("--settings", action="store_true", help="also measure torch threads and vec env kinds")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.settings:
        measure_settings(args.seed)
        torch.set_num_threads(1)
    models = {"contack": build(contack_env, args.seed), "connect_four": build(ConnectFourSeat, args.seed)}
    for model in models.values():
        iteration_fps(model)  # warm-up
    fps: dict[str, list[float]] = {name: [] for name in models}
    for _ in range(args.updates):
        for name, model in models.items():
            fps[name].append(iteration_fps(model))
    for name, values in fps.items():
        print(f"{name:13s} MaskablePPO fps={np.median(values):8.0f}  (per iteration: {', '.join(f'{v:.0f}' for v in values)})")
    c, f = np.median(fps["contack"]), np.median(fps["connect_four"])
    print(f"contack_fps={c:.0f} connect_four_fps={f:.0f} ratio={c / f:.3f}")


if __name__ == "__main__":
    main()
