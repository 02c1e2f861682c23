"""What a better value would give the search: an ``az`` model's search with every new leaf valued by the mean
result of ``K`` continuations of the ``lookahead`` bot instead of by the network.

A network's value head knows about half of what a position is worth for the bot's play
(``training.az.value_ceiling``). This experiment asks what the search would gain from one that knew nearly all of
it: each new leaf takes the mean result of ``K`` continuations of the bot's play to the network's horizon, each
from its own draw of the hidden tiles (from the leaf's public view, as ``value_ceiling`` estimates a position's
value), in the place of the network's value; the network still gives the policy, asked for when a simulation
comes back to a leaf (as with ``--rollout 1``). The model plays the tree search (a file whose ``search`` is
``expectimax`` is refused); its simulations, stakes and search settings stay its own::

    python -m training.az.leaf_oracle --model models/contack_4p_az.npz --continuations 32 --games 200 --seed 1

plays that search against ``mcts:200`` (``--opponent``) in every other seat over ``contack evaluate``'s duplicate
games and prints its table; ``--continuations 0`` plays the model as shipped on the same games. The searching
agent is ``az-continuations:PATH:K``, seeded for every game and seat as ``contack evaluate`` seeds ``az:PATH``,
so ``--continuations 0`` gives the same games as ``az:PATH``. The leaf values cost far more than the network's
(``docs/training.md`` has the times and the results).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Sequence

import numpy as np

from agents.az.horizon import Horizon
from agents.az.network import AZNet
from agents.az_agent import AZAgent, file_sims
from agents.evaluate import check_request, evaluate, format_table
from agents.lookahead import LookaheadAgent
from agents.policy_file import PolicyFileError
from agents.registry import check_spec, register, unregister
from contack_env.cli_support import check_seed_range, seed_arg, whole_arg, whole_number_arg
from contack_env.protocol import State

from .value_ceiling import continuations

NAME = "az-continuations"


class ContinuationMean:
    """A leaf's value (``agents.az.search.LeafPlayout``): every seat's mean result over ``count`` continuations of
    the ``lookahead`` bot's play to the horizon, each from its own draw of the hidden tiles."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.judge = LookaheadAgent()

    def __call__(self, state: State, horizon: Horizon, base: object, rng: np.random.Generator) -> list[float]:
        # the simulation's own draw of the hidden tiles is set aside: each continuation draws its own
        results = continuations(state, self.count, horizon, base, rng, self.judge)
        return [float(v) for v in np.mean(results, axis=0)]


def make(arg: str | None, rng: np.random.Generator, game: str) -> Any:
    """``az-continuations:PATH:K`` (``agents.register``'s factory)."""
    path, _, count = (arg or "").rpartition(":")
    if not path or not count.isdigit():
        raise ValueError(f"{NAME} takes PATH:K, K continuations a leaf (0: the network's values); got {arg!r}")
    k = int(count)
    if k == 0:
        return AZAgent(path, seed=rng, game=game)
    return AZAgent(path, seed=rng, game=game, rollout=1.0, leaf_playout=ContinuationMean(k))


MAX_CONTINUATIONS = 10_000
"""The most continuations a leaf: each leaf's value would take minutes past it."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.az.leaf_oracle", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="an az network file for Contack (its players set the table)")
    parser.add_argument("--continuations", type=whole_arg(0, MAX_CONTINUATIONS), required=True,
                        help="the bot's continuations whose mean values a leaf (0: the network's values)")
    parser.add_argument("--opponent", default="mcts:200", help="the agent in every other seat (default mcts:200)")
    parser.add_argument("--games", type=whole_number_arg, default=200, help="games, in whole deals of every seat rotation")
    parser.add_argument("--seed", type=seed_arg, default=1, help="the first deal's seed (default 1)")
    parser.add_argument("--workers", type=whole_number_arg, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    from training.az import leaf_oracle  # the factory under its module's name, which worker processes import

    try:  # before NAME is registered: a list of the agents in its message must not offer it
        check_spec(args.opponent, "contack")
    except ValueError as err:
        parser.error(f"--opponent: {err}")
    register(NAME, leaf_oracle.make, games="contack")
    try:
        try:
            net = AZNet.load(args.model, game="contack")
            file_sims(net, args.model)  # the search takes the file's own: a bad one is the file's failure
            if net.search != "tree":
                raise ValueError(f"{args.model} plays the {net.search} search; the leaf values here are the tree "
                                 f"search's: a copy of the file whose search is tree plays it (models/README.md)")
            players = int(net.meta.get("players", 2))
        except (PolicyFileError, ValueError, OSError) as err:  # the file: a failure, not a usage error
            print(f"leaf_oracle: {err}", file=sys.stderr)
            return 1
        agents = [f"{NAME}:{args.model}:{args.continuations}"] + [args.opponent] * (players - 1)
        try:  # what the command line asks for: usage errors
            check_request("contack", players, agents, args.games, args.workers)
        except ValueError as err:
            parser.error(str(err))
        check_seed_range(parser, "--seed", args.seed, args.games // players, "deals")
        try:
            ev = evaluate(agents, args.games, args.seed, players=players, workers=args.workers)
        except (PolicyFileError, ValueError, OSError) as err:
            print(f"leaf_oracle: {err}", file=sys.stderr)
            return 1
    finally:  # the agent exists for this command only: the process's other users do not see it
        unregister(NAME)
    print(format_table(ev))
    return 0


if __name__ == "__main__":
    sys.exit(main())
