"""CON-TAC-TIX speed: random play through the PettingZoo AEC API, contactix_v0 (7x7 and 11x11) against
connect_four_v3, plus the rules engine alone.

    python benchmarks/contactix.py [--seconds 3] [--rounds 6] [--seed 0]

The environment loop is the one of ``benchmarks/env.py`` (a learner's rollout): ``agent_iter``, ``last()`` (which
builds the observation planes and the mask), a uniform random choice among the legal actions of the mask with a
numpy Generator, ``step``; terminated agents step ``None``. Every environment is built by ``env()``, wrappers and
all. PettingZoo's ``connect_four_v3`` (pure Python + numpy; it needs pygame) is the yardstick, measured in the
same process: each environment gets ``--seconds`` of this process's CPU time in all, in ``--rounds`` slices taken
in turn, so that a change in the machine's load hits all alike.

The engine lines time ``ContactixState`` alone: ``play_code`` of a uniform random legal move until the union-find
sees a chain (what a plain rollout does), and ``random_playout`` (what ``mcts`` does: fill the board at random,
one flood fill at the end). Last line: ``contactix7_games_per_s=<x> contactix11_games_per_s=<y>
connect_four_games_per_s=<z> ratio7=<x/z> ratio11=<y/z>``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from typing import Callable

import numpy as np
from pettingzoo import AECEnv

from contack_env import contactix_v0
from contack_env.contactix.rules import ContactixState


class EnvMeasure:
    """Uniform random play over whole episodes of one environment, timed in slices."""

    def __init__(self, make_env: Callable[[], AECEnv], seed: int) -> None:
        self.env = make_env()
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.games = 0
        self.steps = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        env = self.env
        rng = self.rng
        start = time.process_time()
        while True:
            env.reset(seed=self.seed + self.games)
            for _agent in env.agent_iter():
                observation, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                self.steps += 1
            self.games += 1
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                self.elapsed += elapsed
                return

    @property
    def games_per_s(self) -> float:
        return self.games / self.elapsed

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.elapsed


class EngineMeasure:
    """Random games of the rules engine alone: move by move (``playout=False``) or ``random_playout``."""

    def __init__(self, size: int, playout: bool, seed: int) -> None:
        self.size = size
        self.playout = playout
        self.uniform = np.random.default_rng(seed).random
        self.block: list[float] = []
        self.games = 0
        self.elapsed = 0.0

    def _u(self) -> float:
        if not self.block:
            self.block = self.uniform(4096).tolist()
        return self.block.pop()

    def run(self, seconds: float) -> None:
        u = self._u
        start = time.process_time()
        while True:
            state = ContactixState(self.size)
            if self.playout:
                state.random_playout(u)
            else:
                while not state.done:
                    legal = state.legal_moves()
                    state.play_code(legal[int(u() * len(legal))])
            self.games += 1
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                self.elapsed += elapsed
                return

    @property
    def games_per_s(self) -> float:
        return self.games / self.elapsed


def connect_four_module():
    with warnings.catch_warnings():  # importing the module directly warns that it bypasses the registry
        warnings.simplefilter("ignore")
        from pettingzoo.classic import connect_four_v3
    return connect_four_v3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time per measurement, in all (default 3)")
    parser.add_argument("--rounds", type=int, default=6, help="slices each measurement's time is cut into (default 6)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")
    try:
        connect_four = connect_four_module()
    except ImportError as err:
        parser.exit(1, f"benchmarks/contactix.py: PettingZoo's connect_four_v3 needs pygame ({err}); pip install pygame\n")

    envs = {
        "contactix_v0 7x7": EnvMeasure(lambda: contactix_v0.env(board_size=7), args.seed),
        "contactix_v0 11x11": EnvMeasure(lambda: contactix_v0.env(board_size=11), args.seed),
        "connect_four_v3": EnvMeasure(connect_four.env, args.seed),
    }
    engines = {
        "engine 7x7 move by move": EngineMeasure(7, False, args.seed),
        "engine 11x11 move by move": EngineMeasure(11, False, args.seed),
        "engine 7x7 random_playout": EngineMeasure(7, True, args.seed),
        "engine 11x11 random_playout": EngineMeasure(11, True, args.seed),
    }
    for _ in range(args.rounds):
        for measure in (*envs.values(), *engines.values()):
            measure.run(args.seconds / args.rounds)
    for name, measure in envs.items():
        print(f"{name:<28} games_per_s={measure.games_per_s:>9.1f}  steps_per_s={measure.steps_per_s:>9.0f}")
    for name, measure in engines.items():
        print(f"{name:<28} games_per_s={measure.games_per_s:>9.1f}")
    c7 = envs["contactix_v0 7x7"].games_per_s
    c11 = envs["contactix_v0 11x11"].games_per_s
    c4 = envs["connect_four_v3"].games_per_s
    print(
        f"contactix7_games_per_s={c7:.1f} contactix11_games_per_s={c11:.1f} connect_four_games_per_s={c4:.1f} "
        f"ratio7={c7 / c4:.3f} ratio11={c11 / c4:.3f}"
    )


if __name__ == "__main__":
    main()
