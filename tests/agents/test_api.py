"""The public Python API: ``agents.evaluate`` with specs, Agent objects and functions; ``agents.register``; agents
of an installed package (the ``contack.agents`` entry points) in every command; ``--ray`` without Ray."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import agents
from agents import GreedyAgent, RandomAgent, evaluate, make_agent, register, unregister
from agents.registry import registered_names, spec_help
from contack_env.cli import main

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = '''
"""A tiny plugin: ``firstmove`` plays the first legal move, ``firstmove:K`` the K-th (or the last)."""
from agents.base import Agent


class FirstMove(Agent):
    name = "firstmove"

    def __init__(self, k=0):
        self.k = k

    def act(self, state, legal):
        return legal[min(self.k, len(legal) - 1)]


def factory(arg, rng, game):
    if arg is not None and not arg.isdigit():
        raise ValueError(f"firstmove:K takes a whole number; got {arg!r}")
    return FirstMove(int(arg or 0))
'''


def first_legal(state, legal):
    return legal[0]


def _distribution(root: Path, name: str, module: str, source: str, entry_points: str) -> Path:
    """An installed distribution as importlib.metadata finds it on sys.path: a module and its dist-info."""
    root.mkdir(parents=True, exist_ok=True)
    (root / f"{module}.py").write_text(textwrap.dedent(source))
    info = root / f"{name.replace('-', '_')}-0.1.dist-info"  # as a wheel names it
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))
    return root


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """The ``firstmove`` plugin installed (on sys.path, as a wheel would put it in site-packages)."""
    root = _distribution(tmp_path / "site", "contack-firstmove", "contack_firstmove", PLUGIN,
                         "[contack.agents]\nfirstmove = contack_firstmove:factory\n")
    monkeypatch.syspath_prepend(str(root))
    yield root
    unregister("firstmove")
    sys.modules.pop("contack_firstmove", None)


def _json(ev) -> str:
    return json.dumps(ev.to_json(), sort_keys=True)


# -- evaluate(...) with objects and functions ----------------------------------------------------------------------
def test_an_agent_object_plays_as_its_spec_does_and_a_function_as_the_agent_it_mirrors():
    by_spec = evaluate(["greedy", "random"], 6, seed=3)
    by_object = evaluate([GreedyAgent(), "random"], 6, seed=3)
    assert _json(by_object) == _json(by_spec)
    assert by_object.agents == ["greedy", "random"]
    # A function's name is its own; its play is its moves: legal[0] every time, as a firstmove agent would.
    ev = evaluate([first_legal, "random", GreedyAgent()], 6, seed=3)
    assert [e.agent for e in ev.entries] == ["first_legal", "random", "greedy"]
    assert ev.players == 3 and ev.games == 6


def test_a_function_entry_gets_the_public_view_and_the_legal_moves():
    seen = []

    def spy(state, legal):
        seen.append((type(state).__name__, len(legal)))
        assert list(legal) == list(state.legal_moves())
        return legal[-1]

    evaluate([spy, "greedy"], 2, seed=0, hands=1)
    assert seen and all(n >= 1 for _, n in seen)


def test_a_function_or_an_act_that_cannot_take_a_state_and_its_moves_is_refused_before_any_game():
    # Found in the first game it was a bare TypeError naming neither the agent nor what it is called with.
    def one_argument(state):
        return None

    class ThreeArguments(agents.Agent):
        name = "three"

        def act(self, state, legal, extra):
            return legal[0]

    with pytest.raises(ValueError, match=r"agent 'one_argument': a function agent is called as f\(state, legal\), "
                                         r"and this one takes \(state\)"):
        evaluate([one_argument, "random"], 2, seed=0)
    with pytest.raises(ValueError, match=r"agent 'three': its act is called as act\(state, legal\), and this one "
                                         r"takes \(state, legal, extra\)"):
        evaluate(["random", ThreeArguments()], 2, seed=0)
    # What can be called with two arguments plays: with defaults after them, or *args.
    assert evaluate([lambda s, legal, k=0: legal[k], "random"], 2, seed=0, hands=1).games == 2
    assert evaluate([lambda *a: a[1][0], "random"], 2, seed=0, hands=1).games == 2


def test_an_object_with_random_state_plays_the_same_whatever_the_workers():
    # Every game plays a fresh copy of the object as passed: results never depend on how games are shared out.
    one = evaluate([RandomAgent(5), "greedy"], 4, seed=11, workers=1)
    two = evaluate([RandomAgent(5), "greedy"], 4, seed=11, workers=2)
    assert _json(one) == _json(two)
    assert [r.scores for r in one.results] == [r.scores for r in two.results]


def test_an_object_is_not_changed_by_the_evaluation():
    bot = RandomAgent(5)
    before = bot.rng.bit_generator.state
    evaluate([bot, "greedy"], 2, seed=1, hands=1)
    assert bot.rng.bit_generator.state == before


@pytest.mark.parametrize("entry, message", [
    (3, "an agent is an Agent object or a function"),
    (GreedyAgent, "an agent is an Agent object or a function"),  # the class, not an instance
    ("nosuchbot", "unknown agent 'nosuchbot'"),
])
def test_a_bad_entry_is_refused_before_any_game(entry, message):
    with pytest.raises(ValueError, match=message):
        evaluate([entry, "random"], 2, seed=0)


def test_an_entry_that_cannot_pickle_is_refused_for_worker_processes_with_a_hint():
    with pytest.raises(ValueError, match=r"agent '<lambda>' cannot be sent to worker processes: .*top level of a module"):
        evaluate([lambda state, legal: legal[0], "random"], 2, seed=0, workers=2)
    evaluate([lambda state, legal: legal[0], "random"], 2, seed=0, hands=1)  # in this process it plays


def test_records_name_the_entries():
    ev = evaluate([first_legal, "random"], 2, seed=0, hands=1, records=True)
    assert [r.record["agents"] for r in ev.results] == [["first_legal", "random"], ["random", "first_legal"]]


# -- register ------------------------------------------------------------------------------------------------------
@pytest.fixture
def registered():
    names = []

    def add(name, factory, games=None):
        register(name, factory, games)
        names.append(name)

    yield add
    for name in names:
        unregister(name)


def test_register_makes_a_spec_with_its_argument_and_seed(registered):
    calls = []

    def factory(arg, rng, game):
        calls.append((arg, game))
        return RandomAgent(rng)

    registered("myrandom", factory)
    bot = make_agent("myrandom:fast", seed=4, game="solitaire1")
    assert calls == [("fast", "solitaire1")]
    # The generator it gets is the one make_agent draws from the seed: the same as a built-in's.
    assert bot.rng.random() == make_agent("random", seed=4).rng.random()
    assert "myrandom" in registered_names("contack") and "myrandom" in spec_help("contack")
    assert "myrandom" in agents.registry.spec_help("solitaire2")


def test_register_refuses_what_would_be_ambiguous(registered):
    for name, message in [("greedy", "built-in"), ("two_distance", "built-in"), ("a:b", "no ':'"), ("x,y", "no ':'"),
                          ("", "a word")]:
        with pytest.raises(ValueError, match=message):
            register(name, lambda arg, rng, game: None)
    for games in (["chess"], 5):
        with pytest.raises(ValueError, match="games are some of"):
            register("mine", lambda arg, rng, game: None, games=games)
    with pytest.raises(ValueError, match="factory"):
        register("mine", "not callable")


def test_a_registered_agent_is_only_offered_for_its_games(registered):
    registered("hexbot", lambda arg, rng, game: RandomAgent(rng), games=["contactix"])
    assert make_agent("hexbot", 0, game="contactix").name == "random"
    with pytest.raises(ValueError, match="unknown agent 'hexbot'"):
        make_agent("hexbot", 0, game="contack")
    assert "hexbot" in registered_names("contactix") and "hexbot" not in registered_names("contack")


def test_a_factory_returning_a_function_or_nonsense(registered):
    registered("fn", lambda arg, rng, game: first_legal)
    registered("bad", lambda arg, rng, game: 42)
    registered("short", lambda arg, rng, game: lambda state: None)
    assert evaluate(["fn", "random"], 2, seed=0, hands=1).agents == ["fn", "random"]
    with pytest.raises(ValueError, match="the factory of agent 'bad' returned 42"):
        make_agent("bad")
    with pytest.raises(ValueError, match=r"agent 'short': a function agent is called as f\(state, legal\)"):
        make_agent("short")


def test_a_registered_name_works_on_the_command_line_in_this_process(registered, capsys, tmp_path):
    registered("first", lambda arg, rng, game: first_legal)
    out = tmp_path / "ev.json"
    assert main(["evaluate", "--agents", "first,random", "--games", "2", "--seed", "5", "--hands", "1", "--json", str(out)]) == 0
    assert [e["agent"] for e in json.loads(out.read_text())["entries"]] == ["first", "random"]
    assert main(["simulate", "--players", "2", "--agents", "first,random", "--games", "1", "--seed", "0",
                 "--out", str(tmp_path / "g.jsonl")]) == 0


def test_a_registered_lambda_factory_cannot_go_to_worker_processes(registered):
    registered("lam", lambda arg, rng, game: first_legal)
    with pytest.raises(ValueError, match="the factory of agent 'lam' cannot be sent to worker processes"):
        evaluate(["lam", "random"], 2, seed=0, workers=2)


def test_worker_processes_know_the_agents_registered_here(plugin):
    # The plugin's module is importable, but registered here under another name that no entry point gives:
    # a spawned worker only knows it because the evaluation sends the registration along.
    import contack_firstmove

    register("second", contack_firstmove.factory)
    try:
        local = evaluate(["second:1", "random"], 4, seed=2, workers=1)
        spread = evaluate(["second:1", "random"], 4, seed=2, workers=2)
    finally:
        unregister("second")
    assert _json(spread) == _json(local)


# -- installed packages: the contack.agents entry points ----------------------------------------------------------
def _contack(*args: str, path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), str(ROOT)]), "PYTHONWARNINGS": "ignore"}
    code = "import sys; from contack_env.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300)


def test_an_installed_packages_agent_is_a_spec_in_every_command(plugin, tmp_path):
    out = tmp_path / "ev.json"
    done = _contack("evaluate", "--agents", "firstmove:2,random", "--games", "4", "--seed", "9", "--json", str(out),
                    path=plugin)
    assert done.returncode == 0, done.stderr
    assert "firstmove:2" in done.stdout
    import contack_firstmove

    # What the command played is the plugin's agent: the same numbers as the object itself in this process.
    mine = evaluate([contack_firstmove.FirstMove(2), "random"], 4, seed=9)
    got = json.loads(out.read_text())
    assert got["entries"][1] == mine.to_json()["entries"][1]
    assert [e["win_rate"] for e in got["entries"]] == [e.win_rate for e in mine.entries]
    done = _contack("simulate", "--players", "2", "--agents", "firstmove,random", "--games", "1", "--seed", "0",
                    "--out", str(tmp_path / "g.jsonl"), path=plugin)
    assert done.returncode == 0, done.stderr
    assert "firstmove" in done.stdout
    done = _contack("evaluate", "--help", path=plugin)
    assert "firstmove" in done.stdout
    bad = _contack("evaluate", "--agents", "firstmove:x,random", "--games", "2", "--seed", "0", path=plugin)
    assert bad.returncode == 2 and "firstmove:K takes a whole number; got 'x'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_browser_app_offers_an_installed_packages_agent(plugin):
    from contack_env.app.server import bot_specs

    offered = bot_specs()
    assert offered["contack"][-1] == "firstmove" and "greedy" in offered["contack"]


def test_a_broken_plugin_fails_in_one_line_only_when_named(tmp_path, monkeypatch):
    root = _distribution(tmp_path / "broken", "contack-broken", "contack_broken", "raise ImportError('needs libfoo')\n",
                         "[contack.agents]\nbrokenbot = contack_broken:factory\n")
    done = _contack("evaluate", "--agents", "brokenbot,random", "--games", "2", "--seed", "0", path=root)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "agent 'brokenbot' (entry point 'contack_broken:factory' in group contack.agents) cannot be loaded: " \
           "ImportError: needs libfoo" in done.stderr
    fine = _contack("evaluate", "--agents", "greedy,random", "--games", "2", "--seed", "0", "--hands", "1", path=root)
    assert fine.returncode == 0, fine.stderr


# -- --ray without Ray -------------------------------------------------------------------------------------------
def test_ray_without_ray_installed_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError, as where it is not installed
    code = main(["evaluate", "--agents", "greedy,random", "--games", "2", "--seed", "0", "--ray"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines() == [
        "contack evaluate: --ray needs Ray, an optional extra: pip install -c constraints-rllib.txt -e '.[rllib]'"
    ]
    with pytest.raises(RuntimeError, match=r"pip install -c constraints-rllib.txt -e '.\[rllib\]'"):
        evaluate(["greedy", "random"], 2, seed=0, ray=True)


def test_the_readmes_python_api_example_runs():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python API"):]
    code = section[section.index("```python\n") + 10:section.index("```\n", section.index("```python\n") + 10)]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("8 games of contack, 4 players") and "cautious" in done.stdout
    assert any(line.split()[:2] == ["1", "cautious"] for line in lines[-6:]), done.stdout


def test_an_installed_factory_with_games_is_offered_for_those_games_alone(tmp_path, monkeypatch):
    source = '''
        from agents.random_agent import RandomAgent


        def factory(arg, rng, game):
            return RandomAgent(rng)


        factory.games = ("contactix",)
    '''
    root = _distribution(tmp_path / "site", "contack-hexonly", "contack_hexonly", source,
                         "[contack.agents]\nhexonly = contack_hexonly:factory\n")
    monkeypatch.syspath_prepend(str(root))
    try:
        # listed for its games alone from the start, before anything used it
        assert "hexonly" in registered_names("contactix") and "hexonly" not in registered_names("contack")
        unregister("hexonly")
        assert make_agent("hexonly", 0, game="contactix").name == "random"
        with pytest.raises(ValueError, match="unknown agent 'hexonly'"):
            make_agent("hexonly", 0, game="contack")
        assert "hexonly" in registered_names("contactix") and "hexonly" not in registered_names("contack")
    finally:
        unregister("hexonly")
        sys.modules.pop("contack_hexonly", None)


def test_a_game_without_bots_of_its_own_gets_the_generic_ones(monkeypatch):
    # A game added to the registry of games plays random and mcts at once (they need only the game protocol);
    # Contack's own bots are not offered for it. With a state observer it plays az:PATH too.
    import dataclasses

    import agents.registry as registry
    from contack_env.games import GAMES

    monkeypatch.setitem(GAMES, "mygame", dataclasses.replace(GAMES["contactix"], observer=""))
    factories, text = registry.builtin_agents("mygame")
    assert set(factories) == {"random", "mcts"} and text.startswith("random, mcts")
    monkeypatch.setitem(GAMES, "observed", GAMES["contactix"])
    assert set(registry.builtin_agents("observed")[0]) == {"random", "mcts", "az"}
    with pytest.raises(ValueError, match=r"unknown agent 'greedy' for mygame; agents are: random, mcts"):
        registry.make_agent("greedy", 0, game="mygame")
    assert set(registry.builtin_agents("contack")[0]) >= {"greedy", "lookahead", "ppo", "az"}
    with pytest.raises(ValueError, match="agents are made for the games contack, .*; got 'chess'"):
        registry.builtin_agents("chess")


@pytest.mark.parametrize("seed", [-1, "a", 1.5])
def test_a_bad_seed_is_refused_saying_what_a_seed_is(seed):
    with pytest.raises(ValueError, match=r"seed is None, a whole number 0 or more, a numpy Generator or SeedSequence"):
        make_agent("random", seed=seed)


def test_an_agents_name_that_no_terminal_can_show_is_shown_as_python_writes_it():
    # A lone surrogate cannot be written as UTF-8: printed as it was, the table failed as it was printed.
    class Odd(GreedyAgent):
        name = "odd\ud800"

    table = evaluate([Odd(), "random"], 2, seed=0, hands=1).summary()
    assert "'odd\\ud800'" in table
    table.encode("utf-8")  # printable anywhere


@pytest.mark.parametrize("game, factory, said", [
    ("contack", lambda arg, rng, game: (lambda state, legal: type(legal[0])(legal[0].tile, 99, 99)),
     "contack play: seat 1 (offboard)'s bot chose a move the game refuses (Move(tile="),
    ("contack", lambda arg, rng, game: (lambda state, legal: 1 / 0),
     "contack play: seat 1 (offboard)'s bot failed: ZeroDivisionError: division by zero\n"),
    ("contactix", lambda arg, rng, game: (lambda state, legal: -5),
     "contack play: black (offboard)'s bot chose a move the game refuses (-5): "),
])
def test_a_bot_of_your_own_that_fails_in_play_is_named_in_one_line(registered, capsys, monkeypatch, game, factory, said):
    # It ended in a traceback that named no agent and no seat.
    import io

    registered("offboard", factory)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40))
    seat = ["--seat", "1"] if game == "contactix" else []  # the bot then moves first
    assert main(["play", "--game", game, "--agents", "offboard", "--seed", "1", *seat]) == 1
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1


def _breaks(arg, rng, game):
    raise RuntimeError("a plugin's own bug")


@pytest.mark.parametrize("argv", [["play"], ["evaluate", "--games", "2", "--seed", "1"],
                                  ["simulate", "--games", "1", "--seed", "1", "--players", "2"]])
def test_a_factory_of_your_own_that_fails_is_one_line_in_every_command(registered, capsys, tmp_path, argv):
    registered("boom", _breaks)
    agents_ = ["--agents", "boom" if argv[0] == "play" else "boom,random"]
    out = ["--out", str(tmp_path / "g.jsonl")] if argv[0] == "simulate" else []
    with pytest.raises(SystemExit) as exit_:
        main([*argv, *agents_, *out])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    assert "--agents: agent 'boom' could not be made: RuntimeError: a plugin's own bug" in err
