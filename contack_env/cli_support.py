"""What every ``contack`` subcommand shares for bad input and interruptions: seeds, output paths, Ctrl-C.

- ``seed_arg``: the ``type`` of a ``--seed`` option (a whole number 0..2**63-1, as numpy's seeds are);
  ``whole_number_arg`` of a count or an index (``1e3`` too, as ``contack train`` reads one), ``whole_arg`` of one
  with a range.
- ``input_file_arg``, ``output_file_arg``: the ``type`` of a file option: ``-`` is the standard input, and no
  output's name.
- ``output_arg``: checks an output path before any work (``contack_env.atomic.check_output``; a JSON output
  replaces only an empty file or one of the commands' own JSON outputs, ``not_json``); ``write_output`` writes it
  at the end, or says why it could not.
- ``interrupted``: the one line a subcommand prints when Ctrl-C stops it, saying what was kept.
- ``printable``, ``screen_width``, ``padded``, ``clipped``: a name in one cell of a printed table, on one line and
  measured in the columns a terminal draws (wide characters two, combining marks none).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import unicodedata
from typing import Callable, Sequence

from contack_env.atomic import OutputPathError, check_named, check_output, write_text, written_in_place
from contack_env.checks import whole_number_text
from contack_env.seeds import MAX_SEED, largest_first_seed


INTERRUPTED = {
    "simulate": ("--out is as it was (the records replace it only once every game is played; a stream such as "
                 "/dev/stdout got each record as its game ended)"),
    "evaluate": "nothing was written (the statistics and records are written once every game is played)",
    "play": "the game is not saved; its seed is in the first line, to play it again with --seed",
    "render": "--out is as it was (a picture is written whole or not at all)",
    "replay": "the records checked so far are listed above",
    "demo": "--out is as it was (the demo's files replace those there only once every game is played)",
    "serve": "the server stopped; its games were held in memory only (download a game's record to keep it)",
}


def output_file_arg(text: str) -> str:
    """An argparse type for an output file: ``-`` is refused rather than written as a file of that name. The
    standard output is where the commands print their tables, so data sent there would come mixed with them:
    ``/dev/stdout`` writes it there, after the table, for a reader that expects both."""
    if text == "-":
        raise argparse.ArgumentTypeError("- would be a file named '-': name a file, or /dev/stdout to write to the "
                                         "standard output after what the command prints there")
    return text


def input_file_arg(text: str) -> str:
    """An argparse type for a file to read: ``-`` is the standard input (``/dev/stdin``)."""
    return "/dev/stdin" if text == "-" else text


def whole_number_arg(text: str) -> int:
    """An argparse type for a count or an index: a whole number as every command line reads one
    (``contack_env.checks.whole_number_text``: ``1000`` or ``1e3``); its range is each command's own check."""
    try:
        return whole_number_text(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a valid whole number") from None


def whole_arg(least: int, most: int) -> Callable[[str], int]:
    """An argparse type: a whole number ``least``..``most`` (a count kept in memory or paid in time needs a most)."""
    def parse(text: str) -> int:
        try:
            value = whole_number_text(text)
        except ValueError:
            value = least - 1
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"a whole number {least:,}..{most:,}; got {text!r}")
        return value
    return parse


_UNSHOWN = ("Cc", "Zl", "Zp", "Cs")
"""What no line of a terminal shows as itself: control characters, line and paragraph separators, lone surrogates."""


def printable(text: str) -> str:
    """``text`` for one cell of a printed table or one line of a message: a name holding a character that would
    break the line or the columns (a newline, a tab, an escape: control characters, line and paragraph
    separators; a lone surrogate, which no terminal can be sent) is shown whole as Python writes it
    (``'bot\\nname'``), quotes included, so that it cannot be taken for another name; any other text is shown as it
    is. Names read from records can hold anything."""
    if any(unicodedata.category(c) in _UNSHOWN for c in text):
        return repr(text)
    return text


def with_controls_escaped(text: str) -> str:
    """``text`` with each character ``printable`` would quote it for written as Python writes it (``\\x1b``):
    for a message that names something read from outside (a file's path) among words of its own."""
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in _UNSHOWN else c for c in text)


def screen_width(text: str) -> int:
    """The columns ``text`` takes on a terminal, as most terminals draw it: two for an East Asian wide or
    full-width character (``表``) and for an emoji, none for a combining mark (the accent of ``e\u0301``, the
    vowel of a decomposed Hangul syllable), a format character (a zero-width joiner), or a skin tone or whatever
    a joiner joins to an emoji, one for any other. Tables are aligned by it, not by the number of characters;
    terminals differ on emoji and on characters newer than this Python's Unicode."""
    width = 0
    last = 0  # the columns of the last character that took any
    joined = False  # after a zero-width joiner that follows a wide character
    previous_drawn_as_emoji = False  # the last such character: a symbol a selector draws as an emoji
    for c in text:
        if c == "\ufe0f":  # emoji presentation: a symbol of one column drawn as an emoji, two
            if last == 1 and previous_drawn_as_emoji:
                width, last = width + 1, 2
            continue
        if c == "\u200d":
            joined = last == 2
            continue
        if _zero_width(c):
            continue
        previous_drawn_as_emoji = unicodedata.category(c) == "So" or c in "0123456789#*"  # keycaps: 1️⃣
        columns = 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
        if joined or (columns == 2 and last == 2 and "\U0001f3fb" <= c <= "\U0001f3ff"):
            joined, last = False, 2  # a person joined to a family, a profession's sign, a skin tone: one emoji
            continue
        width, last = width + columns, columns
    return width


def _zero_width(c: str) -> bool:
    if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me"):
        return True
    if unicodedata.category(c) == "Cf":
        return c != "\u00ad"  # a soft hyphen is drawn
    return "\u1160" <= c <= "\u11ff" or "\ud7b0" <= c <= "\ud7ff"  # Hangul vowels and finals joined to a syllable


def padded(text: str, width: int) -> str:
    """``text`` followed by the spaces that make it ``width`` columns wide on a terminal (``screen_width``); never
    cut."""
    return text + " " * max(0, width - screen_width(text))


def clipped(text: str, width: int) -> str:
    """``text`` if it fits ``width`` columns on a terminal, else as much of its start as fits ``width - 3`` of
    them followed by ``...`` (``...`` alone when not even that fits)."""
    if screen_width(text) <= width:
        return text
    lo, hi = 0, len(text)  # the longest start within width - 3 columns (a start is never wider than a longer one)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if screen_width(text[:mid]) <= width - 3 else (lo, mid - 1)
    return text[:lo].rstrip("\u200d") + "..."  # no joiner left hanging before the dots


def seed_arg(text: str) -> int:
    """``--seed``: a whole number 0..2**63-1 (argparse shows the message with the option's name)."""
    try:
        value = whole_number_text(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number 0..{MAX_SEED}; got {text!r}") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is a whole number 0..{MAX_SEED}; got {value}")
    return value


def check_seed_range(parser: argparse.ArgumentParser, option: str, seed: int | None, count: int,
                     what: str = "games") -> None:
    """A usage error unless ``count`` games (or deals, ``what``) may start from ``seed`` (None: not given)."""
    if seed is not None and seed > largest_first_seed(count):
        fewer = f"at most {MAX_SEED - seed + 1} {what} from {option} {seed}"
        if largest_first_seed(count) < 0:  # more than there are seeds: no first seed would do
            parser.error(f"{count} {what} would play from more seeds than there are (0..{MAX_SEED}); play {fewer}")
        parser.error(f"{option} {seed} with {count} {what} would play from seeds up to {seed + count - 1}, past the "
                     f"largest, {MAX_SEED}; give at most {largest_first_seed(count)}, or play {fewer}")


def output_arg(parser: argparse.ArgumentParser, option: str, path: str | None,
               suffixes: tuple[str, ...] = (), json: bool = False) -> None:
    """Check the output path of ``option`` (None: not given) before any work; a bad one is a usage error.
    ``json``: the option writes JSON (or JSON lines), and replaces only an empty file or one of the commands' JSON
    outputs (``not_json``), so that a slip of the name (``--records models/contack_2p_az.npz``, ``--out
    analysis.ipynb``) cannot lose a model, a script, a notebook or a picture; a summary's ``--json`` also names
    ``(".json",)`` as its ``suffixes``, so that it cannot replace a file of records."""
    if path is None:
        return
    try:
        check_output(path, suffixes)
        if json:
            check_named(path, (".json", ".jsonl"))
    except OutputPathError as err:
        parser.error(f"{option}: {err}")
    why = not_json(path) if json else None
    if why is not None:
        parser.error(f"{option}: {path} is there and {why}; {option} writes JSON and replaces only an empty file "
                     "or one of the commands' JSON outputs, such as its own earlier output: name another file, or "
                     "move that one away first")


JSON_SNIFF_BYTES = 4096
"""How much of an existing file ``not_json`` reads: enough to tell JSON text from anything else."""
OWN_JSON_START = r'\{\s*("game"\s*:|"format"\s*:\s*"[^"]*-record/|\}|$)'
"""How every JSON output and JSON-lines record of the commands begins: the key ``"game"``, or a record format
(``"format": "NAME-record/N"``; not a run's marker, ``contack-run/1``, nor a model's meta). ``{}`` and a lone ``{``
pass too: nothing to lose, or nothing to tell within ``JSON_SNIFF_BYTES``."""


def not_json(path: str) -> str | None:
    """Why the file at ``path`` is not one that a JSON output may replace, or None: no file is there (or a device,
    a pipe: written in place), it is empty or white space, or it begins as the commands' JSON outputs and
    JSON-lines records do (``OWN_JSON_START``). A JSON object of another program (a notebook, a package manifest)
    or a training run's marker begins otherwise and is kept. (Not ``[``, which begins TOML and INI files too.)
    Only the beginning is read: a file of another program that begins as theirs do would be replaced."""
    if written_in_place(path) or not os.path.isfile(path):
        return None  # (standard output sent to a file: what the command printed is there, and stays)
    try:
        with open(path, "rb") as f:
            head = f.read(JSON_SNIFF_BYTES)
    except OSError as err:
        return f"cannot be read to tell whether it is JSON ({err.strerror or err})"
    if head.startswith(b"PK\x03\x04"):
        return "is a zip archive, as a model file (.npz) is"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "is UTF-16 text, not UTF-8"
    if b"\x00" in head:
        return "holds binary data, not text"
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as err:
        # a character cut in two by the read's end is not a fault of the file; any other undecodable byte is
        if not (len(head) == JSON_SNIFF_BYTES and err.reason == "unexpected end of data"):
            return "is not UTF-8 text"
        text = head[:err.start].decode("utf-8")
    start = text.lstrip("\ufeff \t\r\n")
    if not start or re.match(OWN_JSON_START, start):
        return None
    if re.match(r"\{\s*\"", start):
        return (f"is a JSON object that is no JSON output of a command (theirs begin with the key \"game\" or a "
                f"record's \"format\"; it begins {start[:20]!r})")
    return f"is text that does not begin as a JSON object does (it begins {start[:20]!r})"


class StandardOutputError(OSError):
    """A write to standard output failed (other than its reader going away, which is ``BrokenPipeError``):
    raised by the guard ``contack_env.cli.main`` puts on ``sys.stdout`` while a command runs. A command's own
    ``except OSError`` for its files lets it through (``OUTPUT_ERRORS``), so that it is never reported as a
    file's."""


OUTPUT_ERRORS = (BrokenPipeError, StandardOutputError)
"""What a command's ``except OSError`` around its writes re-raises: the output's own failures, which
``contack_env.cli.main`` reports (a reader gone away: quietly)."""


def write_output(command: str, path: str, text: str) -> bool:
    """Write ``text`` to ``path`` atomically and say ``wrote PATH``; False after saying on standard error why it
    could not be written (``contack COMMAND: cannot write PATH: ...``: a full disk, a permission). A reader of
    ``/dev/stdout`` gone away is not caught here: ``contack_env.cli.main`` ends quietly."""
    try:
        write_text(path, text)
    except OUTPUT_ERRORS:
        raise
    except OSError as err:
        print(f"contack {command}: cannot write {path}: {err}", file=sys.stderr)
        return False
    print(f"wrote {path}")
    return True


def file_identity(path: str) -> object:
    """What is the same for two names of one file (a link, a hard link, another spelling of the path)."""
    try:
        st = os.stat(path)
    except OSError:
        return os.path.realpath(path)  # reading it will say what is wrong
    return (st.st_dev, st.st_ino)


def not_an_input(parser: argparse.ArgumentParser, option: str, path: str | None, inputs: Sequence[str]) -> None:
    """A usage error when the output ``path`` of ``option`` is one of the files the command reads, by any name:
    writing it would replace that input."""
    if path is None or not os.path.exists(path):
        return
    for given in inputs:
        if os.path.exists(given) and file_identity(given) == file_identity(path):
            same = "" if given == path else f" (as {given})"
            parser.error(f"{option} {path} is a file this command reads{same}: writing it would replace it; "
                         "name another file")


def quiet_exit_after_interrupt() -> None:
    """Ctrl-C can land inside a constructor (a ``ZipFile`` being opened for a checkpoint), leaving an object whose
    ``__del__`` fails as it is collected on the way out, which Python reports as an "Exception ignored" traceback
    after the one line the command printed. The process is ending: from here on such reports are dropped."""
    sys.unraisablehook = lambda unraisable: None


def interrupted(command: str) -> int:
    """Say that Ctrl-C stopped ``command`` and what was kept; the exit status for it (130, as shells use)."""
    quiet_exit_after_interrupt()
    kept = INTERRUPTED.get(command, "nothing more was written")
    print(f"\ncontack {command}: interrupted; {kept}", file=sys.stderr)
    return 130
