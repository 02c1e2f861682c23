"""Take the README's picture of ``contack serve`` (``docs/img/serve.png``) in a headless chromium.

    python docs/make_serve_screenshot.py [OUT.png]      (default: img/serve.png beside this file)

The app runs on 127.0.0.1 on a free port; Playwright drives the system's chromium (``apt-get install chromium``)
through a 4-player table, a person against ``greedy``, ``lookahead`` and the shipped 4-player model, from a fixed
seed: a few moves by clicking, then a tile picked, so the cells where it may go show the points they score.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"]
SIZE = (1280, 800)


def take(out: Path, browser: Any = None, moves: int = 4, seed: int = 7) -> Path:
    """Play ``moves`` moves of the table and save the page as ``out``; returns ``out``. ``browser``: a Playwright
    browser to use (default: launch the system's chromium)."""
    from contack_env.app.background import BackgroundServer

    if browser is None:
        from playwright.sync_api import sync_playwright

        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            raise SystemExit("no chromium found: install it (apt-get install -y chromium)")
        with sync_playwright() as p:
            launched = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                return take(out, launched, moves, seed)
            finally:
                launched.close()
    with BackgroundServer((ROOT / "models",)) as server:
        page = browser.new_page(viewport={"width": SIZE[0], "height": SIZE[1]})
        try:
            page.goto(server.url + "/")
            page.wait_for_selector("body[data-ready=true]")
            page.fill("#players", "4")
            page.dispatch_event("#players", "change")
            for seat, spec in enumerate(["person", "greedy", "lookahead", "ppo:contack_4p.npz"]):
                page.select_option(f"#seat-{seat}", spec)
            page.fill("#seed", str(seed))
            page.select_option("#pace", "0")
            page.click("#start")
            for _ in range(moves):
                page.wait_for_selector("body[data-turn=person]")
                before = page.evaluate("document.body.dataset.version")
                if page.locator(".hand-tile.selected").count() == 0:
                    page.locator(".hand-tile.playable").first.click()
                page.locator("#board .cell.legal").last.click()
                page.wait_for_function(f"document.body.dataset.version !== '{before}'")
            page.wait_for_selector("body[data-turn=person]")
            if page.locator(".hand-tile.selected").count() == 0:
                page.locator(".hand-tile.playable").last.click()
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
        finally:
            page.close()
    return out


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "img" / "serve.png"
    print(take(target))
