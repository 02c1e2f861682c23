"""Gymnasium environments for the two Contack solitaires (RULES.md sections 6 and 7).

``import contack_env`` registers them: ``gymnasium.make("contack/Solitaire1-v0")`` and
``gymnasium.make("contack/Solitaire2-v0")`` (or use ``Solitaire1Env`` / ``Solitaire2Env`` directly).

Actions
-------
The encoding of every Contack environment (``contack_env.actions``): ``action = slot * 21 + cell_slot``, where the
*slot* names the tile and the *cell slot* the cell (the three free sides of the last-played tile, then the holes
in ascending ``(x, y)`` order). Solitaire No. 1 has 1 slot, the one tile to place (the drawn tile or the discard
top: ``state.forced_tile``), so ``Discrete(21)``; Solitaire No. 2 has 7, slot ``k`` = the top of stack ``k`` (empty
once the stack is), so ``Discrete(147)``. ``action_masks()`` (for sb3-contrib's ``MaskablePPO``) and
``info["action_mask"]`` give the legal actions as a bool array; every legal move has exactly one action.

Episodes
--------
An episode is one deal. ``reset(seed=s)`` deals exactly as ``new_solitaire1(s)`` / ``new_solitaire2(s)`` do
(``numpy.random.default_rng(s)``: the permutation, then for No. 2 the cut); ``reset()`` without a seed draws an
int episode seed from the environment's generator (``np_random``: seeded by the last seeded reset, else fresh
entropy) and deals from it, as the multiplayer environment does, so every episode's record carries a seed that
regenerates its deal (``episode_seed``). ``reset(options={"deck": [...], "cut": k})`` plays a given deal (tile
ids or names; ``cut`` only for No. 2, where it is required; the record's seed is then null).

Everything the rules force (the opening, draws, discards in No. 1, the end) happens inside ``reset`` and
``step``: the agent sees only decisions, one per placement. With ``auto_single_moves=True`` a decision with a
single legal move is made for the agent as well (``info["auto_moves"]`` counts them); its reward goes to the
agent's next step, so returns do not depend on the option.

A deal that needs no decision at all (No. 2: no stack top fits the opening tile, about 0.2% of deals; No. 1
never, every opening tile fits 14 or more others; with ``auto_single_moves`` also a game that is all forced
moves) is still one episode, so win rates over episodes are the true rates over deals and no deal is skipped
or re-dealt: ``reset`` returns the final position with ``info["decision"] = False`` and a mask holding only
action 0; the first ``step`` accepts any action, changes nothing and ends the episode (``terminated``) with the
deal's reward (a win only with ``auto_single_moves``). Every other episode has ``info["decision"] = True``.

An action outside the mask ends the episode as a loss with reward -1 and ``info["illegal_action"] = True``
(``illegal_action="lose"``, the default, so an agent without masks learns to avoid them and Gymnasium's
checker, which steps random actions, runs), or raises ``ValueError`` (``illegal_action="raise"``). Such an
episode has no finished game, so ``game_record()`` refuses it.

Info
----
Every ``reset`` and ``step`` returns fresh values: ``"action_mask"`` (as ``action_masks()``), ``"decision"``
(a decision is pending), ``"tiles_placed"``, ``"score"`` (points so far), ``"won"``, ``"auto_moves"`` (forced
placements the environment made in this call); on the last step also ``"is_success"``, and
``"illegal_action"`` when an illegal action ended the episode.

Rewards (``reward=...``)
------------------------
- ``"win"`` (default): +1 on the step that wins (all 36 tiles placed), else 0. The return is 1 for a won deal,
  0 for a lost one.
- ``"tiles"``: +1/36 for every tile a step places (auto-played ones included); the opening tile is not the
  agent's and gives nothing, and there is no bonus for winning: the return is ``(tiles placed - 1) / 36``,
  exactly 35/36 for a won deal.
- ``"points"``: the points of the step's counting contacts / 50 (the best one placement can score); the return
  is ``score / 50``.
On the last step ``info["is_success"]`` says whether the deal was won (Stable-Baselines3 logs it).

Observation
-----------
A ``Box(0, 1, (n,), float32)`` vector of what the player sees: No. 1 the figure, the tile to place, the whole
discard pile (face up) and the pile's size; No. 2 the figure, the stack tops and the stack heights. Never the
order of the face-down pile, nor what lies under a stack top: two deals that differ only there give identical
observations. Tile ``t`` always has the same row, so a row is a tile's identity. Positions are
``(x + 35) / 70`` and ``(y + 17) / 34`` (every legal figure lies within -35 <= x <= 34, -17 <= y <= 17:
RULES.md section 2 and ``contack_env.extremes``; a candidate cell just outside is clipped, it is never legal).

Solitaire No. 1, ``n = 565``:

- ``0..323``: per tile ``t`` (36 rows of 9, row ``t`` at ``9t``): 0 on the figure, 1 the tile to place now,
  2 the top of the discard pile, 3 in the discard pile (top included), 4 depth in the discard pile / 35 (top 0),
  5 unseen (still in the face-down pile), 6 x and 7 y if on the figure (else 0), 8 the last-played tile.
- ``324..512``: per cell slot (21 rows of 9, in the action encoding's order): 0 present, 1 x, 2 y, 3 the cell
  points up, 4 placed neighbours / 3, 5..7 the value the neighbour across side L, R, B shows this cell / 10 (0 if
  none), 8 touches the last-played tile.
- ``513..516``: the slot (the tile to place): 0 present, 1..3 its blue, red, gold values / 10.
- ``517..537``: per action, 1 if legal. ``538..558``: per action, its points / 50 if legal.
- ``559`` tiles on the figure / 36, ``560`` pile size / 35, ``561`` discard pile size / 35, ``562`` the tile to
  place comes from the discard pile, ``563`` holes / 18, ``564`` a decision is pending (0 at the end and in a
  deal with no decision).

Solitaire No. 2, ``n = 953``:

- ``0..431``: per tile (36 rows of 12, row ``t`` at ``12t``): 0 on the figure, 1..7 on top of stack 0..6
  (one-hot), 8 unseen (under a stack top), 9 x and 10 y if on the figure, 11 the last-played tile.
- ``432..620``: per cell slot, as for No. 1.
- ``621..648``: per slot (stack, 7 rows of 4): 0 present, 1..3 the top's blue, red, gold values / 10.
- ``649..795``: per action, 1 if legal. ``796..942``: per action, its points / 50 if legal.
- ``943`` tiles on the figure / 36, ``944..950`` stack heights / 5 (after the cut no stack holds more than 5),
  ``951`` holes / 18, ``952`` a decision is pending.

Rendering and records
---------------------
``render_mode="ansi"`` returns ``text.render_text(state)``, ``"rgb_array"`` ``render.render_rgb(state)``.
``game_record(agents=None)`` is the finished episode's ``contack-record/1`` record, with the episode seed.
``replay_solitaire_through_env(record)`` plays a solitaire record through the environment, action by action, and
checks it (``contack replay --check --through-env``).
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from .actions import NUM_CELL_SLOTS, ActionLayout
from .figure import Move
from .grid import CELL_SIDES, OFFSET, SPAN, cell_index
from .solitaire import NUM_STACKS, STACK6_SIZE, Solitaire1, Solitaire2
from .state import GameState
from .tiles import BLUE, GOLD, NUM_TILES, RED, TILE_NAMES, TILE_VALUES, tile_id

__all__ = [
    "ENV_IDS",
    "REWARDS",
    "Solitaire1Env",
    "Solitaire2Env",
    "register_envs",
    "replay_solitaire_through_env",
]

ENV_IDS = {"contack/Solitaire1-v0": "Solitaire1Env", "contack/Solitaire2-v0": "Solitaire2Env"}
REWARDS = ("win", "tiles", "points")
ILLEGAL_ACTION_OPTIONS = ("lose", "raise")
ILLEGAL_REWARD = -1.0
_SEED_BOUND = 2**63  # episode seeds drawn for unseeded resets are ints in [0, 2**63)

X_BOUND, Y_BOUND = 35, 17  # RULES.md section 2
POINTS_SCALE = 50.0  # the best placement scores 50 (RULES.md section 4)
VALUE_SCALE = 10.0
MAX_HOLES = NUM_CELL_SLOTS - 3
STACK_HEIGHT = 5  # the most any stack holds once the opening tile is cut out of stack 6

# Cell-slot rows (the same as the multiplayer observation's).
CELL_FEATURES = 9
C_PRESENT, C_X, C_Y, C_UP, C_NEIGHBOURS, C_FACING, C_ADJ_LAST = 0, 1, 2, 3, 4, 5, 8
SLOT_FEATURES = 4  # present, blue, red, gold
_VALUES = np.array(TILE_VALUES, dtype=np.float32) / VALUE_SCALE
_UP_COLOURS = (GOLD, RED, BLUE)  # the colour an up cell shows on sides L, R, B (blue always on B)
_DOWN_COLOURS = (RED, GOLD, BLUE)

# Per-tile rows.
S1_TILE_FEATURES = 9
S1_FIGURE, S1_TO_PLACE, S1_DISCARD_TOP, S1_IN_DISCARD, S1_DISCARD_DEPTH, S1_UNSEEN, S1_X, S1_Y, S1_LAST = range(9)
S2_TILE_FEATURES = 12
S2_FIGURE, S2_TOP, S2_UNSEEN, S2_X, S2_Y, S2_LAST = 0, 1, 8, 9, 10, 11


class ObsLayout:
    """Index ranges of one solitaire's observation (the module docstring lists them; a test compares)."""

    def __init__(self, tile_features: int, num_slots: int, scalars: Sequence[str]) -> None:
        self.tile_features = tile_features
        self.num_slots = num_slots
        self.num_actions = num_slots * NUM_CELL_SLOTS
        self.tiles = (0, NUM_TILES * tile_features)
        self.cells = (self.tiles[1], self.tiles[1] + NUM_CELL_SLOTS * CELL_FEATURES)
        self.slots = (self.cells[1], self.cells[1] + num_slots * SLOT_FEATURES)
        self.legal = (self.slots[1], self.slots[1] + self.num_actions)
        self.points = (self.legal[1], self.legal[1] + self.num_actions)
        self.scalar: dict[str, int] = {}
        k = self.points[1]
        for name in scalars:
            if name == "heights":
                self.scalar[name] = k
                k += NUM_STACKS
            else:
                self.scalar[name] = k
                k += 1
        self.size = k


S1_LAYOUT = ObsLayout(S1_TILE_FEATURES, 1, ("placed", "pile", "discard", "from_discard", "holes", "decision"))
S2_LAYOUT = ObsLayout(S2_TILE_FEATURES, NUM_STACKS, ("placed", "heights", "holes", "decision"))


def _norm_x(x: int) -> float:
    return min(max((x + X_BOUND) / (2 * X_BOUND), 0.0), 1.0)


def _norm_y(y: int) -> float:
    return min(max((y + Y_BOUND) / (2 * Y_BOUND), 0.0), 1.0)


class _SolitaireEnv(gymnasium.Env):
    """What both solitaire environments share; subclasses say how to deal and what a player sees."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}
    game = ""
    num_slots = 0
    obs_layout: ObsLayout

    def __init__(
        self,
        render_mode: str | None = None,
        reward: str = "win",
        auto_single_moves: bool = False,
        trace: bool = False,
        illegal_action: str = "lose",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None, 'ansi' or 'rgb_array'; got {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(map(repr, REWARDS))}; got {reward!r}")
        if not isinstance(auto_single_moves, (bool, np.bool_)):
            raise ValueError(f"auto_single_moves is True or False; got {auto_single_moves!r}")
        if illegal_action not in ILLEGAL_ACTION_OPTIONS:
            raise ValueError(f"illegal_action is one of {', '.join(map(repr, ILLEGAL_ACTION_OPTIONS))}; got {illegal_action!r}")
        self.render_mode = render_mode
        self.reward_mode = reward
        self.auto_single_moves = bool(auto_single_moves)
        self.trace = bool(trace)
        self.illegal_action = illegal_action
        size = self.obs_layout.size
        self.observation_space = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.num_slots * NUM_CELL_SLOTS)
        self._state: GameState | None = None
        self._layout: ActionLayout | None = None
        self._mask = np.zeros(self.action_space.n, dtype=bool)
        self._decision = False
        self._over = True
        self._illegal = False
        self._seed: int | None = None
        self._pending_tiles = 0
        self._pending_points = 0

    # -- the engine state and the action encoding ---------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The engine state of the current episode (read it, do not play on it)."""
        if self._state is None:
            raise RuntimeError("no episode yet: call reset() first")
        return self._state

    @property
    def episode_seed(self) -> int | None:
        """The int the episode's deal came from (``new_solitaire1/2(seed)`` deals the same); None when the
        reset was given a deck."""
        return self._seed

    @property
    def layout(self) -> ActionLayout:
        """The action layout of the current decision."""
        if self._layout is None:
            raise RuntimeError("no episode yet: call reset() first")
        return self._layout

    def action_masks(self) -> np.ndarray:
        """The legal actions of the current decision (bool); see the module docstring for episodes with no
        decision and for finished ones (all False)."""
        return self._mask.copy()

    def encode_move(self, move: Move | Sequence[int]) -> int:
        """The action of a legal ``move`` (tile id, x, y); ``ValueError`` if it has none at this decision."""
        tile, x, y = (int(v) for v in move)
        if not self._decision or cell_index(x, y) not in self.layout.cells or tile not in self.layout.slots:
            raise ValueError(f"{Move(tile, x, y)} is not legal here (no action names it): {self._what_is_legal()}")
        action = self.layout.encode(Move(tile, x, y))
        if not self._mask[action]:
            raise ValueError(f"{Move(tile, x, y)} is not legal here: {self._what_is_legal()}")
        return action

    def decode_action(self, action: int) -> Move | None:
        """The move of ``action`` at this decision, or None if the action is not a legal one."""
        action = int(action)
        if not self._decision or not 0 <= action < self.action_space.n or not self._mask[action]:
            return None
        return self.layout.decode(action)

    def observe_state(self, state: GameState) -> tuple[np.ndarray, np.ndarray, ActionLayout]:
        """The observation, action mask and action layout this environment gives at ``state`` (a state of its
        solitaire, e.g. an agent's public view), without touching the current episode: how a trained policy
        acts on a state."""
        saved = (self._state, self._layout, self._mask, self._decision)
        try:
            self._state = state
            self._update_decision()
            return self._observe(), self._mask.copy(), self._layout
        finally:
            self._state, self._layout, self._mask, self._decision = saved

    def _what_is_legal(self) -> str:
        if not self._decision:
            return "no decision is pending"
        moves = self.state.legal_moves()
        return f"{len(moves)} legal move(s): {', '.join(str(m) for m in moves)}"

    # -- subclass hooks ------------------------------------------------------------------------------------------
    def _deal_random(self, rng: np.random.Generator) -> GameState:
        raise NotImplementedError

    def _deal_given(self, deck: list[int], options: dict[str, Any]) -> GameState:
        raise NotImplementedError

    def _slots(self) -> list[int | None]:
        raise NotImplementedError

    def _fill_tiles(self, obs: np.ndarray) -> None:
        raise NotImplementedError

    def _fill_scalars(self, obs: np.ndarray) -> None:
        raise NotImplementedError

    # -- Gymnasium API -------------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise ValueError(f"options is a dict (keys 'deck' and, for Solitaire No. 2, 'cut'); got {options!r}")
        unknown = set(options) - {"deck", "cut"}
        if unknown:
            raise ValueError(f"unknown reset option(s) {sorted(unknown)}; the options are 'deck' and, for Solitaire No. 2, 'cut'")
        if "deck" in options:
            self._state = self._deal_given(_parse_deck(options["deck"]), options)
            self._seed = None
        else:
            if "cut" in options:
                raise ValueError("'cut' goes with a given 'deck'; without one the deal (and its cut) comes from the seed")
            episode_seed = int(seed) if seed is not None else int(self.np_random.integers(_SEED_BOUND))
            self._state = self._deal_random(np.random.default_rng(episode_seed))
            self._seed = episode_seed
        self._over = False
        self._illegal = False
        self._pending_tiles = 0
        self._pending_points = 0
        auto = self._auto_play()
        self._update_decision()
        return self._observe(), self._info(auto)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._state is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over; call reset() to start the next one")
        state = self._state
        if not self._decision:
            # A deal that needed no decision: this step only closes the episode (module docstring).
            return self._end_step(0)
        a = _discrete_action(action, self.action_space.n)
        if not 0 <= a < self.action_space.n or not self._mask[a]:
            if self.illegal_action == "raise":
                raise ValueError(f"action {action!r} is not legal here ({self._what_is_legal()})")
            self._illegal = True
            self._over = True
            self._decision = False
            self._mask = np.zeros(self.action_space.n, dtype=bool)
            info = self._info(0)
            info["illegal_action"] = True
            info["is_success"] = False
            return self._observe(), ILLEGAL_REWARD, True, False, info
        code = self.layout.decode_code(a)
        self._pending_points += state.play_code(code)  # type: ignore[arg-type]
        self._pending_tiles += 1
        auto = self._auto_play()
        self._update_decision()
        if state.done:
            return self._end_step(auto)
        reward = self._take_reward(won=False)
        return self._observe(), reward, False, False, self._info(auto)

    def _end_step(self, auto: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.state
        self._over = True
        self._decision = False
        self._mask = np.zeros(self.action_space.n, dtype=bool)
        reward = self._take_reward(won=bool(state.won))  # type: ignore[attr-defined]
        info = self._info(auto)
        info["is_success"] = bool(state.won)  # type: ignore[attr-defined]
        return self._observe(), reward, True, False, info

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; make the env with render_mode='ansi' or 'rgb_array'")
            return None
        if self.render_mode == "ansi":
            from .text import render_text

            return render_text(self.state)
        from .render import render_rgb

        return render_rgb(self.state)

    def game_record(self, agents: Sequence[str] | None = None) -> dict[str, Any]:
        """The ``contack-record/1`` record of the finished episode (``records.game_record``)."""
        from .records import game_record

        if self._illegal:
            raise RuntimeError("the episode ended on an illegal action; its game is unfinished and makes no record")
        return game_record(self.state, seed=self._seed, agents=agents)

    # -- internals -----------------------------------------------------------------------------------------------
    def _auto_play(self) -> int:
        """Make the forced decisions (``auto_single_moves``); their rewards wait for the agent's next step."""
        count = 0
        state = self.state
        if self.auto_single_moves:
            while not state.done and len(state.legal_codes()) == 1:
                self._pending_points += state.play_code(state.legal_codes()[0])
                self._pending_tiles += 1
                count += 1
        return count

    def _update_decision(self) -> None:
        state = self.state
        self._layout = ActionLayout(self.num_slots, self._slots(), state.figure)
        mask = np.zeros(self.action_space.n, dtype=bool)
        if state.done:
            self._decision = False
            mask[0] = True  # a deal with no decision (or one decided by forced moves): action 0 closes it
        else:
            self._decision = True
            encode = self._layout.encode_code
            for code in state.legal_codes():
                mask[encode(code)] = True
        self._mask = mask

    def _take_reward(self, won: bool) -> float:
        tiles, points = self._pending_tiles, self._pending_points
        self._pending_tiles = self._pending_points = 0
        if self.reward_mode == "win":
            return 1.0 if won else 0.0
        if self.reward_mode == "tiles":
            return tiles / NUM_TILES
        return points / POINTS_SCALE

    def _info(self, auto: int) -> dict[str, Any]:
        state = self.state
        return {
            "action_mask": self._mask.copy(),
            "decision": self._decision,
            "tiles_placed": len(state.figure),
            "score": int(state.score),  # type: ignore[attr-defined]
            "won": bool(state.won),  # type: ignore[attr-defined]
            "auto_moves": auto,
        }

    def _observe(self) -> np.ndarray:
        lay = self.obs_layout
        obs = np.zeros(lay.size, dtype=np.float32)
        self._fill_tiles(obs)
        self._fill_cells(obs)
        slots = obs[lay.slots[0] : lay.slots[1]].reshape(self.num_slots, SLOT_FEATURES)
        if self._decision:
            for k, tile in enumerate(self.layout.slots):
                if tile is not None:
                    slots[k, 0] = 1.0
                    slots[k, 1:4] = _VALUES[tile]
            legal = obs[lay.legal[0] : lay.legal[1]]
            points = obs[lay.points[0] : lay.points[1]]
            figure = self.state.figure
            for action in np.flatnonzero(self._mask):
                code = self.layout.decode_code(int(action))
                legal[action] = 1.0
                points[action] = figure.points_for(code >> 14, code & 16383) / POINTS_SCALE  # type: ignore[operator]
        obs[lay.scalar["placed"]] = len(self.state.figure) / NUM_TILES
        obs[lay.scalar["holes"]] = len(self.state.figure.holes) / MAX_HOLES
        obs[lay.scalar["decision"]] = 1.0 if self._decision else 0.0
        self._fill_scalars(obs)
        return obs

    def _fill_tile_positions(self, tiles: np.ndarray, col_figure: int, col_x: int, col_y: int, col_last: int) -> None:
        figure = self.state.figure
        placed = figure.placed
        cells = np.fromiter(placed.keys(), dtype=np.int64, count=len(placed))
        on_figure = np.fromiter(placed.values(), dtype=np.int64, count=len(placed))
        tiles[on_figure, col_figure] = 1.0
        tiles[on_figure, col_x] = np.clip((cells // SPAN - OFFSET + X_BOUND) / (2 * X_BOUND), 0.0, 1.0)
        tiles[on_figure, col_y] = np.clip((cells % SPAN - OFFSET + Y_BOUND) / (2 * Y_BOUND), 0.0, 1.0)
        if figure.last is not None:
            tiles[figure.placed[figure.last], col_last] = 1.0

    def _fill_cells(self, obs: np.ndarray) -> None:
        lay = self.obs_layout
        block = obs[lay.cells[0] : lay.cells[1]].reshape(NUM_CELL_SLOTS, CELL_FEATURES)
        figure = self.state.figure
        placed = figure.placed
        for k, cell in enumerate(self.layout.cells):
            if cell is None:
                continue
            row = block[k]
            x, y = cell // SPAN - OFFSET, cell % SPAN - OFFSET
            up = (x + y) % 2 == 0
            colours = _UP_COLOURS if up else _DOWN_COLOURS
            row[C_PRESENT] = 1.0
            row[C_X] = _norm_x(x)
            row[C_Y] = _norm_y(y)
            row[C_UP] = 1.0 if up else 0.0
            count = 0
            for side, (neighbour, _) in enumerate(CELL_SIDES[cell]):
                tile = placed.get(neighbour)
                if tile is not None:
                    count += 1
                    row[C_FACING + side] = TILE_VALUES[tile][colours[side]] / VALUE_SCALE
                    if neighbour == figure.last:
                        row[C_ADJ_LAST] = 1.0
            row[C_NEIGHBOURS] = count / 3.0


class Solitaire1Env(_SolitaireEnv):
    """Solitaire No. 1, draw and discard (RULES.md section 6), as a Gymnasium environment (module docstring)."""

    game = "solitaire1"
    num_slots = 1
    obs_layout = S1_LAYOUT

    def _deal_random(self, rng: np.random.Generator) -> GameState:
        return Solitaire1(rng.permutation(NUM_TILES).tolist(), trace=self.trace)

    def _deal_given(self, deck: list[int], options: dict[str, Any]) -> GameState:
        if "cut" in options:
            raise ValueError("Solitaire No. 1 has no cut (its opening tile is deck[0]); give only 'deck'")
        return Solitaire1(deck, trace=self.trace)

    def _slots(self) -> list[int | None]:
        return [self.state.forced_tile]  # type: ignore[attr-defined]

    def _fill_tiles(self, obs: np.ndarray) -> None:
        state: Solitaire1 = self.state  # type: ignore[assignment]
        tiles = obs[: NUM_TILES * S1_TILE_FEATURES].reshape(NUM_TILES, S1_TILE_FEATURES)
        self._fill_tile_positions(tiles, S1_FIGURE, S1_X, S1_Y, S1_LAST)
        discard = state.discard
        for depth, tile in enumerate(reversed(discard)):
            tiles[tile, S1_IN_DISCARD] = 1.0
            tiles[tile, S1_DISCARD_DEPTH] = depth / (NUM_TILES - 1)
        if discard:
            tiles[discard[-1], S1_DISCARD_TOP] = 1.0
        if self._decision:
            tiles[state.forced_tile, S1_TO_PLACE] = 1.0
        # Unseen: neither on the figure, nor in the discard pile, nor the tile to place (drawn from the pile).
        tiles[:, S1_UNSEEN] = 1.0 - np.maximum.reduce([tiles[:, S1_FIGURE], tiles[:, S1_IN_DISCARD], tiles[:, S1_TO_PLACE]])

    def _fill_scalars(self, obs: np.ndarray) -> None:
        state: Solitaire1 = self.state  # type: ignore[assignment]
        s = S1_LAYOUT.scalar
        obs[s["pile"]] = state.pile_size / (NUM_TILES - 1)
        obs[s["discard"]] = len(state.discard) / (NUM_TILES - 1)
        obs[s["from_discard"]] = 1.0 if self._decision and state.source == "discard" else 0.0


class Solitaire2Env(_SolitaireEnv):
    """Solitaire No. 2, seven stacks (RULES.md section 7), as a Gymnasium environment (module docstring)."""

    game = "solitaire2"
    num_slots = NUM_STACKS
    obs_layout = S2_LAYOUT

    def _deal_random(self, rng: np.random.Generator) -> GameState:
        deck = rng.permutation(NUM_TILES).tolist()
        return Solitaire2(deck, int(rng.integers(STACK6_SIZE)), trace=self.trace)

    def _deal_given(self, deck: list[int], options: dict[str, Any]) -> GameState:
        if "cut" not in options:
            raise ValueError(
                f"Solitaire No. 2 needs 'cut' with 'deck': the position (0..{STACK6_SIZE - 1}, from the bottom of "
                "stack 6) of the opening tile"
            )
        return Solitaire2(deck, options["cut"], trace=self.trace)

    def _slots(self) -> list[int | None]:
        return self.state.tops  # type: ignore[attr-defined]

    def _fill_tiles(self, obs: np.ndarray) -> None:
        state: Solitaire2 = self.state  # type: ignore[assignment]
        tiles = obs[: NUM_TILES * S2_TILE_FEATURES].reshape(NUM_TILES, S2_TILE_FEATURES)
        self._fill_tile_positions(tiles, S2_FIGURE, S2_X, S2_Y, S2_LAST)
        for k, stack in enumerate(state.stacks):
            if stack:
                tiles[stack[-1], S2_TOP + k] = 1.0
                for tile in stack[:-1]:
                    tiles[tile, S2_UNSEEN] = 1.0

    def _fill_scalars(self, obs: np.ndarray) -> None:
        state: Solitaire2 = self.state  # type: ignore[assignment]
        start = S2_LAYOUT.scalar["heights"]
        for k, stack in enumerate(state.stacks):
            obs[start + k] = len(stack) / STACK_HEIGHT


def _parse_deck(deck: Any) -> list[int]:
    if isinstance(deck, (str, bytes)) or not hasattr(deck, "__len__"):
        raise ValueError(f"'deck' is a list of the 36 tiles (ids 0..35 or names like '01-02-03'); got {deck!r}")
    out = []
    for item in deck:
        if isinstance(item, str):
            out.append(tile_id(item))
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            out.append(int(item))
        else:
            raise ValueError(f"'deck' holds tile ids 0..35 or names like '01-02-03'; got {item!r}")
    if sorted(out) != list(range(NUM_TILES)):
        raise ValueError("'deck' must hold each of the 36 tiles exactly once")
    return out


# -- registration --------------------------------------------------------------------------------------------
def register_envs() -> None:
    """Register ``contack/Solitaire1-v0`` and ``contack/Solitaire2-v0`` with Gymnasium (idempotent).

    ``contack_env/__init__.py`` calls it when Gymnasium is installed: Gymnasium 1.x has no plugin entry points
    (they went in 1.0), so a package registers its ids when imported.
    """
    for env_id, cls in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"{__name__}:{cls}")


# -- replaying a record through the environment ----------------------------------------------------------------
def replay_solitaire_through_env(record: dict[str, Any]) -> None:
    """Play a solitaire record through ``Solitaire1Env`` / ``Solitaire2Env`` and check it.

    Resets with the record's deck (and cut), turns every ``place`` event into an action, checks that the action
    is in the mask and decodes back to the same move, steps, and finally compares the environment's own record
    (``game_record()``) with the given one: every event (keys of the environment's events; ``legal`` lists as
    sets), the scores and the winners. Raises ``records.RecordError`` naming the hand and event (1-based) on the
    first problem.
    """
    from .records import RecordError

    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object; got {type(record).__name__}", "record")
    game = record.get("game")
    if game not in ("solitaire1", "solitaire2"):
        raise RecordError(f"only solitaire records go through a Gymnasium env (solitaire1, solitaire2); this is {game!r}", "game")
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != 1 or not isinstance(hands[0], dict):
        raise RecordError("a solitaire record has one hand (a JSON object with 'deck' and 'events')", "hands")
    hand = hands[0]
    events = hand.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise RecordError("events is a list of JSON objects", "hand 1")
    options: dict[str, Any] = {"deck": hand.get("deck")}
    if game == "solitaire2":
        if "cut" not in hand:
            raise RecordError("missing key 'cut'", "hand 1")
        options["cut"] = hand["cut"]
    trace = any("legal" in e for e in events)
    env: _SolitaireEnv = (Solitaire1Env if game == "solitaire1" else Solitaire2Env)(trace=trace, illegal_action="raise")
    try:
        env.reset(options=options)
    except ValueError as e:
        raise RecordError(f"the deal is not playable: {e}", "hand 1, deck") from None

    checked = 0  # events [0, checked) agree with the environment's log

    def where(j: int) -> str:
        kind = events[j].get("type") if j < len(events) else None
        return f"hand 1, event {j + 1} ({kind})" if kind is not None else f"hand 1, event {j + 1}"

    def compare_upto(stop: int) -> None:
        nonlocal checked
        mine = env.state.hand_events[0]
        for j in range(checked, stop):
            if j >= len(mine):
                raise RecordError(
                    f"the environment has no such event: the game {_end_words(mine)}; "
                    f"the record goes on with {_event_words(events[j])}",
                    where(j),
                )
            why = _event_difference(mine[j], events[j])
            if why:
                raise RecordError(why, where(j))
        checked = max(checked, stop)

    for j, event in enumerate(events):
        if event.get("type") != "place":
            continue
        compare_upto(j)
        if len(env.state.hand_events[0]) != j:
            # The environment's log has more forced events before its next decision than the record.
            theirs = _event_words(env.state.hand_events[0][j])
            raise RecordError(f"the record places a tile where the environment has {theirs}", where(j))
        if not env._decision:
            raise RecordError("the game is over: no tile can be placed", where(j))
        move = _place_move(event, where(j))
        try:
            action = env.encode_move(move)
        except ValueError as e:
            raise RecordError(str(e), where(j)) from None
        if not env.action_masks()[action]:
            raise RecordError(f"{move} has action {action}, which the mask does not allow", where(j))
        if env.decode_action(action) != move:
            raise RecordError(f"action {action} decodes to {env.decode_action(action)}, not {move}", where(j))
        if isinstance(event.get("legal"), list):
            allowed = {env.decode_action(a) for a in np.flatnonzero(env.action_masks())}
            listed = {_hashable(m) for m in event["legal"]}
            if {_hashable([TILE_NAMES[m.tile], m.x, m.y]) for m in allowed} != listed:  # type: ignore[union-attr]
                raise RecordError(f"the legal list is not the {len(allowed)} move(s) the action mask allows", where(j))
        env.step(action)
    compare_upto(len(events))
    mine = env.state.hand_events[0]
    if len(mine) > len(events):
        raise RecordError(f"missing event: the environment goes on with {_event_words(mine[len(events)])}", where(len(events)))
    if not env.state.done:
        raise RecordError(f"the record stops before the game ends: {env._what_is_legal()}", where(len(events)))
    mine_record = env.game_record()
    for key in ("deck", "cut"):
        if key in mine_record["hands"][0] and hand.get(key) != mine_record["hands"][0][key]:
            raise RecordError(f"the environment's record has another {key}", f"hand 1, {key}")
    for key in ("scores", "winners"):
        if record.get(key) != mine_record[key]:
            raise RecordError(f"the game ends with {key} {mine_record[key]}, not {record.get(key)!r}", key)


def _place_move(event: dict[str, Any], where: str) -> Move:
    from .records import RecordError

    try:
        tile = tile_id(event.get("tile"))  # type: ignore[arg-type]
    except ValueError as e:
        raise RecordError(str(e), where) from None
    cell = event.get("cell")
    if not isinstance(cell, list) or len(cell) != 2 or not all(isinstance(c, int) and not isinstance(c, bool) for c in cell):
        raise RecordError(f"'cell' is [x, y], two integers; got {cell!r}", where)
    return Move(tile, cell[0], cell[1])


def _event_difference(mine: dict[str, Any], theirs: dict[str, Any]) -> str | None:
    """What differs between the environment's event and the record's (None if they agree)."""
    for key, value in mine.items():
        if key not in theirs:
            return f"missing key {key!r} (the environment has {_event_words(mine)})"
        other = theirs[key]
        if key == "legal":
            if not isinstance(other, list) or {_hashable(m) for m in value} != {_hashable(m) for m in other}:
                return f"the legal list differs from the {len(value)} legal move(s) the environment has"
            continue
        if not _same(value, other):
            if key == "type":
                return f"the environment has {_event_words(mine)}, the record {_event_words(theirs)}"
            return f"{key!r} is {other!r}, the environment has {value!r} ({_event_words(mine)})"
    return None


def _hashable(value: Any) -> Any:
    """A JSON value as something a set can hold (lists become tuples; anything else odd, its repr)."""
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return (type(value).__name__, value)  # keep 1 and True apart, as JSON does
    return repr(value)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _event_words(event: dict[str, Any]) -> str:
    kind = event.get("type")
    if kind in ("open", "place"):
        return f"{'an' if kind == 'open' else 'a'} {kind} of {event.get('tile')} at {tuple(event.get('cell') or ())}"
    if kind in ("draw", "discard"):
        return f"a {kind} of {event.get('tile')}"
    if kind == "end":
        return f"the end ({event.get('reason')})"
    return f"a {kind} event"


def _end_words(events: list[dict[str, Any]]) -> str:
    if events and events[-1].get("type") == "end":
        return f"ended ({events[-1].get('reason')})"
    return "waits for a placement"


def _discrete_action(action: Any, n: int) -> int:
    """``action`` as an int if it is an integer as ``Discrete(n)`` holds them: a Python int or a numpy integer
    (a scalar or a 0-d array). A float (22.9), a string ("22") or a bool (True: an int to Python, never an
    action here) raises ``ValueError`` instead of being played as some other action."""
    integer = isinstance(action, (int, np.integer)) or (
        isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer))
    if not integer or isinstance(action, (bool, np.bool_)):
        raise ValueError(f"an action is an integer 0..{n - 1} (a Python or numpy integer, as Discrete({n}) holds); "
                         f"got {action!r} ({type(action).__name__})")
    return int(action)
