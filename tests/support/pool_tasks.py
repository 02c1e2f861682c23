"""Tasks for tests of worker processes (``agents.worker_pool``): module-level, so that a spawned worker imports
them from here (``tests/conftest.py`` puts this folder on ``sys.path``, which spawned workers inherit)."""

from __future__ import annotations

import os
import signal
import time


def square(x: int) -> int:
    return x * x


def die_at(x: int) -> int:
    """``x``, except that the worker given 3 is killed, as the system kills a process when memory runs out."""
    if x == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.05)
    return x


def sleep_long(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def pid_and_sigint(_: object) -> tuple[int, bool]:
    return os.getpid(), signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def fails_at_step():
    """A one-number environment whose ``step`` raises: a subprocess worker that stops with an error of its own."""
    import gymnasium
    import numpy as np

    class FailsAtStep(gymnasium.Env):
        observation_space = gymnasium.spaces.Box(0.0, 1.0, (1,))
        action_space = gymnasium.spaces.Discrete(2)

        def reset(self, *, seed=None, options=None):
            return np.zeros(1, dtype=np.float32), {}

        def step(self, action):
            raise ValueError("this environment fails")

    return FailsAtStep()


def large_result(megabytes: int) -> bytes:
    """A result that takes the worker a while to send back: a worker ended then leaves half a message."""
    return b"x" * (megabytes << 20)


def interrupted_while_starting(cfg, rank):
    """``training.train.make_env``, after a Ctrl-C that reached this subprocess environment's worker first:
    before ``make_env`` could ignore it, as one from the terminal can while the workers start."""
    os.kill(os.getpid(), signal.SIGINT)
    from training.train import make_env

    return make_env(cfg, rank)


def exit_0_if_sigint_blocked() -> None:
    """A process's exit status 0 if it began with SIGINT blocked, 1 if not."""
    import sys

    sys.exit(0 if signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []) else 1)
