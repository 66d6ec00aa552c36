"""Probes of ``cardtable play`` found wanting in an audit: junk typed at a prompt is quoted short.

A line of junk pasted at the prompt (thousands of characters) was echoed whole in its error, dozens
of screen lines; every message quotes input once and cut short (``errors.quoted``), as the engine's do.
"""

from __future__ import annotations

import pytest

from tests.cli.conftest import Runner

JUNK = "é" * 5000


@pytest.mark.parametrize(
    "line",
    [
        JUNK,  # neither an action nor a command
        "play " + JUNK,  # an action kind with a value that is no choice
        JUNK[:100] + " card=1",  # an unknown kind with a value
        "look " + JUNK,  # no card so called
        "table " + JUNK,  # no zone so called
        "rules " + JUNK,  # no clause so called
    ],
    ids=["junk", "play-junk", "kind-junk", "look-junk", "table-junk", "rules-junk"],
)
def test_a_long_line_of_junk_is_quoted_short(cli: Runner, line: str) -> None:
    run = cli("play", "toy", "--seats", "human,random", "--seed", "3", input=[line, "quit", ""])
    assert run.code == 0
    assert "Traceback" not in run.out + run.err
    # The error: from its mark to the next prompt (the typed line itself is echoed after the prompt).
    start = run.out.find("✗")
    assert start >= 0, run.out[-2000:]
    error = run.out[start : run.out.find("P1 >", start)]
    assert error.count("é") <= 80, f"the junk was echoed at length: {error[:300]}"
