"""The periodic evaluations of a PPO run, of either backend: ``eval.csv``, its curve and its TensorBoard scalars.

``evaluate_policy_file`` plays a policy file against the bots over whole games (``agents.evaluate``) and appends
to ``eval.csv``; ``draw_learning_curve`` draws that file; ``evaluation_scalars`` names its rows for TensorBoard.
Neither torch nor a trainer is imported here: ``training.monitor`` (sb3-contrib's MaskablePPO) and
``training.rllib.train`` (Ray RLlib) both evaluate through it, so their files read alike.

``eval.csv`` has one row per evaluation and measured agent, with the columns ``CSV_FIELDS``:
``timesteps`` (learner decisions so far), ``opponent`` (the bot in every other seat; ``-`` in a solitaire),
``games``, ``win_rate`` with its 95% interval ``ci_low``..``ci_high``, ``mean_score``, ``mean_margin``
(Contack), ``wall_s`` (seconds the evaluation took), ``agent`` (``policy``: the learner; for a solitaire also
each bot of ``eval_opponents``, played alone on the same deals as the policy, for reference) and ``mean_tiles``
(solitaires: tiles placed, out of 36; what a solitaire policy is trained on by default).
"""

from __future__ import annotations

import csv
import time
from typing import Any

from contack_env.atomic import atomic_path, open_atomic
from contack_env.games import get_game
from contack_env.wording import plural

from .config import TrainConfig
from .games import TRAINING_GAMES
from .run_folder import TrainingError, cannot_read

CSV_FIELDS = ("timesteps", "opponent", "games", "win_rate", "ci_low", "ci_high", "mean_score", "mean_margin", "wall_s",
              "agent", "mean_tiles")  # the last two came later: at the end, so reading by position still works
POLICY = "policy"
"""The ``agent`` of the rows that measure the learner."""
EVAL_SEED_OFFSET = 1_000_000  # evaluation deals never coincide with the training's (PPO's and az's self-play)


def next_due(t: int, every: int) -> int:
    """The first multiple of ``every`` after ``t``."""
    return (t // every + 1) * every


def next_evaluation(t: int, cfg: TrainConfig) -> int | None:
    """The next periodic evaluation after ``t``; None when it would fall at or past total_timesteps, where
    the final evaluation (at the steps actually trained) takes its place: one evaluation per point."""
    if not cfg.eval_every:
        return None
    due = next_due(t, cfg.eval_every)
    return due if due < cfg.total_timesteps else None


def evaluate_policy_file(path: str, timesteps: int, cfg: TrainConfig, eval_csv: str) -> list[dict[str, Any]]:
    """Evaluate the policy file ``path`` (the learner after ``timesteps``) over whole games (``agents.evaluate``),
    append the rows to ``eval_csv`` (replaced atomically) and return them."""
    from agents.evaluate import evaluate

    spec = f"ppo:{path}"
    started = time.time()
    rows = []
    seed = cfg.seed + EVAL_SEED_OFFSET
    report = get_game(cfg.game).report  # how the game's results are told (contack_env.games.REPORTS)
    if report == "colours":
        games = max(2, cfg.eval_games + cfg.eval_games % 2)  # each deal is played twice, the colours swapped
        for opponent in cfg.eval_opponents:
            ev = evaluate([spec, opponent], games, seed, game=cfg.game, board_size=cfg.board_size)
            rows.append(_row(timesteps, opponent, ev.entries[0], started))
    elif report == "solitaire":
        # A solitaire has no opponent: the reference bots play the same deals alone, and their rows say how the
        # policy compares (random and greedy placement by default).
        ev = evaluate([spec, *cfg.eval_opponents], cfg.eval_games, seed, game=cfg.game)
        for name, entry in zip([POLICY, *cfg.eval_opponents], ev.entries):
            rows.append(_row(timesteps, "-", entry, started, agent=name))
    else:  # scores: the policy in one seat, the bot in all the others, over every seat rotation
        for opponent in cfg.eval_opponents:
            agents = [spec] + [opponent] * (cfg.players - 1)
            games = -(-cfg.eval_games // cfg.players) * cfg.players
            ev = evaluate(agents, games, seed, game=cfg.game, players=cfg.players, hands=cfg.hands,
                          enclosed_end=cfg.enclosed_end)
            rows.append(_row(timesteps, opponent, ev.entries[0], started))
    write_rows(eval_csv, read_csv(eval_csv) + rows)
    return rows


def write_rows(path: str, rows: list[dict[str, Any]], fields: tuple[str, ...] = CSV_FIELDS) -> None:
    """An eval.csv with the columns ``fields`` (PPO's by default; ``training.az.report``'s for az) and ``rows``,
    replaced atomically; a column missing from rows of an older file is written empty."""
    with open_atomic(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def entry_columns(entry: Any) -> dict[str, Any]:
    """The columns every eval.csv has of an ``agents.evaluate`` entry: games, the win rate and its interval,
    the mean margin (empty in a solitaire) and tiles placed (empty but in a solitaire)."""
    return {
        "games": entry.games,
        "win_rate": round(entry.win_rate, 4),
        "ci_low": round(entry.win_rate_ci95[0], 4),
        "ci_high": round(entry.win_rate_ci95[1], 4),
        "mean_margin": "" if entry.mean_margin is None else round(entry.mean_margin, 2),
        "mean_tiles": "" if entry.mean_tiles_placed is None else round(entry.mean_tiles_placed, 2),
    }


def _row(timesteps: int, opponent: str, entry: Any, started: float, agent: str = POLICY) -> dict[str, Any]:
    return {"timesteps": int(timesteps), "agent": agent, "opponent": opponent, **entry_columns(entry),
            "mean_score": round(entry.mean_score, 2), "wall_s": round(time.time() - started, 1)}


def evaluation_scalars(rows: list[dict[str, Any]]) -> dict[str, float]:
    """The learner's rows of one evaluation as TensorBoard scalars: ``eval/win_rate_vs_<bot>`` for a game,
    ``eval/win_rate`` and ``eval/mean_tiles`` for a solitaire."""
    scalars: dict[str, float] = {}
    for row in rows:
        if row["agent"] != POLICY:
            continue
        if row["opponent"] == "-":  # a solitaire
            scalars["eval/win_rate"] = float(row["win_rate"])
            scalars["eval/mean_tiles"] = float(row["mean_tiles"])
        else:
            scalars[f"eval/win_rate_vs_{row['opponent']}"] = float(row["win_rate"])
    return scalars


def trim_evaluations(run: Any, timesteps: int, cfg: TrainConfig, trainer: str = "MaskablePPO") -> None:
    """Drop the eval.csv rows after ``timesteps`` (a killed session evaluated past its last checkpoint; the
    resumed run evaluates those timesteps again) and redraw the curve."""
    rows = read_csv(run.eval_csv)
    kept = [row for row in rows if int(row["timesteps"]) <= timesteps]
    if len(kept) == len(rows):
        return
    write_rows(run.eval_csv, kept)
    draw_learning_curve(run.eval_csv, run.curve, cfg, trainer)


WHOLE_COLUMNS = ("timesteps", "iteration", "games_played", "games")
NUMBER_COLUMNS = ("win_rate", "ci_low", "ci_high", "wall_s")
NUMBER_OR_EMPTY_COLUMNS = ("mean_score", "mean_margin", "mean_tiles")  # empty where a game has none


def read_rows(path: str, fields: tuple[str, ...] = CSV_FIELDS) -> list[dict[str, str]]:
    """The rows of an eval.csv whose columns are ``fields`` (PPO's by default; ``training.az.report``'s for az;
    a PPO file from before its last two columns has the others), none if there is no file yet. ``TrainingError``
    naming the file and the line where it is not what a run writes: another header, a row of more or fewer
    fields, a count or a rate that is not a number. Checked whole when a run resumes, before any work: such a
    file failed at the end of the resumed training, drawing the curve, and lost what it trained."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            header = tuple(reader.fieldnames or ())
            if not header:
                return []
            needed = [name for name in fields if name in (*WHOLE_COLUMNS, *NUMBER_COLUMNS)]
            if header != fields[:len(header)] or not set(needed) <= set(header):
                raise _damaged(path, 1, f"its header is {','.join(header)}; a run writes {','.join(fields)}")
            rows = []
            for row in reader:
                problem = _row_problem(row, len(header))
                if problem:
                    raise _damaged(path, reader.line_num, problem)
                rows.append(row)
            return rows
    except FileNotFoundError:
        return []
    except PermissionError as err:
        raise cannot_read(path, err) from None
    except (UnicodeDecodeError, csv.Error) as err:
        raise _damaged(path, None, str(err)) from None


def _row_problem(row: dict[Any, Any], width: int) -> str | None:
    """What is wrong with one row of an eval.csv (None: nothing)."""
    if None in row or any(value is None for value in row.values()):
        count = width + len(row.get(None, ())) - sum(value is None for value in row.values())
        return f"it has {plural(count, 'field')}, the header {width}"
    for name, value in row.items():
        if name in WHOLE_COLUMNS and not (value.isascii() and value.isdigit()):
            return f"{name} is {value!r}, not a whole number"
        if name in NUMBER_COLUMNS or (name in NUMBER_OR_EMPTY_COLUMNS and value != ""):
            try:
                float(value)
            except ValueError:
                return f"{name} is {value!r}, not a number"
    return None


def _damaged(path: str, line: int | None, why: str) -> TrainingError:
    where = f"line {line}: " if line is not None else ""
    return TrainingError(f"{path} is damaged ({where}{why}); mend it, or remove it to go on without the evaluations "
                         "made so far")


def read_csv(path: str) -> list[dict[str, str]]:
    """The rows of a PPO run's eval.csv; those of a file from before the ``agent`` column are the policy's."""
    return [{**row, "agent": row.get("agent") or POLICY} for row in read_rows(path)]


def print_last_evaluation(eval_csv: str) -> None:
    """The rows of ``eval_csv``'s last evaluation, one line each, as ``contack train`` ends with them."""
    from contack_env.wording import plural

    rows = read_csv(eval_csv)
    if not rows:
        return
    last = int(rows[-1]["timesteps"])
    for row in (r for r in rows if int(r["timesteps"]) == last):
        rate = f"win rate {float(row['win_rate']):.3f} [{float(row['ci_low']):.3f}, {float(row['ci_high']):.3f}]"
        if row["opponent"] == "-":  # a solitaire: the policy and the reference bots on the same deals
            tiles = f", {float(row['mean_tiles']):.2f} tiles placed on average" if row.get("mean_tiles") else ""
            print(f"timesteps={last} {row['agent']}: {rate}{tiles}, over {plural(int(row['games']), 'deal')}")
        else:
            print(f"timesteps={last} vs {row['opponent']}: {rate} over {plural(int(row['games']), 'game')}")


def _thousands(x: float, _: Any = None) -> str:
    """Axis labels that stay short: 150k, 1.5M (and 64, 192 for a short run)."""
    if abs(x) >= 1e6:
        return f"{x / 1e6:g}M"
    return f"{x / 1e3:g}k" if abs(x) >= 1e3 else f"{x:g}"


def _draw_solitaire(wins: Any, tiles: Any, rows: list[dict[str, str]]) -> None:
    """The policy's win rate and tiles placed, and each reference bot's on the same deals (dashed); one colour per
    agent in both panels. Rows from before the tiles column (an older run, resumed) are left out of that panel."""
    for i, agent in enumerate(dict.fromkeys(r["agent"] for r in rows)):
        mine = [r for r in rows if r["agent"] == agent]
        xs = [int(r["timesteps"]) for r in mine]
        style = dict(marker="o", markersize=3) if agent == POLICY else dict(linestyle="--", linewidth=1)
        style["color"] = f"C{i}"
        label = "trained policy" if agent == POLICY else agent
        wins.plot(xs, [float(r["win_rate"]) for r in mine], label=label, **style)
        if agent == POLICY:
            wins.fill_between(xs, [float(r["ci_low"]) for r in mine], [float(r["ci_high"]) for r in mine], alpha=0.2,
                              color=style["color"])
        placed = [(x, float(r["mean_tiles"])) for x, r in zip(xs, mine) if r.get("mean_tiles")]
        if placed:
            tiles.plot(*zip(*placed), label=label, **style)
    wins.set_ylim(bottom=0)
    tiles.set_ylim(0, 36)
    tiles.set_ylabel("tiles placed (of 36), mean")


def draw_learning_curve(csv_path: str, png_path: str, cfg: TrainConfig, trainer: str = "MaskablePPO") -> None:
    """eval.csv as a PNG: the policy's win rate (with its 95% interval) against timesteps, one line per opponent;
    for a solitaire, also the tiles placed, with the reference bots' results on the same deals as dashed lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_csv(csv_path)
    game = TRAINING_GAMES[cfg.game]
    what = game.title(cfg)
    solitaire = get_game(cfg.game).report == "solitaire"
    fig, axes = plt.subplots(1, 2 if solitaire else 1, figsize=(10.4 if solitaire else 6.4, 3.8), squeeze=False)
    ax = axes[0][0]
    if solitaire:
        _draw_solitaire(ax, axes[0][1], rows)
    else:
        for opponent in dict.fromkeys(r["opponent"] for r in rows):
            mine = [r for r in rows if r["opponent"] == opponent]
            xs = [int(r["timesteps"]) for r in mine]
            ax.plot(xs, [float(r["win_rate"]) for r in mine], marker="o", markersize=3, label=f"vs {opponent}")
            ax.fill_between(xs, [float(r["ci_low"]) for r in mine], [float(r["ci_high"]) for r in mine], alpha=0.2)
        ax.axhline(1 / cfg.players, color="grey", linestyle="--", linewidth=1, label=f"fair share 1/{cfg.players}")
        ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    fig.suptitle(f"{trainer} on {what}: evaluation over {cfg.eval_games} {'deals' if solitaire else 'games'}",
                 fontsize=10)
    for a in axes[0]:
        a.xaxis.set_major_formatter(_thousands)
        a.set_xlabel("timesteps (learner decisions)")
        a.grid(alpha=0.3)
        a.legend(fontsize=8, loc="best" if solitaire else "lower right")
    fig.tight_layout()
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    plt.close(fig)
