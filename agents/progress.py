"""Progress of a long job (``contack evaluate``, ``contack train --progress {auto,on,off}``) on a terminal or in a log.

On a terminal: a tqdm bar. Off a terminal (output redirected to a file, a pipe, a job log), where a bar's
carriage returns would pile up, plain lines instead, one every ``interval`` seconds:

    evaluate: 120/1000 games (12%), 1 min 0 s so far, about 7 min 20 s left

A count resumed part way (``initial``, a training run's ``--resume``) measures its pace from where it resumed, and
what a caller sets with ``set_postfix`` (a training run's latest losses) ends the line, as it ends a tqdm bar:

    train az: 42/80 iterations (52%), 5 min 0 s so far, about 4 min 31 s left; games=1344, value=0.652

``auto`` (the default) shows the bar on a terminal and the periodic lines elsewhere, so a batch shorter than
``interval`` prints nothing off a terminal; ``on`` adds a first line at the start and a last one at the end off a
terminal; ``off`` shows nothing.
"""

from __future__ import annotations

import time
from typing import Any, Callable, TextIO

from contack_env.wording import plural

MODES = ("auto", "on", "off")
INTERVAL_S = 30.0


def mode_of(progress: bool | str | None) -> str:
    """``progress`` as one of MODES: None is ``auto``, True ``on``, False ``off``."""
    if progress is None or progress is True or progress is False:
        return {None: "auto", True: "on", False: "off"}[progress]
    if progress not in MODES:
        raise ValueError(f"progress is one of {', '.join(MODES)}; got {progress!r}")
    return progress


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 5 s``, ``1 h 2 min``."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


class Lines:
    """Plain progress lines on ``out`` (see the module docstring)."""

    def __init__(self, total: int, desc: str, unit: str, out: TextIO, ends: bool, interval: float = INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic, initial: int = 0) -> None:
        self.total, self.desc, self.unit, self.out = total, desc, unit, out
        self.ends, self.interval, self.clock = ends, interval, clock
        self.done = self.initial = initial
        self.postfix = ""
        self.started = self.last = clock()
        if ends:
            self._line()

    def update(self, n: int = 1) -> None:
        self.done += n
        if self.clock() - self.last >= self.interval and self.done < self.total:
            self._line()

    def set_postfix(self, **values: Any) -> None:
        """``key=value`` pairs for the end of the next lines (tqdm's ``set_postfix``)."""
        self.postfix = ", ".join(f"{key}={value}" for key, value in values.items())

    def close(self) -> None:
        if self.ends:
            spent = duration(self.clock() - self.started)
            text = f"{self.desc}: {plural(self.done - self.initial, self.unit)} in {spent}"
            if self.initial:
                text += f" ({self.done}/{self.total})"
            print(text + (f"; {self.postfix}" if self.postfix else ""), file=self.out, flush=True)

    def _line(self) -> None:
        now = self.clock()
        self.last = now
        elapsed = now - self.started
        text = f"{self.desc}: {self.done}/{plural(self.total, self.unit)} ({100 * self.done // max(self.total, 1)}%)"
        if self.done > self.initial:
            left = elapsed / (self.done - self.initial) * (self.total - self.done)
            text += f", {duration(elapsed)} so far, about {duration(left)} left"
        print(text + (f"; {self.postfix}" if self.postfix else ""), file=self.out, flush=True)


def reporter(total: int, progress: bool | str | None, out: TextIO, desc: str, unit: str, initial: int = 0) -> Any:
    """Something with ``update(n)``, ``set_postfix(**values)`` and ``close()`` that shows the progress of ``total``
    ``unit``s, ``initial`` of them done before it starts, as ``progress`` (a MODES value, or None/True/False) says."""
    mode = mode_of(progress)
    terminal = bool(getattr(out, "isatty", lambda: False)())
    if mode == "off" or not terminal:
        return Lines(total, desc, unit, out, ends=mode == "on", interval=float("inf") if mode == "off" else INTERVAL_S,
                     initial=initial)
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc=desc, unit=unit, file=out, smoothing=0.05)
