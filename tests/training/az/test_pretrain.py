"""Pretraining on a bot's games (``training.az.pretrain``, ``--pretrain-games``, ``--pretrain-teacher``): the samples,
the targets, the runs that start with it, and its options."""

import numpy as np
import pytest

from agents.az.encoding import Encoder
from agents.az.horizon import horizon_for
from agents.az.network import AZNet
from agents.lookahead import LookaheadAgent
from agents.mcts import MCTSAgent
from agents.view import public_view
from contack_env.games import RuleOptions
from training.az.config import AZConfig
from training.az.pretrain import BotGames, MCTSTeacher, bot_games, pretraining_samples
from training.az.selfplay import GameSetup, SelfPlay
from training.az.train import Learner, train
from training.train import main

SETUP = GameSetup("contack", players=2, options=RuleOptions(hands=1), horizon="hand")


def _plan(explore=0.0, temperature=10.0, setup=SETUP):
    return BotGames(setup, "lookahead", temperature, explore)


def _weights(net):
    return [w for pair in [*net.trunk, net.head, *net.value] for w in pair]


def test_each_decision_teaches_the_bots_softened_judgement_and_the_result_of_the_rest_of_the_hand():
    seed = np.random.SeedSequence(3)
    samples = bot_games(_plan(), 1, seed)
    # The same game again, decision by decision: without exploring, the bot plays its choice throughout.
    rng = np.random.default_rng(seed)
    state = SETUP.new_state(rng)
    judge, encoder, horizon = LookaheadAgent(), Encoder("contack", "lookahead"), horizon_for("hand")
    decisions = []
    while not state.done:
        codes = state.legal_codes()
        if len(codes) > 1:
            view = public_view(state)
            values = np.array([judge.value(view, c) for c in codes])
            obs, actions = encoder.encode(view)
            decisions.append((obs, actions, values, state.current_player, horizon.start(view)))
            rng.random()  # the draw that decides whether to explore
        state.play_code(codes[int(np.argmax(values))] if len(codes) > 1 else codes[0])
    assert len(samples) == len(decisions) > 5
    for i, (obs, actions, values, mover, base) in enumerate(decisions):
        assert np.array_equal(samples.obs[i], obs)
        assert set(np.flatnonzero(samples.mask[i])) == set(actions)
        policy = samples.policy[i]
        assert policy.sum() == pytest.approx(1.0) and np.all(policy[~samples.mask[i]] == 0)
        assert policy[actions[int(np.argmax(values))]] == policy.max(), "the bot's choice is the likeliest"
        for a, b in [(0, 1), (0, -1)] if len(actions) > 1 else []:
            # softmax(v / 10): a move 10 points better in the bot's judgement is e times likelier
            assert np.log(policy[actions[a]] / policy[actions[b]]) == pytest.approx((values[a] - values[b]) / 10, abs=1e-4)
        result = horizon.result(state, base)
        assert samples.value[i, :2] == pytest.approx([result[mover], result[1 - mover]], abs=1e-6)
        assert samples.value[i, 0] + samples.value[i, 1] == pytest.approx(1.0, abs=1e-6), "heads-up margins mirror"
        assert list(samples.seats[i]) == [1, 1, 0, 0, 0, 0, 0]


def test_an_mcts_teacher_plays_as_mcts_does_and_teaches_its_share_of_the_root_visits():
    iterations = 24
    plan = BotGames(SETUP, "lookahead", 10.0, 0.0, f"mcts:{iterations}")
    samples = bot_games(plan, 2, np.random.SeedSequence(5))
    assert len(samples) > 10
    visits = samples.policy * iterations  # every iteration passes through exactly one of the root's moves
    assert np.allclose(visits, np.round(visits), atol=1e-4) and np.allclose(visits.sum(1), iterations, atol=1e-4)
    assert np.all(samples.policy[~samples.mask] == 0)
    # The move it plays is the one the mcts agent with the same random stream plays, position by position.
    state = SETUP.new_state(np.random.default_rng(9))
    judge = LookaheadAgent()
    compared = 0
    while not state.done:
        codes = state.legal_codes()
        view = public_view(state)
        if len(codes) > 1:
            policy, best = MCTSTeacher(iterations, np.random.default_rng(compared)).teach(view, codes,
                                                                                     judge.values(view, codes))
            move = MCTSAgent(iterations, seed=np.random.default_rng(compared)).act(view, view.legal_moves())
            assert view.move_of(codes[best]) == move
            assert policy[best] == policy.max() and policy.sum() == pytest.approx(1.0)
            compared += 1
        state.play_code(codes[len(codes) // 2])
    assert compared > 3


def test_exploring_plays_other_moves_than_the_bot_and_the_samples_do_not_depend_on_the_workers():
    calm, wild = (pretraining_samples(_plan(explore), 6, 11, SelfPlay(1, 1).map) for explore in (0.0, 0.5))
    # The bot's own choice is where every target peaks; exploring leads the games elsewhere.
    assert len(calm) != len(wild) or not np.array_equal(calm.obs, wild.obs)
    pool = SelfPlay(2, 1)
    told: list[int] = []
    try:
        spread = pretraining_samples(_plan(0.5), 6, 11, pool.map, told.append)
    finally:
        pool.close()
    for name in ("obs", "mask", "policy", "value", "seats"):
        assert np.array_equal(getattr(wild, name), getattr(spread, name)), name
    assert told == [1] * 6, "the progress hears of every game, a part (here one game) at a time"


def test_pretraining_teaches_the_network_the_bots_choices():
    cfg = AZConfig(hands=1, net_arch=[32], batch_size=32, seed=2)
    samples = pretraining_samples(_plan(0.1), 60, 4, SelfPlay(1, 1).map)
    held = pretraining_samples(_plan(0.1), 20, 5, SelfPlay(1, 1).map)
    learner = Learner(cfg)

    def agreement() -> float:
        logits, _ = learner.export({}).forward(held.obs)
        logits = np.where(held.mask, logits, -np.inf)
        return float(np.mean(np.argmax(logits, 1) == np.argmax(held.policy, 1)))

    before = agreement()
    losses = learner.fit(samples, 3, np.random.default_rng(0))
    assert len(losses) == 3 and losses[-1][0] < losses[0][0]
    assert agreement() > max(0.8, before + 0.3), (before, agreement())


def test_a_run_starts_from_the_pretrained_network_and_resumes_without_pretraining_again(tmp_path, capsys):
    cfg = dict(iterations=2, games_per_iteration=2, sims=2, workers=1, net_arch=[8], batch_size=8, eval_every=0,
               hands=1, seed=3, checkpoint_every=1, pretrain_games=6, pretrain_epochs=1)
    train(AZConfig(**cfg), str(tmp_path / "whole"), progress=False)
    err = capsys.readouterr().err
    assert "pretraining on 6 games of the lookahead bot" in err and "pretrained in" in err
    train(AZConfig(**{**cfg, "iterations": 1}), str(tmp_path / "cut"), progress=False)
    capsys.readouterr()
    train(None, str(tmp_path / "cut"), resume=True, progress=False, iterations=2)
    assert "pretraining" not in capsys.readouterr().err
    whole, cut = (AZNet.load(tmp_path / name / "policy.npz") for name in ("whole", "cut"))
    assert all(np.array_equal(x, y) for x, y in zip(_weights(whole), _weights(cut)))
    plain = tmp_path / "plain"
    train(AZConfig(**{**cfg, "pretrain_games": 0}), str(plain), progress=False)
    assert not all(np.array_equal(x, y) for x, y in zip(_weights(whole), _weights(AZNet.load(plain / "policy.npz"))))


def test_a_run_resumed_from_its_pretrained_checkpoint_evaluates_iteration_0_once(tmp_path, monkeypatch):
    # Killed in its first iteration, the run resumes from the pretraining's checkpoint (iteration 0), whose
    # evaluation eval.csv already holds: it was made again, and its rows written twice.
    from training.az.selfplay import SelfPlay

    cfg = dict(iterations=1, games_per_iteration=2, sims=2, workers=1, net_arch=[8], batch_size=8, eval_every=1,
               eval_games=2, eval_opponents=["random"], hands=1, seed=3, checkpoint_every=1, pretrain_games=2,
               pretrain_epochs=1)
    out = tmp_path / "run"
    with monkeypatch.context() as patch:
        patch.setattr(SelfPlay, "round", lambda *args: (_ for _ in ()).throw(KeyboardInterrupt))
        with pytest.raises(KeyboardInterrupt):
            train(AZConfig(**cfg), str(out), progress=False)
    at_0 = (out / "eval.csv").read_text().splitlines()[1:]
    assert [row.split(",")[:3] for row in at_0] == [["0", "0", "az"], ["0", "0", "az:0"]]
    train(None, str(out), resume=True, progress=False)
    rows = [row.split(",")[:3] for row in (out / "eval.csv").read_text().splitlines()[1:]]
    assert rows == [["0", "0", "az"], ["0", "0", "az:0"], ["1", "2", "az"], ["1", "2", "az:0"]]
    assert (out / "eval.csv").read_text().splitlines()[1:3] == at_0


@pytest.mark.parametrize("argv,message", [
    (["--pretrain-games", "-1"], "pretrain_games must be a whole number, 0 or more; got -1"),
    (["--pretrain-epochs", "0"], "pretrain_epochs must be a whole number, at least 1; got 0"),
    (["--pretrain-temperature", "0"], "pretrain_temperature must be above 0; got 0.0"),
    (["--pretrain-learning-rate", "0"], "pretrain_learning_rate must be above 0; got 0.0"),
    (["--pretrain-explore", "1.5"], "pretrain_explore must be a share from 0 to 1; got 1.5"),
    (["--game", "solitaire2", "--pretrain-games", "10"], "pretrain_games: the pretraining games are a bot's at a Contack"),
    (["--pretrain-teacher", "greedy"], "pretrain_teacher: the pretraining teacher is lookahead or mcts:N"),
    (["--pretrain-teacher", "mcts:0"], "pretrain_teacher: mcts:0: the budget is a whole number of iterations, 1..1000000"),
])
def test_bad_pretraining_options_are_refused_with_a_message(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as exit_:
        main(["--algorithm", "az", *argv, "--out", str(tmp_path / "run")])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_a_run_off_a_terminal_logs_plain_progress_lines_and_counts_a_resume_from_where_it_stopped(tmp_path, capsys):
    # pytest's captured standard error is not a terminal: a job log, where a tqdm bar's redrawing would pile up.
    cfg = dict(iterations=2, games_per_iteration=2, sims=2, workers=1, net_arch=[8], batch_size=64, eval_every=0,
               hands=1, seed=3, checkpoint_every=1, pretrain_games=6, pretrain_epochs=2)
    train(AZConfig(**cfg), str(tmp_path / "run"), progress=True)
    lines = capsys.readouterr().err.splitlines()
    assert "\r" not in "".join(lines)
    samples = int(next(line for line in lines if " samples in " in line).split()[2])
    batches = 2 * -(-samples // 64)
    progress = [line for line in lines if not line.startswith("contack train: ")]
    assert progress[:5] == ["train az: 0/2 iterations (0%)", "bot games: 0/6 games (0%)", progress[2],
                            f"pretrain az: 0/{batches} batches (0%)", progress[4]], lines
    assert progress[2].startswith("bot games: 6 games in ")
    assert progress[4].startswith(f"pretrain az: {batches} batches in ")
    # the last line carries the latest losses, as the bar's postfix does
    assert progress[5].startswith("train az: 2 iterations in ") and "; games=4, policy=" in progress[5], progress
    assert len(progress) == 6

    train(None, str(tmp_path / "run"), resume=True, progress=True, iterations=3)
    progress = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("contack train: ")]
    assert progress[0] == "train az: 2/3 iterations (66%)", progress
    assert progress[1].startswith("train az: 1 iteration in ") and " s (3/3); games=6, policy=" in progress[1], progress
