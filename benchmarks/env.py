"""Environment speed: random play through the full PettingZoo AEC API, contack_v0 against connect_four_v3.

    python benchmarks/env.py [--seconds 4] [--rounds 8] [--seed 0]

One loop for every environment, the one a learner's rollout runs: ``agent_iter``, ``last()`` (which builds the
observation and mask), a uniform random choice among the legal actions of the mask with a numpy Generator, then
``step``; terminated agents step ``None``. A *step* is one ``step`` call with an action (the ``None`` steps of
terminated agents at the end of an episode are not counted, but their time is). contack_v0 runs with 2, 4 and
7 players (default options: ``reward="win"``, ``auto_single_moves=False``); PettingZoo's ``connect_four_v3``
(pure Python + numpy; it needs pygame: ``pip install pygame``) is the yardstick, in the same process.

Each environment gets ``--seconds`` of this process's CPU time in all (on an idle machine the same as wall-clock
time; under load from other jobs much steadier), measured in ``--rounds`` slices taken in turn, so that a
change in the machine's load hits every environment alike. Both are measured as ``env()`` builds them (the
line that counts) and, for context, as ``raw_env`` without PettingZoo's wrappers: ``contack_v0.env()`` is its
``raw_env`` behind PettingZoo's stock ``OrderEnforcingWrapper`` (it handles illegal actions itself), connect
four's behind three stock wrappers, so the ``raw_env`` lines compare the environments' own work. Last line:
``contack_steps_per_s=<4 players> connect_four_steps_per_s=<x> ratio=<first/second>``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from typing import Callable

import numpy as np
from pettingzoo import AECEnv

from contack_env import contack_v0


class Measure:
    """Uniform random play over whole episodes of one environment, timed in slices."""

    def __init__(self, make_env: Callable[[], AECEnv], seed: int) -> None:
        self.env = make_env()
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.episodes = 0
        self.steps = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        """Play whole episodes for at least ``seconds``."""
        env = self.env
        rng = self.rng
        steps = 0
        start = time.process_time()
        while True:
            env.reset(seed=self.seed + self.episodes)
            for _agent in env.agent_iter():
                observation, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
            self.episodes += 1
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                self.steps += steps
                self.elapsed += elapsed
                return

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.elapsed


def connect_four_module():
    with warnings.catch_warnings():  # importing the module directly warns that it bypasses the registry
        warnings.simplefilter("ignore")
        from pettingzoo.classic import connect_four_v3
    return connect_four_v3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="CPU time per environment, in all (default 4)")
    parser.add_argument("--rounds", type=int, default=8, help="slices each environment's time is cut into (default 8)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")
    try:
        connect_four = connect_four_module()
    except ImportError as err:
        parser.exit(1, f"benchmarks/env.py: PettingZoo's connect_four_v3 needs pygame ({err}); pip install pygame\n")

    measures = {
        "contack_v0 2 players": Measure(lambda: contack_v0.env(num_players=2), args.seed),
        "contack_v0 4 players": Measure(lambda: contack_v0.env(num_players=4), args.seed),
        "contack_v0 7 players": Measure(lambda: contack_v0.env(num_players=7), args.seed),
        "connect_four_v3": Measure(connect_four.env, args.seed),
        "contack_v0 4 raw_env": Measure(lambda: contack_v0.raw_env(num_players=4), args.seed),
        "connect_four_v3 raw_env": Measure(connect_four.raw_env, args.seed),
    }
    for _ in range(args.rounds):
        for measure in measures.values():
            measure.run(args.seconds / args.rounds)
    for name, measure in measures.items():
        print(f"{name:<24} steps_per_s={measure.steps_per_s:>9.0f}")
    raw = measures["contack_v0 4 raw_env"].steps_per_s / measures["connect_four_v3 raw_env"].steps_per_s
    print(f"raw_env ratio (contack 4 players / connect four) = {raw:.3f}")
    ours = measures["contack_v0 4 players"].steps_per_s
    theirs = measures["connect_four_v3"].steps_per_s
    print(f"contack_steps_per_s={ours:.0f} connect_four_steps_per_s={theirs:.0f} ratio={ours / theirs:.3f}")


if __name__ == "__main__":
    main()
