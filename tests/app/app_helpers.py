"""Helpers for the web app's tests: where the repository and its models are, and playing through the API."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"


def new_game(client: TestClient, **table: Any) -> dict[str, Any]:
    table.setdefault("game", "contack")
    table.setdefault("seats", ["person", "greedy"])
    response = client.post("/api/games", json=table)
    assert response.status_code == 201, response.text
    return response.json()


def advance_bots(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """Let the bots move until a person is to move or the game is over."""
    while not game["state"]["done"] and not game["person_to_move"]:
        response = client.post(f"/api/games/{game['id']}/bot", json={"version": game["version"]})
        assert response.status_code == 200, response.text
        game = response.json()
    return game


def person_move(client: TestClient, game: dict[str, Any], move: dict[str, Any]) -> Any:
    """POST a Contack move (a legal-move entry or any forged one) at the game's version."""
    body = {"version": game["version"], **{k: move[k] for k in ("tile", "x", "y") if k in move}}
    return client.post(f"/api/games/{game['id']}/move", json=body)


def play_out(client: TestClient, game: dict[str, Any], seed: int = 0) -> dict[str, Any]:
    """Play a game to its end: random legal moves for the people, the bots on request."""
    rng = random.Random(seed)
    game = advance_bots(client, game)
    while not game["state"]["done"]:
        response = person_move(client, game, rng.choice(game["state"]["legal"]))
        assert response.status_code == 200, response.text
        game = advance_bots(client, response.json())
    return game
