"""Scenarios from an independent audit of the rulebooks against the engine: each test is a rule the
rulebook states plainly, written as a scenario (the clause is in the test's name)."""

from __future__ import annotations

from pathlib import Path

import cardtable
from cardtable.games.mr_card_game.codes import D_COMBAT
from cardtable.games.mr_card_game.combat import power_of
from cardtable.games.mr_card_game.state import McgState

from .helpers import act, cid, legal, on_top, only_targets, ready, set_hand

BUNDLED = Path(cardtable.__file__).parent / "games" / "mr_card_game" / "cards.toml"


def test_k15_7_a_foil_global_effect_lowering_a_power_to_zero_lets_the_monster_be_beaten_without_a_score(
    tmp_path: Path,
) -> None:
    """Clarification 7: "If you can reduce a monster's power to 0 or less, you can defeat it without a
    combat score." A foil's global effect (supplemental rules: "Adjust the value of the monsters")
    that brings a monster to 0 counts as much as a reduction: the kill is there as soon as combat
    starts, with no maneuver and no damage. (A card file where a cold monster has power 1: the
    stand-in set's Frostbound lowers cold monsters by 1.)"""
    text = BUNDLED.read_text(encoding="utf-8")
    old = 'monster = "Icicle Astronomer"\npower = 10\n'
    assert old in text
    path = tmp_path / "cold.toml"
    path.write_text(text.replace(old, 'monster = "Icicle Astronomer"\npower = 1\n'), encoding="utf-8")
    s = cardtable.load("mr-card-game", players=2, sorceress="foil-1", cards=str(path), **{"first-player": "P1"}).new(0)
    assert isinstance(s, McgState)
    c = s.game.cards
    frost = next(f for f in c.foils if c.mname[f] == "Naughty Sorceress, the Frostbound")
    if s.tower != frost:
        s.foil_pool = tuple(sorted((*[x for x in s.foil_pool if x != frost], s.tower)))
        s.tower = frost
    s.global_fx = c.gfx[frost]
    astronomer = cid(s, "Icicle Astronomer")
    on_top(s, astronomer)
    only_targets(s, [astronomer])
    set_hand(s, 0, ["mus1", "mus1", "mus1", "mus1", "mus1", "mus1"])
    ready(s)
    assert power_of(s, astronomer) == 0
    act(s, "combat")
    assert s.phase == D_COMBAT
    assert f"kill card={astronomer}" in legal(s)
    act(s, f"kill card={astronomer}")
    assert astronomer in s.items[0]
