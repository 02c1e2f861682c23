"""Fixtures for the web app's tests: a test client on a fresh app and a fake clock (helpers that play are in
``app_helpers``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))  # app_helpers

from app_helpers import MODELS  # noqa: E402

from contack_env.app import Limits, create_app  # noqa: E402


class FakeClock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_client(clock: FakeClock) -> Callable[..., TestClient]:
    def make(models: tuple[str | Path, ...] = (MODELS,), **limits: Any) -> TestClient:
        return TestClient(create_app(models, Limits(clock=clock, **limits)))

    return make


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()
