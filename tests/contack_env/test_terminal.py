import io
import os
import subprocess
import sys

import pytest

from contack_env.cli.terminal import parse_move, play_contactix_terminal, play_terminal
from contack_env.contack.figure import Move
from contack_env.contack.tiles import tile_id

LEGAL = [Move(tile_id("09-02-08"), 0, -1), Move(tile_id("09-02-08"), 1, 0), Move(tile_id("04-05-02"), -1, 0)]


def _play(script: str, **kwargs) -> tuple[int, str]:
    out = io.StringIO()
    code = play_terminal(input=io.StringIO(script), output=out, **kwargs)
    return code, out.getvalue()


def test_a_scripted_person_finishes_a_game():
    code, text = _play("1\n" * 200, players=3, agents=["greedy", "random"], seat=1, seed=5, hands=2)
    assert code == 0
    assert "Final scores" in text
    assert "-- hand 2 of 2 --" in text
    assert "seat 0 (greedy)" in text and "seat 2 (random)" in text and "seat 1 (you)" in text
    assert text.count("Your move") >= 2


def test_a_bad_entry_is_answered_and_asked_again():
    code, text = _play("hello\n0\n42 7\nzz-01-01 0 0\n" + "1\n" * 200, seed=3, hands=1)
    assert code == 0
    assert "'hello' is not a move" in text
    assert "there is no move 0" in text
    assert "a move is TILE X Y, three parts" in text
    assert "no tile is called 'zz-01-01'" in text
    assert "Final scores" in text


def test_end_of_input_and_quit_stop_the_game_cleanly():
    for script in ("", "q\n"):
        code, text = _play(script, seed=3)
        assert code == 0
        assert "Game stopped." in text
        assert "Final scores" not in text


def test_the_opening_lines_fit_an_80_column_terminal():
    """What a game says before its first screen (who plays, the seed, the help) is at most 80 columns wide,
    whatever the table or the board."""
    for players in (2, 7):
        _, text = _play("q\n", players=players, agents=["lookahead"] * (players - 1), seed=123456789)
        opening = text.splitlines()[:4]  # who plays and the seed, then the help
        assert opening[-1].startswith("b: the whole table") and all(len(line) <= 80 for line in opening), opening
    for size in (3, 19):
        out = io.StringIO()
        play_contactix_terminal(size, "two_distance", seat=1, seed=123456789, input=io.StringIO("q\n"), output=out)
        opening = out.getvalue().splitlines()[:5]
        assert opening[-1].startswith("b: draw the board") and all(len(line) <= 80 for line in opening), opening


def test_same_seed_same_game():
    assert _play("1\n" * 200, seed=8, hands=1) == _play("1\n" * 200, seed=8, hands=1)


def test_parse_move_takes_a_number_or_a_written_move():
    assert parse_move("2", LEGAL) == LEGAL[1]
    assert parse_move(" 09-02-08 1 0 ", LEGAL) == LEGAL[1]
    assert parse_move("04-05-02 (-1, 0)", LEGAL) == LEGAL[2]


@pytest.mark.parametrize(
    "text,message",
    [
        ("4", "numbered 1..3"),
        ("09-02-08 5 5", r"09-02-08 cannot go on \(5, 5\); it can go on \(0, -1\), \(1, 0\)"),
        ("01-02-03 0 1", "01-02-03 has no legal placement now"),
        ("09-02-08 a b", "two whole numbers"),
        ("", "type a move"),
    ],
)
def test_parse_move_says_what_was_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        parse_move(text, LEGAL)


def test_every_bot_is_reset_before_the_game(monkeypatch):
    # The Agent contract: reset() before each new game (an agent of your own may set itself up there)
    from agents.greedy import GreedyAgent

    resets = []
    monkeypatch.setattr(GreedyAgent, "reset", lambda self: resets.append(self), raising=False)
    code, _ = _play("q\n", players=3, agents=["greedy"], seed=3, hands=1)
    assert code == 0 and len(resets) == 2 and resets[0] is not resets[1]


def test_contactix_refuses_a_policy_of_another_board_before_the_game_starts():
    from contack_env.cli.terminal import play_contactix_terminal

    out = io.StringIO()
    with pytest.raises(ValueError, match="trained with --board-size 5; it cannot play with --board-size 11"):
        play_contactix_terminal(11, "ppo:models/contactix_5x5.npz", input=io.StringIO(""), output=out)
    assert out.getvalue() == ""  # nothing printed: no game was begun


@pytest.mark.parametrize("game", ["contack", "contactix"])
def test_a_closed_standard_input_stops_the_game_as_its_end_does(game):
    # `contack play <&-`: Python starts with sys.stdin None, which the first question used to read from
    done = subprocess.run([sys.executable, "-m", "contack_env.cli", "play", "--game", game, "--seed", "1"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: os.close(0))
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("(end of input)\nGame stopped.") and done.stderr == ""


@pytest.mark.parametrize("game", ["contack", "contactix"])
def test_bytes_the_terminals_encoding_cannot_read_are_answered_as_no_move(game):
    # A UTF-8 locale reads standard input strictly: Latin-1 typed there failed readline with a traceback.
    done = subprocess.run([sys.executable, "-m", "contack_env.cli", "play", "--game", game, "--seed", "1"],
                          input=b"\xe9t\xe9\nq\n", capture_output=True, timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"})
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert "Not a move: '\ufffdt\ufffd' is not a" in out and out.rstrip().endswith("Game stopped.")


def test_the_whole_table_marks_the_legal_cells_it_says_it_marks():
    # It was drawn without them, so a cell beyond the figure was not drawn at all, under a panel that said
    # "marked o" and a legend explaining the o.
    import re

    code, out = _play("b\nq\n", players=7, seed=3)
    chunk = out.split("Your move")[1]  # what b printed
    figure = chunk.split("Cell (x, y)")[0]
    said = re.search(r"Legal moves: (\d+) on (\d+) cells? marked o", chunk)
    assert code == 0 and said is not None
    assert sum(line.count(" o ") + line.endswith(" o") for line in figure.splitlines()) == int(said.group(2))
