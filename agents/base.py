"""The interface every Contack agent implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Sequence

from contack_env.contack.figure import Move
from contack_env.contack.state import GameState


class Agent(ABC):
    """Chooses one of the legal moves of the decision a game state rests at.

    ``state`` is ``agents.view.public_view`` of the game: what the players at the table see (the figure, every
    hand, pile size, scores), with the face-down order redacted. ``legal`` is its ``legal_moves()``, never
    empty.
    """

    name: str = "agent"

    @abstractmethod
    def act(self, state: GameState, legal: Sequence[Move]) -> Move:
        """The move to make."""

    def reset(self) -> None:
        """Called before each new game; stateless agents need not override it."""
