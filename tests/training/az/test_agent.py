"""``az:PATH[:SIMS[:ENDGAME]]`` agents and their ``contack-az/1`` files."""

import re

import numpy as np
import pytest
from az_nets import random_net
from public_play import play_out

from agents.evaluate import evaluate
from agents.registry import check_spec, make_agent
from agents.view import public_view
from contack_env import new_game, new_solitaire1, new_solitaire2
from agents.az.network import AZNet
from agents.policy_file import PolicyFileError


@pytest.fixture(scope="module")
def nets(tmp_path_factory):
    folder = tmp_path_factory.mktemp("az")
    paths = {}
    for game in ("contack", "solitaire1", "solitaire2"):
        paths[game] = str(folder / f"{game}.npz")
        random_net(game, seed=1, sims=3).save(paths[game])
        # the lookahead judgement as extra inputs, the values of the current hand
        paths[game, "lookahead"] = str(folder / f"{game}_lookahead.npz")
        random_net(game, seed=1, features="lookahead", horizon="hand", sims=3).save(paths[game, "lookahead"])
    return paths


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_az_plays_only_legal_moves_at_every_table_size(nets, players):
    agent = make_agent(f"az:{nets['contack']}:2", seed=players)
    assert play_out(new_game(players, num_hands=1, seed=players, log=False), agent) > 0
    # with the lookahead inputs and the hand horizon, over hands that end and are dealt again
    agent = make_agent(f"az:{nets['contack', 'lookahead']}:4", seed=players)
    assert play_out(new_game(players, num_hands=2, seed=players, log=False), agent) > 0


@pytest.mark.parametrize("game,deal", [("solitaire1", new_solitaire1), ("solitaire2", new_solitaire2)])
def test_az_plays_only_legal_moves_in_the_solitaires(nets, game, deal):
    for sims in (0, 3):
        for path in (nets[game], nets[game, "lookahead"]):
            agent = make_agent(f"az:{path}:{sims}", seed=1, game=game)
            assert play_out(deal(5, log=False), agent) > 0


def test_a_network_file_round_trips(tmp_path):
    net = random_net("contack", seed=2, sims=7, players=4)
    path = tmp_path / "net.npz"
    net.save(path)
    back = AZNet.load(path, game="contack")
    obs = np.random.default_rng(0).random((3, net.obs_size)).astype(np.float32)
    for a, b in zip(net.forward(obs), back.forward(obs)):
        assert np.array_equal(a, b)
    assert (back.meta["sims"], back.meta["players"], back.seats) == (7, 4, 7)
    assert not [p for p in tmp_path.iterdir() if p.name != "net.npz"], "no temporary file left behind"


def test_the_spec_sets_the_simulations_and_the_file_gives_the_default(nets):
    assert make_agent(f"az:{nets['contack']}").sims == 3
    assert make_agent(f"az:{nets['contack']}:0").sims == 0
    assert make_agent(f"az:{nets['contack']}:25").sims == 25


def test_the_spec_sets_the_endgame_budget_and_the_network_alone_has_none(nets):
    path = nets["solitaire2"]
    assert make_agent(f"az:{path}", game="solitaire2").endgame == 3000
    assert make_agent(f"az:{path}:0", game="solitaire2").endgame == 0  # the network alone: no search at all
    agent = make_agent(f"az:{path}:12:500", game="solitaire2")
    assert (agent.sims, agent.endgame) == (12, 500)
    assert make_agent(f"az:{path}:12:0", game="solitaire2").endgame == 0
    # Two numbers at most, whole and not negative: what follows the file is said to be wrong, not the file missing.
    for rest in ("1:2:3", "abc", "-3", "12:x", "1.5", " 5"):  # digits alone, no space before them
        with pytest.raises(ValueError, match=f"after the network file {path} come at most two whole numbers of 0 "
                                             rf"or more, SIMS and ENDGAME \(az:PATH\[:SIMS\[:ENDGAME\]\]\); got '{rest}'"):
            make_agent(f"az:{path}:{rest}", game="solitaire2")
    with pytest.raises(PolicyFileError, match="no network file"):
        make_agent(f"az:{path}.missing:12", game="solitaire2")
    # a number longer than any budget (and than Python reads into an int) is said to be one, with the caps
    with pytest.raises(ValueError, match=r"^az: SIMS is a whole number 0\.\.100000 and ENDGAME 0\.\.10000000 "
                                         r"\(az:PATH\[:SIMS\[:ENDGAME\]\]\); got a number of 5000 digits$"):
        make_agent(f"az:{path}:{'9' * 5000}", game="solitaire2")


def test_a_path_with_a_colon_is_read_whole(nets, tmp_path):
    folder = tmp_path / "a:b"
    folder.mkdir()
    (folder / "net.npz").write_bytes(open(nets["contack"], "rb").read())
    assert make_agent(f"az:{folder / 'net.npz'}:5").sims == 5
    odd = tmp_path / "net.npz:x"  # a file whose own name has a colon and letters after it
    odd.write_bytes(open(nets["contack"], "rb").read())
    assert make_agent(f"az:{odd}:4").sims == 4


def test_the_same_seed_makes_the_same_choices(nets):
    def picks(seed):  # the agent's moves at 12 positions of 3-player games, each with 3 or more choices
        moves = []
        for deal in range(12):
            game = new_game(3, seed=deal, log=False)
            while len(game.legal_codes()) < 3:
                game.play_code(game.legal_codes()[0])
            view = public_view(game)
            moves.append(make_agent(f"az:{nets['contack']}:12", seed=seed).act(view, view.legal_moves()))
        return moves

    first = picks(9)
    assert picks(9) == first
    # the seed is what makes them so: a dozen other seeds' searches (other draws of the pile) choose otherwise
    # somewhere in these positions
    assert any(picks(seed) != first for seed in range(10, 22))


def test_bad_files_and_games_are_refused_clearly(nets, tmp_path):
    with pytest.raises(PolicyFileError, match="no network file"):
        make_agent(f"az:{tmp_path / 'missing.npz'}")
    with pytest.raises(PolicyFileError, match="'solitaire2'; it cannot play 'contack'"):
        make_agent(f"az:{nets['solitaire2']}")
    with pytest.raises(ValueError, match="it cannot play 'solitaire1'"):
        check_spec(f"az:{nets['contack']}", "solitaire1")
    with pytest.raises(PolicyFileError, match=r"ppo:PATH"):
        make_agent("az:models/contack_2p.npz")
    for other in ("models/contactix_5x5.npz", "models/solitaire1.npz"):  # no ppo:PATH would play it at Contack
        with pytest.raises(PolicyFileError, match=r"expected 'contack-az/1'$"):
            make_agent(f"az:{other}")
    listed = tmp_path / "listed.npz"
    np.savez(listed, meta=np.array('["contack-az/1"]'))
    with pytest.raises(PolicyFileError, match="its 'meta' entry is not a JSON object"):
        make_agent(f"az:{listed}")
    with pytest.raises(PolicyFileError, match=r"a search-guided network: play it as az:PATH"):
        make_agent(f"ppo:{nets['contack']}")
    for game in ("solitaire1", "contactix"):  # no az:PATH there would play it: no such hint
        with pytest.raises(PolicyFileError, match=r"expected 'contack-policy/1'$"):
            make_agent(f"ppo:{nets['contack']}", game=game)
    text = tmp_path / "notes.npz"
    text.write_text("not weights")
    with pytest.raises(PolicyFileError, match="not a .npz archive"):
        make_agent(f"az:{text}")
    with pytest.raises(ValueError, match="az needs the path"):
        make_agent("az")
    # a file from a later version (inputs or values this one does not know), and inputs that do not fit the game
    for key, value, message in (("features", "hints", "features is 'hints'; this version reads none, lookahead"),
                                ("horizon", "turn", "horizon is 'turn'; this version reads game, hand"),
                                ("rollout", 1.5, "rollout is 1.5; it is a share from 0 to 1"),
                                ("leaf_moves", -2, "leaf_moves is a whole number of greedy moves"),
                                # settings the search reads only once it plays: refused at load, not mid-game
                                ("mode", "zzz", "mode is 'zzz'; this version reads gumbel, visits"),
                                ("max_considered", 0, "max_considered is 0; it is a whole number of moves"),
                                ("players", 10**30, f"players is {10**30}; a table has 1 to 7 seats")):
        net = AZNet.load(nets["contack"])
        net.meta[key] = value
        net.save(tmp_path / "later.npz")
        with pytest.raises(PolicyFileError, match=f"^{re.escape(str(tmp_path / 'later.npz'))}: {message}"):
            make_agent(f"az:{tmp_path / 'later.npz'}")
    net = AZNet.load(nets["contack"])
    net.activation = "zzz"
    net.save(tmp_path / "later.npz")
    with pytest.raises(PolicyFileError, match=f"^{re.escape(str(tmp_path / 'later.npz'))}: activation must be one of relu, tanh"):
        make_agent(f"az:{tmp_path / 'later.npz'}")
    # a default no az:PATH can play (--play-sims is capped now; an edited file): the file and the way out named
    net = AZNet.load(nets["contack"])
    net.meta["sims"] = 200_000
    net.save(tmp_path / "later.npz")
    with pytest.raises(PolicyFileError, match=r"later.npz: its simulations a decision \(meta 'sims'\) are 200000, "
                                              r"not a whole number 0..100000: give them in the spec, az:PATH:SIMS"):
        make_agent(f"az:{tmp_path / 'later.npz'}")
    assert make_agent(f"az:{tmp_path / 'later.npz'}:3").sims == 3
    net = AZNet.load(nets["contack"])
    net.head[0][0, 0] = np.nan  # a diverged run: its search would follow garbage priors, silently
    net.save(tmp_path / "diverged.npz")
    with pytest.raises(PolicyFileError, match=r"wa holds 1 NaN or infinite weight"):
        make_agent(f"az:{tmp_path / 'diverged.npz'}")
    net = AZNet.load(nets["contack"])
    del net.meta["game"]  # a file from before networks named their game is Contack's, by every reader
    net.save(tmp_path / "older.npz")
    assert AZNet.load(tmp_path / "older.npz").game == "contack"
    assert AZNet.load(tmp_path / "older.npz", game="contack").game == "contack"
    net = AZNet.load(nets["contack"])
    net.meta["features"] = "lookahead"
    net.save(tmp_path / "short.npz")
    with pytest.raises(PolicyFileError, match=r"short.npz reads 787 inputs, but contack with features 'lookahead' gives 997"):
        make_agent(f"az:{tmp_path / 'short.npz'}")


@pytest.mark.parametrize("lost", ["w1", "vw1", "s_wf"])
def test_a_file_that_lost_an_array_is_refused_not_played_as_a_smaller_network(nets, tmp_path, lost):
    # the trunk and the value head are read layer by layer up to the first number missing: without w1 the file
    # would chain as a one-layer trunk (its layers are as wide as each other) and play, silently
    net = AZNet.load(nets["contack"])
    assert len(net.trunk) == len(net.value) == 2 and net.scorer is not None
    with np.load(nets["contack"]) as data:
        arrays = {k: data[k] for k in data.files if k != lost}
    np.savez(tmp_path / "cut.npz", **arrays)
    message = {"w1": "holds b1, which no part of the network uses", "vw1": "holds vb1, which no part of the network uses",
               "s_wf": "the weights lack s_wf"}[lost]
    with pytest.raises(PolicyFileError, match=f"^{re.escape(str(tmp_path / 'cut.npz'))}: {message}"):
        make_agent(f"az:{tmp_path / 'cut.npz'}")
    with np.load(nets["contack"]) as data:
        np.savez(tmp_path / "more.npz", **{k: data[k] for k in data.files}, notes=np.zeros(2))
    with pytest.raises(PolicyFileError, match="holds notes, which no part of the network uses"):
        make_agent(f"az:{tmp_path / 'more.npz'}")


def test_az_takes_part_in_an_evaluation(nets):
    ev = evaluate([f"az:{nets['contack']}:2", "random"], 2, seed=1, players=2, hands=1)
    assert ev.entries[0].games == 2
    solo = evaluate([f"az:{nets['solitaire2']}:0", "greedy"], 2, seed=1, game="solitaire2")
    assert solo.entries[0].mean_tiles_placed > 1
