"""``contack train --algorithm az``: the options of ``training.az.config.AZConfig`` on the train command line.

The train command has one option per setting of either algorithm. A setting both have (``--game``,
``--players``, ``--seed``, ...) is shared; one that only the other algorithm has is refused with a message
rather than silently ignored.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import fields
from typing import Any

from ..config import field_help, option_value, read_settings
from .config import AZConfig

ALGORITHMS = ("ppo", "az")


def add_arguments(parser: argparse.ArgumentParser, taken: set[str]) -> None:
    """``--algorithm`` and every AZConfig field whose option ``taken`` (the PPO options' dests) lacks."""
    parser.add_argument("--algorithm", choices=ALGORITHMS, default=None,
                        help="ppo (MaskablePPO, the default) or az (search-guided self-play: training.az). A setting both "
                        "have (--game, --players, --seed, --net-arch, --learning-rate, --eval-*, ...) shows az's default "
                        "after PPO's where they differ; with az, --eval-every and --checkpoint-every count iterations "
                        "(training/az/config.py)")
    docs = field_help(AZConfig)
    defaults = AZConfig()
    for f in fields(AZConfig):
        if f.name in taken or f.name == "algorithm":
            continue
        default = getattr(defaults, f.name)
        if isinstance(default, bool):  # a switch: --ray
            parser.add_argument(f"--{f.name.replace('_', '-')}", dest=f.name, action="store_const", const=True,
                                default=None, help=f"az only: {docs.get(f.name, '')}".strip())
            continue
        shown = ",".join(map(str, default)) if isinstance(default, list) else default
        # a field whose default follows another one (None in the class) says so in its own words
        suffix = "" if f.default is None else f" (default {shown})"
        parser.add_argument(f"--{f.name.replace('_', '-')}", dest=f.name, default=None,
                            metavar="A,B" if isinstance(default, list) else type(default).__name__.upper(),
                            help=f"az only: {docs.get(f.name, '')}{suffix}".strip())


def algorithm_of(args: argparse.Namespace) -> str:
    """The algorithm asked for: ``--algorithm``, else the one of the ``--config`` file or, with ``--resume``, of
    the run in ``--out`` (its checkpoint: an az run's is checkpoint.pt; else its config.toml, which says
    ``algorithm = "az"`` for az), else ppo. A config.toml that cannot be read is then reported by the trainer
    chosen, naming the file's problem."""
    if args.algorithm:
        return args.algorithm
    if args.resume:  # the run's checkpoint says whose run it is, whatever became of its config.toml
        held = [algorithm for name, algorithm in (("checkpoint.zip", "ppo"), ("checkpoint.pt", "az"))
                if os.path.exists(os.path.join(args.out, name))]
        if len(held) == 1:
            return held[0]
    path = os.path.join(args.out, "config.toml") if args.resume else args.config
    if path:
        try:
            return "az" if read_settings(path).get("algorithm") == "az" else "ppo"
        except ValueError:
            pass  # the chosen path reports the file's problem
    return "ppo"


def given(args: argparse.Namespace, names: set[str]) -> list[str]:
    return [f"--{n.replace('_', '-')}" for n in sorted(names) if getattr(args, n, None) is not None]


def parse_option(name: str, text: str) -> Any:
    default = getattr(AZConfig(), name)
    if isinstance(default, bool):
        return bool(text)  # a switch: given (True) or not (None, never parsed)
    return option_value(name, text, default)


def _resumed_with_ray(out: str) -> bool:
    try:
        return AZConfig.load(os.path.join(out, "config.toml")).ray
    except ValueError:
        return False  # train() reports a missing or damaged configuration


def run_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace, ppo_only: set[str]) -> int:
    """Run (or resume) the az training the options describe; ``ppo_only``: settings refused here."""
    from ..run_folder import cannot_write
    from ..stopped import AZ_MEMORY, STOPS, allocation_failures_as_memory_errors, report_stop
    from .train import check_config, train

    cfg: AZConfig | None = None
    iterations: int | None = None
    try:
        wrong = given(args, ppo_only)
        if wrong:
            raise ValueError(f"{', '.join(wrong)}: PPO setting(s), not used by --algorithm az")
        if args.resume:
            if args.iterations is not None:
                iterations = parse_option("iterations", args.iterations)
        else:
            overrides = {f.name: parse_option(f.name, getattr(args, f.name)) for f in fields(AZConfig)
                         if f.name != "algorithm" and getattr(args, f.name, None) is not None}
            cfg = AZConfig.load(args.config, **overrides) if args.config else AZConfig.from_dict(overrides)
            check_config(cfg)
    except ValueError as err:
        parser.error(str(err))
    if args.resume:
        ignored = given(args, {f.name for f in fields(AZConfig)} - {"iterations", "algorithm"})
        ignored += ["--config"] if args.config else []
        if ignored:
            print(f"contack train: --resume continues with the run's own config.toml; ignoring {', '.join(ignored)} "
                  "(only --iterations applies)", file=sys.stderr)
    if (cfg.ray if cfg is not None else _resumed_with_ray(args.out)):
        from agents.ray_tasks import RayUnavailable, require_ray

        try:
            require_ray()
        except RayUnavailable as err:
            print(f"contack train: {err}", file=sys.stderr)
            return 2
    progress = {"auto": None, "on": True, "off": False}[args.progress]
    try:
        with allocation_failures_as_memory_errors():
            path = train(cfg, args.out, resume=args.resume, progress=progress, iterations=iterations)
    except STOPS as err:
        return report_stop(err, args.out, kept, lambda e: cannot_write(args.out, e, "checkpoint.pt"), AZ_MEMORY)
    print(f"wrote {path}")
    from .report import read_rows

    rows = read_rows(os.path.join(args.out, "eval.csv"))
    if rows:
        last = rows[-1]["iteration"]
        for r in (r for r in rows if r["iteration"] == last):
            versus = "" if r["opponent"] == "-" else f" vs {r['opponent']}"
            print(f"iteration={last} {r['agent']}{versus}: win rate {float(r['win_rate']):.3f} "
                  f"[{float(r['ci_low']):.3f}, {float(r['ci_high']):.3f}] over {r['games']} games")
    return 0


def kept(out: str) -> str:
    """What a stopped run left in ``out``, and how to go on."""
    from .train import AZRun

    try:
        iteration = AZRun(out).checkpoint_iteration()
    except Exception:  # said in a handler after Ctrl-C or a failure: never a second error, whatever the file holds
        return f"its checkpoint.pt cannot be read; `contack train --resume --out {out}` says what to do"
    if iteration is None:
        return (f"no checkpoint was written yet, so there is nothing to resume: the same command starts the run "
                f"again in {out}")
    return (f"{out} keeps the run up to its last checkpoint, iteration {iteration}; continue it with "
            f"`contack train --resume --out {out}`")
