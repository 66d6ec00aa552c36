"""Mr. Card Game's terminal table shows every supplemental component, drawn from ``view(seat)`` alone:
the nemesis piles and the quest pile (with or without the playmat), negative effects in display
cases, each player's class, the Mr. Store items (the owner's face down by name, others' as counts,
and by name those every seat has seen),
the foil on top of the Tower with its global effect, and the ascension state (runs, Instant Karma,
King Ralph); a hidden Mr. Store card of another seat never appears."""

from __future__ import annotations

import io

import pytest
from rich.console import Console, RenderableType

import cardtable
from cardtable.cli.render import RenderContext, renderer_for
from cardtable.cli.render.mr_card_game import case_block, tower_block
from cardtable.engine import Rng
from cardtable.games.mr_card_game.cards import K_BOSS
from cardtable.games.mr_card_game.state import McgState
from tests.mr_card_game.helpers import give_lasting, give_skill, new, to_heap
from tests.support.walk import apply_random


def words(drawn: RenderableType, width: int) -> str:
    """What ``drawn`` shows, as one line of words (box-drawing characters left out)."""
    out = io.StringIO()
    Console(file=out, width=width, force_terminal=False).print(drawn)
    words = "".join(ch for ch in out.getvalue() if not 0x2500 <= ord(ch) <= 0x257F)
    return " ".join(words.split())


def screen(s: McgState, seat: int | None, width: int = 160) -> str:
    """The whole table for ``seat``, nothing folded."""
    return words(renderer_for("mr-card-game")(s.view(seat), RenderContext(s.game, seat)), width)


def beside_the_map(s: McgState, seat: int | None) -> str:
    """The Tower block (the Tower, the Heap, the stat piles), alone."""
    return words(tower_block(s.view(seat)).full, 100)


def built(playmat: bool) -> McgState:
    """Three players, every supplemental part: P1 on run 2 with an Instant Karma, P2 suffering a
    boss's negative effect."""
    s = new(
        3,
        nemesis=True,
        bosses=True,
        ascension=True,
        classes="cards",
        playmat=playmat,
        **{"mr-store": True, "store-filter": False},
    )
    c = s.game.cards
    karma = next(x for x in s.foil_pool if c.form[x] == 1)
    s.tower_left = (s.tower_left[0] - 1, *s.tower_left[1:])  # it was one of the Tower's first forms
    give_lasting(s, 0, karma)
    s.runs[0] = 1
    boss = s.quests[-1]
    give_lasting(s, 1, boss)
    return s


@pytest.mark.parametrize("playmat", [False, True], ids=["kingdom", "playmat"])
def test_every_supplemental_component_appears_on_the_table(playmat: bool) -> None:
    s = built(playmat)
    c = s.game.cards
    view = s.view(0)
    text = screen(s, 0)
    # B1, B2: each nemesis pile's top and the quest pile's next boss.
    for pile in view["nemesis"]:
        assert f"#{pile['monster']['id']}" in text
    assert f"#{view['quests'][0]['id']}" in text and str(view["quests"][0]["name"])[:10] in text
    # B3/O3: the foil on top of the Tower and its global effect; the forms still hidden.
    tower = beside_the_map(s, 0)
    assert c.mname[s.tower] in tower and "Tower: Naughty Sorceress" in text
    assert "global: " + str(view["sorceress"]["text"]).split(": ", 1)[1][:20] in tower
    assert "hidden, by power: 1x20 3x25 1x30" in tower
    # O3: the run each player is on and their Instant Karmas.
    assert "P1 r2 IK x1" in text and "P2 r1" in text and "P3 r1" in text
    assert "Instant Karma (special item)" in text  # in P1's own display case, with its text
    # O2: a negative effect, by name, for every seat (P2's own case shows its words too).
    boss = next(x for x in s.lasting[1] if c.kind[x] == K_BOSS)
    assert f"P2 {c.negative_name[boss]}" in text
    assert "negative effect" in screen(s, 1)
    # S2: each player's class, and P1's class card with its ability in P1's display case.
    for p in range(3):
        assert f"P{p + 1} {view['players'][p]['class']['class']}" in text
    assert str(view["players"][0]["class"]["text"])[:25] in text
    # S1: P1's face-down Mr. Store items by name, the others' as counts.
    for item in view["store"]:
        assert str(item["name"]) in text
    assert "P2 [3 MrS]" in text and "P3 [3 MrS]" in text


def test_another_players_known_face_down_store_item_is_shown_by_name() -> None:
    """S1 with store-used=facedown: an item another player revealed and turned face down again is
    known to every seat, so every table names it; one never revealed stays a count."""
    s = built(False)
    c = s.game.cards
    seen, unseen = s.store[1][0], s.store[1][1]
    assert "Known face-down" not in screen(s, 0)
    s.pub |= 1 << seen
    for seat in (0, 2, None):
        text = screen(s, seat)
        assert f"Known face-down Mr. Store items: P2 #{seen} {c.name(seen)}" in text
        assert f"#{unseen} " not in text
    assert "Known face-down" not in screen(s, 1)  # P2's own are listed by name with its hand


def test_a_permed_skill_is_marked_for_every_seat() -> None:
    """O3.4: perming is announced, so every table marks another player's permed skill (and shows
    what the mark means); the owner's display case says "permed"."""
    s = built(False)
    c = s.game.cards
    skill, other = c.skills[0], c.skills[1]
    give_skill(s, 1, skill)
    give_skill(s, 1, other)
    assert "^ permed" not in screen(s, 0)
    s.permed |= 1 << skill
    for seat in (0, 2, None):
        text = screen(s, seat)
        assert "^ permed" in text and f"{c.name(skill)}^" in text and f"{c.name(other)}^" not in text
    own = words(renderer_for("mr-card-game")(s.view(1), RenderContext(s.game, 1)), 200)
    assert f"#{skill} (permed" in own and f"#{other} (permed" not in own


def lines(s: McgState, seat: int, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, force_terminal=False).print(
        renderer_for("mr-card-game")(s.view(seat), RenderContext(s.game, seat))
    )
    return out.getvalue().splitlines()


def test_on_a_narrow_screen_the_playmat_gives_way_to_a_location_a_line() -> None:
    """S4: from 120 columns the piles lie on their playmat spaces; on a narrower screen a space would
    keep three or four letters of a name, so the locations go a line each, every name whole."""
    s = built(True)
    view = s.view(0)
    narrow = "\n".join(lines(s, 0, 80))
    for loc in view["map"]:
        assert str(loc["location"]).removeprefix("The ") in narrow
        assert str(loc["monster"]["name"]) in narrow
    assert "The Playmat" not in narrow
    wide = "\n".join(lines(s, 0, 130))
    assert "The Playmat" in wide and "┬" in wide


def test_king_ralph_freed_is_shown_at_the_end() -> None:
    s = built(False)
    c = s.game.cards
    third = next(x for x in (*s.foil_pool, s.tower) if c.form[x] == 3)
    give_lasting(s, 2, third)
    s.runs[2] = 3
    assert "P3 freed King Ralph" in screen(s, None)


@pytest.mark.parametrize("playmat", [False, True], ids=["kingdom", "playmat"])
def test_a_hidden_mr_store_card_of_another_seat_never_appears(playmat: bool) -> None:
    """Random play with every option: at every tenth decision, no seat's screen (nor a spectator's)
    names a Mr. Store card lying face down, unknown to that seat, before another player."""
    options = dict(cardtable.load("mr-card-game").CONFIGURATIONS[-1])
    options.update(players=3, playmat=playmat)
    state = cardtable.load("mr-card-game", **options).new(4)
    assert isinstance(state, McgState)
    c = state.game.cards
    r = Rng(9)
    checked = 0
    for step in range(400):
        if state.is_over:
            break
        if step % 10 == 0:
            for seat in (None, 0, 1, 2):
                text = screen(state, seat, 100)
                for owner in range(3):
                    if owner == seat:
                        continue
                    for card in state.store[owner]:
                        if not state.pub >> card & 1:
                            assert c.iname[card] not in text, (seat, owner, c.iname[card])
                            checked += 1
        apply_random(state, r)
    assert checked > 50


def test_a_long_display_case_goes_by_name_when_the_screen_is_short() -> None:
    """Late in a long game a display case outgrows the screen: its compact form lists every card by
    name with its numbers and mark (the whole table, and `look`, give every ability again)."""
    s = new(3)
    skills = list(s.skill_pile[:9])
    for card in skills:
        give_skill(s, 0, card)
    view = s.view(0)
    shown = {d["id"]: d for d in view["players"][0]["skills"]}
    case = case_block(view, RenderContext(s.game, 0))
    assert case is not None and len(case.forms) == 3
    full = words(case.forms[0].drawn, 400)
    compact = words(case.forms[1].drawn, 400)
    for card in skills:
        assert str(shown[card]["name"]) in compact and f"#{card}" in compact
        assert str(shown[card]["name"]) in full
    ability = max((str(d["text"]) for d in shown.values()), key=len)  # a skill's own words
    assert ability[:40] in full and ability[:40] not in compact


def test_a_buffs_state_and_the_case_heading_read_in_words() -> None:
    """A buff reads ``active`` or ``inactive`` (not ``ON``/``off``, which read as a switch to press),
    and the case's heading names the skills that lie beside it."""
    s = new(2)
    buffs: list[int] = []
    for card in s.skill_pile:  # the first two buffs of the skill pile: one switched on, one not
        probe = new(2)
        give_skill(probe, 0, card)
        if "active" in probe.view(0)["players"][0]["skills"][0]:
            buffs.append(card)
        if len(buffs) == 2:
            break
    assert len(buffs) == 2
    give_skill(s, 0, buffs[0], active=True)
    give_skill(s, 0, buffs[1], active=False)
    view = s.view(0)
    states = {d["id"]: d["active"] for d in view["players"][0]["skills"]}
    assert states == {buffs[0]: True, buffs[1]: False}
    case = case_block(view, RenderContext(s.game, 0))
    assert case is not None
    drawn = words(case.forms[0].drawn, 200)
    assert drawn.startswith("Your display case and skills:")
    assert "(active)" in drawn and "(inactive)" in drawn
    for form in case.forms:
        text = words(form.drawn, 200)
        assert " ON" not in text and " off" not in text


def test_the_case_heading_without_skills_is_the_case_alone() -> None:
    s = new(2)
    case = case_block(s.view(0), RenderContext(s.game, 0))
    assert case is not None
    assert words(case.forms[0].drawn, 200).startswith("Your display case:")


def test_a_heap_top_without_a_price_says_it_cannot_be_dived_for() -> None:
    """An item with no meat price on top of the Heap: the line says why no Dumpster Dive takes it."""
    s = new(2)
    to_heap(s, [s.view(0)["map"][0]["monster"]["id"]])  # a monster's card: its item side, with a price
    view = dict(s.view(0))
    heap = [dict(c) for c in view["heap"]]
    assert heap, "an item on the Heap"
    priced = words(tower_block(view).full, 100)
    assert f"dive {heap[-1]['meat_cost']}m" in priced
    heap[-1]["meat_cost"] = None
    view["heap"] = heap
    drawn = words(tower_block(view).full, 100)
    assert "no meat price: not for a Dumpster Dive" in drawn and "no dive" not in drawn
