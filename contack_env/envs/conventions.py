"""What every environment of the project does alike (``contack_v0``, ``solitaire_v0``, ``contactix_v0``), defined
once; each env card states it.

- **Action masks** are int8 arrays (1 = legal), as PettingZoo's classic games give them.
- **Illegal actions**: the option ``illegal_action`` says what an action outside the mask (an integer outside the
  action space included) does, handled in the raw environment's ``step``: ``"raise"`` raises ``ValueError`` and
  changes nothing; ``"lose"`` ends the game at once, the offender gets ``ILLEGAL_REWARD`` (every other agent 0
  for that step), and the offender's info holds ``"illegal_action": True``. In the PettingZoo environments an
  action that is no integer at all raises ``ValueError`` whatever the option.
- **Reset options**: unknown keys are ignored with a warning (PettingZoo's API test passes made-up ones).
- **The step** of the PettingZoo environments is ``TurnBasedEnv.step``: one place handles steps before ``reset``,
  the steps of agents that have left (``None``), actions that are no integer, illegal actions and
  ``render_mode="human"``; each game says only which moves are legal and how a turn is played.
- **Copies**: ``copy.deepcopy`` of a PettingZoo environment (wrapped or raw) is the environment as it stands,
  mid-episode, with its own game and random stream, as a Gymnasium solitaire's is, so a search can step a copy
  and leave the original where it was. ``pickle`` still makes a fresh environment from the constructor's
  arguments (``EzPickle``, for worker processes).
- **State observers** (``StateObserver``): the observation, mask and action layout an environment gives, computed
  from a state alone (an agent's public view), so that a trained policy acts on a state exactly as it learned in
  the environment. A game names its observer in the registry (``GameSpec.observer``): a factory called with the
  game's rule options (``contack_env.games.RuleOptions``), since an observation can depend on them (CON-TAC-TIX's
  board size).
"""

from __future__ import annotations

import copy
import operator
import warnings
from typing import Any, Collection, Protocol

import gymnasium
import numpy as np
from pettingzoo import AECEnv


class ActionCoding(Protocol):
    """How a state's moves map to an environment's actions (``contack_env.envs.actions.ActionLayout``)."""

    def encode_code(self, code: int) -> int:
        """The action of a legal move code."""
        ...

    def decode(self, action: int) -> Any:
        """The move of an action (None for an action that stands for no move)."""
        ...


class StateObserver(Protocol):
    """The observation an environment gives the player to move, from a state alone (module docstring)."""

    obs_size: int
    """The length of the observation vector."""
    num_actions: int
    """The size of the action space."""
    factored: bool
    """The observation holds one row per action, from which a network can score each action (Contack)."""

    def observe_state(self, state: Any) -> tuple[np.ndarray, np.ndarray, ActionCoding]:
        """The observation of the player to move at ``state``, its action mask, and the action coding."""
        ...


MASK_DTYPE = np.int8
"""The dtype of every action mask."""
ILLEGAL_ACTIONS = ("raise", "lose")
"""The values of the ``illegal_action`` option."""
ILLEGAL_REWARD = -1.0
"""What an illegal action costs its offender with ``illegal_action="lose"``."""


def handed_out(observed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Copies of an observation the environment keeps for the decision (built once, observed many times), so
    that a caller who changes what it was given (masks an action in place) changes nothing the environment
    reads or hands out later."""
    return {key: value.copy() for key, value in observed.items()}


def check_illegal_action(value: Any) -> str:
    """``value`` if it is one of ``ILLEGAL_ACTIONS``; else ``ValueError`` saying what is allowed."""
    if not isinstance(value, str) or value not in ILLEGAL_ACTIONS:
        raise ValueError(f"illegal_action is one of {', '.join(map(repr, ILLEGAL_ACTIONS))}; got {value!r}")
    return value


def reset_options(options: Any, known: Collection[str]) -> dict[str, Any]:
    """The reset ``options`` as a dict (None is ``{}``); keys outside ``known`` are ignored with a warning."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"options is a dict or None; got {type(options).__name__}")
    unknown = sorted(map(str, set(options) - set(known)))
    if unknown:
        allowed = ", ".join(map(repr, known)) if known else "none"
        warnings.warn(f"reset ignores the unknown {'option' if len(unknown) == 1 else 'options'} {unknown}; the options are: {allowed}", stacklevel=3)
    return options


def action_index(action: Any, num_actions: int) -> int:
    """``action`` as an int (a Python or numpy integer); ``ValueError`` if it is no integer at all (``True`` is an
    int to Python, but no action). Its range is not checked: an int outside the action space is illegal."""
    try:
        if action.__class__ is bool:
            raise TypeError
        return operator.index(action)
    except TypeError:
        raise ValueError(f"an action is an int in 0..{num_actions - 1}; got {action!r}") from None


def copy_attributes(obj: Any, memo: dict[int, Any], skip: Collection[str] = ()) -> Any:
    """A new object of ``obj``'s class with a deep copy of each of its attributes but those in ``skip`` (for a
    ``__deepcopy__`` that must bypass the class's pickling, or mend an attribute after)."""
    other = type(obj).__new__(type(obj))
    memo[id(obj)] = other
    for name, value in obj.__dict__.items():
        if name not in skip:
            other.__dict__[name] = copy.deepcopy(value, memo)
    return other


class TurnBasedEnv(AECEnv):
    """The step every turn-based PettingZoo environment of the project shares (as pgx's core step serves every
    game): the checks before a turn, the steps of agents that have left, illegal actions and human rendering.

    A subclass sets ``illegal_action``, ``render_mode`` and ``num_actions`` and implements ``_legal_code`` (the
    move an action stands for, None if it is illegal), ``_illegal_reason`` (why, for ``"raise"``), ``_play`` (the
    turn itself), ``_illegal_info`` (the offender's info when an illegal action ends the game) and
    ``_forget_decision`` (drop what was cached for the decision that ended), and ``_text`` / ``_picture`` (the
    game's text view and RGB picture, which ``render`` returns or prints as ``render_mode`` says).
    """

    illegal_action: str
    render_mode: str | None
    num_actions: int
    game: Any

    def __deepcopy__(self, memo: dict[int, Any]) -> "TurnBasedEnv":
        # EzPickle's copy, which deepcopy would otherwise use, is a new environment made from the constructor's
        # arguments, not reset: every attribute is copied instead, so the copy is this episode as it stands.
        return copy_attributes(self, memo)

    def _start_episode(self) -> None:
        """Every agent in the game again, with no reward owed and none terminated or truncated (``reset``'s
        part that every game shares)."""
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; make the env with render_mode='human', "
                                  "'ansi' or 'rgb_array'")
            return None
        game = self._require_game()
        if self.render_mode == "rgb_array":
            return self._picture(game)
        text = self._text(game)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: rendering opens no window."""

    def _require_game(self) -> Any:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def step(self, action: Any) -> None:
        try:
            agent = self.agent_selection
            dead = self.terminations[agent] or self.truncations[agent]
        except (AttributeError, KeyError):  # before reset, or once every agent has left
            raise self._step_refused() from None
        if dead:
            self._was_dead_step(action)
            return
        a = action_index(action, self.num_actions)
        code = self._legal_code(a) if 0 <= a < self.num_actions else None
        if code is None:
            if self.illegal_action == "raise":
                raise ValueError(f"action {a} is illegal for {agent}: {self._illegal_reason(a)}")
            self._lose_on_illegal(agent)
        else:
            self._play(agent, code)
        if self.render_mode == "human":
            self.render()

    def _step_refused(self) -> RuntimeError:
        if getattr(self, "game", None) is None:
            return RuntimeError("call reset() before step()")
        return RuntimeError("the game is over and every agent has left it (each stepped with None); call reset() to "
                            "play another")

    def _lose_on_illegal(self, agent: str) -> None:
        # "lose": the game ends here; the offender gets ILLEGAL_REWARD, every other agent 0 for this step, and
        # every agent what it earned before and was still owed.
        for other in self.agents:
            self.rewards[other] = 0.0
            self.terminations[other] = True
        self.rewards[agent] = ILLEGAL_REWARD
        self._pay_owed_rewards()
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = self._illegal_info()
        self._forget_decision()
        self._accumulate_rewards()

    # -- what each game says -------------------------------------------------------------------------------------
    def _legal_code(self, action: int) -> int | None:
        raise NotImplementedError

    def _illegal_reason(self, action: int) -> str:
        raise NotImplementedError

    def _play(self, agent: str, code: int) -> None:
        raise NotImplementedError

    def _illegal_info(self) -> dict[str, Any]:
        raise NotImplementedError

    def _forget_decision(self) -> None:
        raise NotImplementedError

    def _pay_owed_rewards(self) -> None:
        """Add to ``rewards`` what agents earned before this step and have not been paid (none by default)."""
