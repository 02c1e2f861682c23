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
``leaf_playout`` (``LeafPlayout``) puts another judgement of a leaf in the playout's place, for experiments:
``training.az.leaf_oracle`` values leaves by the mean of the ``lookahead`` bot's continuations.

**Leaf moves** (``leaf_moves``). With ``leaf_moves = K > 0`` a new leaf is valued further on: ``K`` moves
are played on from it in the simulation's determinization, each the one that scores the most now (the
playout's greedy move, ``agents.playout.greedy_moves``; no random number), and the network's values there, or
the horizon's result if the hand or game ends on the way, are the leaf's values (mixed with a playout's from
there with ``rollout``). The leaf's own policy is asked for when a simulation comes back to it, as with
``rollout = 1``. At four players, where three other seats move between two of the agent's decisions, the leaf
is then judged after the next seats' likeliest replies (``docs/training.md``).

**Endgame** (``endgame``, a budget of positions; 0, the default, turns it off). Before searching, a one-player
game close to its end whose chance can be listed (Solitaire No. 2) is searched exactly instead
(``agents.az.endgame``, its values kept in ``table`` when one is given): when that search settles the decision
within the budget, its move is played, with the policy target on that move and its chance of winning as the
value.

**Selection.** ``mode="gumbel"`` (Gumbel AlphaZero, Danihelka et al. 2022): at the root, the ``max_considered``
moves with the highest ``g + logit`` (``g`` Gumbel noise when ``noise`` is on, else 0) are searched by
sequential halving, each round keeping the better half by ``g + logit + sigma(q)``; the move played is the best
survivor; below the root, the move maximising ``pi'(a) - N(a) / (1 + sum N)`` with ``pi' = softmax(logit +
sigma(completed q))``. The policy target is ``pi'`` at the root: an improvement of the network's policy even
with a handful of simulations. ``mode="visits"`` (AlphaZero): PUCT everywhere, Dirichlet noise on the root
priors when ``noise`` is on, the most visited move played (a draw in proportion to the visits with ``noise``),
the visit counts as the policy target. ``sigma(q) = (c_visit + max N) * c_scale * q`` over the completed
values rescaled to [0, 1] within the node, as in ``mctx``.

**Batching.** ``Search.run`` is a generator: it yields a list of states whose network evaluations it needs and
receives their ``(logits of the legal codes, per-seat values)``, in order. A round of sequential halving sends
one simulation down each root move still considered; these go through disjoint subtrees (a simulation's first
move is given, and nothing below the root is shared), so they run side by side and their leaves are evaluated
in one batch. Without playouts the decisions are those of running them one after another, up to float rounding;
with playouts (which draw from the same generator as the determinizations) the random numbers go to other
simulations: the same distribution, other samples. ``drive`` answers one search; ``training.az.selfplay`` runs many games' searches side by
side and answers all their requests in one batch. ``sims=0`` plays the network's policy alone (one
evaluation, no search).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Generator, Sequence

import numpy as np

from agents.playout import GREEDY, Uniforms, greedy_moves, greedy_playout, is_share
from agents.view import determinize, public_view
from contack_env.checks import is_whole_number
from contack_env.protocol import State

from .endgame import EndgameTable, exact_decision
from .horizon import Horizon, horizon_for

LeafPlayout = Callable[[State, Horizon, object, np.random.Generator], list[float]]
"""What values a leaf in place of the greedy playout (``leaf_playout``): called with the simulation's state (its
hidden tiles drawn by the simulation; it may be played on in place), the horizon, the root's ``horizon.start``
and the search's generator; returns every seat's value (table order)."""

MODES = ("gumbel", "visits")
MAX_SIMS = 100_000
"""The most simulations a decision: a search past it would take minutes a move (``az:PATH:SIMS``, ``--sims``,
``--play-sims``)."""
C_VISIT = 50.0
C_SCALE = 0.1
C_PUCT = 1.25
DIRICHLET_ALPHA = 0.3
DIRICHLET_SHARE = 0.25
MAX_CONSIDERED = 8

Evaluation = tuple[np.ndarray, list[float]]
"""The network's answer for one state: the logits of its legal codes (in ``legal_codes()`` order) and the value
of every seat in table order."""
Request = Generator[list[State], list[Evaluation], "SearchResult"]
"""A search: it yields batches of states to evaluate, receives their evaluations, and returns its result."""
Simulation = Generator[State, Evaluation, None]
"""One simulation: it yields at most one state to evaluate and backs its values up the tree."""


def public_key(state: State) -> tuple:
    """What a player sees of ``state`` beyond the moves that led to it (``contack_env.protocol.State.public_key``):
    the hands (draws, new deals: every hand is face up), Solitaire No. 1's drawn tile and discards, Solitaire
    No. 2's stack tops."""
    return state.public_key()


def num_seats(state: State) -> int:
    """The seats whose values the network gives at ``state`` (a solitaire's one player included)."""
    return state.num_players


class Node:
    """A public state at a decision: its legal codes, the network's logits and values, and edge statistics.

    The per-move numbers are plain lists: a node has a handful of moves, where numpy's cost per call would
    outweigh the arithmetic."""

    __slots__ = ("codes", "mover", "logits", "prior", "value", "visits", "total", "children")

    def __init__(self, state: State, evaluation: Evaluation | None) -> None:
        self.codes: list[int] = state.legal_codes()
        self.mover: int = state.current_player
        self.logits: list[float] | None = None
        self.prior: list[float] | None = None
        self.value: list[float] = []
        if evaluation is not None:  # else the caller sets the values (a playout's) and the policy comes when needed
            logits, self.value = evaluation
            self.evaluated(logits)
        k = len(self.codes)
        self.visits: list[int] = [0] * k
        self.total: list[float] = [0.0] * k
        self.children: list[dict[tuple, Node] | None] = [None] * k

    def evaluated(self, logits: Sequence[float]) -> None:
        """Take the network's ``logits`` of the legal codes (the node's policy)."""
        self.logits = [float(x) for x in logits]
        self.prior = _softmax(self.logits)

    def completed_q(self) -> list[float]:
        """The mover's value of each edge: the mean for a visited edge, else the mixed value (Danihelka et al.,
        appendix D): the network's value averaged with the prior-weighted values of the visited edges."""
        own = self.value[self.mover]
        count = sum(self.visits)
        if not count:
            return [own] * len(self.visits)
        weight = weighted = 0.0
        for p, n, t in zip(self.prior, self.visits, self.total):  # type: ignore[arg-type]
            if n:
                weight += p
                weighted += p * t / n
        mixed = (own + count * weighted / max(weight, 1e-12)) / (1.0 + count)
        return [t / n if n else mixed for n, t in zip(self.visits, self.total)]

    def sigma(self, c_visit: float, c_scale: float) -> list[float]:
        """``sigma(completed q)``: the completed values rescaled to [0, 1] within the node, times
        ``(c_visit + max N) * c_scale``."""
        q = self.completed_q()
        lo = min(q)
        scale = (c_visit + max(self.visits)) * c_scale / max(max(q) - lo, 1e-8)
        return [(x - lo) * scale for x in q]


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
    values: list[float]
    """Every seat's value (table order) of the move played: the mean of the values the simulations through it
    backed up (the root's own values when none went through it)."""

    @property
    def code(self) -> int:
        return self.codes[self.choice]


class Search:
    """One search configuration (module docstring); ``rng`` drives the determinizations and the noise. ``run``
    keeps the search under way on the object: one search at a time (make a ``Search`` per decision)."""

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
        endgame: int = 0,
        table: EndgameTable | None = None,
        leaf_moves: int = 0,
        leaf_playout: LeafPlayout | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
        if not is_whole_number(sims) or sims < 0:
            raise ValueError(f"sims is a whole number of simulations, 0 or more; got {sims!r}")
        check_rollout(rollout)
        check_leaf_moves(leaf_moves, rollout)
        self.sims = sims
        self.rng = rng
        self.mode = mode
        self.noise = noise
        self.max_considered = max(1, max_considered)
        self.c_visit, self.c_scale, self.c_puct = c_visit, c_scale, c_puct
        self.horizon = horizon or horizon_for("game")
        self.rollout = float(rollout)
        self.leaf_moves = leaf_moves
        self.leaf_playout = leaf_playout
        if not is_whole_number(endgame) or endgame < 0:
            raise ValueError(f"endgame is a budget of positions, 0 (off) or more; got {endgame!r}")
        self.endgame = endgame
        self.table = table
        self._uniform = Uniforms(rng)
        self._base = None
        self._seat_totals: list[list[float]] = []

    def run(self, view: State) -> Request:
        """The search from ``view`` (a public view at a decision) as a generator of evaluation requests."""
        if view.done:
            raise ValueError("the game is over: there is no decision to search")
        # Redact again: a caller that passes the real state still gets a search that cannot depend on the
        # face-down order (determinize shuffles the order it is given, so that order must carry no information).
        view = public_view(view)
        exact = exact_result(view, self.endgame, self.table)
        if exact is not None:
            return exact
        self._base = self.horizon.start(view)
        root = self._node(view, (yield [view])[0], determinize(view, self.rng) if self.rollout else None)
        k = len(root.codes)
        self._seat_totals = [[0.0] * len(root.value) for _ in range(k)]  # per root move, every seat's backed-up sum
        if self.sims == 0 or k == 1:
            logits = np.asarray(root.logits) + (self.rng.gumbel(size=k) if self.noise and k > 1 else 0.0)
            return SearchResult(root.codes, int(np.argmax(logits)), np.asarray(root.prior),
                                float(root.value[root.mover]), list(root.value))
        if self.mode == "gumbel":
            return (yield from self._gumbel_root(root, view))
        return (yield from self._puct_root(root, view))

    # -- the root -------------------------------------------------------------------------------------------
    def _gumbel_root(self, root: Node, view: State) -> Request:
        k = len(root.codes)
        g = (self.rng.gumbel(size=k) if self.noise else np.zeros(k)) + np.asarray(root.logits)  # g + logit
        m = min(self.max_considered, k, self.sims)
        remaining = list(np.argsort(-g, kind="stable")[:m])
        phases = max(1, math.ceil(math.log2(m)))
        used = 0
        for phase in range(phases):
            per = max(1, self.sims // (phases * len(remaining)))
            if phase == phases - 1:  # the last round spends what is left
                per = max(per, (self.sims - used) // len(remaining))
            for _ in range(per):
                firsts = remaining[: self.sims - used]
                yield from _side_by_side([self._simulate(root, view, int(a)) for a in firsts])
                used += len(firsts)
            if len(remaining) > 1:
                score = g + root.sigma(self.c_visit, self.c_scale)
                remaining = sorted(remaining, key=lambda a: -score[a])[: max(1, math.ceil(len(remaining) / 2))]
        sigma = np.asarray(root.sigma(self.c_visit, self.c_scale))
        score = g + sigma
        choice = int(max(remaining, key=lambda a: score[a]))
        logits = np.asarray(root.logits) + sigma
        policy = np.exp(logits - logits.max())
        return SearchResult(root.codes, choice, policy / policy.sum(), float(root.completed_q()[choice]),
                            self._values_of(root, choice))

    def _puct_root(self, root: Node, view: State) -> Request:
        if self.noise:
            k = len(root.codes)
            noise = self.rng.dirichlet([DIRICHLET_ALPHA] * k)
            root.prior = list((1 - DIRICHLET_SHARE) * np.asarray(root.prior) + DIRICHLET_SHARE * noise)
        for _ in range(self.sims):  # one at a time: each simulation's first move depends on the last one's values
            yield from _side_by_side([self._simulate(root, view, self._select(root))])
        n = np.asarray(root.visits, dtype=np.float64)
        total = np.asarray(root.total)
        policy = n / n.sum()
        if self.noise:
            choice = int(self.rng.choice(len(n), p=policy))
        else:
            q = total / np.maximum(n, 1)
            choice = int(max(range(len(n)), key=lambda a: (n[a], q[a])))
        return SearchResult(root.codes, choice, policy, float(total.sum() / n.sum()), self._values_of(root, choice))

    def _values_of(self, root: Node, a: int) -> list[float]:
        """Every seat's mean backed-up value through the root's move ``a`` (the root's values if none)."""
        n = root.visits[a]
        return [t / n for t in self._seat_totals[a]] if n else list(root.value)

    # -- one simulation -------------------------------------------------------------------------------------
    def _simulate(self, root: Node, view: State, first: int) -> Simulation:
        """One simulation that starts with the root's move ``first``: it yields the state it needs evaluated, if
        any, and backs its values up the path."""
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
                elif self.leaf_moves:  # valued further on: its own policy waits for a second visit
                    child = children[key] = Node(state, None)
                    child.value = yield from self._value_ahead(state)
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
        totals = self._seat_totals[first]
        for seat, v in enumerate(values):
            totals[seat] += v

    def _node(self, state: State, evaluation: Evaluation, playout: State | None = None) -> Node:
        """The node of ``state`` (evaluated); with rollouts, ``playout`` (default: ``state`` itself, which the
        simulation no longer needs) is played out to the horizon for its share of the values."""
        logits, values = evaluation
        node = Node(state, (logits, self.horizon.leaf(state, self._base, values)))
        if self.rollout:
            node.value = self._mixed(node.value, state if playout is None else playout)
        return node

    def _mixed(self, values: list[float], state: State) -> list[float]:
        """``values`` mixed with the result of one greedy playout of ``state`` (played on), ``rollout`` of it."""
        result = self._playout(state)
        return [(1.0 - self.rollout) * v + self.rollout * r for v, r in zip(values, result)]

    def _value_ahead(self, state: State) -> Generator[State, Evaluation, list[float]]:
        """A new leaf's values after ``leaf_moves`` greedy moves played on from ``state`` (in place): the horizon's
        result if it ends on the way, else the network's values there (mixed with a playout's with rollouts)."""
        greedy_moves(state, self.leaf_moves, lambda s: self.horizon.over(s, self._base))
        if self.horizon.over(state, self._base):
            return self.horizon.result(state, self._base)
        values = self.horizon.leaf(state, self._base, (yield state)[1])
        return self._mixed(values, state) if self.rollout else values

    def _played_node(self, state: State) -> Node:
        """A new node valued by a greedy playout of ``state`` alone (``rollout`` 1), its policy not yet asked for."""
        node = Node(state, None)  # its codes and mover, read before the playout moves the state on
        node.value = self._playout(state)
        return node

    def _playout(self, state: State) -> list[float]:
        """Every seat's result of one greedy playout of ``state`` (played on) to the horizon, or what
        ``leaf_playout`` makes of it."""
        if self.leaf_playout is not None:
            return self.leaf_playout(state, self.horizon, self._base, self.rng)
        return playout_values(state, self.horizon, self._base, self._uniform)

    def _select(self, node: Node) -> int:
        """The move a simulation takes at ``node``: below the root, and with PUCT at the root too (the first of
        equals)."""
        n = node.visits
        if self.mode == "gumbel":
            sigma = node.sigma(self.c_visit, self.c_scale)
            improved = _softmax([x + s for x, s in zip(node.logits, sigma)])  # type: ignore[arg-type]
            count = 1.0 + sum(n)
            scores = [p - v / count for p, v in zip(improved, n)]
        else:
            own = node.value[node.mover]
            c = self.c_puct * math.sqrt(max(sum(n), 1))
            scores = [(t / v if v else own) + c * p / (1.0 + v)
                      for p, v, t in zip(node.prior, n, node.total)]  # type: ignore[arg-type]
        return scores.index(max(scores))


def exact_result(view: State, endgame: int, table: EndgameTable | None) -> SearchResult | None:
    """The exact endgame's decision at ``view`` (``agents.az.endgame``, a budget of ``endgame`` positions) as a
    search's result, or None when it does not settle the decision: then no simulation could improve on it."""
    exact = exact_decision(view, endgame, table)
    if exact is None:
        return None
    codes = list(view.legal_codes())
    choice = codes.index(exact.code)
    return SearchResult(codes, choice, np.eye(len(codes))[choice], exact.value, [exact.value])


def playout_values(state: State, horizon: Horizon, base: object, uniform: Callable[[], float]) -> list[float]:
    """Every seat's result (table order) of one greedy playout (``agents.playout``) of ``state``, played on in
    place, to ``horizon``'s end for the root that gave ``base``."""
    greedy_playout(state, GREEDY, uniform, lambda s: horizon.over(s, base))
    return horizon.result(state, base)


def check_leaf_moves(leaf_moves: int, rollout: float = 0.0) -> None:
    """Raise ``ValueError`` unless ``leaf_moves`` is a whole number, 0 or more, that ``rollout`` leaves a use for."""
    if not is_whole_number(leaf_moves) or leaf_moves < 0:
        raise ValueError(f"leaf_moves is a whole number of greedy moves before a new leaf is valued, 0 or more; "
                         f"got {leaf_moves!r}")
    if leaf_moves and rollout == 1.0:
        raise ValueError("leaf_moves needs a rollout share below 1: with rollout 1 every new leaf is played out to "
                         "the end already")


def check_rollout(rollout: float) -> None:
    """Raise ``ValueError`` unless ``rollout`` is a share in [0, 1]."""
    if not is_share(rollout):
        raise ValueError(f"rollout is the playouts' share of a leaf's value, 0 to 1; got {rollout!r}")


def drive(request: Request, evaluate: Callable[[Sequence[State]], list[Evaluation]]) -> SearchResult:
    """Run one search to its end, answering each of its batches with ``evaluate``."""
    try:
        states = next(request)
        while True:
            states = request.send(evaluate(states))
    except StopIteration as stop:
        return stop.value


def _side_by_side(simulations: list[Simulation]) -> Generator[list[State], list[Evaluation], None]:
    """Run ``simulations`` (through disjoint subtrees) together: one batch of requests at a time."""
    asking = []
    for simulation in simulations:
        try:
            asking.append((simulation, next(simulation)))
        except StopIteration:
            pass
    while asking:
        answers = yield [state for _, state in asking]
        still = []
        for (simulation, _), answer in zip(asking, answers, strict=True):
            try:
                still.append((simulation, simulation.send(answer)))
            except StopIteration:
                pass
        asking = still


def _softmax(x: list[float]) -> list[float]:
    top = max(x)
    e = [math.exp(v - top) for v in x]
    total = sum(e)
    return [v / total for v in e]
