"""What ``agents.evaluate`` accepts besides a spec: an ``Agent`` object, or a plain function that chooses moves.

A function entry is called as ``f(state, legal) -> move``, exactly as ``Agent.act``: ``state`` is the public
view of the game, ``legal`` its legal moves (never empty), and it returns one of them.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence

from .base import Agent

MoveChooser = Callable[[Any, Sequence[Any]], Any]
"""A plain function that plays: ``f(state, legal) -> move``."""


class FunctionAgent(Agent):
    """An ``Agent`` that asks a function ``f(state, legal) -> move`` for every move."""

    def __init__(self, choose: MoveChooser, name: str | None = None) -> None:
        self.choose = choose
        self.name = name or display_name(choose)

    def act(self, state: Any, legal: Sequence[Any]) -> Any:
        return self.choose(state, legal)


def as_agent(entry: Any, name: str | None = None) -> Agent:
    """``entry`` itself if it is an ``Agent``, a ``FunctionAgent`` around it if it is a function; otherwise
    ``ValueError``, and so for a function (or an ``act``) that cannot be called with a state and its legal moves."""
    if isinstance(entry, Agent):
        check_two_arguments(entry.act, f"agent {name or display_name(entry)!r}: its act is called as act(state, legal)")
        return entry
    if plays(entry):
        check_two_arguments(entry, f"agent {name or display_name(entry)!r}: a function agent is called as f(state, legal)")
        return FunctionAgent(entry, name)
    raise ValueError(f"an agent is an Agent object or a function f(state, legal) -> move; got {entry!r}")


def plays(entry: Any) -> bool:
    """Whether ``entry`` is what may play a seat: an ``Agent``, or a function (a class or a string is not one,
    callable as they are)."""
    return isinstance(entry, Agent) or (callable(entry) and not isinstance(entry, (str, type)))


def check_two_arguments(choose: Callable[..., Any], what: str) -> None:
    """``ValueError`` naming ``what`` when ``choose`` cannot take two positional arguments; checked when the agent
    is made, so that a wrong signature is not found in the first game, as a bare ``TypeError`` naming no agent."""
    try:
        signature = inspect.signature(choose)
    except (TypeError, ValueError):  # a builtin or an extension's callable: nothing to read, called as it is
        return
    try:
        signature.bind(None, None)
    except TypeError:
        raise ValueError(f"{what}, and this one takes {signature}") from None


def display_name(entry: Any) -> str:
    """How tables and records name an entry: a spec as written (stripped), else the object's own ``name``
    (an ``Agent`` subclass that sets one), else its function or class name."""
    if isinstance(entry, str):
        return entry.strip()
    own = getattr(entry, "name", None)
    if isinstance(own, str) and own and own != Agent.name:
        return own
    function = getattr(entry, "__name__", None)
    if isinstance(function, str) and function:
        return function
    return type(entry).__name__
