"""The expectimax search of the search-guided agent: every move to a depth, the network's values at the leaves.

Where the tree search of ``agents.az.search`` samples a few moves deep, this one looks at every legal move of
every seat, a fixed number of decisions (``depth``) ahead, as a chess engine does, and asks the network only for
the values of the positions where it stops. It plays a network trained by the tree search's self-play: the
network file names the search it plays with (``meta["search"]``: ``tree`` or ``expectimax``).

**The tree.** A decision node holds every legal move of its seat. A move is followed on one determinization
of the root's public view (``agents.view.determinize``) as long as it turns nothing face up
(``State.face_down`` stays the same): those moves lead to the same public state whatever the hidden order is,
so one copy of the game stands for them all. A move that turns tiles up (a draw from the pile, a new stack top,
a new deal) is a *chance* node: its outcomes are sampled, each from its own determinization of the position
before the move, and each sample is a leaf valued by the network (the next decision, with the tile drawn in
view), or by its result where that draw ends the line (a move may end the hand with one order of the pile and
not with another). A line also ends at ``depth`` decisions, where the network values it, and at the horizon
(``agents.az.horizon``: the end of the hand or of the game), where the result values it exactly. Like the tree
search it starts from the public view and never reads the face-down order: every sample draws its own.

**Values per seat (max^n).** A leaf has every seat's value from the root (``Horizon.leaf``: the margin made on
the way plus the rest the network expects, with the file's stakes). A decision node takes the values of the
child best for the seat to move there, a chance node the mean of its samples. Heads-up this is expectiminimax;
at three to seven seats max^n, each seat playing for itself.

**The budget** (``budget``: the network evaluations of a decision besides the root's own, what ``az:PATH:SIMS``
sets). The tree is built to the deepest ``depth`` whose first pass fits the budget: every leaf of the
deterministic lines and ``FIRST_SAMPLES`` samples of each chance node (at depth 1, one evaluation per legal move
at least). The rest of the budget goes to the chance nodes that decide the root's values, in rounds: after each
round's evaluations, each root move's principal lines are followed down (at each decision, every move within
``MARGIN`` of the best for its seat), and each chance node met there doubles its samples, up to ``MAX_SAMPLES``.
A sample that meets an outcome met before (the same tiles drawn: the same public state) shares that leaf and
costs no evaluation, as does one that ends the line. A round's leaves are evaluated in one batch (``Request``, as
the tree search's, so ``drive`` and the batched evaluators serve both).

**The result.** The move played is the root move with the highest value for the seat to move (ties to the
network's preferred move). The policy (``SearchResult.policy``) is the improved policy of the tree search,
``softmax(logits + sigma(q))``, with every root move's value completed, since every move was searched. With
``budget=0``, or a single legal move, the network's policy alone decides. ``rollout`` mixes a greedy playout's
result into every leaf's value, as in the tree search (at 1 the playout alone: the leaves still count against
the budget), and ``endgame`` tries the exact endgame first (``agents.az.endgame``).

Measured against the tree search in ``docs/training.md`` (*The expectimax search*).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from agents.playout import Uniforms
from agents.view import determinize, public_view
from contack_env.checks import is_whole_number
from contack_env.protocol import State

from .endgame import EndgameTable
from .horizon import Horizon, horizon_for
from .search import C_SCALE, C_VISIT, Request, SearchResult, check_rollout, exact_result, playout_values

SEARCHES = ("tree", "expectimax")
"""The searches a network file may name for its agent (``meta["search"]``): the tree search of self-play
(``agents.az.search``, in the file's ``mode``) or this one."""
DEPTH = 8
"""Decisions looked ahead at most (heads-up Contack's lines nearly all end at a draw or the hand's end before)."""
FIRST_SAMPLES = 2
"""Samples of every chance node in the first pass."""
MAX_SAMPLES = 32
"""The most samples of one chance node."""
MARGIN = 0.02
"""How close to the best value (on the 0..1 scale of the values) a move must be to count as a principal line."""


class _Chance:
    """A move that turns tiles up: the position before it (a determinization), the move, the samples, and the
    leaf that first met each outcome (by its public key)."""

    __slots__ = ("state", "code", "samples", "value", "outcomes")

    def __init__(self, state: State, code: int) -> None:
        self.state = state
        self.code = code
        self.samples: list[_Child] = []
        self.value: list[float] = []
        self.outcomes: dict[tuple, _Leaf] = {}


class _Decision:
    """A decision on the deterministic lines: the seat to move and each legal move's child."""

    __slots__ = ("mover", "codes", "children", "value")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.codes: list[int] = []
        self.children: list[_Child] = []
        self.value: list[float] = []


class _Leaf:
    """A position whose values come from the network (``net``: its values seen from the root; ``value`` with a
    playout's share mixed in) or are known (``value``)."""

    __slots__ = ("value", "net")

    def __init__(self, value: list[float] | None = None) -> None:
        self.value = value if value is not None else []
        self.net: list[float] = []


_Child = _Decision | _Chance | _Leaf


class _TooMany(Exception):
    """The first pass of a tree at this depth needs more evaluations than the budget."""


class Expectimax:
    """One search configuration (module docstring); ``rng`` draws the determinizations. ``run`` keeps the search
    under way on the object: one search at a time (make one per decision)."""

    def __init__(
        self,
        budget: int,
        rng: np.random.Generator,
        horizon: Horizon | None = None,
        depth: int = DEPTH,
        first_samples: int = FIRST_SAMPLES,
        max_samples: int = MAX_SAMPLES,
        margin: float = MARGIN,
        rollout: float = 0.0,
        endgame: int = 0,
        table: EndgameTable | None = None,
    ) -> None:
        for name, value, least in (("budget", budget, 0), ("depth", depth, 1), ("first_samples", first_samples, 1),
                                   ("max_samples", max_samples, 1), ("endgame", endgame, 0)):
            if not is_whole_number(value) or value < least:
                raise ValueError(f"{name} is a whole number, {least} or more; got {value!r}")
        if first_samples > max_samples:
            raise ValueError(f"first_samples ({first_samples}) is at most max_samples ({max_samples})")
        # NaN fails both comparisons
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0.0 <= margin <= 1.0:
            raise ValueError(f"margin is a number from 0 to 1 (on the scale of the values); got {margin!r}")
        check_rollout(rollout)
        self.budget = budget
        self.rng = rng
        self.horizon = horizon or horizon_for("game")
        self.depth = depth
        self.first_samples = first_samples
        self.max_samples = max_samples
        self.margin = float(margin)
        self.rollout = float(rollout)
        self.endgame = endgame
        self.table = table
        self._uniform = Uniforms(rng)
        self._base: object = None
        self._pending: list[tuple[_Leaf, State]] = []
        self._followers: list[tuple[_Leaf, _Leaf, State]] = []
        self._evaluations = 0
        self._limit = -1
        self._samples = first_samples

    def run(self, view: State) -> Request:
        """The search from ``view`` (a public view at a decision) as a generator of evaluation requests."""
        if view.done:
            raise ValueError("the game is over: there is no decision to search")
        view = public_view(view)  # redact again: the search must not depend on an order it was handed
        exact = exact_result(view, self.endgame, self.table)
        if exact is not None:
            return exact
        codes = list(view.legal_codes())
        self._base = self.horizon.start(view)
        if self.budget == 0 or len(codes) == 1:  # the network's policy alone
            logits, values = (yield [view])[0]
            prior = np.exp(np.asarray(logits, dtype=np.float64) - max(logits))
            value = self.horizon.leaf(view, self._base, values)
            return SearchResult(codes, int(np.argmax(logits)), prior / prior.sum(), float(value[view.current_player]),
                                value)
        start = determinize(view, self.rng)
        root = self._first_pass(start)
        chances = _walk_chances(root)
        # the root's own evaluation rides with the first batch: its logits break ties and make the policy
        answers = yield [view] + [state for _, state in self._pending]
        logits = np.asarray(answers[0][0], dtype=np.float64)
        self._take(answers[1:])
        while self._evaluations < self.budget and chances:
            _values(root)
            growing = [node for node in self._principal(root) if len(node.samples) < self.max_samples]
            if not growing:
                break
            for node in growing:
                for _ in range(min(len(node.samples), self.max_samples - len(node.samples))):  # doubled
                    if self._evaluations >= self.budget:
                        break
                    node.samples.append(self._sample(node))
            if self._pending:
                self._take((yield [state for _, state in self._pending]))
        _values(root)
        q = np.array([child.value[root.mover] for child in root.children])
        best = q.max()
        choice = max((a for a in range(len(q)) if q[a] == best), key=lambda a: logits[a])
        # the improved policy of the tree search, every move's value known: sigma over the root's spread of values
        leaves = max(_count_leaves(child) for child in root.children)
        spread = max(best - q.min(), 1e-8)
        improved = logits + (C_VISIT + leaves) * C_SCALE * (q - q.min()) / spread
        policy = np.exp(improved - improved.max())
        return SearchResult(codes, choice, policy / policy.sum(), float(best), list(root.children[choice].value))

    # -- building the tree ----------------------------------------------------------------------------------
    def _first_pass(self, start: State) -> _Decision:
        """The tree at the deepest depth whose first pass fits the budget; else one move ahead with one sample of
        each chance node (an evaluation per legal move, whatever the budget)."""
        tries = [(depth, self.first_samples, self.budget) for depth in range(self.depth, 0, -1)] + [(1, 1, -1)]
        for depth, samples, limit in tries:
            self._pending, self._followers = [], []
            self._evaluations = 0
            self._samples = samples
            self._limit = limit
            try:
                root = self._decision(start, depth)
            except _TooMany:
                continue
            self._limit = -1  # the rounds stop at the budget themselves
            return root
        raise AssertionError("the last try has no limit")  # pragma: no cover

    def _decision(self, state: State, depth: int) -> _Decision:
        node = _Decision(state.current_player)
        hidden = state.face_down()
        sub: _Child
        for code in state.legal_codes():
            child = state.clone()
            child.play_code(code)
            # a draw first: a move that draws may end the hand with one pile order and not with another
            if child.face_down() < hidden:
                chance = sub = _Chance(state, code)
                chance.samples.append(self._settled(chance, child))
                for _ in range(self._samples - 1):
                    chance.samples.append(self._sample(chance))
            elif self.horizon.over(child, self._base):
                sub = _Leaf(self.horizon.result(child, self._base))
            elif depth == 1:
                sub = self._leaf(child)
            else:
                sub = self._decision(child, depth - 1)
            node.codes.append(code)
            node.children.append(sub)
        return node

    def _sample(self, node: _Chance) -> _Leaf:
        """One more outcome of the chance node, on a determinization of its own."""
        child = determinize(node.state, self.rng)
        child.play_code(node.code)
        return self._settled(node, child)

    def _settled(self, node: _Chance, child: State) -> _Leaf:
        """The leaf of the outcome ``child`` of ``node``: its known result where it ends the line, else the
        network's values."""
        if self.horizon.over(child, self._base):
            return _Leaf(self.horizon.result(child, self._base))
        return self._outcome(node, child)

    def _outcome(self, node: _Chance, child: State) -> _Leaf:
        """The leaf of an outcome ``child`` of ``node``. An outcome met before is the same public state, whose
        network values are known or asked for already: it costs no evaluation (only its playout, with rollouts)."""
        key = child.public_key()
        first = node.outcomes.get(key)
        if first is None:
            leaf = node.outcomes[key] = self._leaf(child)
            return leaf
        if not self.rollout:
            return first
        follower = _Leaf()
        if first.net:
            follower.value = self._mixed(first.net, child)
        else:
            self._followers.append((follower, first, child))
        return follower

    def _leaf(self, state: State) -> _Leaf:
        leaf = _Leaf()
        self._evaluations += 1
        if 0 <= self._limit < self._evaluations:
            raise _TooMany
        self._pending.append((leaf, state))
        return leaf

    def _take(self, answers: Sequence[tuple[np.ndarray, list[float]]]) -> None:
        """The network's answers for the pending leaves, in order."""
        for (leaf, state), (_, values) in zip(self._pending, answers, strict=True):
            leaf.net = self.horizon.leaf(state, self._base, values)
            leaf.value = self._mixed(leaf.net, state) if self.rollout else leaf.net
        for follower, first, state in self._followers:
            follower.value = self._mixed(first.net, state)
        self._pending, self._followers = [], []

    def _mixed(self, net: list[float], state: State) -> list[float]:
        """``net`` mixed with the result of one greedy playout of ``state`` (played on), ``rollout`` of it."""
        played = playout_values(state, self.horizon, self._base, self._uniform)
        return [(1.0 - self.rollout) * v + self.rollout * r for v, r in zip(net, played)]

    # -- the rounds -----------------------------------------------------------------------------------------
    def _principal(self, root: _Decision) -> list[_Chance]:
        """The chance nodes on the principal lines of every root move, in the tree's order."""
        out: list[_Chance] = []
        stack: list[_Child] = list(reversed(root.children))
        while stack:
            node = stack.pop()
            if isinstance(node, _Chance):
                out.append(node)
            elif isinstance(node, _Decision):
                m = node.mover
                best = node.value[m] - self.margin
                stack.extend(child for child in reversed(node.children) if child.value[m] >= best)
        return out


def _values(node: _Child) -> list[float]:
    """Every node's values, bottom up (the tree is small: a round recomputes them all)."""
    if isinstance(node, _Leaf):
        return node.value
    if isinstance(node, _Chance):
        samples = [_values(s) for s in node.samples]
        node.value = [sum(v) / len(samples) for v in zip(*samples)]
        return node.value
    m = node.mover
    best: list[float] = []
    for child in node.children:
        v = _values(child)
        if not best or v[m] > best[m]:
            best = v
    node.value = best
    return best


def _walk_chances(node: _Child) -> list[_Chance]:
    if isinstance(node, _Chance):
        return [node]
    if isinstance(node, _Decision):
        return [c for child in node.children for c in _walk_chances(child)]
    return []


def _count_leaves(node: _Child) -> int:
    if isinstance(node, _Leaf):
        return 1
    if isinstance(node, _Chance):
        return len(node.samples)
    return sum(_count_leaves(child) for child in node.children)
