"""The rule options on the command line: one flag per ``contack_env.games.RuleOptions`` field, added and read
alike by every command that plays games (``simulate``, ``evaluate``, ``play``).

- ``add_rule_options(parser)``: ``--hands``, ``--enclosed-end``, ``--board-size`` and ``--swap``.
- ``rule_options(parser, args, game)``: the ``RuleOptions`` they give for ``game``, checked by the game's own
  ``GameSpec.check_options``. A flag of an option the game does not have is a usage error naming the game that
  has it, not silently ignored; a value the rules do not allow is a usage error that names the flag.
"""

from __future__ import annotations

import argparse
from dataclasses import fields
from typing import Any

from contack_env.cli_support import whole_number_arg
from contack_env.contack.multiplayer import DEFAULT_ENCLOSED_END, DEFAULT_NUM_HANDS, ENCLOSED_END_OPTIONS
from contack_env.contactix.rules import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE
from contack_env.games import GAMES, GameSpec, RuleOptions

FLAGS: dict[str, dict[str, Any]] = {
    "hands": {"type": whole_number_arg, "help": f"contack: hands per game (default {DEFAULT_NUM_HANDS})"},
    "enclosed_end": {"choices": ENCLOSED_END_OPTIONS, "help": "contack: when an enclosed figure ends a hand (default "
                     f"{DEFAULT_ENCLOSED_END}; docs/rules.md section 5)"},
    "board_size": {"type": whole_number_arg, "help": f"contactix: the board is N x N holes, {MIN_SIZE}-{MAX_SIZE} (default {DEFAULT_SIZE})"},
    "swap": {"action": "store_const", "const": True, "help": "contactix: play with the swap (pie) rule (off by default, "
             "as in 1942)"},
}
"""How each ``RuleOptions`` field is given (``argparse`` keywords); every option defaults to None, "not given"."""


def flag(name: str) -> str:
    """The flag of rule option ``name``: ``board_size`` -> ``--board-size``."""
    return "--" + name.replace("_", "-")


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """A flag for every rule option (``FLAGS``); read them back with ``rule_options``."""
    for f in fields(RuleOptions):
        parser.add_argument(flag(f.name), dest=f.name, default=None, **FLAGS[f.name])


def rule_options(parser: argparse.ArgumentParser, args: argparse.Namespace, game: GameSpec) -> RuleOptions:
    """The rule options ``add_rule_options``' flags give for ``game``, the others at their defaults, checked; a
    usage error (``parser.error``) for a flag of an option ``game`` does not have, or a value its rules refuse."""
    given = {f.name: getattr(args, f.name) for f in fields(RuleOptions) if getattr(args, f.name, None) is not None}
    foreign = [name for name in given if name not in game.options]
    if foreign:
        owner = next((g for g in GAMES.values() if foreign[0] in g.options), None)
        if owner is None:  # no game has it
            parser.error(f"{flag(foreign[0])} is an option of no game")
        named = [n for n in foreign if n in owner.options]  # those of one game, which the message names
        parser.error(f"{' and '.join(flag(n) for n in named)} {'is an option' if len(named) == 1 else 'are options'} "
                     f"of --game {owner.name}, not of {game.name}")
    for name, value in given.items():  # each alone, so that a refusal names its flag
        try:
            game.check_options(RuleOptions(**{name: value}))
        except ValueError as err:
            parser.error(f"{flag(name)}: {err}")
    return RuleOptions(**given)
