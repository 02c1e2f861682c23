"""Plots of ``contack evaluate --json`` results: win rates with their 95% intervals.

    python -m agents.plots OUT.png TITLE FILE.json [FILE.json ...]

draws one group of bars per JSON file (one evaluation; four groups to a row, more on further rows), one bar per
entry, with the interval as an error bar and the fair share (1 / players) as a dashed line. matplotlib is
imported only here.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Sequence

from .registry import split_az_argument

PANELS_PER_ROW = 4  # evaluations side by side; more go on further rows


def short_name(spec: str) -> str:
    """``ppo:models/contack_2p.npz`` -> ``ppo:contack_2p``, ``az:models/contack_2p_az.npz:0`` -> ``az:contack_2p_az:0``:
    a trained policy by its file's name, an ``az`` network with its numbers after it (read as the agent reads them)."""
    kind, _, arg = spec.partition(":")
    if kind == "ppo" and arg:
        return "ppo:" + _file_name(arg)
    if kind == "az" and arg:
        path, sims, endgame = split_az_argument(arg)
        return "az:" + _file_name(path) + "".join(f":{n}" for n in (sims, endgame) if n is not None)
    return spec


def _file_name(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def plot_win_rates(paths: Sequence[str], out: str, title: str) -> None:
    """Write a PNG of the win rates (with 95% intervals) of the evaluations in ``paths`` to ``out``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    columns = min(len(runs), PANELS_PER_ROW)
    rows = -(-len(runs) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(max(4.0, 2.6 * columns), 3.6 * rows), sharey=True, squeeze=False)
    for ax in axes.flat[len(runs):]:
        ax.set_visible(False)
    for ax, run in zip(axes.flat, runs):
        entries = run["entries"]
        names = [short_name(e["agent"]) for e in entries]
        rates = [e["win_rate"] for e in entries]
        lo = [e["win_rate"] - e["win_rate_ci95"][0] for e in entries]
        hi = [e["win_rate_ci95"][1] - e["win_rate"] for e in entries]
        xs = range(len(entries))
        ax.bar(xs, rates, yerr=[lo, hi], capsize=4, color="#4c72b0", alpha=0.85)
        ax.axhline(1 / run["players"], color="grey", linestyle="--", linewidth=1)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
        ax.set_title(f"{run['players']}p, {run['games']} games", fontsize=9)
        ax.set_ylim(0, 1)
    for row in axes:
        row[0].set_ylabel("win rate (95% CI)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    from contack_env.atomic import atomic_path

    with atomic_path(out) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 3:
        print("usage: python -m agents.plots OUT.png TITLE FILE.json [FILE.json ...]", file=sys.stderr)
        return 2
    plot_win_rates(args[2:], args[0], args[1])
    print(f"wrote {args[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
