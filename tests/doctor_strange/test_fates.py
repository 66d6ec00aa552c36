"""DS8-DS9 (fates and their reversal), DS10.2 (Negate)."""

from __future__ import annotations

from cardtable.games.doctor_strange import state as S
from cardtable.games.doctor_strange.fates import viable

from .helpers import EVIL, GOOD, act, attach, cid, dice, goto, legal_cards, scenario, side_of, where


def declare(st: S.DSState, attacker: str, target: str, card: str) -> None:
    act(st, "attacker", attacker)
    act(st, "target", target)
    act(st, "play", card)


def slot(st: S.DSState, name: str) -> int:
    return st.game.SLOT[cid(name)]


def test_ds8_kill_discards_attachments() -> None:
    st = scenario({EVIL: ["Poison"]})
    attach(st, "Shadow World", "Doctor Strange")
    attach(st, "Omnipotent", "Doctor Strange")
    dice(st, 12, 1)
    declare(st, "Baron Mordo", "Doctor Strange", "Poison")
    assert where(st, "Doctor Strange") == "killed"
    assert where(st, "Shadow World") == "discard" and where(st, "Omnipotent") == "discard"
    assert st.view(None)["killed"][0]["name"] == "Doctor Strange"


def test_ds8_exile() -> None:
    st = scenario({EVIL: ["Vanish"]})
    attach(st, "Sinister Gem", "Doctor Strange")
    dice(st, 12, 1)
    declare(st, "Baron Mordo", "Doctor Strange", "Vanish")
    assert where(st, "Doctor Strange") == "exiled" and where(st, "Sinister Gem") == "discard"


def test_ds9_1_incapacitate_keeps_possession() -> None:
    st = scenario({EVIL: ["Insanity"], GOOD: ["Learn Secrets"]})
    dice(st, 12, 1)
    declare(st, "Baron Mordo", "Doctor Strange", "Insanity")
    assert side_of(st, "Doctor Strange") == GOOD
    assert st.incap[slot(st, "Doctor Strange")] == 1
    assert not viable(st, cid("Doctor Strange"))
    t = next(c for c in st.view(None)["table"] if c["name"] == "Doctor Strange")
    assert t["incapacitated"] is True


def test_ds9_2_control_switches_side_and_is_viable_for_controller() -> None:
    st = scenario({EVIL: ["Hypnotic Ray", "Poison"]}, play={GOOD: ["Topaz"]})
    attach(st, "Magic Amulet", "Topaz")
    dice(st, 12, 1)
    declare(st, "Baron Mordo", "Topaz", "Hypnotic Ray")
    act(st, "pass")
    assert side_of(st, "Topaz") == EVIL and st.ctl[slot(st, "Topaz")] == cid("Baron Mordo")
    assert viable(st, cid("Topaz"))
    assert where(st, "Magic Amulet") == "attached"  # a controlled character keeps its cards
    assert cid("Topaz") in st._viable_on(EVIL) and cid("Topaz") not in st._viable_on(GOOD)
    t = next(c for c in st.view(GOOD)["table"] if c["name"] == "Topaz")
    assert t["held_by"] == cid("Baron Mordo") and t["controlled"] and not t["captured"]
    assert t["side"] == "Evil" and t["owner"] == "Good"
    assert t["state"] == "viable, controlled through Baron Mordo (card 1), owned by Good"
    # On Evil's next turn Topaz may attack for Evil.
    st.attacked = 0
    goto(st, S.DECLARE, EVIL)
    act(st, "attacker", "Topaz")
    assert legal_cards(st, "target") == {"Doctor Strange"}


def test_ds9_3_capture_keeps_modifiers_discards_other_attachments() -> None:
    st = scenario({EVIL: ["Bind"]}, play={GOOD: ["Taboo"]})
    attach(st, "Sorcerer Supreme", "Taboo")  # modifier: kept
    attach(st, "Dormant Talent", "Taboo")  # modifier: kept
    attach(st, "Hidden Castle", "Taboo")  # location: discarded
    attach(st, "Enchanted Ring", "Taboo")  # item: discarded
    dice(st, 12, 1)
    declare(st, "Baron Mordo", "Taboo", "Bind")
    s = slot(st, "Taboo")
    assert side_of(st, "Taboo") == EVIL and st.cap[s] == cid("Baron Mordo")
    assert not viable(st, cid("Taboo"))
    assert where(st, "Sorcerer Supreme") == "attached" and where(st, "Dormant Talent") == "attached"
    assert where(st, "Hidden Castle") == "discard" and where(st, "Enchanted Ring") == "discard"
    assert st.mpow[s] == 6 + 2 and st.loc[s] == -1


def test_ds9_4_control_lost_when_controller_made_unviable() -> None:
    st = scenario({EVIL: ["Possession"], GOOD: ["Poison"]}, play={GOOD: ["Topaz"]})
    dice(st, 12, 1, 12, 1)
    declare(st, "Baron Mordo", "Topaz", "Possession")
    assert side_of(st, "Topaz") == EVIL
    # Good's turn: Strange kills Mordo; Topaz returns to Good, fully viable.
    goto(st, S.DECLARE, GOOD)
    st.attacked = 0
    declare(st, "Doctor Strange", "Baron Mordo", "Poison")
    assert where(st, "Baron Mordo") == "killed"
    assert side_of(st, "Topaz") == GOOD and st.ctl[slot(st, "Topaz")] == -1 and viable(st, cid("Topaz"))


def test_ds9_4_control_chain_controller_captured_releases_controlled() -> None:
    """A controls B, then A is captured: B returns to its owner viable."""
    st = scenario({EVIL: ["Mental Commands"], GOOD: ["Transfixed"]}, play={EVIL: ["Zota"], GOOD: ["Rintrah"]})
    dice(st, 12, 1, 12, 1)
    declare(st, "Zota", "Rintrah", "Mental Commands")  # A = Zota controls B = Rintrah
    assert side_of(st, "Rintrah") == EVIL
    goto(st, S.DECLARE, GOOD)
    st.attacked = 0
    declare(st, "Doctor Strange", "Zota", "Transfixed")  # A is captured
    assert st.cap[slot(st, "Zota")] == cid("Doctor Strange") and side_of(st, "Zota") == GOOD
    assert side_of(st, "Rintrah") == GOOD and st.ctl[slot(st, "Rintrah")] == -1
    assert viable(st, cid("Rintrah"))


def test_ds9_5_longer_chain_unwinds() -> None:
    """Mordo controls Strange; Strange (for Evil) controls The Ancient One; Mordo is incapacitated:
    Strange goes home, and so the Ancient One's control (by a character no longer on Evil's side) ends."""
    st = scenario(play={GOOD: ["The Ancient One"]})
    g = st.game
    from cardtable.games.doctor_strange.cards import CONTROL, INCAPACITATE
    from cardtable.games.doctor_strange.fates import apply_fate

    apply_fate(st, cid("Baron Mordo"), cid("Doctor Strange"), CONTROL)
    apply_fate(st, cid("Doctor Strange"), cid("The Ancient One"), CONTROL)
    assert side_of(st, "The Ancient One") == EVIL and side_of(st, "Doctor Strange") == EVIL
    st.active = GOOD
    apply_fate(st, cid("Doctor Strange"), cid("Baron Mordo"), INCAPACITATE)  # (Strange is Evil's here; the
    # attacker's identity only matters for control/capture)
    assert side_of(st, "Doctor Strange") == GOOD and side_of(st, "The Ancient One") == GOOD
    assert viable(st, cid("Doctor Strange")) and viable(st, cid("The Ancient One"))
    assert st.ctl[g.SLOT[cid("The Ancient One")]] == -1


def test_ds9_4_captive_freed_when_captor_controlled() -> None:
    st = scenario({EVIL: ["Bait"], GOOD: ["I Command You"]}, play={GOOD: ["Wong"]})
    dice(st, 12, 1, 12, 1)
    declare(st, "Baron Mordo", "Wong", "Bait")
    assert st.cap[slot(st, "Wong")] == cid("Baron Mordo")
    goto(st, S.DECLARE, GOOD)
    st.attacked = 0
    declare(st, "Doctor Strange", "Baron Mordo", "I Command You")
    assert side_of(st, "Baron Mordo") == GOOD
    assert side_of(st, "Wong") == GOOD and st.cap[slot(st, "Wong")] == -1 and viable(st, cid("Wong"))


def test_ds9_6_winning_back_own_character() -> None:
    st = scenario({EVIL: ["Hypnotic Ray"], GOOD: ["Ethereal Cylinder"]}, play={GOOD: ["Topaz"], EVIL: ["Zota"]})
    dice(st, 12, 1, 12, 1)
    declare(st, "Zota", "Topaz", "Hypnotic Ray")
    goto(st, S.DECLARE, GOOD)
    st.attacked = 0
    declare(st, "Doctor Strange", "Topaz", "Ethereal Cylinder")  # Good "captures" its own Topaz: it comes home
    assert side_of(st, "Topaz") == GOOD and st.cap[slot(st, "Topaz")] == -1 and viable(st, cid("Topaz"))


def test_ds10_2_negate_kill_bring_back() -> None:
    st = scenario({EVIL: ["Poison"], GOOD: ["Bring Back"]}, play={GOOD: ["Wong"]})
    dice(st, 12, 1)
    declare(st, "Baron Mordo", "Doctor Strange", "Poison")
    assert where(st, "Doctor Strange") == "killed"
    goto(st, S.REST, GOOD)
    assert legal_cards(st, "play") == {"Bring Back"}
    act(st, "play", "Bring Back")
    assert legal_cards(st, "negate") == {"Doctor Strange"}
    act(st, "negate", "Doctor Strange")
    assert where(st, "Doctor Strange") == "play" and side_of(st, "Doctor Strange") == GOOD
    assert viable(st, cid("Doctor Strange"))


def test_ds10_2_negate_only_own_and_only_in_rest() -> None:
    st = scenario({EVIL: ["Poison", "Bring Back"]}, play={EVIL: ["Zota"]})
    dice(st, 12, 1)
    declare(st, "Baron Mordo", "Doctor Strange", "Poison")
    # Evil's own Rest phase: Bring Back has no target (Strange is Good's), so it is never offered.
    assert st._negate_targets(EVIL, "kill") == []
    assert where(st, "Bring Back") == "hand0"
    assert not any("plays Bring Back" in e for e in st.events(None))


def test_ds10_2_negate_exile_incapacitate_capture() -> None:
    st = scenario(
        {EVIL: ["Banish", "Insanity", "Bound in Chains"], GOOD: ["Mist of Hoggoth", "Healing Powers", "Escape"]},
        play={EVIL: ["Zota", "Nightmare"], GOOD: ["Topaz", "Wong"]},
    )
    dice(st, 12, 1, 12, 1, 12, 1)
    declare(st, "Baron Mordo", "Doctor Strange", "Banish")
    declare(st, "Zota", "Topaz", "Insanity")
    declare(st, "Nightmare", "Wong", "Bound in Chains")
    assert where(st, "Doctor Strange") == "exiled"
    assert st.incap[slot(st, "Topaz")] and st.cap[slot(st, "Wong")] == cid("Nightmare")
    goto(st, S.REST, GOOD)
    act(st, "play", "Mist of Hoggoth")
    assert legal_cards(st, "negate") == {"Doctor Strange"}
    act(st, "negate", "Doctor Strange")
    act(st, "play", "Healing Powers")
    assert legal_cards(st, "negate") == {"Topaz"}
    act(st, "negate", "Topaz")
    act(st, "play", "Escape")
    assert legal_cards(st, "negate") == {"Wong"}
    act(st, "negate", "Wong")
    for n in ("Doctor Strange", "Topaz", "Wong"):
        assert side_of(st, n) == GOOD and viable(st, cid(n))


def test_ds10_2_negate_item_petty_thieves() -> None:
    st = scenario({GOOD: ["Petty Thieves", "Incense"]}, phase=S.MYSTIC, active=GOOD)
    # No Item in play: Petty Thieves has no target and is not offered.
    assert "Petty Thieves" not in legal_cards(st, "play")
    attach(st, "Book of Vishanti", "Baron Mordo")
    attach(st, "Omnipotent", "Baron Mordo")
    goto(st, S.MYSTIC, GOOD)
    act(st, "play", "Petty Thieves")
    assert legal_cards(st, "negate") == {"Book of Vishanti"}
    act(st, "negate", "Book of Vishanti")
    assert where(st, "Book of Vishanti") == "discard" and st.mpow[slot(st, "Baron Mordo")] == 7
