"""The game protocol: what every game offers to agents, arenas, evaluation, records and rendering.

Every game of the suite (Contack for 2-7 players, Solitaires No. 1 and No. 2, CON-TAC-TIX) has a state class
that implements ``State``, in the manner of OpenSpiel's ``State``: whose move it is, the legal moves, playing
one, whether the game is over and who won, a cheap copy, and what the players at the table see. Code above the
rules (``agents``, evaluation, the command line) works through this protocol and the registry of games
(``contack_env.games``), never through a game's class, so a new game touches neither.

Chance is resolved inside ``play`` (deals, draws): a state always rests at a decision or at the end. Hidden
information (the face-down pile) is handled by two methods: ``public_view`` hides it in a canonical order, and
``determinize`` samples it from what is unseen; a game with nothing hidden returns plain copies. A game whose
chance after a move is small enough to list may also offer ``outcomes`` (``EnumerableChance``).
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, TypeVar, runtime_checkable

import numpy as np

MoveT = TypeVar("MoveT")


@runtime_checkable
class State(Protocol[MoveT]):
    """A game position resting at a decision of ``current_player``, or finished (``done``)."""

    game: str
    """The game's name in the registry (``contack_env.games``): "contack", "solitaire1", "solitaire2", "contactix"."""
    num_players: int
    current_player: int

    @property
    def done(self) -> bool:
        """The game is over."""
        ...

    @property
    def winners(self) -> list[int]:
        """The seats that share the win once ``done`` (a lost solitaire: none)."""
        ...

    @property
    def scores(self) -> Sequence[float]:
        """Each seat's score so far (final once ``done``); CON-TAC-TIX: 1 for the winner, else 0."""
        ...

    def legal_moves(self) -> Sequence[MoveT]:
        """The moves open to ``current_player``, in a fixed order; never empty before the end."""
        ...

    def play(self, move: MoveT) -> Any:
        """Make ``move`` for ``current_player`` (a ``ValueError`` saying why if it is not legal)."""
        ...

    def legal_codes(self) -> Sequence[int]:
        """The same moves as ``legal_moves()``, in the same order, as ints (for searches on a hot path)."""
        ...

    def play_code(self, code: int) -> Any:
        """Make the legal move with this code, unchecked (``legal_codes()`` must hold it)."""
        ...

    def move_of(self, code: int) -> MoveT:
        """The move a code stands for."""
        ...

    def clone(self) -> "State[MoveT]":
        """An independent copy."""
        ...

    def public_view(self) -> "State[MoveT]":
        """A copy showing what every player sees: face-down tiles in a canonical order carrying no information."""
        ...

    def determinize(self, rng: np.random.Generator) -> "State[MoveT]":
        """A copy with the face-down tiles in a random order consistent with what is seen."""
        ...

    def public_key(self) -> tuple:
        """What became visible beyond the moves that led here (drawn tiles, new deals, new stack tops): two states
        reached by the same moves are the same public state exactly when their keys are equal. A search over
        sampled hidden tiles branches on it, as on the outcomes of a chance node."""
        ...

    def face_down(self) -> int:
        """How many tiles (or other pieces) are still face down. A move after which it is lower has turned some up:
        what follows it depends on the hidden order, as after a chance node. After any other move the public state
        is the same whatever that order is. 0 in a game that hides nothing."""
        ...


@runtime_checkable
class EnumerableChance(Protocol):
    """An optional part of the protocol, for a one-player game whose chance after a move is small enough to
    list: an exact search (``agents.az.endgame``) can then take the expectation over it instead of sampling.
    Solitaire No. 2 offers it (the buried tile a move uncovers); Contack's draws, Solitaire No. 1's pile and
    CON-TAC-TIX do not."""

    def outcomes(self, code: int) -> Sequence["State[Any]"]:
        """The equally likely states after the legal move ``code`` as the player sees the game (one state if the
        move reveals nothing), independent of the face-down order this state happens to hold."""
        ...

    def position_key(self) -> tuple:
        """What the player knows of the position: two states have equal keys exactly when they are the same
        position up to the order of the face-down tiles (an exact search's transposition key)."""
        ...

    def moves_left(self) -> int:
        """The most moves the game can still last (an exact search tries only short endings and, through
        ``State.face_down``, those with few tiles face down)."""
        ...
