"""The project's set-up promises: the README's two Quick start commands and CI running the second."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_readme_quick_start_has_two_commands():
    commands = _quick_start_commands()
    assert len(commands) == 2
    assert all("-c constraints.txt" in c for c in commands)


def test_ci_runs_the_readme_test_command():
    assert _quick_start_commands()[1] in (ROOT / ".ci" / "run").read_text()


def test_ci_stops_when_any_step_of_the_test_command_fails():
    # set -e does not stop at a failure inside an && chain: a failed install would skip the tests and CI go on.
    command = _quick_start_commands()[1]
    (line,) = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if command in line]
    script = "set -euo pipefail\n" + line.replace(command, "true && false && true") + "\necho went on\n"
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
    assert done.returncode != 0 and "went on" not in done.stdout


def test_constraints_pin_the_tested_torch():
    assert "torch==2.13.0" in (ROOT / "constraints.txt").read_text().splitlines()


def test_every_file_the_readme_links_to_exists():
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(([^)#]+)\)", readme)
    assert links, "the README links its documents and pictures"
    missing = [link for link in links if not link.startswith("http") and not (ROOT / link).exists()]
    assert missing == []


def test_every_command_in_the_readme_cli_block_exists():
    from contack_env.cli import build_parser

    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Command line", 1)[1].split("```", 2)[1]
    named = set(re.findall(r"^contack (\w+)", block, re.M))
    sub = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    assert named and named <= set(sub.choices)


def test_the_shipped_models_are_policy_files_with_their_configs_and_curves():
    from agents.policy_file import PolicyNet

    for name, players in (("contack_2p", 2), ("contack_4p", 4)):
        net = PolicyNet.load(ROOT / "models" / f"{name}.npz", game="contack")
        assert net.meta["players"] == players
        assert (ROOT / "models" / f"{name}.toml").is_file()
        assert (ROOT / "models" / f"{name}_curve.png").is_file()
    assert (ROOT / "models" / "README.md").is_file()
