"""The search of the search-guided agent: a tree search over the engine guided by a policy-and-value network.

**Hidden information.** The search starts from the public view a player receives (``agents.view.public_view``)
and never reads the real order of the face-down tiles. Every simulation plays on its own determinization
(``agents.view.determinize``: the pile, later deals and Solitaire No. 2's buried stack tiles in an order drawn
from the search's generator). A tree node is a *public* state: after a move, the child is looked up by what
became visible (``public_key``: a drawn tile, a new deal, a new stack top), so the draws the determinizations
make branch the tree like chance nodes, and the network, which sees only public information, is evaluated once
per node. An edge's value averages over the outcomes the simulations met.

**Values per seat (max^n).** A leaf's value is the network's value for every seat; a state past the search's
horizon (``agents.az.horizon``: the end of the game, or of the current hand) has the value the horizon gives
it. Backing up, each edge adds the value of the seat that chose it, so every seat plays for itself and any
table size (2-7 players) works; a solitaire has one seat.

**Rollouts (``rollout``, AlphaGo's lambda).** With ``rollout > 0`` a new node's values mix the network's with
the result of one greedy playout to the horizon (``agents.playout``: 80% the move that scores the most, as
``mcts`` plays out): ``(1 - rollout) * network + rollout * playout``. The playout starts from the simulation's
determinization (the root's from one of its own), so it reads nothing hidden either. In the solitaires, where
a revealed stack top or drawn tile makes nearly every simulation's leaf a new node, the playout is the search's
only look past the next move; in Contack the network's value of the rest of a hand is worth more than a playout
(``docs/training.md``). With ``rollout = 1`` the network's values play no part, so a new node is not evaluated
at all: the network is asked for a node's policy when a simulation comes back to choose a move there. In
Solitaire No. 2 that halves the cost of a simulation, and twice the simulations fit in a decision's time.

**Selection.** ``mode="gumbel"`` (Gumbel AlphaZero, Danihelka et al. 2022): at the root, the ``max_considered``
moves with the highest ``g + logit`` (``g`` Gumbel noise when ``noise`` is on, else 0) are searched by
sequential halving, each round keeping the better half by ``g + logit + sigma(q)``; the move played is the best
survivor; below the root, the move maximising ``pi'(a) - N(a) / (1 + sum N)`` with ``pi' = softmax(logit +
sigma(completed q))``. The policy target is ``pi'`` at the root: an improvement of the network's policy even
with a handful of simulations. ``mode="visits"`` (AlphaZero): PUCT everywhere, Dirichlet noise on the root
priors when ``noise`` is on, the most visited move played (a draw in proportion to the visits with ``noise``),
the visit counts as the policy target. ``sigma(q) = (c_visit + max N) * c_scale * q`` over the completed
values rescaled to [0, 1] within the node, as in ``mctx``.

**Batching.** ``Search.run`` is a generator: it yields each state whose network evaluation it needs and
receives ``(logits of the legal codes, per-seat values)``. ``drive`` answers one search at a time;
``training.az.selfplay`` runs many games' searches side by side and answers them in one batch. ``sims=0``
plays the network's policy alone (one evaluation, no search).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Generator, Sequence

import numpy as np

from agents.playout import GREEDY, Uniforms, greedy_playout, is_share
from agents.view import determinize, public_view
from contack_env.protocol import State

from .horizon import Horizon, horizon_for

MODES = ("gumbel", "visits")
C_VISIT = 50.0
C_SCALE = 0.1
C_PUCT = 1.25
DIRICHLET_ALPHA = 0.3
DIRICHLET_SHARE = 0.25
MAX_CONSIDERED = 8

Evaluation = tuple[np.ndarray, list[float]]
"""The network's answer for one state: the logits of its legal codes (in ``legal_codes()`` order) and the value
of every seat in table order."""
Request = Generator[State, Evaluation, "SearchResult"]


def public_key(state: State) -> tuple:
    """What a player sees of ``state`` beyond the moves that led to it (``contack_env.protocol.State.public_key``):
    the hands (draws, new deals: every hand is face up), Solitaire No. 1's drawn tile and discards, Solitaire
    No. 2's stack tops."""
    return state.public_key()


def num_seats(state: State) -> int:
    """The seats whose values the network gives at ``state`` (a solitaire's one player included)."""
    return state.num_players


class Node:
    """A public state at a decision: its legal codes, the network's logits and values, and edge statistics."""

    __slots__ = ("codes", "mover", "logits", "prior", "value", "visits", "total", "children")

    def __init__(self, state: State, evaluation: Evaluation | None) -> None:
        self.codes: list[int] = state.legal_codes()
        self.mover: int = state.current_player
        self.logits: np.ndarray | None = None
        self.prior: np.ndarray | None = None
        self.value: list[float] = []
        if evaluation is not None:  # else the caller sets the values (a playout's) and the policy comes when needed
            logits, self.value = evaluation
            self.evaluated(logits)
        k = len(self.codes)
        self.visits = np.zeros(k)
        self.total = np.zeros(k)
        self.children: list[dict[tuple, Node] | None] = [None] * k

    def evaluated(self, logits: np.ndarray) -> None:
        """Take the network's ``logits`` of the legal codes (the node's policy)."""
        self.logits = np.asarray(logits, dtype=np.float64)
        self.prior = _softmax(self.logits)

    def completed_q(self) -> np.ndarray:
        """The mover's value of each edge: the mean for a visited edge, else the mixed value (Danihelka et al.,
        appendix D): the network's value averaged with the prior-weighted values of the visited edges."""
        n = self.visits
        seen = n > 0
        own = self.value[self.mover]
        if not seen.any():
            return np.full(len(n), own)
        q = np.where(seen, self.total / np.maximum(n, 1), 0.0)
        weight = self.prior[seen].sum()
        mixed = (own + n.sum() * (self.prior[seen] * q[seen]).sum() / max(weight, 1e-12)) / (1.0 + n.sum())
        return np.where(seen, q, mixed)

    def sigma(self, c_visit: float, c_scale: float) -> np.ndarray:
        q = self.completed_q()
        lo, hi = q.min(), q.max()
        q = (q - lo) / max(hi - lo, 1e-8)
        return (c_visit + self.visits.max()) * c_scale * q


@dataclass
class SearchResult:
    """What a search decided at its root."""

    codes: list[int]
    """The root's legal codes."""
    choice: int
    """Index into ``codes`` of the move to play."""
    policy: np.ndarray
    """The policy target over ``codes`` (sums to 1)."""
    value: float
    """The search's value of the root for the seat to move."""

    @property
    def code(self) -> int:
        return self.codes[self.choice]


class Search:
    """One search configuration (module docstring); ``rng`` drives the determinizations and the noise."""

    def __init__(
        self,
        sims: int,
        rng: np.random.Generator,
        mode: str = "gumbel",
        noise: bool = False,
        max_considered: int = MAX_CONSIDERED,
        c_visit: float = C_VISIT,
        c_scale: float = C_SCALE,
        c_puct: float = C_PUCT,
        horizon: Horizon | None = None,
        rollout: float = 0.0,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
        if isinstance(sims, bool) or not isinstance(sims, int) or sims < 0:
            raise ValueError(f"sims is a whole number of simulations, 0 or more; got {sims!r}")
        check_rollout(rollout)
        self.sims = sims
        self.rng = rng
        self.mode = mode
        self.noise = noise
        self.max_considered = max(1, max_considered)
        self.c_visit, self.c_scale, self.c_puct = c_visit, c_scale, c_puct
        self.horizon = horizon or horizon_for("game")
        self.rollout = float(rollout)
        self._uniform = Uniforms(rng)
        self._base = None

    def run(self, view: State) -> Request:
        """The search from ``view`` (a public view at a decision) as a generator of evaluation requests."""
        if view.done:
            raise ValueError("the game is over: there is no decision to search")
        # Redact again: a caller that passes the real state still gets a search that cannot depend on the
        # face-down order (determinize shuffles the order it is given, so that order must carry no information).
        view = public_view(view)
        self._base = self.horizon.start(view)
        root = self._node(view, (yield view), determinize(view, self.rng) if self.rollout else None)
        k = len(root.codes)
        if self.sims == 0 or k == 1:
            logits = root.logits + (self.rng.gumbel(size=k) if self.noise and k > 1 else 0.0)
            return SearchResult(root.codes, int(np.argmax(logits)), root.prior, float(root.value[root.mover]))
        if self.mode == "gumbel":
            return (yield from self._gumbel_root(root, view))
        return (yield from self._puct_root(root, view))

    # -- the root -------------------------------------------------------------------------------------------
    def _gumbel_root(self, root: Node, view: State) -> Request:
        k = len(root.codes)
        g = self.rng.gumbel(size=k) if self.noise else np.zeros(k)
        m = min(self.max_considered, k, self.sims)
        remaining = list(np.argsort(-(g + root.logits), kind="stable")[:m])
        phases = max(1, math.ceil(math.log2(m)))
        used = 0
        for phase in range(phases):
            per = max(1, self.sims // (phases * len(remaining)))
            if phase == phases - 1:  # the last round spends what is left
                per = max(per, (self.sims - used) // len(remaining))
            for _ in range(per):
                for a in remaining:
                    if used == self.sims:
                        break
                    yield from self._simulate(root, view, int(a))
                    used += 1
            if len(remaining) > 1:
                score = g + root.logits + root.sigma(self.c_visit, self.c_scale)
                remaining = sorted(remaining, key=lambda a: -score[a])[: max(1, math.ceil(len(remaining) / 2))]
        score = g + root.logits + root.sigma(self.c_visit, self.c_scale)
        choice = int(max(remaining, key=lambda a: score[a]))
        policy = _softmax(root.logits + root.sigma(self.c_visit, self.c_scale))
        return SearchResult(root.codes, choice, policy, float(root.completed_q()[choice]))

    def _puct_root(self, root: Node, view: State) -> Request:
        if self.noise:
            k = len(root.codes)
            root.prior = (1 - DIRICHLET_SHARE) * root.prior + DIRICHLET_SHARE * self.rng.dirichlet([DIRICHLET_ALPHA] * k)
        for _ in range(self.sims):
            yield from self._simulate(root, view, self._select(root))
        n = root.visits
        policy = n / n.sum()
        if self.noise:
            choice = int(self.rng.choice(len(n), p=policy))
        else:
            q = root.total / np.maximum(n, 1)
            choice = int(max(range(len(n)), key=lambda a: (n[a], q[a])))
        return SearchResult(root.codes, choice, policy, float((root.total.sum()) / n.sum()))

    # -- one simulation -------------------------------------------------------------------------------------
    def _simulate(self, root: Node, view: State, first: int) -> Generator[State, Evaluation, None]:
        state = determinize(view, self.rng)
        node, a = root, first
        path: list[tuple[Node, int]] = []
        while True:
            state.play_code(node.codes[a])
            path.append((node, a))
            if self.horizon.over(state, self._base):
                values = self.horizon.result(state, self._base)
                break
            children = node.children[a]
            if children is None:
                children = node.children[a] = {}
            key = public_key(state)
            child = children.get(key)
            if child is None:
                if self.rollout == 1.0:  # the leaf's value is its playout's: the network waits for a second visit
                    child = children[key] = self._played_node(state)
                else:
                    child = children[key] = self._node(state, (yield state))
                values = child.value
                break
            if child.logits is None:
                child.evaluated((yield state)[0])
            node, a = child, self._select(child)
        for node, a in path:
            node.visits[a] += 1
            node.total[a] += values[node.mover]

    def _node(self, state: State, evaluation: Evaluation, playout: State | None = None) -> Node:
        """The node of ``state`` (evaluated); with rollouts, ``playout`` (default: ``state`` itself, which the
        simulation no longer needs) is played out to the horizon for its share of the values."""
        logits, values = evaluation
        node = Node(state, (logits, self.horizon.leaf(state, self._base, values)))
        if self.rollout:
            result = self._playout(state if playout is None else playout)
            node.value = [(1.0 - self.rollout) * v + self.rollout * r for v, r in zip(node.value, result)]
        return node

    def _played_node(self, state: State) -> Node:
        """A new node valued by a greedy playout of ``state`` alone (``rollout`` 1), its policy not yet asked for."""
        node = Node(state, None)  # its codes and mover, read before the playout moves the state on
        node.value = self._playout(state)
        return node

    def _playout(self, state: State) -> list[float]:
        """Every seat's result of one greedy playout of ``state`` (played on) to the horizon."""
        greedy_playout(state, GREEDY, self._uniform, lambda s: self.horizon.over(s, self._base))
        return self.horizon.result(state, self._base)

    def _select(self, node: Node) -> int:
        n = node.visits
        if self.mode == "gumbel":
            improved = _softmax(node.logits + node.sigma(self.c_visit, self.c_scale))
            return int(np.argmax(improved - n / (1.0 + n.sum())))
        q = np.where(n > 0, node.total / np.maximum(n, 1), node.value[node.mover])
        u = self.c_puct * node.prior * math.sqrt(max(n.sum(), 1.0)) / (1.0 + n)
        return int(np.argmax(q + u))


def check_rollout(rollout: float) -> None:
    """Raise ``ValueError`` unless ``rollout`` is a share in [0, 1]."""
    if not is_share(rollout):
        raise ValueError(f"rollout is the playouts' share of a leaf's value, 0 to 1; got {rollout!r}")


def drive(request: Request, evaluate: Callable[[Sequence[State]], list[Evaluation]]) -> SearchResult:
    """Run one search to its end, answering each request with ``evaluate`` (a batch of one)."""
    try:
        state = next(request)
        while True:
            state = request.send(evaluate([state])[0])
    except StopIteration as stop:
        return stop.value


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()
