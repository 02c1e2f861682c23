"""Plots of ``contack evaluate --json`` results: win rates with their 95% intervals.

    python -m agents.plots OUT.png TITLE FILE.json [FILE.json ...]

draws one group of bars per JSON file (one evaluation), one bar per entry, with the interval as an error bar and
the fair share (1 / players) as a dashed line. matplotlib is imported only here.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Sequence


def short_name(spec: str) -> str:
    """``ppo:models/contack_2p.npz`` -> ``ppo:contack_2p``: a trained policy by its file's name."""
    if spec.startswith("ppo:"):
        return "ppo:" + os.path.splitext(os.path.basename(spec[4:]))[0]
    return spec


def plot_win_rates(paths: Sequence[str], out: str, title: str) -> None:
    """Write a PNG of the win rates (with 95% intervals) of the evaluations in ``paths`` to ``out``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    fig, axes = plt.subplots(1, len(runs), figsize=(max(4.0, 2.6 * len(runs)), 3.6), sharey=True, squeeze=False)
    for ax, run in zip(axes[0], runs):
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
    axes[0][0].set_ylabel("win rate (95% CI)")
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
