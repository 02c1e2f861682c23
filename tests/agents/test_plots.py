"""``python -m agents.plots``: bars of the win rates of ``contack evaluate --json`` files, read back from the PNG."""

import json

import numpy as np
from PIL import Image

from agents.plots import main, short_name


def _evaluation(players, rates):
    """A hand-made evaluation JSON with these win rates (intervals of +-0.05)."""
    return {
        "players": players,
        "games": 100,
        "entries": [
            {"agent": f"ppo:models/bot{k}.npz" if k == 0 else f"bot{k}", "win_rate": r, "win_rate_ci95": [r - 0.05, r + 0.05]}
            for k, r in enumerate(rates)
        ],
    }


def _bar_heights(png, rows=slice(None)):
    """Heights in pixels of the bars (the plot's bar colour), left to right, in the pixel ``rows`` of the image."""
    rgb = np.asarray(Image.open(png).convert("RGB")).astype(int)[rows]
    blue = (np.abs(rgb - np.array([0x4C, 0x72, 0xB0])).sum(axis=2) < 60) | (
        np.abs(rgb - np.array([0x6F, 0x8E, 0xC1])).sum(axis=2) < 60  # the bar colour at alpha 0.85 on white
    )
    columns = blue.sum(axis=0)
    runs, current = [], []
    for x, count in enumerate(columns):
        if count > 3:
            current.append(count)
        elif current:
            runs.append(int(np.median(current)))
            current = []
    if current:
        runs.append(int(np.median(current)))
    return runs


def test_bars_stand_as_high_as_the_win_rates(tmp_path):
    paths = []
    for k, ev in enumerate((_evaluation(2, [0.8, 0.2]), _evaluation(4, [0.1, 0.4, 0.3, 0.2]))):
        path = tmp_path / f"ev{k}.json"
        path.write_text(json.dumps(ev))
        paths.append(str(path))
    out = tmp_path / "plot.png"
    assert main([str(out), "test plot", *paths]) == 0
    heights = _bar_heights(out)
    assert len(heights) == 6, heights  # one bar per entry, both panels
    rates = [0.8, 0.2, 0.1, 0.4, 0.3, 0.2]
    # Both panels share the y axis (0..1), so every bar's height is proportional to its win rate.
    scale = heights[0] / rates[0]
    for h, r in zip(heights, rates):
        assert abs(h - r * scale) <= 3, (heights, rates)


def test_usage_and_short_names(tmp_path, capsys):
    assert main([str(tmp_path / "x.png")]) == 2
    assert "usage" in capsys.readouterr().err
    assert short_name("ppo:models/contack_2p.npz") == "ppo:contack_2p"
    assert short_name("mcts:200") == "mcts:200"
    assert short_name("az:models/contack_2p_az.npz:0") == "az:contack_2p_az:0"
    assert short_name("az:/tmp/x/net.npz") == "az:net"
    assert short_name("az:runs/a:b/net.npz:40:7") == "az:net:40:7"  # a colon in a folder's name
    assert short_name("ppo:runs/x/policy") == "ppo:policy"  # any file name: a policy file is read by its contents
    assert short_name("az:runs/x/net") == "az:net"


def test_more_evaluations_than_a_row_holds_go_on_a_second_row(tmp_path):
    rates = [(0.9, 0.1), (0.8, 0.2), (0.7, 0.3), (0.6, 0.4), (0.5, 0.5), (0.3, 0.7)]
    paths = []
    for k, pair in enumerate(rates):
        path = tmp_path / f"ev{k}.json"
        path.write_text(json.dumps(_evaluation(2, list(pair))))
        paths.append(str(path))
    out = tmp_path / "plot.png"
    assert main([str(out), "six evaluations", *paths]) == 0
    height = Image.open(out).height
    top, bottom = _bar_heights(out, slice(0, height // 2)), _bar_heights(out, slice(height // 2, None))
    assert len(top) == 8 and len(bottom) == 4, (top, bottom)  # four panels, then the other two
    flat = [r for pair in rates for r in pair]
    scale = top[0] / flat[0]  # every panel on the same 0..1 axis, on either row
    for h, r in zip(top + bottom, flat):
        assert abs(h - r * scale) <= 3, (top, bottom)
