"""Training speed: MaskablePPO frames/s on Contack (4 players) against the same learner on connect_four_v3.

    python benchmarks/train.py [--updates 3] [--settings] [--seed 0]

The learner is ``contack train``'s with ``--policy mlp --features none`` (its defaults for Contack add the
factored policy and the ``lookahead`` inputs, measured in ``docs/training.md``): sb3-contrib ``MaskablePPO``,
``MlpPolicy`` with separate 256x256 policy and value networks, 8 environments in a ``DummyVecEnv``, rollouts of 512 steps per environment, 4 epochs of
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
Its line: ``contack_fps=<x> connect_four_fps=<y> ratio=<x/y>``.

Then, where Ray's RLlib is installed (``pip install -c constraints-rllib.txt -e '.[rllib]'``; otherwise a line
says it is skipped), the same comparison for ``contack train --backend rllib``: RLlib's PPO (new API stack, the
action-masking module, separate 256x256 actor and critic, 8 environments, 4096 steps an iteration, 4 epochs of
minibatches of 512, no env runner processes) on ``training.rllib.env.ContackMultiAgentEnv`` (4 players, the
others uniformly random) against RLlib on PettingZoo's ``connect_four_v3`` through RLlib's ``PettingZooEnv``
(both sides one shared module: every step is a decision of the learner). A frame is one env step.
Last line: ``rllib_contack_fps=<x> rllib_connect_four_fps=<y> ratio=<x/y>``.
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
    from stable_baselines3.common.logger import Logger

    venv = cls([make] * N_ENVS)
    model = MaskablePPO("MlpPolicy", venv, seed=seed, device="cpu", verbose=0, **PPO)
    # A logger with no outputs: SB3's default one makes an empty /tmp/SB3-<time> folder on every learn().
    model.set_logger(Logger(folder=None, output_formats=[]))
    return model


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
    print(f"contack_fps={c:.0f} connect_four_fps={f:.0f} ratio={c / f:.3f}", flush=True)
    rllib_line(args.updates, args.seed)


def rllib_algos(seed: int) -> dict[str, Any]:
    """RLlib PPO on Contack (``contack train --backend rllib``'s environment) and on connect_four_v3."""
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    from training.config import TrainConfig
    from training.rllib.module import model_config, ppo_config
    from training.rllib.observations import RLlibObservations

    cfg = TrainConfig.from_dict({"players": 4, "opponents": "random", "features": "none", "seed": seed,
                                 "n_envs": N_ENVS, "n_steps": N_STEPS, "batch_size": 512, "n_epochs": 4})

    def connect_four(config: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pettingzoo.classic import connect_four_v3

            return PettingZooEnv(FlatObservations(connect_four_v3.env()))

    class FlatObservations(RLlibObservations):
        """connect_four_v3's 6x7x2 planes as 84 floats, as the MaskablePPO line sees them (RLlib's default
        module would otherwise want a CNN configuration for that shape)."""

        def observation_space(self, agent: str) -> Any:
            inner = super().observation_space(agent)
            flat = spaces.Box(0.0, 1.0, shape=(84,), dtype=np.float32)
            return spaces.Dict({"observations": flat, "action_mask": inner["action_mask"]})

        def observe(self, agent: str) -> dict[str, np.ndarray]:
            obs = super().observe(agent)
            return {"observations": obs["observations"].reshape(-1), "action_mask": obs["action_mask"]}

    register_env("bench_connect_four", connect_four)
    spec = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model_config(cfg))
    c4 = (ppo_config(cfg, 0).environment("bench_connect_four", disable_env_checking=True)
          .multi_agent(policies={"learner"}, policy_mapping_fn=lambda agent_id, episode, **kw: "learner",
                       policies_to_train=["learner"])
          .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"learner": spec})))
    return {"contack": ppo_config(cfg, 0).build_algo(), "connect_four": c4.build_algo()}


def rllib_fps(algo: Any, lifetime: dict[int, float]) -> float:
    """One RLlib PPO iteration (sample, update); env steps per second of wall-clock time (``lifetime``: the
    env steps each algorithm had sampled before, by ``id``)."""
    start = time.perf_counter()
    steps = algo.train()["env_runners"]["num_env_steps_sampled_lifetime"]
    seconds = time.perf_counter() - start
    done, lifetime[id(algo)] = steps - lifetime.get(id(algo), 0), steps
    return done / seconds


def rllib_line(updates: int, seed: int) -> None:
    try:
        import ray
        import ray.rllib  # noqa: F401
    except ImportError:
        print("rllib: skipped (Ray's RLlib is not installed: pip install -c constraints-rllib.txt -e '.[rllib]')")
        return
    ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        algos = rllib_algos(seed)
        lifetime: dict[int, float] = {}
        for algo in algos.values():
            rllib_fps(algo, lifetime)  # warm-up
        fps: dict[str, list[float]] = {name: [] for name in algos}
        for _ in range(updates):
            for name, algo in algos.items():
                fps[name].append(rllib_fps(algo, lifetime))
        for algo in algos.values():
            algo.stop()
    finally:
        ray.shutdown()
    for name, values in fps.items():
        print(f"{name:13s} RLlib PPO   fps={np.median(values):8.0f}  (per iteration: {', '.join(f'{v:.0f}' for v in values)})")
    c, f = np.median(fps["contack"]), np.median(fps["connect_four"])
    print(f"rllib_contack_fps={c:.0f} rllib_connect_four_fps={f:.0f} ratio={c / f:.3f}")


if __name__ == "__main__":
    main()
