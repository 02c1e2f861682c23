"""Playing whole games between agents, from a seed."""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from contack_env.contack.multiplayer import new_game
from contack_env.records.contack import game_record
from contack_env.contack.solitaire import new_solitaire1, new_solitaire2
from contack_env.contack.state import GameState

from .base import Agent
from .registry import make_agent
from .view import public_view

GAMES = ("contack", "solitaire1", "solitaire2")


def seed_streams(seed: int, count: int) -> list[np.random.SeedSequence]:
    """Independent streams for one game: stream 0 deals, stream k+1 drives the agent in seat k."""
    return np.random.SeedSequence(seed).spawn(count)


def new_state(
    game: str,
    players: int,
    seed_seq: np.random.SeedSequence,
    hands: int = 3,
    enclosed_end: str = "1939",
    trace: bool = False,
    log: bool = True,
) -> GameState:
    """A fresh game of kind ``game`` dealt from ``seed_seq`` (``log=False``: no event log, faster, no record)."""
    rng = np.random.default_rng(seed_seq)
    if game == "contack":
        return new_game(players, hands, enclosed_end, seed=rng, trace=trace, log=log)
    if game == "solitaire1":
        return new_solitaire1(seed=rng, trace=trace, log=log)
    if game == "solitaire2":
        return new_solitaire2(seed=rng, trace=trace, log=log)
    raise ValueError(f"unknown game {game!r}; games are: {', '.join(GAMES)}")


def play_game(state: GameState, agents: Sequence[Agent]) -> GameState:
    """Let ``agents[seat]`` choose at every decision until the game is over; returns ``state``.

    Agents see ``public_view(state)``, a copy without the face-down order, never the state itself.
    """
    for agent in agents:
        agent.reset()
    while not state.done:
        legal = state.legal_moves()
        state.play(agents[state.current_player].act(public_view(state), legal))
    return state


def simulate_records(
    game: str,
    players: int,
    agent_names: Sequence[str],
    games: int,
    seed: int,
    hands: int = 3,
    enclosed_end: str = "1939",
    trace: bool = False,
) -> Iterator[dict]:
    """Records of ``games`` games; game ``i`` is played from seed ``seed + i`` (so one game can be replayed alone)."""
    for i in range(games):
        game_seed = seed + i
        streams = seed_streams(game_seed, len(agent_names) + 1)
        agents = [make_agent(name, streams[k + 1], game=game) for k, name in enumerate(agent_names)]
        state = play_game(new_state(game, players, streams[0], hands, enclosed_end, trace), agents)
        yield game_record(state, seed=game_seed, agents=list(agent_names))
