"""A bot that thinks long holds up only its own game: other games are answered meanwhile, and a second request
for the thinking game waits its turn and is then refused as stale rather than played twice."""

from __future__ import annotations

import asyncio
import threading

import httpx2
from app_helpers import MODELS

from agents import register, unregister
from contack_env.app import create_app

SLOW = "held"
"""A bot that decides only when the test lets it (``_RELEASE``): a bot timed to think long enough (``mcts`` with
the app's most iterations, 2 s) raced the other game's requests on a busy machine."""
_RELEASE = threading.Event()


def _held_bot(arg, rng, game):
    def decide(state, legal):
        _RELEASE.wait(60)
        return legal[0]

    return decide


async def _session() -> None:
    app = create_app((MODELS,))
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        slow = (await client.post("/api/games", json={"game": "contack", "seats": [SLOW, SLOW], "seed": 1})).json()
        fast = (await client.post("/api/games", json={"game": "contack", "seats": ["person", "greedy"], "seed": 2})).json()
        thinking = asyncio.create_task(client.post(f"/api/games/{slow['id']}/bot", json={"version": 0}))
        again = asyncio.create_task(client.post(f"/api/games/{slow['id']}/bot", json={"version": 0}))
        await asyncio.sleep(0.05)  # both are in: the first thinks, the second waits for the game's lock

        # Meanwhile the other game is played: several requests, each answered while the bot still thinks.
        game = fast
        for _ in range(6):
            if game["person_to_move"]:
                move = game["state"]["legal"][0]
                response = await client.post(
                    f"/api/games/{game['id']}/move", json={"version": game["version"], **{k: move[k] for k in ("tile", "x", "y")}}
                )
            else:
                response = await client.post(f"/api/games/{game['id']}/bot", json={"version": game["version"]})
            assert response.status_code == 200
            game = response.json()
        assert game["version"] == 6
        assert not thinking.done(), "the other game had to wait for the slow bot"
        _RELEASE.set()

        first, second = await thinking, await again
        assert first.status_code == 200 and first.json()["version"] == 1
        assert second.status_code == 409 and "stale" in second.json()["error"]


def test_a_slow_bot_does_not_block_other_games() -> None:
    _RELEASE.clear()
    register(SLOW, _held_bot, games="contack")
    try:
        asyncio.run(_session())
    finally:
        _RELEASE.set()  # a failed assertion must not leave the bot's thread waiting
        unregister(SLOW)
