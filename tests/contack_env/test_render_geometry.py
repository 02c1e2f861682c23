"""Pictures of a whole game keep one geometry (the panel never moves between frames, so a strip is a regular
grid and a GIF's panel stands still), and they name the agent in each seat."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from contack_env import new_game
from contack_env.records import read_records
from contack_env.render.image import PANEL, agent_label, record_to_frames, render_rgb
from contack_env.render.pictures import save_gif, save_strip

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def panel_left(frame: np.ndarray) -> int:
    """The first column of the panel: where the top row turns to the panel's colour for good."""
    top = frame[0]
    is_panel = np.all(top == PANEL, axis=1)
    k = len(is_panel)
    while k > 0 and is_panel[k - 1]:
        k -= 1
    return k


@pytest.mark.parametrize("name, index", [("contack_4p.jsonl", 0), ("contack_7p.jsonl", 0), ("contack_2p.jsonl", 1)])
def test_the_panel_stands_still_through_a_game(name, index):
    record = read_records(GOLDEN / name)[index]
    frames = record_to_frames(record, size=(480, 300))
    edges = {panel_left(f) for f in frames}
    assert len(edges) == 1 and 0 < edges.pop() < 480


def test_a_gif_keeps_its_panel_in_place(tmp_path):
    record = read_records(GOLDEN / "contack_4p.jsonl")[0]
    path = save_gif(record, tmp_path / "g.gif", size=(480, 300))
    edges = set()
    with Image.open(path) as gif:
        for k in range(0, gif.n_frames, 7):
            gif.seek(k)
            frame = np.asarray(gif.convert("RGB"))
            # The GIF's palette may shift the panel's colour a little: take the nearest.
            top = frame[0].astype(int)
            near = np.abs(top - np.array(PANEL)).sum(axis=1) < 12
            j = len(near)
            while j > 0 and near[j - 1]:
                j -= 1
            edges.add(j)
    assert len(edges) == 1


def test_a_strip_is_a_regular_grid(tmp_path):
    record = read_records(GOLDEN / "contack_7p.jsonl")[0]
    size = (400, 250)
    chosen = save_strip(record, tmp_path / "s.png", every=9, columns=3, size=size)
    strip = np.asarray(Image.open(tmp_path / "s.png").convert("RGB"))
    edges = set()
    for k in range(len(chosen)):
        r, c = divmod(k, 3)
        edges.add(panel_left(strip[r * size[1] : (r + 1) * size[1], c * size[0] : (c + 1) * size[0]]))
    assert len(edges) == 1


def test_the_panel_names_each_seats_agent():
    record = read_records(GOLDEN / "contack_4p.jsonl")[0]
    named = record_to_frames(record, size=(480, 300))[5]
    swapped = dict(record, agents=list(reversed(record["agents"])))
    assert not np.array_equal(record_to_frames(swapped, size=(480, 300))[5], named)
    unnamed = dict(record, agents=None)
    assert not np.array_equal(record_to_frames(unnamed, size=(480, 300))[5], named)


def test_render_rgb_names_the_agents_it_is_given_and_checks_them():
    state = new_game(3, seed=4)
    plain = render_rgb(state, size=(640, 400))
    assert np.array_equal(render_rgb(state, size=(640, 400), agents=None), plain)
    assert not np.array_equal(render_rgb(state, size=(640, 400), agents=["greedy", "random", "mcts:200"]), plain)
    for bad in (["greedy"], "greedy", ["a", "b", 3]):
        with pytest.raises(ValueError, match="one spec per seat"):
            render_rgb(state, agents=bad)


@pytest.mark.parametrize(
    "spec, label",
    [("ppo:models/contack_2p.npz", "ppo:contack_2p"), ("ppo:C:\\runs\\p.npz", "ppo:p"), ("mcts:200", "mcts:200"), (None, "?")],
)
def test_agent_labels_keep_a_models_name_and_drop_its_folder(spec, label):
    assert agent_label(spec) == label


def test_contactix_pictures_name_both_agents_in_the_title_only():
    from contack_env.contactix.rules import ContactixState
    from contack_env.render.contactix import render_rgb as contactix_rgb

    state = ContactixState(5)
    state.play(12)
    plain = contactix_rgb(state)
    named = contactix_rgb(state, agents=["two_distance", "ppo:models/contactix_5x5.npz"])
    assert named.shape == plain.shape
    differ = np.flatnonzero(np.any(named != plain, axis=(1, 2)))
    assert differ.size and differ.max() < 0.08 * plain.shape[0]  # only the title band changed
    with pytest.raises(ValueError, match="Black's and White's"):
        contactix_rgb(state, agents=["random"])
