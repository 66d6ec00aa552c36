"""Scenario tests for the interpretations of docs/rules/army-of-darkness.md (I1-I13) that no clause test
already shows."""

from __future__ import annotations

from pathlib import Path

import cardtable
from cardtable.games.army_of_darkness.cards import DEFAULT_PATH, EVENT
from cardtable.games.army_of_darkness.codes import ARMED, P_FREE, P_HIT, REDUCED
from cardtable.games.army_of_darkness.game import ArmyOfDarkness
from cardtable.games.army_of_darkness.state import AodState
from cardtable.testing.conformance import CardNames, check_no_leaks
from tests.army_of_darkness.helpers import EVIL, GOOD, Cards, arrange, live, load, run, texts, won_as_good


def test_i1_a_transcription_that_lists_ash_later_still_includes_him(tmp_path: Path) -> None:
    """I1: "the first `n` characters of the file are used ... a transcription that lists Ash later still
    includes him ... the seat holding Ash goes first"."""
    bundled = DEFAULT_PATH.read_text()
    ash = '[[character]]\ngood = "Ash"\nevil = "Evil Ash"\nfirst = true\n\n'
    assert ash in bundled
    path = tmp_path / "ash-last.toml"
    path.write_text(bundled.replace(ash, "") + "\n" + ash)
    g = cardtable.load("army-of-darkness", players=2, cards=str(path))
    assert isinstance(g, ArmyOfDarkness)
    assert g.cards.good_names[-1] == "Ash"
    for seed in range(6):
        st = g.new(seed)
        assert isinstance(st, AodState)
        titles = [st.character(s) for s in range(2)]
        assert "Ash" in titles
        assert st.active == titles.index("Ash")


def test_i1_switching_sides_turns_the_card_and_shows_its_evil_title() -> None:
    """I1: "Switching sides turns the character card: its evil side's title is shown"."""
    g = load(2)
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Gunpowder", 3)}, reduced={0: ARMED})
    char = st.char[0]
    good, evil = g.cards.good_names[char], g.cards.evil_names[char]
    assert good != evil
    row = st.view(1)["players"][0]
    assert (row["character"], row["other_side"]) == (good, evil)
    st.apply("pass")
    assert st.side[0] == EVIL
    row = st.view(1)["players"][0]
    assert (row["character"], row["side"], row["other_side"]) == (evil, "evil", good)
    assert st.who(0) == f"P1 ({evil})"


def test_i2_the_necronomicon_is_lost_to_a_hit_like_any_item() -> None:
    """I2: the Necronomicon "lies among the items, and can be lost to a hit like any item (a hit is not an
    event, so AD1.6 does not protect it)"."""
    g = load(2)
    pool = Cards(g)
    necro, b = pool.one("Necronomicon"), pool.one("Boomstick")
    st = arrange(g, hands={1: pool.take("Chainsaw", 2)}, item={1: [necro, b]}, sides={0: EVIL})
    assert [c["id"] for c in st.view(0)["players"][1]["items"]] == [necro, b]
    st.apply("attack seat=P2")
    assert st.phase == P_HIT and st.current_player == 1
    assert f"discard card={necro}" in texts(st)
    st.apply(f"discard card={necro}")
    assert st.item[1] == [b] and st.discard[-1] == necro


def test_i4_an_evil_character_with_monsters_but_no_allies_gets_step_3() -> None:
    """I4: 'For an evil character "no monsters in front of her" is read symmetrically as "no allies in front
    of her" (her opponents)': monsters in front of an evil player do not stop step 3."""
    g = load(2)
    pool = Cards(g)
    mons = [pool.one("Deadite"), pool.one("Pit Witch")]
    st = arrange(g, hands={1: pool.take("Chainsaw", 1)}, mon={0: mons}, sides={0: EVIL})
    assert st.phase == P_FREE
    assert texts(st) == ["draw", "attack seat=P2", "pass"]
    # The same table for a good character: her monsters oppose her, so it is step 2.
    good = arrange(g, hands={1: pool.take("Gunpowder", 1)}, mon={0: mons}, sides={0: GOOD})
    assert good.phase != P_FREE and texts(good) == [f"slay card={c}" for c in mons]


def test_i8_a_switch_whose_five_card_draw_finds_no_card_leaves_her_reduced() -> None:
    """I8: "If the five-card draw finds deck and pile empty she stays reduced" (and so switches again at the
    end of her next turn if she still has no card)."""
    g = load(2)
    pool = Cards(g)
    k = pool.take("Knight of Arthur", 2)
    rest = [c for c in live(g) if c not in k]
    st = arrange(g, hands={1: k}, item={1: rest}, deck=[], reduced={0: ARMED})
    assert st.deck == [] and st.discard == []
    st.apply("pass")
    assert st.side[0] == EVIL and st.switches[0] == 1
    assert st.hands[0] == [] and st.reduced[0] == REDUCED
    # P2's turn: one card to her own table, then step 3 passes; P1's next turn arms the switch again.
    run(st, f"play card={k[0]}", "to seat=P2", "done", "pass")
    assert st.active == 0 and st.reduced[0] == ARMED
    st.apply("pass")
    assert st.side[0] == GOOD and st.switches[0] == 2


def test_i10_a_card_taken_face_up_is_known_only_until_it_leaves_the_hand() -> None:
    """I10: "a card taken from the discard pile or a table into a hand stays publicly known to be there until
    it leaves the hand": once discarded and drawn back unseen, nobody else knows it is there."""
    g = load(2)
    pool = Cards(g)
    d = pool.one("Deadite")
    rest = [c for c in live(g) if c != d]
    # P1 (evil, empty hand) holds every other card on her table; P2's one hand card is known to all.
    st = arrange(g, hands={1: [d]}, item={0: rest}, deck=[], sides={0: EVIL})
    st.shown.add(d)
    assert st.view(0)["players"][1]["known_in_hand"] == [g.card_json(d)]
    run(st, "attack seat=P2", f"discard card={d}")
    assert st.discard == [d] and st.active == 1
    st.apply("draw")  # the deck is remade from the pile: she draws the same card, face down
    assert st.hands[1] == [d]
    assert st.view(0)["players"][1]["known_in_hand"] == []
    assert d not in st.known_cards(0)


def test_i12_result_scores_ranks_and_details() -> None:
    """I12: "The winner scores 1 and ranks 1, everyone else scores 0 and ranks 2; a turn-limit stop ranks
    everyone 1 with no winner. `details` gives the final sides, each seat's number of switches, rounds and
    the turn limit"."""
    g = load(3)
    st = won_as_good(g, Cards(g), sides={2: EVIL})
    r = st.result()
    assert r.winners == (0,) and r.scores == (1.0, 0.0, 0.0) and r.ranks == (1, 2, 2) and not r.draw
    assert r.details == {"sides": ["good", "good", "evil"], "switches": [0, 0, 0], "rounds": 1 / 3, "turn_limit": 2000}

    g2 = load(2, **{"turn-limit": 2})
    pool2 = Cards(g2)
    stopped = arrange(g2, hands={1: pool2.take("Gunpowder", 2)}, reduced={0: ARMED})
    run(stopped, "pass", f"play card={stopped.hands[1][0]}", "to seat=P2", "done", "pass")
    r2 = stopped.result()
    assert r2.winners == () and r2.scores == (0.0, 0.0) and r2.ranks == (1, 1) and r2.truncated and r2.draw
    assert r2.details == {"sides": ["evil", "good"], "switches": [1, 0], "rounds": 1.0, "turn_limit": 2}


def test_i13_the_necronomicon_is_a_rule_name_so_the_word_is_no_leak() -> None:
    """I13: 'the game declares it in `Game.RULE_NAMES`, so the conformance leak check looks for the card
    itself ("Necronomicon (card 0)") rather than the word'."""
    g = load(2)
    assert frozenset({"Necronomicon"}) == g.RULE_NAMES
    pool = Cards(g)
    necro = pool.one("Necronomicon")
    st = arrange(g, hands={0: pool.take("Chainsaw", 2), 1: [necro, pool.one("Gunpowder")]})
    assert necro not in st.known_cards(0)
    assert "needs the Necronomicon tabled" in st.view(0)["players"][0]["needs"]
    check_no_leaks(st, CardNames())
    assert g.card_name(necro) == f"Necronomicon (card {necro})"


def test_i3_a_first_done_tells_the_table_she_could_not_play_but_samples_ignore_it() -> None:
    """I3: "Her `done` on the first card is public and tells the table, as the rules do, that she could
    not play (determinizations do not use this inference)": the table reads that she played no card, and
    the other seat's samples still deal her hand from every card it cannot see, playable ones included."""
    g = load(2)
    pool = Cards(g)
    blast = pool.one("Shotgun Blast")  # needs a tabled monster; there is none, so it cannot be played
    st = arrange(g, hands={0: [blast], 1: pool.take("Deadite", 1)})
    assert texts(st) == ["done"]
    st.apply("done")
    assert st.events(1)[-1].endswith("plays no card this turn")
    seen = set()
    for seed in range(40):
        sample = st.determinize(1, seed)
        assert isinstance(sample, AodState)
        assert sample.view(1) == st.view(1)
        seen.update(sample.hands[0])
    types = g.TYPE
    assert any(types[c] != EVENT for c in seen), "a sample dealt her only cards she could not have played"
