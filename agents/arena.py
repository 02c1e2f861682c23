"""Playing whole games between agents, from a seed."""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

import numpy as np

from contack_env.wording import plural
from contack_env.games import RuleOptions, get_game
from contack_env.protocol import State

from .base import Agent
from .registry import make_agent


def seed_streams(seed: int, count: int, agent_seed: int | None = None) -> list[np.random.SeedSequence]:
    """Independent streams for one game: stream 0 deals, stream k+1 drives the agent in seat k.

    With ``agent_seed`` the agents' streams are those ``agent_seed`` would give and the deal stays ``seed``'s: the
    same tiles, other random choices by the agents (``agent_seed == seed`` is the same as none)."""
    streams = np.random.SeedSequence(seed).spawn(count)
    if agent_seed is not None:
        streams[1:] = np.random.SeedSequence(agent_seed).spawn(count)[1:]
    return streams


def new_state(
    game: str,
    players: int,
    seed_seq: np.random.SeedSequence,
    options: RuleOptions | None = None,
    *,
    trace: bool = False,
    log: bool = True,
) -> State:
    """A fresh game of kind ``game`` (``contack_env.games``) dealt from ``seed_seq`` with the rule options it has
    of ``options`` (None: the rules' defaults); ``log=False``: no event log."""
    return get_game(game).new_state(seed_seq, players, options, trace=trace, log=log)


def play_game(state: State, agents: Sequence[Agent]) -> State:
    """Let ``agents[seat]`` choose at every decision until the game is over; returns ``state``.

    Agents see ``state.public_view()``, a copy without the face-down order, never the state itself.
    """
    if len(agents) != state.num_players:
        raise ValueError(f"{state.game} with {plural(state.num_players, 'player')} needs as many agents; got {len(agents)}")
    for agent in agents:
        agent.reset()
    while not state.done:
        legal = state.legal_moves()
        seat = state.current_player
        move = agents[seat].act(state.public_view(), legal)
        try:
            state.play(move)
        except ValueError as err:  # say whose move it was: with several agents it is otherwise anyone's
            agent = agents[seat]
            said = f"the agent at seat {seat} ({getattr(agent, 'name', type(agent).__name__)}) made an illegal move: {err}"
            try:
                named = type(err)(said)  # the same kind (IllegalMoveError), for callers that catch it
            except TypeError:
                named = ValueError(said)
            raise named from None
    return state


def simulate_records(
    game: str,
    players: int,
    agent_names: Sequence[str],
    games: int,
    seed: int,
    options: RuleOptions | None = None,
    *,
    trace: bool = False,
    agent_seed: int | None = None,
    on_state: Callable[[State], None] | None = None,
) -> Iterator[dict]:
    """Records of ``games`` games; game ``i`` is played from seed ``seed + i`` (so one game can be replayed alone),
    its agents' random choices from ``agent_seed + i`` when given (``seed_streams``). Each game reads the rule
    options it has (``contack_env.games.RuleOptions``). ``on_state``, if given, is called with each game's final
    state before its record is yielded."""
    for i in range(games):
        game_seed = seed + i
        streams = seed_streams(game_seed, len(agent_names) + 1, None if agent_seed is None else agent_seed + i)
        agents = [make_agent(name, streams[k + 1], game=game) for k, name in enumerate(agent_names)]
        state = play_game(new_state(game, players, streams[0], options, trace=trace), agents)
        if on_state is not None:
            on_state(state)
        yield get_game(game).write_record(state, seed=game_seed, agents=list(agent_names))
