"""How far the search-guided agent looks and what its values mean: the whole game, or the hand at hand.

``game`` (every game): a seat's value is its result at the end of the game (``terminal_values``): in Contack
``sigmoid(m / 40)`` of its final margin over the others' mean, in a solitaire the share of the tiles placed,
in any other game its share of the win.
Three hands of Contack are a long way to see: the value of a position mixes what the players can still make of
this hand with the luck of the deals to come, which no move changes.

``hand`` (Contack; a game whose states have no ``hand_number``, or a solitaire, reads it as ``game``): what ``mcts`` plays for. The search stops at the
end of the current hand, and a seat's value is its result over the rest of that hand,
``sigmoid(u / HAND_SCALE)`` with ``u`` its points from the decision to the hand's end (the hand's penalties
included) minus the mean of the others' (the same quantity as ``agents.mcts``' reward, scale 20). The network
learns the value of the rest of a hand from where it is, which no later deal blurs, and the search adds the
points already made on its way to a leaf: the value of a leaf for the root is ``sigmoid((u_path + m) / HAND_SCALE)``
with ``u_path`` the margin made from the root to the leaf and ``m = HAND_SCALE * logit(v)`` the rest the network
expects. The training targets are the hand results measured from every decision.

**Stakes** (``hand`` only; ``STAKES``). A hand's margin is not what a game is won by: the totals after the last
hand are. With ``stakes="margin"`` (the default) a value is the hand margin's, as above. With ``stakes="win"`` the
search plays for the game: the margin a leaf is worth (``u_path + m``, or ``u`` at the hand's end) is added to
the seat's lead at the root, and the value is ``sigmoid(d / scale)`` of what that makes of the seat's margin over
the best other seat, ``d = min over others j of (S_i - S_j) + (made_i - made_j) (n - 1) / n`` (``S`` the scores at
the root; heads-up simply the lead plus the margin). ``scale`` grows with the hands still to come, whose margins
no move of this one changes: ``sqrt(HAND_SCALE^2 + k * HAND_SPREAD^2)`` points with ``k`` hands after this one,
``LAST_HAND_SCALE`` in the last. So a seat far ahead in the last hand values a safe small margin over a risky
large one, and one far behind the reverse. The network is the same (it learns the rest of a hand either way);
only the search's values change, so the stakes are a setting of play, recorded in the network file
(``meta["stakes"]``). Measured heads-up (``docs/training.md``): about a point and a half more wins against
``mcts:200``; at four players it did worse, and the four-player model plays for the margin.

A ``Horizon`` is asked at the root (``start``) for what it must remember (the hand and the scores there) and then
whether a simulation's state is past it (``over``), what a state past it is worth to every seat (``result``), and
what the network's values at a leaf are worth from the root (``leaf``): values in [0, 1], in table order.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from contack_env.protocol import State

HORIZONS = ("game", "hand")
STAKES = ("margin", "win")
HAND_SCALE = 20.0
"""Points of hand margin (over the others' mean) that take a seat's hand value from 0.5 to about 0.73."""
MARGIN_SCALE = 40.0
"""Points of final margin over the others' mean that take a seat's game value from 0.5 to about 0.73."""
HAND_SPREAD = 25.0
"""With ``stakes="win"``: the points of margin each hand still to come may swing a game by (chosen heads-up over
400 games against ``mcts:200``, docs/training.md: 25, 40 and 60 won 0.507, 0.502 and 0.495)."""
LAST_HAND_SCALE = 15.0
"""With ``stakes="win"``: the scale of the last hand's chance of winning, in points (8, 15 and 25 won 0.501, 0.502
and 0.489 of the same games)."""
_EPS = 1e-6


def terminal_values(state: State) -> list[float]:
    """Every seat's result at the end of a game, in [0, 1]. A game of tiles on a figure (Contack, the solitaires):
    with several seats ``sigmoid(m / MARGIN_SCALE)``, ``m`` the seat's final score minus the mean of the others'
    (the winner has the highest; heads-up the two sum to 1); a solitaire the share of the 36 tiles placed (1 for a
    win). Any other game, whose scores have no scale the search knows: a winner's share of the win (1 alone, 1/k
    shared by k), 0 for the others."""
    figure = getattr(state, "figure", None)
    if figure is None:
        winners = state.winners
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(state.num_players)]
    scores = state.scores
    if len(scores) == 1:
        from contack_env import NUM_TILES

        return [len(figure) / NUM_TILES]
    return _squash(_margins(scores), MARGIN_SCALE)


class Horizon:
    """The whole game (``per_hand=False``) or the current hand (``per_hand=True``; module docstring): a game
    whose states have no ``hand_number``, or with one seat, is searched to its end either way."""

    def __init__(self, per_hand: bool, stakes: str = "margin") -> None:
        if stakes not in STAKES:
            raise ValueError(f"stakes must be one of {', '.join(STAKES)}; got {stakes!r}")
        self.per_hand = per_hand
        self.name = "hand" if per_hand else "game"
        self.stakes = stakes

    def start(self, view: State) -> Any:
        """What the horizon remembers of the root ``view``: its hand and scores, and the hands after it, or None
        (the whole game)."""
        hand = getattr(view, "hand_number", None)
        if not self.per_hand or hand is None or view.num_players < 2:
            return None
        return hand, list(view.scores), view.num_hands - 1 - hand  # type: ignore[attr-defined]

    def over(self, state: State, base: Any) -> bool:
        """Whether ``state`` is past the horizon of the root that gave ``base``."""
        return state.done or (base is not None and state.hand_number != base[0])  # type: ignore[attr-defined]

    def result(self, state: State, base: Any) -> list[float]:
        """Every seat's value at ``state`` (past the horizon), seen from the root that gave ``base``."""
        if base is None:
            return terminal_values(state)
        return self._values(_made(state, base), base)

    def leaf(self, state: State, base: Any, values: Sequence[float]) -> list[float]:
        """The network's ``values`` at ``state`` (each seat's, from ``state`` on), seen from the root."""
        if base is None:
            return list(values)
        made = _made(state, base)
        if self.stakes == "margin":
            # the same value as _values of u + HAND_SCALE * logit(v), in the float expression the shipped searches
            # (and their goldens) were made with
            return [1.0 / (1.0 + math.exp(-(u / HAND_SCALE + _logit(v)))) for u, v in zip(made, values)]
        return self._values([u + HAND_SCALE * _logit(v) for u, v in zip(made, values)], base)

    def _values(self, made: Sequence[float], base: Any) -> list[float]:
        """Every seat's value of the hand margins ``made`` from the root that gave ``base`` (the stakes')."""
        if self.stakes == "margin":
            return _squash(made, HAND_SCALE)
        scores, later = base[1], base[2]
        n = len(made)
        scale = math.sqrt(HAND_SCALE**2 + later * HAND_SPREAD**2) if later > 0 else LAST_HAND_SCALE
        # two seats' margins over the others' mean differ by n / (n - 1) times the points between them
        lead = [min(scores[i] - scores[j] + (made[i] - made[j]) * (n - 1) / n for j in range(n) if j != i)
                for i in range(n)]
        return _squash(lead, scale)


def horizon_for(name: str, stakes: str = "margin") -> Horizon:
    """The horizon ``name`` (one of ``HORIZONS``) played for ``stakes`` (one of ``STAKES``)."""
    if name not in HORIZONS:
        raise ValueError(f"horizon must be one of {', '.join(HORIZONS)}; got {name!r}")
    return Horizon(per_hand=name == "hand", stakes=stakes)


def _made(state: State, base: Any) -> list[float]:
    return _margins([s - b for s, b in zip(state.scores, base[1])])


def _margins(points: Sequence[float]) -> list[float]:
    n = len(points)
    total = sum(points)
    return [p - (total - p) / (n - 1) for p in points]


def _squash(margins: Sequence[float], scale: float) -> list[float]:
    return [1.0 / (1.0 + math.exp(-m / scale)) for m in margins]


def _logit(v: float) -> float:
    v = min(max(float(v), _EPS), 1.0 - _EPS)
    return math.log(v / (1.0 - v))
