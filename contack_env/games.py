"""The registry of games: every game of the suite by name, with what the code above the rules needs of it.

``GAMES["contack"]``, ``GAMES["solitaire1"]``, ``GAMES["solitaire2"]``, ``GAMES["contactix"]`` (or
``get_game(name)``, which names the games that exist when asked for another). A ``GameSpec`` says how many
players the game takes, which rule options it has, how to deal a new state (``contack_env.protocol.State``),
how its records are written and which format they use, how it is shown as text, and its environments.

The generic code (evaluation, `simulate`, `replay`, `render`, the search agents `random`, `mcts` and `az`) reaches
a game only through here, so a new game needs no change there; docs/architecture.md shows how to add one. Code
written for particular games imports their modules directly: their bots (`greedy`, `lookahead`,
`two_distance`, `mcts`'s own rollouts for them), the terminal play screen, and the checks of their rule options.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, fields
from typing import Any, Callable

import numpy as np

from contack_env.checks import is_whole_number
from contack_env.contack.multiplayer import (DEFAULT_ENCLOSED_END, DEFAULT_NUM_HANDS, ENCLOSED_END_OPTIONS, MAX_PLAYERS,
                                             MIN_PLAYERS, check_enclosed_end, check_num_hands, new_game)
from contack_env.contack.solitaire import new_solitaire1, new_solitaire2
from contack_env.contactix.rules import DEFAULT_SIZE, ContactixState, check_size
from contack_env.protocol import State
from contack_env.records import contack as contack_records
from contack_env.records import contactix as contactix_records
from contack_env.render import contactix as contactix_render
from contack_env.render import text as contack_text


@dataclass(frozen=True)
class RuleOptions:
    """The rule options of every game, with their defaults; each game reads the ones it has (``GameSpec.options``)."""

    hands: int = DEFAULT_NUM_HANDS
    """Contack: hands per game (docs/rules.md section 5)."""
    enclosed_end: str = DEFAULT_ENCLOSED_END
    """Contack: when an enclosed figure ends a hand (docs/rules.md section 5): one of ``ENCLOSED_END_OPTIONS``."""
    board_size: int = DEFAULT_SIZE
    """CON-TAC-TIX: the board is N x N holes (docs/rules.md section 9)."""
    swap: bool = False
    """CON-TAC-TIX: the swap (pie) rule."""

    def rules_of(self, game: "GameSpec") -> dict[str, Any]:
        """The options ``game`` takes, by name, as records and reports write them."""
        return {name: getattr(self, name) for name in game.options}


REPORTS = ("scores", "colours", "solitaire")
"""How an evaluation (``agents.evaluate``) plays and reports a game, by kind:

- ``scores``: the entries rotate through the seats of every deal (the duplicate format); the report gives the
  share of games won, the mean final score, the margin over the other seats and a rating (Contack).
- ``colours``: heads-up, the duplicate format over the two colours; a game is won or lost: the win rate, the
  win rate with each colour, a rating and the mean game length (CON-TAC-TIX).
- ``solitaire``: every entry plays the same deals alone: the win rate, how far the games got and the points.
"""

Dealer = Callable[[np.random.Generator, int, RuleOptions, bool, bool], State]
"""Deals a new state: ``(rng, players, options, trace, log)``."""


@dataclass(frozen=True)
class GameSpec:
    """One game of the suite (see the module docstring)."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple[str, ...]
    """The ``RuleOptions`` fields this game takes."""
    deal: Dealer
    record_format: str
    write_record: Callable[..., dict[str, Any]]
    """``write_record(state, seed=..., agents=[...])``: the record of a finished game."""
    text: Callable[[Any], str]
    """The text view of a state (what ``render_mode="ansi"`` shows)."""
    length: Callable[[Any], int]
    """How far a game got: tiles on the table, pegs played (evaluation reports its mean)."""
    environments: tuple[str, ...] = field(default=())
    """Where its environments live, ``"module:attribute"`` (loaded on use: the registry does not import the RL stack)."""
    report: str = "scores"
    """The kind of evaluation report it gets (``REPORTS``)."""
    observer: str = ""
    """``"module:attribute"`` of a factory of its ``StateObserver`` (``contack_env.envs.conventions``): the
    observation its environment gives, from a state alone; what trained policies and the search-guided network
    read; called with the game's ``RuleOptions``. Empty: none."""
    bound_options: tuple[str, ...] = ()
    """The rule options a trained policy or network of this game is bound to: those that shape its observation
    (CON-TAC-TIX's board size) or change what it learned to do (the swap rule). A policy or network file records
    their values, and plays only games with the same values (``agents.policy_file.check_bound_options``)."""
    web: str = ""
    """Its adapter for the browser app, ``"module:attribute"`` (a ``contack_env.app.web_game.WebGame``, loaded on
    use); empty: the app does not offer the game."""

    def new_state(
        self,
        seed: int | np.random.SeedSequence | np.random.Generator | None,
        players: int | None = None,
        options: RuleOptions | None = None,
        *,
        trace: bool = False,
        log: bool = True,
    ) -> State:
        """A fresh game dealt from ``seed`` (``log=False``: no event log, faster, no record)."""
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        return self.deal(rng, self.check_players(players), options or RuleOptions(), trace, log)

    def check_players(self, players: int | None) -> int:
        """``players`` (the default if None), or ``ValueError`` saying how many this game takes."""
        if players is None:
            return self.default_players
        if not is_whole_number(players) or not self.min_players <= players <= self.max_players:
            if self.max_players == 1:
                raise ValueError(f"{self.title} is a solitaire, played by 1 player; got {players!r}")
            if self.min_players == self.max_players:
                raise ValueError(f"{self.title} is played by {self.min_players} players; got {players!r}")
            raise ValueError(f"{self.title} is played by {self.min_players} to {self.max_players} players; got {players!r}")
        return int(players)

    def check_options(self, options: RuleOptions) -> None:
        """``ValueError`` saying what is allowed when ``options`` gives one of this game's rule options a value its
        rules do not allow, or an option it does not have a value other than the default: that value would be
        silently ignored (``--hands`` with a solitaire, ``--board-size`` with Contack)."""
        defaults = RuleOptions()
        foreign = [f.name for f in fields(RuleOptions)
                   if f.name not in self.options and getattr(options, f.name) != getattr(defaults, f.name)]
        if foreign:
            one = len(foreign) == 1
            raise ValueError(f"{' and '.join(foreign)}: not {'an option' if one else 'options'} of game {self.name!r} "
                             f"(its rule options: {', '.join(self.options) or 'none'}); leave {'it' if one else 'them'} "
                             "out")
        if "hands" in self.options:
            check_num_hands(options.hands)
        if "enclosed_end" in self.options:
            check_enclosed_end(options.enclosed_end)
        if "board_size" in self.options:
            check_size(options.board_size)
        if "swap" in self.options and not isinstance(options.swap, bool):
            raise ValueError(f"swap is True or False; got {options.swap!r}")

    def environment(self, index: int = 0) -> Any:
        """The environment module or class ``environments[index]`` names."""
        return load_target(self.environments[index])

    def make_observer(self, options: RuleOptions | None = None) -> Any:
        """A new ``StateObserver`` of this game under ``options`` (None: the defaults); ``ValueError`` if it has
        none."""
        if not self.observer:
            raise ValueError(f"{self.title} has no state observer")
        return load_target(self.observer)(options or RuleOptions())


def load_target(target: str) -> Any:
    """The module ``"module"`` or the attribute ``"module:attribute"`` names, imported now: the registry names a
    game's environments, observer and web adapter this way, so that importing it does not import the RL stack."""
    module, _, attribute = target.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


def _deal_contack(rng: np.random.Generator, players: int, options: RuleOptions, trace: bool, log: bool) -> State:
    return new_game(players, options.hands, options.enclosed_end, seed=rng, trace=trace, log=log)


def _deal_solitaire1(rng: np.random.Generator, players: int, options: RuleOptions, trace: bool, log: bool) -> State:
    return new_solitaire1(seed=rng, trace=trace, log=log)


def _deal_solitaire2(rng: np.random.Generator, players: int, options: RuleOptions, trace: bool, log: bool) -> State:
    return new_solitaire2(seed=rng, trace=trace, log=log)


def _deal_contactix(rng: np.random.Generator, players: int, options: RuleOptions, trace: bool, log: bool) -> State:
    return ContactixState(check_size(options.board_size), options.swap)


def _tiles_placed(state: Any) -> int:
    return len(state.figure)


def _pegs_played(state: Any) -> int:
    return len(state.moves)


GAMES: dict[str, GameSpec] = {
    spec.name: spec
    for spec in (
        GameSpec(
            "contack", "Contack", MIN_PLAYERS, MAX_PLAYERS, 4, ("hands", "enclosed_end"), _deal_contack,
            contack_records.FORMAT, contack_records.game_record, contack_text.render_text, _tiles_placed,
            ("contack_env.envs.contack_v0",), observer="contack_env.envs.observation:ContackObserver",
            web="contack_env.app.web_contack:CONTACK",
        ),
        GameSpec(
            "solitaire1", "Solitaire No. 1", 1, 1, 1, (), _deal_solitaire1,
            contack_records.FORMAT, contack_records.game_record, contack_text.render_text, _tiles_placed,
            ("contack_env.envs.solitaire_v0:Solitaire1Env",), "solitaire",
            observer="contack_env.envs.solitaire_v0:solitaire1_observer",
            web="contack_env.app.web_contack:SOLITAIRE1",
        ),
        GameSpec(
            "solitaire2", "Solitaire No. 2", 1, 1, 1, (), _deal_solitaire2,
            contack_records.FORMAT, contack_records.game_record, contack_text.render_text, _tiles_placed,
            ("contack_env.envs.solitaire_v0:Solitaire2Env",), "solitaire",
            observer="contack_env.envs.solitaire_v0:solitaire2_observer",
            web="contack_env.app.web_contack:SOLITAIRE2",
        ),
        GameSpec(
            "contactix", "CON-TAC-TIX", 2, 2, 2, ("board_size", "swap"), _deal_contactix,
            contactix_records.FORMAT, contactix_records.game_record, contactix_render.render_text, _pegs_played,
            ("contack_env.envs.contactix_v0",), "colours", observer="contack_env.envs.contactix_v0:ContactixObserver",
            bound_options=("board_size", "swap"), web="contack_env.app.web_contactix:CONTACTIX",
        ),
    )
}
"""Every game, by name."""

__all__ = ["ENCLOSED_END_OPTIONS", "GAMES", "REPORTS", "GameSpec", "RuleOptions", "get_game", "load_target"]


def get_game(name: str) -> GameSpec:
    """The game called ``name``, or ``ValueError`` naming the games that exist."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}") from None
