"""Debian's Chromium driven by Playwright (never a downloaded browser), for the end-to-end tests.

The pages run under the server's content security policy (no ``unsafe-eval``). Playwright evaluates
a bare expression given to ``wait_for_function`` (``"document.body.dataset.over === 'true'"``) as
a string, which the policy refuses; an arrow function (``"() => ..."``) it compiles as code. While
:func:`chromium` runs, ``wait_for_function`` turns a bare expression into an arrow function, so
tests may write either, and waits for the page to have a body (a navigation may be under way).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM = os.environ.get("CARDTABLE_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install '.[test]')"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM}: install Debian's chromium (apt-get install chromium)"
    return None


_FUNCTION = re.compile(r"^\s*(async\s+)?(function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")


def as_function(expression: str) -> str:
    """``expression`` as an arrow function that is false while the page has no body.

    A click on a link starts a navigation; until the new document has a body, a predicate that reads
    ``document.body.dataset`` would throw instead of waiting, so every predicate waits for a body first.
    """
    function = expression if _FUNCTION.match(expression) else f"() => ({expression})"
    return f"(...args) => document.body !== null && ({function})(...args)"


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import Frame, Page, sync_playwright

    originals = {cls: cls.wait_for_function for cls in (Page, Frame)}

    def patched(cls: Any) -> Any:
        original = originals[cls]

        def wait_for_function(self: Any, expression: str, *args: Any, **kwargs: Any) -> Any:
            return original(self, as_function(expression), *args, **kwargs)

        return wait_for_function

    for cls in originals:
        cls.wait_for_function = patched(cls)  # type: ignore[method-assign]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        for cls, original in originals.items():
            cls.wait_for_function = original  # type: ignore[method-assign]
