"""Records made before the compiled build still replay, action by action, to the same states.

``records.json.gz`` was written by ``make_fixtures.py`` with the engine as it was before the compiled
build and the C generator (main at e4ce40b): two random games of every game and configuration, each
with a state hash after every action. Replaying checks every hash and the stored result, so any change
of a random stream or of the rules shows up here as a :class:`ReplayDivergence` naming the action.
The same test runs against the compiled build in CI.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.testing.conformance import cases

FIXTURE = Path(__file__).with_name("records.json.gz")


def _records() -> list[dict[str, Any]]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return list(data["records"])


RECORDS = _records()


@pytest.mark.parametrize("record", RECORDS, ids=[f"{r['game']}-{i:02d}-seed{r['seed']}" for i, r in enumerate(RECORDS)])
def test_old_record_replays(record: dict[str, Any]) -> None:
    state = cardtable.replay(record)
    assert state.actions_taken() == record["actions"]
    if record["result"] is not None:
        assert state.is_over and state.result().to_json() == record["result"]


def test_every_configuration_has_old_records() -> None:
    """Every configuration that existed when the fixtures were made has two records (new ones may
    have been added since; they are covered by the golden playthroughs)."""
    have = {(r["game"], json.dumps(r["options"], sort_keys=True)) for r in RECORDS}
    assert len(RECORDS) == 2 * len(have)
    configured = cases(cardtable.games.builtin())
    now = {(g, json.dumps(_older_options(cardtable.load(g, **o)), sort_keys=True)) for g, o in configured}
    assert have <= now, sorted(have - now)


def _older_options(game: cardtable.Game) -> dict[str, Any]:
    """The game's options without those added since the records were made (they declare a legacy
    value, which the records replay with)."""
    added = {o.name for o in game.OPTIONS if o.legacy is not None}
    return {k: v for k, v in game.options.items() if k not in added}


@pytest.mark.parametrize(
    ("option", "today"),
    [("equipment-repeats", "refused"), ("block-discards", "completing")],
)
def test_a_record_made_before_an_option_existed_replays_with_its_legacy_value(option: str, today: str) -> None:
    """Positive control of the legacy mechanism, for each Mr. Card Game option added after the records
    were made: some old record is refused under today's default (one goes back to an earlier
    arrangement of equipment; one discards a blocking card that could not complete the block), and
    every one replays under the legacy value its options imply."""
    olds = [r for r in RECORDS if r["game"] == "mr-card-game"]
    refused = 0
    for record in olds:
        assert option not in record["options"]
        now = {**record, "options": {**record["options"], option: today}}
        try:
            cardtable.replay(now)
        except cardtable.ReplayDivergence:
            refused += 1
        cardtable.replay(record)
    assert refused > 0
