"""``contack train --backend rllib``: the options it adds and the run they describe.

Nothing here imports ray at module level, so ``contack train --help`` works without the extra, and asking for
the backend without it is a one-line error naming the install command (exit status 2).
"""

from __future__ import annotations

import argparse
import sys

BACKENDS = ("sb3", "rllib")
INSTALL = "pip install -c constraints-rllib.txt -e '.[rllib]'"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--env-runners`` on the train command line."""
    parser.add_argument("--backend", choices=BACKENDS, default="sb3",
                        help="sb3 (sb3-contrib's MaskablePPO, the default) or rllib (Ray RLlib's multi-agent PPO; "
                        f"needs the rllib extra: {INSTALL}; RAY_ADDRESS connects to a cluster)")
    parser.add_argument("--env-runners", dest="env_runners", default=None, metavar="K",
                        help="--backend rllib: RLlib env runners (processes stepping environments; 0 steps them "
                        "in the trainer's process; default 0)")


def ray_missing() -> bool:
    try:
        import ray.rllib  # noqa: F401  (the run imports it next anyway)
    except ImportError:
        return True
    return False


RLLIB_INSTEAD = (frozenset({"--workers", "--ray"}), "RLlib's own: --env-runners K, and a Ray cluster through RAY_ADDRESS")
"""The az trainer's options of scale, and what this trainer takes in their place."""


def run_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run ``contack train --backend rllib [--resume]`` (or refuse its options under the sb3 backend)."""
    if args.backend != "rllib":
        if args.env_runners is not None:
            parser.error("--env-runners: a setting of --backend rllib")
        raise AssertionError("run_from_args is for --backend rllib")
    if getattr(args, "algorithm", None) == "az":
        parser.error("--backend rllib trains PPO; --algorithm az has its own trainer (leave out --backend)")
    from ..train import refuse_an_impossible_out, refuse_az_settings

    # before Ray is looked for: a usage error either way
    refuse_az_settings(parser, args, "--backend rllib", instead=RLLIB_INSTEAD)
    refuse_an_impossible_out(parser, args)
    env_runners = 0
    if args.env_runners is not None:
        try:
            env_runners = int(args.env_runners)
        except ValueError:
            env_runners = -1
        if env_runners < 0:
            parser.error(f"--env-runners must be a whole number 0 or more; got {args.env_runners!r}")
    if ray_missing():
        print(f"contack train: --backend rllib needs Ray's RLlib, which is not installed: {INSTALL}",
              file=sys.stderr)
        return 2
    from ..run_folder import TrainingError, check_new_run_folder
    from ..train import config_or_total, ignored_on_resume
    from .module import check_rllib_config

    cfg, total = config_or_total(parser, args)
    if cfg is not None:
        try:
            check_rllib_config(cfg)
        except ValueError as err:
            parser.error(str(err))
    from ..stopped import PPO_MEMORY, STOPS, allocation_failures_as_memory_errors, report_stop
    from .train import RLlibRun, train

    try:
        if args.resume:
            RLlibRun(args.out).check_resumable()
        else:
            check_new_run_folder(args.out)
    except TrainingError as err:
        print(f"contack train: {err}", file=sys.stderr)
        return 1
    if args.resume:
        ignored_on_resume(args)
    progress = {"auto": None, "on": True, "off": False}[args.progress]
    try:
        with allocation_failures_as_memory_errors():
            path = train(cfg, args.out, env_runners=env_runners, progress=progress, resume=args.resume,
                         total_timesteps=total)
    except STOPS as err:
        return report_stop(err, args.out, kept, lambda e: f"cannot write the run in {args.out}: {e}", PPO_MEMORY)
    print(f"wrote {path}")
    from ..evaluations import print_last_evaluation

    print_last_evaluation(RLlibRun(args.out).eval_csv)
    return 0


def kept(out: str) -> str:
    """What an interrupted run left in ``out``, and how to go on."""
    from .train import RLlibRun

    names = RLlibRun(out).checkpoints()
    if not names:  # stopped before the checkpoint at 0: nothing was trained
        return (f"no checkpoint was written yet, so there is nothing to resume: the same command starts the run "
                f"again in {out}")
    return (f"{out} keeps the run up to its last checkpoint, {int(names[-1].rsplit('_', 1)[1])} timesteps; continue "
            f"it with `contack train --backend rllib --resume --out {out}`")
