"""The generator's streams are the ones recorded before the C generator existed, in both twins.

``streams.json`` was written by ``make_fixtures.py`` at e4ce40b from the pure-Python generator and the
games' own inline draws of that time (Mephisto's two-draws-per-output shuffle, Mr. Card Game's pile
draws, pick and mixed-radix deal). Those draws are now the generator's methods (``shuffle32``,
``draw``, ``pick``, ``deal``); called in the same order from the same seeds, each twin must produce
exactly the recorded numbers, or old records would stop replaying.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardtable.engine.rng import PyRng
from tests.support.crng import c_rng_class

STREAMS: list[dict[str, Any]] = json.loads(Path(__file__).with_name("streams.json").read_text(encoding="utf-8"))[
    "streams"
]


def replay_stream(cls: Any, seed: int) -> dict[str, Any]:
    """The calls make_fixtures.py made, in its order, on a generator of class ``cls``."""
    r = cls(seed)
    e: dict[str, Any] = {"seed": seed, "state0": r.state}
    e["next64"] = [r.next64() for _ in range(8)]
    e["below"] = [r.below(n) for n in (1, 2, 3, 6, 7, 12, 52, 100, 1000, 2**31 - 1, 2**32, 2**40 + 7)]
    e["roll"] = [r.roll(s) for s in (6, 12, 20, 6, 12)]
    e["choice"] = [r.choice(list(range(n))) for n in (1, 5, 9, 40)] + [r.choice((3, 4, 5))]
    deck = list(range(52))
    r.shuffle(deck)
    e["shuffle52"] = deck
    small = list(range(7))
    r.shuffle(small)
    e["shuffle7"] = small
    child = r.fork()
    e["fork"] = [child.state, r.state, child.next64()]
    e["copy"] = r.copy().next64()
    for n in (0, 1, 2, 3, 30, 61):
        seq = list(range(n))
        r.shuffle32(seq)
        e[f"shuffle2x32_{n}"] = seq
    pile = list(range(40))
    dest: list[int] = []
    r.draw(dest, pile, 10)
    e["draw_list"] = [dest, pile]
    picked = []
    tup = tuple(range(100, 112))
    while tup:
        card, tup = r.pick(tup)
        picked.append(card)
    e["pick_tuple"] = picked
    for size, k in ((9, 6), (60, 60), (200, 17), (5, 0), (3, 3)):
        pool = list(range(size))
        dealt = r.deal(pool, k)
        e[f"deal_{size}_{k}"] = [dealt, pool]
    e["state_end"] = r.state
    return e


TWINS = [pytest.param(PyRng, id="python")]
if c_rng_class() is not None:
    TWINS.append(pytest.param(c_rng_class(), id="c"))


@pytest.mark.parametrize("cls", TWINS)
@pytest.mark.parametrize("stream", STREAMS, ids=[str(s["seed"]) for s in STREAMS])
def test_stream_is_unchanged(cls: Any, stream: dict[str, Any]) -> None:
    got = replay_stream(cls, stream["seed"])
    changed = [key for key in stream if got.get(key) != stream[key]]
    assert not changed, f"{cls.__module__} changed the stream of seed {stream['seed']} in: {changed}"
