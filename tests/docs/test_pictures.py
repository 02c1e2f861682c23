"""The example pictures in docs/img are what ``docs/make_pictures.py`` draws today: a change to the renderer
or to seeded play that alters them shows up here, and the pictures are redrawn with that script."""

from __future__ import annotations

import importlib.util
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_documentation_pictures_are_redrawn_byte_for_byte(tmp_path):
    spec = importlib.util.spec_from_file_location("make_pictures", DOCS / "make_pictures.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    written = script.write_examples(tmp_path)
    assert {p.name for p in written} == {"render_2p.png", "render_4p.png", "render_7p.png", "solitaire1.png",
                                         "solitaire2.png", "game.gif"}
    stale = [p.name for p in written if p.read_bytes() != (DOCS / "img" / p.name).read_bytes()]
    assert not stale, f"docs/img differs from what docs/make_pictures.py draws: {stale} (run python docs/make_pictures.py)"
