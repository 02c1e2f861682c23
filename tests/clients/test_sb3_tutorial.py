"""PettingZoo's SB3 action-masking tutorial run on ``contack/contack-v0`` with only the id swapped (its pattern
is ``sb3_tutorial``): made through PettingZoo's registry, trained briefly with ``MaskablePPO`` on every seat,
evaluated against a random player, and watched with ``render_mode="human"`` as the tutorial's last call does."""

from __future__ import annotations

import tempfile

import pytest

pytest.importorskip("sb3_contrib")
pettingzoo = pytest.importorskip("pettingzoo")
if not hasattr(pettingzoo, "make"):
    pytest.skip("the tutorial makes environments by id: PettingZoo 1.27 or later", allow_module_level=True)

import sb3_tutorial  # noqa: E402  (this folder is on sys.path: conftest.py)

ENV_ID = "contack/contack-v0"


@pytest.fixture(scope="module")
def model():
    return sb3_tutorial.train(ENV_ID, steps=2048, seed=0)  # one rollout of MaskablePPO's default 2048 steps


def test_the_tutorial_trains_and_evaluates_against_random(model):
    assert model.num_timesteps == 2048
    rate, totals = sb3_tutorial.evaluate(model, ENV_ID, num_games=4)
    assert 0.0 <= rate <= 1.0
    # Reward "win" is zero-sum: the four games' rewards add up to 0 over the table, and nobody lost on an
    # illegal action (the model's actions come through the mask).
    assert sum(totals.values()) == pytest.approx(0.0)
    assert all(r > -4 for r in totals.values())


def test_the_tutorial_watches_two_games_in_human_mode(model, capsys):
    sb3_tutorial.evaluate(model, ENV_ID, num_games=2, render_mode="human")
    shown = capsys.readouterr().out
    assert shown.count("Contack, 4 players, hand 1 of 3") >= 2 and "Game over" in shown


def test_training_leaves_no_folder_in_the_temporary_folder(tmp_path, monkeypatch):
    # SB3's default logger makes an empty SB3-<time> folder there on every learn(), even logging nothing.
    # (torch may keep a cache of its own there; it is not ours to judge.)
    monkeypatch.delenv("SB3_LOGDIR", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    sb3_tutorial.train(ENV_ID, steps=1, seed=0)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("SB3")] == []
