"""Draw the example pictures of the README and docs (``docs/img/render_*.png``, ``solitaire*.png``, ``game.gif``)
from seeded random play, with the project's own renderer.

    python docs/make_pictures.py [FOLDER]      (default: the img folder beside this file)
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image

from contack_env.atomic import atomic_path
from contack_env.contack.multiplayer import ContackGame, new_game
from contack_env.contack.solitaire import new_solitaire1, new_solitaire2
from contack_env.contack.state import GameState
from contack_env.records.contack import game_record
from contack_env.render.image import DEFAULT_SIZE, render_rgb
from contack_env.render.pictures import save_gif


def _random_play(state: GameState, seed: int, moves: int | None = None) -> GameState:
    rng = np.random.default_rng(seed)
    played = 0
    while not state.done and (moves is None or played < moves):
        legal = state.legal_moves()
        state.play(legal[int(rng.integers(len(legal)))])
        played += 1
    return state


def write_examples(folder: str | Path = "docs/img") -> list[Path]:
    """Draw the example pictures of the documentation from seeded random play; returns the files written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []

    def save(state: GameState, name: str, size: tuple[int, int] = DEFAULT_SIZE) -> None:
        path = folder / name
        seats = state.num_players if isinstance(state, ContackGame) else 1
        with atomic_path(path) as tmp:
            Image.fromarray(render_rgb(state, size=size, agents=["random"] * seats)).save(tmp, format="PNG", optimize=True)
        written.append(path)

    # Seeds and move counts picked so that each picture is mid-hand with a good part of a figure on the table.
    save(_random_play(new_game(2, seed=10), seed=10, moves=9), "render_2p.png")
    save(_random_play(new_game(4, seed=10), seed=10, moves=12), "render_4p.png")
    save(_random_play(new_game(7, seed=10), seed=10, moves=14), "render_7p.png")
    # Finished solitaires (seeds picked for large figures; the second is won) spread wide: bigger pictures
    # keep their numbers legible.
    save(_random_play(new_solitaire1(5), seed=5), "solitaire1.png", (960, 640))
    save(_random_play(new_solitaire2(56), seed=56), "solitaire2.png", (1080, 600))
    record = game_record(_random_play(new_game(3, num_hands=1, seed=1), seed=1), seed=1, agents=["random"] * 3)
    written.append(save_gif(record, folder / "game.gif", fps=1.5, size=(560, 350)))
    return written


if __name__ == "__main__":
    for written_path in write_examples(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "img"):
        print(written_path, written_path.stat().st_size, "bytes")
