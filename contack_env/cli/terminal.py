"""``contack play``: a person plays Contack against bots at the terminal.

At each of the person's decisions a screen of at most 80 x 24 characters is drawn (``terminal_screen``): the
part of the figure around the last play, every seat's agent, score and hand (never the pile's order), the latest
events, and the legal moves, numbered once, with the points each scores; in colour on a terminal that shows it.
The person answers with a number, or with a move written out as ``TILE X Y`` (``09-02-08 0 -1``; commas and
brackets are ignored, so ``09-02-08 (0, -1)`` works too). Anything else gets a short explanation and the question
again. ``b`` draws the whole table, ``?`` shows a help screen (the tile names, the rules in short), ``q`` (or the
end of the input) stops. What the bots do, and what the rules force (draws, passes, the end of a hand and who
went out), is told as it happens.

``play_contactix_terminal`` does the same for CON-TAC-TIX (``contack play --game contactix``): the board is drawn
as the text diamond of ``contack_env.render.contactix`` (a rhombus on boards too large for 80 x 24), and a move
is a hole ``R C`` (or ``swap``).

Everything goes through the ``input`` and ``output`` streams, so a script can play a whole game.
"""

from __future__ import annotations

import io
import sys
from typing import Any, Sequence, TextIO

import numpy as np

from contack_env.games import RuleOptions
from contack_env.contactix.rules import COLOUR_NAMES, DEFAULT_SIZE, EMPTY, ContactixState
from contack_env.contack.figure import Move
from contack_env.contack.grid import cell_index
from contack_env.contack.multiplayer import DEFAULT_ENCLOSED_END, DEFAULT_NUM_HANDS, ContackGame, new_game
from contack_env.render.events import event_text
from contack_env.render.image import agent_label
from contack_env.render.text import render_text
from contack_env.contack.tiles import TILE_NAMES, tile_id
from contack_env.wording import plural

from agents.arena import seed_streams
from agents.registry import check_agent_options, make_agent
from agents.view import public_view
from contack_env.cli.terminal_screen import HELP_SCREEN, contactix_screen, decision_screen, final_screen, use_colour

HELP = (
    "Answer with the number of a move from the list, or write a move as TILE X Y\n"
    "(e.g. 09-02-08 0 -1).\n"
    "b: the whole table   ?: help (tile names, the rules in short)   q: quit"
)
QUIT_WORDS = {"q", "quit", "exit"}


class Quit(Exception):
    """The person stopped the game (``q`` or the end of the input)."""


class BotFailed(Exception):
    """A bot's code failed, or it chose a move the rules refuse (an agent of a user's own): ``contack play`` says
    which in one line."""


def bot_turn(bot: Any, view: Any, state: Any, name: str) -> Any:
    """Play ``bot``'s choice, made from ``view``, in ``state``, and return it; ``BotFailed`` naming the bot
    (``name``) when its code fails or the rules refuse its move (the engine's refusal would name no one)."""
    try:
        move = bot.act(view, state.legal_moves())
    except Exception as err:
        raise BotFailed(f"{name}'s bot failed: {type(err).__name__}: {err}") from err
    try:
        state.play(move)
    except ValueError as err:
        raise BotFailed(f"{name}'s bot chose a move the game refuses ({repr(move)[:200]}): {err}") from None
    return move


def parse_move(text: str, legal: Sequence[Move]) -> Move:
    """The legal move that ``text`` names: a number from the list (1-based) or ``TILE X Y``.

    Raises ``ValueError`` with what was wrong and what is allowed.
    """
    words = text.replace(",", " ").replace("(", " ").replace(")", " ").split()
    if not words:
        raise ValueError(f"type a move: a number 1..{len(legal)}, or TILE X Y")
    if len(words) == 1:
        try:
            k = int(words[0])
        except ValueError:
            raise ValueError(
                f"{text.strip()!r} is not a move: type a number 1..{len(legal)}, or TILE X Y (e.g. "
                f"{TILE_NAMES[legal[0].tile]} {legal[0].x} {legal[0].y}); ? for help"
            ) from None
        if not 1 <= k <= len(legal):
            raise ValueError(f"there is no move {k}: the moves are numbered 1..{len(legal)}")
        return legal[k - 1]
    if len(words) != 3:
        raise ValueError(f"a move is TILE X Y, three parts (e.g. 09-02-08 0 -1); got {len(words)}: {text.strip()!r}")
    tile = tile_id(words[0])  # its ValueError says what a tile name is
    try:
        x, y = int(words[1]), int(words[2])
    except ValueError:
        raise ValueError(f"the cell is two whole numbers X Y; got {words[1]!r} {words[2]!r}") from None
    move = Move(tile, x, y)
    if move not in legal:
        mine = [m for m in legal if m.tile == tile]
        if mine:
            where = ", ".join(f"({m.x}, {m.y})" for m in mine)
            raise ValueError(f"{TILE_NAMES[tile]} cannot go on ({x}, {y}); it can go on {where}")
        raise ValueError(f"{TILE_NAMES[tile]} has no legal placement now; choose a move from the list")
    return move


def _moves_list(state: ContackGame, legal: Sequence[Move]) -> str:
    lines = []
    for k, m in enumerate(legal, 1):
        points = state.figure.points_for(m.tile, cell_index(m.x, m.y))
        lines.append(f"  {k:>2}) {TILE_NAMES[m.tile]} at ({m.x}, {m.y})  {points:>2} points")
    return "\n".join(lines)


class _Narrator:
    """Puts into words the events the game logged since the last call (``catch_up``)."""

    def __init__(self, names: Sequence[str], out: TextIO) -> None:
        self.names = names
        self.out = out
        self.hand = 0
        self.index = 0
        self.placer: int | None = None  # the seat of the latest placement: who went out, when a hand ends so
        self.told: list[str] = []  # what was told since the person's last decision (``news``)

    def news(self) -> list[str]:
        """The events since the last call, in words, for the caller to print."""
        told, self.told = self.told, []
        return told

    def flush(self) -> None:
        """Print the events not yet printed."""
        for text in self.news():
            print(text, file=self.out)

    def catch_up(self, state: ContackGame) -> None:
        while self.hand < len(state.hand_events):
            events = state.hand_events[self.hand]
            while self.index < len(events):
                if self.index == 0:
                    self.told.append(f"-- hand {self.hand + 1} of {state.num_hands} --")
                event = events[self.index]
                if event["type"] == "place":
                    self.placer = event["seat"]
                self.told.append(event_text(event, self.names, self.placer))
                self.index += 1
            if self.hand + 1 < len(state.hand_events):
                self.hand += 1
                self.index = 0
            else:
                break


def play_terminal(
    players: int = 2,
    agents: Sequence[str] = ("lookahead",),
    seat: int = 0,
    seed: int | None = None,
    hands: int = DEFAULT_NUM_HANDS,
    enclosed_end: str = DEFAULT_ENCLOSED_END,
    input: TextIO | None = None,
    output: TextIO | None = None,
) -> int:
    """Play one game: the person at ``seat``, bots (``agents``: one spec for every bot, or one per bot seat in
    seat order) elsewhere. Returns 0 when the game was played out or the person quit."""
    inp = _standard_input() if input is None else input
    out = sys.stdout if output is None else output
    bot_seats = [s for s in range(players) if s != seat]
    specs = list(agents) * len(bot_seats) if len(agents) == 1 else list(agents)
    if len(specs) != len(bot_seats):
        raise ValueError(f"{players} players need one bot spec for all {len(bot_seats)} bots, or one each; got {len(agents)}")
    if not 0 <= seat < players:
        raise ValueError(f"--seat is 0..{players - 1}; got {seat}")
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    streams = seed_streams(seed, players + 1)
    bots = {s: make_agent(spec, streams[s + 1]) for s, spec in zip(bot_seats, specs)}
    for bot in bots.values():
        bot.reset()  # the Agent contract: before each new game
    names = [f"seat {s} ({agent_label(specs[bot_seats.index(s)])})" if s != seat else f"seat {s} (you)" for s in range(players)]
    state = new_game(players, hands, enclosed_end, seed=np.random.default_rng(streams[0]))
    narrator = _Narrator(names, out)
    colour = use_colour(out)
    print(f"Contack, {players} players, {plural(hands, 'hand')}; you are seat {seat}. Game seed {seed}.", file=out)
    print(HELP, file=out)
    try:
        while not state.done:
            narrator.catch_up(state)
            legal = state.legal_moves()
            if state.current_player == seat:
                state.play(_ask(state, legal, inp, out, names, narrator.news(), colour))
            else:
                bot_turn(bots[state.current_player], public_view(state), state, names[state.current_player])
    except Quit:
        print("Game stopped.", file=out)
        return 0
    narrator.catch_up(state)
    narrator.flush()
    print("\n".join(final_screen(state, names, colour)), file=out)
    won = ", ".join(names[s] for s in state.winners)
    verdict = "You win!" if seat in state.winners and len(state.winners) == 1 else (
        "You share the win." if seat in state.winners else "You lose."
    )
    print(f"Final scores {state.scores}; won by {won}. {verdict}", file=out)
    return 0


def _standard_input() -> TextIO:
    # A closed standard input (``<&-``) leaves sys.stdin None: read it as an empty one, whose end stops the game
    # at the first question as the end of any input does.
    if sys.stdin is None:
        return io.StringIO("")
    # Bytes the locale's encoding cannot read (Latin-1 typed in a UTF-8 terminal) become U+FFFD, an answer that
    # is no move like any other, not a UnicodeDecodeError out of readline.
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")
    return sys.stdin


def _answer(inp: TextIO, out: TextIO, prompt: str, help_text: str) -> str:
    """The person's next answer to ``prompt``, stripped, for the caller to read as a move or ``b``: ``?`` shows
    ``help_text`` and asks again; ``q`` (or the end of the input) raises ``Quit``. Both games ask this way."""
    while True:
        print(prompt, end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            print("\n(end of input)", file=out)
            raise Quit
        text = line.strip()
        if text.lower() in QUIT_WORDS:
            raise Quit
        if text not in ("?", "h", "help"):
            return text
        print(help_text, file=out)


def _ask(
    state: ContackGame, legal: Sequence[Move], inp: TextIO, out: TextIO, names: Sequence[str], news: Sequence[str], colour: bool
) -> Move:
    print("\n".join(decision_screen(state, legal, names, news, colour)), file=out)
    while True:
        text = _answer(inp, out, f"Your move (1-{len(legal)}, TILE X Y, b, ?, q): ", HELP_SCREEN)
        if text.lower() in ("b", "board"):
            print(render_text(state), file=out)  # the legal cells marked, so the figure is drawn out to them
            print(_moves_list(state, legal), file=out)
            continue
        try:
            return parse_move(text, legal)
        except ValueError as err:
            print(f"Not a move: {err}", file=out)


# -- CON-TAC-TIX (``contack play --game contactix``) ---------------------------------------------------------------
def contactix_help(size: int) -> str:
    """The help of a game on a ``size`` x ``size`` board (its example hole on that board)."""
    return (f"Answer with a hole as R C (row, then column, each 0..{size - 1}: e.g. {size // 2} {(size - 1) // 2}),\n"
            "or 'swap' when you may take over Black's first peg.\n"
            "b: draw the board again   ?: this help   q: quit")


def parse_contactix_move(text: str, state: ContactixState) -> int:
    """The legal move that ``text`` names for the player to move: ``R C`` (commas and brackets ignored) or
    ``swap``. Raises ``ValueError`` with what was wrong and what is allowed."""
    n = state.size
    words = text.replace(",", " ").replace("(", " ").replace(")", " ").split()
    swap_hint = ", or swap" if state.can_swap else ""
    if not words:
        raise ValueError(f"type a hole as R C, two numbers 0..{n - 1}{swap_hint}")
    if len(words) == 1 and words[0].lower() == "swap":
        if not state.can_swap:
            rule = "is off in this game" if not state.swap_rule else "is White's first move only"
            raise ValueError(f"no swap now: the swap {rule}")
        return state.moves[0]
    if len(words) == 1:
        raise ValueError(f"{text.strip()!r} is not a hole: type R C, two whole numbers 0..{n - 1}{swap_hint}; ? for help")
    if len(words) != 2:
        raise ValueError(f"a hole is R C, two numbers (e.g. {n // 2} {n // 2}){swap_hint}; got {text.strip()!r}")
    try:
        r, c = int(words[0]), int(words[1])
    except ValueError:
        raise ValueError(f"{text.strip()!r} is not a hole: type R C, two whole numbers 0..{n - 1}; ? for help") from None
    if not (0 <= r < n and 0 <= c < n):
        raise ValueError(f"hole ({r}, {c}) is off the board: rows and columns are 0..{n - 1}")
    move = r * n + c
    if state.board[move] != EMPTY:
        if state.is_swap(move):
            raise ValueError(f"({r}, {c}) holds Black's first peg: type swap to take it over")
        raise ValueError(f"hole ({r}, {c}) already holds a {COLOUR_NAMES[state.board[move] - 1]} peg")
    return move


def _contactix_move_text(state: ContactixState, move: int) -> str:
    if state.is_swap(move):
        r, c = divmod(move, state.size)
        return f"swaps: Black's peg on ({r}, {c}) becomes a white peg on ({c}, {r})"
    return "plays ({}, {})".format(*divmod(move, state.size))


def play_contactix_terminal(
    board_size: int = DEFAULT_SIZE,
    agent: str = "two_distance",
    seat: int = 0,
    seed: int | None = None,
    swap: bool = False,
    input: TextIO | None = None,
    output: TextIO | None = None,
) -> int:
    """Play one game of CON-TAC-TIX: the person is Black (``seat`` 0, moves first) or White (1), the bot
    ``agent`` the other colour. Returns 0 when the game was played out or the person quit."""
    inp = _standard_input() if input is None else input
    out = sys.stdout if output is None else output
    if seat not in (0, 1):
        raise ValueError(f"--seat is 0 (black, moves first) or 1 (white); got {seat}")
    state = ContactixState(board_size, swap)
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    bot_colour = 1 - seat
    bot = make_agent(agent, seed_streams(seed, 3)[bot_colour + 1], game="contactix")
    # a trained policy is bound to its board: say so before the game starts
    check_agent_options(bot, RuleOptions(board_size=board_size, swap=swap))
    bot.reset()
    you, them = COLOUR_NAMES[seat], COLOUR_NAMES[bot_colour]
    names = [f"{COLOUR_NAMES[c]} ({'you' if c == seat else agent_label(agent)})" for c in (0, 1)]
    n = state.size
    print(
        f"CON-TAC-TIX {n}x{n}, swap rule {'on' if swap else 'off'}. Game seed {seed}.\n"
        f"You are {you} ({'x' if seat == 0 else 'o'}), {agent} is {them}.",
        file=out,
    )
    print(contactix_help(n), file=out)
    try:
        while not state.done:
            if state.current_player == seat:
                move = _ask_contactix(state, inp, out, names)
                state.play(move)
            else:
                before = state.clone()  # the move is told as it was made: from the board before it
                move = bot_turn(bot, state.clone(), state, f"{them} ({agent})")
                print(f"{them} ({agent}) {_contactix_move_text(before, move)}", file=out)
    except Quit:
        print("Game stopped.", file=out)
        return 0
    print("\n".join(contactix_screen(state, names)), file=out)
    verdict = "You win!" if state.winner == seat else "You lose."
    print(f"{COLOUR_NAMES[state.winner].capitalize()} has joined their sides after {len(state.moves)} moves. {verdict}", file=out)
    return 0


def _ask_contactix(state: ContactixState, inp: TextIO, out: TextIO, names: Sequence[str]) -> int:
    print("\n".join(contactix_screen(state, names)), file=out)
    swap_hint = ", swap" if state.can_swap else ""
    while True:
        text = _answer(inp, out, f"Your move (R C{swap_hint}, b, ?, q): ", contactix_help(state.size))
        if text.lower() in ("b", "board"):
            print("\n".join(contactix_screen(state, names)), file=out)
            continue
        try:
            return parse_contactix_move(text, state)
        except ValueError as err:
            print(f"Not a move: {err}", file=out)
