"""Search speed: simulations per second of the ``az`` search and of ``mcts``, against OpenSpiel's C++ ``MCTSBot``
on connect four in the same run; and each shipped ``az`` model's time per decision against ``mcts:200``'s.

    python benchmarks/search.py [--seconds 5] [--positions 100] [--seed 0]

A *simulation* is one descent of the tree with its evaluation: for ``az`` a network evaluation of the new leaf
(or a finished game's result), for ``mcts`` and OpenSpiel a random rollout. The ``az`` expectimax search
(``agents.az.expectimax``, which the heads-up model plays) is measured on the same positions in network
evaluations per second, the unit of its budget, on a line of its own before the last. Both suite searches run on
the same heads-up Contack positions (met in random play, each with at least two legal moves), ``az`` with
``models/contack_2p_az.npz`` (an untrained network of the same shape if the file is absent); OpenSpiel's bot
(``pyspiel.MCTSBot``, random-rollout evaluator, UCT constant 2) searches connect four positions met in random
play in the same way.

Then, for every shipped ``models/*_az.npz``, on positions of its game met in games that ``mcts:200`` plays (so the
ends of games, where the Solitaire No. 2 agent searches exactly, come as often as in play): the mean time per
decision of ``az:PATH`` (its defaults) and of ``mcts:200``, interleaved position by position so that both see the
same load, and their ratio (every shipped default is set so that it is at most 1). Last line:
``az_sims_per_s=<x> mcts_sims_per_s=<y> openspiel_mcts_sims_per_s=<z> ratio=<x / z>``.
"""

from __future__ import annotations

import argparse
import glob
import os
import time
from typing import Any, Callable, Sequence

import numpy as np

from agents.base import Agent
from agents.mcts import MCTSAgent
from agents.policy_file import trained_options
from agents.registry import make_agent
from agents.view import public_view
from contack_env.games import RuleOptions, get_game
from contack_env.protocol import State

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def positions(game: str, players: int, count: int, seed: int, player: Agent | None = None,
              options: RuleOptions | None = None) -> list[State]:
    """``count`` public views with at least two legal moves, met in play from ``seed`` (``game`` under
    ``options``): uniform random moves, or those ``player`` chooses."""
    rng = np.random.default_rng(seed)
    out: list[State] = []
    deal = seed
    spec = get_game(game)
    while len(out) < count:
        state = spec.new_state(deal, players, options, log=False)
        deal += 1
        while not state.done and len(out) < count:
            codes = state.legal_codes()
            if len(codes) > 1 and rng.random() < 0.3:
                out.append(public_view(state))
            if player is None:
                state.play_code(codes[int(rng.integers(len(codes)))])
            else:
                state.play(player.act(public_view(state), state.legal_moves()))
    return out


def az_sims_per_s(path: str | None, views: list[State], seconds: float, seed: int) -> float:
    from agents.az.horizon import horizon_for
    from agents.az.search import Search, drive

    evaluate, mode = _evaluator(path)
    horizon = horizon_for(evaluate.net.horizon, evaluate.net.stakes)
    rng = np.random.default_rng(seed)
    sims = 64

    def search(view: State) -> int:
        drive(Search(sims, rng, mode, horizon=horizon, rollout=evaluate.net.rollout).run(view), evaluate)
        return sims

    return _per_second(views, seconds, search)


def expectimax_evaluations_per_s(path: str | None, views: list[State], seconds: float, seed: int) -> float:
    """Network evaluations per second of the expectimax search on ``views``, with the file's budget (its
    ``sims``; 120, the heads-up model's, for a file without one)."""
    from agents.az.expectimax import Expectimax
    from agents.az.horizon import horizon_for
    from agents.az.search import drive

    evaluate, _ = _evaluator(path)
    horizon = horizon_for(evaluate.net.horizon, evaluate.net.stakes)
    budget = int(evaluate.net.meta.get("sims", 120))
    rng = np.random.default_rng(seed)

    def search(view: State) -> int:
        asked = 0

        def counted(states: list[State]) -> list:
            nonlocal asked
            asked += len(states)
            return evaluate(states)

        drive(Expectimax(budget, rng, horizon).run(view), counted)
        return asked

    return _per_second(views, seconds, search)


def _per_second(items: Sequence[Any], seconds: float, search: Callable[[Any], int]) -> float:
    """What ``search`` counts (simulations, evaluations) per second, over ``items`` in turn and again until
    ``seconds`` have passed."""
    done = 0
    start = time.perf_counter()
    while True:
        for item in items:
            done += search(item)
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return done / elapsed


def _evaluator(path: str | None):
    from agents.az.evaluator import NetEvaluator
    from agents.az.network import AZNet

    if path and os.path.exists(path):
        net = AZNet.load(path, game="contack")
    else:
        import torch

        from agents.az.encoding import Encoder
        from training.az.model import AZModel
        from contack_env.envs.observation import action_feature_index

        torch.manual_seed(0)
        enc = Encoder("contack")
        net = AZModel(enc.obs_size, enc.num_actions, enc.seats, [256, 256], gather=action_feature_index()).export(
            {"game": "contack"})
    return NetEvaluator(net), str(net.meta.get("mode", "gumbel"))


def mcts_sims_per_s(views: list[State], seconds: float, seed: int) -> float:
    iterations = 200
    agent = MCTSAgent(iterations, seed=seed)

    def search(view: State) -> int:
        agent.search(view)
        return iterations

    return _per_second(views, seconds, search)


def openspiel_mcts_sims_per_s(seconds: float, seed: int, count: int = 100) -> float | None:
    """Simulations/s of OpenSpiel's C++ MCTSBot on ``count`` connect four positions met in random play, each with
    at least two legal moves, searched in turn as the suite's searches search theirs (None without pyspiel). A
    fixed set, not games played from the opening: how far into a game the measure gets would change the
    rollouts' lengths, and with them the rate, from run to run."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    rng = np.random.default_rng(seed)
    states: list = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < count:
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.3:
                states.append(state.clone())
            state.apply_action(legal[int(rng.integers(len(legal)))])
    sims = 1000
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, sims, 1000, False, seed, False)

    def search(state: Any) -> int:
        bot.step(state)
        return sims

    return _per_second(states, seconds, search)


def decision_times(path: str, count: int, seed: int) -> tuple[str, int, float, float]:
    """The model's game, its default simulations, and the mean seconds per decision of ``az:PATH`` and of
    ``mcts:200`` on the same positions (taken in turns)."""
    from agents.az.network import AZNet

    net = AZNet.load(path)
    game, players = net.game, int(net.meta.get("players", 2))
    # positions met in mcts:200's own games: random play would rarely reach an endgame, where the az agent of
    # Solitaire No. 2 searches exactly
    views = positions(game, max(players, 1), count, seed, make_agent("mcts:200", seed + 1, game),
                      trained_options(net.meta, path))
    az, mcts = make_agent(f"az:{path}", seed, game), make_agent("mcts:200", seed, game)
    spent = [0.0, 0.0]
    for view in views:
        for i, agent in enumerate((az, mcts)):
            start = time.perf_counter()
            agent.act(view, view.legal_moves())
            spent[i] += time.perf_counter() - start
    return game, az.sims, spent[0] / len(views), spent[1] / len(views)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per measured search (default 5)")
    parser.add_argument("--positions", type=int, default=100, help="positions per model for the decision times")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    views = positions("contack", 2, 30, args.seed)
    for path in sorted(glob.glob(os.path.join(ROOT, "models", "*_az.npz"))):
        game, sims, az_s, mcts_s = decision_times(path, args.positions, args.seed)
        print(f"model={os.path.relpath(path, ROOT)} game={game} sims={sims} az_ms_per_decision={az_s * 1e3:.1f} "
              f"mcts200_ms_per_decision={mcts_s * 1e3:.1f} ratio={az_s / mcts_s:.3f}")
    model = os.path.join(ROOT, "models", "contack_2p_az.npz")
    az = az_sims_per_s(model, views, args.seconds, args.seed)
    print(f"expectimax_evaluations_per_s={expectimax_evaluations_per_s(model, views, args.seconds, args.seed):.0f}")
    mcts = mcts_sims_per_s(views, args.seconds, args.seed)
    spiel = openspiel_mcts_sims_per_s(args.seconds, args.seed)
    if spiel is None:
        print("pyspiel is not installed: pip install -c constraints.txt -e '.[bench]'")
        print(f"az_sims_per_s={az:.0f} mcts_sims_per_s={mcts:.0f} openspiel_mcts_sims_per_s=nan ratio=nan")
        return
    print(f"az_sims_per_s={az:.0f} mcts_sims_per_s={mcts:.0f} openspiel_mcts_sims_per_s={spiel:.0f} ratio={az / spiel:.3f}")


if __name__ == "__main__":
    main()
