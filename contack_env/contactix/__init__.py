"""CON-TAC-TIX (Piet Hein, 1942; docs/contactix.md): the rules as pure code, in ``contack_env.contactix.rules``
(the board's geometry, the colours and the size limits are there); the state and its error are also here."""

from contack_env.contactix.rules import ContactixState, IllegalMoveError

__all__ = ["ContactixState", "IllegalMoveError"]
