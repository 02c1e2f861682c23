"""Where an agent's Contack games are won and lost: points made, penalties kept, hands ended, from game records.

A win rate says who is ahead; this says where. For every seat of every game, counted on from the seat of one
agent (``+0`` is the agent, ``+1`` the seat that plays after it, and so on round the table), the records give:

- ``win rate``: the share of the games the seat won (a shared win counts 1/k);
- ``margin/hand``: its points and penalties less the mean of the other seats', per hand (``contack evaluate``'s
  margin is the same over a whole game);
- ``points/hand``: the points its placements scored, per hand;
- ``penalties/hand``: the penalties of the tiles it held when the hand ended (10 a tile, ``docs/rules.md``
  section 5), per hand;
- ``out/hand``: the share of the hands it ended by placing its last tile;
- ``draws/hand`` and ``passes/hand``: the tiles it drew from the pile and the turns it passed, per hand.

Seats are counted from the agent, not by seat number, because ``contack evaluate`` plays every deal in all seat
rotations: entry ``e`` of its ``--agents`` always sits ``e`` seats after the first. So::

    contack evaluate --players 4 --agents az:models/contack_4p_az.npz,mcts:200,mcts:200,mcts:200 \\
        --games 800 --seed 1001 --workers 2 --records games.jsonl
    python -m training.az.hand_ends --records games.jsonl --agent az:models/contack_4p_az.npz

shows what the three ``mcts:200`` seats make of sitting one, two and three seats after the az agent. Every record
is replayed and checked (``contack_env.records.replay``) before it is counted.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import Any, Sequence

from contack_env.cli_support import padded, printable, screen_width
from contack_env.records import RecordError, read_records, replay

COLUMNS = ("win rate", "margin/hand", "points/hand", "penalties/hand", "out/hand", "draws/hand", "passes/hand")
SHARES = ("win rate", "out/hand")
"""The columns that are shares (three decimals); the others are counts or points per hand (two)."""


@dataclass
class SeatTotals:
    """One seat's sums over the games, counted from the agent's seat."""

    names: set[str] = field(default_factory=set)
    wins: float = 0.0
    points: int = 0
    penalties: int = 0
    outs: int = 0
    draws: int = 0
    passes: int = 0


@dataclass
class HandEnds:
    """The sums of every seat (``seats[k]``: ``k`` seats after the agent) over ``games`` games of ``hands``
    hands, and how the hands ended (``ends``: reason to count)."""

    games: int
    hands: int
    ends: dict[str, int]
    seats: list[SeatTotals]

    def row(self, k: int) -> tuple[float, ...]:
        """Seat ``k``'s figures, in the order of ``COLUMNS``."""
        s, h = self.seats[k], self.hands
        made = [t.points + t.penalties for t in self.seats]
        margin = made[k] - (sum(made) - made[k]) / (len(made) - 1)
        return (s.wins / self.games, margin / h, s.points / h, s.penalties / h, s.outs / h, s.draws / h,
                s.passes / h)


def count(records: Sequence[dict[str, Any]], agent: str) -> HandEnds:
    """The sums over ``records`` (Contack games, each checked by replaying it), seats counted from the one seat
    where ``agent`` played. ``RecordError`` (naming the game) for a record the engine does not reproduce;
    ``ValueError`` naming the game for one that is not a Contack game of several seats, has another table size
    than the first, names no agents, or does not hold ``agent`` at exactly one seat."""
    if not records:
        raise ValueError("no records to count")
    seats: list[SeatTotals] = []
    ends: dict[str, int] = {}
    hands = 0
    for n, record in enumerate(records, 1):
        where = f"game {n}"
        try:
            replay(record)  # checks the record's every key and event first: what follows reads a sound record
        except RecordError as err:
            raise RecordError(str(err), where) from None
        if record.get("game") != "contack" or record["players"] < 2:
            kind = record.get("game", "CON-TAC-TIX")  # a record of the other format (contactix-record/1) has none
            raise ValueError(f"{where} is a {kind} record; hand_ends counts Contack games of 2 to 7 seats")
        if not seats:
            seats = [SeatTotals() for _ in range(record["players"])]
        elif record["players"] != len(seats):
            raise ValueError(f"{where} has {record['players']} seats where game 1 has {len(seats)}: the games "
                             "counted together must have one table size")
        names = record.get("agents")
        if names is None:
            raise ValueError(f"{where} does not name its agents (\"agents\": null); `contack evaluate --records` "
                             "and `contack simulate` write records that do")
        at = [seat for seat, name in enumerate(names) if name == agent]
        if len(at) != 1:
            raise ValueError(f"{where}: {agent!r} must play exactly one seat; its agents are {names!r}")
        n_seats = len(seats)

        def rel(seat: int) -> int:
            return (seat - at[0]) % n_seats

        for seat, name in enumerate(names):
            seats[rel(seat)].names.add(name)
        for seat in record["winners"]:
            seats[rel(seat)].wins += 1 / len(record["winners"])
        for hand in record["hands"]:
            hands += 1
            last = None  # the seat of the last placement: the one that went out when the hand ends "out"
            for event in hand["events"]:
                kind = event["type"]
                if kind in ("open", "place"):
                    last = rel(event["seat"])
                    seats[last].points += event["points"]
                elif kind == "draw":
                    seats[rel(event["seat"])].draws += 1
                elif kind == "pass":
                    seats[rel(event["seat"])].passes += 1
                elif kind == "end":
                    ends[event["reason"]] = ends.get(event["reason"], 0) + 1
                    for seat, penalty in enumerate(event["penalties"]):
                        seats[rel(seat)].penalties += penalty
                    if event["reason"] == "out" and last is not None:
                        seats[last].outs += 1
    return HandEnds(len(records), hands, ends, seats)


def format_table(totals: HandEnds, agent: str) -> str:
    """The table ``python -m training.az.hand_ends`` prints: a line of totals, then a row a seat."""
    how = ", ".join(f"{reason} {k}" for reason, k in sorted(totals.ends.items()))
    lines = [f"{totals.games} games, {totals.hands} hands ({how}); seats counted on from {printable(agent)}'s"]
    labels = [f"+{k} {' or '.join(printable(name) for name in sorted(s.names))}" for k, s in enumerate(totals.seats)]
    width = max(screen_width(label) for label in labels + ["seat"])
    lines.append(f"{'seat':<{width}}  " + "  ".join(f"{c:>{len(c)}}" for c in COLUMNS))
    for k, label in enumerate(labels):
        figures = (f"{v:>{len(c)}.{3 if c in SHARES else 2}f}" for c, v in zip(COLUMNS, totals.row(k)))
        lines.append(f"{padded(label, width)}  " + "  ".join(figures))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.az.hand_ends", description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", required=True, metavar="FILE",
                        help="Contack game records, as `contack evaluate --records FILE` writes them")
    parser.add_argument("--agent", required=True, metavar="SPEC",
                        help="the agent whose seat the others are counted from, as the records name it "
                        "(e.g. az:models/contack_4p_az.npz)")
    args = parser.parse_args(argv)
    try:
        records = read_records(args.records)
    except OSError as err:
        print(f"hand_ends: cannot read {args.records}: {err.strerror or err}", file=sys.stderr)
        return 1
    except RecordError as err:  # it names the file and the line
        print(f"hand_ends: {err}", file=sys.stderr)
        return 1
    if not records:
        print(f"hand_ends: {args.records} holds no records", file=sys.stderr)
        return 1
    try:
        totals = count(records, args.agent)
    except ValueError as err:  # RecordError included: it names the game
        print(f"hand_ends: {args.records}, {err}", file=sys.stderr)
        return 1
    print(format_table(totals, args.agent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
