"""The trained policies a table may seat: only ``.npz`` files lying directly in the models folders given to
``contack serve``, named by their file name.

A page asks for ``ppo:contack_2p.npz``; the server looks the name up in the listing it made of its folders, so a
path (``ppo:../secret.npz``, ``ppo:/etc/x.npz``) or a file outside them can never be opened. A link inside a
folder that leads out of it is left out of the listing. When two folders hold the same name, the first folder's
file is the one listed.
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


@dataclass(frozen=True)
class Model:
    """One policy file: its name (the file name), where it is, and what its metadata says it plays."""

    name: str
    path: Path
    game: str
    players: int | None
    board_size: int | None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "game": self.game, "players": self.players, "board_size": self.board_size}


class ModelError(ValueError):
    """A model name that the models folders do not hold."""


POLICY_FORMAT = "contack-policy/1"
"""The files a table may seat as ``ppo:NAME`` (``agents.policy_file``)."""


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
                if meta is None or meta.get("format", POLICY_FORMAT) != POLICY_FORMAT:
                    continue  # not a ``ppo:`` policy file (an ``az:`` network is typed in as a spec)
                found[entry.name] = Model(
                    entry.name, path, str(meta.get("game", "contack")), _int(meta.get("players")), _int(meta.get("board_size"))
                )
        return list(found.values())

    def resolve(self, name: str) -> Path:
        """The file of the model called ``name``; ``ModelError`` naming the models there are otherwise."""
        for model in self.models():
            if model.name == name:
                return model.path
        names = ", ".join(m.name for m in self.models()) or "none"
        raise ModelError(f"no model called {name!r} in the models folder(s); the models are: {names}")


def _meta(path: Path) -> dict[str, Any] | None:
    # Only the small JSON 'meta' array is read here (no weights), straight from the archive.
    try:
        with zipfile.ZipFile(path) as archive:
            raw = archive.read("meta.npy")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    try:
        meta = json.loads(str(np.load(io.BytesIO(raw), allow_pickle=False)))
    except (ValueError, OSError):
        return None
    return meta if isinstance(meta, dict) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
