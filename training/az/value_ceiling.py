"""How much of a Contack position's value does a network's value head know? A measure against the bot's play.

A value target in training is one game's result, the luck of the pile in it, so a value loss alone cannot say how
far a network is from what it could know. This measure estimates, for positions of the ``lookahead`` bot's
games, the value of each position itself: the mean result of ``playouts`` continuations of the bot's play to
the network's horizon (``agents.az.horizon``), each from its own draw of the hidden tiles
(``agents.view.determinize``, from the public view: the real order is never read). Every network is compared with
that estimate and with one more continuation from the real state (the result a training target would have
been)::

    python -m training.az.value_ceiling --models models/contack_2p_az.npz --players 2 --positions 4000

prints, for a constant guess (the mean result), each network, and the playouts' mean itself:

- ``loss``: binary cross-entropy against the real continuation's result (what training minimises; the
  playouts' row is about the lowest any network could reach for the bot's play);
- ``corr result`` and ``corr playouts``: the correlation with that result, and with the playouts' mean;
- ``explained``: the share of the variance of the positions' values that the network accounts for,
  ``1 - (E[(v - m)^2] - s) / (Var(m) - s)``, with ``m`` the playouts' mean and ``s`` the mean variance of that
  mean (``Var(one playout) / playouts``), which both terms would otherwise count as the network's error.

The positions: each is a game dealt from the seed and played by the bot (a share ``explore`` of its moves at random,
as pretraining plays) to a decision drawn uniformly among the game's decisions with a choice. The continuations
are the bot's own play (the first of its best moves), so the value measured is the value under the bot's play,
not under the search's. Values are the seat to move's. Every random choice flows from ``--seed``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from agents.az.encoding import Encoder
from agents.az.horizon import Horizon, horizon_for
from agents.az.network import AZNet
from agents.lookahead import LookaheadAgent
from agents.policy_file import PolicyFileError
from agents.progress import MODES, reporter
from agents.view import determinize, public_view
from contack_env.cli_support import padded, screen_width, seed_arg, whole_arg, whole_number_arg
from contack_env.contack.multiplayer import MAX_PLAYERS, MIN_PLAYERS
from contack_env.contack.state import GameState
from contack_env.games import RuleOptions, get_game

EXPLORE = 0.15
"""The share of the positions' games played at random (pretraining's default, ``--pretrain-explore``)."""
_EPS = 1e-6


@dataclass
class Measured:
    """The positions, the value estimates of each and the real continuations' results (all the seat to move's)."""

    views: list[GameState]
    """Each position as its player sees it."""
    playout_mean: np.ndarray
    """The mean result of the bot's continuations from each position."""
    playout_var: np.ndarray
    """The variance of one continuation's result at each position."""
    result: np.ndarray
    """The result of one continuation of the bot's play from the real position."""


def play_out(state: GameState, horizon: Horizon, base: object, judge: LookaheadAgent) -> list[float]:
    """Every seat's result when the bot plays ``state`` on, in place, to ``horizon``'s end for the root that gave
    ``base``."""
    while not horizon.over(state, base):
        state.play_code(judge.best_code(state))
    return horizon.result(state, base)


def continuations(view: GameState, count: int, horizon: Horizon, base: object, rng: np.random.Generator,
                  judge: LookaheadAgent) -> list[list[float]]:
    """Every seat's result in each of ``count`` continuations of the bot's play from ``view`` (a public view; a
    real state is redacted first), each from its own draw of the hidden tiles."""
    view = public_view(view)  # determinize shuffles the order it is given: that order must carry nothing hidden
    return [play_out(determinize(view, rng), horizon, base, judge) for _ in range(count)]


def playout_results(view: GameState, playouts: int, horizon: Horizon, base: object, rng: np.random.Generator,
                    judge: LookaheadAgent) -> list[float]:
    """The seat to move's result in each of ``continuations``."""
    mover = view.current_player
    return [result[mover] for result in continuations(view, playouts, horizon, base, rng, judge)]


def sample_position(rng: np.random.Generator, players: int, explore: float, judge: LookaheadAgent) -> GameState:
    """A position of a bot game: a decision with a choice, drawn uniformly among the game's (module docstring)."""
    while True:
        state: GameState = get_game("contack").new_state(rng, players, RuleOptions(), log=False)  # type: ignore[assignment]
        chosen, seen = None, 0
        while not state.done:
            codes = state.legal_codes()
            if len(codes) > 1:
                seen += 1
                if rng.random() * seen < 1.0:  # reservoir sampling: each decision kept with chance 1/seen
                    chosen = state.clone()
                code = codes[int(rng.integers(len(codes)))] if rng.random() < explore else judge.best_code(state)
            else:
                code = codes[0]
            state.play_code(code)
        if chosen is not None:
            return chosen


def measure(positions: int, playouts: int, players: int, horizon: Horizon, seed: int, explore: float = EXPLORE,
            progress: str = "auto") -> Measured:
    """Sample ``positions`` positions and estimate each one's value with ``playouts`` continuations."""
    rng = np.random.default_rng(seed)
    judge = LookaheadAgent()
    views, means, variances, results = [], [], [], []
    bar = reporter(positions, progress, sys.stderr, "value ceiling", "position")
    for _ in range(positions):
        state = sample_position(rng, players, explore, judge)
        view = public_view(state)
        mover = state.current_player
        base = horizon.start(view)
        outcomes = playout_results(view, playouts, horizon, base, rng, judge)
        results.append(play_out(state, horizon, base, judge)[mover])
        views.append(view)
        means.append(float(np.mean(outcomes)))
        variances.append(float(np.var(outcomes, ddof=1)) if playouts > 1 else 0.0)
        bar.update(1)
    bar.close()
    return Measured(views, np.asarray(means), np.asarray(variances), np.asarray(results))


def network_values(net: AZNet, views: Sequence[GameState]) -> np.ndarray:
    """``net``'s value of each position for the seat to move."""
    encoder = Encoder(net.game, net.features)
    encoded = [encoder.encode(view) for view in views]
    _, values = net.forward(np.stack([obs for obs, _ in encoded]), [actions for _, actions in encoded])
    return values[:, 0].astype(np.float64)


@dataclass
class Row:
    """One estimator's figures (module docstring); the playouts' own row has no correlation with itself or
    explained share (NaN)."""

    name: str
    loss: float
    corr_result: float
    corr_playouts: float
    explained: float


def score(name: str, values: np.ndarray, measured: Measured, playouts: int) -> Row:
    """How well ``values`` (one per position) predict the results and the positions' values."""
    result, mean = measured.result, measured.playout_mean
    p = np.clip(values, _EPS, 1.0 - _EPS)
    loss = float(np.mean(-(result * np.log(p) + (1.0 - result) * np.log(1.0 - p))))
    noise = float(np.mean(measured.playout_var)) / playouts  # the variance the playouts' mean adds to each
    spread = float(np.var(mean)) - noise
    error = float(np.mean((values - mean) ** 2)) - noise
    return Row(name, loss, _corr(values, result), _corr(values, mean),
               1.0 - error / spread if spread > 0 else float("nan"))


def _corr(a: np.ndarray, b: np.ndarray) -> float:
    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return 0.0  # a constant predicts nothing
    return float(np.corrcoef(a, b)[0, 1])


def report(paths: Sequence[str], positions: int, playouts: int, players: int, seed: int,
           progress: str = "auto") -> tuple[list[Row], str]:
    """Measure the networks at ``paths`` on the same positions: the rows (constant, each network, the playouts'
    mean) and the horizon they share."""
    nets = [AZNet.load(path, game="contack") for path in paths]
    horizons = {net.horizon for net in nets}
    if len(horizons) > 1:
        raise ValueError("the networks value different horizons (" + ", ".join(
            f"{path}: {net.horizon}" for path, net in zip(paths, nets)) + "): compare networks of one horizon")
    name = horizons.pop()
    measured = measure(positions, playouts, players, horizon_for(name), seed, progress=progress)
    rows = [score("constant (the mean result)", np.full(positions, measured.result.mean()), measured, playouts)]
    rows += [score(path, network_values(net, measured.views), measured, playouts) for path, net in zip(paths, nets)]
    reference = score(f"the bot's playouts (mean of {playouts})", measured.playout_mean, measured, playouts)
    reference.corr_playouts = reference.explained = float("nan")  # the reference itself
    rows.append(reference)
    return rows, name


def format_rows(rows: Sequence[Row]) -> str:
    """The rows as an aligned table."""
    width = max(screen_width(row.name) for row in rows)
    lines = [f"{'estimate':<{width}}  {'loss':>6}  {'corr result':>11}  {'corr playouts':>13}  {'explained':>9}"]
    lines += [f"{padded(row.name, width)}  {row.loss:6.4f}  {row.corr_result:11.3f}  {_cell(row.corr_playouts, 13)}  "
              f"{_cell(row.explained, 9)}" for row in rows]
    return "\n".join(lines)


def _cell(value: float, width: int) -> str:
    return f"{'-':>{width}}" if np.isnan(value) else f"{value:{width}.3f}"


MAX_POSITIONS = 1_000_000
"""The most positions a measure: it keeps every one in memory (its view, and its playouts' mean and variance)."""
MAX_PLAYOUTS = 10_000
"""The most continuations a position: past it one position takes minutes."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.az.value_ceiling",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", required=True,
                        help="comma-separated az network files (contack, one horizon), measured on the same positions")
    parser.add_argument("--players", type=whole_number_arg, default=2, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                        metavar=f"{MIN_PLAYERS}..{MAX_PLAYERS}", help="table size (default 2)")
    parser.add_argument("--positions", type=whole_arg(1, MAX_POSITIONS), default=2000,
                        help="positions sampled (default 2000)")
    parser.add_argument("--playouts", type=whole_arg(1, MAX_PLAYOUTS), default=64,
                        help="the bot's continuations per position whose mean estimates its value (default 64)")
    parser.add_argument("--seed", type=seed_arg, default=1,
                        help="seeds the games, the positions and the draws (default 1)")
    parser.add_argument("--progress", choices=MODES, default="auto",
                        help="progress on standard error: a bar on a terminal, elsewhere a plain line every 30 s "
                        "(default auto)")
    args = parser.parse_args(argv)
    paths = [p for p in args.models.split(",") if p]
    if not paths:
        parser.error("--models: name at least one network file")
    try:
        rows, horizon = report(paths, args.positions, args.playouts, args.players, args.seed, args.progress)
    except (PolicyFileError, ValueError, OSError) as err:
        print(f"value_ceiling: {err}", file=sys.stderr)
        return 1
    print(f"{args.positions} positions of {args.players}-player lookahead games, seed {args.seed}; values over the "
          f"{horizon}, the seat to move's")
    print(format_rows(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
