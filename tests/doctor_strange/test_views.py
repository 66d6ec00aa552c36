"""DS13.1 views for people: declared keys, prompts, every card's printed data in words, characters'
state in words, the fight's dice and totals, victory progress; DS13.4 input errors that say why;
DS13.5 logs a player can follow."""

from __future__ import annotations

import re
from typing import Any

import cardtable
from cardtable.engine import ENGINE_VIEW_KEYS, IllegalAction, Rng
from cardtable.games.doctor_strange import state as S
from cardtable.games.doctor_strange.base import replaced
from cardtable.games.doctor_strange.game import DoctorStrange
from cardtable.testing.conformance import card_objects, check_view_for_people
from tests.support.walk import apply_random

from .helpers import EVIL, GOOD, act, cid, dice, game, refusal, scenario, take_out


def test_view_keys_are_exactly_the_declared_ones_along_games() -> None:
    g = game()
    assert g.VIEW_KEYS is not None
    assert "prompt" in g.VIEW_KEYS and not {"phase_code", "pending", "active"} & g.VIEW_KEYS
    for seed in (0, 5):
        st = g.new(seed, log=False)
        rng = Rng(seed)
        while True:
            for seat in (0, 1, None):
                v = st.view(seat)
                assert set(v) == ENGINE_VIEW_KEYS | g.VIEW_KEYS
                check_view_for_people(g, v)
                for _, name in card_objects(v):
                    assert name in g.NAMES
            if st.is_over:
                break
            apply_random(st, rng)
        assert st.view(0)["prompt"].startswith("Game over: ")


def test_hand_cards_carry_their_printed_data_in_words() -> None:
    hand = ["Poison", "Detect Danger", "Impostor", "Desperate Cry", "Learn Secrets", "Bring Back", "Loki"]
    st = scenario({EVIL: [*hand, "Read Minds", "Interruption", "Hidden Temple", "Wong"]}, phase=S.MYSTIC)
    cards = {c["name"]: c for c in st.view(EVIL)["hand"]}
    assert cards["Poison"] == {
        "id": cid("Poison"),
        "name": "Poison",
        "type": "Attack",
        "text": "Play to declare an attack by one of your viable characters on an opposing viable character; "
        "if the attack wins, the target is killed.",
        "notes": "Kill",
        "player": "either player",
        "fate": "killed",
    }
    assert cards["Detect Danger"]["role"] == "defender only (DO)" and cards["Detect Danger"]["power"] == 2
    assert cards["Impostor"]["role"] == "attacker only (AO)" and cards["Impostor"]["notes"] == "AO"
    dc = cards["Desperate Cry"]
    assert dc["player"] == "Good player only (GPO)" and dc["timing"] == "Attack phase, as the defender (D)"
    assert cards["Learn Secrets"]["timing"] == "your Mystic Arts phase (E)" and cards["Learn Secrets"]["text"] == (
        "Draw 3 cards."
    )
    assert cards["Bring Back"]["timing"] == "Rest phase (R)" and "Killed pile" in cards["Bring Back"]["text"]
    assert cards["Read Minds"]["timing"] == "any time (X)" and cards["Read Minds"]["text"] == (
        "Look at your opponent's hand."
    )
    assert cards["Interruption"]["timing"] == "Attack phase (B)"
    assert cards["Interruption"]["text"].startswith("Counter an Attack card")
    assert cards["Loki"]["power"] == 12 and cards["Loki"]["player"] == "Evil player only (EPO)"
    assert "(Norse God)" in cards["Loki"]["text"] and "leaves play on 11 or 12" in cards["Loki"]["text"]
    assert cards["Wong"]["notes"] == "GPO" and "(Servant)" in cards["Wong"]["text"]
    assert cards["Hidden Temple"]["type"] == "Location" and "only one Location" in cards["Hidden Temple"]["text"]
    for card in cards.values():
        assert {"id", "name", "type", "text", "notes", "player"} <= set(card)


def test_every_card_of_the_list_has_words() -> None:
    g = cardtable.load("doctor-strange")
    assert isinstance(g, DoctorStrange)
    for c in range(g.N):
        card = g.card_json(c)
        assert card["text"] and card["text"].endswith(".") and "=" not in card["text"]
        assert card["type"] in ("Character", "Companion", "Location", "Item", "Modifier", "Power", "Attack", "Event")
        assert ("power" in card) == (card["type"] not in ("Attack", "Event"))
        assert ("fate" in card) == (card["type"] == "Attack")
        assert ("role" in card) == (card["type"] == "Power")
        assert ("timing" in card) == (card["type"] == "Event")
    assert g.card_json(0) is not g.card_json(0)  # a fresh dict: views can be changed safely


def test_characters_show_their_state_in_words() -> None:
    st = scenario({EVIL: ["Bind", "Incense"], GOOD: ["Trance"]}, play={GOOD: ["Topaz"]})
    dice(st, 12, 1)
    act(st, "attacker", "Baron Mordo")
    act(st, "target", "Topaz")
    act(st, "play", "Bind", lone_passes=False)
    mordo = next(c for c in st.view(GOOD)["table"] if c["name"] == "Baron Mordo")
    assert mordo["state"] == "viable, has attacked" and mordo["attacked"]
    topaz = next(c for c in st.view(GOOD)["table"] if c["name"] == "Topaz")
    assert topaz["state"] == "viable, marked" and topaz["marked"]
    act(st, "pass")  # Good's counter window; Evil's declare window (a lone pass); Good is behind 18 to 4
    act(st, "pass")  # Good keeps its Trance: Topaz is captured
    topaz = next(c for c in st.view(GOOD)["table"] if c["name"] == "Topaz")
    assert topaz["state"] == "captive of Baron Mordo (card 1), owned by Good"
    assert topaz["side"] == "Evil" and topaz["owner"] == "Good" and topaz["captured"] and not topaz["viable"]
    assert topaz["held_by"] == cid("Baron Mordo")


def test_a_fight_shows_its_dice_and_totals_until_the_next() -> None:
    st = scenario({EVIL: ["Poison", "Bind", "Incense", "Detect Danger"], GOOD: ["Trance"]}, play={EVIL: ["Zota"]})
    dice(st, 2, 3, 12, 1)
    for attacker, card in (("Baron Mordo", "Poison"), ("Zota", "Bind")):
        act(st, "attacker", attacker, lone_passes=False)
        act(st, "target", "Doctor Strange", lone_passes=False)
        act(st, "play", card, lone_passes=False)
        act(st, "pass", lone_passes=False)  # Good's counter window
    act(st, "pass", lone_passes=False)  # Evil has declared its attacks: the first fight, 8 against 11
    assert st.phase == S.EXCHANGE and st.current_player == EVIL
    fight = st.view(GOOD)["fight"]
    assert fight["in_progress"] and fight["turn"] == 1 and fight["fate"] == "killed"
    assert fight["attacker"] == {
        "player": "Evil",
        "character": "Baron Mordo (card 1)",
        "roll": 2,
        "power": 6,
        "power_cards": [],
        "total": 8,
    }
    assert fight["defender"]["roll"] == 3 and fight["defender"]["total"] == 11
    assert fight["result"] == "in progress: Good leads 11 to 8; Evil needs +3 to win"
    assert st.view(EVIL)["prompt"] == (
        "Evil: you are behind in the fight (Attack Total 8, Defense Total 11; +3 needed): play a Power card, "
        "or pass and lose it"
    )
    assert st.view(GOOD)["prompt"] == (
        "Evil is behind in the fight (Attack Total 8, Defense Total 11) and may play Power cards"
    )
    attacks = st.view(GOOD)["attacks"]
    assert [a["status"] for a in attacks] == ["being fought", "waiting"]
    act(st, "play", "Incense", lone_passes=False)  # 9 against 11: Evil still behind (Detect Danger is DO)
    assert st.view(EVIL)["fight"]["attacker"]["power_cards"][0]["name"] == "Incense"
    act(st, "pass", lone_passes=False)  # Evil gives up: the attack fails; Zota's fight begins
    fight = st.view(EVIL)["fight"]
    assert fight["attacker"]["character"] == "Zota (card 110)" and fight["attacker"]["roll"] == 12
    act(st, "pass", lone_passes=False)  # Good, behind 16 to 9, lets it go: Strange is captured
    last = st.view(None)["fight"]
    assert not last["in_progress"] and last["result"] == "Evil won, 16 against 9: Doctor Strange (card 0) is captured"


def test_victory_progress_is_visible() -> None:
    st = scenario({EVIL: ["Incense"]}, lone_passes=False)
    v = st.view(None)["victory"]
    assert v["now"] == 1 and v["checks_from"] == 10 and not v["checking"]
    assert v["viable_characters"] == [1, 1] and v["no_viable_streak"] == [0, 0]
    assert v["summary"].startswith("turn 1: the victory check starts at the end of turn 10")
    st.turn, st.streak = 12, (0, 1)
    v = st.view(GOOD)["victory"]
    assert v["checking"] and "Good 1 of 2" in v["summary"]
    options: dict[str, Any] = {"victory-count": "rounds"}
    r = scenario({EVIL: ["Incense"]}, **options)
    r.turn = 5
    assert r.view(None)["victory"]["now"] == 3 and "round 3" in r.view(None)["victory"]["summary"]


def test_prompts_say_who_decides_what_and_why() -> None:
    st = scenario({EVIL: ["Hidden Temple", "Poison"], GOOD: ["Trance"]})
    assert st.view(EVIL)["prompt"] == (
        "Evil: put a character or an attachment into play, or pass to end your Summon phase"
    )
    assert st.view(GOOD)["prompt"] == ("Evil is in its Summon phase and may put characters and attachments into play")
    assert st.view(None)["prompt"] == st.view(GOOD)["prompt"]
    act(st, "play", "Hidden Temple")
    assert st.view(EVIL)["prompt"] == "Evil: choose the character that takes Hidden Temple (card 10)"
    assert st.view(GOOD)["playing"]["name"] == "Hidden Temple"
    assert st.view(GOOD)["step"] == "Summon phase: choosing the character for an attachment"
    assert st.view(GOOD)["phase"] == "Summon" and st.view(GOOD)["turn_of"] == "Evil"


# -- DS13.4 input errors -----------------------------------------------------------------------------


def test_errors_say_why_an_action_is_not_legal_now() -> None:
    st = scenario({EVIL: ["Poison", "Learn Secrets", "Desperate Cry", "Detect Danger"]}, play={EVIL: ["Zota"]})
    assert st.phase == S.DECLARE
    assert refusal(st, f"play card={cid('Trance')}").endswith("Trance (card 11) is not in your hand")
    assert refusal(st, f"play card={cid('Desperate Cry')}").endswith("is for the Good player only")
    assert "an Attack card is played after choosing an attacker" in refusal(st, f"play card={cid('Poison')}")
    assert "Learn Secrets is played in your Mystic Arts phase (E)" in refusal(st, f"play card={cid('Learn Secrets')}")
    assert refusal(st, f"attacker card={cid('Doctor Strange')}").endswith("is not one of your characters in play")
    assert "not legal now: a target is chosen after the attacker" in refusal(st, "target card=0")
    assert "only down to the hand limit" in refusal(st, f"discard card={cid('Poison')}")
    act(st, "attacker", "Zota")
    assert refusal(st, "pass").endswith("you cannot pass now: choose the target of Zota (card 110) (target card=N)")
    assert refusal(st, f"target card={cid('Zota')}").endswith("Zota (card 110) is not an opposing viable character")
    act(st, "target", "Doctor Strange")
    act(st, "play", "Poison", lone_passes=False)  # Good holds nothing: no counter window
    assert refusal(st, f"attacker card={cid('Zota')}").endswith("Zota (card 110) has already attacked this turn")


def test_error_messages_do_not_depend_on_hidden_cards() -> None:
    st = scenario({EVIL: ["Poison"], GOOD: ["Trance", "Interruption"]}, play={EVIL: ["Zota"]})
    g = st.game
    for seed in range(10):
        twin = st.determinize(EVIL, seed)
        for a in g.actions:
            mine = other = ""
            try:
                st.clone().apply(a, seat=EVIL)
            except IllegalAction as exc:
                mine = str(exc)
            try:
                twin.clone().apply(a, seat=EVIL)
            except IllegalAction as exc:
                other = str(exc)
            assert mine == other


# -- DS13.5 logs ---------------------------------------------------------------------------------------


def test_log_says_what_happened_in_words_without_no_op_lines() -> None:
    st = scenario({EVIL: ["Poison", "Surprise"], GOOD: ["Trance"]})
    dice(st, 1, 1)
    act(st, "attacker", "Baron Mordo")
    act(st, "target", "Doctor Strange")
    act(st, "play", "Poison")
    act(st, "play", "Surprise")
    log = st.events(GOOD)
    assert "Evil: Baron Mordo (card 1) attacks Doctor Strange (card 0) with Poison (card 24) (if it wins: kill)" in log
    assert (
        "fight: Baron Mordo rolls 1 + power 6 = Attack Total 7; Doctor Strange rolls 1 + power 8 = Defense Total 9"
        in log
    )
    assert "Evil plays Surprise (card 54): +2 (attack); Attack Total 9, Defense Total 9" in log
    # No no-op lines: nobody "passes", no number changes into itself.
    assert not any("passes" in e or re.search(r"\b(\d+) -> \1\b", e) for e in log)
    st2 = cardtable.load("doctor-strange").new(0)
    first = st2.events(None)
    assert first[0] == (
        "Good (P2) starts with Doctor Strange in play, Evil (P1) with Baron Mordo; each is dealt 7 cards. "
        "Evil goes first."
    )
    assert "turn 1: Evil's turn" in first


def test_log_of_a_victory_check() -> None:
    st = scenario({EVIL: ["Incense"]})
    take_out(st, cid("Trance"))  # nothing in Good's hand to matter
    st.incap = replaced(st.incap, st.game.SLOT[cid("Doctor Strange")], 1)
    st.turn = 10
    st._end_turn()
    assert "Good has no viable character at the end of this turn (1 of 2 checks in a row)" in st.events(None)
