"""``contack simulate``: play games between agents and write their records (docs/records.md)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Iterable, Iterator, Sequence

from contack_env.contack.multiplayer import MAX_PLAYERS, MIN_PLAYERS
from contack_env.contactix.rules import COLOUR_NAMES
from contack_env.cli.rule_options import add_rule_options, rule_options
from contack_env.cli_support import (OUTPUT_ERRORS, check_seed_range, not_an_input, output_arg, output_file_arg, padded,
                                     printable, screen_width, seed_arg, whole_number_arg)
from contack_env.games import GAMES, get_game
from contack_env.protocol import State
from contack_env.records.contack import FORMAT as CONTACK_FORMAT
from contack_env.records.contactix import FORMAT as CONTACTIX_FORMAT
from contack_env.wording import plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    sim = sub.add_parser("simulate", help="play games between agents and write their records (JSON lines)")
    sim.add_argument("--game", choices=tuple(GAMES), default="contack", help="the game (default: contack)")
    sim.add_argument("--players", type=whole_number_arg, default=None,
                     help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (default 4); 1 for a solitaire, 2 for contactix")
    sim.add_argument("--agents", default="random", help="one agent for every seat, or one per seat, comma-separated (default: random)")
    sim.add_argument("--games", type=whole_number_arg, required=True, help="how many games")
    sim.add_argument("--seed", type=seed_arg, required=True, help="game i is played from seed S+i")
    sim.add_argument("--agent-seed", type=seed_arg, default=None, metavar="A",
                     help="the agents' random choices of game i come from seed A+i (default: S+i, with the deal)")
    sim.add_argument("--trace", action="store_true",
                     help="add the list of legal moves to every place event (contack and the solitaires)")
    add_rule_options(sim)
    sim.add_argument("--out", required=True, type=output_file_arg, help="where to write the records, one JSON object per line")


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.arena import simulate_records
    from agents.registry import parse_agent_list, spec_files

    from contack_env.records import write_records

    game = get_game(args.game)
    try:
        players = game.check_players(args.players)
    except ValueError as err:
        parser.error(f"--players: {err}")
    options = rule_options(parser, args, game)
    if game.record_format == CONTACTIX_FORMAT and args.trace:
        parser.error("--trace is an option of contack and the solitaires (a contactix record lists its moves only)")
    if args.games < 1:
        parser.error(f"--games must be at least 1; got {args.games}")
    check_seed_range(parser, "--seed", args.seed, args.games)
    check_seed_range(parser, "--agent-seed", args.agent_seed, args.games)
    try:
        agent_names = parse_agent_list(args.agents, players, args.game, options)
    except ValueError as err:
        parser.error(f"--agents: {err}")
    not_an_input(parser, "--out", args.out, [path for spec in agent_names for path in spec_files(spec)])
    output_arg(parser, "--out", args.out, json=True)

    from tqdm import tqdm

    tally = Tally()
    # The tally keeps each game's outcome alone: the summary of a game whose records it cannot read.
    stream = simulate_records(args.game, players, agent_names, args.games, args.seed, options, trace=args.trace,
                              agent_seed=args.agent_seed, on_state=tally.add)
    summary: Summary | None = None  # of the records, when their format is one the summary reads

    def played() -> Iterator[dict]:  # each record written as its game ends, and counted: none is kept in memory
        nonlocal summary
        try:
            games = tqdm(stream, total=args.games, desc="simulate", unit="game", disable=None, file=sys.stderr)
            for n, record in enumerate(games):
                if n == 0 and record.get("format") in (CONTACK_FORMAT, CONTACTIX_FORMAT):
                    summary = Summary(game.report)
                if summary is not None:
                    summary.add(record)
                yield record
        except OSError as err:  # the games' own (an agent's file): not a failure to write --out
            raise GamesFailed() from err

    try:
        count = write_records(args.out, played())
    except GamesFailed as failed:
        raise failed.__cause__ from None  # as it came, outside the write's handling
    except OUTPUT_ERRORS:  # the output's own failure (a reader gone away): contack_env.cli.main says so
        raise
    except OSError as err:
        print(f"contack simulate: cannot write {args.out}: {err}", file=sys.stderr)
        return 1
    if summary is not None:
        print(summary.text())
    else:  # a game whose records the summary cannot read: what its states say
        print(tally.summary(agent_names, game.name, args.seed))
    print(f"wrote {plural(count, 'record')} to {args.out}")
    return 0


class GamesFailed(Exception):
    """Carries (as its cause) an ``OSError`` that playing the games raised, past the write's own handling."""


def summarize(records: Iterable[dict], report: str) -> str:
    """A short table of what a batch of records of one game shows, by the game's kind of report
    (``contack_env.games.REPORTS``): wins and mean scores per seat, wins per colour, or solitaire results."""
    summary = Summary(report)
    for record in records:
        summary.add(record)
    return summary.text()


class Summary:
    """``summarize``'s table, gathered one record at a time: ``add`` each record, then ``text()``. It keeps the
    first record and counts, so a run of any length is summed up in the memory of one game."""

    def __init__(self, report: str) -> None:
        self.report = report
        self.first: dict | None = None
        self.last_seed: object = None
        self.games = 0
        self.tally = Tally()
        self.reasons: Counter[str] = Counter()  # how the hands ended ("scores")
        self.won = self.placed = 0  # a solitaire's deals won and tiles placed
        self.points = 0.0
        self.colour_wins: Counter[str] = Counter()  # CON-TAC-TIX
        self.moves = 0

    def add(self, record: dict) -> None:
        """One game's record."""
        if self.first is None:
            self.first = record
        self.last_seed = record["seed"]
        self.games += 1
        if self.report == "colours":
            self.colour_wins[record["winner"]] += 1
            self.moves += len(record["moves"])
        elif self.report == "scores":  # seats with scores; else a solitaire
            self.tally.add_result(record["winners"], record["scores"])
            for hand in record["hands"]:
                self.reasons[hand["events"][-1]["reason"]] += 1
        else:
            self.won += 1 if record["winners"] else 0
            self.placed += sum(1 for h in record["hands"] for e in h["events"] if e["type"] in ("open", "place"))
            self.points += record["scores"][0]

    def text(self) -> str:
        """The table of the records added (at least one)."""
        first, n = self.first, self.games
        if first is None:
            raise ValueError("no record to sum up")
        seeds = f"seed {first['seed']}" if n == 1 else f"seeds {first['seed']}..{self.last_seed}"
        if self.report == "colours":
            return _summarize_colours(first, n, seeds, self.colour_wins, self.moves)
        lines = []
        if self.report == "scores":
            rules = first["rules"]
            lines.append(f"{plural(n, 'game')} of contack, {first['players']} players, "
                         f"{plural(rules['hands'], 'hand')}, enclosed_end={rules['enclosed_end']}, {seeds}")
            lines.extend(_seat_table(first["agents"], self.tally.wins, self.tally.totals, n))
            ends = sorted(self.reasons.items())
            lines.append("hand ends: " + ", ".join(f"{reason} {count}" for reason, count in ends))
        else:
            lines.append(f"{plural(n, 'game')} of {first['game']}, agent {first['agents'][0]}, {seeds}")
            lines.append(f"won {self.won} ({self.won / n:.3f}), mean tiles placed {self.placed / n:.2f}, "
                         f"mean points {self.points / n:.2f}")
        return "\n".join(lines)


class Tally:
    """Wins and scores per seat of the games ``add`` is given, from their final states (the protocol's
    ``winners`` and ``scores``): the summary of any game of the registry, whatever its records hold."""

    def __init__(self) -> None:
        self.games = 0
        self.wins: list[float] = []
        self.totals: list[float] = []

    def add(self, state: State) -> None:
        """A finished game's state."""
        self.add_result(state.winners, state.scores)

    def add_result(self, winners: Sequence[int], scores: Sequence[float]) -> None:
        """A finished game's winners (a shared win split among them) and final scores, one per seat."""
        if not self.games:
            self.wins, self.totals = [0.0] * len(scores), [0.0] * len(scores)
        self.games += 1
        for seat in winners:
            self.wins[seat] += 1 / len(winners)
        for seat, score in enumerate(scores):
            self.totals[seat] += score

    def summary(self, agents: Sequence[str], game: str, seed: int) -> str:
        """Wins and mean scores per seat, or a solitaire's wins and mean score, of games ``seed ..``."""
        n, wins, totals = self.games, self.wins, self.totals
        seeds = f"seed {seed}" if n == 1 else f"seeds {seed}..{seed + n - 1}"
        if len(wins) == 1:
            return "\n".join([f"{plural(n, 'game')} of {game}, agent {agents[0]}, {seeds}",
                              f"won {wins[0]:g} ({wins[0] / n:.3f}), mean score {totals[0] / n:.2f}"])
        return "\n".join([f"{plural(n, 'game')} of {game}, {len(wins)} players, {seeds}",
                          *_seat_table(agents, wins, totals, n)])


def _seat_table(agents: Sequence[str], wins: Sequence[float], totals: Sequence[float], n: int) -> list[str]:
    """Each seat's agent, wins (a shared win counts its share), win rate and mean score over ``n`` games."""
    names = [printable(a) for a in agents]
    width = max(10, *(screen_width(name) for name in names))
    lines = [f"{'seat':>4}  {'agent':<{width}} {'wins':>8} {'win rate':>9} {'mean score':>11}"]
    for seat, agent in enumerate(names):
        lines.append(f"{seat:>4}  {padded(agent, width)} {wins[seat]:>8.1f} {wins[seat] / n:>9.3f} {totals[seat] / n:>11.2f}")
    return lines


def _summarize_colours(first: dict, n: int, seeds: str, wins: Counter[str], moves: int) -> str:
    """CON-TAC-TIX: wins by colour (Black, seat 0, moves first) and the mean number of moves, of ``n`` games."""
    names = [printable(a) for a in first["agents"]]
    width = max(10, *(screen_width(name) for name in names))
    lines = [f"{plural(n, 'game')} of contactix, {first['size']}x{first['size']} board, "
             f"swap rule {'on' if first['swap'] else 'off'}, {seeds}",
             f"{'seat':>4}  {'colour':<6} {'agent':<{width}} {'wins':>5} {'win rate':>9}"]
    for seat, colour in enumerate(COLOUR_NAMES):
        lines.append(f"{seat:>4}  {colour:<6} {padded(names[seat], width)} {wins[colour]:>5} {wins[colour] / n:>9.3f}")
    lines.append(f"mean moves {moves / n:.1f}")
    return "\n".join(lines)
