"""Every seat reads the very same event log as the golden one (tests/eventlog/golden.json.gz).

The golden logs were written from the engine that kept events as text; the engine now keeps the hot
events as data worded when read, and the compiled build runs this test too. Kind, public and private
text, addressees and each seat's and a spectator's reading must match event by event.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.testing.conformance import config_label
from cardtable.testing.eventlog import REGENERATE, event_lines

GOLDEN: dict[str, list[list[Any]]] = json.loads(
    gzip.decompress((Path(__file__).parent / "eventlog" / "golden.json.gz").read_bytes())
)


def _case(key: str) -> tuple[str, dict[str, Any], int]:
    game_id, label, seed = key.split(" ")
    for options in type(cardtable.load(game_id)).CONFIGURATIONS:
        if config_label(options) == label:
            return game_id, dict(options), int(seed.removeprefix("seed="))
    raise LookupError(f"no configuration {label} of {game_id} any more; regenerate with {REGENERATE}")


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_event_log_reads_as_golden(key: str) -> None:
    game_id, options, seed = _case(key)
    now = event_lines(game_id, options, seed)
    for i, (want, got) in enumerate(zip(GOLDEN[key], now, strict=False)):
        assert got == want, f"event {i} differs (if intended: {REGENERATE}):\n  golden: {want}\n  now:    {got}"
    assert len(now) == len(GOLDEN[key])
