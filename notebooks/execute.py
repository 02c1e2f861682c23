"""Execute the project's notebooks and save them with their outputs.

    python notebooks/execute.py                     # every notebook, full budget, outputs written in place
    python notebooks/execute.py 02                  # one notebook: a file name, a unique prefix, or a path
    python notebooks/execute.py --quick --no-write  # what tests/test_notebooks.py does: small budgets, no writes

Each notebook runs in a fresh IPython kernel of *this* interpreter (``sys.executable``), whatever kernelspecs the
user has installed: the kernelspec is written to a temporary folder for the run, so nothing is installed in the
user's home and a kernel of another Python can never be picked up. The kernel's working directory is the
notebooks folder, so the notebooks read the shipped models from ``../models``.

``--quick`` sets ``CONTACK_NOTEBOOK_QUICK=1`` in the kernel's environment; every notebook reads it in its first
code cell and shrinks its game counts and training steps. Without ``--quick`` the variable is removed from the
kernel's environment, so the committed outputs always come from the full budget. A failing cell stops its
notebook with that cell's error (``nbclient.exceptions.CellExecutionError``, which shows the cell's source and
traceback); a notebook that fails is not written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

import nbformat
from ipykernel.kernelspec import get_kernel_dict
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient

from contack_env.atomic import open_atomic, write_text

NOTEBOOK_DIR = Path(__file__).resolve().parent
QUICK_ENV = "CONTACK_NOTEBOOK_QUICK"
KERNEL_NAME = "contack-notebooks"
CELL_TIMEOUT_S = 1800


def notebook_paths(folder: Path = NOTEBOOK_DIR) -> list[Path]:
    """The notebooks of ``folder``, in name order (the numbered reading order)."""
    return sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))


def select(names: Sequence[str], folder: Path = NOTEBOOK_DIR) -> list[Path]:
    """The notebooks named by ``names``: existing paths, or names / unique name prefixes in ``folder`` ("02",
    "02_train_and_evaluate", "02_train_and_evaluate.ipynb"). All of them if ``names`` is empty."""
    every = notebook_paths(folder)
    if not names:
        return every
    chosen = []
    for name in names:
        path = Path(name)
        if path.suffix == ".ipynb" and path.is_file():
            chosen.append(path.resolve())
            continue
        matches = [p for p in every if p.name.startswith(name)]
        if len(matches) != 1:
            known = ", ".join(p.name for p in every) or "none"
            what = "no notebook" if not matches else f"{len(matches)} notebooks"
            raise ValueError(f"{name!r} names {what}; give a path or a unique prefix of one of: {known}")
        chosen.append(matches[0])
    return chosen


def kernel_env(quick: bool) -> dict[str, str]:
    """The kernel's environment: ours, with the budget variable set (quick) or removed (full)."""
    env = dict(os.environ)
    env.pop(QUICK_ENV, None)
    if quick:
        env[QUICK_ENV] = "1"
    return env


def run_notebook(path: Path, quick: bool = False, timeout: int = CELL_TIMEOUT_S) -> nbformat.NotebookNode:
    """Execute the notebook at ``path`` top to bottom in a fresh kernel of this interpreter and return it with its
    outputs (the file is not touched). Raises ``nbclient.exceptions.CellExecutionError`` for a failing cell."""
    path = Path(path).resolve()
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="contack-kernel-") as tmp:
        spec_dir = Path(tmp) / KERNEL_NAME
        spec_dir.mkdir()
        # ipykernel's own kernelspec for the running interpreter: argv starts with sys.executable.
        write_text(spec_dir / "kernel.json", json.dumps(get_kernel_dict()))
        # IPC transport (sockets in the temporary folder): a kernel over TCP warns that it runs without encryption
        km = AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=KernelSpecManager(kernel_dirs=[tmp]),
                                transport="ipc", ip=str(Path(tmp) / "kernel"))
        client = NotebookClient(
            nb,
            km=km,
            timeout=timeout,
            record_timing=False,  # no wall-clock timestamps in the committed files
            resources={"metadata": {"path": str(path.parent)}},
        )
        client.execute(cleanup_kc=True, env=kernel_env(quick))
    merge_streams(nb)
    return nb


def merge_streams(nb: nbformat.NotebookNode) -> None:
    """Join each cell's consecutive outputs to the same stream into one: how the kernel splits a cell's printing
    into messages depends on timing, and the committed files should change only when the text does."""
    for cell in nb.cells:
        merged: list[nbformat.NotebookNode] = []
        for output in cell.get("outputs", []):
            last = merged[-1] if merged else None
            if (output.get("output_type") == "stream" and last is not None and last.get("output_type") == "stream"
                    and last.get("name") == output.get("name")):
                last["text"] = _text(last["text"]) + _text(output["text"])
            else:
                merged.append(output)
        if "outputs" in cell:
            cell["outputs"] = merged


def _text(text: str | list[str]) -> str:
    return text if isinstance(text, str) else "".join(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python notebooks/execute.py",
        description="Execute the notebooks in fresh kernels of this Python and save them with their outputs.",
    )
    parser.add_argument("notebooks", nargs="*", help="paths or name prefixes (default: every notebook)")
    parser.add_argument("--quick", action="store_true", help=f"small budgets ({QUICK_ENV}=1)")
    parser.add_argument("--no-write", action="store_true", help="execute only; leave the files as they are")
    parser.add_argument("--timeout", type=int, default=CELL_TIMEOUT_S, help="seconds one cell may take")
    args = parser.parse_args(argv)
    try:
        paths = select(args.notebooks)
    except ValueError as err:
        parser.error(str(err))
    if not paths:
        parser.error(f"no notebooks in {NOTEBOOK_DIR}")
    for path in paths:
        started = time.perf_counter()
        nb = run_notebook(path, quick=args.quick, timeout=args.timeout)
        seconds = time.perf_counter() - started
        if not args.no_write:
            with open_atomic(path) as f:  # a failed write leaves the committed notebook whole
                nbformat.write(nb, f)
        size = f", {path.stat().st_size / 1e6:.2f} MB" if not args.no_write else ""
        print(f"{path.name}: executed in {seconds:.0f} s{size}{'' if args.no_write else ', written'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
