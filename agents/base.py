"""The interface every agent implements, for every game of the suite (``contack_env.protocol.State``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Generic, Sequence, TypeVar

from contack_env.protocol import MoveT, State

StateT = TypeVar("StateT", bound=State)


class Agent(ABC, Generic[StateT, MoveT]):
    """Chooses one of the legal moves of the decision a game state rests at: ``Agent[StateT, MoveT]`` plays
    states of type ``StateT`` (a ``contack_env.protocol.State``) whose moves are ``MoveT``.

    ``state`` is ``state.public_view()`` of the game: what the players at the table see (in Contack the figure,
    every hand, pile size, scores), with the face-down order redacted. ``legal`` is its ``legal_moves()``, never
    empty: ``Move`` (tile, x, y) in Contack and the solitaires, hole indices (ints) in CON-TAC-TIX.
    """

    name: str = "agent"

    @abstractmethod
    def act(self, state: StateT, legal: Sequence[MoveT]) -> MoveT:
        """The move to make."""

    def reset(self) -> None:
        """Called before each new game; stateless agents need not override it."""
