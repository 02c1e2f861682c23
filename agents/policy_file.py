"""Trained policies as plain weight files (``contack-policy/1``): saved, loaded and run with numpy alone.

A policy file is a numpy ``.npz`` archive holding only arrays: the actor's layers (``w0``, ``b0``, ``w1``, ...,
then the action head ``wa``, ``ba``; for the factored policy also its per-action scorer, ``s_gather``, ``s_wf``,
``s_wc``, ``s_bc``, ``s_wo``, ``s_bo``) and one string array ``meta``, a JSON object::

    {"format": "contack-policy/1", "game": "contack", "activation": "tanh", "obs_size": 892,
     "num_actions": 105, "players": 2, "features": "lookahead", "trained_steps": 1503232, "config": {...}}

Why not the Stable-Baselines3 ``.zip``: loading one unpickles Python objects, which can run code from the file.
``np.load(..., allow_pickle=False)`` reads arrays and nothing else, so a policy file from anyone is safe to
load; it is also small and needs neither torch nor SB3 to play. (Training checkpoints, which hold the optimizer
state as well, are SB3 zips; ``contack train --resume`` reads only their tensors, with
``torch.load(weights_only=True)``, and their JSON part, never their pickles.)

Acting is the actor of SB3's ``MaskableActorCriticPolicy``: the MLP's hidden layers, the action head's logits,
illegal actions masked out, then the arg-max (``deterministic=True``) or a sample.
"""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from contack_env.atomic import open_atomic
from contack_env.cli_support import printable, with_controls_escaped
from contack_env.games import RuleOptions, get_game
from contack_env.wording import plural

FORMAT = "contack-policy/1"
ACTIVATIONS = ("tanh", "relu")
SCORER_KEYS = ("gather", "wf", "wc", "bc", "wo", "bo")
"""The factored head's arrays, ``s_gather``, ``s_wf``, ... (docs/training.md, *The factored policy*), in a file that has one."""


class PolicyFileError(ValueError):
    """A policy file that is missing, not a policy file, or does not fit the game asked for."""

    def __init__(self, message: str) -> None:
        # Every message names the file: a path holding an escape sequence or a NUL is shown escaped, not run by
        # the terminal or shown as nothing.
        super().__init__(with_controls_escaped(message))


ARCHIVE_READ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError)
"""What reading a member of a zip archive (a ``.npz``) raises, besides ``OSError``, when the archive's directory is
whole and a member is not: a bad checksum, compressed data that does not inflate or ends early, a compression
method ``zipfile`` lacks, an encrypted member."""


def read_arrays(path: str, what: str) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` at ``path`` (``check_archive`` has passed), never unpickling; ``PolicyFileError``
    saying the file is damaged, or is not ``what``."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    except ARCHIVE_READ_ERRORS as err:
        raise PolicyFileError(f"{printable(path)} is a .npz archive whose contents are damaged "
                              f"({err or type(err).__name__}): copy or write it again") from None
    except (OSError, ValueError) as err:
        raise PolicyFileError(f"{printable(path)} is not {what}: {err}") from None


def game_of(meta: dict[str, Any]) -> str:
    """The game a policy or network file (its ``meta``) was trained for: files from before files named their game
    are Contack's."""
    return str(meta.get("game", "contack"))


def trained_options(meta: dict[str, Any], path: str) -> RuleOptions:
    """The rule options a policy or network file (its ``meta``) was trained under: the game's ``bound_options``
    as the file records them, the others at their defaults. ``PolicyFileError`` for one it does not record, or a
    value the game's rules do not allow."""
    spec = get_game(game_of(meta))
    missing = [name for name in spec.bound_options if name not in meta]
    if missing:
        raise PolicyFileError(f"{path}: a {spec.title} file records the rule options it was trained with "
                              f"({', '.join(spec.bound_options)}); it lacks {', '.join(missing)}")
    options = RuleOptions(**{name: meta[name] for name in spec.bound_options})
    try:
        spec.check_options(options)
    except ValueError as err:
        raise PolicyFileError(f"{path}: the rule options it records are not {spec.title}'s: {err}") from None
    return options


def check_archive(path: str, kind: str, what: str) -> None:
    """``PolicyFileError`` unless ``path`` is a readable zip archive (a ``.npz``), saying which of these it is
    not: missing ("no ``kind`` at ..."), a folder, a file that cannot be read (permission), not an archive at all
    (``what`` says what it should be)."""
    if not path:
        raise PolicyFileError(f"the path of the {kind} is empty")
    shown = printable(path)  # a name holding a control character is shown as Python writes it, quotes included
    if not os.path.exists(path):
        raise PolicyFileError(f"no {kind} at {shown}")
    if os.path.isdir(path):
        raise PolicyFileError(f"{shown} is a folder, not {what}")
    if not os.path.isfile(path):  # a device or a pipe: read to its end in search of an archive's, which has none
        raise PolicyFileError(f"{shown} is not a file on disk (a device or a pipe), not {what}")
    try:
        with open(path, "rb") as f:
            start = f.read(4)
    except OSError as err:
        raise PolicyFileError(f"{shown} cannot be read: {err.strerror or err}") from None
    if not zipfile.is_zipfile(path):
        if start == b"PK\x03\x04":  # an archive's first entry, and no directory at its end: a copy cut short
            raise PolicyFileError(f"{shown} is a .npz archive cut short or damaged (its end is missing): copy or "
                                  "write it again")
        # Said here: numpy's own message for such a file suggests loading it with allow_pickle=True.
        raise PolicyFileError(f"{shown} is not {what}: it is not a .npz archive at all")


def check_bound_options(path: str, trained: RuleOptions, options: RuleOptions, game: str) -> None:
    """``PolicyFileError`` unless a file trained under ``trained`` can play ``game`` under ``options``: each of the
    game's ``bound_options`` must have the value it was trained with."""
    for name in get_game(game).bound_options:
        then, now = getattr(trained, name), getattr(options, name)
        if then != now:
            raise PolicyFileError(f"{path} was trained {_setting(name, then)}; it cannot play {_setting(name, now)} "
                                  f"(use it {_setting(name, then)}, or a file trained {_setting(name, now)})")


def _setting(name: str, value: Any) -> str:
    """A rule option's value as the command line sets it: "with --board-size 5", "without --swap"."""
    flag = "--" + name.replace("_", "-")
    if isinstance(value, bool):
        return f"with {flag}" if value else f"without {flag}"
    return f"with {flag} {value}"


def shipped_models_folder() -> str:
    """The ``models/`` folder of the repository this package was installed from (``pip install -e .``).

    Relative to the current folder when it lies inside it (``models`` from the repository's root, so that agent
    specs and records read as the README's do), absolute otherwise, so that ``contack demo`` and ``contack
    serve`` find the shipped models from any folder. Without a checkout beside the package (an install from a
    wheel, which holds no models) it is ``models``, a folder of the current one.
    """
    checkout = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models")
    if not os.path.isdir(checkout):
        return "models"
    relative = os.path.relpath(checkout)
    return checkout if relative.startswith(os.pardir) else relative


@dataclass
class PolicyNet:
    """The actor of a trained policy: hidden layers ``(W, b)`` (``x @ W + b``, then the activation) and a head."""

    layers: list[tuple[np.ndarray, np.ndarray]]
    head: tuple[np.ndarray, np.ndarray]
    activation: str = "tanh"
    meta: dict[str, Any] = field(default_factory=dict)
    scorer: dict[str, np.ndarray] | None = None
    """The factored head of ``training.networks`` (None for a plain MLP): ``gather`` (actions x features
    observation indices), ``wf`` (features x width), ``wc``, ``bc`` (trunk x width, width), ``wo``, ``bo``."""

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise PolicyFileError(f"activation must be one of {', '.join(ACTIVATIONS)}; got {self.activation!r}")
        self._act = np.tanh if self.activation == "tanh" else _relu

    @property
    def obs_size(self) -> int:
        return int((self.layers[0][0] if self.layers else self.head[0]).shape[0])

    @property
    def num_actions(self) -> int:
        return int(self.head[0].shape[1])

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """The action logits for one observation (shape ``(obs_size,)``) or a batch (``(n, obs_size)``)."""
        x = np.asarray(obs, dtype=np.float32)
        for w, b in self.layers:
            x = self._act(x @ w + b)
        w, b = self.head
        logits = x @ w + b
        sc = self.scorer
        if sc is not None:
            per_action = np.asarray(obs, dtype=np.float32)[..., sc["gather"]]  # (..., actions, features)
            hidden = self._act(per_action @ sc["wf"] + (x @ sc["wc"] + sc["bc"])[..., None, :])
            logits = logits + (hidden @ sc["wo"])[..., 0] + sc["bo"][0]
        return logits

    def act(
        self, obs: np.ndarray, mask: np.ndarray, deterministic: bool = True, rng: np.random.Generator | None = None
    ) -> int:
        """A legal action for one observation: the most likely one, or a sample (needs ``rng``)."""
        legal = np.asarray(mask).astype(bool)
        if not legal.any():
            raise ValueError("the action mask allows no action")
        logits = np.where(legal, self.logits(obs).astype(np.float64), -np.inf)
        if deterministic:
            return int(np.argmax(logits))
        if rng is None:
            raise ValueError("sampling an action needs rng (a numpy Generator)")
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(rng.choice(len(p), p=p))

    # -- conversion ---------------------------------------------------------------------------------------
    @classmethod
    def from_sb3(cls, policy: Any, meta: dict[str, Any] | None = None) -> PolicyNet:
        """The actor of an SB3 ``ActorCriticPolicy`` (an MLP extractor of Linear layers and one activation)."""
        import torch

        layers = []
        activation = None
        for module in policy.mlp_extractor.policy_net:
            if isinstance(module, torch.nn.Linear):
                layers.append(_linear(module))
            elif isinstance(module, torch.nn.Tanh):
                activation = "tanh"
            elif isinstance(module, torch.nn.ReLU):
                activation = "relu"
            else:
                raise PolicyFileError(f"cannot export a policy with a {type(module).__name__} layer")
        head = policy.action_net
        if hasattr(head, "feature"):  # training.networks.ActionScorer
            wc, bc = _linear(head.context)
            wo, bo = _linear(head.out)
            scorer = {"gather": policy.mlp_extractor.gather.cpu().numpy().reshape(head.num_actions, head.action_features),
                      "wf": head.feature.weight.detach().cpu().numpy().T.astype(np.float32).copy(),
                      "wc": wc, "bc": bc, "wo": wo, "bo": bo}
            return cls(layers, _linear(head.head), activation or "tanh", dict(meta or {}), scorer)
        return cls(layers, _linear(head), activation or "tanh", dict(meta or {}))

    # -- files --------------------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike) -> None:
        """Write the policy file atomically (a reader never sees half a file)."""
        meta = {"format": FORMAT, "activation": self.activation, "obs_size": self.obs_size,
                "num_actions": self.num_actions, **self.meta}
        arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        arrays["wa"], arrays["ba"] = self.head
        for key, value in (self.scorer or {}).items():
            arrays[f"s_{key}"] = value
        path = os.fspath(path)
        with open_atomic(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike, game: str | None = None) -> PolicyNet:
        """Read a policy file (arrays only, never pickles); ``game`` checks what it was trained for."""
        path = os.fspath(path)
        what = f"a {FORMAT} policy file (a .npz of weights written by `contack train`)"
        check_archive(path, "policy file", what)
        arrays = read_arrays(path, what)
        if "meta" not in arrays:
            hint = " (a Stable-Baselines3 checkpoint? pass the run's policy.npz)" if "policy.pth" in _zip_names(path) else ""
            raise PolicyFileError(f"{path} is not a {FORMAT} policy file: it has no 'meta' entry{hint}")
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except (json.JSONDecodeError, RecursionError) as err:
            raise PolicyFileError(f"{path}: its 'meta' entry is not JSON: {err}") from None
        if not isinstance(meta, dict):
            raise PolicyFileError(f"{path}: its 'meta' entry is not a JSON object")
        if meta.get("format") != FORMAT:
            playable = meta.get("format") == "contack-az/1" and game in (None, meta.get("game"))
            hint = " (a search-guided network: play it as az:PATH)" if playable else ""
            raise PolicyFileError(f"{path}: format is {meta.get('format')!r}, expected {FORMAT!r}{hint}")
        if game is not None and game_of(meta) != game:
            raise PolicyFileError(f"{path} is a policy for {game_of(meta)!r}, not for {game!r}")
        check_finite(arrays, path)
        layers = []
        i = 0
        while f"w{i}" in arrays:
            if f"b{i}" not in arrays:
                raise PolicyFileError(f"{path}: layer {i} has weights w{i} but no bias b{i}")
            layers.append((arrays[f"w{i}"].astype(np.float32), arrays[f"b{i}"].astype(np.float32)))
            i += 1
        if "wa" not in arrays or "ba" not in arrays:
            raise PolicyFileError(f"{path}: the action head (wa, ba) is missing")
        scorer = None
        if "s_gather" in arrays:
            scorer = {k[2:]: (v.astype(np.int64) if k == "s_gather" else v.astype(np.float32))
                      for k, v in arrays.items() if k.startswith("s_")}
            missing = set(SCORER_KEYS) - set(scorer)
            if missing:
                raise PolicyFileError(f"{path}: the factored head lacks {', '.join(sorted(missing))}")
        check_no_stray_arrays(arrays, {f"{w}{i}" for i in range(len(layers)) for w in "wb"} | {"wa", "ba"}
                              | ({f"s_{k}" for k in SCORER_KEYS} if scorer else set()), path)
        try:
            net = cls(layers, (arrays["wa"].astype(np.float32), arrays["ba"].astype(np.float32)),
                      meta.get("activation", "tanh"), meta, scorer)
        except PolicyFileError as err:  # a setting of the file (its activation): name the file
            raise PolicyFileError(f"{path}: {err}") from None
        _check_shapes(net, path)
        return net


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0)


def _linear(module: Any) -> tuple[np.ndarray, np.ndarray]:
    w = module.weight.detach().cpu().numpy().T.astype(np.float32).copy()
    b = module.bias.detach().cpu().numpy().astype(np.float32).copy()
    return w, b


def _zip_names(path: str) -> list[str]:
    try:
        with zipfile.ZipFile(path) as z:
            return z.namelist()
    except (OSError, zipfile.BadZipFile):
        return []


def width_of_trunk(net: PolicyNet) -> int:
    return int(net.head[0].shape[0])


def _check_shapes(net: PolicyNet, path: str) -> None:
    width = net.obs_size
    for i, (w, b) in enumerate([*net.layers, net.head]):
        if w.ndim != 2 or b.shape != (w.shape[1],) or w.shape[0] != width:
            raise PolicyFileError(f"{path}: layer {i} has shapes {w.shape} and {b.shape}, which do not chain")
        width = w.shape[1]
    sc = net.scorer
    if sc is not None:
        g = sc["gather"]
        ok = (g.ndim == 2 and g.shape[0] == net.num_actions and g.min() >= 0 and g.max() < net.obs_size
              and sc["wf"].shape[0] == g.shape[1] and sc["wc"].shape[0] == width_of_trunk(net)
              and sc["wf"].shape[1] == sc["wc"].shape[1] == sc["bc"].shape[0] == sc["wo"].shape[0])
        if not ok:
            raise PolicyFileError(f"{path}: the factored head's shapes do not fit the network")
    for key in ("obs_size", "num_actions"):
        if key in net.meta and net.meta[key] != getattr(net, key):
            raise PolicyFileError(f"{path}: meta says {key}={net.meta[key]}, the weights say {getattr(net, key)}")


def check_no_stray_arrays(arrays: dict[str, np.ndarray], used: set[str], path: str) -> None:
    """Refuse arrays that no part of the network reads: a layer is a pair (``w1`` and ``b1``), numbered from 0,
    and the loader stops at the first number missing, so a file that lost a layer's weights (``b1`` without
    ``w1``) would otherwise load as a smaller network that plays, silently, with what is left."""
    stray = sorted(set(arrays) - used)
    if stray:
        raise PolicyFileError(f"{path}: holds {', '.join(stray)}, which no part of the network uses (its layers are "
                              "pairs such as w0 and b0, numbered from 0 with none missing: is a layer's array gone, "
                              "or is the file another program's?)")


def check_finite(arrays: dict[str, np.ndarray], path: str) -> None:
    """Refuse weights that are NaN or infinite, or too large for float32 (a diverged run, or a damaged file):
    such a policy would still pick actions, silently, from garbage logits. Arrays of anything but real numbers
    (text, booleans, complex numbers) are refused too, naming the array."""
    limit = float(np.finfo(np.float32).max)
    for key, value in arrays.items():
        if not np.issubdtype(value.dtype, np.number) or np.issubdtype(value.dtype, np.complexfloating):
            raise PolicyFileError(f"{path}: {key} does not hold numbers (its type is {value.dtype}); the arrays of a "
                                  "network's file are real numbers (a damaged or hand-edited file?)")
        if not np.issubdtype(value.dtype, np.floating):
            continue
        ok = np.isfinite(value) & (np.abs(np.nan_to_num(value)) <= limit)
        if not ok.all():
            bad = int(ok.size - np.count_nonzero(ok))
            raise PolicyFileError(f"{path}: {key} holds {plural(bad, 'NaN or infinite weight')} (or beyond float32); a policy "
                                  "file holds finite numbers only (was the run diverging? use an earlier snapshot)")
