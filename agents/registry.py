"""Agent specs as the command line and records spell them: ``name`` or ``name:argument``.

    random          uniform over the legal moves
    greedy          the most points now
    lookahead       points now against a greedy reply by every other seat, the tiles kept playable, the hand's end
    mcts[:N]        Monte Carlo tree search with N iterations a decision (default 200), over sampled pile orders
    ppo:PATH        a trained policy: a ``contack-policy/1`` weight file written by ``contack train`` (policy.npz)
    az:PATH[:SIMS[:ENDGAME]]
                    a search-guided network (``contack-az/1``, ``contack train --algorithm az``) searching SIMS
                    simulations a decision (default: the file's; 0: the network alone); in Solitaire No. 2's
                    endgame an exact search of up to ENDGAME positions first (default 3000; 0: off)

The solitaires take the same specs (``make_agent(spec, seed, game="solitaire1")``); ``game`` matters to
``ppo:PATH`` and ``az:PATH`` alone, whose file must hold a network for that game (Contack, or that solitaire): a
file for another game fails when the agent is made (``check_spec`` at the command line), not in the middle of
play.

CON-TAC-TIX (``make_agent(spec, seed, game="contactix")``; ``agents.contactix_bots``):

    random          uniform over the legal moves
    two_distance    one-move search over the two-distance connection evaluation
    mcts[:N]        Monte Carlo tree search with N iterations a move (default 200), random playouts
    ppo:PATH        a policy file written by ``contack train --game contactix``
    az:PATH[:SIMS]  a search-guided network (``contack train --algorithm az --game contactix``)

A trained policy or network plays the board size and swap rule it was trained with (the file records them);
``check_spec(spec, "contactix", options)`` checks that before a game starts.

Agents of your own: ``register("name", factory)`` (``agents.register``) makes ``name`` and ``name:ARG`` specs
like the ones above, in this process; a package makes them known to every command (``contack evaluate``,
``simulate``, ``play``, the browser app) by naming its factories in its metadata under the entry point group
``contack.agents`` (the entry point's name is the agent's name), loaded the first time the name is used.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import re
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

from contack_env.games import GAMES, RuleOptions
from contack_env.wording import plural

from .base import Agent
from .contactix_bots import TwoDistanceAgent
from .greedy import GreedyAgent
from .lookahead import LookaheadAgent
from .mcts import DEFAULT_BUDGET, MAX_BUDGET, MCTSAgent
from .random_agent import RandomAgent

SPEC_HELP = "random, greedy, lookahead, mcts[:ITERATIONS] (e.g. mcts:200), ppo:PATH, az:PATH[:SIMS[:ENDGAME]]"
CONTACTIX_SPEC_HELP = "random, two_distance, mcts[:ITERATIONS] (e.g. mcts:200), ppo:PATH, az:PATH[:SIMS]"

Factory = Callable[[str | None, np.random.Generator, str], Agent]
"""Makes an agent from the spec's argument, its generator and the game it is for."""

ENTRY_POINT_GROUP = "contack.agents"
"""The entry point group through which an installed package names its agents (see the module docstring)."""
NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def _no_argument(name: str, factory: Callable[[np.random.Generator], Agent]) -> Factory:
    def make(arg: str | None, rng: np.random.Generator, game: str) -> Agent:
        if arg is not None:
            raise ValueError(f"agent {name!r} takes no argument; got {name}:{arg}")
        return factory(rng)

    return make


def _mcts(arg: str | None, rng: np.random.Generator, game: str) -> Agent:
    return MCTSAgent(iterations=mcts_budget(arg), seed=rng)


def mcts_budget(arg: str | None) -> int:
    """The iteration budget of ``mcts:ARG`` (``DEFAULT_BUDGET`` without one)."""
    if arg is None:
        return DEFAULT_BUDGET
    # digits only (int() would also take "1_0", " 20" and "+5"), and few of them (nor read thousands)
    budget = int(arg) if arg.isascii() and arg.isdigit() and len(arg) <= len(str(MAX_BUDGET)) else 0
    if not 1 <= budget <= MAX_BUDGET:
        raise ValueError(f"mcts:{arg}: the budget is a whole number of iterations, 1..{MAX_BUDGET} (e.g. mcts:200)")
    return budget


def _ppo(arg: str | None, rng: np.random.Generator, game: str) -> Agent:
    if not arg:
        raise ValueError("ppo needs the path of a trained model: ppo:PATH")
    from .ppo_agent import PPOAgent  # numpy-only loader; imported here so the registry stays light

    return PPOAgent(arg, game=game, seed=rng)


MAX_NUMBER_DIGITS = 18
"""The most digits ``split_az_argument`` reads as a number: more are past every budget."""


def split_az_argument(arg: str) -> tuple[str, int | None, int | None]:
    """``PATH[:SIMS[:ENDGAME]]`` (the argument of an ``az:`` spec) as ``(PATH, SIMS, ENDGAME)``, None where not
    given. A path may itself hold a colon: only trailing whole numbers (ASCII digits, nothing around them) are
    taken off it. ``ValueError`` for a number too long to be any budget (and to be read as an int)."""
    path, numbers = arg, []
    while len(numbers) < 2:
        head, sep, tail = path.rpartition(":")
        if not (sep and head and tail.isascii() and tail.isdigit()):
            break
        if len(tail) > MAX_NUMBER_DIGITS and not os.path.exists(path):  # a file may be named ckpt:170000...
            from .az.search import MAX_SIMS  # the caps, on this error path only: the registry stays light
            from .az_agent import MAX_ENDGAME

            raise ValueError(f"az: SIMS is a whole number 0..{MAX_SIMS} and ENDGAME 0..{MAX_ENDGAME} "
                             f"(az:PATH[:SIMS[:ENDGAME]]); got a number of {len(tail)} digits")
        path, numbers = head, [int(tail), *numbers]
    sims, endgame = (numbers + [None, None])[:2]
    return path, sims, endgame


def check_az_numbers(arg: str, path: str) -> None:
    """Raise ``ValueError`` when ``path`` (``arg`` less the numbers ``split_az_argument`` took off) is no file but a
    part of it before a colon is one: what follows that file is then a SIMS or ENDGAME that is not a whole number
    (``az:net.npz:abc``, ``az:net.npz:-3``), which would otherwise be reported as a missing file."""
    if os.path.exists(path):
        return
    head = path
    while ":" in head:
        head = head.rpartition(":")[0]
        if os.path.isfile(head):
            raise ValueError(f"az:{arg}: after the network file {head} come at most two whole numbers of 0 or "
                             f"more, SIMS and ENDGAME (az:PATH[:SIMS[:ENDGAME]]); got {arg[len(head) + 1:]!r}")


def _az(arg: str | None, rng: np.random.Generator, game: str) -> Agent:
    if not arg:
        raise ValueError("az needs the path of a trained network: az:PATH, az:PATH:SIMS or az:PATH:SIMS:ENDGAME")
    path, sims, endgame = split_az_argument(arg)
    check_az_numbers(arg, path)
    from .az_agent import AZAgent  # numpy-only network; imported here so the registry stays light

    return AZAgent(path, sims=sims, game=game, seed=rng, endgame=endgame)


_FACTORIES: dict[str, Factory] = {
    "random": _no_argument("random", lambda rng: RandomAgent(rng)),
    "greedy": _no_argument("greedy", lambda rng: GreedyAgent()),
    "lookahead": _no_argument("lookahead", lambda rng: LookaheadAgent()),
    "mcts": _mcts,
    "ppo": _ppo,
    "az": _az,
}
AGENT_NAMES = tuple(_FACTORIES)
"""The built-in agents' names (Contack's and the solitaires'); plugins add to what ``make_agent`` knows."""


_CONTACTIX_FACTORIES: dict[str, Factory] = {
    "random": _no_argument("random", lambda rng: RandomAgent(rng)),
    "two_distance": _no_argument("two_distance", lambda rng: TwoDistanceAgent(rng)),
    "mcts": _mcts,
    "ppo": _ppo,
    "az": _az,
}


_GENERIC_FACTORIES: dict[str, Factory] = {
    "random": _no_argument("random", lambda rng: RandomAgent(rng)),
    "mcts": _mcts,
}
GENERIC_SPEC_HELP = "random, mcts[:ITERATIONS] (e.g. mcts:200)"
_OBSERVED_FACTORIES: dict[str, Factory] = {**_GENERIC_FACTORIES, "az": _az}
OBSERVED_SPEC_HELP = f"{GENERIC_SPEC_HELP}, az:PATH[:SIMS]"

_BUILTIN: dict[str, tuple[dict[str, Factory], str]] = {
    "contack": (_FACTORIES, SPEC_HELP),
    "solitaire1": (_FACTORIES, SPEC_HELP),
    "solitaire2": (_FACTORIES, SPEC_HELP),
    "contactix": (_CONTACTIX_FACTORIES, CONTACTIX_SPEC_HELP),
}
"""The bots of each game, with their help text. A game of the registry (``contack_env.games``) that has no bots
of its own here gets the ones that need nothing but the game protocol: ``random`` and ``mcts``; and ``az:PATH``
(a network ``contack train --algorithm az --game NAME`` trained) when its entry names a state observer."""


def builtin_agents(game: str) -> tuple[dict[str, Factory], str]:
    """The built-in factories of ``game`` by name, and their help text; ``ValueError`` for an unknown game."""
    if game not in GAMES:  # the registry as it is now: a game registered after this import counts
        raise ValueError(f"agents are made for the games {', '.join(GAMES)}; got {game!r}")
    if game in _BUILTIN:
        return _BUILTIN[game]
    if GAMES[game].observer:
        return _OBSERVED_FACTORIES, OBSERVED_SPEC_HELP
    return _GENERIC_FACTORIES, GENERIC_SPEC_HELP


def split_spec(spec: str) -> tuple[str, str | None]:
    """``"mcts:200"`` -> ``("mcts", "200")``; ``"greedy"`` -> ``("greedy", None)``."""
    name, sep, arg = spec.strip().partition(":")
    return name, (arg if sep else None)


def make_agent(
    spec: str, seed: int | np.random.Generator | np.random.SeedSequence | None = None, game: str = "contack"
) -> Agent:
    """The agent ``spec`` names (``"greedy"``, ``"mcts:200"``, a registered name, ...) for ``game``
    (a game of the registry of games, ``contack_env.games.GAMES``); its random choices flow from ``seed``.

    Raises ``ValueError`` saying what is allowed for an unknown name or a bad argument.
    """
    factories, _ = builtin_agents(game)
    if not isinstance(spec, str):
        raise ValueError(f"an agent spec is a string ({spec_help(game)}); got {spec!r}")
    name, arg = split_spec(spec)
    try:
        rng = np.random.default_rng(seed)
    except (TypeError, ValueError):
        raise ValueError(f"seed is None, a whole number 0 or more, a numpy Generator or SeedSequence; got {seed!r}") from None
    factory = factories.get(name)
    if factory is not None:
        return factory(arg, rng, game)
    registration = registration_of(name)
    if registration is None or game not in registration.games:
        where = "" if factories is _FACTORIES else f" for {game}"
        raise ValueError(f"unknown agent {spec!r}{where}; agents are: {spec_help(game)}")
    return registration.make(arg, rng, game)


def spec_files(spec: str) -> list[str]:
    """The files a built-in agent spec reads (``ppo:PATH``, ``az:PATH[:SIMS[:ENDGAME]]``); none for the others."""
    name, arg = split_spec(spec)
    if not arg or name not in ("ppo", "az"):
        return []
    return [split_az_argument(arg)[0] if name == "az" else arg]


def check_spec(spec: str, game: str = "contack", options: RuleOptions | None = None) -> str:
    """``spec`` stripped, after checking it makes an agent for ``game`` (``ValueError`` otherwise), and, with
    ``options``, that an agent bound to rule options (a trained policy or network: the board size it learned)
    can play under them."""
    try:
        agent = make_agent(spec, 0, game)
    except ValueError:
        raise
    except Exception as err:  # the factory of an agent of your own, failing in its code: said in one line
        raise ValueError(f"agent {spec.strip()!r} could not be made: {type(err).__name__}: {err}") from err
    if options is not None:
        check_agent_options(agent, options)
    return spec.strip()


def check_agent_options(agent: Agent, options: RuleOptions) -> None:
    """``ValueError`` (a ``PolicyFileError``) if ``agent`` is bound to rule options other than ``options``: a
    trained policy or network (their ``check_options``); any other agent plays under any options."""
    check = getattr(agent, "check_options", None)
    if check is not None:
        check(options)


def parse_agent_list(text: str, seats: int, game: str = "contack", options: RuleOptions | None = None) -> list[str]:
    """``"random"`` for every seat, or one spec per seat (``"greedy,random,mcts:100"``), each checked for ``game``
    (and ``options``, as ``check_spec`` does)."""
    names = [check_spec(name, game, options) for name in text.split(",")]
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise ValueError(f"name one agent for every seat, or one per seat ({plural(seats, 'seat')}); got "
                         f"{len(names)}: {', '.join(names)}")
    return names


# -- agents of your own ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Registration:
    """A registered agent: its ``factory`` (``Factory``: ``factory(arg, rng, game)``) and the games it plays."""

    name: str
    factory: Callable[..., Any]
    games: tuple[str, ...]

    def make(self, arg: str | None, rng: np.random.Generator, game: str) -> Agent:
        from .function_agent import as_agent, plays  # here: function_agent needs nothing of the registry at import

        made = self.factory(arg, rng, game)
        if not plays(made):
            raise ValueError(f"the factory of agent {self.name!r} returned {made!r}, not an Agent or a function "
                             "f(state, legal) -> move")
        return as_agent(made, self.name)  # ValueError for a function or an act that takes other arguments


_REGISTERED: dict[str, Registration] = {}


def register(name: str, factory: Callable[..., Any], games: Iterable[str] | None = None) -> None:
    """Make ``name`` (and ``name:ARG``) an agent spec in this process, for ``games`` (default: every game of
    ``contack_env.games.GAMES`` now). ``factory(arg, rng, game)`` gets the spec's argument (None for a bare ``name``), a
    ``numpy.random.Generator`` seeded for that game and seat, and the game's name; it returns an ``Agent``
    (or a function ``f(state, legal) -> move``), or raises ``ValueError`` saying why it cannot (a bad argument).
    Registering a name again replaces it; the built-in names are refused."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"an agent name is a word of letters, digits, '_', '.' and '-' (no ':' or ','); got {name!r}")
    if name in _FACTORIES or name in _CONTACTIX_FACTORIES or name == "person":
        raise ValueError(f"{name!r} is a built-in agent; choose another name")
    if not callable(factory):
        raise ValueError(f"the factory of agent {name!r} is a function factory(arg, rng, game); got {factory!r}")
    if games is not None and not isinstance(games, (str, list, tuple, set, frozenset)):
        raise ValueError(f"games are some of {', '.join(GAMES)}, a name or a list of them; got {games!r}")
    chosen = tuple(GAMES) if games is None else (games,) if isinstance(games, str) else tuple(games)
    unknown = [g for g in chosen if g not in GAMES]
    if unknown or not chosen:
        raise ValueError(f"games are some of {', '.join(GAMES)}; got {list(chosen)!r}")
    _REGISTERED[name] = Registration(name, factory, chosen)


def unregister(name: str) -> None:
    """Forget the agent ``register`` made (an installed package's agent comes back on its next use)."""
    _REGISTERED.pop(name, None)


def registration_of(name: str) -> Registration | None:
    """The registration of agent ``name``: registered in this process, else an installed package's (loaded
    now); None if there is none. A package's agent that cannot be loaded raises ``ValueError`` saying why."""
    found = _REGISTERED.get(name)
    if found is not None:
        return found
    for point in _entry_points():
        if point.name == name and NAME_PATTERN.fullmatch(name):
            try:
                factory = point.load()
            except Exception as err:  # a broken plugin: say which one and why, in one line
                raise ValueError(f"agent {name!r} (entry point {point.value!r} in group {ENTRY_POINT_GROUP}) cannot be "
                                 f"loaded: {type(err).__name__}: {err}") from None
            register(name, factory, getattr(factory, "games", None))
            return _REGISTERED[name]
    return None


def registered_names(game: str = "contack") -> list[str]:
    """The names of the agents of your own for ``game``: registered in this process or by installed packages.
    A package's agent is loaded to be listed, as its factory's ``games`` says which games it plays; one that
    cannot be loaded is listed all the same, and using it says why."""
    names = {n for n, r in _REGISTERED.items() if game in r.games}
    for point in _entry_points():
        if point.name not in _REGISTERED and NAME_PATTERN.fullmatch(point.name):
            try:
                found = registration_of(point.name)
            except ValueError:
                names.add(point.name)
                continue
            if found is not None and game in found.games:
                names.add(point.name)
    builtin, _ = builtin_agents(game)
    return sorted(n for n in names if n not in builtin)


def spec_help(game: str = "contack") -> str:
    """The specs ``game`` takes, the registered agents included (for messages and ``--help``)."""
    _, text = builtin_agents(game)
    extra = registered_names(game)
    return f"{text}, {', '.join(extra)}" if extra else text


def _entry_points() -> Any:
    return _entry_points_on(tuple(sys.path))


@functools.lru_cache(maxsize=4)
def _entry_points_on(path: tuple[str, ...]) -> Any:
    # Reading every installed package's metadata takes some 0.1 s: once per search path, not per lookup.
    return importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
