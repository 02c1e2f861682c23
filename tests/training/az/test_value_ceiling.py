"""The value-ceiling measure (``training.az.value_ceiling``): its positions, its playouts, its figures, its command."""

import numpy as np
import pytest
from hidden_order import reordered

from agents.az.horizon import horizon_for
from agents.az.network import AZNet
from agents.lookahead import LookaheadAgent
from agents.view import public_view
from training.az.value_ceiling import Measured, main, playout_results, sample_position, score

MODEL = "models/contack_2p_az.npz"


def test_the_playouts_never_read_the_hidden_order():
    judge, horizon = LookaheadAgent(), horizon_for("hand")
    positions = (sample_position(np.random.default_rng(seed), 2, 0.15, judge) for seed in range(4, 104))
    game = next(p for p in positions if p.pile_size >= 5)  # a position with a pile to reorder
    other = reordered(game, np.random.default_rng(1))
    assert other.decks != game.decks
    base = horizon.start(public_view(game))
    first, second = (playout_results(g, 12, horizon, base, np.random.default_rng(9), judge) for g in (game, other))
    assert first == second
    assert len(set(first)) > 1  # the draws differ from playout to playout: each has its own order


def test_positions_are_decisions_from_all_through_the_game_and_follow_the_seed():
    judge = LookaheadAgent()
    rng = np.random.default_rng(2)
    positions = [sample_position(rng, 3, 0.15, judge) for _ in range(40)]
    assert all(not p.done and len(p.legal_codes()) > 1 for p in positions)
    placed = [len(p.figure.placed) for p in positions]
    assert min(placed) <= 3 and max(placed) >= 10  # early and late in a hand
    assert len({p.hand_number for p in positions}) == 3  # and in every hand
    again = [sample_position(np.random.default_rng(2), 3, 0.15, judge)]
    assert again[0].decks == positions[0].decks and again[0].figure.placed == positions[0].figure.placed


def _synthetic(rng, n=4000, playouts=16):
    """Positions whose values are known: each playout is a coin with the position's chance of a win."""
    true = rng.uniform(0.2, 0.8, n)
    draws = rng.random((n, playouts)) < true[:, None]
    result = (rng.random(n) < true).astype(float)
    return true, Measured([], draws.mean(1), draws.var(1, ddof=1), result)


def test_the_explained_share_discounts_the_playouts_own_noise():
    rng = np.random.default_rng(0)
    true, measured = _synthetic(rng)
    perfect = score("perfect", true, measured, 16)
    half = score("half", true.mean() + 0.5 * (true - true.mean()), measured, 16)
    constant = score("constant", np.full(len(true), true.mean()), measured, 16)
    assert perfect.explained == pytest.approx(1.0, abs=0.05)
    assert half.explained == pytest.approx(0.75, abs=0.05)  # a quarter of the spread left unexplained
    assert constant.explained == pytest.approx(0.0, abs=0.05)
    assert perfect.loss < half.loss < constant.loss
    # a correlation does not see a value squeezed towards the mean; the explained share does
    assert perfect.corr_result == pytest.approx(half.corr_result) and constant.corr_result == 0.0


def test_the_command_prints_a_row_per_network_between_the_constant_and_the_playouts(capsys):
    assert main(["--models", f"{MODEL},{MODEL}", "--positions", "6", "--playouts", "3", "--progress", "off"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("6 positions of 2-player lookahead games, seed 1; values over the hand")
    rows = lines[2:]
    assert rows[0].startswith("constant") and rows[-1].startswith("the bot's playouts (mean of 3)")
    assert [r.split()[0] for r in rows[1:3]] == [MODEL, MODEL]
    assert rows[1] == rows[2]  # the same network on the same positions


def test_networks_of_other_horizons_or_games_are_refused(tmp_path, capsys):
    net = AZNet.load(MODEL)
    net.meta["horizon"] = "game"
    other = tmp_path / "game_horizon.npz"
    net.save(other)
    assert main(["--models", f"{MODEL},{other}", "--positions", "2", "--progress", "off"]) == 1
    err = capsys.readouterr().err
    assert "different horizons" in err and err.count("\n") == 1, err
    assert main(["--models", "models/solitaire1_az.npz", "--positions", "2", "--progress", "off"]) == 1
    assert "cannot play 'contack'" in capsys.readouterr().err


@pytest.mark.parametrize("flag,value", [("--positions", "0"), ("--playouts", "x"), ("--players", "8"),
                                        # it keeps every position and playout in memory: no end without a limit
                                        ("--positions", str(10**30)), ("--playouts", "10001")])
def test_bad_numbers_get_a_usage_error(flag, value, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--models", MODEL, flag, value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert flag in err and "Traceback" not in err
