"""The web table: play every game in a browser, with friends or bots (``cardtable serve``).

A thin layer over the protocol: the server sends a seat only its ``view(seat)``, its legal actions
and its events; no rule lives in the server or the page. Modules: :mod:`.app` (the ASGI app),
:mod:`.lobby` (the HTTP API), :mod:`.protocol` (play messages), :mod:`.hub` (tables, clients, bots),
:mod:`.live` (one table in play), :mod:`.storage` (SQLite/PostgreSQL), :mod:`.bots` and
:mod:`.workers` (agents off the event loop, in worker processes), :mod:`.limits`, :mod:`.security`,
:mod:`.guard` and :mod:`.outbox` (what one client may cost), :mod:`.lease` (several servers on one
PostgreSQL database). See docs/web.md.

``create_app`` is imported when first asked for, so a bot worker process (which imports
:mod:`.botworker` from this package) does not load the web framework.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from cardtable.web.app import create_app

        return create_app
    raise AttributeError(f"module 'cardtable.web' has no attribute {name!r}")
