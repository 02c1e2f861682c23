"""The README's first training command: it exists, its options parse, and what the README says it prints matches
what the code does with those options (the steps it trains, the lines of its summary)."""

import argparse
import re
import shlex
from pathlib import Path

from training.learner import final_timesteps
from training.train import add_arguments, config_from_args

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_the_readme_gives_a_short_first_training_run_and_what_it_prints():
    (command,) = re.findall(r"^contack train .*--out runs/first$", README, flags=re.M)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    cfg = config_from_args(parser.parse_args(shlex.split(command)[2:]))
    cfg.check()
    trained = final_timesteps(0, cfg)
    assert cfg.total_timesteps <= 100_000, "a first run is short"
    assert f"trains {trained:,} steps" in README
    for opponent in cfg.eval_opponents:
        assert re.search(rf"^timesteps={trained} vs {opponent}: win rate 0\.\d{{3}} \[0\.\d{{3}}, [01]\.\d{{3}}\] over "
                         rf"{cfg.eval_games} games$", README, flags=re.M), opponent


def test_the_readme_does_not_promise_the_demo_in_under_a_minute():
    assert "under a minute" not in README
    assert re.search(r"contack demo.*CPU time", README, flags=re.S)
