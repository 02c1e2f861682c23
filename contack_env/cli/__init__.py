"""The ``contack`` command line: the top layer (it may import every package; nothing imports it). One module
per subcommand, each with ``add_parser(sub)`` and ``run(parser, args)`` (``parser``: the subcommand's own, so a
usage error found while the command runs shows that command's usage); ``terminal`` and ``terminal_screen`` are
the terminal interface ``contack play`` draws.

    contack simulate --game {contack,solitaire1,solitaire2,contactix} [--players N] [--agents random,greedy,...]
                     --games K --seed S [--agent-seed A] [--trace] [--hands N] [--enclosed-end {1939,next_player,never}]
                     --out FILE.jsonl
    contack replay --check [--through-env] FILE...
    contack evaluate [--players N] --agents A,B,... --games K --seed S [--agent-seed A] [--workers W] [--ray]
                     [--json FILE] [--records FILE] [--game {contack,solitaire1,solitaire2,contactix}] [--hands N]
                     [--enclosed-end ...]
    contack ratings FILE... [--json OUT]
    contack render FILE [--index I] --out OUT.gif|OUT.png [--every N] [--fps F]
    contack demo [--games K] [--seed S] [--workers W] [--models DIR] [--out DIR]
    contack train [--algorithm {ppo,az}] [--backend {sb3,rllib}] [--config FILE] [--out DIR] [--resume]
                  [--FIELD VALUE ...]
    contack play [--players N] [--agents ...] [--seat S] [--seed S] [--hands N] [--enclosed-end ...]
    contack evaluate --game contactix --agents A,B --games K --seed S [--board-size N] [--swap] [...]
    contack simulate --game contactix --agents BLACK,WHITE --games K --seed S [--board-size N] [--swap] --out FILE.jsonl
    contack play --game contactix [--board-size N] [--swap] [--agents BOT] [--seat 0|1] [--seed S]
    contack serve [--host 127.0.0.1] [--port 8000] [--models DIR]
    contack solve --game {solitaire1,solitaire2} --games K --seed S [--time-limit SECONDS] [--json FILE]
"""

from __future__ import annotations

import signal
import sys
import threading

LOADING_INTERRUPTED = "contack: interrupted while starting; nothing was done"
"""The one line for Ctrl-C (or SIGTERM) before a command has begun: its modules still loading, its options read."""


def _interrupted_while_starting() -> int:
    """Say ``LOADING_INTERRUPTED``; the exit status for it (130, as for Ctrl-C in a command)."""
    print(f"\n{LOADING_INTERRUPTED}", file=sys.stderr)
    return 130


def _stop_while_loading(signum: int, frame: object) -> None:
    # SystemExit, not KeyboardInterrupt: it leaves the import and the console script quietly, with no traceback
    raise SystemExit(_interrupted_while_starting())


# The subcommands' modules take most of a command's second of start-up: Ctrl-C then gets the one line too. Only
# where Ctrl-C has Python's default action (not ignored, as in a background job; not another program's handler)
# and only while this module loads: a program that imports it keeps Ctrl-C as it was. (The package's own
# ``contack_env/__init__``, numpy and the RL libraries, about a third of a second, loads before any of this.)
_LOADING = (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
if _LOADING:
    signal.signal(signal.SIGINT, _stop_while_loading)
try:
    import argparse
    import os
    import select
    from contextlib import contextmanager
    from types import ModuleType
    from typing import Any, Iterator, Sequence

    from contack_env.cli_support import StandardOutputError, interrupted
    from contack_env.cli import demo, evaluate, play, ratings, render, replay, serve, simulate, solve, train
finally:
    if _LOADING:
        signal.signal(signal.SIGINT, signal.default_int_handler)

COMMANDS: dict[str, ModuleType] = {
    "simulate": simulate,
    "replay": replay,
    "evaluate": evaluate,
    "ratings": ratings,
    "play": play,
    "train": train,
    "demo": demo,
    "render": render,
    "serve": serve,
    "solve": solve,
}
"""Every subcommand and the module that implements it, in the order ``contack --help`` lists them."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse's own usage line on an error, then what is allowed (exit status 2)."""

    def error(self, message: str) -> None:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """``contack``'s parser and each subcommand's, by name."""
    parser = ArgumentParser(prog="contack", description="Contack (Parker Brothers, 1939): rules engine and tools.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)
    for module in COMMANDS.values():
        module.add_parser(sub)
    return parser, dict(sub.choices)


def build_parser() -> argparse.ArgumentParser:
    return build_parsers()[0]


BROKEN_PIPE = 128 + 13
"""The exit status when the reader of the output went away: a shell's for a command ended by SIGPIPE."""


def main(argv: Sequence[str] | None = None) -> int:
    try:
        with _guarded_stdout():
            try:
                code = _run(argv)
            finally:  # a SystemExit too (--help): what it printed must reach the output, or be reported
                if sys.stdout is not None:  # None when standard output was closed at start
                    sys.stdout.flush()  # here, where a reader gone away is caught, not at the interpreter's exit
        return code
    except BrokenPipeError:  # the output's reader is gone (`contack replay --check F | head -1`): stop, quietly
        if not _reader_gone():
            raise  # another pipe (a worker's): not the quiet case
        _stdout_to_nowhere()
        return BROKEN_PIPE
    except StandardOutputError as err:
        # A printed line that could not be written (`> file` on a full disk, /dev/full, a device that fails): the
        # commands report a failed write of a file of theirs themselves, naming it; this is the output's.
        given = list(sys.argv[1:] if argv is None else argv)
        command = " ".join(["contack", *[word for word in given if word in COMMANDS][:1]])
        print(f"{command}: cannot write the standard output: {err.strerror}", file=sys.stderr)
        _stdout_to_nowhere()
        return 1


class _GuardedOutput:
    """Standard output as the commands see it while they run: a failed write or flush says it was the output's,
    so that ``main`` reports it in one line, whatever its error, and no other error is taken for it."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._failed: StandardOutputError | None = None

    def write(self, text: str) -> int:
        return self._guard(self._stream.write, text)

    def writelines(self, lines: Any) -> None:
        self._guard(self._stream.writelines, lines)

    def flush(self) -> None:
        self._guard(self._stream.flush)
        if self._failed is not None:  # a failed write that its caller swallowed (argparse's --help does)
            raise self._failed

    def _guard(self, call: Any, *args: Any) -> Any:
        try:
            return call(*args)
        except BrokenPipeError:
            raise  # the reader went away: main's quiet case
        except OSError as err:
            self._failed = StandardOutputError(err.errno, err.strerror or str(err))
            raise self._failed from err

    def __getattr__(self, name: str) -> Any:  # fileno, isatty, encoding, buffer...: the stream's own
        if name == "_stream":  # not set yet (a copy being made): no endless lookup through itself
            raise AttributeError(name)
        return getattr(self._stream, name)


@contextmanager
def _guarded_stdout() -> Iterator[None]:
    original = sys.stdout
    if original is not None:  # None when standard output was closed at start
        sys.stdout = _GuardedOutput(original)
    try:
        yield
    finally:
        if original is not None:
            sys.stdout = original


def _stdout_to_nowhere() -> None:
    """Python flushes stdout once more on the way out and would report the same error: send that to nowhere."""
    try:
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # no descriptor (a captured stream): nothing is flushed to it
        pass


def _reader_gone() -> bool:
    """Whether standard output is a pipe whose reader has closed it (poll reports an error on its write end)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # no stdout, or not a file descriptor (captured)
        return False


def _run(argv: Sequence[str] | None) -> int:
    previous = _terminate_as_interrupt()  # from here on SIGTERM is Ctrl-C, the options being read included
    try:
        try:
            parser, commands = build_parsers()
            args, unknown = parser.parse_known_args(argv)
            if unknown:  # said by the command's parser, with its usage line, not by the top-level one
                commands[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
        except KeyboardInterrupt:  # before the command began: nothing to keep
            return _interrupted_while_starting()
        try:
            # The subcommand's own parser: a usage error found while running shows that command's usage line.
            return COMMANDS[args.command].run(commands[args.command], args)
        except KeyboardInterrupt:  # one line saying what was kept, not a traceback (train says how to resume)
            return interrupted(args.command)
        except MemoryError as err:  # an input too large to hold, say: a line, not a traceback; outputs are whole
            said = f" ({err})" if str(err) else ""
            print(f"contack {args.command}: ran out of memory{said}; each file written is whole or was not written",
                  file=sys.stderr)
            return 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _terminate_as_interrupt() -> Any:
    """Make SIGTERM (``kill``, ``timeout``, a service manager stopping the command) end the command as Ctrl-C
    does: its workers ended, no half-written temporary file left behind, one line saying what was kept. Python's
    default for SIGTERM ends the process at once, leaving them. Returns the handler to restore (None: not the main
    thread, where no handler can be set)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_interrupt)


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
