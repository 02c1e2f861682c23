"""Evaluation games per second on this machine: one process, worker processes, and a local Ray cluster.

    python benchmarks/scale.py [--games 240] [--agents mcts:50,greedy] [--seed 0] [--cpus N]

Plays the same duplicate evaluation (``agents.evaluate``) three ways: ``workers=1``, ``workers=N`` processes and
``ray=True`` on a local Ray cluster of N CPUs (default: this machine's cores), and checks that the three give the
same statistics. Wall-clock time, start-up included (spawning the processes, starting the cluster, which takes
seconds: the figures of a short batch show that cost); Ray's start is also reported apart, and
``ray_started_ratio`` compares Ray's games per second once its cluster is up with the worker processes'. Last
line: ``serial_games_per_s=<a> workers_games_per_s=<b> ray_games_per_s=<c> workers_ratio=<b/a> ray_ratio=<c/a>
ray_started_ratio=<d>``.
Needs Ray (the ``[rllib]`` extra).
"""

from __future__ import annotations

import argparse
import os
import time

import ray

from agents import evaluate


def timed(**kwargs) -> tuple[float, dict]:
    start = time.perf_counter()
    ev = evaluate(**kwargs)
    return time.perf_counter() - start, ev.to_json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--agents", default="mcts:50,greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpus", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    common = dict(agents=args.agents.split(","), games=args.games, seed=args.seed)
    serial, a = timed(**common, workers=1)
    pool, b = timed(**common, workers=args.cpus)
    start = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray_start = time.perf_counter() - start
    try:
        on_ray, c = timed(**common, ray=True)
    finally:
        ray.shutdown()
    assert a == b == c, "the three ways gave different statistics"
    started = on_ray
    on_ray += ray_start
    n = args.games
    print(f"{n} games of {args.agents} (seed {args.seed}), {args.cpus} CPUs; identical statistics all three ways")
    print(f"workers=1: {serial:.1f} s   workers={args.cpus}: {pool:.1f} s   ray ({args.cpus} CPUs): {on_ray:.1f} s "
          f"(of which starting the cluster {ray_start:.1f} s)")
    rates = [n / serial, n / pool, n / on_ray]
    print(f"serial_games_per_s={rates[0]:.2f} workers_games_per_s={rates[1]:.2f} ray_games_per_s={rates[2]:.2f} "
          f"workers_ratio={rates[1] / rates[0]:.2f} ray_ratio={rates[2] / rates[0]:.2f} "
          f"ray_started_ratio={pool / started:.2f}")


if __name__ == "__main__":
    main()
