"""Game records of either format as pictures: an animated GIF (one frame per move) or a PNG strip of frames.

Each record format has its frames function (``FRAMES``, by the record's ``format``): ``contack-record/1`` through
``contack_env.render.image.record_to_held_frames``, ``contactix-record/1`` through
``contack_env.render.contactix.record_to_frames``. Both walk the record with the records' walker, so a record
that does not replay raises ``RecordError`` naming where, before anything is written.

Every picture drawn here carries ``DRAWN_BY`` (a PNG's ``Software`` text, a GIF's comment), so that ``contack
render`` can tell its own earlier output, which it replaces, from anybody else's picture, which it keeps
(``not_drawn_here``).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np
from PIL import Image, PngImagePlugin, UnidentifiedImageError

from contack_env.atomic import atomic_path, written_in_place
from contack_env.checks import is_whole_number
from contack_env.records import RecordError, codec_for
from contack_env.records.contack import FORMAT as CONTACK_FORMAT
from contack_env.records.contactix import FORMAT as CONTACTIX_FORMAT
from contack_env.render import contactix, image

__all__ = ["DRAWN_BY", "FRAMES", "not_drawn_here", "record_frames", "save_gif", "save_strip"]

GIF_SIZE = (720, 450)
STRIP_SIZE = (480, 300)
DRAWN_BY = "contack render"
"""The mark of the pictures drawn here: a PNG's ``Software`` text, a GIF's comment."""


def _contack_frames(record: Mapping[str, Any], size: int | tuple[int, int]) -> list[tuple[np.ndarray, bool]]:
    return image.record_to_held_frames(record, size)


def _contactix_frames(record: Mapping[str, Any], size: int | tuple[int, int]) -> list[tuple[np.ndarray, bool]]:
    # The board's picture has the shape of its diamond: of the requested size only the height is kept.
    _, height = image.check_size(size)
    return [(frame, False) for frame in contactix.record_to_frames(record, height)]


FRAMES: dict[str, Callable[[Mapping[str, Any], int | tuple[int, int]], list[tuple[np.ndarray, bool]]]] = {
    CONTACK_FORMAT: _contack_frames,
    CONTACTIX_FORMAT: _contactix_frames,
}
"""Each record format's frames: ``(image, held)`` pairs, ``held`` for frames an animation shows longer."""


def record_frames(record: Mapping[str, Any], size: int | tuple[int, int] = GIF_SIZE) -> list[tuple[np.ndarray, bool]]:
    """The frames of ``record`` (either format) as ``(image, held)`` pairs; ``held`` marks a frame to show
    longer (a finished hand). ``size`` is ``(width, height)`` in pixels (CON-TAC-TIX keeps the height only)."""
    fmt = codec_for(record).format
    if fmt not in FRAMES:  # a game added to the registry without pictures
        raise RecordError(f"pictures are drawn of {', '.join(map(repr, FRAMES))} records; {fmt!r} has none", "format")
    return FRAMES[fmt](record, size)


def _png_mark() -> PngImagePlugin.PngInfo:
    info = PngImagePlugin.PngInfo()
    info.add_text("Software", DRAWN_BY)
    return info


def not_drawn_here(path: str | Path) -> str | None:
    """Why the file at ``path`` is not one that a new picture may replace, or None: nothing is there (or a device,
    a pipe: written in place), it is empty, or it is a PNG or GIF that this module drew (it carries ``DRAWN_BY``).
    Anything else, a photo or a chart of another program included, is somebody's to keep."""
    path = str(path)
    if written_in_place(path) or not os.path.isfile(path) or os.path.getsize(path) == 0:
        return None
    try:
        with Image.open(path) as im:
            kind, mark = im.format, im.info.get("Software" if im.format == "PNG" else "comment")
    except Exception as err:  # noqa: BLE001 - whatever Pillow cannot open (any of its errors) is not our picture
        if isinstance(err, OSError) and not isinstance(err, UnidentifiedImageError):
            return f"cannot be read to tell whether contack render drew it ({err.strerror or err})"
        return "is not a PNG or GIF picture"
    if kind not in ("PNG", "GIF"):
        return f"is a {kind} picture"
    if (mark.decode("latin-1") if isinstance(mark, bytes) else mark) != DRAWN_BY:
        return (f"is a {kind} picture without the mark of contack render (another program's picture, or one "
                "drawn before render marked its pictures)")
    return None


def _check_path(path: str | Path, suffix: str) -> Path:
    path = Path(path)
    if path.suffix.lower() != suffix:
        raise ValueError(f"the file name must end in {suffix}; got {str(path)!r}")
    return path


MIN_FPS, MAX_FPS = 0.01, 100.0
"""The frame rates a GIF can hold: a frame is shown 10 ms to 655.35 s (the format counts centiseconds in 16 bits)."""


def save_gif(record: Mapping[str, Any], path: str | Path, fps: float = 2.0, size: int | tuple[int, int] = GIF_SIZE) -> Path:
    """Write the game of ``record`` as an animated GIF (one frame per move, ``fps`` frames a second; the last
    frame and finished hands are held longer), replacing whatever file is at ``path`` (``not_drawn_here`` tells
    whether it is one of these pictures, as ``contack render`` asks before it writes). Returns the path."""
    path = _check_path(path, ".gif")
    if isinstance(fps, (bool, np.bool_)) or not isinstance(fps, (int, float, np.integer, np.floating)):
        raise ValueError(f"fps is a number of frames a second, {MIN_FPS:g} to {MAX_FPS:g}; got {fps!r}")
    if not MIN_FPS <= fps <= MAX_FPS:  # a GIF holds a frame a whole number of centiseconds, at most 655.35 s
        raise ValueError(f"fps is {MIN_FPS:g} to {MAX_FPS:g} frames a second; got {fps!r}")
    frames = record_frames(record, size)
    images = [Image.fromarray(frame) for frame, _ in frames]
    width, height = images[0].size
    # One palette for all frames keeps colours steady and unchanged areas identical, which the GIF writer then
    # skips; it is taken from a few frames together (the last has no target outlines, the first few tiles).
    # 64 colours are plenty for flat tiles and keep the file small.
    sample = [images[0], images[len(images) // 2], images[-1]]
    sheet = Image.new("RGB", (width, height * len(sample)))
    for k, im in enumerate(sample):
        sheet.paste(im, (0, k * height))
    palette = sheet.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    paletted = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
    step = 1000.0 / fps
    durations = [int(step * (3 if held else 1)) for _, held in frames]
    durations[-1] = int(step * 4)
    with atomic_path(path) as tmp:
        paletted[0].save(tmp, format="GIF", save_all=True, append_images=paletted[1:], duration=durations, loop=0,
                         optimize=False, disposal=1, comment=DRAWN_BY.encode())
    return path


def save_strip(
    record: Mapping[str, Any],
    path: str | Path,
    every: int = 5,
    columns: int = 4,
    size: int | tuple[int, int] = STRIP_SIZE,
) -> list[int]:
    """Write a PNG grid of every ``every``-th frame of ``record`` (``record_frames``), plus the final one,
    ``columns`` frames a row, replacing whatever file is at ``path`` (as ``save_gif``). Returns the indices of the
    frames shown."""
    path = _check_path(path, ".png")
    for name, value in (("every", every), ("columns", columns)):
        if not is_whole_number(value) or value < 1:
            raise ValueError(f"{name} is a positive integer; got {value!r}")
    frames = [frame for frame, _ in record_frames(record, size)]
    chosen = list(range(0, len(frames), every))
    if chosen[-1] != len(frames) - 1:
        chosen.append(len(frames) - 1)
    height, width = frames[0].shape[:2]
    cols = min(columns, len(chosen))
    rows = math.ceil(len(chosen) / cols)
    strip = Image.new("RGB", (cols * width, rows * height), image.PANEL)
    for k, index in enumerate(chosen):
        strip.paste(Image.fromarray(frames[index]), ((k % cols) * width, (k // cols) * height))
    with atomic_path(path) as tmp:
        strip.save(tmp, format="PNG", optimize=True, pnginfo=_png_mark())
    return chosen
