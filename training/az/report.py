"""The evaluations of a search-guided run: ``eval.csv`` and its learning curve.

``eval.csv`` has one row per evaluation and measured agent (``CSV_FIELDS``): ``iteration``, ``games_played``
(self-play games so far), ``agent`` (``az``: the search with the run's ``play_sims``; ``az:0``: the network
alone; in a solitaire also each reference bot, played once on the same deals), ``opponent`` (the bot in every
other seat; ``-`` in a solitaire), ``games``, ``win_rate`` with its 95% interval, ``mean_margin`` (Contack),
``mean_tiles`` (solitaires) and ``wall_s``.
"""

from __future__ import annotations

from typing import Any

from contack_env.atomic import atomic_path

from ..evaluations import entry_columns
from ..evaluations import read_rows as read_table
from ..evaluations import write_rows as write_table

CSV_FIELDS = ("iteration", "games_played", "agent", "opponent", "games", "win_rate", "ci_low", "ci_high", "mean_margin",
              "mean_tiles", "wall_s")


def read_rows(path: str) -> list[dict[str, str]]:
    """The rows of an az run's eval.csv (``training.evaluations.read_rows``: a damaged one is named)."""
    return read_table(path, CSV_FIELDS)


def write_rows(path: str, rows: list[dict[str, Any]]) -> None:
    """The file with ``rows``, replaced atomically."""
    write_table(path, rows, CSV_FIELDS)


def row(iteration: int, games_played: int, agent: str, opponent: str, entry: Any, wall_s: float) -> dict[str, Any]:
    """One row from an ``agents.evaluate`` entry."""
    return {"iteration": iteration, "games_played": games_played, "agent": agent, "opponent": opponent,
            **entry_columns(entry), "wall_s": round(wall_s, 1)}


def draw_curve(csv_path: str, png_path: str, title: str, fair_share: float | None) -> None:
    """eval.csv as a PNG: each agent's win rate (95% interval shaded) by iteration, one line per agent and
    opponent; a reference bot of a solitaire, measured once, is a dashed horizontal line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_rows(csv_path)
    fig, ax = plt.subplots(figsize=(6.8, 4.0))
    last = max((int(r["iteration"]) for r in rows), default=1)
    for i, key in enumerate(dict.fromkeys((r["agent"], r["opponent"]) for r in rows)):
        mine = [r for r in rows if (r["agent"], r["opponent"]) == key]
        agent, opponent = key
        label = agent if opponent == "-" else f"{agent} vs {opponent}"
        colour = f"C{i}"
        if not agent.startswith("az"):
            ax.axhline(float(mine[-1]["win_rate"]), color=colour, linestyle="--", linewidth=1, label=label)
            continue
        xs = [int(r["iteration"]) for r in mine]
        ax.plot(xs, [float(r["win_rate"]) for r in mine], marker="o", markersize=3, color=colour, label=label)
        ax.fill_between(xs, [float(r["ci_low"]) for r in mine], [float(r["ci_high"]) for r in mine], alpha=0.2,
                        color=colour)
    if fair_share is not None:
        ax.axhline(fair_share, color="grey", linestyle=":", linewidth=1, label=f"fair share {fair_share:g}")
    ax.set_xlim(0, max(last, 1))
    ax.set_ylim(0, 1)
    ax.set_xlabel("iteration (rounds of self-play and training)")
    ax.set_ylabel("win rate (95% CI)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    plt.close(fig)
