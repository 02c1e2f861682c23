"""``contack serve``: play Contack, the solitaires and CON-TAC-TIX in a browser, and step through records.

The top layer, beside the command line: it uses the engine, the bots and the trained models, and nothing
below imports it. ``server`` is the web app (Starlette) and its JSON API; ``sessions`` the open games, each
checked move by move by the engine; ``replays`` record files turned into frames; ``models`` the model files
(policies and search-guided networks) a table may seat; ``store`` the capped, expiring keeping of games and files
by id; ``trusted_hosts`` the check of the Host header on loopback (DNS rebinding); ``background`` the app served
in a thread on a free port (for browser tests, pictures of the page and benchmarks). What differs between the games
(a state's public JSON, never the pile's order; a move; the log; a replay's frames) is each game's web adapter,
named in its ``GameSpec``: ``web_game`` says what an adapter provides, ``web_contack`` (Contack and the
solitaires) and ``web_contactix`` are the adapters. ``static/`` holds the page: plain HTML, CSS and JavaScript,
no build step.
"""

from .server import Limits, create_app, serve

__all__ = ["Limits", "create_app", "serve"]
