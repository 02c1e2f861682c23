"""A game at a table in the browser: its setup, the engine state (the authority), the bots, and a move counter.

Every request that changes a game names the ``version`` it was made from, the number of decisions played so
far; a request made from an older version is stale and refused, so a second tab, a double click or a replayed
request cannot play a move twice or out of turn. Bots move only when the page asks (``bot_decision``, then
``apply_bot``), one decision at a time, so a page shows each bot move, draw and pass as it happens and a closed
page leaves nothing running.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field, fields
from typing import Any, Sequence

import numpy as np

from agents.arena import new_state, seed_streams
from agents.base import Agent
from agents.registry import check_agent_options, make_agent, mcts_budget, split_az_argument, split_spec
from agents.view import public_view
from contack_env.checks import is_whole_number
from contack_env.contack.multiplayer import DEFAULT_ENCLOSED_END, DEFAULT_NUM_HANDS, ENCLOSED_END_OPTIONS
from contack_env.contactix.rules import DEFAULT_SIZE, check_size
from contack_env.games import GAMES, RuleOptions
from contack_env.seeds import MAX_SEED
from contack_env.protocol import State
from contack_env.wording import plural

from .models import ModelFolders
from .web_game import WebGame, seat_names, web_game, web_games

PERSON = "person"
MAX_HANDS = 9  # the rules play DEFAULT_NUM_HANDS; a cap keeps one table from holding the server for long
MAX_MCTS = 20000  # iterations a decision: some seconds; the command line allows far more than a page should wait
MAX_AZ_SIMS = 5000  # an az simulation costs about four mcts iterations (benchmarks/search.py): as long as MAX_MCTS
MAX_AZ_ENDGAME = 30000  # Solitaire No. 2's exact endgame, positions a decision: ten times the default


class Rejected(Exception):
    """A request the game refuses: ``status`` is the HTTP status, ``reason`` says why."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass
class Setup:
    """A checked table setup: the game, one spec per seat (None for a person), the rules and the seed."""

    game: str
    seats: list[str | None]
    hands: int = DEFAULT_NUM_HANDS
    enclosed_end: str = DEFAULT_ENCLOSED_END
    board_size: int = DEFAULT_SIZE
    swap: bool = False
    seed: int = 0

    def options(self) -> RuleOptions:
        """The table's rule options."""
        return RuleOptions(hands=self.hands, enclosed_end=self.enclosed_end, board_size=self.board_size, swap=self.swap)


LOG = logging.getLogger("contack.serve")
"""Where a failing bot's traceback goes (standard error, as the server's own warnings)."""

RULE_OPTIONS = tuple(option.name for option in fields(RuleOptions))
"""Every game's rule options a table may name (``contack_env.games``: each game takes some of them)."""


def parse_setup(data: Any, models: ModelFolders) -> tuple[Setup, list[str | None]]:
    """The setup a page sent (a JSON object), checked; also each seat's agent spec with a model's name resolved
    to its file (None for a person). ``Rejected`` (400) says what is wrong."""
    if not isinstance(data, dict):
        raise Rejected(400, "a table is a JSON object: {game, seats, ...}")
    game = data.get("game", "contack")
    offered = web_games()
    if not isinstance(game, str) or game not in offered:
        raise Rejected(400, f"game is one of {', '.join(offered)}; got {game!r}")
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise Rejected(400, "seats is a list with one entry per seat: 'person' or an agent spec such as 'greedy'")
    spec = GAMES[game]
    try:
        spec.check_players(len(seats))
    except ValueError:
        count = plural(spec.min_players, "player") if spec.min_players == spec.max_players else (
            f"{spec.min_players} to {spec.max_players} players")
        raise Rejected(400, f"{game} is played by {count}; got {plural(len(seats), 'seat')}") from None
    setup = Setup(game, [None if s.strip() == PERSON else s.strip() for s in seats])
    foreign = [name for name in RULE_OPTIONS if name in data and name not in spec.options]
    if foreign:  # refused, not ignored: a table asked for under rules it would not be played by
        own = ", ".join(spec.options) if spec.options else "none"
        raise Rejected(400, f"{', '.join(foreign)}: not a rule option of {spec.title} (its options: {own})")
    # The rule options the game has (contack_env.games), each checked as the page sends it.
    if "hands" in spec.options:
        hands = data.get("hands", DEFAULT_NUM_HANDS)
        if not is_whole_number(hands) or not 1 <= hands <= MAX_HANDS:
            raise Rejected(400, f"hands is a whole number 1..{MAX_HANDS} (the rules play {DEFAULT_NUM_HANDS}); got {hands!r}")
        setup.hands = hands
    if "enclosed_end" in spec.options:
        enclosed_end = data.get("enclosed_end", DEFAULT_ENCLOSED_END)
        if enclosed_end not in ENCLOSED_END_OPTIONS:
            raise Rejected(400, f"enclosed_end is one of {', '.join(ENCLOSED_END_OPTIONS)}; got {enclosed_end!r}")
        setup.enclosed_end = enclosed_end
    if "board_size" in spec.options:
        try:
            setup.board_size = check_size(data.get("board_size", DEFAULT_SIZE))
        except ValueError as err:
            raise Rejected(400, f"board_size: {err}") from None
    if "swap" in spec.options:
        swap = data.get("swap", False)
        if not isinstance(swap, bool):
            raise Rejected(400, f"swap is true or false; got {swap!r}")
        setup.swap = swap
    seed = data.get("seed")
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    if not is_whole_number(seed) or not 0 <= seed <= MAX_SEED:
        raise Rejected(400, f"seed is a whole number 0..2^63-1, or null for a fresh one; got {seed!r}")
    setup.seed = seed
    resolved: list[str | None] = []
    for seat, spec in enumerate(setup.seats):
        name, arg = split_spec(spec or "")
        if spec is not None and name == "mcts":
            try:
                budget = mcts_budget(arg)
            except ValueError as err:
                raise Rejected(400, f"seat {seat}: {err}") from None
            if budget > MAX_MCTS:
                raise Rejected(400, f"seat {seat}: mcts:{budget}: this server lets a bot think at most mcts:{MAX_MCTS}")
        if spec is not None and name == "ppo":
            try:
                spec = f"ppo:{models.resolve(arg or '')}"
            except ValueError as err:
                raise Rejected(400, f"seat {seat}: {err}") from None
        if spec is not None and name == "az":
            spec = _resolve_az(seat, arg or "", models)
        resolved.append(spec)
    return setup, resolved


def _resolve_az(seat: int, arg: str, models: ModelFolders) -> str:
    """The spec ``az:NAME[:SIMS[:ENDGAME]]`` with the network's name resolved to its file, its budgets checked
    against the server's caps (a page may not make a bot think for minutes)."""
    try:
        name, sims, endgame = split_az_argument(arg)
    except ValueError:  # a number past every budget: this server's own caps are the ones to say
        raise Rejected(400, f"seat {seat}: az:NAME[:SIMS[:ENDGAME]]: this server lets a bot search at most "
                            f"{MAX_AZ_SIMS} simulations and the endgame at most {MAX_AZ_ENDGAME} positions; got a "
                            "number longer than any") from None
    try:
        model = models.find(name, "az")
    except ValueError as err:
        known = next((m.name for m in models.models() if m.kind == "az" and name.startswith(m.name + ":")), None)
        if known is not None:  # az:net.npz:abc, az:net.npz:-3: the numbers after a known network are wrong
            raise Rejected(400, f"seat {seat}: az:{arg}: after the network {known} come at most two whole numbers "
                                f"of 0 or more, SIMS and ENDGAME (az:NAME[:SIMS[:ENDGAME]]); got "
                                f"{arg[len(known) + 1:]!r}") from None
        raise Rejected(400, f"seat {seat}: {err}") from None
    if sims is None and model.sims is not None and model.sims > MAX_AZ_SIMS:  # the file's own budget
        raise Rejected(400, f"seat {seat}: az:{name} searches {model.sims} simulations a decision; this server lets a "
                            f"bot search at most {MAX_AZ_SIMS}: give fewer (az:{name}:SIMS)")
    if sims is not None and sims > MAX_AZ_SIMS:
        raise Rejected(400, f"seat {seat}: az:{name}:{sims}: this server lets a bot search at most {MAX_AZ_SIMS} simulations")
    if endgame is not None and endgame > MAX_AZ_ENDGAME:
        raise Rejected(400, f"seat {seat}: az:{arg}: this server lets the endgame search at most {MAX_AZ_ENDGAME} positions")
    return f"az:{model.path}{arg[len(name):]}"  # the page's budgets as it wrote them


def _make_agents(setup: Setup, resolved: list[str | None], streams: Sequence[np.random.SeedSequence]) -> dict[int, Agent]:
    agents: dict[int, Agent] = {}
    for seat, (spec, full) in enumerate(zip(setup.seats, resolved)):
        if spec is None or full is None:
            continue
        try:
            agent = make_agent(full, streams[seat + 1], game=setup.game)
            check_agent_options(agent, setup.options())
            agent.reset()
        except ValueError as err:
            raise Rejected(400, f"seat {seat}: {_as_the_page_wrote_it(str(err), spec, full)}") from None
        except Exception as err:  # the factory of an agent of a user's own failing in its code: said, not a crash
            LOG.exception("the agent %s of seat %d could not be made", spec, seat)  # the traceback, for its author
            why = _as_the_page_wrote_it(f"{type(err).__name__}: {err}", spec, full)
            raise Rejected(500, f"seat {seat}: {spec} could not be made: {_brief(why)}") from None
        agents[seat] = agent
    return agents


def _as_the_page_wrote_it(why: str, spec: str, full: str) -> str:
    """``why`` with the models folder left out: the page knows a model by its name, not by where the server keeps
    it (``full`` is ``spec`` with the model's folder put before its name)."""
    if full == spec:
        return why
    full_arg, page_arg = split_spec(full)[1] or "", split_spec(spec)[1] or ""
    return why.replace(full_arg[: len(full_arg) - len(page_arg)], "")


@dataclass
class GameSession:
    """One open game (module docstring)."""

    setup: Setup
    state: State
    agents: dict[int, Agent]
    names: list[str]
    web: WebGame
    """The game's adapter (``contack_env.app.web_game``): its JSON, its moves and its log."""
    version: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @classmethod
    def create(cls, setup: Setup, resolved: list[str | None]) -> "GameSession":
        """A new game of ``setup``, dealt from its seed (stream 0 deals, stream k+1 drives seat k's bot)."""
        streams = seed_streams(setup.seed, len(setup.seats) + 1)
        state = new_state(setup.game, len(setup.seats), streams[0], setup.options())
        agents = _make_agents(setup, resolved, streams)
        web = web_game(setup.game)
        return cls(setup, state, agents, seat_names(web, setup.seats), web)

    # -- what the page sees ----------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self.state.done else self.state.current_player

    @property
    def person_to_move(self) -> bool:
        return self.to_move is not None and self.setup.seats[self.to_move] is None

    def to_json(self) -> dict[str, Any]:
        s = self.setup
        return {
            "version": self.version,
            # The seed would let a page rebuild the deals, the pile's order with them: it is shown at the end.
            "seed": s.seed if self.state.done else None,
            "rules": s.options().rules_of(GAMES[s.game]),  # the game's own options only (RuleOptions.rules_of)
            "seats": [
                {"name": name, "person": spec is None, "agent": spec or PERSON}
                for name, spec in zip(self.names, s.seats)
            ],
            "person_to_move": self.person_to_move,
            "state": self.web.state_json(public_view(self.state)),
            "log": self.web.log(self.state, self.names),
        }

    def record(self) -> dict[str, Any]:
        """The finished game's record (``contack-record/1`` or ``contactix-record/1``); 409 while it goes on."""
        if not self.state.done:
            raise Rejected(409, "the record is ready when the game is over")
        agents = [spec or PERSON for spec in self.setup.seats]
        return GAMES[self.setup.game].write_record(self.state, seed=self.setup.seed, agents=agents)

    # -- changing it -----------------------------------------------------------------------------------------
    def check_version(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise Rejected(400, "a move is a JSON object with the game's version")
        version = data.get("version")
        if not is_whole_number(version):
            raise Rejected(400, f"version (the number of moves the page has seen) is a whole number; got {version!r}")
        if version != self.version:
            raise Rejected(
                409,
                f"stale request: the game is at move {self.version}, the request was made at move {version}; "
                "nothing was changed (reload the game)",
            )

    def person_move(self, data: dict[str, Any]) -> None:
        """Play the move a person sent, after ``check_version``; ``Rejected`` says why it is refused."""
        if self.state.done:
            raise Rejected(409, "the game is over")
        if not self.person_to_move:
            raise Rejected(409, f"it is {self.names[self.state.current_player]}'s turn, a bot's, not a person's")
        try:
            move = self.web.parse_move(self.state, data)
        except ValueError as err:
            raise Rejected(400, str(err)) from None
        try:
            self.state.play(move)
        except ValueError as err:  # the engine's IllegalMoveError, saying why
            raise Rejected(400, f"illegal move: {_short(str(err))}") from None
        self.version += 1

    def bot_decision(self) -> Any:
        """The bot to move chooses (the slow part, run off the event loop); ``apply_bot`` then plays it."""
        if self.state.done:
            raise Rejected(409, "the game is over")
        if self.person_to_move:
            raise Rejected(409, f"it is {self.names[self.state.current_player]}'s turn: a person's move, not a bot's")
        seat = self.state.current_player
        try:
            return self.agents[seat].act(public_view(self.state), self.state.legal_moves())
        except Exception as err:  # an agent of a user's own (agents.register) failing in its code: said, not a crash
            LOG.exception("%s's bot failed", self.names[seat])  # the traceback, for the agent's author
            raise Rejected(500, f"{self.names[seat]}'s bot failed: {_brief(f'{type(err).__name__}: {err}')}") from None

    def apply_bot(self, move: Any) -> None:
        seat = self.state.current_player
        try:
            self.state.play(move)  # checked before anything changes: a refused move leaves the game as it was
        except Exception as err:
            raise Rejected(500, f"{self.names[seat]}'s bot chose a move the game refuses ({_brief(repr(move))}): "
                                f"{_brief(_short(str(err)))}") from None
        self.version += 1


def _brief(text: str, most: int = 200) -> str:
    # what a bot of a user's own returned or raised can be of any size: a message shows its start
    return text if len(text) <= most else text[: most - 3] + "..."


def _short(message: str) -> str:
    # Contack's engine lists every legal move after its reason; the page highlights them already.
    head, sep, _ = message.partition("; ")
    return head if sep else message


__all__ = ["GameSession", "MAX_HANDS", "MAX_MCTS", "PERSON", "Rejected", "Setup", "parse_setup"]
