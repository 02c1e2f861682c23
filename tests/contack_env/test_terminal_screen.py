"""``contack play``'s screen: 80 x 24 for any table, the board following the last play, the legal moves once,
colour only as colour, who went out, a help screen."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from contack_env.cli.terminal import play_terminal
from contack_env.cli.terminal_screen import HEIGHT, HELP_SCREEN, WIDTH, board_view, decision_screen, use_colour, visible_len
from contack_env import new_game
from contack_env.contack.tiles import TILE_NAMES
from contack_env.contack.grid import cell_xy

ESC = re.compile(r"\x1b\[[0-9;]*m")


def positions(players: int, seed: int):
    """Every decision of a seeded random game, as (state, names)."""
    state = new_game(players, num_hands=3, seed=seed)
    rng = np.random.default_rng(seed)
    names = [f"seat {s} (ppo:contack_{players}p)" if s else "seat 0 (you)" for s in range(players)]
    while not state.done:
        yield state, names
        legal = state.legal_moves()
        state.play(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("players", [2, 3, 5, 7])
@pytest.mark.parametrize("colour", [False, True])
def test_every_decision_screen_fits_80_by_24_and_lists_each_move_once(players, colour):
    news = [f"seat {k} (greedy) plays 09-02-08 at (-10, -12) for 15 points" for k in range(9)]
    for k, (state, names) in enumerate(positions(players, seed=players)):
        if k % 3:
            continue
        legal = state.legal_moves()
        lines = decision_screen(state, legal, names, news, colour)
        start = next(i for i, line in enumerate(lines) if f"Contack, {players} players" in line)
        screen = lines[start:]
        assert len(screen) <= HEIGHT - 1  # with the prompt, 24 lines
        # the board, at least one row of it: the screen had none when the moves and the news filled it
        assert ESC.sub("", screen[1]).startswith("x = "), screen
        if state.forced_tile is not None:  # named first: the end of a long status line is cut
            assert screen[0].startswith(f"Place the drawn {TILE_NAMES[state.forced_tile]}. Contack")
        assert all(visible_len(line) <= WIDTH for line in lines)
        text = ESC.sub("", "\n".join(screen))
        numbers = [int(n) for n in re.findall(r"(\d+):\(", text)]
        if "moves in all" not in text:
            assert numbers == list(range(1, len(legal) + 1))
        assert news[-1] in text and lines[:start] == news[:start]  # older news goes above the screen, once
        for seat in range(players):
            assert names[seat][:20] in text


def test_colour_changes_only_the_colour():
    state, names = next(p for k, p in enumerate(positions(4, seed=1)) if k == 20)
    plain = decision_screen(state, state.legal_moves(), names, ["news"], colour=False)
    painted = decision_screen(state, state.legal_moves(), names, ["news"], colour=True)
    assert any("\x1b[" in line for line in painted)
    assert [ESC.sub("", line) for line in painted] == plain
    assert not use_colour(io.StringIO())


def test_the_board_window_follows_the_last_play():
    for state, _ in positions(2, seed=11):
        if len(state.figure) >= 16:
            break
    last_x, last_y = cell_xy(state.figure.last)
    whole = board_view(state, 200)
    small = board_view(state, 10)
    assert 0 < len(small) <= 10 and len(small) < len(whole)
    assert any("*" in line for line in small)  # the last-played tile is in view
    rows = {int(m.group(1)) for line in small for m in [re.match(r"\s*(-?\d+) ", line)] if m and not line.startswith("x")}
    columns = [int(v) for v in small[0].split()[2:]]
    assert last_y in rows and last_x in columns


def test_who_went_out_is_named_and_the_help_screen_explains_the_tiles():
    out = io.StringIO()
    play_terminal(players=2, agents=["greedy"], seat=0, seed=2, hands=3, input=io.StringIO("?\n" + "1\n" * 300), output=out)
    text = out.getvalue()
    assert HELP_SCREEN in text
    assert len(HELP_SCREEN.splitlines()) < HEIGHT and all(len(line) <= WIDTH for line in HELP_SCREEN.splitlines())
    lines = text.replace("): ", "):\n").splitlines()
    outs = [k for k, line in enumerate(lines) if "went out" in line]
    assert outs, "no hand of this game ended by going out"
    for k in outs:
        who = re.search(r"The hand ends: (seat \d \([^)]*\)) went out", lines[k]).group(1)
        placer = next(line for line in reversed(lines[:k]) if " places " in line)
        assert placer.startswith(who)


def test_the_game_end_fits_too():
    out = io.StringIO()
    play_terminal(players=7, agents=["random"], seat=3, seed=5, hands=1, input=io.StringIO("1\n" * 300), output=out)
    tail = out.getvalue().splitlines()[-HEIGHT:]
    assert any(line.startswith("Game over") for line in tail) and tail[-1].startswith("Final scores")
    assert all(len(line) <= WIDTH for line in tail[:-1])


@pytest.mark.parametrize("size", [3, 5, 9, 10, 11, 14, 19])
def test_contactix_screens_fit_80_by_24_on_every_board(size):
    from contack_env.cli.terminal_screen import contactix_screen
    from contack_env.contactix.rules import ContactixState

    state = ContactixState(size)
    rng = np.random.default_rng(size)
    names = ["black (you)", "white (ppo:contactix_5x5)"]
    while True:
        lines = contactix_screen(state, names)
        assert len(lines) <= HEIGHT - 1 and all(len(line) <= WIDTH for line in lines)
        pegs = re.findall(r"(?<![A-Za-z])[xXoO](?![A-Za-z])", "\n".join(lines[1:-1]))
        assert sum(p in "xX" for p in pegs) == len(state.pegs(0)) and sum(p in "oO" for p in pegs) == len(state.pegs(1))
        if state.done:
            break
        legal = state.legal_moves()
        state.play(legal[int(rng.integers(len(legal)))])
    if size > 10:  # up to 10 x 10 the diamond fits
        # The rhombus: hole (r, c) on the line of row r, at column 4 + 2c + r, so neighbours touch.
        rows = lines[-1 - size : -1]  # under the column numbers, above the key
        assert [int(line.split()[0]) for line in rows] == list(range(size))
        for r, line in enumerate(rows):
            for c in range(size):
                ch = line[4 + 2 * c + r].lower()
                assert ch == ".xo"[state.board[r * size + c]]
