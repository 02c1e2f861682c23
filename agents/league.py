"""One rating table for many matches: Elo fitted to the games of several evaluations' records at once.

``contack evaluate`` rates the entries of one match. A ladder of bots, trained policies and search agents is
played as several matches (``a,b``, ``b,c``, ...), each written with ``--records``; ``league(records)`` fits one
Elo table to every game in them (``agents.rating``: Luce's choice model by maximum likelihood, the 95% interval
cluster-robust over deals). Entries are the agent names the records give for their seats, so ``mcts:200`` in two
files is one entry; two seats of one table held by the same name are one entry with two seats' chances. Every
record is replayed through the rules first (``contack_env.records.replay``), and the winners are the engine's.

The games of one deal are the independent units: games dealt the same tiles (the same first deck, as the
records give it) are one deal, in one file or across files. CON-TAC-TIX deals no tiles: there the games of one
seed are a deal (``contack evaluate`` plays both colour rotations of a deal from one seed). A duplicate match
plays each deal once per seat rotation, and matches played with the same ``--seed`` share their deals, so the
ladder of matches a rating table is fitted to usually holds far fewer deals than games; counting each file's deals apart would treat
repeats of the same tiles as independent and give intervals too narrow. All records must be of one game at one
table size: ratings from 2-player and 4-player tables are different quantities.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from contack_env.cli_support import padded, printable, screen_width
from contack_env.records import RecordError, replay
from contack_env.wording import plural

from .rating import DESCRIPTION, Game, Rating, fit


@dataclass(frozen=True)
class LeagueEntry:
    """One agent of the table: its games, its share of their wins, and its rating."""

    agent: str
    games: int
    win_rate: float
    rating: Rating


@dataclass(frozen=True)
class League:
    """The fitted table, best first, with what it was fitted to."""

    game: str
    players: int
    games: int
    deals: int
    sources: int
    entries: list[LeagueEntry]


def league(sources: Sequence[Sequence[dict[str, Any]]], names: Sequence[str] | None = None) -> League:
    """The Elo table of every game in ``sources`` (the records of each file; ``names`` name the files in errors).

    ``RecordError`` names the file and record that does not replay, has no agent names, or is of another game or
    table size than the first."""
    names = list(names) if names is not None else [f"source {k + 1}" for k in range(len(sources))]
    agents: dict[str, int] = {}
    deals: dict[tuple[Any, ...], list[Game]] = {}
    won: dict[int, float] = {}
    played: dict[int, int] = {}
    kind: tuple[str, int] | None = None
    for k, records in enumerate(sources):
        for r, record in enumerate(records, 1):
            where = f"{names[k]}, record {r}"
            try:
                final = replay(record)
            except RecordError as err:
                raise RecordError(f"does not replay: {err}", where) from None
            seats = final.num_players
            mine = (final.game, seats)
            if kind is None:
                kind = mine
            elif mine != kind:
                raise RecordError(f"a game of {mine[0]} with {seats} players; the first record was {kind[0]} with "
                                  f"{kind[1]} (rate one game and one table size at a time)", where)
            labels = record.get("agents")
            if not isinstance(labels, list) or len(labels) != seats or not all(isinstance(a, str) for a in labels):
                raise RecordError("has no agent name for every seat (contack evaluate --records writes them)", where)
            if seats < 2:
                raise RecordError("is a solitaire: a rating needs players at one table", where)
            at = tuple(agents.setdefault(a, len(agents)) for a in labels)
            winners = final.winners
            shares = tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(seats))
            deals.setdefault(deal_of(record, where), []).append(Game(at, shares))
            for e, share in zip(at, shares):
                won[e] = won.get(e, 0.0) + share
                played[e] = played.get(e, 0) + 1
    if kind is None:
        raise RecordError("no records to rate", "the files")
    if len(agents) < 2:
        raise RecordError(f"every seat is played by {printable(next(iter(agents)))}: a rating needs two agents or "
                          "more", "the files")
    ratings = fit(list(deals.values()), len(agents))
    entries = [LeagueEntry(a, played[e], won[e] / played[e], ratings[e]) for a, e in agents.items()]
    entries.sort(key=lambda x: -x.rating.elo)
    games = sum(len(g) for g in deals.values())
    return League(kind[0], kind[1], games, len(deals), len(sources), entries)


def deal_of(record: dict[str, Any], where: str) -> tuple[Any, ...]:
    """The deal a replayed record's game was played on (module docstring): its first deck for Contack; for
    CON-TAC-TIX, which deals no tiles, its seed (``contack evaluate`` plays both colour rotations of a deal from
    one seed), or the record alone when it has none."""
    hands = record.get("hands")
    if hands:
        return ("tiles", *hands[0]["deck"])
    seed = record.get("seed")
    return ("seed", seed) if isinstance(seed, int) else ("record", where)


def format_league(table: League) -> str:
    """The table as ``contack ratings`` prints it."""
    names = [printable(e.agent) for e in table.entries]
    width = max(len("agent"), *(screen_width(name) for name in names))
    lines = [f"{plural(table.games, 'game')} of {table.game}, {table.players} players, {plural(table.deals, 'deal')}, "
             f"from {plural(table.sources, 'file')}",
             f" #  {'agent':<{width}}  games  win rate    Elo  95% CI"]
    for k, (e, name) in enumerate(zip(table.entries, names), 1):
        ci = "" if e.rating.ci95 is None else f"[{e.rating.ci95[0]:+.0f}, {e.rating.ci95[1]:+.0f}]"
        lines.append(f"{k:>2}  {padded(name, width)}  {e.games:>5}  {e.win_rate:>8.3f}  {e.rating.elo:>+5.0f}  {ci}".rstrip())
    lines.append(f"{DESCRIPTION}; win rate: share of its games won, at whichever tables it played (the Elo column "
                 "compares across them)")
    return "\n".join(lines)


def league_json(table: League) -> dict[str, Any]:
    """The table as ``contack ratings --json`` writes it."""
    return {
        "game": table.game, "players": table.players, "games": table.games, "deals": table.deals,
        "files": table.sources, "rating": DESCRIPTION,
        "entries": [{"agent": e.agent, "games": e.games, "win_rate": round(e.win_rate, 4),
                     "elo": round(e.rating.elo, 1),
                     "elo_ci95": None if e.rating.ci95 is None else [round(v, 1) for v in e.rating.ci95]}
                    for e in table.entries],
    }
