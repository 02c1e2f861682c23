"""``az:PATH[:SIMS[:ENDGAME]]``: a search-guided agent trained with ``contack train --algorithm az``.

At each decision it runs a search from the public view it receives, guided by the network in ``PATH`` (a
``contack-az/1`` weight file, numpy only): the file names which (``meta["search"]``), the tree search of
``agents.az.search`` with ``SIMS`` simulations or the expectimax search of ``agents.az.expectimax`` with ``SIMS``
network evaluations (the file's own default without one; ``SIMS=0``: the network's most likely legal move, no
search, either way). Near the end of Solitaire
No. 2 it first tries an exact search of the rest of the game (``agents.az.endgame``) with a budget of
``ENDGAME`` positions (default ``ENDGAME_POSITIONS``, 3000, and 0 for the network alone, ``SIMS=0``; 0 turns it
off; ``az:PATH:0:3000`` is the network with the exact endgame). A budget above 0 for a game where the exact
search never plays (every other game) is refused rather than ignored.
It plays deterministically up to the sampling of the hidden tiles, which flows from the agent's seed: the same
seed, the same choices. It never looks at the face-down order (every simulation samples its own, and the exact
search lists what could be face down).

A missing file, a file of another kind or a network for another game fails with a ``PolicyFileError`` (a
``ValueError``) that says so, when the agent is made; a network bound to rule options (CON-TAC-TIX's board size)
refuses others in ``check_options``, which the commands call before a game starts.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from contack_env.checks import is_whole_number
from contack_env.games import RuleOptions, get_game
from contack_env.protocol import State
from agents.az.encoding import game_of
from agents.az.endgame import ENDGAME_POSITIONS, EndgameTable, has_exact_endgame
from agents.az.expectimax import Expectimax
from agents.az.evaluator import NetEvaluator
from agents.az.horizon import horizon_for
from agents.az.network import AZNet
from agents.az.search import MAX_CONSIDERED, MAX_SIMS, LeafPlayout, Search, SearchResult, check_rollout, drive
from agents.policy_file import PolicyFileError, check_bound_options

from .base import Agent

MAX_ENDGAME = 10_000_000
DEFAULT_SIMS = 32


def file_sims(net: AZNet, path: str) -> int:
    """The simulations a decision that ``path``'s network plays with by default (``DEFAULT_SIMS`` when its file
    names none); ``PolicyFileError`` when they are not a whole number 0..``MAX_SIMS`` (a file edited, or from a
    later version)."""
    sims = net.meta.get("sims", DEFAULT_SIMS)
    if not is_whole_number(sims) or not 0 <= sims <= MAX_SIMS:
        raise PolicyFileError(f"{path}: its simulations a decision (meta 'sims') are {sims!r}, not a whole number "
                              f"0..{MAX_SIMS}")
    return sims


class AZAgent(Agent):
    """Plays ``path``'s network with ``sims`` simulations a decision (None: the file's default). ``rollout``
    overrides the file's playout share of a leaf's value, and ``leaf_playout`` the playout itself
    (``agents.az.search``), for experiments such as ``training.az.leaf_oracle``."""

    name = "az"

    def __init__(self, path: str, sims: int | None = None, game: str | None = None,
                 seed: int | np.random.Generator | np.random.SeedSequence | None = None,
                 endgame: int | None = None, rollout: float | None = None,
                 leaf_playout: LeafPlayout | None = None) -> None:
        self.path = path
        self.net = AZNet.load(path, game=game)
        if sims is None:
            try:
                sims = file_sims(self.net, path)
            except PolicyFileError as err:  # the way out, for those who name the agent by a spec
                raise PolicyFileError(f"{err}: give them in the spec, az:PATH:SIMS") from None
        if not is_whole_number(sims) or not 0 <= sims <= MAX_SIMS:
            raise ValueError(f"az: the simulations are a whole number 0..{MAX_SIMS}; got {sims!r}")
        self.sims = sims
        if endgame is None:
            endgame = ENDGAME_POSITIONS if sims else 0
        elif endgame and not has_exact_endgame(self.net.game):  # given for a game where it would never play
            raise ValueError(f"az: ENDGAME, the exact endgame's budget (az:PATH:SIMS:ENDGAME), is for a one-seat game "
                             f"whose chance can be listed (Solitaire No. 2); {get_game(self.net.game).title} has none: "
                             f"give az:PATH or az:PATH:SIMS; got {endgame!r}")
        if not is_whole_number(endgame) or not 0 <= endgame <= MAX_ENDGAME:
            raise ValueError(f"az: the endgame budget is a whole number of positions 0..{MAX_ENDGAME}; got {endgame!r}")
        self.endgame = endgame
        self.table = EndgameTable()  # exact values settled at one decision serve the next
        self.mode = str(self.net.meta.get("mode", "gumbel"))
        self.max_considered = int(self.net.meta.get("max_considered", MAX_CONSIDERED))
        self.horizon = horizon_for(self.net.horizon, self.net.stakes)
        self.rollout = self.net.rollout if rollout is None else rollout
        check_rollout(self.rollout)
        if leaf_playout is not None and self.net.search != "tree":
            raise ValueError(f"az: {path} plays the {self.net.search} search, which takes no leaf_playout (the tree "
                             f"search's, for experiments)")
        self.leaf_playout = leaf_playout
        self.leaf_moves = self.net.leaf_moves
        self.rng = np.random.default_rng(seed)
        self.evaluate = NetEvaluator(self.net, path)
        self.options = self.evaluate.options
        """The rule options it was trained under (those of the game's ``bound_options`` matter)."""

    def check_options(self, options: RuleOptions) -> None:
        """``PolicyFileError`` unless this network can play its game under ``options`` (CON-TAC-TIX: the board
        size and swap rule it was trained with)."""
        check_bound_options(self.path, self.options, options, self.net.game)

    def search(self, state: State) -> SearchResult:
        """The search's result at ``state`` (a public view at a decision)."""
        if game_of(state) != self.net.game:
            raise PolicyFileError(f"{self.path} is a network for {self.net.game!r}; it cannot play {game_of(state)!r}")
        if self.net.search == "expectimax":
            search: Search | Expectimax = Expectimax(self.sims, self.rng, self.horizon, rollout=self.rollout,
                                                     endgame=self.endgame, table=self.table)
        else:
            search = Search(self.sims, self.rng, self.mode, max_considered=self.max_considered, horizon=self.horizon,
                            rollout=self.rollout, endgame=self.endgame, table=self.table, leaf_moves=self.leaf_moves,
                            leaf_playout=self.leaf_playout)
        return drive(search.run(state), self.evaluate)

    def act(self, state: State, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        return state.move_of(self.search(state).code)
