"""The trained models a table may seat: only ``.npz`` files lying directly in the models folders given to
``contack serve``, named by their file name: policies (``contack-policy/1``, seated as ``ppo:NAME``) and
search-guided networks (``contack-az/1``, seated as ``az:NAME[:SIMS[:ENDGAME]]``).

A page asks for ``ppo:contack_2p.npz`` or ``az:contack_2p_az.npz``; the server looks the name up in the listing it
made of its folders, so a path (``ppo:../secret.npz``, ``az:/etc/x.npz``) or a file outside them can never be
opened. A link inside a folder that leads out of it is left out of the listing. When two folders hold the same
name, the first folder's file is the one listed.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from agents.az.network import FORMAT as AZ_FORMAT
from agents.policy_file import FORMAT as POLICY_FORMAT
from agents.policy_file import ARCHIVE_READ_ERRORS, game_of

from .web_game import whole_number


@dataclass(frozen=True)
class Model:
    """One policy file: its name (the file name), where it is, and what its metadata says it plays."""

    name: str
    path: Path
    game: str
    players: int | None
    board_size: int | None
    kind: str = "ppo"
    """The agent spec's name that seats it: ``ppo`` (a policy) or ``az`` (a search-guided network)."""
    sims: int | None = None
    """An ``az`` network's simulations a decision when its spec gives none (its file's ``sims``)."""
    swap: bool | None = None
    """A CON-TAC-TIX model's swap rule (with ``board_size``, what it plays: the page offers it at such tables)."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "game": self.game, "players": self.players,
                "board_size": self.board_size, "swap": self.swap}


class ModelError(ValueError):
    """A model name that the models folders do not hold."""


KINDS = {POLICY_FORMAT: "ppo", AZ_FORMAT: "az"}
"""The agent that plays a file of each format: ``agents.policy_file``'s policies, ``agents.az.network``'s networks."""


class ModelFolders:
    """The listing of the models folders (read again on every lookup, so files added later appear)."""

    def __init__(self, folders: Sequence[str | os.PathLike[str]]) -> None:
        self.folders = [Path(f).resolve() for f in folders]

    def models(self) -> list[Model]:
        """Every policy file in the folders, by name (the first folder wins a clash)."""
        found: dict[str, Model] = {}
        for folder in self.folders:
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue  # a folder that is missing or unreadable holds no models
            for entry in entries:
                if not entry.name.endswith(".npz") or entry.name in found:
                    continue
                path = Path(entry.path).resolve()
                if path.parent != folder or not path.is_file():
                    continue  # a link leading out of the folder
                meta = _meta(path)
                form = None if meta is None else meta.get("format", POLICY_FORMAT)
                kind = KINDS.get(form) if isinstance(form, str) else None
                if kind is None:
                    continue  # not a model file
                found[entry.name] = Model(
                    entry.name, path, game_of(meta), whole_number(meta.get("players")),
                    whole_number(meta.get("board_size")), kind, whole_number(meta.get("sims")) if kind == "az" else None,
                    meta.get("swap") if isinstance(meta.get("swap"), bool) else None,
                )
        return list(found.values())

    def resolve(self, name: str, kind: str = "ppo") -> Path:
        """The file of the model called ``name`` that ``kind`` (``ppo``, ``az``) plays; ``ModelError`` naming the
        models there are otherwise."""
        return self.find(name, kind).path

    def find(self, name: str, kind: str = "ppo") -> Model:
        """The model called ``name`` that ``kind`` plays (``resolve``)."""
        models = [m for m in self.models() if m.kind == kind]
        for model in models:
            if model.name == name:
                return model
        names = ", ".join(m.name for m in models) or "none"
        raise ModelError(f"no model called {name!r} for {kind}:NAME in the models folder(s); the {kind} models are: {names}")


def _meta(path: Path) -> dict[str, Any] | None:
    # Only the small JSON 'meta' array is read here (no weights), straight from the archive.
    try:
        with zipfile.ZipFile(path) as archive:
            raw = archive.read("meta.npy")
    except (OSError, KeyError, *ARCHIVE_READ_ERRORS):  # a damaged file is left out: one must not fail every listing
        return None
    try:
        meta = json.loads(str(np.load(io.BytesIO(raw), allow_pickle=False)))
    except (ValueError, OSError, RecursionError):
        return None
    return meta if isinstance(meta, dict) else None
