"""Memory stays flat over long runs: environment steps, and MCTS decisions with their clones.

Each measurement runs in a fresh process: a warm-up first (caches, the allocator's pools), then the same work
again many times over; the resident memory may grow by a few MB at most from the end of the warm-up to the end.
A leak of even one small object per step (an event list kept, a clone held) would show as tens of MB.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

GROWTH_LIMIT_MB = 6.0

_ENV = """
import resource
import numpy as np
from contack_env import contack_v0

def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20

env = contack_v0.env(num_players=4)
rng = np.random.default_rng(0)
def run(steps, seed):
    env.reset(seed=seed)
    for _ in range(steps):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                seed += 1
                env.reset(seed=seed)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seed

seed = run(30_000, 0)
before = rss_mb()
run(STEPS, seed)
print(rss_mb() - before)
"""

_MCTS = """
import resource
import numpy as np
from agents.arena import play_game
from agents.mcts import MCTSAgent
from contack_env import new_game

def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20

def run(games, seed):
    for g in range(games):
        play_game(new_game(2, num_hands=1, seed=seed + g), [MCTSAgent(40, seed=g), MCTSAgent(40, seed=g + 1)])

run(3, 0)
before = rss_mb()
run(GAMES, 100)
print(rss_mb() - before)
"""


def _growth(code: str) -> float:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return float(done.stdout.strip().splitlines()[-1])


def test_memory_is_flat_over_many_environment_steps():
    growth = _growth(_ENV.replace("STEPS", "150_000"))
    assert growth < GROWTH_LIMIT_MB, f"resident memory grew {growth:.1f} MB over 150,000 steps"


def test_memory_is_flat_over_many_mcts_decisions():
    # About 40 decisions a game, 40 iterations each with a determinized clone: some 50,000 search steps.
    growth = _growth(_MCTS.replace("GAMES", "30"))
    assert growth < GROWTH_LIMIT_MB, f"resident memory grew {growth:.1f} MB over 30 games of mcts"
