"""CON-TAC-TIX (Piet Hein, 1942): the rules as pure code (docs/rules.md section 9), no RL machinery.

The board is a diamond of ``N x N`` holes, ``3 <= N <= 19`` (11 by default). Hole ``(r, c)`` (row ``r``, column
``c``, both ``0..N-1``) has the index ``r * N + c``; it touches the six holes ``(r, c-1)``, ``(r, c+1)``,
``(r-1, c)``, ``(r+1, c)``, ``(r-1, c+1)``, ``(r+1, c-1)`` that lie on the board. Black (``BLACK = 0``) moves
first and joins rows ``0`` and ``N-1``; White (``WHITE = 1``) joins columns ``0`` and ``N-1``. A corner hole lies
on a row side and a column side at once, so it counts for both players: a black peg in ``(0, 0)`` touches Black's
row-0 side, a white one touches White's column-0 side. The players alternately put a peg into any empty hole; the
first to join their two sides with an unbroken chain of their pegs wins. A draw is impossible (a full board
always holds exactly one chain; see the tests).

**Moves** are ints, the hole index ``r * N + c``; they are also the actions of ``contactix_v0``.

**Swap (pie) rule** (option ``swap=True``; off by default, the 1942 rules have none): on White's first turn,
White may take over Black's first peg instead of placing one. That move is written as the index of the hole
holding Black's peg, the one occupied hole that is ever legal. The black peg at ``(r, c)`` is removed and a white
peg put on the mirror hole ``(c, r)``; then Black moves. The mirror ``(r, c) -> (c, r)`` keeps the six
neighbours of every hole and exchanges rows and columns, hence Black's sides and White's: the position is the
one Black made, with the colours exchanged, so swapping is the same as exchanging colours without renaming the
players (Hex's "swap pieces" convention). It keeps Black from opening with an overwhelming central move.

**Win check.** A union-find over the holes with four virtual nodes, one per side (Black's row 0 and row ``N-1``,
White's column 0 and column ``N-1``): a peg is united with its same-coloured neighbours and with the sides its
hole lies on, and the mover has won when their two side nodes share a root. Near-constant time per move.

Every state is seedless and deterministic; ``random_playout`` takes its random numbers from the caller.
"""

from __future__ import annotations

import operator
from functools import lru_cache
from typing import Callable, Iterable, Sequence

from contack_env.contack.state import IllegalMoveError

BLACK, WHITE = 0, 1
COLOUR_NAMES = ("black", "white")
EMPTY = 0
"""Board values: ``EMPTY`` (0), a black peg ``BLACK + 1`` (1), a white peg ``WHITE + 1`` (2)."""
MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 3, 19, 11

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


def check_size(size: object) -> int:
    """``size`` as an int, or ``ValueError`` saying what sizes exist."""
    try:
        n = operator.index(size)  # type: ignore[arg-type]
    except TypeError:
        n = None
    if n is None or isinstance(size, bool) or not MIN_SIZE <= n <= MAX_SIZE:
        raise ValueError(f"board_size is a whole number {MIN_SIZE}..{MAX_SIZE}; got {size!r}")
    return n


def cell_index(r: int, c: int, size: int) -> int:
    """The index of hole ``(r, c)``; ``ValueError`` if it is off the board."""
    if not (0 <= r < size and 0 <= c < size):
        raise ValueError(f"hole ({r}, {c}) is off the {size}x{size} board: rows and columns are 0..{size - 1}")
    return r * size + c


def cell_rc(cell: int, size: int) -> tuple[int, int]:
    """``(row, column)`` of hole index ``cell``."""
    return divmod(cell, size)


def mirror(cell: int, size: int) -> int:
    """The hole ``(c, r)`` for hole ``(r, c)``: where the swap moves Black's first peg."""
    r, c = divmod(cell, size)
    return c * size + r


@lru_cache(maxsize=None)
def neighbour_table(size: int) -> tuple[tuple[int, ...], ...]:
    """For every hole index, the indices of the holes it touches, ascending."""
    table = []
    for r in range(size):
        for c in range(size):
            around = []
            for dr, dc in ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    around.append(rr * size + cc)
            table.append(tuple(sorted(around)))
    return tuple(table)


@lru_cache(maxsize=None)
def side_cells(size: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]:
    """``side_cells(N)[colour]`` = the holes on that colour's two sides: Black's rows 0 and N-1, White's columns
    0 and N-1 (each corner hole is on one side of each colour)."""
    n = size
    top = tuple(range(n))
    bottom = tuple((n - 1) * n + c for c in range(n))
    left = tuple(r * n for r in range(n))
    right = tuple(r * n + n - 1 for r in range(n))
    return ((top, bottom), (left, right))


@lru_cache(maxsize=None)
def _side_nodes(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per colour, per hole: the virtual side nodes of that colour the hole lies on (nodes ``N*N`` .. ``N*N+3``:
    Black's row 0, Black's row N-1, White's column 0, White's column N-1)."""
    nn = size * size
    black = []
    white = []
    for cell in range(nn):
        r, c = divmod(cell, size)
        black.append(tuple(node for node, on in ((nn, r == 0), (nn + 1, r == size - 1)) if on))
        white.append(tuple(node for node, on in ((nn + 2, c == 0), (nn + 3, c == size - 1)) if on))
    return (tuple(black), tuple(white))


class ContactixState:
    """A CON-TAC-TIX position and the player to move (see the module docstring).

    Attributes (read them; change the state only through ``play``/``play_code``): ``size``; ``swap_rule``;
    ``board`` (list of ``N*N`` values, ``EMPTY``, 1 for black, 2 for white); ``current_player`` (``BLACK`` or
    ``WHITE``; after the end, the player who would be next); ``winner`` (``BLACK``, ``WHITE`` or None);
    ``moves`` (every move played, in order, as ints; the swap is the index of the hole it took);
    ``swapped`` (the swap was played).
    """

    __slots__ = ("size", "swap_rule", "board", "current_player", "winner", "moves", "swapped", "_parent", "_empty")

    game = "contactix"
    num_players = 2

    @property
    def last_peg(self) -> int | None:
        """The hole of the last peg put in (after a swap, the white peg's, on the mirror of Black's first)."""
        if not self.moves:
            return None
        if self.swapped and len(self.moves) == 2:
            return mirror(self.moves[0], self.size)
        return self.moves[-1]

    def __init__(self, size: int = DEFAULT_SIZE, swap: bool = False) -> None:
        size = check_size(size)
        if not isinstance(swap, bool):
            raise ValueError(f"swap is True or False; got {swap!r}")
        self.size = size
        self.swap_rule = swap
        self.board: list[int] = [EMPTY] * (size * size)
        self.current_player = BLACK
        self.winner: int | None = None
        self.moves: list[int] = []
        self.swapped = False
        self._parent = list(range(size * size + 4))
        self._empty = size * size

    # -- building positions directly ---------------------------------------------------------------------
    @classmethod
    def from_position(
        cls,
        size: int,
        black: Iterable[tuple[int, int]] = (),
        white: Iterable[tuple[int, int]] = (),
        to_move: int | None = None,
        swap: bool = False,
    ) -> "ContactixState":
        """A position with the given pegs (``(r, c)`` pairs), built directly (no move history, so no record).

        ``to_move`` defaults to Black when both have as many pegs, else White (Black has one more). The winner is
        whoever has a chain. Raises ``ValueError`` for a hole off the board or used twice, a peg count that no
        game reaches, or a ``to_move`` that does not fit it.
        """
        state = cls(size, swap)
        n = state.size
        black_cells = [cell_index(r, c, n) for r, c in black]
        white_cells = [cell_index(r, c, n) for r, c in white]
        used = black_cells + white_cells
        if len(set(used)) != len(used):
            twice = sorted({cell_rc(x, n) for x in used if used.count(x) > 1})
            raise ValueError(f"a hole holds one peg; used twice: {twice}")
        nb, nw = len(black_cells), len(white_cells)
        if nb not in (nw, nw + 1):
            raise ValueError(f"black has as many pegs as white or one more (black moves first); got {nb} and {nw}")
        natural = BLACK if nb == nw else WHITE
        if to_move is None:
            to_move = natural
        elif to_move not in (BLACK, WHITE):
            raise ValueError(f"to_move is BLACK (0) or WHITE (1); got {to_move!r}")
        elif to_move != natural:
            raise ValueError(
                f"with {nb} black and {nw} white pegs it is {COLOUR_NAMES[natural]}'s turn, not {COLOUR_NAMES[to_move]}'s"
            )
        for colour, cells in ((BLACK, black_cells), (WHITE, white_cells)):
            for cell in cells:
                state._put(cell, colour)
        state.current_player = to_move
        for colour in (BLACK, WHITE):
            if state.connected(colour):
                state.winner = colour
        return state

    # -- the decision --------------------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.winner is not None

    @property
    def can_swap(self) -> bool:
        """White may swap now (the swap rule is on and Black has made exactly one move)."""
        return self.swap_rule and len(self.moves) == 1 and self.winner is None

    def legal_moves(self) -> list[int]:
        """The moves open to ``current_player``, ascending: every empty hole, plus Black's first peg's hole when
        White may swap; empty once the game is over."""
        if self.winner is not None:
            return []
        board = self.board
        legal = [i for i, v in enumerate(board) if v == EMPTY]
        if self.can_swap:
            legal.append(self.moves[0])
            legal.sort()
        return legal

    legal_codes = legal_moves

    def is_legal(self, move: int) -> bool:
        if self.winner is not None or not 0 <= move < len(self.board):
            return False
        return self.board[move] == EMPTY or (self.can_swap and move == self.moves[0])

    def is_swap(self, move: int) -> bool:
        """``move`` is the swap (legal now)."""
        return self.can_swap and move == self.moves[0]

    def play(self, move: int) -> None:
        """Play ``move`` for ``current_player``; ``IllegalMoveError`` (a ``ValueError``) saying why if it is not
        legal."""
        n = self.size
        try:
            index = None if isinstance(move, bool) else operator.index(move)
        except TypeError:
            index = None
        if index is None:
            raise IllegalMoveError(f"a move is a hole index r*{n}+c, an int 0..{n * n - 1}; got {move!r}")
        move = index
        if self.winner is not None:
            raise IllegalMoveError(f"the game is over: {COLOUR_NAMES[self.winner]} has won")
        if not 0 <= move < n * n:
            raise IllegalMoveError(f"hole index {move} is off the {n}x{n} board: indices are 0..{n * n - 1}")
        held = self.board[move]
        if held != EMPTY and not self.is_swap(move):
            r, c = divmod(move, n)
            why = f"hole ({r}, {c}) already holds a {COLOUR_NAMES[held - 1]} peg"
            if self.swap_rule and len(self.moves) > 1 and self.moves[0] == move and not self.swapped:
                why += " (the swap is White's first move only)"
            raise IllegalMoveError(why)
        self.play_code(move)

    def play_code(self, move: int) -> None:
        """Play ``move`` without checking it (it must be one of ``legal_moves()``). The fast path for search."""
        board = self.board
        if board[move] != EMPTY:
            self._swap(move)
            return
        colour = self.current_player
        self._put(move, colour)
        self.moves.append(move)
        nn = len(board)
        if colour == BLACK:
            a, b = nn, nn + 1
        else:
            a, b = nn + 2, nn + 3
        if self._find(a) == self._find(b):
            self.winner = colour
        self.current_player = 1 - colour

    def _put(self, cell: int, colour: int) -> None:
        """A peg of ``colour`` into ``cell``, united with its same-coloured neighbours and its sides."""
        board = self.board
        peg = colour + 1
        board[cell] = peg
        self._empty -= 1
        parent = self._parent
        find = self._find
        root = find(cell)
        for other in neighbour_table(self.size)[cell]:
            if board[other] == peg:
                r = find(other)
                if r != root:
                    parent[r] = root
        for node in _side_nodes(self.size)[colour][cell]:
            r = find(node)
            if r != root:
                parent[r] = root

    def _find(self, x: int) -> int:
        parent = self._parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]  # path halving
            x = parent[x]
        return x

    def _swap(self, move: int) -> None:
        n = self.size
        target = mirror(move, n)
        self.board[move] = EMPTY
        self._empty += 1
        # Union-find cannot remove a peg; with one peg on the board, starting afresh is as cheap.
        self._parent = list(range(n * n + 4))
        self._put(target, WHITE)
        self.moves.append(move)
        self.swapped = True
        self.current_player = BLACK

    # -- questions about the position ---------------------------------------------------------------------
    def connected(self, colour: int) -> bool:
        """``colour``'s two sides are joined by a chain of its pegs."""
        nn = self.size * self.size
        a = nn + 2 * colour
        return self._find(a) == self._find(a + 1)

    def pegs(self, colour: int) -> list[int]:
        """The holes holding ``colour``'s pegs, ascending."""
        peg = colour + 1
        return [i for i, v in enumerate(self.board) if v == peg]

    @property
    def empty_count(self) -> int:
        return self._empty

    def winning_chain(self) -> list[int]:
        """A shortest chain of the winner's pegs joining the winner's sides (hole indices, from the first side
        to the second); empty while nobody has won."""
        if self.winner is None:
            return []
        return shortest_chain(self.board, self.size, self.winner)

    @property
    def winners(self) -> list[int]:
        """``[winner]`` once the game is over (a draw is impossible), else ``[]``."""
        return [] if self.winner is None else [self.winner]

    @property
    def scores(self) -> list[int]:
        """1 for the winner, 0 otherwise (all 0 before the end)."""
        return [1 if seat == self.winner else 0 for seat in (BLACK, WHITE)]

    def move_of(self, code: int) -> int:
        """Moves are their own codes: the hole index."""
        return code

    def public_key(self) -> tuple:
        """Nothing is hidden or drawn: the moves that led here say everything (``contack_env.protocol.State``)."""
        return (self.done,)

    def public_view(self) -> "ContactixState":
        """A copy: CON-TAC-TIX hides nothing."""
        return self.clone()

    def determinize(self, rng: object = None) -> "ContactixState":
        """A copy: there is nothing hidden to sample."""
        return self.clone()

    def face_down(self) -> int:
        """0: CON-TAC-TIX hides nothing."""
        return 0

    def clone(self) -> "ContactixState":
        other = ContactixState.__new__(ContactixState)
        other.size = self.size
        other.swap_rule = self.swap_rule
        other.board = self.board[:]
        other.current_player = self.current_player
        other.winner = self.winner
        other.moves = self.moves[:]
        other.swapped = self.swapped
        other._parent = self._parent[:]
        other._empty = self._empty
        return other

    def random_playout(self, uniform: Callable[[], float]) -> int:
        """The winner of uniformly random play from here to the end; ``self`` is left unchanged.

        ``uniform()`` gives floats in [0, 1). Uniform random play visits the empty holes in a uniformly random
        order, alternating colours from the player to move; once a chain exists no later peg can break it or
        complete the other colour's, so filling the whole board and looking once for Black's chain names the
        same winner as stopping at the first chain, at a fraction of the cost. (A pending swap is decided first,
        uniformly among the legal moves, on a copy.)
        """
        if self.winner is not None:
            return self.winner
        state = self
        if self.can_swap:
            state = self.clone()
            legal = state.legal_moves()
            state.play_code(legal[int(uniform() * len(legal))])
            if state.winner is not None:
                return state.winner
        board = state.board[:]
        empties = [i for i, v in enumerate(board) if v == EMPTY]
        for i in range(len(empties) - 1, 0, -1):  # Fisher-Yates
            j = int(uniform() * (i + 1))
            empties[i], empties[j] = empties[j], empties[i]
        first = state.current_player + 1
        second = 3 - first
        for k, cell in enumerate(empties):
            board[cell] = first if k % 2 == 0 else second
        return BLACK if _spans(board, state.size, BLACK) else WHITE

    def __repr__(self) -> str:
        status = f"{COLOUR_NAMES[self.winner]} has won" if self.winner is not None else f"{COLOUR_NAMES[self.current_player]} to move"
        return f"ContactixState(size={self.size}, swap={self.swap_rule}, moves={len(self.moves)}, {status})"


def _spans(board: Sequence[int], size: int, colour: int) -> bool:
    """``colour``'s pegs on ``board`` join its two sides (a flood fill from its first side)."""
    peg = colour + 1
    first, second = side_cells(size)[colour]
    goal = set(second)
    nb = neighbour_table(size)
    seen = [False] * len(board)
    stack = [c for c in first if board[c] == peg]
    for c in stack:
        seen[c] = True
    while stack:
        c = stack.pop()
        if c in goal:
            return True
        for o in nb[c]:
            if not seen[o] and board[o] == peg:
                seen[o] = True
                stack.append(o)
    return False


def shortest_chain(board: Sequence[int], size: int, colour: int) -> list[int]:
    """A shortest chain of ``colour``'s pegs on ``board`` from its first side to its second (hole indices), or
    ``[]`` if there is none. Breadth-first from every peg on the first side; ties go to lower hole indices."""
    peg = colour + 1
    first, second = side_cells(size)[colour]
    goal = set(second)
    nb = neighbour_table(size)
    came: dict[int, int] = {}
    frontier = [c for c in first if board[c] == peg]
    for c in frontier:
        came[c] = -1
    while frontier:
        nxt = []
        for c in frontier:
            if c in goal:
                chain = [c]
                while came[chain[-1]] != -1:
                    chain.append(came[chain[-1]])
                return chain[::-1]
            for o in nb[c]:
                if o not in came and board[o] == peg:
                    came[o] = c
                    nxt.append(o)
        frontier = nxt
    return []
