"""A game the suite has never seen, added as docs/architecture.md says: a small Nim (21 counters, take 1 to 3,
whoever takes the last counter wins). ``NimState`` implements ``contack_env.protocol.State``; ``NIM`` is its
``GameSpec``, with a state observer (a one-hot of the counters left), so that the search-guided learner can
train and play it. Tests add it to the registry with ``monkeypatch.setitem(GAMES, "nim", NIM)``; nothing in
``agents`` or ``training`` is told about it.

Importable from every test: ``tests/conftest.py`` puts this folder on ``sys.path``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from contack_env.games import GameSpec, RuleOptions
from contack_env.records import RecordError
from contack_env.records.walker import Driver, Setup, Step

START = 21
TAKE = (1, 2, 3)


class NimState:
    game = "nim"
    num_players = 2

    def __init__(self, counters: int = START) -> None:
        self.counters = counters
        self.current_player = 0
        self.taken: list[int] = []
        self.last_taker: int | None = None

    @property
    def done(self) -> bool:
        return self.counters == 0

    @property
    def winners(self) -> list[int]:
        return [self.last_taker] if self.done and self.last_taker is not None else []

    @property
    def scores(self) -> list[float]:
        return [1.0 if seat in self.winners else 0.0 for seat in range(2)]

    def legal_moves(self) -> list[int]:
        return [k for k in TAKE if k <= self.counters]

    legal_codes = legal_moves

    def play(self, move: int) -> None:
        if move not in self.legal_moves():
            raise ValueError(f"take 1 to {min(3, self.counters)} counters; got {move!r}")
        self.play_code(move)

    def play_code(self, code: int) -> None:
        self.counters -= code
        self.taken.append(code)
        self.last_taker = self.current_player
        self.current_player = 1 - self.current_player

    def move_of(self, code: int) -> int:
        return code

    def clone(self) -> "NimState":
        other = NimState(self.counters)
        other.current_player, other.taken, other.last_taker = self.current_player, list(self.taken), self.last_taker
        return other

    def public_view(self) -> "NimState":
        return self.clone()

    def determinize(self, rng: np.random.Generator) -> "NimState":
        return self.clone()

    def public_key(self) -> tuple:
        return (self.done,)

    def face_down(self) -> int:
        return 0


class NimCoding:
    """Action ``a`` takes ``a + 1`` counters."""

    def encode_code(self, code: int) -> int:
        return code - 1

    def decode(self, action: int) -> int:
        return action + 1


class NimObserver:
    """The counters left, one-hot (0..21), and the mask of the three takes."""

    obs_size = START + 1
    num_actions = len(TAKE)
    factored = False

    def __init__(self, options: object) -> None:
        pass  # the registry hands every observer the game's rule options; Nim has none

    def observe_state(self, state: NimState) -> tuple[np.ndarray, np.ndarray, NimCoding]:
        obs = np.zeros(self.obs_size, dtype=np.float32)
        obs[state.counters] = 1.0
        mask = np.array([k <= state.counters for k in TAKE], dtype=np.int8)
        return obs, mask, NimCoding()


def deal(rng: np.random.Generator, players: int, options: RuleOptions, trace: bool, log: bool) -> NimState:
    return NimState()


def record(state: NimState, seed: Any = None, agents: Any = None) -> dict[str, Any]:
    return {"format": "nim-record/1", "seed": seed, "agents": list(agents or []), "taken": list(state.taken),
            "winners": state.winners}


class NimCodec:
    """The ``nim-record/1`` format for the record tools (``contack_env.records.CODECS``): the takes in order."""

    format = "nim-record/1"

    def setup(self, record: Any, **options: Any) -> Setup:
        taken = record.get("taken")
        if not isinstance(taken, list) or not all(type(k) is int for k in taken):
            raise RecordError(f"'taken' is a list of whole numbers; got {taken!r}", "taken")
        return Setup("nim", NimState(), [Step(f"take {i + 1}", k, (i,)) for i, k in enumerate(taken)])

    def apply(self, setup: Setup, driver: Driver, step: Step) -> bool:
        if step.event not in driver.legal():
            raise RecordError(f"taking {step.event} is not legal; legal: {driver.legal()}", step.where)
        driver.play(step.event)
        step.move = step.event
        return True

    def finish(self, record: dict[str, Any], setup: Setup, driver: Driver) -> None:
        if not driver.state.done or record.get("winners") != driver.state.winners:
            raise RecordError(f"the game ends with winners {driver.state.winners}; the record says "
                              f"{record.get('winners')!r}", "winners")


NIM = GameSpec("nim", "Nim", 2, 2, 2, (), deal, "nim-record/1", record, lambda s: f"{s.counters} counters",
               lambda s: len(s.taken), observer="nim_game:NimObserver")


def perfect(state: NimState, legal: list[int]) -> int:
    """Leave a multiple of four counters whenever one can."""
    winning = [k for k in legal if (state.counters - k) % 4 == 0]
    return winning[0] if winning else legal[0]
