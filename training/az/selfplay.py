"""Self-play: many games at once, every seat played by the search with the current network, the searches'
evaluation requests answered in one batch; and the split of a round of games over worker processes or Ray tasks.

Every decision with more than one legal move becomes a training sample: the network's input at it (the seat
to move's public view), the search's policy target over the actions, and, once the game has passed the
decision's horizon (``agents.az.horizon``: the end of the game, or of the hand), every seat's value there seen
from the decision, relative to the seat that moved (with ``value_playouts``, the mean of that many greedy
playouts from the decision instead; with ``value_from_search``, a share from the search). Decisions with one
legal move are played at once (they teach nothing). The search runs with its noise on (Gumbel noise, or
Dirichlet noise and a draw in proportion to the visits), so the games vary.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from agents.worker_pool import WorkerPool
from contack_env import GameState
from contack_env.games import RuleOptions, get_game

from agents.az.encoding import Encoder
from agents.az.evaluator import NetEvaluator
from agents.az.network import AZNet
from agents.az.horizon import horizon_for, terminal_values
from agents.az.search import Search, SearchResult, num_seats, playout_values
from agents.playout import Uniforms
from agents.view import determinize, public_view


@dataclass
class GameSetup:
    """The games to play and how to search them (the self-play part of ``training.az.config.AZConfig``)."""

    game: str
    players: int = 2
    options: RuleOptions = field(default_factory=RuleOptions)
    """The rule options of its games."""
    sims: int = 16
    mode: str = "gumbel"
    max_considered: int = 16
    horizon: str = "game"
    rollout: float = 0.0
    value_from_search: float = 0.0
    """The share of a value target that is the search's value of the move played (the rest: the result)."""
    value_playouts: int = 0
    """Greedy playouts from each decision whose mean result stands for the result the game reached (0: none)."""
    leaf_moves: int = 0
    """Greedy moves the search plays on from a new leaf before valuing it (``agents.az.search``)."""

    def new_state(self, rng: np.random.Generator) -> GameState:
        return get_game(self.game).new_state(rng, self.players, self.options, log=False)  # type: ignore[return-value]


PLAYOUT_STREAM = 2**32 - 1
"""The spawn key of the value playouts' random stream under a self-play seed (spawned children count from 0)."""

SAMPLE_FIELDS = ("obs", "mask", "policy", "value", "seats")
"""The arrays of ``Samples``, one row per sample, in the order its constructor takes them."""


@dataclass
class Samples:
    """Training samples as arrays, one row each, and what the games ended with."""

    obs: np.ndarray
    mask: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    seats: np.ndarray
    results: list[list[float]] = field(default_factory=list)
    """Every game's ``terminal_values`` in table order."""
    won: list[bool] = field(default_factory=list)
    """Solitaires: whether each deal was won."""

    @classmethod
    def concat(cls, parts: list[Samples]) -> Samples:
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in SAMPLE_FIELDS),
                   results=[r for p in parts for r in p.results], won=[w for p in parts for w in p.won])

    def __len__(self) -> int:
        return len(self.obs)


class _Table:
    """One game in progress: its state, the search under way and the decisions recorded so far."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.view: GameState | None = None
        self.search: Any = None
        self.request: list[GameState] = []
        self.pending: list[tuple[np.ndarray, list[int], np.ndarray, int, Any, list[float], list[float] | None]] = []
        """Decisions whose horizon the game has not passed yet: input, actions, policy target, mover, base, the
        search's values, the playouts' mean result (None without playouts)."""
        self.decisions: list[tuple[np.ndarray, list[int], np.ndarray, int, list[float]]] = []
        """Decisions with their values (table order)."""


def play(net: AZNet, setup: GameSetup, games: int, seed: int | np.random.SeedSequence, parallel: int = 16) -> Samples:
    """Play ``games`` self-play games, ``parallel`` at a time, and return their samples."""
    if setup.horizon != net.horizon:
        # The value targets would mean one thing and the network's values, which the search uses, another.
        raise ValueError(f"the setup's horizon is {setup.horizon!r} but the network's values are for {net.horizon!r}")
    seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    rng = np.random.default_rng(seq)
    # The playouts of value targets draw from a stream of their own, so the games are those of a run without them:
    # a child of the seed that the caller's own spawn() never hands out (and without spawning, which would shift
    # the children the caller takes next).
    playout_rng = np.random.default_rng(
        np.random.SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, PLAYOUT_STREAM), pool_size=seq.pool_size))
    uniform = Uniforms(playout_rng)
    horizon = horizon_for(setup.horizon)
    evaluate = NetEvaluator(net)
    encoder = evaluate.encoder
    rows: dict[str, list[np.ndarray]] = {k: [] for k in SAMPLE_FIELDS}
    results: list[list[float]] = []
    won: list[bool] = []
    started = 0
    tables: list[_Table] = []

    def begin(table: _Table) -> bool:
        """Play forced moves, then start the search of the next decision; False once the game is over."""
        state = table.state
        while not state.done and len(state.legal_codes()) == 1:
            play(table, state.legal_codes()[0])
        if state.done:
            return False
        table.view = public_view(state)
        table.search = Search(setup.sims, rng, setup.mode, noise=True, max_considered=setup.max_considered,
                              horizon=horizon, rollout=setup.rollout, leaf_moves=setup.leaf_moves).run(table.view)
        table.request = next(table.search)
        return True

    def play(table: _Table, code: int) -> None:
        """Play a move; the decisions whose horizon it passes get their values."""
        state = table.state
        state.play_code(code)
        still = []
        share = setup.value_from_search
        for decision in table.pending:
            obs, actions, policy, mover, base, searched, expected = decision
            if horizon.over(state, base):
                result = horizon.result(state, base) if expected is None else expected
                if share:
                    result = [(1.0 - share) * r + share * v for r, v in zip(result, searched)]
                table.decisions.append((obs, actions, policy, mover, result))
            else:
                still.append(decision)
        table.pending = still

    def record(table: _Table, result: SearchResult) -> None:
        view = table.view
        obs, actions = encoder.encode(view)
        base = horizon.start(view)
        expected = None
        if setup.value_playouts:
            # Many continuations of the position average out the later moves' and the draws' luck that one game's
            # result carries; each reads only the public view (its own determinization).
            runs = [playout_values(determinize(view, playout_rng), horizon, base, uniform)
                    for _ in range(setup.value_playouts)]
            expected = [sum(seat) / len(runs) for seat in zip(*runs)]
        table.pending.append((obs, actions, result.policy, view.current_player, base, result.values, expected))
        play(table, result.code)

    def finish(table: _Table) -> None:
        state = table.state
        n = num_seats(state)
        results.append(terminal_values(state))
        if n == 1:  # a solitaire: won or lost, besides the share of the tiles placed
            won.append(bool(state.winners))
        for obs, actions, policy, mover, values in table.decisions:
            for key, row in zip(rows, sample_row(encoder, n, obs, actions, policy, mover, values)):
                rows[key].append(row)

    while started < games or tables:
        while started < games and len(tables) < parallel:
            started += 1
            table = _Table(setup.new_state(rng))
            if begin(table):
                tables.append(table)
            else:
                finish(table)
        answers = evaluate([state for t in tables for state in t.request])
        still: list[_Table] = []
        start = 0
        for table in tables:
            answer, start = answers[start : start + len(table.request)], start + len(table.request)
            try:
                table.request = table.search.send(answer)
            except StopIteration as stop:
                record(table, stop.value)
                if not begin(table):
                    finish(table)
                    continue
            still.append(table)
        tables = still
    return stack_samples(encoder, rows, results, won)


def sample_row(encoder: Encoder, players: int, obs: np.ndarray, actions: Sequence[int], policy: Sequence[float],
               mover: int, values: Sequence[float]) -> tuple[np.ndarray, ...]:
    """One decision as the arrays of ``SAMPLE_FIELDS``: the legal actions' mask, the policy target spread over
    the actions, and every seat's value in table order made relative to the seat that moved."""
    mask = np.zeros(encoder.num_actions, dtype=bool)
    mask[actions] = True
    target = np.zeros(encoder.num_actions, dtype=np.float32)
    target[actions] = policy
    value = np.zeros(encoder.seats, dtype=np.float32)
    seats = np.zeros(encoder.seats, dtype=np.float32)
    for r in range(players):
        value[r] = values[(mover + r) % players]
        seats[r] = 1.0
    return obs, mask, target, value, seats


def stack_samples(encoder: Encoder, rows: dict[str, list[np.ndarray]], results: list[list[float]],
                  won: list[bool]) -> Samples:
    """``Samples`` from rows collected per field (``SAMPLE_FIELDS``), empty arrays of the right widths if none."""
    if not rows["obs"]:
        empty = Samples(np.zeros((0, encoder.obs_size), np.float32), np.zeros((0, encoder.num_actions), bool),
                        np.zeros((0, encoder.num_actions), np.float32), np.zeros((0, encoder.seats), np.float32),
                        np.zeros((0, encoder.seats), np.float32))
        empty.results, empty.won = results, won
        return empty
    return Samples(*(np.stack(rows[k]) for k in SAMPLE_FIELDS), results=results, won=won)


def _play_task(task: tuple[AZNet, GameSetup, int, Any, int]) -> Samples:
    net, setup, games, seed, parallel = task
    return play(net, setup, games, seed, parallel)


def _apply(task: tuple[Callable[[Any, Any], Any], Any, Any]) -> Any:
    function, shared, item = task
    return function(shared, item)


def _play_share(net: AZNet, share: tuple[GameSetup, int, Any, int]) -> Samples:
    # A Ray task: the network comes from the object store, put there once a round.
    setup, games, seed, parallel = share
    return play(net, setup, games, seed, parallel)


class SelfPlay:
    """Rounds of self-play split over ``workers`` processes (``workers=1``: in this process), or with ``ray``
    over ``workers`` Ray tasks (``agents.ray_tasks``: ``RAY_ADDRESS``'s cluster, else a local one). A round is
    split into the same ``workers`` shares with the same random streams either way, so processes and Ray give
    the same samples."""

    def __init__(self, workers: int, parallel: int, ray: bool = False) -> None:
        self.workers = workers
        self.parallel = parallel
        self._pool = None
        self._ray: Any = None
        self._session = ExitStack()
        if ray:
            from agents.ray_tasks import connect

            self._ray = self._session.enter_context(connect())  # held for the run: a start-up costs seconds
        elif workers > 1:
            # The workers run numpy alone (the network's forward pass): they never import torch.
            self._pool = WorkerPool(workers)

    def round(self, net: AZNet, setup: GameSetup, games: int, seed: np.random.SeedSequence) -> Samples:
        """``games`` games with ``net``; the random streams come from ``seed`` (one child per worker)."""
        if self._pool is None and self._ray is None:
            return play(net, setup, games, seed, self.parallel)
        shares = [games // self.workers + (1 if i < games % self.workers else 0) for i in range(self.workers)]
        tasks = [(setup, n, s, self.parallel) for n, s in zip(shares, seed.spawn(self.workers)) if n]
        if self._ray is not None:
            from agents.ray_tasks import ordered_map

            return Samples.concat(list(ordered_map(self._ray, _play_share, net, tasks, len(tasks))))
        return Samples.concat(list(self._pool.map(_play_task, [(net, *task) for task in tasks])))

    def map(self, function: Callable[[Any, Any], Any], shared: Any, items: list[Any],
            done: Callable[[Any], None] | None = None) -> list[Any]:
        """``function(shared, item)`` for every item, in order, over the same workers (or Ray tasks) as the
        rounds; ``function`` is a module-level function (a worker process imports it). ``done(item)`` is called
        as each item's result comes back, in order (a progress bar)."""
        if self._ray is not None:
            from agents.ray_tasks import ordered_map

            results = ordered_map(self._ray, function, shared, items, max(1, self.workers))
        elif self._pool is None:
            results = (function(shared, item) for item in items)
        else:
            results = self._pool.map(_apply, [(function, shared, item) for item in items])
        out = []
        for item, result in zip(items, results):
            out.append(result)
            if done is not None:
                done(item)
        return out

    def close(self) -> None:
        """Wait for the workers to end (after the last round, every game is done)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self._end_session()

    def terminate(self) -> None:
        """End the workers now, in the middle of their games (after a failure or Ctrl-C)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None
        self._end_session()

    def _end_session(self) -> None:
        self._session.close()
        self._ray = None
