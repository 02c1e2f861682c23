"""Policy files: weights only, read without pickle, the same actions as the SB3 policy they came from."""

import json

import numpy as np
import pytest
import torch

from agents.policy_file import PolicyFileError, PolicyNet


def _net(rng, sizes=(6, 8, 4), activation="tanh", meta=None):
    layers = [(rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
              for a, b in zip(sizes[:-2], sizes[1:-1])]
    head = (rng.normal(size=sizes[-2:]).astype(np.float32), rng.normal(size=sizes[-1]).astype(np.float32))
    return PolicyNet(layers, head, activation, meta or {"game": "contack"})


def test_a_saved_policy_loads_with_the_same_weights_and_actions(tmp_path):
    rng = np.random.default_rng(0)
    net = _net(rng)
    net.save(tmp_path / "p.npz")
    back = PolicyNet.load(tmp_path / "p.npz", game="contack")
    obs = rng.normal(size=(20, 6)).astype(np.float32)
    np.testing.assert_allclose(back.logits(obs), net.logits(obs), rtol=1e-6)
    assert back.meta["format"] == "contack-policy/1"
    assert back.meta["game"] == "contack"


def test_act_never_picks_a_masked_action_and_takes_the_best_legal_one():
    net = _net(np.random.default_rng(1))
    obs = np.ones(6, dtype=np.float32)
    logits = net.logits(obs)
    mask = np.ones(4, dtype=np.int8)
    mask[int(np.argmax(logits))] = 0
    chosen = net.act(obs, mask)
    assert mask[chosen] == 1
    assert chosen == max(np.flatnonzero(mask), key=lambda a: logits[a])
    rng = np.random.default_rng(2)
    assert all(mask[net.act(obs, mask, deterministic=False, rng=rng)] for _ in range(50))


def test_an_empty_mask_is_an_error():
    net = _net(np.random.default_rng(1))
    with pytest.raises(ValueError, match="allows no action"):
        net.act(np.zeros(6, dtype=np.float32), np.zeros(4))


def test_the_actor_of_an_sb3_policy_is_exported_exactly():
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    policy = MaskableActorCriticPolicy(
        spaces.Box(-1, 1, (10,), np.float32), spaces.Discrete(7), lambda _: 1e-3, net_arch=[16, 16]
    )
    net = PolicyNet.from_sb3(policy, {"game": "contack"})
    obs = np.random.default_rng(3).uniform(-1, 1, size=(5, 10)).astype(np.float32)
    with torch.no_grad():
        dist = policy.get_distribution(torch.as_tensor(obs))
        expected = dist.distribution.logits.numpy()
    # SB3 normalises logits (log-softmax); the arg-max and the differences are what must agree
    got = net.logits(obs)
    np.testing.assert_allclose(got - got.max(axis=1, keepdims=True), expected - expected.max(axis=1, keepdims=True), atol=1e-5)


def test_a_missing_file_says_so(tmp_path):
    with pytest.raises(PolicyFileError, match="no policy file at"):
        PolicyNet.load(tmp_path / "nothing.npz")


@pytest.mark.parametrize("spec, shown", [("ppo:\x00", "no policy file at '\\x00'"),
                                         ("az:bot\x1b[2Jnet.npz", "no network file at 'bot\\x1b[2Jnet.npz'")])
def test_a_path_holding_a_control_character_is_shown_as_python_writes_it(spec, shown):
    # Printed as it was, a NUL shows as nothing at all and an escape sequence is run by the terminal (here: clear).
    from agents.registry import check_spec

    with pytest.raises(PolicyFileError) as caught:
        check_spec(spec)
    assert str(caught.value) == shown


def test_a_file_named_with_a_control_character_is_named_escaped_whatever_is_wrong_with_it(tmp_path):
    import shutil
    from pathlib import Path

    from agents.registry import make_agent

    named = tmp_path / "bot\x1b[2J.npz"
    shutil.copy(Path(__file__).resolve().parents[2] / "models" / "contack_2p.npz", named)
    with pytest.raises(PolicyFileError) as caught:
        make_agent(f"ppo:{named}", 0, game="solitaire1")  # an archive that reads: refused for another game
    assert str(caught.value) == f"{tmp_path}/bot\\x1b[2J.npz is a policy for 'contack', not for 'solitaire1'"


@pytest.mark.parametrize("loader", ["ppo", "az"])
def test_a_folder_or_an_unreadable_file_is_named_as_such_not_called_another_kind_of_file(tmp_path, monkeypatch, loader):
    import builtins

    from agents.az.network import AZNet

    load = PolicyNet.load if loader == "ppo" else AZNet.load
    (tmp_path / "models.npz").mkdir()
    with pytest.raises(PolicyFileError, match=r"models.npz is a folder, not a contack-"):
        load(tmp_path / "models.npz")
    locked = tmp_path / "locked.npz"
    _net(np.random.default_rng(0)).save(locked)
    real_open = builtins.open

    def denied(file, *args, **kwargs):  # as for a file of mode 000 to a user who is not root
        if str(file) == str(locked):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", denied)
    with pytest.raises(PolicyFileError) as err:
        load(locked)
    assert str(err.value) == f"{locked} cannot be read: Permission denied"


@pytest.mark.parametrize("content", [b"PK not really", b"just some text\n", b"\x93NUMPY\x01\x00v\x00{'descr': '|O'"])
def test_a_file_of_another_kind_says_so_without_suggesting_unsafe_loading(tmp_path, content):
    bad = tmp_path / "model.zip"
    bad.write_bytes(content)
    with pytest.raises(PolicyFileError, match="is not a contack-policy/1 policy file") as err:
        PolicyNet.load(bad)
    assert "not a .npz archive" in str(err.value)
    assert "allow_pickle" not in str(err.value) and "unsafe" not in str(err.value)


@pytest.mark.parametrize("loader", ["ppo", "az"])
def test_a_file_cut_short_or_an_empty_path_says_so(tmp_path, loader):
    from agents.az.network import AZNet

    load = PolicyNet.load if loader == "ppo" else AZNet.load
    whole = tmp_path / "whole.npz"
    _net(np.random.default_rng(0)).save(whole)
    cut = tmp_path / "cut.npz"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])  # a copy or a download stopped halfway
    with pytest.raises(PolicyFileError) as err:
        load(cut)
    assert str(err.value) == f"{cut} is a .npz archive cut short or damaged (its end is missing): copy or write it again"
    with pytest.raises(PolicyFileError, match=r"^the path of the (policy|network) file is empty$"):
        load("")


def test_an_activation_this_version_lacks_is_refused_naming_the_file(tmp_path):
    net = _net(np.random.default_rng(0))
    net.activation = "gelu"
    net.save(tmp_path / "later.npz")
    with pytest.raises(PolicyFileError) as err:
        PolicyNet.load(tmp_path / "later.npz")
    assert str(err.value) == f"{tmp_path / 'later.npz'}: activation must be one of tanh, relu; got 'gelu'"


def test_a_pickled_array_is_refused_not_unpickled(tmp_path):
    path = tmp_path / "evil.npz"
    np.savez(path, meta=np.array([{"format": "contack-policy/1"}], dtype=object))
    with pytest.raises(PolicyFileError, match="is not a contack-policy/1 policy file"):
        PolicyNet.load(path)


def test_a_file_that_names_no_game_is_a_contack_policy(tmp_path):
    _net(np.random.default_rng(0), meta={"players": 2}).save(tmp_path / "p.npz")
    assert PolicyNet.load(tmp_path / "p.npz", game="contack").meta["players"] == 2
    with pytest.raises(PolicyFileError, match="a policy for 'contack', not for 'solitaire1'"):
        PolicyNet.load(tmp_path / "p.npz", game="solitaire1")


def test_a_policy_for_another_game_is_refused(tmp_path):
    _net(np.random.default_rng(0), meta={"game": "solitaire1"}).save(tmp_path / "s.npz")
    with pytest.raises(PolicyFileError, match="a policy for 'solitaire1', not for 'contack'"):
        PolicyNet.load(tmp_path / "s.npz", game="contack")


def test_weights_that_do_not_chain_are_refused(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "broken.npz"
    np.savez(path, meta=np.array(json.dumps({"format": "contack-policy/1", "activation": "tanh"})),
             w0=rng.normal(size=(6, 8)), b0=rng.normal(size=8), wa=rng.normal(size=(5, 4)), ba=rng.normal(size=4))
    with pytest.raises(PolicyFileError, match="do not chain"):
        PolicyNet.load(path)


@pytest.mark.parametrize("lost, stray", [("w1", "b1"), ("w0", "b0, b1, w1"), ("s_wf", None)])
def test_a_file_that_lost_an_array_is_refused_not_played_as_a_smaller_network(tmp_path, lost, stray):
    # layers are read up to the first number missing: the shipped file without w1 chains as a one-layer network
    # (its two layers are as wide as each other) and played, silently, before the loader looked for strays
    with np.load("models/contack_2p.npz") as data:
        arrays = {k: data[k] for k in data.files if k != lost}
    np.savez(tmp_path / "cut.npz", **arrays)
    if stray is None:  # the factored head names what it lacks
        with pytest.raises(PolicyFileError, match="the factored head lacks wf"):
            PolicyNet.load(tmp_path / "cut.npz")
        return
    with pytest.raises(PolicyFileError, match=f"holds {stray}, which no part of the network uses .its layers are pairs"):
        PolicyNet.load(tmp_path / "cut.npz")
    net = _net(np.random.default_rng(0))
    net.save(tmp_path / "p.npz")
    with np.load(tmp_path / "p.npz") as data:
        np.savez(tmp_path / "more.npz", **{k: data[k] for k in data.files}, notes=np.zeros(2))
    with pytest.raises(PolicyFileError, match="holds notes, which no part"):
        PolicyNet.load(tmp_path / "more.npz")


def test_the_factored_policy_is_exported_exactly_and_survives_a_file(tmp_path):
    from training.networks import FactoredPolicy
    from training.seat_env import ContackSeatEnv
    from training.opponents import OpponentPool

    env = ContackSeatEnv(3, OpponentPool({"random": 1}))
    policy = FactoredPolicy(env.observation_space, env.action_space, lambda _: 1e-3, net_arch=[32, 16])
    torch.nn.init.normal_(policy.action_net.out.weight)  # the initial head is near zero: make it count
    obs = np.stack([env.reset(seed=s)[0] for s in range(6)])
    with torch.no_grad():
        expected = policy.get_distribution(torch.as_tensor(obs)).distribution.logits.numpy()
    net = PolicyNet.from_sb3(policy, {"game": "contack"})
    net.save(tmp_path / "f.npz")
    got = PolicyNet.load(tmp_path / "f.npz").logits(obs)
    np.testing.assert_allclose(got - got.max(axis=1, keepdims=True), expected - expected.max(axis=1, keepdims=True), atol=1e-4)


def test_the_factored_features_of_an_action_are_its_tile_its_cell_and_its_points():
    from contack_env.envs.observation import action_feature_index

    # The hand rows start at 621 (5 values each), the cell rows at 432 (9 each), the points at 646 (the contack_v0
    # card's table).
    index = action_feature_index()
    a = 2 * 21 + 5  # tile slot 2, cell slot 5
    assert list(index[a][:5]) == [621 + 10 + k for k in range(5)]
    assert list(index[a][5:14]) == [432 + 45 + k for k in range(9)]
    assert index[a][14] == 646 + a


@pytest.mark.parametrize("loader, model", [("ppo", "contack_2p.npz"), ("az", "contack_2p_az.npz")])
@pytest.mark.parametrize("member", ["w0.npy", "meta.npy"])
def test_a_file_whose_compressed_data_is_damaged_says_so(tmp_path, loader, model, member):
    # The archive's directory is whole, so it passes for a .npz; reading the member failed with zlib's own error.
    from pathlib import Path

    from damaged_archive import damaged_copy

    from agents.az.network import AZNet

    path = damaged_copy(Path(__file__).resolve().parents[2] / "models" / model, tmp_path / "bad.npz", member)
    with pytest.raises(PolicyFileError, match=r"bad.npz is a .npz archive whose contents are damaged \(Error -3 "
                                              r"while decompressing data: invalid block type\): copy or write it again"):
        (PolicyNet if loader == "ppo" else AZNet).load(path)
