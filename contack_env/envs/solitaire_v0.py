"""Gymnasium environments for the two Contack solitaires (docs/rules.md sections 6 and 7).

``import contack_env`` registers them: ``gymnasium.make("contack/Solitaire1-v0")`` and
``gymnasium.make("contack/Solitaire2-v0")`` (or use ``Solitaire1Env`` / ``Solitaire2Env`` directly).

Actions
-------
The encoding of every Contack environment (``contack_env.envs.actions``): ``action = slot * 21 + cell_slot``, where the
*slot* names the tile and the *cell slot* the cell (the three free sides of the last-played tile, then the holes
in ascending ``(x, y)`` order). Solitaire No. 1 has 1 slot, the one tile to place (the drawn tile or the discard
top: ``state.forced_tile``), so ``Discrete(21)``; Solitaire No. 2 has 7, slot ``k`` = the top of stack ``k`` (empty
once the stack is), so ``Discrete(147)``. ``action_masks()`` (for sb3-contrib's ``MaskablePPO``) and
``info["action_mask"]`` give the legal actions as an int8 array (1 = legal); every legal move has exactly one
action.

Episodes
--------
An episode is one deal. ``reset(seed=s)`` deals exactly as ``new_solitaire1(s)`` / ``new_solitaire2(s)`` do
(``numpy.random.default_rng(s)``: the permutation, then for No. 2 the cut); ``reset()`` without a seed draws an
int episode seed from the environment's generator (``np_random``: seeded by the last seeded reset, else fresh
entropy) and deals from it, as the multiplayer environment does, so every episode's record carries a seed that
regenerates its deal (``episode_seed``). ``reset(options={"deck": [...], "cut": k})`` plays a given deal (tile
ids or names; ``cut`` only for No. 2, where it is required; the record's seed is then null). Other option keys
are ignored with a warning.

Everything the rules force (the opening, draws, discards in No. 1, the end) happens inside ``reset`` and
``step``: the agent sees only decisions, one per placement. With ``auto_single_moves=True`` a decision with a
single legal move is made for the agent as well (``info["auto_moves"]`` counts them); its reward goes to the
agent's next step, so returns do not depend on the option.

A deal that needs no decision at all (No. 2: no stack top fits the opening tile, about 0.15% of deals, 1 in 680; No. 1
never, every opening tile fits 14 or more others; with ``auto_single_moves`` also a game that is all forced
moves) is still one episode, so win rates over episodes are the true rates over deals and no deal is skipped
or re-dealt: ``reset`` returns the final position with ``info["decision"] = False`` and a mask holding only
action 0; the first ``step`` accepts any action, changes nothing and ends the episode (``terminated``) with the
deal's reward (a win only with ``auto_single_moves``). Every other episode has ``info["decision"] = True``.

An action outside the mask (an integer outside the action space included) is illegal; the option
``illegal_action`` says what it does. ``"lose"`` (the default, so an agent without masks learns to avoid them
and Gymnasium's checker, which steps random actions, runs): the episode ends as a loss with reward -1 (with
``reward="tiles"`` or ``"points"``, plus what forced moves earned since the last step) and
``info["illegal_action"] = True``; such an episode has no finished game, so ``game_record()`` refuses it.
``"raise"``: ``ValueError`` naming the action, and nothing changes.

A mask is never all zeros: when no placement is to be made (a deal with no decision, and once the episode is
over) it holds only action 0. A vector environment then samples its next action from it as from any mask,
and the action is not played: in Gymnasium's default autoreset mode (next step) that step resets the episode
and ignores it; in the same-step mode the step's info already holds the next episode's mask.
``info["decision"]`` says whether a placement is pending.

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
docs/rules.md section 2 and ``docs/grid_bounds.py``; a candidate cell just outside is clipped, it is never legal).

Solitaire No. 1, ``n = 565`` (``S1_LAYOUT``):

| indices | piece          | shape  | content                                                                  |
|---------|----------------|--------|--------------------------------------------------------------------------|
| 0-323   | `tiles`        | 36 x 9 | per tile, in tile id order: 0: on the figure; 1: the tile to place now;  |
|         |                |        | 2: the top of the discard pile; 3: in the discard pile (top included);   |
|         |                |        | 4: depth in the discard pile / 35 (top 0); 5: unseen (still in the       |
|         |                |        | face-down pile); 6: `px` of its cell if on the figure, else 0; 7: `py`   |
|         |                |        | of its cell if on the figure, else 0; 8: it is the last-played tile      |
| 324-512 | `cells`        | 21 x 9 | per cell slot, in the action encoding's order: 0: the slot holds a cell; |
|         |                |        | 1: its `px`; 2: its `py` (both clipped to [0, 1]); 3: it points up; 4:   |
|         |                |        | placed neighbours / 3; 5-7: the value the placed neighbour across side   |
|         |                |        | L, R, B shows this cell / 10 (0 if none); 8: it touches the last-played  |
|         |                |        | tile                                                                     |
| 513-516 | `slots`        | 1 x 4  | the slot (the tile to place): 0: the slot holds a tile; 1-3: its blue,   |
|         |                |        | red, gold values / 10                                                    |
| 517-537 | `legal`        | 21     | per action: 1 if it is legal                                             |
| 538-558 | `points`       | 21     | per action: its points / 50 if it is legal, else 0                       |
| 559     | `placed`       | 1      | tiles on the figure / 36                                                 |
| 560     | `pile`         | 1      | pile size / 35                                                           |
| 561     | `discard`      | 1      | discard pile size / 35                                                   |
| 562     | `from_discard` | 1      | 1 if the tile to place comes from the discard pile                       |
| 563     | `holes`        | 1      | holes / 18                                                               |
| 564     | `decision`     | 1      | 1 while a decision is pending (0 at the end and in a deal with no        |
|         |                |        | decision)                                                                |

Solitaire No. 2, ``n = 953`` (``S2_LAYOUT``):

| indices | piece      | shape   | content                                                                  |
|---------|------------|---------|--------------------------------------------------------------------------|
| 0-431   | `tiles`    | 36 x 12 | per tile, in tile id order: 0: on the figure; 1-7: on top of stack 0..6  |
|         |            |         | (one-hot); 8: unseen (under a stack top); 9: `px` of its cell if on the  |
|         |            |         | figure, else 0; 10: `py` of its cell if on the figure, else 0; 11: it is |
|         |            |         | the last-played tile                                                     |
| 432-620 | `cells`    | 21 x 9  | per cell slot, in the action encoding's order: 0: the slot holds a cell; |
|         |            |         | 1: its `px`; 2: its `py` (both clipped to [0, 1]); 3: it points up; 4:   |
|         |            |         | placed neighbours / 3; 5-7: the value the placed neighbour across side   |
|         |            |         | L, R, B shows this cell / 10 (0 if none); 8: it touches the last-played  |
|         |            |         | tile                                                                     |
| 621-648 | `slots`    | 7 x 4   | per slot (stack 0..6): its top tile: 0: the slot holds a tile; 1-3: its  |
|         |            |         | blue, red, gold values / 10                                              |
| 649-795 | `legal`    | 147     | per action: 1 if it is legal                                             |
| 796-942 | `points`   | 147     | per action: its points / 50 if it is legal, else 0                       |
| 943     | `placed`   | 1       | tiles on the figure / 36                                                 |
| 944-950 | `heights`  | 7       | stack heights / 5 (after the cut no stack holds more)                    |
| 951     | `holes`    | 1       | holes / 18                                                               |
| 952     | `decision` | 1       | 1 while a decision is pending (0 at the end and in a deal with no        |
|         |            |         | decision)                                                                |

``S1_LAYOUT`` and ``S2_LAYOUT`` (this module; ``contack_env.envs.layout.ObservationLayout``) declare these pieces: ``S2_LAYOUT.view(obs,
"heights")`` is a piece in its shape, ``S2_LAYOUT.start("decision")`` its index.

Rendering and records
---------------------
``render_mode="ansi"`` returns ``contack_env.render.text.render_text(state)``, ``"rgb_array"``
``contack_env.render.image.render_rgb(state)``;
``"human"`` prints the text view after every ``reset`` and ``step`` (and ``render()`` prints it again).
``game_record(agents=None)`` is the finished episode's ``contack-record/1`` record, with the episode seed;
with the option ``trace=True`` every placement in it also lists the legal moves it was chosen from (``"legal"``,
as ``contack simulate --trace`` writes, docs/records.md).
``contack_env.envs.replay.replay_through_env(record)`` plays a record through the environment, action by action,
and checks it (``contack replay --check --through-env``).

Version history
---------------
- v0: initial version.
- v0, revised: action masks (``action_masks()``, ``info["action_mask"]``) are int8, as in every environment of
  the project (they were bool); unknown reset options are ignored with a warning (they raised ``ValueError``).
  Observations are unchanged.
- v0, revised: ``reset(seed=...)`` takes whole numbers ``0..2**63-1`` (``True`` dealt as seed 1, and any size of
  int was taken); ``action_masks()`` before the first ``reset()`` raises ``RuntimeError``, as ``step`` does (it
  returned all zeros); ``encode_move`` refuses a float, a string or a bool where a whole number belongs, and a cell
  beyond the engine's grid. Observations, actions and rewards are unchanged.
- v0, revised: with ``auto_single_moves``, the reward of an illegal action adds what forced moves earned since the
  last step (``reward="tiles"`` or ``"points"``), as any step's does (it was -1 alone, and they were lost).
  Observations, actions and every other reward are unchanged.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from contack_env.checks import is_whole_number
from contack_env.contack.figure import Move, as_move
from contack_env.contack.solitaire import NUM_STACKS, STACK6_SIZE, Solitaire1, Solitaire2
from contack_env.contack.state import GameState
from contack_env.contack.tiles import NUM_TILES, tile_id
from contack_env.envs.actions import MAX_HOLES, NUM_CELL_SLOTS, ActionLayout
from contack_env.envs.conventions import ILLEGAL_REWARD, MASK_DTYPE, check_illegal_action, reset_options
from contack_env.envs.figure_features import (
    CELLS,
    LAST_PLAYED,
    ON_FIGURE,
    POINTS_SCALE,
    SLOT_PRESENT,
    SLOT_VALUES,
    TILE_VALUE_ROWS,
    TILE_X,
    TILE_Y,
    fill_cell_rows,
    fill_figure_columns,
)
from contack_env.envs.layout import Column, Columns, ObservationLayout, Piece
from contack_env.seeds import check_seed
from contack_env.wording import plural

__all__ = [
    "ENV_IDS",
    "REWARDS",
    "Solitaire1Env",
    "Solitaire2Env",
    "SolitaireObserver",
    "register_envs",
    "solitaire1_observer",
    "solitaire2_observer",
]

ENV_IDS = {"contack/Solitaire1-v0": "Solitaire1Env", "contack/Solitaire2-v0": "Solitaire2Env"}
REWARDS = ("win", "tiles", "points")
RESET_OPTIONS = ("deck", "cut")
_SEED_BOUND = 2**63  # episode seeds drawn for unseeded resets are ints in [0, 2**63)

STACK_HEIGHT = 5
"""The most tiles any stack holds once the opening tile is cut out of stack 6 (stack heights are divided by it)."""
DISCARD_SCALE = float(NUM_TILES - 1)
"""Solitaire No. 1's pile and discard pile sizes and discard depths are divided by this (35: the opening tile
is never in either)."""

_SLOT = Columns(SLOT_PRESENT, SLOT_VALUES)
_PRESENT = _SLOT["present"]
_VALUES = _SLOT.span("values")


def _solitaire_layout(tile_columns: Columns, num_slots: int, slot_text: str, scalars: Sequence[Piece]) -> ObservationLayout:
    num_actions = num_slots * NUM_CELL_SLOTS
    return ObservationLayout(
        [
            Piece("tiles", (NUM_TILES, tile_columns.width), "per tile, in tile id order:", columns=tile_columns),
            CELLS,
            Piece("slots", (num_slots, _SLOT.width), slot_text, columns=_SLOT),
            Piece("legal", (num_actions,), "per action: 1 if it is legal"),
            Piece("points", (num_actions,), "per action: its points / {scale:g} if it is legal, else 0", POINTS_SCALE),
            Piece("placed", (), "tiles on the figure / {scale:g}", float(NUM_TILES)),
            *scalars,
            Piece("holes", (), "holes / {scale:g}", float(MAX_HOLES)),
            Piece("decision", (), "1 while a decision is pending (0 at the end and in a deal with no decision)"),
        ]
    )


S1_TILES = Columns(
    ON_FIGURE,
    Column("to_place", "the tile to place now"),
    Column("discard_top", "the top of the discard pile"),
    Column("in_discard", "in the discard pile (top included)"),
    Column("discard_depth", f"depth in the discard pile / {DISCARD_SCALE:g} (top 0)"),
    Column("unseen", "unseen (still in the face-down pile)"),
    TILE_X,
    TILE_Y,
    LAST_PLAYED,
)
S1_LAYOUT = _solitaire_layout(
    S1_TILES,
    1,
    "the slot (the tile to place):",
    [
        Piece("pile", (), "pile size / {scale:g}", DISCARD_SCALE),
        Piece("discard", (), "discard pile size / {scale:g}", DISCARD_SCALE),
        Piece("from_discard", (), "1 if the tile to place comes from the discard pile"),
    ],
)
"""Solitaire No. 1's observation, piece by piece (the table of the module docstring)."""
S2_TILES = Columns(
    ON_FIGURE,
    Column("top", f"on top of stack 0..{NUM_STACKS - 1} (one-hot)", NUM_STACKS),
    Column("unseen", "unseen (under a stack top)"),
    TILE_X,
    TILE_Y,
    LAST_PLAYED,
)
S2_LAYOUT = _solitaire_layout(
    S2_TILES,
    NUM_STACKS,
    "per slot (stack 0..6): its top tile:",
    [Piece("heights", (NUM_STACKS,), "stack heights / {scale:g} (after the cut no stack holds more)", float(STACK_HEIGHT))],
)
"""Solitaire No. 2's observation, piece by piece (the table of the module docstring)."""
_S1_FIGURE, _S1_TO_PLACE, _S1_DISCARD_TOP, _S1_IN_DISCARD, _S1_DISCARD_DEPTH, _S1_UNSEEN = (
    S1_TILES[name] for name in ("figure", "to_place", "discard_top", "in_discard", "discard_depth", "unseen")
)
_S2_TOP, _S2_UNSEEN = S2_TILES["top"], S2_TILES["unseen"]


class _SolitaireEnv(gymnasium.Env):
    """What both solitaire environments share; subclasses say how to deal and what a player sees."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 2}
    game = ""
    num_slots = 0
    obs_layout: ObservationLayout

    def __init__(
        self,
        render_mode: str | None = None,
        reward: str = "win",
        auto_single_moves: bool = False,
        trace: bool = False,
        illegal_action: str = "lose",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None, 'human', 'ansi' or 'rgb_array'; got {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(map(repr, REWARDS))}; got {reward!r}")
        if not isinstance(auto_single_moves, (bool, np.bool_)):
            raise ValueError(f"auto_single_moves is True or False; got {auto_single_moves!r}")
        if not isinstance(trace, (bool, np.bool_)):
            raise ValueError(f"trace is True or False; got {trace!r}")
        self.render_mode = render_mode
        self.reward_mode = reward
        self.auto_single_moves = bool(auto_single_moves)
        self.trace = bool(trace)
        self.illegal_action = check_illegal_action(illegal_action)
        size = self.obs_layout.size
        self.observation_space = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.num_slots * NUM_CELL_SLOTS)
        self._state: GameState | None = None
        self._layout: ActionLayout | None = None
        self._mask = np.zeros(self.action_space.n, dtype=MASK_DTYPE)
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
        """The legal actions of the current decision (int8, 1 = legal); see the module docstring for episodes with no
        decision and for finished ones (action 0 alone: a mask is never all zeros). ``RuntimeError`` before the
        first ``reset()``, as ``step`` raises: there is no decision yet to mask."""
        if self._state is None:
            raise RuntimeError("no episode yet: call reset() first")
        return self._mask.copy()

    def encode_move(self, move: Move | Sequence[int]) -> int:
        """The action of a legal ``move`` (tile id, x, y); ``ValueError`` if it has none at this decision."""
        move = as_move(move)  # ValueError for anything but three whole numbers
        try:
            action = self.layout.encode(move) if self._decision else None
        except KeyError:  # its tile or its cell (one beyond the grid included) has no slot
            action = None
        if action is None:
            raise ValueError(f"{move} is not legal here (no action names it): {self._what_is_legal()}")
        if not self._mask[action]:
            raise ValueError(f"{move} is not legal here: {self._what_is_legal()}")
        return action

    def decode_action(self, action: int) -> Move | None:
        """The move of ``action`` at this decision, or None if the action is not a legal one (``ValueError`` if it
        is no integer at all)."""
        action = _discrete_action(action, self.action_space.n)
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
        return f"{plural(len(moves), 'legal move')}: {', '.join(str(m) for m in moves)}"

    # -- subclass hooks ------------------------------------------------------------------------------------------
    def _deal_random(self, rng: np.random.Generator) -> GameState:
        raise NotImplementedError

    def _deal_given(self, deck: list[int], options: dict[str, Any]) -> GameState:
        raise NotImplementedError

    def _slots(self) -> list[int | None]:
        raise NotImplementedError

    def _fill_tiles(self, tiles: np.ndarray) -> None:
        """Fill the per-tile rows' columns of this solitaire (the figure's columns are filled already)."""
        raise NotImplementedError

    def _fill_scalars(self, obs: np.ndarray) -> None:
        raise NotImplementedError

    # -- Gymnasium API -------------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            seed = check_seed(seed)  # (Gymnasium would take True as 1, and any size of int)
        super().reset(seed=seed)
        options = reset_options(options, RESET_OPTIONS)
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
        self._show()
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
            self._mask = self._closing_mask()
            info = self._info(0)
            info["illegal_action"] = True
            info["is_success"] = False
            self._show()
            # what forced moves placed since the last step is owed, as on any step ("tiles", "points")
            return self._observe(), ILLEGAL_REWARD + self._take_reward(won=False), True, False, info
        code = self.layout.decode_code(a)
        self._pending_points += state.play_code(code)  # type: ignore[arg-type]
        self._pending_tiles += 1
        auto = self._auto_play()
        self._update_decision()
        if state.done:
            return self._end_step(auto)
        reward = self._take_reward(won=False)
        self._show()
        return self._observe(), reward, False, False, self._info(auto)

    def _end_step(self, auto: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.state
        self._over = True
        self._decision = False
        self._mask = self._closing_mask()
        reward = self._take_reward(won=bool(state.won))  # type: ignore[attr-defined]
        info = self._info(auto)
        info["is_success"] = bool(state.won)  # type: ignore[attr-defined]
        self._show()
        return self._observe(), reward, True, False, info

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; make the env with render_mode='human', "
                                  "'ansi' or 'rgb_array'")
            return None
        if self.render_mode == "rgb_array":
            from contack_env.render.image import render_rgb

            return render_rgb(self.state)
        from contack_env.render.text import render_text

        text = render_text(self.state)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def _show(self) -> None:
        """With ``render_mode="human"``, print the text view after a reset or a step (Gymnasium's convention)."""
        if self.render_mode == "human":
            self.render()

    def game_record(self, agents: Sequence[str] | None = None) -> dict[str, Any]:
        """The ``contack-record/1`` record of the finished episode (``records.game_record``)."""
        from contack_env.records.contack import game_record

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
        if state.done:
            self._decision = False
            mask = self._closing_mask()  # a deal with no decision (or one decided by forced moves): action 0 closes it
        else:
            mask = np.zeros(self.action_space.n, dtype=MASK_DTYPE)
            self._decision = True
            encode = self._layout.encode_code
            for code in state.legal_codes():
                mask[encode(code)] = 1
        self._mask = mask

    def _closing_mask(self) -> np.ndarray:
        """The mask when no placement is to be made: only action 0, never all zeros (module docstring)."""
        mask = np.zeros(self.action_space.n, dtype=MASK_DTYPE)
        mask[0] = 1
        return mask

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
        figure = self.state.figure
        tiles = lay.view(obs, "tiles")
        fill_figure_columns(tiles, figure, lay.columns("tiles"))
        self._fill_tiles(tiles)
        fill_cell_rows(lay.view(obs, "cells"), figure, self.layout.cells)
        if self._decision:
            slots = lay.view(obs, "slots")
            for k, tile in enumerate(self.layout.slots):
                if tile is not None:
                    slots[k, _PRESENT] = 1.0
                    slots[k, _VALUES] = TILE_VALUE_ROWS[tile]
            legal = lay.view(obs, "legal")
            points = lay.view(obs, "points")
            for action in np.flatnonzero(self._mask):
                code = self.layout.decode_code(int(action))
                legal[action] = 1.0
                points[action] = figure.points_for_code(code) / POINTS_SCALE  # type: ignore[operator]
        obs[lay.start("placed")] = len(figure) / NUM_TILES
        obs[lay.start("holes")] = len(figure.holes) / MAX_HOLES
        obs[lay.start("decision")] = 1.0 if self._decision else 0.0
        self._fill_scalars(obs)
        return obs


class Solitaire1Env(_SolitaireEnv):
    """Solitaire No. 1, draw and discard (docs/rules.md section 6), as a Gymnasium environment (module docstring)."""

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

    def _fill_tiles(self, tiles: np.ndarray) -> None:
        state: Solitaire1 = self.state  # type: ignore[assignment]
        discard = state.discard
        for depth, tile in enumerate(reversed(discard)):
            tiles[tile, _S1_IN_DISCARD] = 1.0
            tiles[tile, _S1_DISCARD_DEPTH] = depth / DISCARD_SCALE
        if discard:
            tiles[discard[-1], _S1_DISCARD_TOP] = 1.0
        if self._decision:
            tiles[state.forced_tile, _S1_TO_PLACE] = 1.0
        # Unseen: neither on the figure, nor in the discard pile, nor the tile to place (drawn from the pile).
        tiles[:, _S1_UNSEEN] = 1.0 - np.maximum.reduce(
            [tiles[:, _S1_FIGURE], tiles[:, _S1_IN_DISCARD], tiles[:, _S1_TO_PLACE]]
        )

    def _fill_scalars(self, obs: np.ndarray) -> None:
        state: Solitaire1 = self.state  # type: ignore[assignment]
        obs[S1_LAYOUT.start("pile")] = state.pile_size / DISCARD_SCALE
        obs[S1_LAYOUT.start("discard")] = len(state.discard) / DISCARD_SCALE
        obs[S1_LAYOUT.start("from_discard")] = 1.0 if self._decision and state.source == "discard" else 0.0


class Solitaire2Env(_SolitaireEnv):
    """Solitaire No. 2, seven stacks (docs/rules.md section 7), as a Gymnasium environment (module docstring)."""

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

    def _fill_tiles(self, tiles: np.ndarray) -> None:
        state: Solitaire2 = self.state  # type: ignore[assignment]
        for k, stack in enumerate(state.stacks):
            if stack:
                tiles[stack[-1], _S2_TOP + k] = 1.0
                for tile in stack[:-1]:
                    tiles[tile, _S2_UNSEEN] = 1.0

    def _fill_scalars(self, obs: np.ndarray) -> None:
        state: Solitaire2 = self.state  # type: ignore[assignment]
        heights = S2_LAYOUT.view(obs, "heights")
        for k, stack in enumerate(state.stacks):
            heights[k] = len(stack) / STACK_HEIGHT


def _parse_deck(deck: Any) -> list[int]:
    if isinstance(deck, (str, bytes)) or not hasattr(deck, "__len__"):
        raise ValueError(f"'deck' is a list of the 36 tiles (ids 0..35 or names like '01-02-03'); got {deck!r}")
    out = []
    for item in deck:
        if isinstance(item, str):
            out.append(tile_id(item))
        elif is_whole_number(item):
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


class SolitaireObserver:
    """A solitaire environment's observation and mask at a state of its solitaire (a
    ``contack_env.envs.conventions.StateObserver``), through ``observe_state`` of one environment it keeps."""

    factored = False

    def __init__(self, env: "_SolitaireEnv") -> None:
        self._env = env
        self.obs_size = int(env.observation_space.shape[0])
        self.num_actions = int(env.action_space.n)

    def observe_state(self, state: GameState) -> tuple[np.ndarray, np.ndarray, ActionLayout]:
        return self._env.observe_state(state)


def solitaire1_observer(options: Any = None) -> SolitaireObserver:
    """Solitaire No. 1's observer (``GameSpec.observer``; the solitaire has no rule options)."""
    return SolitaireObserver(Solitaire1Env())


def solitaire2_observer(options: Any = None) -> SolitaireObserver:
    """Solitaire No. 2's observer (``GameSpec.observer``; the solitaire has no rule options)."""
    return SolitaireObserver(Solitaire2Env())
