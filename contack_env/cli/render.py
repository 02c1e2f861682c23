"""``contack render``: a game record drawn as an animated GIF or a PNG strip."""

from __future__ import annotations

import argparse
import os
import sys

from contack_env.cli_support import input_file_arg, whole_number_arg
from contack_env.wording import plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    rn = sub.add_parser("render", help="draw a game record as an animated GIF (one frame per move) or a PNG strip")
    rn.add_argument("file", metavar="FILE", type=input_file_arg, help="records: a JSON object, a JSON array or JSON lines")
    rn.add_argument("--index", type=whole_number_arg, default=0, help="which record of the file, from 0 (default 0)")
    rn.add_argument("--out", required=True, help="OUT.gif (animation) or OUT.png (a grid of every --every-th frame); "
                    "an existing file is replaced only if it is empty or a picture contack render drew")
    rn.add_argument("--every", type=whole_number_arg, default=None, help="PNG strip: one frame in N (default 5)")
    rn.add_argument("--fps", type=float, default=None, help="GIF: frames a second, 0.01 to 100 (default 2)")


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from contack_env.cli_support import OUTPUT_ERRORS, not_an_input, output_arg
    from contack_env.records import RecordError, read_records, replay
    from contack_env.render.pictures import DRAWN_BY, MAX_FPS, MIN_FPS, not_drawn_here, save_gif, save_strip

    if not args.out.lower().endswith((".gif", ".png")):
        parser.error(f"--out must end in .gif or .png; got {args.out!r}")
    if os.path.basename(args.out).lower() in (".gif", ".png"):
        parser.error(f"--out names a file before its ending, e.g. game.gif; got {args.out!r}")
    gif = args.out.lower().endswith(".gif")
    if gif and args.every is not None:
        parser.error("--every is for a PNG strip (--out ending in .png); an animated GIF shows every frame")
    if not gif and args.fps is not None:
        parser.error("--fps is for an animated GIF (--out ending in .gif); a PNG strip is one picture")
    args.fps = 2.0 if args.fps is None else args.fps
    args.every = 5 if args.every is None else args.every
    if not MIN_FPS <= args.fps <= MAX_FPS:
        parser.error(f"--fps is {MIN_FPS:g} to {MAX_FPS:g} frames a second (a GIF shows a frame 10 ms to 655 s); got {args.fps:.10g}")
    if args.every < 1:
        parser.error(f"--every is a whole number of frames, at least 1 (every frame); got {args.every}")
    not_an_input(parser, "--out", args.out, [args.file])

    def torn(err: RecordError) -> None:
        print(f"contack render: {err} (left out)", file=sys.stderr)

    try:
        records = read_records(args.file, on_torn=torn)
    except RecordError as err:
        print(f"contack render: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"contack render: cannot read {args.file}: {err.strerror or err}", file=sys.stderr)
        return 1
    if not records:
        print(f"contack render: {args.file} holds no record to draw", file=sys.stderr)
        return 1
    if not 0 <= args.index < len(records):
        parser.error(f"--index: {args.file} holds {plural(len(records), 'record')}, 0..{len(records) - 1}; got {args.index}")
    record = records[args.index]
    try:
        replay(record)  # a record that does not replay cannot be drawn: say why first
        output_arg(parser, "--out", args.out, (".gif", ".png"))  # once the record replays: a record that cannot be drawn says so first
        why = not_drawn_here(args.out)
        if why is not None:
            parser.error(f"--out: {args.out} is there and {why}; --out replaces only an empty file or a picture "
                         f"contack render drew (each carries the mark {DRAWN_BY!r} in its metadata): name another "
                         "file, or move that one away first")
        if gif:
            save_gif(record, args.out, fps=args.fps)
        else:
            save_strip(record, args.out, every=args.every)
    except RecordError as err:
        print(f"contack render: {_named(args)}: {err}", file=sys.stderr)
        return 1
    except RecursionError:
        print(f"contack render: {_named(args)}: nested too deeply to draw", file=sys.stderr)
        return 1
    except ValueError as err:
        parser.error(str(err))
    except OUTPUT_ERRORS:  # the output's own failure (a reader gone away): contack_env.cli.main says so
        raise
    except OSError as err:
        print(f"contack render: cannot write {args.out}: {err.strerror or err}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}")
    return 0


def _named(args: argparse.Namespace) -> str:
    """The record drawn, named as ``replay --check`` and ``ratings`` name it (``FILE:N``, N from 1), with the
    ``--index`` (from 0) that chose it."""
    return f"{args.file}:{args.index + 1} (--index {args.index})"
