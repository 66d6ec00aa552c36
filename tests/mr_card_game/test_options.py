"""The options: every one listed and validated, nonsense refused, the configurations covering every
value and player count, and the finite meat supply (A16). The options' rules are tested with the
clauses they change (see docs/rules/mr-card-game.md)."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.engine import OptionError
from cardtable.games.mr_card_game.game import MrCardGame

from .helpers import act, cid, give_item, give_skill, new, set_hand


def test_every_option_has_a_default_and_says_what_it_does() -> None:
    names = [o.name for o in MrCardGame.OPTIONS]
    assert names == [
        "players",
        "sorceress",
        "first-player",
        "turn-limit",
        "evasion-adds-damage",
        "new-equipment",
        "equipment-repeats",
        "block-discards",
        "use-consumes",
        "skill-pile-empty",
        "march-winner",
        "march-tie",
        "meat-supply",
        "cards",
        "nemesis",
        "bosses",
        "quests-before-march",
        "hardcore",
        "ascension",
        "boss-reset",
        "nemesis-rebuild",
        "mr-store",
        "store-filter",
        "store-used",
        "classes",
        "class-trainer",
        "playmat",
    ]
    for o in MrCardGame.OPTIONS:
        assert o.doc and o.describe().startswith(f"{o.name}=")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 1}, "at least 2"),
        ({"players": 6}, "at most 5"),
        ({"sorceress": "30"}, "sorceress"),
        ({"quests-before-march": True}, "quests-before-march needs the quest bosses"),
        ({"ascension": True, "sorceress": "25"}, "leave sorceress at its default"),
        ({"ascension": True, "bosses": True, "quests-before-march": True}, "ascension has no March"),
        ({"boss-reset": "all", "bosses": True}, "boss-reset=all applies only to ascension with bosses"),
        ({"nemesis-rebuild": "all", "ascension": True}, "nemesis-rebuild=all applies only to ascension with nemesis"),
        ({"store-used": "removed"}, "store-used=removed applies only to mr-store"),
        ({"store-filter": False}, "store-filter=false applies only to mr-store"),
        ({"classes": "everyone"}, "classes"),
        ({"hardcore": "some"}, "hardcore"),
        ({"players": 3, "first-player": "P4"}, "first-player=P4 names no seat of a 3-player game"),
        ({"first-player": "P0"}, "first-player"),
        ({"players": 3, "meat-supply": 17}, "less than the 18 meat the 3 players start with"),
        ({"turn-limit": 0}, "at least 1"),
        ({"march-tie": "nobody"}, "march-tie"),
        ({"march-winner": "everyone"}, "march-winner"),
        ({"evasion-adds-damage": "maybe"}, "true or false"),
        ({"colour": "blue"}, "unknown option 'colour'"),
    ],
)
def test_nonsense_options_are_refused_with_an_option_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        cardtable.load("mr-card-game", **options)


def test_configurations_cover_every_option_value_and_every_player_count() -> None:
    configs = [dict(c) for c in MrCardGame.CONFIGURATIONS]
    for c in configs:
        cardtable.load("mr-card-game", **c)  # each is a valid option set
    assert {c.get("players", 2) for c in configs} == {2, 3, 4, 5}
    for o in MrCardGame.OPTIONS:
        used = {c[o.name] for c in configs if o.name in c}
        if o.choices is not None:
            # A legacy value (the rule as old records have it) is played by the conformance harness's
            # legacy configurations and the old records, not by a configuration of its own.
            assert set(o.choices) - {o.default, o.legacy} <= used, o.name
        elif o.kind is bool:
            assert True in used or o.default is True, o.name
        elif o.name in ("turn-limit", "meat-supply"):
            assert used - {o.default}, o.name
    # The paths of card files are not a configuration: the option is tested in test_cards.py.


def test_a16_a_finite_meat_supply_caps_gains_and_payments_return_to_it() -> None:
    s = new(3, meat_supply=20)
    assert s.pool == 20 - 18
    busking = cid(s, "Street Busking")  # 1 mojo: gain 2 meat
    give_skill(s, 0, busking)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mox1", "mox1", "mox1"])
    act(s, f"autosell card={s.items[0][0]}")  # +1
    assert s.pool == 1 and s.meat[0] == 6
    act(s, "mojo stat=mys1", f"skill card={busking}")
    assert s.meat[0] == 7 and s.pool == 0  # only what was left
    assert "gains 1 meat" in " ".join(s.events(0))
    salad = cid(s, "Daisy Chain Salad")
    give_item(s, 1, salad)
    s.heap = (salad,)
    s.items[1] = tuple(x for x in s.items[1] if x != salad)
    s._legal = None
    act(s, f"dive card={salad}")
    assert s.pool == 2 and s.meat[0] == 5
    assert s.pool + sum(s.meat) == 20
    assert s.view(1)["meat_pool"] == 2
