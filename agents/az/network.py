"""The policy-and-value network of the search-guided agent as a plain weight file (``contack-az/1``), run with
numpy alone.

The network: a trunk of fully connected layers over the input (``agents.az.encoding``), then

- a policy head: one logit per action, ``trunk @ wa + ba``, plus for Contack the factored scorer of
  ``training.networks`` (one small network shared by every action, fed with what the action places where and
  with a projection of the trunk), so that what is learned about one placement carries over to the others;
- a value head: one hidden layer, then one sigmoid per seat (relative to the seat to move), each the seat's
  expected result in [0, 1] (``agents.az.horizon``).

The file is a numpy ``.npz`` of arrays only (trunk ``w0``, ``b0``, ...; head ``wa``, ``ba``; scorer ``s_*``;
value ``vw0``, ``vb0``, ``vw1``, ``vb1``) and one JSON string ``meta``::

    {"format": "contack-az/1", "game": "contack", "activation": "relu", "obs_size": 997, "num_actions": 105,
     "seats": 7, "players": 2, "features": "lookahead", "horizon": "hand", "stakes": "margin", "rollout": 0.0, "sims": 32, "iterations": 120, "config": {...}}

read with ``numpy.load(allow_pickle=False)``: loading one cannot run code. ``sims`` is the search budget the
agent uses when its spec gives none (``az:PATH``); ``features`` the extra inputs after the observation
(``agents.az.encoding``; ``none`` when absent); ``horizon`` what the values are (``agents.az.horizon``; ``game``
when absent); ``stakes`` what the search plays for with the hand horizon, the hand's margin or the game
(``agents.az.horizon``; ``margin`` when absent); ``rollout`` the playouts' share of the search's leaf values
(``agents.az.search``; 0 when absent); ``leaf_moves`` the greedy moves the search plays on from a new leaf
before valuing it (``agents.az.search``; 0 when absent); ``search`` the search the agent plays with, ``tree``
(``agents.az.search``, the one self-play trains with) or ``expectimax`` (``agents.az.expectimax``; ``tree`` when
absent), ``sims`` then being its network evaluations a decision.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from agents.az.expectimax import SEARCHES
from agents.az.horizon import HORIZONS, STAKES
from agents.features import AZ_FEATURES
from agents.az.search import MAX_CONSIDERED, MODES, check_leaf_moves
from agents.playout import is_share
from agents.policy_file import (SCORER_KEYS, PolicyFileError, check_archive, check_finite, check_no_stray_arrays,
                                game_of, read_arrays)
from contack_env.atomic import open_atomic
from contack_env.checks import is_whole_number
from contack_env.contack.multiplayer import MAX_PLAYERS as MAX_SEATS

FORMAT = "contack-az/1"
ACTIVATIONS = ("relu", "tanh")


@dataclass
class AZNet:
    """Weights as ``(W, b)`` pairs applied as ``x @ W + b``; see the module docstring for the layout."""

    trunk: list[tuple[np.ndarray, np.ndarray]]
    head: tuple[np.ndarray, np.ndarray]
    value: list[tuple[np.ndarray, np.ndarray]]
    activation: str = "relu"
    meta: dict[str, Any] = field(default_factory=dict)
    scorer: dict[str, np.ndarray] | None = None

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise PolicyFileError(f"activation must be one of {', '.join(ACTIVATIONS)}; got {self.activation!r}")
        self._act = np.tanh if self.activation == "tanh" else _relu

    @property
    def obs_size(self) -> int:
        return int(self.trunk[0][0].shape[0])

    @property
    def num_actions(self) -> int:
        return int(self.head[0].shape[1])

    @property
    def seats(self) -> int:
        return int(self.value[-1][0].shape[1])

    @property
    def game(self) -> str:
        return game_of(self.meta)

    @property
    def horizon(self) -> str:
        """What its values are (``agents.az.horizon.HORIZONS``; ``game`` in older files)."""
        return str(self.meta.get("horizon", "game"))

    @property
    def stakes(self) -> str:
        """What its search plays for with the hand horizon (``agents.az.horizon.STAKES``; ``margin`` in older
        files)."""
        return str(self.meta.get("stakes", "margin"))

    @property
    def rollout(self) -> float:
        """The playouts' share of a leaf's value in its search (``agents.az.search``; 0 in older files)."""
        return float(self.meta.get("rollout", 0.0))

    @property
    def leaf_moves(self) -> int:
        """The greedy moves its search plays on from a new leaf before valuing it (``agents.az.search``; 0 in
        older files)."""
        return int(self.meta.get("leaf_moves", 0))

    @property
    def search(self) -> str:
        """The search its agent plays with (``agents.az.expectimax.SEARCHES``; ``tree`` in older files)."""
        return str(self.meta.get("search", "tree"))

    @property
    def features(self) -> str:
        """The extra inputs the network reads (``agents.features.AZ_FEATURES``; ``none`` in older files)."""
        return str(self.meta.get("features", "none"))

    def forward(self, obs: np.ndarray, actions: Sequence[Sequence[int]] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Logits ``(n, num_actions)`` and per-seat values ``(n, seats)`` for a batch of inputs ``(n, obs_size)``.

        With ``actions`` (input ``b``'s legal action indices ``actions[b]``) only those logits are computed in
        full; the others are left at the head's part alone and must not be read. Without, every action's is."""
        x = np.asarray(obs, dtype=np.float32)
        act = self._act
        (w, b), *rest = self.trunk
        # The inputs are mostly zeros (one-hot tiles and cells): the rows of the first layer's weights that meet a
        # nonzero input are all that count, and reading only them is most of a small batch's time.
        cols = np.flatnonzero(x.any(axis=0))
        x = act(x[:, cols] @ w[cols] + b)
        for w, b in rest:
            x = act(x @ w + b)
        w, b = self.head
        logits = x @ w + b
        sc = self.scorer
        if sc is not None:
            if actions is None:
                actions = [range(self.num_actions)] * len(obs)
            elif len(actions) != len(obs):
                raise ValueError(f"actions: one list of legal actions per input; got {len(actions)} for {len(obs)}")
            # The scorer, the larger part of the work, for the actions asked for alone (a tenth of them, typically).
            rows = np.repeat(np.arange(len(actions)), [len(a) for a in actions])
            cols = np.fromiter((a for legal in actions for a in legal), dtype=np.intp, count=len(rows))
            per_action = np.asarray(obs, dtype=np.float32)[rows[:, None], sc["gather"][cols]]  # (asked, features)
            hidden = act(per_action @ sc["wf"] + (x @ sc["wc"] + sc["bc"])[rows])
            logits[rows, cols] += (hidden @ sc["wo"])[:, 0] + sc["bo"][0]
        v = x
        for i, (w, b) in enumerate(self.value):
            v = v @ w + b
            if i + 1 < len(self.value):
                v = act(v)
        return logits, 1.0 / (1.0 + np.exp(-v))

    # -- files --------------------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike) -> None:
        """Write the file atomically (a reader never sees half a file)."""
        meta = {**self.meta, "format": FORMAT, "activation": self.activation, "obs_size": self.obs_size,
                "num_actions": self.num_actions, "seats": self.seats}
        arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
        for i, (w, b) in enumerate(self.trunk):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        arrays["wa"], arrays["ba"] = self.head
        for i, (w, b) in enumerate(self.value):
            arrays[f"vw{i}"], arrays[f"vb{i}"] = w, b
        for key, value in (self.scorer or {}).items():
            arrays[f"s_{key}"] = value
        with open_atomic(os.fspath(path), "wb", encoding=None) as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike, game: str | None = None) -> AZNet:
        """Read a ``contack-az/1`` file (arrays only, never pickles); ``game`` checks what it was trained for."""
        path = os.fspath(path)
        what = f"a {FORMAT} network file (a .npz written by `contack train --algorithm az`)"
        check_archive(path, "network file", what)
        arrays = read_arrays(path, what)
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except KeyError:
            raise PolicyFileError(f"{path} is not {what}: it has no 'meta' entry") from None
        except (json.JSONDecodeError, RecursionError) as err:
            raise PolicyFileError(f"{path}: its 'meta' entry is not JSON: {err}") from None
        if not isinstance(meta, dict):
            raise PolicyFileError(f"{path}: its 'meta' entry is not a JSON object")
        if meta.get("format") != FORMAT:
            # a PPO file without a game is Contack's; the hint only where ppo: could play it here
            playable = meta.get("format") == "contack-policy/1" and game in (None, game_of(meta))
            hint = " (a ppo policy file: play it as ppo:PATH)" if playable else ""
            raise PolicyFileError(f"{path}: format is {meta.get('format')!r}, expected {FORMAT!r}{hint}")
        if meta.get("features", "none") not in AZ_FEATURES:
            raise PolicyFileError(f"{path}: features is {meta.get('features')!r}; this version reads "
                                  f"{', '.join(AZ_FEATURES)}")
        if meta.get("horizon", "game") not in HORIZONS:
            raise PolicyFileError(f"{path}: horizon is {meta.get('horizon')!r}; this version reads "
                                  f"{', '.join(HORIZONS)}")
        if meta.get("stakes", "margin") not in STAKES:
            raise PolicyFileError(f"{path}: stakes is {meta.get('stakes')!r}; this version reads "
                                  f"{', '.join(STAKES)}")
        rollout = meta.get("rollout", 0.0)
        if not is_share(rollout):
            raise PolicyFileError(f"{path}: rollout is {rollout!r}; it is a share from 0 to 1")
        try:
            check_leaf_moves(meta.get("leaf_moves", 0), rollout)
        except ValueError as err:
            raise PolicyFileError(f"{path}: {err}") from None
        if meta.get("search", "tree") not in SEARCHES:
            raise PolicyFileError(f"{path}: search is {meta.get('search')!r}; this version reads {', '.join(SEARCHES)}")
        if meta.get("search") == "expectimax" and meta.get("leaf_moves", 0):
            raise PolicyFileError(f"{path}: leaf_moves is {meta['leaf_moves']!r}, but the expectimax search plays no "
                                  f"leaf moves (they are the tree search's); set it to 0")
        players = meta.get("players", 2)
        if not is_whole_number(players) or not 1 <= players <= MAX_SEATS:
            raise PolicyFileError(f"{path}: players is {players!r}; a table has 1 to {MAX_SEATS} seats")
        if meta.get("mode", "gumbel") not in MODES:
            raise PolicyFileError(f"{path}: mode is {meta.get('mode')!r}; this version reads {', '.join(MODES)}")
        considered = meta.get("max_considered", MAX_CONSIDERED)
        if not is_whole_number(considered) or considered < 1:
            raise PolicyFileError(f"{path}: max_considered is {considered!r}; it is a whole number of moves, at least 1")
        if game is not None and game_of(meta) != game:
            raise PolicyFileError(f"{path} is a network for {game_of(meta)!r}; it cannot play {game!r}")
        check_finite(arrays, path)
        try:
            trunk = _pairs(arrays, "w", "b")
            value = _pairs(arrays, "vw", "vb")
            head = (arrays["wa"].astype(np.float32), arrays["ba"].astype(np.float32))
            scorer = None
            if "s_gather" in arrays:
                scorer = {k: arrays[f"s_{k}"].astype(np.int64 if k == "gather" else np.float32) for k in SCORER_KEYS}
        except KeyError as err:
            raise PolicyFileError(f"{path}: the weights lack {err.args[0]}") from None
        if not trunk or not value:
            raise PolicyFileError(f"{path}: the weights lack the trunk or the value head")
        check_no_stray_arrays(arrays, {f"{w}{i}" for i in range(len(trunk)) for w in "wb"} | {"wa", "ba"}
                              | {f"{w}{i}" for i in range(len(value)) for w in ("vw", "vb")}
                              | ({f"s_{k}" for k in SCORER_KEYS} if scorer else set()), path)
        try:
            net = cls(trunk, head, value, meta.get("activation", "relu"), meta, scorer)
        except PolicyFileError as err:  # a setting of the file (its activation): name the file
            raise PolicyFileError(f"{path}: {err}") from None
        _check_shapes(net, path)
        return net


def _pairs(arrays: dict[str, np.ndarray], w: str, b: str) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    while f"{w}{len(out)}" in arrays:
        i = len(out)
        out.append((arrays[f"{w}{i}"].astype(np.float32), arrays[f"{b}{i}"].astype(np.float32)))
    return out


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0)


def _check_shapes(net: AZNet, path: str) -> None:
    def chain(layers: list[tuple[np.ndarray, np.ndarray]], width: int, what: str) -> int:
        for i, (w, b) in enumerate(layers):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise PolicyFileError(f"{path}: {what} layer {i} has shapes {w.shape} and {b.shape}, which do not chain")
            width = w.shape[1]
        return width

    width = chain(net.trunk, net.obs_size, "trunk")
    chain([net.head], width, "policy head")
    chain(net.value, width, "value")
    sc = net.scorer
    if sc is not None:
        g = sc["gather"]
        ok = (g.ndim == 2 and g.shape[0] == net.num_actions and g.min() >= 0 and g.max() < net.obs_size
              and sc["wf"].shape[0] == g.shape[1] and sc["wc"].shape[0] == width
              and sc["wf"].shape[1] == sc["wc"].shape[1] == sc["bc"].shape[0] == sc["wo"].shape[0])
        if not ok:
            raise PolicyFileError(f"{path}: the factored head's shapes do not fit the network")
    for key in ("obs_size", "num_actions", "seats"):
        if net.meta.get(key, getattr(net, key)) != getattr(net, key):
            raise PolicyFileError(f"{path}: meta says {key}={net.meta[key]}, the weights say {getattr(net, key)}")
