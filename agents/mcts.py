"""``mcts[:N]``: Monte Carlo tree search over the public state, sampling the face-down order (determinization).

The algorithm is single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012). One tree is grown
from the decision at hand; its nodes are sequences of moves (move codes, ``state.legal_codes()``), shared by all
the pile orders the search imagines. Each of the ``N`` iterations:

1. **Determinize**: draw an order of the face-down tiles with ``view.determinize(rng)``; every hand
   is face up in Contack, so that is all a player does not know (the pile of the current hand; Solitaire No. 1's
   pile; Solitaire No. 2's buried stack tiles).
2. **Select**: from the root, while every move legal in this determinization already has a child, take the child
   with the highest ``mean + C * sqrt(ln(available) / visits)`` among those legal here, where ``available``
   counts the iterations in which the child was legal at a visit of its parent (ISMCTS's UCB); the mean is the
   reward of the seat that made the move. Play it on the determinized state (draws come from the sampled pile).
3. **Expand** one untried legal move (chosen uniformly) as a new child.
4. **Roll out** to the end of the current *hand* with a cheap policy for every seat: with probability
   ``ROLLOUT_GREEDY`` the move that scores the most now (ties to the first in code order), else a uniform one.
5. **Back up** every seat's reward to the moves it made on the path.

Reward (Contack): a seat's hand result relative to the others, ``u = own change - mean change of the others``
(points plus the hand's -10 penalties, from the decision to the hand's end), squashed to [0, 1] as
``1 / (1 + exp(-u / REWARD_SCALE))``. Only the current hand is searched: later deals are unknown and equally
unknown to everyone. Solitaires: ``tiles placed / 36`` at the end (1 for a win), plus a tiny share of points.

The move played is the root child with the most visits; ties go to the higher mean reward, then the lowest move
code (lowest tile id, then cell). A decision with one legal move is answered at once. All randomness comes from
the agent's own generator (its seed), so an agent with the same seed makes the same choices; the state the agent
receives is ``public_view`` (the pile in a canonical order), so nothing it does can depend on the real order.

**CON-TAC-TIX** (``contack_env.contactix.rules.ContactixState``, perfect information): the same search with the
determinization the identity (every iteration starts from a copy of the state, and no random number is spent on
it), moves and codes the hole indices ``r * N + c`` (the ``legal`` ints are returned as they are), and the
rollout uniform random play to the end, done at once by ``ContactixState.random_playout``; the reward is 1 for
the winner, 0 for the loser.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from contack_env.checks import is_whole_number
from contack_env.contack.tiles import NUM_TILES

from .base import Agent
from .playout import GREEDY, Uniforms, greedy_playout

DEFAULT_BUDGET = 200
MAX_BUDGET = 1_000_000
EXPLORATION = 0.7
ROLLOUT_GREEDY = GREEDY
REWARD_SCALE = 20.0


class _Node:
    __slots__ = ("children", "visits", "total", "available")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0


class MCTSAgent(Agent[Any, Any]):
    """Information-set MCTS with ``iterations`` determinized iterations per decision (see the module docstring)."""

    name = "mcts"

    def __init__(
        self,
        iterations: int = DEFAULT_BUDGET,
        seed: int | np.random.Generator | np.random.SeedSequence | None = None,
        exploration: float = EXPLORATION,
        rollout_greedy: float = ROLLOUT_GREEDY,
        reward_scale: float = REWARD_SCALE,
    ) -> None:
        if not is_whole_number(iterations) or not 1 <= iterations <= MAX_BUDGET:
            raise ValueError(f"iterations is a whole number 1..{MAX_BUDGET}; got {iterations!r}")
        self.iterations = iterations
        self.rng = np.random.default_rng(seed)
        self.exploration = exploration
        self.rollout_greedy = rollout_greedy
        self.reward_scale = reward_scale
        self._uniform = Uniforms(self.rng)

    def act(self, state: Any, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        root = self.search(state)
        # ``legal`` is ``state.legal_moves()``, so its codes are ``state.legal_codes()``, in the same order.
        return state.move_of(self.choice(root, state.legal_codes()))

    @staticmethod
    def choice(root: _Node, codes: Sequence[int]) -> int:
        """The move code ``act`` plays after growing ``root``: the child with the most visits, ties to the higher
        mean reward, then the lowest code."""
        return max(
            codes,
            key=lambda c: (root.children[c].visits, root.children[c].total / max(root.children[c].visits, 1), -c)
            if c in root.children
            else (0, 0.0, -c),
        )

    @staticmethod
    def visit_shares(root: _Node, codes: Sequence[int]) -> list[float]:
        """Each of ``codes``' share of the visits ``root``'s children received (AlphaZero's policy target)."""
        visits = [root.children[c].visits if c in root.children else 0 for c in codes]
        total = sum(visits)
        return [v / total for v in visits]

    def search(self, view: Any) -> _Node:
        """The search tree grown from ``view`` (a public view: the face-down order is sampled, never read)."""
        root = _Node()
        rollout = ROLLOUTS.get(view.game, uniform_rollout)
        view, base = rollout.start(view)
        c = self.exploration
        uniform = self._uniform
        for _ in range(self.iterations):
            state = view.determinize(self.rng)
            node = root
            path: list[tuple[_Node, int]] = []
            while not state.done:
                codes = state.legal_codes()
                mover = state.current_player
                children = node.children
                untried = [code for code in codes if code not in children]
                if untried:
                    code = untried[int(uniform() * len(untried))]
                    child = _Node()
                    children[code] = child
                    for other in codes:
                        ch = children.get(other)
                        if ch is not None:
                            ch.available += 1
                    state.play_code(code)
                    path.append((child, mover))
                    break
                best_value = -1.0
                best_code = codes[0]
                for code in codes:
                    ch = children[code]
                    ch.available += 1
                for code in codes:
                    ch = children[code]
                    value = ch.total / ch.visits + c * math.sqrt(math.log(ch.available) / ch.visits)
                    if value > best_value:
                        best_value, best_code = value, code
                child = children[best_code]
                state.play_code(best_code)
                path.append((child, mover))
                node = child
            rewards = rollout.finish(self, state, base)
            for child, mover in path:
                child.visits += 1
                child.total += rewards[mover]
        return root

    def greedy_playout(self, state: Any) -> None:
        """Play ``state`` (a Contack game or solitaire) out with ``agents.playout.greedy_playout``."""
        greedy_playout(state, self.rollout_greedy, self._uniform)


class Rollout:
    """How the search starts from a view and what a finished iteration is worth to each seat (one per game;
    ``uniform_rollout`` for a game with none of its own)."""

    def start(self, view: Any) -> tuple[Any, Any]:
        """The state the iterations start from, and what ``finish`` needs to know of the root."""
        return view, None

    def finish(self, agent: MCTSAgent, state: Any, base: Any) -> list[float]:
        """Play ``state`` to the end and return every seat's reward in [0, 1]."""
        raise NotImplementedError


class UniformRollout(Rollout):
    """Any game: uniform random play to the end; a seat's reward is its share of the win."""

    def finish(self, agent: MCTSAgent, state: Any, base: Any) -> list[float]:
        while not state.done:
            codes = state.legal_codes()
            state.play_code(codes[int(agent._uniform() * len(codes))])
        winners = state.winners
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(state.num_players)]


class ContackRollout(Rollout):
    """Contack: search the current hand only; the reward is the hand's result relative to the others."""

    def start(self, view: Any) -> tuple[Any, Any]:
        # The search ends with the current hand: a copy that stops the game there spares dealing (and
        # shuffling) hands it will never look at.
        return view.current_hand_only(), list(view.scores)

    def finish(self, agent: MCTSAgent, state: Any, base: Any) -> list[float]:
        agent.greedy_playout(state)
        n = len(base)
        deltas = [s - b for s, b in zip(state.scores, base)]
        total = sum(deltas)
        scale = agent.reward_scale
        out = []
        for d in deltas:
            u = d - (total - d) / (n - 1)
            out.append(1.0 / (1.0 + math.exp(-u / scale)))
        return out


class SolitaireRollout(Rollout):
    """The solitaires: tiles placed / 36 at the end (1 for a win), plus a tiny share of points."""

    def finish(self, agent: MCTSAgent, state: Any, base: Any) -> list[float]:
        agent.greedy_playout(state)
        return [len(state.figure) / NUM_TILES + state.points_scored[0] * 1e-5]


class ContactixRollout(Rollout):
    """CON-TAC-TIX: uniform random play to the end, done at once by ``ContactixState.random_playout``."""

    def finish(self, agent: MCTSAgent, state: Any, base: Any) -> list[float]:
        winner = state.random_playout(agent._uniform)
        return [1.0 if seat == winner else 0.0 for seat in (0, 1)]


uniform_rollout = UniformRollout()
ROLLOUTS: dict[str, Rollout] = {
    "contack": ContackRollout(),
    "solitaire1": SolitaireRollout(),
    "solitaire2": SolitaireRollout(),
    "contactix": ContactixRollout(),
}
"""The rollout of each game that has one of its own; any other game gets ``uniform_rollout``."""
