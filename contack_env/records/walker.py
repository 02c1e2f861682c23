"""One walker for every record format: a record replayed event by event, through the rules engine or through
an environment.

A format is a ``Codec`` (``contack_env.records.contack.CODEC``, ``contack_env.records.contactix.CODEC``): it checks
a record's structure and sets up the initial engine state and the list of steps (``setup``), says how one step
applies (``apply``) and what must hold at the end (``finish``). What the steps are played on is a ``Driver``:
``EngineDriver`` plays on the engine state itself; the environments' drivers (``contack_env.envs.replay``) play
every decision as an action of the environment, checked against its action mask.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol

__all__ = ["Codec", "Driver", "EngineDriver", "Setup", "Step", "Through", "Walk"]


@dataclass
class Step:
    """One step of a record: ``where`` names it in messages; ``event`` is the record's item (an event, a move;
    None for a codec's own marker, such as the end of a hand's list); ``index`` is the codec's position."""

    where: str
    event: Any
    index: tuple[int, ...]
    move: Any = None
    """The move a decision played (in the engine's terms), set by ``Codec.apply``."""


@dataclass
class Setup:
    """What a codec makes of a record: the game (a key of the environments' tables), the initial engine state
    and the steps to walk."""

    game: str
    state: Any
    steps: list[Step]
    options: dict[str, Any] = field(default_factory=dict)
    """What the codec keeps for ``apply`` and ``finish`` (e.g. whether to check ``legal`` lists)."""


class Driver(Protocol):
    """What a record is played on. ``state`` is the engine state that moves as the driver plays (an
    environment's own); the codec reads it to compare forced events and to explain a refusal."""

    state: Any
    legal_source: str
    """How ``legal()`` is decided, for messages: ``in truth`` (the rules) or ``by the action mask``."""

    def legal(self) -> list[Any]:
        """The moves allowed now, in the engine's terms."""
        ...

    def refusal(self, move: Any) -> str | None:
        """Why the driver itself cannot play ``move`` (an environment: no action for it, or the mask refuses
        it), or None."""
        ...

    def play(self, move: Any) -> None:
        """Play one decision."""
        ...

    def finish(self, record: dict[str, Any]) -> None:
        """Checks of the driver's own once every step agreed (an environment: its exported record)."""
        ...


Through = Callable[[dict[str, Any], Setup], Driver]
"""A maker of drivers: given the record and its setup, the driver to walk it on."""


class EngineDriver:
    """Plays the record on the engine state of its setup."""

    legal_source = "in truth"

    def __init__(self, record: dict[str, Any], setup: Setup) -> None:
        self.state = setup.state

    def legal(self) -> list[Any]:
        return list(self.state.legal_moves())

    def refusal(self, move: Any) -> str | None:
        return None

    def play(self, move: Any) -> None:
        self.state.play(move)

    def finish(self, record: dict[str, Any]) -> None:
        return None


class Codec(Protocol):
    """One record format."""

    format: str

    def setup(self, record: Any, **options: Any) -> Setup:
        """Check the record's structure (its JSON Schema, then what a schema cannot say) and make the initial
        state and the steps; raise ``RecordError`` naming the first thing wrong."""
        ...

    def apply(self, setup: Setup, driver: Driver, step: Step) -> bool:
        """Check and apply one step on ``driver``; True if it was a decision (the driver played a move)."""
        ...

    def finish(self, record: dict[str, Any], setup: Setup, driver: Driver) -> None:
        """Check what must hold once every step is applied (the game over, the outcome as the record says)."""
        ...


class Walk:
    """``record`` walked by ``codec`` on the driver ``through`` makes (the engine by default).

    ``steps()`` yields the start (a ``Step`` with ``event`` None) and then every decision once applied, with
    ``state`` the position after it; when it returns, every step agreed and the final checks passed. Anything
    wrong raises ``RecordError`` naming where.
    """

    def __init__(self, record: Any, codec: Codec, through: Through | None = None, **options: Any) -> None:
        self.record = record
        self.codec = codec
        self.setup = codec.setup(record, **options)
        self.driver = (through or EngineDriver)(record, self.setup)

    @property
    def state(self) -> Any:
        return self.driver.state

    def steps(self) -> Iterator[Step]:
        yield Step("start", None, ())
        for step in self.setup.steps:
            if self.codec.apply(self.setup, self.driver, step):
                yield step
        self.codec.finish(self.record, self.setup, self.driver)
        self.driver.finish(self.record)

    def run(self) -> Any:
        """Walk to the end; the final state."""
        for _ in self.steps():
            pass
        return self.state
