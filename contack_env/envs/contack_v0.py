# noqa: D212, D415
"""
# Contack

| Creation           | `from contack_env import contack_v0; env = contack_v0.env(num_players=4)` |
|--------------------|-----------------------------------------------------------------------------|
| Registry           | `import contack_env; pettingzoo.make("aec", "contack/contack-v0")`          |
| Actions            | Discrete                                                                    |
| Parallel API       | No                                                                          |
| Manual Control     | No                                                                          |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']` (seat i is `player_i`)          |
| Agents             | 2 to 7 (option `num_players`, default 4)                                    |
| Action Shape       | (1,)                                                                        |
| Action Values      | Discrete(105)                                                               |
| Observation Shape  | (787,)                                                                      |
| Observation Values | [0, 1], and [-1, 1] for the score components                                |

Contack (Parker Brothers, 1939) is a tile-laying game for 2 to 7 players. Each of 36 triangular tiles has a
blue, a red and a gold side, each with a value 1..10. Players add tiles to one figure on a triangular grid; two
touching sides must be the same colour and show equal values or values adding up to a multiple of 5, and such
a sum scores its value. A tile goes beside the last-played tile, or into any "hole" touching two or three tiles
(an opportunity play). A hand ends when a player places their last tile, when nobody can play, or when the
figure closes up; tiles left in hand cost 10 points each. A game is several hands (3 by default); the highest
total wins. The rules this environment follows are `docs/rules.md` (section 5 for this game).

One episode is one whole game, every hand. Everything the rules force happens inside the environment: the
opening tile of each hand, draws from the pile while a player cannot play, passes, the ends of hands and the
new deals. So the agent selected by `agent_selection` always has at least one legal action, and an agent
whose turn passes without a placement is simply not selected. What happened shows in `infos` (below) and in
the observation.

### Options

`contack_v0.env(**options)` and `contack_v0.raw_env(**options)` take:

| option              | values                               | default   | meaning                                                        |
|---------------------|--------------------------------------|-----------|----------------------------------------------------------------|
| `num_players`       | 2 .. 7                               | 4         | seats; agents `player_0` .. `player_{n-1}`                     |
| `num_hands`         | an int 1..100                        | 3         | hands in a game (the 1939 rules play 3)                        |
| `enclosed_end`      | `"1939"`, `"next_player"`, `"never"` | `"1939"`  | when an enclosed figure ends a hand (docs/rules.md section 5)  |
| `reward`            | `"win"`, `"score"`                   | `"win"`   | the reward scheme (below)                                      |
| `auto_single_moves` | `False`, `True`                      | `False`   | play decisions that have exactly one legal move inside the env |
| `render_mode`       | `None`, `"human"`, `"ansi"`, `"rgb_array"` | `None` | what `render()` does (below)                              |
| `illegal_action`    | `"raise"`, `"lose"`                  | `"raise"` | what an illegal action does (below); `env()` sets `"lose"`     |
| `info_events`       | `False`, `True`                      | `False`   | add the event log to `infos` (below)                           |

`import contack_env` registers the id `contack/contack-v0` with PettingZoo's registry (PettingZoo 1.27 and
later): `pettingzoo.make("aec", "contack/contack-v0", **options)` is `contack_v0.env(**options)`.

The default of 4 players matches the project's `contack simulate --players` default and its benchmarks; the
observation and action spaces are the same for every player count, so one policy can play any table size.
A value outside these raises `ValueError` saying what is allowed.

`auto_single_moves=True` skips the decisions that are not choices (nearly half of the decisions in random play
have a single legal move, e.g. a drawn tile that fits in one place): after every step, and at reset, the
environment plays such a move for its seat until a seat has two or more legal moves or the game ends. A
decision with two or more legal moves is never skipped. The skipped moves are in `infos` and in the record.

`reset(seed=None, options=None)`: `seed` (an int) makes the deals of every hand reproducible: a reset with seed
`s` deals exactly as `contack_env.new_game(n, num_hands, seed=s)`, and the episode's record carries `seed = s`. A reset
without a seed draws an int episode seed from the environment's generator (seeded by the last seeded reset,
else from fresh entropy) and deals from it, so every record can be regenerated from its `seed`.
`options={"decks": [[36 tile ids] per hand]}` (or an array of shape `(hands, 36)`) plays the given deals instead
(for replaying a record; the record's `seed` is then null). Other option keys are ignored with a warning
(PettingZoo's API test passes made-up ones).

### Observation Space

`observe(agent)` gives that agent's own view: a dictionary with `"observation"` (a float32 vector of 787
values) and `"action_mask"` (int8, 105 values; all zeros for every agent but the one to move, and for everyone
once the game is over). `action_mask()` gives the mask of the agent to move.

Every hand is face up in Contack (docs/rules.md section 5, step 1), so the observation shows every hand; the one hidden thing is
the order of the face-down pile, which no component reveals (two games that differ only in the order of the
pile give identical observations). Seats are **relative** to the observer: relative seat 0 is the observer,
1 the seat that plays after them, and so on; per-seat components have room for 7 seats and the ones a smaller
table does not use are 0. Positions are scaled by the grid bound (below): `px = (x + 35) / 70`,
`py = (y + 17) / 34`.

| indices | piece          | shape   | content                                                                  |
|---------|----------------|---------|--------------------------------------------------------------------------|
| 0-431   | `tiles`        | 36 x 12 | per tile, in tile id order: 0-6: held by relative seat 0..6; 7: on the   |
|         |                |         | figure; 8: unseen (in the pile; with the two before, one-hot); 9: `px`   |
|         |                |         | of its cell if on the figure, else 0; 10: `py` of its cell if on the     |
|         |                |         | figure, else 0; 11: it is the last-played tile                           |
| 432-620 | `cells`        | 21 x 9  | per cell slot, in the action encoding's order: 0: the slot holds a cell; |
|         |                |         | 1: its `px`; 2: its `py` (both clipped to [0, 1]); 3: it points up; 4:   |
|         |                |         | placed neighbours / 3; 5-7: the value the placed neighbour across side   |
|         |                |         | L, R, B shows this cell / 10 (0 if none); 8: it touches the last-played  |
|         |                |         | tile                                                                     |
| 621-645 | `hand`         | 5 x 5   | per hand slot (the observer's tiles sorted by tile id, as the action     |
|         |                |         | encoding's slots): 0: the slot holds a tile; 1-3: its blue, red, gold    |
|         |                |         | values / 10; 4: the drawn tile that must be placed                       |
| 646-750 | `points`       | 105     | per action: the points the placement scores / 50 if it is legal, else 0  |
| 751     | `pile`         | 1       | pile size / 36                                                           |
| 752     | `hand_number`  | 1       | hand number (0-based) / number of hands                                  |
| 753     | `hands_left`   | 1       | hands still to play after this one / number of hands                     |
| 754     | `last_hand`    | 1       | 1 in the last hand                                                       |
| 755-761 | `scores`       | 7       | running score (penalties included) per relative seat / 300, clipped to   |
|         |                |         | [-1, 1]                                                                  |
| 762     | `lead`         | 1       | observer's score minus the best other score, / 300, clipped to [-1, 1]   |
| 763-769 | `hand_sizes`   | 7       | tiles held per relative seat / 5                                         |
| 770     | `passes`       | 1       | passes in a row so far / number of players                               |
| 771-777 | `to_move`      | 7       | one-hot: the relative seat to move (all 0 once the game is over)         |
| 778-783 | `players`      | 6       | one-hot: number of players, 2..7                                         |
| 784-786 | `enclosed_end` | 3       | one-hot: `enclosed_end`, in the order "1939", "next_player", "never"     |

The colour of a cell's sides is fixed (every tile lies blue on B: an up cell shows gold on L and red on R, a
down cell red on L and gold on R), so a cell slot's "points up" value and its facing values say which contacts a
tile would make there. The
per-action points are a public, derived feature (any player could count them) that lets a plain MLP see what
each placement is worth. `contack_env.envs.observation.LAYOUT` declares these pieces: `LAYOUT.view(obs, "scores")`
is a piece in its shape, `LAYOUT.start("pile")` its index.

**Grid bound.** Every cell of a legal figure lies in `-35 <= x <= 35`, `-17 <= y <= 17` (docs/rules.md section 2;
`docs/grid_bounds.py` shows that this game reaches exactly `-34 <= x <= 34`, `-17 <= y <= 17`), so `px`, `py`
of a tile are in [0, 1]. A candidate cell just outside that box can exist (a free neighbour of a tile on the
edge) but can never be filled; its position is clipped.

### Action Space

`Discrete(105)` = 5 hand slots x 21 cell slots, `action = slot * 21 + cell_slot` (`contack_env.envs.actions`,
`ActionLayout(5, sorted hand tiles, figure)`):

- `slot` is the position of the tile in the acting player's hand **sorted by tile id** (a hand never holds more
  than 5 tiles);
- `cell_slot` 0, 1, 2 is the free cell across side L, R, B of the last-played tile (when that cell touches only
  the last-played tile); `cell_slot` 3 .. 20 are the holes, the empty cells touching two or three tiles, in
  ascending `(x, y)` order.

Why this encoding: a placement is a tile and a cell (the orientation is always blue on B, docs/rules.md section 2),
and a legal placement can only go beside the last-played tile or into a hole (docs/rules.md section 4, condition 2). Naming the cell
among these candidates instead of by absolute coordinates (71 x 35 cells times 36 tiles: some 90,000 actions,
nearly all never legal) keeps the space small and every action meaningful in every position, while every legal
placement still has exactly one action: at most 18 holes can exist (a connected figure of k tiles has at most
k + 2 free sides, a hole takes two, and a decision has k <= 35). Naming the tile by its hand slot, not its id,
keeps the space 5 x 21 instead of 36 x 21.

#### Legal Actions Mask

The legal moves of the agent to move are the 1s of `action_mask`: exactly the engine's legal moves (the
placements docs/rules.md section 4 allows; when the player has just drawn a tile that fits, only that tile's). It is
all zeros for every other agent.

**Illegal actions.** An action outside the mask (an int outside `Discrete(105)` included) is illegal; the
option `illegal_action` says what it does, in `raw_env.step` itself. `"lose"` (what `env()` sets unless told
otherwise): the game ends at once, the offender gets -1 and every other agent 0 for that step, every agent is
terminated, and the offender's info holds `"illegal_action": True`; the game is unfinished, so it makes no
record. `"raise"` (the `raw_env` default): `ValueError` naming the action and the legal ones, and nothing
changes. An action that is no int at all (`1.5`, `None` from a live agent) always raises `ValueError`.
`env()` is `raw_env` behind PettingZoo's `OrderEnforcingWrapper` (which refuses calls before `reset`).

### Rewards

`reward="win"` (default): zero-sum, on the final result of the whole game, given when the last hand ends. With
n players and k winners (the seats sharing the highest total), each winner gets `(n/k - 1)/(n - 1)` and each
other seat `-1/(n - 1)`: heads-up +1 / -1, a sole winner +1, a tie of everyone 0.

`reward="score"`: every placement's points go to the seat that placed it, when it is placed, and each hand's
penalties (-10 per tile held) to the penalised seats when the hand ends; all scaled by 1/100. Over an episode
an agent's rewards add up to its final score / 100.

Every reward goes to the agent that earned it, even when it is earned while another agent acts (a skipped
single move, a hand end, the end of the game): the environment adds it to that agent's `rewards` and
`_cumulative_rewards`, and the agent collects it with `last()` at its next turn or at the end. Points scored
by moves played at reset (only with `auto_single_moves`) are paid with the rewards of the first step, an illegal
one's included (on top of its -1 and 0s).

When the game ends (or an illegal action ends it), every agent is terminated, and `agent_iter()` selects each
agent once more to collect its last reward with `last()` and step `None`: first the seat after the last mover
(the offender, after an illegal action), then the others in seat order. After that `agents` is empty.

### Info

`infos[agent]` holds what happened since that agent's previous step (or since the reset), with the same keys
and plain scalars at every step, so replay buffers that stack infos (Tianshou's) take them: `"passed"`: how
many times it passed; `"draws"`: how many tiles it drew; `"auto_moves"`: how many of its placements the
environment made (`auto_single_moves`); `"illegal_action"`: True only in the info of an agent whose illegal
action ended the game (`illegal_action="lose"`), else False.

With `info_events=True` every info also holds the event log: `"events"`: the events in the record vocabulary
of docs/records.md (open, place, draw, pass, end) in order, the agent's own placement first; `"drawn"`: names
of the tiles this agent drew. The events are copies: the lists an agent collects at its turns, put end to end,
are the whole game's events. They are lists of varying length, hence off by default.

### State

`state()` is the whole public position as one float32 vector of 786 values (`state_space`), the same whichever
agent asks, for centralised critics. Every hand is face up, so it says nothing an observation does not; it is
the observation's pieces seen from seat 0 (so seat `i` is `player_i`), without `lead`, with the hand slots and
per-action points of the seat to move (0 once the game is over). The order of the pile is not in it.
`contack_env.envs.state.STATE_LAYOUT` declares the pieces:

| indices | piece          | shape   | content                                                                  |
|---------|----------------|---------|--------------------------------------------------------------------------|
| 0-431   | `tiles`        | 36 x 12 | per tile, in tile id order: 0-6: held by seat 0..6; 7: on the figure; 8: |
|         |                |         | unseen (in the pile; with the two before, one-hot); 9: `px` of its cell  |
|         |                |         | if on the figure, else 0; 10: `py` of its cell if on the figure, else 0; |
|         |                |         | 11: it is the last-played tile                                           |
| 432-620 | `cells`        | 21 x 9  | per cell slot, in the action encoding's order: 0: the slot holds a cell; |
|         |                |         | 1: its `px`; 2: its `py` (both clipped to [0, 1]); 3: it points up; 4:   |
|         |                |         | placed neighbours / 3; 5-7: the value the placed neighbour across side   |
|         |                |         | L, R, B shows this cell / 10 (0 if none); 8: it touches the last-played  |
|         |                |         | tile                                                                     |
| 621-645 | `hand`         | 5 x 5   | per hand slot of the seat to move (its tiles sorted by tile id, as the   |
|         |                |         | action encoding's slots): 0: the slot holds a tile; 1-3: its blue, red,  |
|         |                |         | gold values / 10; 4: the drawn tile that must be placed                  |
| 646-750 | `points`       | 105     | per action of the seat to move: the points the placement scores / 50 if  |
|         |                |         | it is legal, else 0                                                      |
| 751     | `pile`         | 1       | pile size / 36                                                           |
| 752     | `hand_number`  | 1       | hand number (0-based) / number of hands                                  |
| 753     | `hands_left`   | 1       | hands still to play after this one / number of hands                     |
| 754     | `last_hand`    | 1       | 1 in the last hand                                                       |
| 755-761 | `scores`       | 7       | running score (penalties included) per seat / 300, clipped to [-1, 1]    |
| 762-768 | `hand_sizes`   | 7       | tiles held per seat / 5                                                  |
| 769     | `passes`       | 1       | passes in a row so far / number of players                               |
| 770-776 | `to_move`      | 7       | one-hot: the seat to move (all 0 once the game is over)                  |
| 777-782 | `players`      | 6       | one-hot: number of players, 2..7                                         |
| 783-785 | `enclosed_end` | 3       | one-hot: `enclosed_end`, in the order "1939", "next_player", "never"     |

### Beyond the AEC API

`raw_env.game` is the engine state (`contack_env.ContackGame`; read it, never play on it). `action_mask()` is
the mask of the agent to move; `decode_action(action)` the move an action stands for now, `encode_move((tile,
x, y))` the action of a move (`ValueError` if it has none), `action_layout()` the decision's
`contack_env.envs.actions.ActionLayout`; `episode_seed` the int the episode's deals came from.
`copy.deepcopy(env)` is the episode as it stands, with its own game and random stream: a search can step the
copy and leave `env` where it was. `pickle` makes a fresh environment from the constructor's arguments.

### Records and rendering

`raw_env.game_record(agents=None)` returns the finished episode as a `contack-record/1` record (docs/records.md),
with the episode's `seed`. `render()` returns the text view (`contack_env.render.text.render_text`) with
`render_mode="ansi"` and an RGB image (`contack_env.render.image.render_rgb`, uint8, H x W x 3) with `"rgb_array"`.
With `"human"` the environment prints the text view to the terminal after the reset and after every move, as
the game goes (as PettingZoo's classic games show themselves), and `render()` prints it again and returns None.

### Version History

* v0: Initial version.
* v0, revised: the option `illegal_action`; under `env()` an illegal action now terminates every agent without
  truncating them, tells the offender's info `"illegal_action": True` and an int outside `Discrete(105)` loses
  like any illegal action (it failed an assertion); unknown reset options warn. Observations are unchanged.
* v0, revised: infos hold scalars only (`"draws"` counts the draws, `"illegal_action"` is always there); the event
  log moved behind `info_events=True`; `state()` and `state_space`; `render_mode="human"`; the PettingZoo id
  `contack/contack-v0`. Observations, actions and rewards are unchanged.
* v0, revised: after an illegal action ends the episode under `env()`, the game counts as over everywhere: no seat
  is to move in the observations' `to_move`, `state()` has no mover's blocks, `action_layout()` is None, and
  `game_record()` says the game ended on an illegal action. Observations during play are unchanged.
* v0, revised: `game_record()` after an illegal action raises `RuntimeError` (it raised `ValueError`), as
  `solitaire_v0`'s does after one, and as a call before `reset()` does.
* v0, revised: `reset(seed=...)` takes the seeds the records and the commands take, whole numbers
  `0..2**63-1` (it took any non-negative int); `encode_move` and `decode_action` refuse a float, a string or a
  bool where a whole number belongs (`decode_action(21.9)` decoded action 21), and a cell beyond the engine's grid
  has no action (it took the action of the cell sharing its index). Observations, actions and rewards are
  unchanged.
* v0, revised: with `reward="score"` and `auto_single_moves`, points scored by moves played at reset are paid
  with the first step's rewards when that step is illegal too (they were dropped). Observations, actions and
  every other reward are unchanged.
* v0, revised: `copy.deepcopy` copies the episode as it stands (it made a fresh environment that needed a reset,
  as `pickle` does). Observations, actions and rewards are unchanged.

"""

from __future__ import annotations

import operator
from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from contack_env.contack.figure import TILE_SHIFT, Move, as_move
from contack_env.contack.multiplayer import (DEFAULT_ENCLOSED_END, DEFAULT_NUM_HANDS, ContackGame, check_rules,
                                             shuffled_decks)
from contack_env.envs.actions import NUM_CELL_SLOTS, ActionLayout, candidate_cells
from contack_env.envs.conventions import (MASK_DTYPE, TurnBasedEnv, action_index, check_illegal_action, handed_out,
                                          reset_options)
from contack_env.envs.observation import NUM_ACTIONS, NUM_SLOTS, OBS_HIGH, OBS_LOW, OBS_SIZE, ObservationBuilder, hand_tiles
from contack_env.envs.state import STATE_HIGH, STATE_LOW, STATE_SIZE, state_vector
from contack_env.seeds import check_seed
from contack_env.wording import plural

REWARD_OPTIONS = ("win", "score")
RENDER_MODES = ("human", "ansi", "rgb_array")
SCORE_REWARD_SCALE = 100.0
"""With ``reward="score"`` a reward is points / this."""
RESET_OPTIONS = ("decks",)
_SEED_BOUND = 2**63


def env(**options: Any) -> AECEnv:
    """The environment as PettingZoo's classic games are made: an illegal action ends the game and costs the
    offender 1 (``illegal_action="lose"`` unless given), behind PettingZoo's ``OrderEnforcingWrapper``."""
    options.setdefault("illegal_action", "lose")
    return wrappers.OrderEnforcingWrapper(raw_env(**options))


class raw_env(TurnBasedEnv, EzPickle):
    """Contack for 2 to 7 players as a PettingZoo AEC environment; the module docstring is the full card."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "contack_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        num_players: int = 4,
        num_hands: int = DEFAULT_NUM_HANDS,
        enclosed_end: str = DEFAULT_ENCLOSED_END,
        reward: str = "win",
        auto_single_moves: bool = False,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        info_events: bool = False,
    ) -> None:
        EzPickle.__init__(
            self,
            num_players=num_players,
            num_hands=num_hands,
            enclosed_end=enclosed_end,
            reward=reward,
            auto_single_moves=auto_single_moves,
            render_mode=render_mode,
            illegal_action=illegal_action,
            info_events=info_events,
        )
        super().__init__()
        check_rules(num_players, num_hands, enclosed_end)
        if reward not in REWARD_OPTIONS:
            raise ValueError(f"reward must be one of {', '.join(map(repr, REWARD_OPTIONS))}; got {reward!r}")
        for name, flag in (("auto_single_moves", auto_single_moves), ("info_events", info_events)):
            if not isinstance(flag, (bool, np.bool_)):
                raise ValueError(f"{name} is True or False; got {flag!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or one of {', '.join(map(repr, RENDER_MODES))}; got {render_mode!r}"
            )
        self.num_players = int(num_players)
        self.num_hands = int(num_hands)
        self.enclosed_end = enclosed_end
        self.reward_mode = reward
        self.auto_single_moves = bool(auto_single_moves)
        self.render_mode = render_mode
        self.illegal_action = check_illegal_action(illegal_action)
        self.info_events = bool(info_events)
        self.num_actions = NUM_ACTIONS

        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agents = self.possible_agents[:]
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=OBS_LOW, high=OBS_HIGH, shape=(OBS_SIZE,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=MASK_DTYPE),
                }
            )
            for agent in self.possible_agents
        }
        self.state_space = spaces.Box(low=STATE_LOW, high=STATE_HIGH, shape=(STATE_SIZE,), dtype=np.float32)
        self.game: ContackGame | None = None
        """The engine state of the episode (read it, never play on it directly)."""
        self._rng: np.random.Generator | None = None
        self._rng_seed: int | None = None
        self._episode_seed: int | None = None
        self._builder: ObservationBuilder | None = None
        self._layout: ActionLayout | None = None
        self._decision: tuple[list[int], list[int | None]] | None = None
        self._observed: dict[str, np.ndarray] | None = None
        self._seen = (0, 0)
        self._scores: list[int] = [0] * self.num_players
        self._pending: dict[str, float] | None = None
        self._rewarded = False

    # -- spaces --------------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- reset ---------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        decks = reset_options(options, RESET_OPTIONS).get("decks")
        if seed is not None:
            episode_seed = check_seed(seed)  # a whole number 0..MAX_SEED, as the records and the commands take
            # The generator of later unseeded resets starts from this seed; made when first needed.
            self._rng = None
            self._rng_seed = episode_seed
        else:
            if self._rng is None:
                self._rng = np.random.default_rng(self._rng_seed)
            episode_seed = int(self._rng.integers(_SEED_BOUND))
        if decks is None:
            decks = shuffled_decks(np.random.default_rng(episode_seed), self.num_hands)
            self._episode_seed = episode_seed
        else:
            decks = self._check_decks(decks)
            self._episode_seed = None
        game = ContackGame(decks, self.num_players, self.num_hands, self.enclosed_end, log=True)
        self.game = game
        if self._builder is None:
            self._builder = ObservationBuilder(game)
        else:
            self._builder.attach(game)

        self._start_episode()
        self.infos = {agent: self._new_info() for agent in self.agents}
        self._seen = (0, 0)
        self._scores = [0] * self.num_players
        self._pending = None
        self._rewarded = False
        self._layout = None
        self._decision = None
        self._observed = None
        self._skip_agent_selection = None

        if self.auto_single_moves:
            self._play_single_moves()
        self._collect_events()
        self.agent_selection = self.possible_agents[game.current_player]
        if self.reward_mode == "score" and any(game.scores):
            # Points of moves played at reset wait for the first step's rewards: a reset hands out no reward.
            self._pending = {
                agent: score / SCORE_REWARD_SCALE for agent, score in zip(self.possible_agents, game.scores)
            }
            self._scores = list(game.scores)
        if game.done:  # every decision of the game had a single move (possible only with auto_single_moves)
            if self._pending is not None:
                self._add_score_rewards()
            self._finish_rewards()
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _check_decks(self, decks: Any) -> list[list[int]]:
        what = f"options['decks'] is one list of the 36 tile ids (0..35, each once) per hand ({self.num_hands})"
        if isinstance(decks, np.ndarray) and decks.ndim == 2:  # a (hands, 36) array, as the solitaires take
            decks = list(decks)
        if not isinstance(decks, (list, tuple)) or len(decks) != self.num_hands:
            raise ValueError(f"{what}; got {decks!r}")
        out = []
        for h, deck in enumerate(decks):
            try:
                ids = [operator.index(t) for t in deck]
            except TypeError:
                raise ValueError(f"{what}; hand {h + 1}'s deck holds something else: {deck!r}") from None
            if sorted(ids) != list(range(36)):
                raise ValueError(f"{what}; hand {h + 1}'s deck is not a permutation of 0..35: {ids!r}")
            out.append(ids)
        return out

    # -- observing -----------------------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observed = self._observed
        if observed is not None and agent == self.agent_selection and not self.terminations.get(agent, True):
            return handed_out(observed)  # the acting agent's, already built for this decision
        game = self._require_game()
        try:
            seat = self._seat_of[agent]
        except (KeyError, TypeError):
            raise ValueError(f"no agent {agent!r} in this game; the agents are {', '.join(self.possible_agents)}") from None
        if seat == game.current_player and not game.done and not self.terminations.get(agent, True):
            return handed_out(self._observation())
        obs, mask = self._builder.observe(seat, over=self._over())
        return {"observation": obs, "action_mask": mask}

    def _over(self) -> bool:
        """Whether the game is over for the environment: the engine's game is done, or an illegal action ended
        it (``illegal_action="lose"``), which terminates every agent with the engine's game unfinished."""
        return self._require_game().done or self.terminations.get(self.agent_selection, True)

    def action_mask(self) -> np.ndarray:
        """The int8 action mask of the agent to move (all zeros once the game is over)."""
        if self._over():
            return np.zeros(NUM_ACTIONS, dtype=MASK_DTYPE)
        return self._observation()["action_mask"].copy()

    def action_layout(self) -> ActionLayout | None:
        """The mapping between actions and moves at the current decision (None once the game is over)."""
        game = self._require_game()
        if self._over():
            return None
        if self._layout is None:
            self._layout = ActionLayout(NUM_SLOTS, hand_tiles(game.hands[game.current_player]), game.figure)
        return self._layout

    def decode_action(self, action: int) -> Move | None:
        """The move ``action`` stands for at the current decision, or None if its slots are empty (it may
        still be illegal: check the mask)."""
        layout = self.action_layout()
        action = action_index(action, NUM_ACTIONS)  # ValueError for a float, a string, a bool
        return None if layout is None or not 0 <= action < NUM_ACTIONS else layout.decode(action)

    def encode_move(self, move: Move | Sequence[int]) -> int:
        """The action of ``move`` (tile id, x, y) at the current decision; ``ValueError`` if it has none."""
        layout = self.action_layout()
        if layout is None:
            raise ValueError("the game is over; no move has an action")
        move = as_move(move)  # ValueError for anything but three whole numbers
        try:
            return layout.encode(move)
        except KeyError:
            raise ValueError(
                f"{tuple(move)!r} has no action now: its tile is not in the hand of {self.agent_selection} "
                "or its cell is neither a free side of the last-played tile nor a hole"
            ) from None

    def _observation(self) -> dict[str, np.ndarray]:
        # Built once per decision, for the agent to move, and kept until the next step.
        if self._observed is None:
            game = self.game
            own, cells = self._decision_lists()
            obs, mask = self._builder.observe(game.current_player, cells, game.legal_codes(), own)
            self._observed = {"observation": obs, "action_mask": mask}
        return self._observed

    def _decision_lists(self) -> tuple[list[int], list[int | None]]:
        # The action encoding of the current decision (contack_env.envs.actions) as plain lists: the hand sorted by
        # tile id (slots) and the candidate cells (cell slots). The hot path indexes these directly; an
        # ActionLayout (action_layout()) is built only for callers that ask for one.
        if self._decision is None:
            game = self.game
            self._decision = (hand_tiles(game.hands[game.current_player]), candidate_cells(game.figure))
        return self._decision

    # -- stepping (TurnBasedEnv.step does the checks and illegal actions) ---------------------------------------
    def _legal_code(self, action: int) -> int | None:
        own, cells = self._decision_lists()
        slot, cell_slot = divmod(action, NUM_CELL_SLOTS)
        cell = cells[cell_slot]
        if slot < len(own) and cell is not None:
            code = own[slot] << TILE_SHIFT | cell  # inline: once per legal move
            if code in self.game.legal_codes():
                return code
        return None

    def _illegal_reason(self, action: int) -> str:
        legal = np.flatnonzero(self._observation()["action_mask"]).tolist()
        return f"{plural(len(legal), 'action is', 'actions are')} legal: {legal}"

    def _illegal_info(self) -> dict[str, Any]:
        info = self._new_info()
        info["illegal_action"] = True
        return info

    def _forget_decision(self) -> None:
        self._observed = None
        self._pending = None
        self._rewarded = True

    def _pay_owed_rewards(self) -> None:
        # The points of moves played at reset wait for the first step's rewards, an illegal one's too.
        if self._pending is not None:
            for agent, reward in self._pending.items():
                self.rewards[agent] += reward
            self._pending = None

    def _play(self, agent: str, code: int) -> None:
        game = self.game
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = self._new_info()
        mover = game.current_player
        game.play_code(code)
        if self.auto_single_moves:
            self._play_single_moves()
        self._layout = None
        self._decision = None
        self._observed = None
        self._collect_events()

        rewards = self.rewards
        if self._rewarded:  # rewards hold the previous step's: clear them
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        if self.reward_mode == "score":
            self._add_score_rewards()
        if game.done:
            self._finish_rewards()
            self.agent_selection = self.possible_agents[(mover + 1) % self.num_players]
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        if self._rewarded:
            self._accumulate_rewards()

    def _play_single_moves(self) -> None:
        game = self.game
        while not game.done:
            codes = game.legal_codes()
            if len(codes) != 1:
                return
            self.infos[self.possible_agents[game.current_player]]["auto_moves"] += 1
            game.play_code(codes[0])

    def _add_score_rewards(self) -> None:
        """Add to ``rewards`` the "score" rewards earned since the last call, and any still pending."""
        scores = self.game.scores
        rewards = self.rewards
        for seat, (now, before) in enumerate(zip(scores, self._scores)):
            if now != before:
                rewards[self.possible_agents[seat]] += (now - before) / SCORE_REWARD_SCALE
                self._rewarded = True
        self._scores = list(scores)
        if self._pending is not None:
            self._pay_owed_rewards()
            self._rewarded = True

    def _finish_rewards(self) -> None:
        game = self.game
        if self.reward_mode == "win":
            n = self.num_players
            k = len(game.winners)
            win, lose = (n / k - 1) / (n - 1), -1 / (n - 1)
            for seat in range(n):
                self.rewards[self.possible_agents[seat]] += win if seat in game.winners else lose
        self._rewarded = True
        self.terminations = {agent: True for agent in self.agents}

    def _new_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"passed": 0, "draws": 0, "auto_moves": 0, "illegal_action": False}
        if self.info_events:
            info["events"] = []
            info["drawn"] = []
        return info

    def _collect_events(self) -> None:
        """Count the draws and passes logged since the last call in each agent's info and, with ``info_events``,
        hand every agent the events themselves, as copies: infos must not alias the engine's log, which the
        episode's record is made from."""
        logs = self.game.hand_events
        h, k = self._seen
        logged = logs[h][k:]
        for events in logs[h + 1 :]:  # hands dealt since
            logged += events
        h = len(logs) - 1
        self._seen = (h, len(logs[h]))
        infos = self.infos
        agents = self.possible_agents
        with_events = self.info_events
        new = []
        for event in logged:
            kind = event["type"]
            if kind == "draw":
                info = infos[agents[event["seat"]]]
                info["draws"] += 1
                if with_events:
                    info["drawn"].append(event["tile"])
            elif kind == "pass":
                infos[agents[event["seat"]]]["passed"] += 1
            if not with_events:
                continue
            copy = dict(event)
            if kind == "place" or kind == "open":
                copy["cell"] = [*copy["cell"]]
                if "legal" in copy:
                    copy["legal"] = [[*m] for m in copy["legal"]]
            elif kind == "end":
                copy["penalties"] = [*copy["penalties"]]
                copy["scores"] = [*copy["scores"]]
            new.append(copy)
        if with_events:
            for info in infos.values():
                info["events"] += new

    def state(self) -> np.ndarray:
        """The whole public state as one float32 vector (``state_space``; the card's table "State"): every hand,
        the figure, the scores and the mover's options, the same whoever asks; the pile's order is not in it."""
        over = self._over()
        return state_vector(self._builder.observe(0, over=over)[0], None if over else self._observation()["observation"])

    # -- records, rendering --------------------------------------------------------------------------------
    @property
    def episode_seed(self) -> int | None:
        """The int the episode's deals came from (``new_game(n, num_hands, seed=...)`` deals the same); None when the
        reset was given decks."""
        return self._episode_seed

    def game_record(self, agents: Sequence[str] | None = None) -> dict[str, Any]:
        """The finished episode as a ``contack-record/1`` record (``agents``: one name per seat, or None)."""
        from contack_env.records.contack import game_record

        game = self._require_game()
        if self._over() and not game.done:
            raise RuntimeError("the episode ended on an illegal action; its game is unfinished and makes no record")
        return game_record(game, seed=self._episode_seed, agents=agents)

    def _text(self, game: ContackGame) -> str:
        from contack_env.render.text import render_text

        return render_text(game)

    def _picture(self, game: ContackGame) -> np.ndarray:
        from contack_env.render.image import render_rgb

        return render_rgb(game)
