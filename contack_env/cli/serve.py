"""``contack serve``: play and watch games in a web browser (``contack_env.app``)."""

from __future__ import annotations

import argparse
import os
import sys

from contack_env.cli_support import whole_number_arg


def add_parser(sub: argparse._SubParsersAction) -> None:
    sv = sub.add_parser("serve", help="play and watch games in a web browser (a local web app)")
    sv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    sv.add_argument("--port", type=whole_number_arg, default=8000, help="the port (default 8000; 0: a free one, shown when it starts)")
    sv.add_argument(
        "--models", action="append", metavar="DIR",
        help="a folder of trained models (.npz: PPO policies, az networks) that tables may seat; repeat for more "
        "(default: the repository's models folder)",
    )


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        parser.error(f"--port is 0..65535 (0: a free port the system picks); got {args.port}")
    if not args.host.strip():
        parser.error("--host is an address to listen on, e.g. 127.0.0.1 (this machine only) or 0.0.0.0 (every "
                     "network); got an empty one")
    from agents.policy_file import shipped_models_folder

    folders = args.models or [shipped_models_folder()]
    for folder in folders:
        if args.models and not os.path.isdir(folder):
            parser.error(f"--models: {folder!r} is not a folder")
    try:
        from contack_env.app import serve
        from contack_env.app.server import ListenError
    except ImportError as err:
        print(f"contack serve: the web app needs starlette and uvicorn ({err}); pip install -e .", file=sys.stderr)
        return 1
    try:
        serve(args.host, args.port, folders)
    except ListenError as err:
        print(f"contack serve: {err}", file=sys.stderr)
        return 1
    return 0  # Ctrl-C and SIGTERM stop uvicorn, which raises them again once it has closed: `contack` says so
