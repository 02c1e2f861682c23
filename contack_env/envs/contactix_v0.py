# noqa: D212, D415
"""
# CON-TAC-TIX

| Creation           | `from contack_env import contactix_v0; env = contactix_v0.env(board_size=11)` |
|--------------------|---------------------------------------------------------------------------------|
| Registry           | `import contack_env; pettingzoo.make("aec", "contack/contactix-v0")`            |
| Actions            | Discrete                                                                        |
| Parallel API       | No                                                                              |
| Manual Control     | No                                                                              |
| Agents             | `agents= ['black', 'white']`                                                    |
| Agents             | 2                                                                               |
| Action Shape       | (1,)                                                                            |
| Action Values      | Discrete(N * N), N = `board_size` (121 by default)                              |
| Observation Shape  | (N, N, 4) (or (4, N, N) with `channels_first=True`)                             |
| Observation Values | {0, 1}                                                                          |

CON-TAC-TIX (Piet Hein, 1942; better known since as Hex) is a two-player connection game on a diamond of
`N x N` hexagonal holes. Black moves first and wants a chain of black pegs joining rows `0` and `N-1`; White
joins columns `0` and `N-1`; the four corner holes belong to both sides. The players alternately put a peg into
any empty hole. The game cannot end in a draw: exactly one player completes a chain. The rules this
environment follows are `docs/rules.md` (section 9), implemented in `contack_env.contactix.rules` (pure
Python: a union-find win check, no RL machinery).

Hole `(r, c)` touches `(r, c-1)`, `(r, c+1)`, `(r-1, c)`, `(r+1, c)`, `(r-1, c+1)` and `(r+1, c-1)`.

### Options

`contactix_v0.env(**options)` and `contactix_v0.raw_env(**options)` take:

| option           | values                          | default   | meaning                                                    |
|------------------|---------------------------------|-----------|------------------------------------------------------------|
| `board_size`     | 3 .. 19                         | 11        | the board is `N x N` holes                                 |
| `swap`           | `False`, `True`                 | `False`   | the swap (pie) rule (below)                                |
| `channels_first` | `False`, `True`                 | `False`   | observation planes last `(N, N, 4)` or first `(4, N, N)`   |
| `render_mode`    | `None`, `"human"`, `"ansi"`, `"rgb_array"` | `None` | what `render()` does (below)                       |
| `illegal_action` | `"raise"`, `"lose"`             | `"raise"` | what an illegal action does (below); `env()` sets `"lose"` |

A value outside these raises `ValueError` saying what is allowed. `import contack_env` registers the id
`contack/contactix-v0` with PettingZoo's registry (PettingZoo 1.27 and later): `pettingzoo.make("aec",
"contack/contactix-v0", **options)` is `contactix_v0.env(**options)`. `channels_first=True` gives the layout
PyTorch convolutions take; the default follows PettingZoo's classic board games (connect four, go, chess).

**Swap rule** (`swap=True`; off by default because the 1942 rules have none): White's first move may be the
swap: White takes over Black's first peg instead of placing one. Its action is the index of the hole holding
Black's peg (the only occupied hole ever marked legal). The black peg at `(r, c)` is replaced by a white peg on
the mirror hole `(c, r)` and Black moves next. The mirror keeps every hole's neighbours and exchanges rows with
columns, so the position is the one Black built, colours exchanged (Hex's "swap pieces"; see
`contack_env.contactix.rules`). It balances Black's first-move advantage: Black must open with a move it is content
to see swapped.

`reset(seed=None, options=None)`: the game has no randomness, so every reset starts from the empty board; `seed`
is accepted (PettingZoo's API passes it) and changes nothing, but it is checked as the other environments check
theirs: a whole number `0..2**63-1`, or None. There are no reset options: any key is ignored with a warning.

### Observation Space

`observe(agent)` is a dictionary with `"observation"` (float32, `N x N x 4`, values 0 or 1) and `"action_mask"`
(int8, `N * N`). Plane `k` at `[r, c, k]` (or `[k, r, c]` with `channels_first`):

| plane | content                                                                              |
|-------|--------------------------------------------------------------------------------------|
| 0     | 1 where hole `(r, c)` holds a peg of the observing agent                             |
| 1     | 1 where it holds a peg of the opponent                                               |
| 2     | 1 where it is empty                                                                  |
| 3     | constant: 1 everywhere if the observer is White (joins columns 0 and N-1), 0 if Black |

The board is **not** transposed for White: row `r`, column `c` of every plane is hole `(r, c)` for both agents,
exactly as action `r * N + c` is, so the mask, the planes and the actions always line up. Planes 0 and 1 are
the observer's and the opponent's pegs, and plane 3 says which pair of sides the observer joins. (A learner that
wants one frame of reference can transpose White's planes 0 to 2 and its actions `r * N + c <-> c * N + r`:
that mirror keeps every hole's neighbours and exchanges the two players' sides.)

`observation_planes(board, colour)` gives the planes (channels first) of any board, e.g. a rules state's
(`np.reshape(state.board, (N, N))`); `flat_observation(state, colour)` the observation (channels last) of a
rules state, flattened. `ContactixObserver(options)`, the game's state observer in the registry
(`GameSpec.observer`), gives that and the mask of the player to move at a state of the board size and swap rule
it was made for: what a trained CON-TAC-TIX policy (`ppo:PATH`) or network (`az:PATH`) reads.

`observe` works for either agent at any time, from that agent's point of view. Its mask is all zeros unless the
agent is the one to move and the game is not over. `action_mask()` gives the mask of the agent to move.

### State

`state()` is the whole position as one float32 array (`state_space`; values 0 or 1, the observation's shape),
the same whichever agent asks, for centralised critics: plane 0 is 1 where a hole holds a black peg, plane 1 a
white peg, plane 2 where it is empty, and plane 3 is 1 everywhere while White is to move (0 while Black is, and
once the game is over). It is Black's observation with the last plane saying who moves instead of who looks:
the game has nothing hidden.

### Action Space

`Discrete(N * N)`: action `r * N + c` puts the mover's peg into hole `(r, c)`. The legal actions (the 1s of the
mask) are the empty holes, plus, with the swap rule at White's first move, the hole of Black's first peg (the
swap). `decode_action(a)` gives `(r, c)` or `"swap"`, `encode_move((r, c))` / `encode_move("swap")` the action.

**Illegal actions.** An action outside the mask (an int outside `Discrete(N * N)` included) is illegal; the
option `illegal_action` says what it does, in `raw_env.step` itself. `"lose"` (what `env()` sets unless told
otherwise): the game ends at once, the offender gets -1 and the other agent 0, both are terminated, and the
offender's info is `{"illegal_action": True}`. `"raise"` (the `raw_env` default): `ValueError` naming the
action, what is wrong with it and how many actions are legal, and nothing changes. An action that is no int
at all always raises `ValueError`. `env()` is `raw_env` behind PettingZoo's `OrderEnforcingWrapper` (which
refuses calls before `reset`).

### Rewards

Zero-sum, at the end only: the winner gets +1, the loser -1 (on the step that completes the chain; the loser
collects it with `last()`). Every other step rewards 0. There are no truncations: a game lasts at most `N * N`
moves (`N * N + 1` with a swap). Once the game is over, `agent_iter()` selects each agent once more to collect
its last reward with `last()` and step `None`: the loser first, then the winner (after an illegal action: the
offender first). After that `agents` is empty.

### Info

`infos[agent]` is empty during the game; at the end both hold `"winner"` (`"black"` or `"white"`), unless an
illegal action ended it (`illegal_action="lose"`): then the offender's holds `"illegal_action": True` and there
is no winner.

### Beyond the AEC API

`raw_env.game` is the rules state (`contack_env.contactix.rules.ContactixState`; read it, never play on it directly):
`board`, `moves`, `legal_moves()`, `winning_chain()`, ... `game_record(agents=None)` returns the episode as a
`contactix-record/1` record (`contack_env.records.contactix`: JSON with the size, the swap option, the moves
and the winner), which `contack_env.records.contactix.replay` plays back with every move checked.
`copy.deepcopy(env)` is the episode as it stands, with its own game: a search can step the copy and leave
`env` where it was. `pickle` makes a fresh environment from the constructor's arguments.

### Rendering

`render()` returns the text diamond (`contack_env.render.contactix.render_text`) with `render_mode="ansi"`
and an RGB image (`render_rgb`, uint8, H x W x 3: the diamond of hexagonal holes, the four sides in their
owners' colours, row and column numbers, the winning chain ringed in red) with `"rgb_array"`. Both draw the
diamond on a corner, hole `(0, 0)` at the top: Black's sides are the upper-right (row 0) and lower-left
(row N-1), White's the upper-left (column 0) and lower-right (column N-1). With `"human"` the environment prints
the text diamond after the reset and after every move, and `render()` prints it again and returns None.

### Version History

* v0: Initial version.
* v0, revised: the option `illegal_action`; under `env()` an illegal action now terminates both agents without
  truncating them, tells the offender's info `"illegal_action": True` and an int outside `Discrete(N * N)`
  loses like any illegal action (it failed an assertion); reset options warn. Observations are unchanged.
* v0, revised: `render_mode="human"`; the PettingZoo id `contack/contactix-v0`.
* v0, revised: `state()` and `state_space`. Observations are unchanged.
* v0, revised: `reset(seed=...)` checks the seed (a whole number `0..2**63-1`, as the other environments take;
  any value was taken); `encode_move` refuses a bool for a row or a column. Observations are unchanged.
* v0, revised: `copy.deepcopy` copies the episode as it stands (it made a fresh environment that needed a reset,
  as `pickle` does). Observations are unchanged.

"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from contack_env.checks import is_whole_number
from contack_env.contactix.rules import BLACK, COLOUR_NAMES, DEFAULT_SIZE, EMPTY, WHITE, ContactixState, cell_index, check_size
from contack_env.envs.conventions import (MASK_DTYPE, TurnBasedEnv, action_index, check_illegal_action, handed_out,
                                          reset_options)
from contack_env.seeds import check_seed
from contack_env.wording import plural

RENDER_MODES = ("human", "ansi", "rgb_array")
NUM_PLANES = 4
SWAP = "swap"


def env(**options: Any) -> AECEnv:
    """The environment as PettingZoo's classic games are made: an illegal action ends the game and costs the
    offender 1 (``illegal_action="lose"`` unless given), behind PettingZoo's ``OrderEnforcingWrapper``."""
    options.setdefault("illegal_action", "lose")
    return wrappers.OrderEnforcingWrapper(raw_env(**options))


def observation_planes(board: np.ndarray, colour: int) -> np.ndarray:
    """The observation planes (channels first: float32 ``(4, N, N)``, the table of the module docstring) of the
    ``N x N`` array ``board`` (``ContactixState.board`` values: empty, or a colour + 1) seen by ``colour``."""
    n = board.shape[0]
    planes = np.empty((NUM_PLANES, n, n), dtype=np.float32)
    planes[0] = board == colour + 1
    planes[1] = board == 2 - colour
    planes[2] = board == EMPTY
    planes[3] = float(colour == WHITE)
    return planes


def flat_observation(state: ContactixState, colour: int | None = None) -> np.ndarray:
    """The observation of ``colour`` (default: the player to move) at a rules state, channels last and flattened:
    float32 ``[N * N * 4]``, what a trained CON-TAC-TIX policy or network reads."""
    n = state.size
    board = np.asarray(state.board, dtype=np.int8).reshape(n, n)
    return observation_planes(board, state.current_player if colour is None else colour).transpose(1, 2, 0).reshape(-1)


class HoleCoding:
    """CON-TAC-TIX's action coding (``contack_env.envs.conventions.ActionCoding``): action ``r * N + c`` is the
    move (hole index) ``r * N + c``, White's swap included (the hole of Black's first peg)."""

    def encode_code(self, code: int) -> int:
        return code

    def decode(self, action: int) -> int:
        return action


HOLES = HoleCoding()


class ContactixObserver:
    """The observation and mask of the player to move at a ``ContactixState`` (a
    ``contack_env.envs.conventions.StateObserver``): ``flat_observation`` and the mask of the legal moves. It is
    built for one board size and swap rule (``options``, a ``contack_env.games.RuleOptions``; None: the defaults)
    and refuses a state of another: a policy that learned one board plays only that board."""

    factored = False

    def __init__(self, options: Any = None) -> None:
        self.size = check_size(DEFAULT_SIZE if options is None else options.board_size)
        self.swap = False if options is None else bool(options.swap)
        self.obs_size = self.size * self.size * NUM_PLANES
        self.num_actions = self.size * self.size

    def observe_state(self, state: ContactixState) -> tuple[np.ndarray, np.ndarray, HoleCoding]:
        if state.size != self.size or state.swap_rule != self.swap:
            raise ValueError(f"this observer reads the {self.size}x{self.size} board {_swap_words(self.swap)}; the "
                             f"state is a {state.size}x{state.size} board {_swap_words(state.swap_rule)}")
        mask = np.zeros(self.num_actions, dtype=MASK_DTYPE)
        mask[state.legal_moves()] = 1
        return flat_observation(state), mask, HOLES


def _swap_words(swap: bool) -> str:
    return "with the swap rule" if swap else "without the swap rule"


class raw_env(TurnBasedEnv, EzPickle):
    """CON-TAC-TIX as a PettingZoo AEC environment; the module docstring is the full card."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "contactix_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        board_size: int = DEFAULT_SIZE,
        swap: bool = False,
        channels_first: bool = False,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        EzPickle.__init__(
            self,
            board_size=board_size,
            swap=swap,
            channels_first=channels_first,
            render_mode=render_mode,
            illegal_action=illegal_action,
        )
        super().__init__()
        self.board_size = check_size(board_size)
        for name, value in (("swap", swap), ("channels_first", channels_first)):
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name} is True or False; got {value!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or one of {', '.join(map(repr, RENDER_MODES))}; got {render_mode!r}"
            )
        self.swap = bool(swap)
        self.channels_first = bool(channels_first)
        self.render_mode = render_mode
        self.illegal_action = check_illegal_action(illegal_action)
        n = self.board_size
        self.num_actions = n * n
        shape = (NUM_PLANES, n, n) if self.channels_first else (n, n, NUM_PLANES)

        self.possible_agents = list(COLOUR_NAMES)
        self.agents = self.possible_agents[:]
        self.action_spaces = {agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(self.num_actions,), dtype=MASK_DTYPE),
                }
            )
            for agent in self.possible_agents
        }
        self.state_space = spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32)
        self.game: ContactixState | None = None
        """The rules state of the episode (read it, never play on it directly)."""
        self._observed: dict[str, np.ndarray] | None = None
        # The board as a numpy array, kept in step with the game, so observations need no list conversion.
        self._board = np.zeros(self.num_actions, dtype=np.int8)

    # -- spaces --------------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- reset ---------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # Nothing in the game is random: the seed has nothing to seed, and there are no options. A seed is still
        # checked as the other environments check it, so that a call that is wrong there is wrong here too.
        if seed is not None:
            check_seed(seed)
        reset_options(options, ())
        self.game = ContactixState(self.board_size, self.swap)
        self._start_episode()
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[BLACK]
        self._observed = None
        self._board = np.zeros(self.num_actions, dtype=np.int8)
        if self.render_mode == "human":
            self.render()

    # -- observing -----------------------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._require_game()
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r} in this game; the agents are {', '.join(self.possible_agents)}")
        colour = self.possible_agents.index(agent)
        moving = colour == game.current_player and not game.done and not self.terminations.get(agent, True)
        if moving and self._observed is not None:
            return handed_out(self._observed)
        observed = {"observation": self._planes(colour), "action_mask": self._mask() if moving else self._no_mask()}
        if moving:
            self._observed = observed  # the mover's, kept until the next step
            return handed_out(observed)
        return observed

    def _planes(self, colour: int) -> np.ndarray:
        n = self.board_size
        planes = observation_planes(self._board.reshape(n, n), colour)
        return planes if self.channels_first else np.ascontiguousarray(planes.transpose(1, 2, 0))

    def _mask(self) -> np.ndarray:
        mask = (self._board == EMPTY).astype(MASK_DTYPE)
        game = self.game
        if game.can_swap:
            mask[game.moves[0]] = 1
        return mask

    def _no_mask(self) -> np.ndarray:
        return np.zeros(self.num_actions, dtype=MASK_DTYPE)

    def state(self) -> np.ndarray:
        """The whole position (``state_space``; the card's "State"): black pegs, white pegs, empty holes, and a
        plane of 1s while White is to move; the same whoever asks."""
        game = self._require_game()
        n = self.board_size
        planes = observation_planes(self._board.reshape(n, n), BLACK)  # black pegs, white pegs, empty holes, ...
        over = game.done or self.terminations.get(self.agent_selection, True)
        planes[3] = float(game.current_player == WHITE and not over)
        return planes if self.channels_first else np.ascontiguousarray(planes.transpose(1, 2, 0))

    def action_mask(self) -> np.ndarray:
        """The int8 action mask of the agent to move (all zeros once the game is over)."""
        game = self._require_game()
        if game.done or self.terminations.get(self.agent_selection, True):
            return self._no_mask()
        return self.observe(self.agent_selection)["action_mask"]

    def decode_action(self, action: int) -> tuple[int, int] | str:
        """What ``action`` means now: ``(r, c)``, or ``"swap"`` when it is White's swap (legal or not: check the
        mask)."""
        a = self._index(action)
        game = self._require_game()
        if game.is_swap(a):
            return SWAP
        return divmod(a, self.board_size)

    def encode_move(self, move: int | Sequence[int] | str) -> int:
        """The action of a move: a hole index as the rules and the bots give it (``r * N + c``; White's swap is
        the hole of Black's first peg), ``(r, c)``, or ``"swap"`` (legal only when White may swap now)."""
        game = self._require_game()
        if is_whole_number(move):
            if not 0 <= move < self.num_actions:
                raise ValueError(f"a hole index is 0..{self.num_actions - 1} on the {self.board_size}x{self.board_size} board; got {move}")
            return int(move)
        if isinstance(move, str):
            if move != SWAP:
                raise ValueError(f"a move is (r, c) or \"swap\"; got {move!r}")
            if not game.can_swap:
                raise ValueError("no swap now: the swap is White's first move, with the swap rule on")
            return game.moves[0]
        try:
            r, c = move
            if not (is_whole_number(r) and is_whole_number(c)):  # (True is an int to Python, but no row)
                raise ValueError
        except (TypeError, ValueError):
            raise ValueError(f"a move is (r, c), two whole numbers, or \"swap\"; got {move!r}") from None
        return cell_index(int(r), int(c), self.board_size)

    # -- stepping (TurnBasedEnv.step does the checks and illegal actions) ---------------------------------------
    def _legal_code(self, action: int) -> int | None:
        return action if self.game.is_legal(action) else None

    def _illegal_reason(self, action: int) -> str:
        game = self.game
        if not 0 <= action < self.num_actions:
            why = f"outside Discrete({self.num_actions})"
        elif game.board[action] != EMPTY:
            r, c = divmod(action, self.board_size)
            why = f"hole ({r}, {c}) already holds a {COLOUR_NAMES[game.board[action] - 1]} peg"
        else:
            why = "not legal"
        return f"{why}; {plural(len(game.legal_moves()), 'action is', 'actions are')} legal"

    def _illegal_info(self) -> dict[str, Any]:
        return {"illegal_action": True}

    def _forget_decision(self) -> None:
        self._observed = None

    def _play(self, agent: str, move: int) -> None:
        game = self.game
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        swapping = game.is_swap(move)
        game.play_code(move)
        if swapping:
            self._board = np.asarray(game.board, dtype=np.int8)
        else:
            self._board[move] = game.board[move]
        self._observed = None
        if game.done:
            winner = self.possible_agents[game.winner]
            for a in self.agents:
                self.rewards[a] = 1.0 if a == winner else -1.0
                self.terminations[a] = True
                self.infos[a] = {"winner": winner}
        self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()

    def _index(self, action: Any) -> int:
        a = action_index(action, self.num_actions)
        if not 0 <= a < self.num_actions:
            raise ValueError(f"action {a} is outside Discrete({self.num_actions}): actions are 0..{self.num_actions - 1}")
        return a

    # -- records, rendering --------------------------------------------------------------------------------
    def game_record(self, agents: Sequence[str | None] | None = None) -> dict[str, Any]:
        """The episode so far as a ``contactix-record/1`` record (``agents``: Black's and White's names)."""
        from contack_env.records.contactix import game_record

        return game_record(self._require_game(), agents=agents)

    def _text(self, game: ContactixState) -> str:
        from contack_env.render.contactix import render_text

        return render_text(game)

    def _picture(self, game: ContactixState) -> np.ndarray:
        from contack_env.render.contactix import render_rgb

        return render_rgb(game)
