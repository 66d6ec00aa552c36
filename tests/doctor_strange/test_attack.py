"""DS6 (Attack phase), DS10.1 (Counter): declaring, resolving, power cards, Call Defender, ties."""

from __future__ import annotations

import pytest

from cardtable.engine import IllegalAction
from cardtable.games.doctor_strange import state as S
from cardtable.games.doctor_strange.base import replaced

from .helpers import EVIL, GOOD, Dice, act, attach, cid, dice, legal_cards, scenario, side_of, texts, where


def declare(st: S.DSState, attacker: str, target: str, card: str) -> None:
    act(st, "attacker", attacker)
    act(st, "target", target)
    act(st, "play", card)


def test_ds6_1_attackers_and_targets() -> None:
    st = scenario({EVIL: ["Poison", "Bind"]}, play={EVIL: ["Zota"], GOOD: ["Topaz", "Wong"]})
    g = st.game
    st.incap = replaced(st.incap, g.SLOT[cid("Wong")], 1)  # an incapacitated character is no target
    st._legal = None
    assert st.phase == S.DECLARE
    assert legal_cards(st, "attacker") == {"Baron Mordo", "Zota"}
    act(st, "attacker", "Zota")
    assert legal_cards(st, "target") == {"Doctor Strange", "Topaz"}
    act(st, "target", "Topaz")
    assert legal_cards(st, "play") == {"Poison", "Bind"}
    act(st, "play", "Poison")
    # Zota has made its attack this turn; Mordo still may.
    assert legal_cards(st, "attacker") == {"Baron Mordo"}


def test_ds6_1_no_attack_without_attack_card() -> None:
    st = scenario({EVIL: ["Incense"], GOOD: ["Learn Secrets"]}, play={GOOD: ["Topaz"]}, lone_passes=False)
    act(st, "pass", lone_passes=False)  # Summon
    # No attacker is offered without an Attack card; the phase is still a decision (DS13.2).
    assert st.phase == S.DECLARE and texts(st) == ["pass"]


def test_ds6_1_epo_attack_card_refused_to_good() -> None:
    st = scenario({GOOD: ["Spiny Beast", "Vapors of Valtorr", "Poison"]}, active=GOOD)
    act(st, "attacker", "Doctor Strange")
    act(st, "target", "Baron Mordo")
    assert legal_cards(st, "play") == {"Poison"}


def test_ds6_2_all_attacks_declared_before_any_resolves() -> None:
    st = scenario({EVIL: ["Poison", "Bind"]}, play={EVIL: ["Zota"]})
    dice(st, 12, 1, 12, 1)
    declare(st, "Baron Mordo", "Doctor Strange", "Poison")
    assert where(st, "Poison") == "discard"  # played = discarded
    assert st.phase == S.DECLARE and st.ra == 0  # nothing rolled yet
    declare(st, "Zota", "Doctor Strange", "Bind")
    log = st.events(None)
    declared = [i for i, e in enumerate(log) if " attacks " in e]
    rolled = [i for i, e in enumerate(log) if " rolls " in e and "Attack Total" in e]
    assert len(declared) == 2 and len(rolled) == 1 and max(declared) < min(rolled)
    # Both attacks resolve in declaration order: the first kills Strange, the second fizzles.
    assert where(st, "Doctor Strange") == "killed"
    assert isinstance(st.rng, Dice) and st.rng.rolls == [12, 1]


def test_ds6_4_totals_include_attachments_and_attacker_wins_ties() -> None:
    # Mordo 6 + Amulet 1 + roll 5 = 12 ; Strange 8 + roll 4 = 12: a tie goes to the attacker.
    st = scenario({EVIL: ["Insanity"]})
    attach(st, "Magic Amulet", "Baron Mordo")
    dice(st, 5, 4)
    declare(st, "Baron Mordo", "Doctor Strange", "Insanity")
    g = st.game
    assert st.incap[g.SLOT[cid("Doctor Strange")]] == 1


def test_ds6_6_defender_wins_when_higher() -> None:
    st = scenario({EVIL: ["Poison"]})
    dice(st, 5, 4)  # 6 + 5 = 11 vs 8 + 4 = 12
    declare(st, "Baron Mordo", "Doctor Strange", "Poison")
    assert where(st, "Doctor Strange") == "play"
    assert where(st, "Poison") == "discard"


def test_ds6_5_power_cards_losing_side_plays_and_do_ao_limits() -> None:
    st = scenario(
        {EVIL: ["Poison", "Surprise", "Detect Danger", "Incense"], GOOD: ["Mental Battle", "Impostor", "Trance"]}
    )
    dice(st, 1, 1)  # attack 7 vs defence 9: Evil is behind and decides
    declare(st, "Baron Mordo", "Doctor Strange", "Poison")
    assert st.phase == S.EXCHANGE and st.current_player == EVIL
    # Attacker-only Surprise and the generic Incense are offered; defender-only Detect Danger is not.
    assert legal_cards(st, "play") == {"Surprise", "Incense"}
    snap = st.snapshot()
    with pytest.raises(IllegalAction):
        act(st, "play", "Detect Danger")
    assert st.snapshot() == snap
    act(st, "play", "Surprise")  # 9 vs 9: Evil now wins the tie, so Good decides
    assert st.current_player == GOOD
    assert legal_cards(st, "play") == {"Mental Battle", "Trance"}  # Impostor is attacker-only
    with pytest.raises(IllegalAction):
        act(st, "play", "Impostor")
    act(st, "play", "Mental Battle")  # 9 vs 11
    assert st.current_player == EVIL
    act(st, "play", "Incense")  # 10 vs 11, still behind
    # Evil's last card is defender-only: no legal play left, so the attack resolves at once.
    assert where(st, "Doctor Strange") == "play"  # the defence held
    assert where(st, "Detect Danger") == "hand0"


def test_ds6_7_call_defender_adds_unmarked_friendly_viable_power() -> None:
    st = scenario(
        {EVIL: ["Poison", "Bind"], GOOD: ["Desperate Cry", "Not Responding", "Trance"]},
        play={EVIL: ["Zota"], GOOD: ["Topaz", "Wong", "Rintrah"]},
    )
    g = st.game
    st.incap = replaced(st.incap, g.SLOT[cid("Rintrah")], 1)  # not viable: cannot help
    dice(st, 12, 1, 1, 12)
    declare(st, "Baron Mordo", "Doctor Strange", "Poison")  # 18 vs 9
    declare(st, "Zota", "Topaz", "Bind")  # Topaz is marked too; no attack left, so resolution starts
    assert st.phase == S.EXCHANGE and st.current_player == GOOD
    act(st, "play", "Desperate Cry")
    assert st.phase == S.HELPER
    assert legal_cards(st, "helper") == {"Wong"}  # Topaz is marked, Rintrah incapacitated
    act(st, "helper", "Wong")
    atk, dfn = st._totals()
    assert (atk, dfn) == (18, 10)
    # Wong is helping already: a second Call Defender has no helper, so it is not offered.
    assert st.current_player == GOOD
    assert legal_cards(st, "play") == {"Trance"}


def test_ds6_7_call_defender_is_good_only() -> None:
    st = scenario({GOOD: ["Poison"], EVIL: ["Desperate Cry"]}, play={EVIL: ["Zota"]}, active=GOOD)
    dice(st, 12, 1)
    declare(st, "Doctor Strange", "Baron Mordo", "Poison")
    assert where(st, "Baron Mordo") == "killed"  # Evil could play nothing: its windows were lone passes


def test_ds6_3_attack_fizzles_when_target_gone() -> None:
    st = scenario({EVIL: ["Banish", "Poison"]}, play={EVIL: ["Zota"]})
    dice(st, 12, 1)
    declare(st, "Baron Mordo", "Doctor Strange", "Banish")
    declare(st, "Zota", "Doctor Strange", "Poison")
    assert where(st, "Doctor Strange") == "exiled"
    assert where(st, "Poison") == "discard"
    assert any("no longer applies" in e for e in st.events(None))


def test_ds10_1_counter_an_attack() -> None:
    st = scenario({EVIL: ["Poison", "Bind"], GOOD: ["Interruption"]}, play={EVIL: ["Zota"]})
    declare(st, "Baron Mordo", "Doctor Strange", "Poison")
    # The counter window opens right after the Attack card is played, for Good only.
    assert st.phase == S.COUNTER and st.current_player == GOOD
    assert legal_cards(st, "play") == {"Interruption"}
    act(st, "play", "Interruption")
    assert st.attacks == () and st.marked == 0
    assert where(st, "Poison") == "discard" and where(st, "Interruption") == "discard"
    # Mordo has spent its attack; Zota may still declare one (and Good has no counter left: no window).
    assert legal_cards(st, "attacker") == {"Zota"}
    dice(st, 1, 12)
    declare(st, "Zota", "Doctor Strange", "Bind")
    assert st.phase != S.COUNTER


def test_ds10_1_counter_window_without_counter_offers_only_pass() -> None:
    st = scenario({EVIL: ["Poison", "Bind"], GOOD: ["Incense"]}, play={EVIL: ["Zota"]})
    act(st, "attacker", "Zota")
    act(st, "target", "Doctor Strange")
    act(st, "play", "Bind", lone_passes=False)
    assert st.phase == S.COUNTER and st.current_player == GOOD and texts(st) == ["pass"]
    act(st, "pass", lone_passes=False)
    assert st.phase == S.DECLARE and st.current_player == EVIL


def test_counter_may_be_declined() -> None:
    st = scenario({EVIL: ["Poison"], GOOD: ["Counter Spell"]})
    dice(st, 12, 1)
    declare(st, "Baron Mordo", "Doctor Strange", "Poison")
    act(st, "pass")
    assert where(st, "Doctor Strange") == "killed"
    assert side_of(st, "Baron Mordo") == EVIL
