"""The web table: play every game in a browser, with friends or bots (``cardtable serve``).

A thin layer over the protocol: the server sends a seat only its ``view(seat)``, its legal actions
and its events; no rule lives in the server or the page. Modules: :mod:`.app` (the ASGI app),
:mod:`.lobby` (the HTTP API), :mod:`.protocol` (play messages), :mod:`.hub` (tables, clients, bots),
:mod:`.live` (one table in play), :mod:`.storage` (SQLite/PostgreSQL), :mod:`.bots` (agents off the
event loop). See docs/web.md.
"""

from __future__ import annotations

from cardtable.web.app import create_app

__all__ = ["create_app"]
