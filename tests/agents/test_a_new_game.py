"""A game the suite has never seen, added as docs/architecture.md says, plays through the generic code unchanged.

The game is a small Nim (21 counters, take 1 to 3, whoever takes the last counter wins). Its state implements
``contack_env.protocol.State``; one ``GameSpec`` registers it. Nothing in ``agents`` is told about it, yet
``play_game``, ``evaluate`` (duplicate format, seat rotations, records), and the generic ``random`` and ``mcts``
bots work with it. The test asserts what those produce, so a game branch creeping into that code, or a protocol
member the generic code starts to need without the protocol saying so, fails here.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from agents import evaluate, make_agent
from agents.evaluate import format_table
from agents.arena import play_game
from contack_env.games import GAMES, GameSpec, RuleOptions
from contack_env.protocol import State

START = 21
TAKE = (1, 2, 3)


class NimState:
    game = "nim"
    num_players = 2

    def __init__(self, counters: int = START) -> None:
        self.counters = counters
        self.current_player = 0
        self.taken: list[int] = []
        self.last_taker: int | None = None

    @property
    def done(self) -> bool:
        return self.counters == 0

    @property
    def winners(self) -> list[int]:
        return [self.last_taker] if self.done and self.last_taker is not None else []

    @property
    def scores(self) -> list[float]:
        return [1.0 if seat in self.winners else 0.0 for seat in range(2)]

    def legal_moves(self) -> list[int]:
        return [k for k in TAKE if k <= self.counters]

    legal_codes = legal_moves

    def play(self, move: int) -> None:
        if move not in self.legal_moves():
            raise ValueError(f"take 1 to {min(3, self.counters)} counters; got {move!r}")
        self.play_code(move)

    def play_code(self, code: int) -> None:
        self.counters -= code
        self.taken.append(code)
        self.last_taker = self.current_player
        self.current_player = 1 - self.current_player

    def move_of(self, code: int) -> int:
        return code

    def clone(self) -> "NimState":
        other = NimState(self.counters)
        other.current_player, other.taken, other.last_taker = self.current_player, list(self.taken), self.last_taker
        return other

    def public_view(self) -> "NimState":
        return self.clone()

    def determinize(self, rng: np.random.Generator) -> "NimState":
        return self.clone()

    def public_key(self) -> tuple:
        return (self.done,)


def _deal(rng: np.random.Generator, players: int, options: RuleOptions, trace: bool, log: bool) -> NimState:
    return NimState()


def _record(state: NimState, seed: Any = None, agents: Any = None) -> dict[str, Any]:
    return {"format": "nim-record/1", "seed": seed, "agents": list(agents or []), "taken": list(state.taken),
            "winners": state.winners}


NIM = GameSpec("nim", "Nim", 2, 2, 2, (), _deal, "nim-record/1", _record, lambda s: f"{s.counters} counters",
               lambda s: len(s.taken))


@pytest.fixture
def nim(monkeypatch):
    monkeypatch.setitem(GAMES, "nim", NIM)
    return NIM


def _perfect(state: NimState, legal: list[int]) -> int:
    # Leave a multiple of four counters whenever one can.
    winning = [k for k in legal if (state.counters - k) % 4 == 0]
    return winning[0] if winning else legal[0]


def test_the_state_implements_the_protocol(nim):
    state = nim.new_state(0)
    assert isinstance(state, State)
    assert state.legal_moves() == [1, 2, 3]


def test_play_game_plays_it_to_the_end_with_the_generic_bots(nim):
    state = nim.new_state(0)
    agents = [make_agent("random", seed=1, game="nim"), make_agent("mcts:200", seed=2, game="nim")]
    play_game(state, agents)
    assert state.done and sum(state.taken) == START and len(state.winners) == 1


def test_mcts_finds_the_winning_move(nim):
    # 7 counters: taking 3 leaves 4, a lost position for the other player; every other move loses.
    state = NimState(7)
    move = make_agent("mcts:400", seed=0, game="nim").act(state.public_view(), state.legal_moves())
    assert move == 3


def test_evaluate_runs_the_duplicate_format_and_writes_the_games_records(nim):
    # 21 counters: the first player wins with perfect play (take 1, then leave multiples of four).
    ev = evaluate([_perfect, "random"], games=20, seed=3, game="nim", records=True)
    assert len(ev.results) == 20
    first_seat = [r for r in ev.results if r.seat_entries[0] == 0]
    assert len(first_seat) == 10  # every deal in both seat rotations
    assert all(r.winners == (0,) for r in first_seat)  # from the first seat, perfect play never loses
    perfect, rand = ev.entries
    assert rand.agent == "random" and perfect.win_rate > 0.5 > rand.win_rate
    records = [r.record for r in ev.results]
    assert all(r["format"] == "nim-record/1" and sum(r["taken"]) == START for r in records)
    assert {r["agents"][0] for r in records} == {perfect.agent, "random"}  # the seats rotated


@pytest.mark.parametrize("report", ["scores", "colours"])
def test_the_report_names_only_the_rule_options_the_game_has(nim, monkeypatch, report):
    # Nim has none: no hands, no enclosed_end, no board size or swap rule of the games the suite ships
    monkeypatch.setitem(GAMES, "nim", dataclasses.replace(NIM, report=report))
    first = format_table(evaluate(["random", "random"], games=4, seed=3, game="nim")).splitlines()[0]
    assert first.startswith("4 games of nim" + (", 2 players: 2 deals" if report == "scores" else ": 2 deals")), first
    for word in ("hand", "enclosed_end", "swap", "x11"):
        assert word not in first, first
