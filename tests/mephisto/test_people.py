"""Issue 8 for Mephisto: views, prompts, logs and errors for people; no decision shaped by a hidden card.

Clauses P8-P14 of docs/rules/mephisto.md.
"""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.engine import ENGINE_VIEW_KEYS, IllegalAction, Rng
from cardtable.games.mephisto.game import Mephisto
from cardtable.games.mephisto.rules import MephistoState
from cardtable.testing.conformance import (
    INTERNAL_KEYS,
    ConformanceError,
    check_perturbation,
    check_view_for_people,
)

from .helpers import (
    CANDLE,
    CHALICE,
    DAGGER,
    DEMON,
    GREATAXE,
    HELLHOUND,
    IMP,
    LANTERN,
    LONGBOW,
    MALLET,
    MIND_ROT,
    OFFERING,
    PACT,
    SHARPEN,
    SKELETON,
    SLIME,
    WARHAMMER,
    WITCH,
    apply,
    arrange,
    cid,
    legal,
    new,
)

CONFIGS = [dict(c) for c in Mephisto.CONFIGURATIONS]
NUMBERS = {
    "monster": {"attack", "souls"},
    "weapon": {"cost", "attack", "durability", "range"},
    "spell": {"cost"},
    "item": {"cost", "durability"},
}


def played(config: dict[str, Any], seed: int, steps: int) -> MephistoState:
    s = cardtable.load("mephisto", **config).new(seed)
    assert isinstance(s, MephistoState)
    rng = Rng(seed)
    for _ in range(steps):
        if s.is_over:
            break
        options = s.legal_actions()
        s.apply(options[rng.below(len(options))])
    return s


def keys_anywhere(value: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(value, dict):
        out |= set(value)
        for v in value.values():
            out |= keys_anywhere(v)
    elif isinstance(value, list):
        for v in value:
            out |= keys_anywhere(v)
    return out


# ---------------------------------------------------------------- P8 views for people
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_p8_view_keys_are_exactly_the_declared_ones_and_name_no_internals(config: dict[str, Any]) -> None:
    banned = set(INTERNAL_KEYS) | {
        "first",
        "side_to_play",
        "phase",
        "step",
        "passes",
        "runouts",
        "end_turn",
        "paying",
        "done_this_turn",
        "layout",
        "lane_by_seat",
        "my_lanes",
        "deck_at",
        "choices",
        "x",
        "y",
        "space",
    }
    for steps in (0, 40, 400):
        s = played(config, 3, steps)
        for seat in [*range(s.game.players), None]:
            v = s.view(seat)
            assert set(v) == ENGINE_VIEW_KEYS | Mephisto.VIEW_KEYS
            check_view_for_people(s.game, v)
            assert not keys_anywhere(v) & banned, keys_anywhere(v) & banned


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_p8_every_card_in_a_view_carries_its_printed_data_in_words(config: dict[str, Any]) -> None:
    s = played(config, 4, 60)
    c = s.game.cards
    for seat in [*range(s.game.players), None]:
        cards = [obj for obj in _card_dicts(s.view(seat))]
        assert cards
        for card in cards:
            kind = card["type"]
            assert NUMBERS[kind] <= set(card), card
            for key in NUMBERS[kind]:
                assert card[key] == getattr(c, "souls" if key == "souls" else key)[card["id"]]
            assert isinstance(card["text"], str) and "do=" not in card["text"] and "_" not in card["text"]


def _card_dicts(value: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(value, dict):
        if isinstance(value.get("id"), int) and isinstance(value.get("name"), str):
            out.append(value)
        for v in value.values():
            out += _card_dicts(v)
    elif isinstance(value, list):
        for v in value:
            out += _card_dicts(v)
    return out


def test_p8_card_texts_say_each_ability_in_words() -> None:
    view = arrange(new(), hands={0: [WITCH, MALLET, SHARPEN, CHALICE, LONGBOW]}).view(0)
    text = {card["name"]: card["text"] for card in view["hand"]}
    assert text["Witch"] == (
        "When it enters the dungeon: each opponent loses 2 favor. "
        "Once you have defeated it, whenever you win a fight: you gain 1 favor."
    )
    assert text["Mallet"] == ""
    assert text["Sharpen"] == "Attach to a weapon: +1 attack for it until it breaks."
    assert text["Chalice"] == "Activate (1 durability, once a turn): you gain 2 favor."
    assert text["Longbow"] == "Activate (1 durability, once a turn): you draw a card."
    mallet = next(card for card in view["hand"] if card["name"] == "Mallet")
    assert mallet == {
        "id": MALLET,
        "name": "Mallet",
        "type": "weapon",
        "text": "",
        "cost": 0,
        "attack": 3,
        "durability": 3,
        "range": 2,
    }


def test_p8_prompts_say_what_is_decided_by_whom_and_why() -> None:
    s = arrange(new(), hands={0: [WARHAMMER, IMP, PACT, CANDLE]}, inplay={1: [MALLET]})
    assert s.view(0)["prompt"] == "P1: play or activate cards, then take your action: loot, fight or summon"
    assert s.view(1)["prompt"] == "P1 is playing cards or choosing an action"
    apply(s, f"play card={WARHAMMER}", f"discard card={IMP}")
    assert s.view(0)["prompt"] == "P1: pay 1 more for Warhammer: discard a card"
    assert s.view(1)["prompt"] == "P1 is paying for Warhammer: 1 more card to discard"
    assert s.view(None)["resolving"]["status"] == "P1 is paying for it: 1 more to discard"
    # Warhammer's on-play damage: one opponent card, public, resolves by itself
    apply(s, f"discard card={PACT}")
    assert s.dur[MALLET] == 2 and s.current_player == 0
    # an opponent's decision during your turn
    s = arrange(new(), hands={0: [MIND_ROT, PACT], 1: [IMP, CANDLE]})
    apply(s, f"play card={MIND_ROT}")
    assert s.view(1)["prompt"] == "P2: discard a card (Mind Rot's effect)"
    assert s.view(0)["prompt"] == "P2 is choosing a card to discard (Mind Rot's effect)"
    # an immediate effect names the monster
    s = arrange(new(), hands={0: [SLIME], 1: [IMP, CANDLE]}, dungeon=[CHALICE, LANTERN, -1, -1, -1, -1])
    apply(s, f"summon card={SLIME}", f"take card={CHALICE}")
    assert s.view(0)["prompt"] == "P2 is choosing a card to discard (Slime's immediate effect)"


def test_p8_the_game_over_prompt_says_how_it_ended() -> None:
    for config, expected in (
        ({"players": 2}, "Game over: P"),
        ({"players": 1}, "Game over: P1 collected "),
        ({"players": 4, "teams": True}, "Game over: "),
    ):
        s = played(config, 2, 5000)
        assert s.is_over
        prompt = s.view(0)["prompt"]
        assert prompt.startswith(expected) and "soul points" in prompt
        if config.get("teams") and not s.result().draw:
            assert "P1+P3 win" in prompt or "P2+P4 win" in prompt


def test_p9_a_fight_shows_attack_against_what_is_needed_and_the_favor_gap() -> None:
    """The rulebook's combat example as P1 sees it and as P2 sees it."""
    s = arrange(new(), inplay={0: [MALLET, GREATAXE]}, dungeon=[-1, -1, WITCH, CHALICE, -1, -1], favor=[8, 5])
    lanes = s.view(0)["your_lanes"]
    assert lanes[1] == {
        "lane": 2,
        "monsters": "Witch (12)",
        "monster_attack": 12,
        "your_attack": 7,
        "attack_from": "Mallet 3 + Greataxe 4",
        "favor_to_win_all": 5,
    }
    apply(s, "fight lane=2", f"weapon card={MALLET}", f"weapon card={GREATAXE}")
    fight = s.view(1)["fight"]
    assert fight["fighter"] == "P1" and fight["lane"] == "lane 2"
    assert [m["name"] for m in fight["monsters"]] == ["Witch"] and fight["needed"] == 12
    assert fight["attack"] == 7 and fight["attack_from"] == "Mallet 3 + Greataxe 4"
    assert fight["favor_to_close_gap"] == 5 and fight["fighter_favor"] == 8
    assert fight["summary"] == "attack 7 against 12: 5 favor closes the gap (P1 has 8)"
    assert s.view(0)["prompt"] == (
        "P1: spend favor in the fight: attack 7 against 12; 5 favor wins the fight (you have 8)"
    )


def test_p9_progress_towards_the_end_is_visible() -> None:
    s = new(1, players=3)
    progress = s.view(0)["progress"]
    assert progress["pass_through_deck"] == "1 of 2" and progress["deck"] == len(s.deck)
    assert progress["end"].startswith("when the deck runs out for the second time, play goes on until the round")
    s = arrange(new(), seat=0, first=0, deck=[PACT], dungeon=[CHALICE, LANTERN, IMP, 3, 4, 5])
    events = [e.text for e in s.apply("loot-deck")]  # P1 takes the deck's last card: the end, after P2's turn
    assert f"the end is triggered: the game ends after turn {s.turn} (P2's turn)" in events
    assert s.view(0)["progress"]["end"] == "triggered: the game ends after this turn"
    solo = new(players=1)
    assert solo.view(0)["progress"]["ranking"] == "Unranked so far; 1 soul points for Easy"


def test_p9_the_dungeon_is_drawn_from_each_seats_side() -> None:
    s = new(2)
    south, north = s.view(0)["dungeon"]["rows"], s.view(1)["dungeon"]["rows"]
    # seated opposite: P2 sees the table turned around (its near row is P1's far row, lanes mirrored)
    assert [[cell["card"]["id"] for cell in row] for row in north] == [
        [cell["card"]["id"] for cell in reversed(row)] for row in reversed(south)
    ]
    assert s.view(None)["dungeon"] == s.view(0)["dungeon"] | {
        "seen_from": "P1's side (south): rows far to near, lanes 1-3 left to right"
    }
    assert s.view(1)["players"][0]["sits"] == "across the table"


# ---------------------------------------------------------------- P10 logs from the reader's side
def test_p10_lanes_and_spaces_are_numbered_from_the_readers_side() -> None:
    s = arrange(new(), hands={0: [LONGBOW, PACT]}, dungeon=[CHALICE, LANTERN, IMP, 3, 4, 5], deck_top=[OFFERING])
    events = s.apply(f"play card={LONGBOW}")  # range 3: P1's lane 3 is P2's lane 1
    assert [e.for_seat(0) for e in events][-1] == "P1's Longbow (card 33) goes into lane 3"
    assert [e.for_seat(1) for e in events][-1] == "P1's Longbow (card 33) goes into lane 1 (P1's lane 3)"
    events = s.apply(f"loot card={CHALICE}")  # space 0: P1's lane 1 near, P2's lane 3 far
    assert "P1 loots Chalice (card 50) from lane 1, near" in [e.for_seat(0) for e in events]
    assert "P1 loots Chalice (card 50) from lane 3, far" in [e.for_seat(1) for e in events]
    assert "Offering (card 40) enters the dungeon at lane 3, far" in [e.for_seat(1) for e in events]
    assert "Offering (card 40) enters the dungeon at lane 1, near" in [e.for_seat(None) for e in events]


def test_p10_lanes_of_a_seat_at_your_side_are_rows() -> None:
    s = new(0, players=4)
    arrange(s, seat=1, dungeon=[-1] * 6, favor=[5, 5, 5, 5])
    space = s.game.board.lane_spaces[1][1][0]
    s.dungeon[space] = IMP
    events = s.apply("fight lane=1")
    assert events[0].for_seat(1) == "P2 fights in lane 1"
    assert events[0].for_seat(0) == "P2 fights in P2's lane 1 (the row farthest from you)"
    assert events[0].for_seat(2) == "P2 fights in P2's lane 1 (the row nearest you)"
    assert events[0].for_seat(3) == "P2 fights in lane 3 (P2's lane 1)"  # west and east: mirrored lanes


def test_p10_a_fight_lists_the_monsters_collected() -> None:
    s = arrange(new(), inplay={0: [MALLET, GREATAXE]}, dungeon=[-1, -1, WITCH, IMP, -1, -1], favor=[10, 5])
    apply(s, "fight lane=2", f"monster card={WITCH}", f"monster card={IMP}", f"weapon card={MALLET}")
    apply(s, f"weapon card={GREATAXE}")
    events = s.apply("spend favor=7")
    line = events[0].for_seat(1)
    assert line == (
        "P1 wins the fight in lane 2: attack 14 (Mallet 3 + Greataxe 4 + favor 7) against 14; "
        "P1 collects Witch (card 0, attack 12), Imp (card 1, attack 2): 6 soul points"
    )


def test_p10_summoning_gains_3_favor_in_the_log_and_no_op_lines_are_left_out() -> None:
    s = arrange(new(), hands={0: [HELLHOUND]}, dungeon=[CHALICE, LANTERN, -1, -1, -1, -1], favor=[4, 0])
    texts = [e.for_seat(1) for e in s.apply(f"summon card={HELLHOUND}")]
    texts += [e.for_seat(1) for e in s.apply(f"take card={CHALICE}")]
    summon = next(t for t in texts if "summoning" in t)
    assert summon.endswith("summoning: P1 gains 3 favor (4 -> 7)")
    # Hellhound: every player loses 1 favor; P2 is at 0, so nothing happens to P2 and nothing is said
    assert "Hellhound's immediate effect" not in " ".join(texts)
    assert "Hellhound: P1 loses 1 favor (7 -> 6)" in texts
    assert not any(t.startswith("Hellhound: P2") for t in texts)
    assert not any("0 -> 0" in t for t in texts)


def test_p10_teams_are_named_by_their_players() -> None:
    s = new(0, players=4, teams=True)
    assert s.log is not None
    assert s.log[0].text in ("P1+P3 go first", "P2+P4 go first")
    assert s.view(0)["whose_turn"].startswith(f"turn 1: team {'P1+P3' if s.side == 0 else 'P2+P4'}'s turn")
    assert s.view(0)["players"][0]["team"] == "P1+P3" and s.view(0)["players"][3]["team"] == "P2+P4"


# ---------------------------------------------------------------- P11 seats as people number them
def test_p11_seat_valued_actions_take_p_labels() -> None:
    s = arrange(new(players=4, teams=True), seat=0, hands={0: [PACT]})
    apply(s, f"play card={PACT}")
    assert sorted(legal(s)) == ["target seat=P1", "target seat=P3"]
    assert s.game.describe_action(s.game.actions.parse("target seat=P3")) == "resolve it for P3"
    with pytest.raises(IllegalAction, match="seat is one of P1, P2, P3, P4"):
        s.apply("target seat=2")
    with pytest.raises(IllegalAction, match=r"the choice is between P1 \(you\) or P3"):
        s.apply("target seat=P2")
    apply(s, "target seat=P3")
    assert s.favor[2] == 7


# ---------------------------------------------------------------- P12 errors that help
@pytest.mark.parametrize(
    ("text", "why"),
    [
        (f"play card={MALLET}", "Mallet (card 24) is not in your hand"),
        (f"play card={IMP}", "Imp (card 1) is a monster: monsters are summoned into the dungeon as your action"),
        (
            f"play card={DEMON}",
            "Demon Sword (card 37) costs 3: you need 3 other cards in your hand to discard and have 2",
        ),
        (f"play card={SHARPEN}", "Sharpen (card 48) attaches to a weapon and there is no weapon in play"),
        (f"loot card={SKELETON}", "Skeleton (card 3) is a monster: monsters are fought, not looted"),
        (f"loot card={LANTERN}", "Lantern (card 52) is not in the dungeon"),
        ("fight lane=1", "there is no monster in your lane 1"),
        (f"activate card={CANDLE}", "Candle (card 51) is not one of your items or weapons in play"),
        (f"activate card={CHALICE}", "Chalice (card 50) was already activated this turn"),
        ("spend favor=3", "that is not what is being decided: play or activate cards"),
        ("done", "you still have an action to take"),
        ("switch", "there are no teams in this game"),
    ],
)
def test_p12_not_legal_now_says_why(text: str, why: str) -> None:
    s = arrange(new(), hands={0: [IMP, DEMON, SHARPEN]}, inplay={0: [CHALICE]}, dungeon=[-1, -1, SKELETON, -1, -1, -1])
    apply(s, f"activate card={CHALICE}")
    before = s.snapshot()
    with pytest.raises(IllegalAction) as err:
        s.apply(text)
    assert why in str(err.value)
    assert s.snapshot() == before


def test_p12_errors_during_a_decision_say_what_is_being_decided() -> None:
    s = arrange(new(), hands={0: [GREATAXE, PACT, IMP]}, inplay={0: [MALLET]}, dungeon=[-1, -1, WITCH, -1, -1, -1])
    apply(s, f"play card={GREATAXE}")
    with pytest.raises(IllegalAction, match="Greataxe \\(card 25\\) is the card you are paying for"):
        s.apply(f"discard card={GREATAXE}")
    with pytest.raises(IllegalAction, match="not what is being decided: pay 1 more for Greataxe"):
        s.apply("fight lane=2")
    apply(s, f"discard card={PACT}", "fight lane=2")
    with pytest.raises(IllegalAction, match="Dagger \\(card 26\\) is not one of your weapons in the lane"):
        s.apply(f"weapon card={DAGGER}")
    apply(s, f"weapon card={MALLET}")
    with pytest.raises(IllegalAction, match="Mallet \\(card 24\\) is already fighting"):
        s.apply(f"weapon card={MALLET}")
    apply(s, "done")
    with pytest.raises(IllegalAction, match="you have 5 favor"):
        s.apply("spend favor=9")


# ---------------------------------------------------------------- P13 who decides
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_p13_no_decision_appears_or_reads_differently_because_of_a_hidden_card(config: dict[str, Any]) -> None:
    """The perturbation check at states spread over one more game per configuration (the conformance
    harness runs it too; the rules doc lists every window and forced choice it covers)."""
    for seed in (11,):
        s = played(config, seed, 0)
        rng = Rng(seed)
        step = 0
        while not s.is_over:
            if step % 37 == 0:
                for seat in range(s.game.players):
                    check_perturbation(s, seat, rng, steps=30)
            options = s.legal_actions()
            s.apply(options[rng.below(len(options))])
            step += 1


class _Unfair(MephistoState):
    """A broken Mephisto for the test below: an opponent's discard happens only when its hand holds a
    monster, and is skipped otherwise — a decision that appears or not because of a hidden card."""

    __slots__ = ()

    def _resolve_head(self) -> bool:
        op, _, t, _, _ = self.queue[0]
        if op == 3 and t != self.actor and not any(self.game.cards.type[c] == 0 for c in self.hands[t]):
            del self.queue[0]
            return False
        return super()._resolve_head()


def test_p13_the_perturbation_check_catches_a_window_shaped_by_a_hidden_card() -> None:
    def paying_for_mind_rot() -> MephistoState:
        """P1 has played Mind Rot and pays with Dark Pact or Offering; then P2 must discard a card.
        P2 holds no monster, so the broken rule discards for it; a resampled P2 often holds one."""
        s = arrange(new(), hands={0: [MIND_ROT, PACT, OFFERING], 1: [CANDLE, 53, 57]}, dungeon=[LANTERN] + [-1] * 5)
        return apply(s, f"play card={MIND_ROT}")

    caught = 0
    for k in range(8):
        s = paying_for_mind_rot()
        s.__class__ = _Unfair
        try:
            check_perturbation(s, 0, Rng(k), steps=4)
        except ConformanceError as exc:
            caught += "the seat to decide is" in str(exc)
    assert caught  # the window opened in a resampled game only: the check saw it
    for k in range(8):
        check_perturbation(paying_for_mind_rot(), 0, Rng(k), steps=4)  # the real rules: always asked


def test_p13_forced_choices_resolve_by_themselves_only_on_public_information() -> None:
    # a discard from a hand no bigger than the number to discard: public, no decision
    s = arrange(new(), hands={0: [MIND_ROT, PACT], 1: [IMP]})
    apply(s, f"play card={MIND_ROT}")
    assert s.hands[1] == [] and s.current_player == 0
    # two cards of which one must go: offered, even if the hand's cards are alike
    imp2 = cid(s, "Imp", 1)
    s = arrange(new(), hands={0: [MIND_ROT, PACT], 1: [IMP, imp2]})
    apply(s, f"play card={MIND_ROT}")
    assert s.current_player == 1 and sorted(legal(s)) == [f"discard card={IMP}", f"discard card={imp2}"]
    # one monster in the fight's lane is chosen by itself; no favor means no favor decision
    s = arrange(new(), dungeon=[-1, -1, IMP, -1, -1, -1], favor=[0, 5])
    events = s.apply("fight lane=2")
    assert s.current_player == 1 and any(e.text.startswith("P1 loses the fight in lane 2") for e in events)


def test_p13_learning_a_decks_order_is_not_a_leak() -> None:
    """Solitaire near the end of the deck: the same cards come out of the deck in the true game and a
    resampled one, but into other spaces; the check stops there instead of calling it a leak."""
    for k in range(12):
        s = arrange(new(players=1), dungeon=[CHALICE, LANTERN, -1, -1, -1, -1], deck=[PACT, OFFERING, SHARPEN, 41])
        check_perturbation(s, 0, Rng(k), steps=10)


# ---------------------------------------------------------------- P8 where each player's lanes lie
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_p8_lanes_seen_place_every_players_lanes_on_the_readers_dungeon(config: dict[str, Any]) -> None:
    """Each player's ``lanes_seen`` says where its lanes 1..3 (a weapon's range) lie on the dungeon as
    drawn for the reader (rows far to near, the reader's lanes left to right): a column, numbered as
    the reader numbers its lanes, or a row (a seat at the reader's left or right). The page lays the
    weapons out there, as on the table."""
    g = cardtable.load("mephisto", **config)
    assert isinstance(g, Mephisto)
    s = played(config, 3, 40)
    for reader in [None, *range(g.players)]:
        me = 0 if reader is None else reader
        picture = g.board.picture[me]
        view = s.view(reader)
        assert [p["sits"] in ("you", "near side") for p in view["players"]].count(True) == 1
        for owner, row in enumerate(view["players"]):
            seen = row["lanes_seen"]
            assert len(seen) == 3
            for lane, where in enumerate(seen, start=1):
                owned = set(g.board.lane_spaces[owner][lane])
                if "lane" in where:
                    column = {cell[1] for r in picture for cell in r if cell[2] == where["lane"] and cell[1] >= 0}
                    assert column == owned, (reader, owner, lane, where)
                else:
                    (cells,) = [r for r in picture if r[0][3] == where["row"]]
                    assert {cell[1] for cell in cells if cell[1] >= 0} == owned, (reader, owner, lane, where)
                if owner == me:
                    assert where == {"lane": lane}
            for card in row["in_play"]:
                if card["type"] == "weapon":
                    where = seen[card["range"] - 1]
                    if "lane" in where:
                        assert card["lane"].startswith(f"lane {where['lane']}")
                    else:
                        assert "(the row" in card["lane"] or "(the middle row" in card["lane"]
    if g.players == 2 and config.get("lane-view") != "shared":
        assert s.view(0)["players"][1]["lanes_seen"] == [{"lane": 3}, {"lane": 2}, {"lane": 1}]
    if g.players == 2 and config.get("lane-view") == "shared":
        assert s.view(0)["players"][1]["lanes_seen"] == [{"lane": 1}, {"lane": 2}, {"lane": 3}]
    if g.players == 4:
        left = s.view(0)["players"][1]
        assert left["sits"] == "on your left"
        assert left["lanes_seen"] == [{"row": "far"}, {"row": "middle"}, {"row": "near"}]
