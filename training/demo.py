"""The main job: the shipped trained agents against the heuristic bots, over whole three-hand games.

    contack demo [--games 1000] [--seed 1] [--workers 2] [--models DIR] [--out runs/demo]

It runs ``contack evaluate``'s duplicate-format evaluation (``agents.evaluate``) of each shipped model against
the bots: the PPO policies (``models/contack_2p.npz`` heads-up against ``random``, ``greedy`` and ``lookahead``,
``models/contack_4p.npz`` against three of each), then the search-guided networks alone, without their search
(``az:models/contack_2p_az.npz:0`` and ``az:models/contack_4p_az.npz:0`` against ``lookahead``: their searches
take many times the demo's time, and ``contack evaluate`` plays them). It prints each table, then writes to
``--out``:

    demo_<n>.json       each evaluation, as ``contack evaluate --json`` writes it
    results.png         win rates with 95% intervals (``agents.plots``)
    game.png            the end of a finished game: the 2-player model against lookahead
    game.jsonl          that game's record (``contack replay --check`` it)

Every game is played from ``--seed`` onwards, so a run is repeated exactly by the same command. ``--models``
defaults to the repository's ``models/`` folder (``agents.policy_file.shipped_models_folder``), so the command
runs from any current folder; ``--out`` is relative to the current folder. The files are written into a
temporary folder inside ``--out`` and moved into place once every game is played, so an interrupted demo leaves
``--out`` as it was. The demo marks the folder as its own (a file ``.contack-demo`` listing what it wrote, by
content) and replaces those files on its next run; a file of one of its names that a demo did not write there,
or that was changed since, is refused before any game, and other files are left alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from typing import Sequence

from contack_env.atomic import OutputPathError, check_folder, write_text
from contack_env.cli_support import OUTPUT_ERRORS, check_seed_range, seed_arg, whole_number_arg

# (model file, players, its agent spec with {path} for the file's path, the opponents it meets)
MATCHES = (
    ("contack_2p.npz", 2, "ppo:{path}", ("random", "greedy", "lookahead")),
    ("contack_4p.npz", 4, "ppo:{path}", ("random", "greedy", "lookahead")),
    ("contack_2p_az.npz", 2, "az:{path}:0", ("lookahead",)),
    ("contack_4p_az.npz", 4, "az:{path}:0", ("lookahead",)),
)
OUTPUTS = (*(f"demo_{n + 1}.json" for n in range(sum(len(m[3]) for m in MATCHES))), "results.png", "game.png",
           "game.jsonl")
"""The files a demo writes in ``--out``, in the order it writes them."""
MARKER = ".contack-demo"
"""Written in ``--out`` with the outputs: JSON, ``MARKER_FORMAT`` and the SHA-256 of each file the demo wrote
there, the files it may replace on its next run."""
MARKER_FORMAT = "contack-demo/1"
STAGING_PREFIX = ".contack-demo-writing-"
"""The temporary folder inside ``--out`` that holds a demo's files until every game is played."""


def _digest(path: str) -> str | None:
    """The SHA-256 of the file at ``path``; None if it cannot be read (a folder of that name, say: no file of a
    demo's)."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def _marked_files(out: str) -> dict[str, str] | None:
    """The files the marker of ``out`` lists as a demo's (name: SHA-256); None for a marker that lists none (one
    written before markers did: its folder's files of the outputs' names are taken as the demo's)."""
    try:
        with open(os.path.join(out, MARKER), encoding="utf-8") as f:
            marker = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(marker, dict) or marker.get("format") != MARKER_FORMAT or not isinstance(marker.get("files"), dict):
        return None
    return {str(name): str(digest) for name, digest in marker["files"].items()}


def check_out_folder(out: str) -> None:
    """``ValueError`` if ``out`` holds a file of a name the demo writes that a demo did not write there, or that
    changed since it did (the marker lists what it wrote; a folder without one may be a whole demo's output from
    before the marker); touches nothing."""
    if not os.path.isdir(out):
        return
    names = set(os.listdir(out))
    present = [name for name in OUTPUTS if name in names]
    if MARKER in names:
        listed = _marked_files(out)
        if listed is None:
            return  # a marker from before markers listed the files: those of its names are a demo's
        changed = [name for name in present if listed.get(name) != _digest(os.path.join(out, name))]
        if changed:
            raise ValueError(f"--out {out} holds {', '.join(changed)}, which the demo that wrote there did not write "
                             "or which changed since, and the demo would replace them: move them away, or name "
                             "another folder")
        return
    if set(OUTPUTS) <= names:
        return  # every file of a demo: one written before demos marked their folders
    if present:
        raise ValueError(f"--out {out} holds {', '.join(present)}, which no demo wrote there, and the demo would "
                         "replace them: name another folder")


def check_models(models: str) -> None:
    """Raise ``FileNotFoundError`` naming the first model file of the demo missing from the folder ``models``, or
    ``ValueError`` for one its agent cannot play (``agents.registry.check_spec`` loads it)."""
    from agents.registry import check_spec

    for filename, _, spec, _ in MATCHES:
        path = os.path.join(models, filename)
        if not os.path.exists(path):
            raise FileNotFoundError(f"no shipped model at {path} (the models/ folder of the repository; see models/README.md)")
        try:
            check_spec(spec.format(path=path))
        except ValueError as err:
            raise ValueError(f"the shipped model {path} cannot be played ({err}); see models/README.md") from None


def _play_and_write(games: int, seed: int, workers: int, models: str, out: str) -> list[str]:
    """Evaluate the shipped models (``check_models`` has passed) and write the files the module docstring lists
    (``OUTPUTS``), all at the end; return their paths."""
    os.makedirs(out, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out)
    try:
        _play_and_write_into(games, seed, workers, models, staging)
        for name in OUTPUTS:  # every game played: the files take the place of an earlier demo's
            os.replace(os.path.join(staging, name), os.path.join(out, name))
        marker = {"format": MARKER_FORMAT, "files": {name: _digest(os.path.join(out, name)) for name in OUTPUTS}}
        write_text(os.path.join(out, MARKER), json.dumps(marker, indent=1) + "\n")
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # this run's own folder, empty unless the run failed
    return [os.path.join(out, name) for name in OUTPUTS]


def _play_and_write_into(games: int, seed: int, workers: int, models: str, out: str) -> None:
    from agents.evaluate import evaluate, format_table, write_json
    from agents.plots import plot_win_rates

    jsons: list[str] = []
    for filename, players, spec, opponents in MATCHES:
        path = os.path.join(models, filename)
        per_table = -(-games // players) * players
        for opponent in opponents:
            agents = [spec.format(path=path)] + [opponent] * (players - 1)
            started = time.time()
            ev = evaluate(agents, per_table, seed, players=players, workers=workers, progress=None)
            print(format_table(ev))
            print(f"({time.time() - started:.0f} s)\n", flush=True)
            target = os.path.join(out, f"demo_{len(jsons) + 1}.json")
            write_json(target, ev)
            jsons.append(target)
    plot = os.path.join(out, "results.png")
    plot_win_rates(jsons, plot, f"Shipped models vs the bots, three-hand games from seed {seed} (95% CI)")
    write_finished_game(os.path.join(models, "contack_2p.npz"), seed, out)


def write_finished_game(model: str, seed: int, out: str) -> list[str]:
    """Play one game of the 2-player PPO model against lookahead; write its last position as a PNG and its record."""
    from PIL import Image

    from agents.arena import new_state, play_game, seed_streams
    from agents.registry import make_agent
    from contack_env.atomic import atomic_path
    from contack_env.records import write_records
    from contack_env.records.contack import game_record
    from contack_env.render.image import render_rgb

    names = [f"ppo:{model}", "lookahead"]
    streams = seed_streams(seed, len(names) + 1)  # as `contack simulate --seed S --games 1` plays it
    agents = [make_agent(name, streams[k + 1]) for k, name in enumerate(names)]
    state = play_game(new_state("contack", 2, streams[0]), agents)
    record = game_record(state, seed=seed, agents=names)
    png = os.path.join(out, "game.png")
    with atomic_path(png) as tmp:
        Image.fromarray(render_rgb(state, size=(960, 600), agents=names)).save(tmp, format="PNG")
    jsonl = os.path.join(out, "game.jsonl")
    write_records(jsonl, [record])
    return [png, jsonl]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=whole_number_arg, default=1000, help="games per evaluation (default 1000, as the README's tables; rounded up to a multiple of the players)")
    parser.add_argument("--seed", type=seed_arg, default=1, help="deal d of every evaluation is played from seed S+d (default 1)")
    parser.add_argument("--workers", type=whole_number_arg, default=2, help="worker processes (default 2); the results do not depend on it")
    parser.add_argument(
        "--models", default=None,
        help="the folder of the shipped models (default: the repository's models folder, from any current folder)",
    )
    parser.add_argument("--out", default=os.path.join("runs", "demo"), help="where the files go (default runs/demo)")


def run_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.evaluate import MAX_WORKERS
    from agents.policy_file import shipped_models_folder
    from agents.worker_pool import WorkerLost
    from contack_env.cli_support import INTERRUPTED

    for option, value in (("--games", args.games), ("--workers", args.workers)):
        if value < 1:
            parser.error(f"{option} is at least 1; got {value}")
    if args.workers > MAX_WORKERS:
        parser.error(f"--workers is at most {MAX_WORKERS}; got {args.workers}")
    if not args.out:
        parser.error("--out names the folder for the demo's files; got an empty name")
    # every evaluation plays its deals from --seed on: the two-player tables have the most
    check_seed_range(parser, "--seed", args.seed, max(-(-args.games // players) for _, players, _, _ in MATCHES),
                     "deals")
    try:
        check_out_folder(args.out)
    except ValueError as err:
        parser.error(str(err))
    if args.models == "":
        parser.error("--models names the folder of the shipped models; got an empty name (leave it out for the "
                     "repository's models/)")
    models = shipped_models_folder() if args.models is None else args.models
    if os.path.exists(models) and not os.path.isdir(models):
        parser.error(f"--models names the folder of the shipped models; {models} is a file")
    if args.models is not None and not os.path.exists(models):  # the repository's own, missing, is a failure
        parser.error(f"--models names the folder of the shipped models; there is no {models}")
    try:
        check_models(models)  # before --out is made
        check_folder(args.out)  # before the games: a folder that cannot be written is refused at once
    except OutputPathError as err:  # a ValueError too: first
        parser.error(f"--out: {err}")
    except (FileNotFoundError, ValueError) as err:
        print(f"contack demo: {err}", file=sys.stderr)
        return 1
    try:
        written = _play_and_write(args.games, args.seed, args.workers, models, args.out)  # models checked
    except (FileNotFoundError, ValueError) as err:
        print(f"contack demo: {err}", file=sys.stderr)
        return 1
    except WorkerLost as err:
        print(f"contack demo: {err}; {INTERRUPTED['demo']}", file=sys.stderr)
        return 1
    except OUTPUT_ERRORS:  # the output's own failure (a reader gone away): contack_env.cli.main says so
        raise
    except OSError as err:
        print(f"contack demo: cannot write in {args.out}: {err}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.demo", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return run_from_args(parser, parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
