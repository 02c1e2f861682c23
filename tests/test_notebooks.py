"""The notebooks (``notebooks/*.ipynb``) run top to bottom, so a notebook that breaks fails CI.

Each runs as ``python notebooks/execute.py --quick --no-write`` would: in a fresh kernel of this interpreter, with
``CONTACK_NOTEBOOK_QUICK=1`` (small game counts and training budgets), from the notebooks folder, and nothing is
written back. A failing cell fails its test with the cell's source and error. The committed files must carry the
outputs of a full-budget run, since they are read on the repository page.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
EXPECTED = ("01_rules_and_environment.ipynb", "02_train_and_evaluate.ipynb", "03_solitaires.ipynb")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def load_execute() -> ModuleType:
    # notebooks/ is not a package: load its runner by path.
    spec = importlib.util.spec_from_file_location("contack_notebooks_execute", NOTEBOOK_DIR / "execute.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


execute = load_execute()


def first_code_output(nb: nbformat.NotebookNode) -> str:
    cell = next(c for c in nb.cells if c.cell_type == "code")
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def test_the_three_notebooks_are_found():
    # Guards the parametrized test below against a rename or a move that would silently run nothing.
    assert [p.name for p in execute.notebook_paths()] == list(EXPECTED)


@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_runs_with_the_quick_budget(name: str):
    try:
        nb = execute.run_notebook(NOTEBOOK_DIR / name, quick=True)
    except CellExecutionError as err:
        pytest.fail(f"{name} failed:\n{ANSI.sub('', str(err))}", pytrace=False)
    assert "QUICK=True" in first_code_output(nb)  # the budget variable reached the kernel
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors


@pytest.mark.parametrize("name", EXPECTED)
def test_committed_notebook_holds_full_budget_outputs(name: str):
    nb = nbformat.read(NOTEBOOK_DIR / name, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code), "run `python notebooks/execute.py` and commit"
    assert "QUICK=False" in first_code_output(nb)
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]


def test_kernel_is_this_interpreter_in_the_notebook_folder(tmp_path: Path):
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("import os, sys\nprint(sys.executable)\nprint(os.getcwd())\nprint(os.environ.get('CONTACK_NOTEBOOK_QUICK'))")]
    )
    path = tmp_path / "probe.ipynb"
    nbformat.write(nb, path)
    lines = first_code_output(execute.run_notebook(path, quick=False)).splitlines()
    assert lines == [sys.executable, str(tmp_path.resolve()), "None"]


def test_a_cells_printing_is_one_output_however_the_kernel_sent_it(tmp_path: Path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import sys, time\nprint('a', flush=True)\ntime.sleep(0.5)\nprint('b', flush=True)\ntime.sleep(0.5)\n"
        "print('c', file=sys.stderr)")])
    path = tmp_path / "probe.ipynb"
    nbformat.write(nb, path)
    outputs = execute.run_notebook(path, quick=False).cells[0].outputs
    assert [(o.name, o.text) for o in outputs] == [("stdout", "a\nb\n"), ("stderr", "c\n")]


def _printed(nb: nbformat.NotebookNode) -> list[str]:
    """Each code cell's text output (streams and plain-text results; not pictures)."""
    return ["".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in c.outputs)
            for c in nb.cells if c.cell_type == "code"]


def test_the_committed_first_notebook_prints_what_the_code_prints_today():
    # Seconds at its full budget: a change of the code's wording shows here, to re-execute the notebook.
    name = EXPECTED[0]
    fresh = execute.run_notebook(NOTEBOOK_DIR / name, quick=False)
    assert _printed(nbformat.read(NOTEBOOK_DIR / name, as_version=4)) == _printed(fresh), \
        f"run `python notebooks/execute.py {name[:2]}` and commit"


def test_notebooks_are_selected_by_prefix_and_unknown_names_are_refused():
    assert [p.name for p in execute.select(["02"])] == ["02_train_and_evaluate.ipynb"]
    assert [p.name for p in execute.select([])] == list(EXPECTED)
    with pytest.raises(ValueError, match="'0' names 3 notebooks"):
        execute.select(["0"])
    with pytest.raises(ValueError, match="'99' names no notebook; give a path or a unique prefix"):
        execute.select(["99"])
