"""Observation encoders: from the seat's view only, blind to hidden information, pure, bounded, and
laid out as ``docs/rl.md`` says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable.engine.game import State
from cardtable.engine.rng import Rng
from cardtable.rl.encode import dedicated, encoder_for
from cardtable.rl.encode.generic import HashedEncoder
from tests.rl.helpers import CASES, FIRST_CASES, check_blind_to_hidden, encoded, load, random_play

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def _checkpoints(n: int, count: int, rng: Rng) -> set[int]:
    return {rng.below(max(1, n)) for _ in range(count)} | {0}


@pytest.mark.parametrize(
    ("game_id", "options", "kind"),
    [pytest.param(*p.values, "auto", id=f"{p.id}-auto") for p in CASES]
    + [pytest.param(*p.values, "generic", id=f"{p.id}-generic") for p in FIRST_CASES],
)
def test_observation_never_changes_when_only_hidden_information_does(
    game_id: str, options: dict[str, Any], kind: str
) -> None:
    """Resample everything a seat cannot see (``determinize``) at points along random games: the
    seat's encoded observation is identical. Some resample must really change the state, or the
    check proved nothing."""
    game = load(game_id, options)
    encoder = encoder_for(game, kind)
    rng = Rng(11)
    changed = False
    for seed in (1, 2):
        probe = game.new(seed, log=False)
        length = random_play(probe, Rng(seed))
        points = _checkpoints(length, 6, rng)
        state = game.new(seed, log=False)
        play = Rng(seed)
        step = 0
        while True:
            if step in points:
                for seat in range(game.players):
                    changed |= check_blind_to_hidden(encoded(encoder), state, seat, rng)
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[play.below(len(legal))])
            step += 1
    assert changed, "no determinization changed anything: the hidden-information check was vacuous"


def test_the_hidden_information_check_catches_a_peek_at_the_state() -> None:
    """The check above can fail: an observation with a side channel to the full state (here, one
    number derived from the hidden cards) is caught."""
    game = load("doctor-strange", {})
    encoder = encoder_for(game)
    state = game.new(3, log=False)
    random_play(state, Rng(3), steps=10)

    def peeking(s: State, seat: int) -> np.ndarray:
        theirs = s.snapshot()["hands"][1 - seat]  # the opponent's hand, which the seat may not see
        return np.append(encoder.encode(s.view(seat)), np.float32(sum(theirs)))

    assert check_blind_to_hidden(encoded(encoder), state, 0, Rng(5), samples=4)
    with pytest.raises(AssertionError, match="changed when only hidden information did"):
        check_blind_to_hidden(peeking, state, 0, Rng(5), samples=4)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_encoding_is_a_pure_bounded_function_of_the_view(game_id: str, options: dict[str, Any]) -> None:
    game = load(game_id, options)
    encoder = encoder_for(game)
    low, high = encoder.layout.bounds()
    state = game.new(4, log=False)

    seats = iter(range(10**9))

    def check(s: State, every_seat: bool = False) -> None:
        # One seat per step, in turn (every seat at the start and the end): the checks are per view.
        for seat in range(game.players) if every_seat else [next(seats) % game.players]:
            view = s.view(seat)
            a = encoder.encode(view)
            # The same view read back from JSON (new objects, same data) encodes the same.
            b = encoder.encode(json.loads(json.dumps(view)))
            assert a.dtype == np.float32 and a.shape == (encoder.size,)
            assert np.array_equal(a, b)
            assert np.all(np.isfinite(a)) and np.all(a >= low) and np.all(a <= high)
            assert a[encoder.b_seat.start + seat] == 1.0
            assert s.view(seat) == view, "encoding must not change the view"

    check(state, every_seat=True)
    random_play(state, Rng(4), steps=40, each=check)
    check(state, every_seat=True)
    with pytest.raises(ValueError, match="spectator"):
        encoder.encode(state.view(None))


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_layout_blocks_tile_the_vector(game_id: str, options: dict[str, Any]) -> None:
    encoder = encoder_for(load(game_id, options))
    at = 0
    names = set()
    for block in encoder.layout:
        assert block.start == at and block.size > 0 and block.doc
        assert block.name not in names
        names.add(block.name)
        at = block.stop
    assert at == encoder.size
    assert encoder.layout.markdown().count("\n") == len(encoder.layout.blocks) + 2


DEDICATED = ("mephisto", "doctor-strange", "army-of-darkness", "mr-card-game")
"""The games with an encoder of their own. A game that lands without one is picked up by every test
here through the generic encoder."""


def test_the_games_have_their_own_encoders_and_any_other_game_the_generic_one() -> None:
    for game_id in DEDICATED:
        assert dedicated(game_id), f"{game_id} has lost its observation encoder"
        encoder = encoder_for(cardtable.load(game_id))
        assert not isinstance(encoder, HashedEncoder) and encoder.game_id == game_id
    for game_id in cardtable.available():
        if not dedicated(game_id):
            assert isinstance(encoder_for(cardtable.load(game_id)), HashedEncoder)


def test_docs_show_every_encoder_layout() -> None:
    """docs/rl.md carries each game's layout as ``python -m cardtable.rl.encode`` prints it."""
    from cardtable.rl.encode.__main__ import documented_layouts

    text = DOCS.read_text()
    for title, table in documented_layouts():
        assert title in text, f"docs/rl.md lacks the layout section {title!r}"
        assert table in text, f"docs/rl.md: the layout under {title!r} is out of date (python -m cardtable.rl.encode)"


def test_generic_encoder_reads_any_view() -> None:
    game = load("toy", {"players": 2})
    encoder = encoder_for(game)
    assert isinstance(encoder, HashedEncoder)
    state = game.new(1, log=False)
    first = encoder.encode(state.view(0))
    random_play(state, Rng(1), steps=3)
    assert not np.array_equal(first, encoder.encode(state.view(0)))


def test_encoder_kind_is_checked() -> None:
    game = load("toy", {"players": 2})
    with pytest.raises(ValueError, match="no observation encoder of its own"):
        encoder_for(game, "game")
    with pytest.raises(ValueError, match="encoder must be"):
        encoder_for(game, "fancy")


@pytest.mark.parametrize(("game_id", "options"), [p for p in CASES if p.values[0] in DEDICATED])
def test_every_block_of_a_game_encoder_carries_information(game_id: str, options: dict[str, Any]) -> None:
    """Along two random games, every block of a game's own encoder is non-zero for some seat at some
    point: a view key the encoder reads that was renamed or dropped shows up here, not as a silent
    block of zeros. (Encoders are written for views for people: a game still on its legacy view,
    which declares no VIEW_KEYS, is not checked.)"""
    game = load(game_id, options)
    if type(game).VIEW_KEYS is None:
        pytest.skip(f"{game_id} still has its legacy view (issue 8 not landed): its encoder reads views for people")
    encoder = encoder_for(game)
    seen = np.zeros(encoder.size, dtype=bool)
    for seed in (1, 2):
        state = game.new(seed, log=False)

        def look(s: State) -> None:
            for seat in range(game.players):
                seen[encoder.encode(s.view(seat)) != 0] = True

        random_play(state, Rng(seed), steps=300, each=look)
        look(state)
    # (is_over is set only at the end, which long games do not reach within the steps played.)
    # A block a configuration's rules keep empty: Mr. Card Game has no collective March under
    # ascension, and none before every quest boss is beaten (quests-before-march).
    quiet = {"is_over"}
    if game_id == "mr-card-game" and (options.get("ascension") or options.get("quests-before-march")):
        quiet.add("march")
    silent = [b.name for b in encoder.layout if b.name not in quiet and not seen[b.start : b.stop].any()]
    assert not silent, f"blocks never set along two random games: {silent}"


def test_a_layout_depends_on_the_players_only() -> None:
    """The documented slices per player count hold for every configuration: options other than the
    players (variants, rules, the card file's defaults) leave the layout alone."""
    from cardtable.testing.conformance import configurations

    for game_id in DEDICATED:
        by_players: dict[int, list[tuple[str, int, tuple[int, ...]]]] = {}
        for options in configurations(game_id):
            encoder = encoder_for(cardtable.load(game_id, **options))
            blocks = [(b.name, b.start, b.shape) for b in encoder.layout]
            seen = by_players.setdefault(encoder.players, blocks)
            assert seen == blocks, f"{game_id} {options}: its layout differs from others with as many players"
