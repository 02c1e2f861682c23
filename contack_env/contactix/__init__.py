"""CON-TAC-TIX (Piet Hein, 1942; docs/contactix.md): the rules as pure code, in ``contack_env.contactix.rules``."""

from contack_env.contactix.rules import (
    BLACK,
    COLOUR_NAMES,
    DEFAULT_SIZE,
    EMPTY,
    MAX_SIZE,
    MIN_SIZE,
    WHITE,
    ContactixState,
    IllegalMoveError,
    cell_index,
    cell_rc,
    check_size,
    mirror,
    neighbour_table,
    side_cells,
)

__all__ = [
    "BLACK",
    "COLOUR_NAMES",
    "ContactixState",
    "DEFAULT_SIZE",
    "EMPTY",
    "IllegalMoveError",
    "MAX_SIZE",
    "MIN_SIZE",
    "WHITE",
    "cell_index",
    "cell_rc",
    "check_size",
    "mirror",
    "neighbour_table",
    "side_cells",
]
