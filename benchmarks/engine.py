"""Engine speed: random play, decisions/s and games/s, against OpenSpiel's C++ connect_four in the same process.

    python benchmarks/engine.py [--seconds 3] [--seed 0]

A *decision* is one call for a move (``legal_codes()`` then ``play_code``, the protocol's int form of
``legal_moves()`` and ``play`` that the searches use), forced draws and passes included in its cost. Agents are
``agents.RandomAgent`` choosing an index (uniform over legal moves, numpy Generator). The yardstick plays uniform
random connect four through pyspiel (``legal_actions()``, ``apply_action``), choosing with the same kind of
Generator. Last line:
``decisions_per_s=<4 players, random agents> openspiel_connect_four_steps_per_s=<x> ratio=<first/second>``.
"""

from __future__ import annotations

import argparse
import time
from typing import Callable

from agents.random_agent import RandomAgent
from contack_env.contack.multiplayer import new_game
from contack_env.contack.solitaire import new_solitaire1, new_solitaire2
from contack_env.contack.state import GameState


def bench_engine(factory: Callable[[int], GameState], seconds: float, seed: int) -> tuple[float, float]:
    """Decisions/s and games/s of random play, over whole games, for at least ``seconds``."""
    agent = RandomAgent(seed)
    decisions = games = 0
    start = time.perf_counter()
    while True:
        state = factory(seed + games)
        while not state.done:
            codes = state.legal_codes()
            state.play_code(codes[agent.choose_index(len(codes))])
            decisions += 1
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed, games / elapsed


def bench_openspiel_connect_four(seconds: float, seed: int) -> float | None:
    """Steps/s of uniform random connect four in OpenSpiel's C++ engine; None if pyspiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    agent = RandomAgent(seed)
    steps = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[agent.choose_index(len(actions))])
            steps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    figures: dict[str, tuple[float, float]] = {}
    for players in (2, 4, 7):
        figures[f"contack {players} players"] = bench_engine(
            lambda s, p=players: new_game(p, seed=s), args.seconds, args.seed
        )
    figures["solitaire1"] = bench_engine(lambda s: new_solitaire1(seed=s), args.seconds, args.seed)
    figures["solitaire2"] = bench_engine(lambda s: new_solitaire2(seed=s), args.seconds, args.seed)
    for name, (dps, gps) in figures.items():
        print(f"{name:<20} decisions_per_s={dps:>10.0f} games_per_s={gps:>8.1f}")

    c4 = bench_openspiel_connect_four(args.seconds, args.seed)
    ours = figures["contack 4 players"][0]
    if c4 is None:
        print("openspiel connect_four: pyspiel not installed (pip install open-spiel, or '.[bench]')")
        print(f"decisions_per_s={ours:.0f} openspiel_connect_four_steps_per_s=nan ratio=nan")
        return
    print(f"{'openspiel c4 (C++)':<20} steps_per_s={c4:>10.0f}")
    print(f"decisions_per_s={ours:.0f} openspiel_connect_four_steps_per_s={c4:.0f} ratio={ours / c4:.3f}")


if __name__ == "__main__":
    main()
