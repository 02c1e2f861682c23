"""Evaluating agents against each other over whole games, in the duplicate format (``contack evaluate``).

**Contack (2 to 7 players).** The entries (one agent spec per seat, ``N`` = players) play ``K`` games: ``K / N``
*deals*, each played ``N`` times, once in every cyclic seat rotation. In rotation ``r`` entry ``e`` sits at seat
``(e + r) mod N``, so every entry plays every seat exactly once per deal, and every entry meets the same tiles in
the same order as every other entry did from that seat (the duplicate format: the luck of the deal cancels out).
``K`` must therefore be a multiple of ``N``. Deal ``d`` (0-based) is played from game seed ``S + d``:
``arena.seed_streams(S + d, N + 1)`` gives the deal (stream 0) and the agent in seat ``s`` its randomness (stream
``s + 1``), so any single game is ``contack simulate --seed S+d --games 1 --agents <the seat order>`` again.
With an agent seed ``A`` (``--agent-seed``) the agents' streams of deal ``d`` come from ``A + d`` instead
(``arena.seed_streams(S + d, N + 1, A + d)``; ``contack simulate --agent-seed A+d`` plays the game again): the same
deals, other random choices by the agents, so that evaluations with several agent seeds show how much of a result
is the agents' luck rather than the deals'. ``A = S`` is the same as none.
Every game's randomness comes from its own seed, never from a worker, so any ``--workers`` (or ``--ray``) gives the
same numbers.

Per entry:
- ``win_rate``: the mean share of games won, a win shared by ``k`` seats counting ``1/k``.
- ``win_rate_ci95``: a 95% interval for it. The independent units are the deals (the ``N`` games of one deal share
  its tiles), so the interval is the normal one on the per-deal mean win share: ``mean +- 1.96 * sd / sqrt(D)``
  over ``D`` deals, clipped to [0, 1]. Where that has no spread (every deal gave the same share, e.g. 0 or 1, or a
  single deal) it is the Wilson score interval with ``n = D``.
- ``mean_score``: the mean final score (three hands, penalties included), with the same kind of interval.
- ``mean_margin``: the mean of (its final score - the mean final score of the other seats at that table), with
  ``margin_ci95``.
- ``rating``: an Elo rating with its 95% interval, fitted to all games at once (``agents.rating``): who won each
  game, every entry a player of its own. It does not depend on the order the games were played, ranks the entries
  as their win rates do, and the entries' ratings average 0.

**CON-TAC-TIX** (``--game contactix``, heads-up, ``--board-size N``, ``--swap``). The same duplicate format with
two entries and two colours: ``K / 2`` deals, each played twice, entry 0 Black in rotation 0 and White in
rotation 1. The game has no deal; deal ``d``'s seed ``S + d`` gives the agents their randomness exactly as above
(``arena.seed_streams(S + d, 3)``, stream ``s + 1`` for the agent of colour ``s``, Black 0). Per entry: ``win_rate``
and ``win_rate_ci95`` over deals as above, ``win_rate_black`` and ``win_rate_white`` (its win rate with each
colour: Black moves first, which matters), and the Elo rating. Also the mean game
length in moves.

**Solitaires.** Each entry plays the same ``K`` deals alone (game seed ``S + i`` for game ``i``); the games are
independent, so ``win_rate_ci95`` is the Wilson score interval with ``n = K``. Also: mean tiles placed (of 36) and
mean points.

Which of the three a game gets is its ``GameSpec.report`` in ``contack_env.games`` (``scores``, ``colours``,
``solitaire``), and the rule options it checks and reports are its ``GameSpec.options``: a new game of one of
these kinds needs nothing here.

**Entries.** An entry is an agent spec (``"mcts:200"``, a name ``agents.register`` made), an ``Agent`` object or a
function ``f(state, legal) -> move`` (``agents.function_agent``). A spec's agent is made afresh for every game
and seat from that seat's stream, as above. An object plays every game as a fresh copy of itself as it was
passed in (a worker process or a Ray task gets the same copy), so its results never depend on ``workers`` either;
its own random state, if any, therefore starts over in every game: an agent that draws random numbers is better
registered as a factory (``agents.register``), which every game seeds. Tables and records name an entry by its
spec, else its ``name`` attribute, else its function or class name. With ``workers`` > 1 every entry must pickle
(a function defined at the top level of a module does; a lambda does not); with ``ray``, Ray's cloudpickle sends
lambdas too.
"""

from __future__ import annotations

import copy
import json
import math
import pickle
import sys
from collections.abc import Mapping, Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence, TextIO, Union

import numpy as np

from contack_env.atomic import open_atomic
from contack_env.checks import is_whole_number
from contack_env.cli_support import padded, printable, screen_width
from contack_env.seeds import MAX_SEED, largest_first_seed
from contack_env.contack.multiplayer import DEFAULT_ENCLOSED_END, DEFAULT_NUM_HANDS
from contack_env.games import GAMES, RuleOptions, get_game

from contack_env.contactix.rules import DEFAULT_SIZE
from contack_env.wording import plural

from .arena import new_state, play_game, seed_streams
from .base import Agent
from .function_agent import as_agent, display_name
from .progress import mode_of, reporter
from .rating import DESCRIPTION as RATING_DESCRIPTION
from .rating import Game, fit
from .registry import Registration, check_agent_options, check_spec, make_agent, register, registration_of, split_spec
from .worker_pool import WorkerPool

Z95 = 1.959963984540054

Entry = Union[str, Agent, Callable[[Any, Sequence[Any]], Any]]
"""What plays in an evaluation: a spec, an ``Agent`` or a function ``f(state, legal) -> move``."""


@dataclass(frozen=True)
class GameResult:
    """One game: ``deal`` and ``rotation`` (0 in a solitaire), ``entry`` at every seat, final ``scores`` by seat,
    ``winners`` (seats), ``placed`` (tiles on the table at the end, solitaires) and the ``record`` if asked."""

    deal: int
    rotation: int
    seat_entries: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    placed: int = 0
    record: dict[str, Any] | None = None


@dataclass
class EntryStats:
    agent: str
    games: int
    win_rate: float
    win_rate_ci95: tuple[float, float]
    mean_score: float
    score_ci95: tuple[float, float]
    mean_margin: float | None = None
    margin_ci95: tuple[float, float] | None = None
    rating_elo: float | None = None
    rating_ci95: tuple[float, float] | None = None
    mean_tiles_placed: float | None = None
    win_rate_black: float | None = None
    win_rate_white: float | None = None

    def to_json(self) -> dict[str, Any]:
        if self.win_rate_black is not None:  # CON-TAC-TIX: win rates and the rating, no scores
            return {
                "agent": self.agent,
                "games": self.games,
                "win_rate": self.win_rate,
                "win_rate_ci95": list(self.win_rate_ci95),
                "win_rate_black": self.win_rate_black,
                "win_rate_white": self.win_rate_white,
                "rating": self._rating_json(),
            }
        out: dict[str, Any] = {
            "agent": self.agent,
            "games": self.games,
            "win_rate": self.win_rate,
            "win_rate_ci95": list(self.win_rate_ci95),
            "mean_score": self.mean_score,
            "score_ci95": list(self.score_ci95),
        }
        if self.mean_margin is not None:
            out["mean_margin"] = self.mean_margin
            out["margin_ci95"] = list(self.margin_ci95 or ())
            out["rating"] = self._rating_json()
        if self.mean_tiles_placed is not None:
            out["mean_tiles_placed"] = self.mean_tiles_placed
            out["mean_points"] = self.mean_score
        return out

    def _rating_json(self) -> dict[str, Any]:
        return {"elo": self.rating_elo, "elo_ci95": None if self.rating_ci95 is None else list(self.rating_ci95)}


@dataclass
class Evaluation:
    game: str
    players: int
    agents: list[str]
    games: int
    deals: int
    rotations: int
    seed: int
    options: RuleOptions
    """The rule options played; those of other games hold their defaults (``rules``: the game's own)."""
    entries: list[EntryStats]
    results: list[GameResult] = field(repr=False, default_factory=list)
    agent_seed: int | None = None
    """Where the agents' random choices came from (module docstring); None: from ``seed``, with the deals."""

    @property
    def report(self) -> str:
        """The kind of report of its game (``contack_env.games.REPORTS``)."""
        return get_game(self.game).report

    @property
    def rules(self) -> dict[str, Any]:
        """The rule options of its game, by name."""
        return self.options.rules_of(get_game(self.game))

    def to_json(self) -> dict[str, Any]:
        if self.report == "colours":
            return {
                "game": self.game,
                "players": 2,
                "games": self.games,
                "deals": self.deals,
                "rotations": self.rotations,
                "seed": self.seed,
                **self._agent_seed_json(),
                "rules": self.rules,
                "interval": _INTERVAL_NOTE[0],
                "rating": RATING_DESCRIPTION,
                "mean_moves": mean_moves(self.results),
                "entries": [e.to_json() for e in self.entries],
            }
        scores = self.report == "scores"
        rating = {"rating": RATING_DESCRIPTION} if scores else {}  # a solitaire has no rating
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "deals": self.deals,
            "rotations": self.rotations,
            "seed": self.seed,
            **self._agent_seed_json(),
            "rules": self.rules,
            "interval": _INTERVAL_NOTE[not scores],
            "margin": "final score minus the mean final score of the other seats" if scores else None,
            **rating,
            "entries": [e.to_json() for e in self.entries],
        }

    def _agent_seed_json(self) -> dict[str, int]:
        # Only when given, so that an evaluation without one writes what it always wrote.
        return {} if self.agent_seed is None else {"agent_seed": self.agent_seed}

    def summary(self) -> str:
        return format_table(self)


_INTERVAL_NOTE = (
    "normal interval on the per-deal mean (deals are the independent units); Wilson with n = deals if no spread",
    "Wilson score interval, n = games",
)


# -- statistics ------------------------------------------------------------------------------------------------
def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p`` observed over ``n`` trials."""
    if n <= 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Normal interval for the mean of independent ``values``."""
    n = len(values)
    mean = float(np.mean(values))
    if n < 2:
        return (mean, mean)
    half = z * float(np.std(values, ddof=1)) / math.sqrt(n)
    return (mean - half, mean + half)


def share_ci(per_deal: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """95% interval for a mean win share from its per-deal values (see the module docstring)."""
    n = len(per_deal)
    mean = float(np.mean(per_deal))
    spread = float(np.std(per_deal, ddof=1)) if n > 1 else 0.0
    if spread == 0.0:
        return wilson(mean, n, z)
    half = z * spread / math.sqrt(n)
    return (max(0.0, mean - half), min(1.0, mean + half))


# -- the schedule ------------------------------------------------------------------------------------------------
def seat_entries(players: int, rotation: int) -> tuple[int, ...]:
    """The entry at every seat in ``rotation``: entry ``e`` sits at seat ``(e + rotation) mod players``."""
    return tuple((seat - rotation) % players for seat in range(players))


MAX_WORKERS = 256
"""The most worker processes an evaluation starts on this machine (Ray's tasks in flight are not capped)."""
MAX_GAMES = 10_000_000
"""The most games (a solitaire's deals) one evaluation plays: it keeps every game's result in memory, and more
would take days; several evaluations with seeds far enough apart play more."""


def schedule(players: int, games: int) -> list[tuple[int, int]]:
    """``(deal, rotation)`` of every game, in play order: each deal in all its rotations."""
    return [(d, r) for d in range(games // players) for r in range(players)]


@dataclass(frozen=True)
class _Config:
    game: str
    players: int
    agents: tuple[Entry, ...]
    seed: int
    options: RuleOptions
    records: bool
    agent_seed: int | None = None
    registered: tuple[Registration, ...] = ()
    """The agents of your own the specs name, so that a worker process (or Ray task) knows them too."""


def _player(entry: Entry, seed: np.random.SeedSequence, game: str) -> Agent:
    """The agent of one seat of one game: a spec's made from the seat's stream, an object's a fresh copy."""
    if isinstance(entry, str):
        return make_agent(entry, seed, game=game)
    return as_agent(copy.deepcopy(entry), display_name(entry))


def play_one(config: _Config, deal: int, rotation: int) -> GameResult:
    """Game ``rotation`` of deal ``deal``: the entries rotated through the seats of a game for several players,
    entry ``rotation`` alone on the deal of a solitaire."""
    game = get_game(config.game)
    game_seed = config.seed + deal
    for registration in config.registered:  # in a worker process: the registrations of the process that asked
        if registration_of(registration.name) != registration:
            register(registration.name, registration.factory, registration.games)
    entries = seat_entries(config.players, rotation) if game.max_players > 1 else (rotation,)
    players = [config.agents[e] for e in entries]
    specs = [display_name(p) for p in players]
    streams = seed_streams(game_seed, len(specs) + 1, None if config.agent_seed is None else config.agent_seed + deal)
    agents = [_player(p, streams[s + 1], config.game) for s, p in enumerate(players)]
    state = new_state(config.game, config.players, streams[0], config.options, log=config.records)
    play_game(state, agents)
    record = game.write_record(state, seed=game_seed, agents=specs) if config.records else None
    return GameResult(
        deal, rotation, entries, tuple(state.scores), tuple(state.winners), placed=game.length(state), record=record
    )


def _play_task(task: tuple[_Config, int, int]) -> GameResult:
    # Top level, so that spawned worker processes can import it.
    return play_one(*task)


def _play_chunk(config: _Config, games: list[tuple[int, int]]) -> list[GameResult]:
    # A Ray task plays several games: one task a game would cost more in scheduling than a fast game takes.
    return [play_one(config, d, r) for d, r in games]


def _run(
    config: _Config, tasks: list[tuple[int, int]], workers: int | None, progress: bool | str | None, out: TextIO,
    ray: bool = False,
) -> Iterator[GameResult]:
    jobs = [(config, d, r) for d, r in tasks]
    bar = reporter(len(jobs), progress, out, "evaluate", "game")
    try:
        if ray:
            from .ray_tasks import cluster_cpus, connect, ordered_map

            with connect() as cluster:
                slots = workers or cluster_cpus(cluster)
                chunk = max(1, min(8, len(tasks) // (slots * 16)))
                chunks = [tasks[i:i + chunk] for i in range(0, len(tasks), chunk)]
                # At most ``slots`` tasks in flight (each takes one CPU): --workers N caps what runs at once, as the
                # docs promise, on a cluster others share too
                for results in ordered_map(cluster, _play_chunk, config, chunks, slots):
                    yield from results
                    bar.update(len(results))
        elif not workers or workers <= 1:
            for job in jobs:
                yield _play_task(job)
                bar.update(1)
        else:
            # Small chunks: games of search agents take long, and an idle worker at the end wastes the others.
            chunk = max(1, min(8, len(jobs) // (workers * 16)))
            with WorkerPool(min(workers, len(jobs))) as pool:  # no idle processes
                for result in pool.map(_play_task, jobs, chunksize=chunk):  # in the tasks' order
                    yield result
                    bar.update(1)
    finally:
        bar.close()


# -- evaluations ---------------------------------------------------------------------------------------------------
def check_request(
    game: str,
    players: int,
    agents: Sequence[Entry],
    games: int,
    workers: int | None,
    options: RuleOptions | None = None,
    agent_seed: int | None = None,
    ray: bool = False,
) -> None:
    """Raise ``ValueError`` saying what is allowed when an evaluation request is not (``options``: the rule
    options, None for the defaults)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; games are: {', '.join(GAMES)}")
    spec_of_game = get_game(game)
    options = options or RuleOptions()
    spec_of_game.check_options(options)  # first: the agents' check below compares a trained policy's with them
    for spec in agents:
        if isinstance(spec, str):
            check_spec(spec, game, options)
        else:
            check_agent_options(as_agent(spec), options)  # an Agent or a function, else ValueError saying so
    report = spec_of_game.report
    low, high = spec_of_game.min_players, spec_of_game.max_players
    if report == "scores":
        if not is_whole_number(players) or not low <= players <= high:
            raise ValueError(f"{spec_of_game.title} is played by {low} to {high} players; got {players!r}")
        if len(agents) != players:
            raise ValueError(f"{players} players need {players} agents (one entry per seat); got {len(agents)}")
        if games < players or games % players:
            lower = max(players, games - games % players)
            raise ValueError(
                f"games counts every game played; each deal is played in all {players} seat rotations, so it must be "
                f"a positive multiple of {players}; got {games} ({lower} or {lower + players} would do)"
            )
    elif report == "colours":
        if not is_whole_number(players) or players != 2:
            raise ValueError(f"{spec_of_game.title} is played by 2 players; got {players!r}")
        if len(agents) != 2:
            raise ValueError(f"{spec_of_game.title} is heads-up: name 2 agents (Black's and White's in the first game); got {len(agents)}")
        if games < 2 or games % 2:
            lower = max(2, games - games % 2)
            raise ValueError(
                f"games counts every game played; each deal is played twice, the colours swapped, so it must be a "
                f"positive multiple of 2; got {games} ({lower} or {lower + 2} would do)"
            )
    else:
        if not is_whole_number(players) or players != 1:
            raise ValueError(f"{spec_of_game.title} is a solitaire, played by 1 player; got {players!r}")
        if not agents:
            raise ValueError("name at least one agent to evaluate")
        if games < 1:
            raise ValueError(f"games must be at least 1; got {games}")
    if games > MAX_GAMES:
        raise ValueError(f"games is at most {MAX_GAMES:,} in one evaluation (it keeps every result in memory); got "
                         f"{games:,}: play several evaluations, each from its own seed")
    if workers is not None and (not is_whole_number(workers) or workers < 1):
        raise ValueError(f"workers is at least 1; got {workers!r}")
    if workers is not None and not ray and workers > MAX_WORKERS:
        raise ValueError(f"workers is at most {MAX_WORKERS} processes on this machine (one a core is best); got {workers}")
    if agent_seed is not None and (not is_whole_number(agent_seed) or agent_seed < 0):
        raise ValueError(f"agent_seed is None or a whole number, 0 or more; got {agent_seed!r}")


def evaluate(
    agents: Sequence[Entry],
    games: int,
    seed: int,
    game: str = "contack",
    players: int | None = None,
    hands: int = DEFAULT_NUM_HANDS,
    enclosed_end: str = DEFAULT_ENCLOSED_END,
    workers: int | None = None,
    records: bool = False,
    progress: bool | str | None = False,
    out: TextIO | None = None,
    board_size: int = DEFAULT_SIZE,
    swap: bool = False,
    ray: bool = False,
    agent_seed: int | None = None,
) -> Evaluation:
    """Play the evaluation described in the module docstring and return its statistics (and the games played:
    ``Evaluation.results``, in play order, with records if ``records``).

    ``agents``: one entry per seat (Contack, CON-TAC-TIX) or per solitaire player: specs, ``Agent`` objects or
    functions ``f(state, legal) -> move`` (module docstring). ``hands`` and ``enclosed_end`` are Contack's rule
    options, ``board_size`` and ``swap`` CON-TAC-TIX's: for a game without one, a value other than its default is
    refused. ``workers``: processes on this machine (default 1);
    ``ray``: the games run as Ray tasks instead (``agents.ray_tasks``: ``RAY_ADDRESS``'s cluster, else a local
    one), ``workers`` of them at once (default: the cluster's CPUs); neither changes the results. ``agent_seed``:
    the agents' random choices of deal ``d`` come from ``agent_seed + d`` (module docstring). ``progress``:
    ``auto``, ``on`` or ``off`` (None, True, False) as ``agents.progress`` says, on ``out`` (standard error by
    default)."""
    # a set or a dict has no seat order of its own (a set's follows the strings' hashes, which differ between
    # processes); any other iterable gives its entries in order
    if isinstance(agents, (str, bytes, AbstractSet, Mapping)) or not isinstance(agents, Iterable):
        raise ValueError(f"agents is a list of entries, one a seat (specs, Agent objects, functions); got {agents!r}"
                         + (" (a list is written ['random', 'greedy'], not 'random,greedy')" if isinstance(agents, str) else ""))
    agents = [a.strip() if isinstance(a, str) else a for a in agents]
    names = [display_name(a) for a in agents]
    mode_of(progress)  # a bad value is refused before any game is played
    for name, flag in (("records", records), ("swap", swap), ("ray", ray)):
        if not isinstance(flag, (bool, np.bool_)):  # "no" is true to Python: it would start Ray
            raise ValueError(f"{name} is True or False; got {flag!r}")
    if out is not None and not callable(getattr(out, "write", None)):
        raise ValueError(f"out is a text stream (a file open for writing, sys.stderr), or None; got {out!r}")
    if not isinstance(game, str):
        raise ValueError(f"game is the name of a game, one of {', '.join(GAMES)}; got {game!r}")
    # numpy's integers are whole numbers too
    players, games, seed, hands, agent_seed, board_size = (int(v) if isinstance(v, np.integer) else v
                                                           for v in (players, games, seed, hands, agent_seed, board_size))
    report = get_game(game).report if game in GAMES else None
    if players is None:
        players = 1 if report == "solitaire" else len(agents)
    for name, value in (("games", games), ("seed", seed)):
        if not is_whole_number(value):
            raise ValueError(f"{name} is a whole number; got {value!r}")
    options = RuleOptions(hands=hands, enclosed_end=enclosed_end, board_size=board_size, swap=swap)
    check_request(game, players, agents, games, workers, options, agent_seed, ray)
    deals = games if report == "solitaire" else games // players
    for name, first in (("seed", seed), ("agent_seed", agent_seed)):
        if first is not None and not 0 <= first <= largest_first_seed(deals):
            raise ValueError(f"{name} is a whole number 0..{largest_first_seed(deals)} for {plural(deals, 'deal')} "
                             f"(deal d from {name} + d, at most {MAX_SEED}); got {first}")
    if report == "solitaire":
        tasks = [(i, e) for e in range(len(agents)) for i in range(games)]
    else:
        tasks = schedule(players, games)
    registered = tuple(dict.fromkeys(r for r in (registration_of(split_spec(a)[0]) for a in agents if isinstance(a, str))
                                     if r is not None))
    config = _Config(game, players, tuple(agents), int(seed), options, records, agent_seed, registered)
    if ray or (workers or 1) > 1:
        check_sendable(config, names, ray)
    results = list(_run(config, tasks, workers, progress, sys.stderr if out is None else out, ray))
    if report == "colours":
        entries = colours_stats(names, results)
    elif report == "scores":
        entries = contack_stats(names, results)
    else:
        entries = solitaire_stats(names, results)
    deals, rotations = (games, 1) if report == "solitaire" else (games // players, players)
    return Evaluation(game, players, names, games, deals, rotations, int(seed), options, entries, results,
                      agent_seed=agent_seed)


def check_sendable(config: _Config, names: Sequence[str], ray: bool) -> None:
    """``ValueError`` naming the entry (or registered factory) that cannot be sent to a worker process (pickle)
    or a Ray task (Ray's cloudpickle)."""
    if ray:
        from .ray_tasks import require_ray

        dumps = require_ray().cloudpickle.dumps
        where = "Ray tasks"
    else:
        dumps, where = pickle.dumps, "worker processes"
    things = [(f"agent {name!r}", entry) for name, entry in zip(names, config.agents)]
    things += [(f"the factory of agent {r.name!r}", r.factory) for r in config.registered]
    for what, thing in things:
        try:
            dumps(thing)
        except Exception as err:  # pickle raises several kinds (PicklingError, AttributeError, TypeError)
            hint = "" if ray else " (define it at the top level of a module, not as a lambda or inside a function)"
            raise ValueError(f"{what} cannot be sent to {where}: {type(err).__name__}: {err}{hint}; "
                             "or evaluate without workers") from None


def contack_stats(agents: Sequence[str], results: Sequence[GameResult]) -> list[EntryStats]:
    """Per-entry statistics of duplicate games (see the module docstring)."""
    n = len(agents)
    deals = sorted({r.deal for r in results})
    index = {d: i for i, d in enumerate(deals)}
    share = np.zeros((len(deals), n))
    score = np.zeros((len(deals), n))
    margin = np.zeros((len(deals), n))
    count = np.zeros((len(deals), n))
    games: list[list[Game]] = [[] for _ in deals]
    for r in results:
        i = index[r.deal]
        total = sum(r.scores)
        for seat, e in enumerate(r.seat_entries):
            won = 1.0 / len(r.winners) if seat in r.winners else 0.0
            share[i, e] += won
            score[i, e] += r.scores[seat]
            margin[i, e] += r.scores[seat] - (total - r.scores[seat]) / (n - 1)
            count[i, e] += 1
        games[i].append(Game(r.seat_entries, tuple(1.0 / len(r.winners) if s in r.winners else 0.0
                                                    for s in range(len(r.seat_entries)))))
    share /= count
    score /= count
    margin /= count
    ratings = fit(games, n)
    out = []
    for e, agent in enumerate(agents):
        out.append(
            EntryStats(
                agent=agent,
                games=int(count[:, e].sum()),
                win_rate=float(share[:, e].mean()),
                win_rate_ci95=share_ci(share[:, e]),
                mean_score=float(score[:, e].mean()),
                score_ci95=mean_ci(score[:, e]),
                mean_margin=float(margin[:, e].mean()),
                margin_ci95=mean_ci(margin[:, e]),
                # To 0.1 Elo: a fit by iteration, its last digits are the linear algebra library's, not the games'
                rating_elo=round(ratings[e].elo, 1),
                rating_ci95=None if ratings[e].ci95 is None else (round(ratings[e].ci95[0], 1), round(ratings[e].ci95[1], 1)),
            )
        )
    return out


def colours_stats(agents: Sequence[str], results: Sequence[GameResult]) -> list[EntryStats]:
    """Per-entry statistics of heads-up duplicate games won or lost (CON-TAC-TIX): ``contack_stats``'s win rates
    and ratings (a game's winner scores 1, the loser 0), and the win rate with each colour."""
    from dataclasses import replace

    out = []
    for e, base in enumerate(contack_stats(agents, results)):
        by_colour = []
        for colour in (0, 1):
            mine = [r for r in results if r.seat_entries[colour] == e]
            by_colour.append(sum(1 for r in mine if colour in r.winners) / len(mine) if mine else float("nan"))
        out.append(replace(base, mean_margin=None, margin_ci95=None, win_rate_black=by_colour[0], win_rate_white=by_colour[1]))
    return out


def mean_moves(results: Sequence[GameResult]) -> float:
    """The mean number of moves of CON-TAC-TIX games (``GameResult.placed``)."""
    return float(np.mean([r.placed for r in results])) if results else 0.0


def solitaire_stats(agents: Sequence[str], results: Sequence[GameResult]) -> list[EntryStats]:
    out = []
    for e, agent in enumerate(agents):
        mine = [r for r in results if r.rotation == e]
        k = len(mine)
        won = sum(1 for r in mine if r.winners) / k
        points = [r.scores[0] for r in mine]
        out.append(
            EntryStats(
                agent=agent,
                games=k,
                win_rate=won,
                win_rate_ci95=wilson(won, k),
                mean_score=float(np.mean(points)),
                score_ci95=mean_ci(points),
                mean_tiles_placed=float(np.mean([r.placed for r in mine])),
            )
        )
    return out


# -- output ---------------------------------------------------------------------------------------------------------
def describe(ev: Evaluation) -> str:
    """The first line of the table: what was played and what ``games`` means."""
    options = get_game(ev.game).options  # a game's own rule options only: a new game may have none
    played = ev.options
    size = f" {played.board_size}x{played.board_size}" if "board_size" in options else ""
    rules = [f"swap rule {'on' if played.swap else 'off'}" if "swap" in options else "",
             plural(played.hands, "hand") if "hands" in options else "",
             f"enclosed_end={played.enclosed_end}" if "enclosed_end" in options else ""]
    if ev.report == "colours":
        return (
            f"{plural(ev.games, 'game')} of {ev.game}{size}{''.join(', ' + r for r in rules if r)}: "
            f"{plural(ev.deals, 'deal')} ({_seeds(ev.seed, ev.deals)}) x 2 colour rotations{_agent_seeds(ev)}"
        )
    if ev.report == "scores":
        return (
            f"{plural(ev.games, 'game')} of {ev.game}{size}, {ev.players} players{''.join(', ' + r for r in rules if r)}: "
            f"{plural(ev.deals, 'deal')} ({_seeds(ev.seed, ev.deals)}) x {ev.rotations} seat rotations{_agent_seeds(ev)}"
        )
    return f"{ev.game}: every agent plays the same {plural(ev.games, 'deal')} ({_seeds(ev.seed, ev.games)}){_agent_seeds(ev)}"


def _agent_seeds(ev: Evaluation) -> str:
    """What the first line adds when the agents' random choices came from their own seeds."""
    if ev.agent_seed is None:
        return ""
    return f"; the agents' random choices from {_seeds(ev.agent_seed, ev.deals)}"


def _seeds(first: int, count: int) -> str:
    return f"seed {first}" if count == 1 else f"seeds {first}..{first + count - 1}"


def format_table(ev: Evaluation) -> str:
    lines = [describe(ev)]
    names = [printable(e.agent) for e in ev.entries]  # a spec or a function's name: anything, one line each
    width = max(8, *(screen_width(name) for name in names))
    if ev.report == "colours":
        lines.append(
            f"{'#':>2}  {'agent':<{width}}  {'win rate':>8}  {'95% CI':<14}  {'as black':>8}  {'as white':>8}  "
            f"{'Elo':>5}  {'95% CI':<12}"
        )
        for k, (e, name) in enumerate(zip(ev.entries, names), 1):
            lo, hi = e.win_rate_ci95
            lines.append(
                f"{k:>2}  {padded(name, width)}  {e.win_rate:>8.3f}  [{lo:.3f}, {hi:.3f}]  {e.win_rate_black:>8.3f}  "
                f"{e.win_rate_white:>8.3f}  {_elo(e)}"
            )
        lines.append(
            f"win rate: share of games won, 95% CI over deals; as black / as white: win rate with that colour (black "
            f"moves first); mean game length {mean_moves(ev.results):.1f} moves; {RATING_DESCRIPTION}"
        )
        return "\n".join(line.rstrip() for line in lines)
    if ev.report == "scores":
        lines.append(
            f"{'#':>2}  {'agent':<{width}}  {'win rate':>8}  {'95% CI':<14}  {'mean score':>10}  {'margin':>8}  "
            f"{'95% CI':<18}  {'Elo':>5}  {'95% CI':<12}"
        )
        for k, (e, name) in enumerate(zip(ev.entries, names), 1):
            lo, hi = e.win_rate_ci95
            mlo, mhi = e.margin_ci95 or (0.0, 0.0)
            lines.append(
                f"{k:>2}  {padded(name, width)}  {e.win_rate:>8.3f}  [{lo:.3f}, {hi:.3f}]  {e.mean_score:>10.1f}  "
                f"{e.mean_margin:>+8.1f}  [{mlo:+7.1f}, {mhi:+7.1f}]  {_elo(e)}"
            )
        lines.append(
            "win rate: share of games won (a shared win counts 1/k), 95% CI over deals; margin: final score minus "
            f"the mean of the other seats; {RATING_DESCRIPTION}"
        )
    else:
        lines.append(f"{'#':>2}  {'agent':<{width}}  {'win rate':>8}  {'95% CI':<14}  {'tiles placed':>12}  {'points':>7}")
        for k, (e, name) in enumerate(zip(ev.entries, names), 1):
            lo, hi = e.win_rate_ci95
            lines.append(
                f"{k:>2}  {padded(name, width)}  {e.win_rate:>8.3f}  [{lo:.3f}, {hi:.3f}]  {e.mean_tiles_placed:>12.2f}  "
                f"{e.mean_score:>7.2f}"
            )
        lines.append("win rate: all 36 tiles placed, 95% Wilson interval; tiles placed of 36; points scored by contacts")
    return "\n".join(line.rstrip() for line in lines)


def _elo(e: EntryStats) -> str:
    """An entry's rating and its interval, as the table shows them (``-``: no interval from a single deal)."""
    # round() first: a format of -0.3 would print "-0"
    ci = "-" if e.rating_ci95 is None else f"[{round(e.rating_ci95[0]):+d}, {round(e.rating_ci95[1]):+d}]"
    return f"{round(e.rating_elo):>+5d}  {ci}"


def write_json(path: str, ev: Evaluation) -> None:
    """The statistics of ``ev`` as JSON, replacing ``path`` atomically (a failed write leaves the old file)."""
    with open_atomic(path) as f:
        json.dump(ev.to_json(), f, indent=2)
        f.write("\n")


def records_of(results: Iterable[GameResult]) -> list[dict[str, Any]]:
    return [r.record for r in results if r.record is not None]
