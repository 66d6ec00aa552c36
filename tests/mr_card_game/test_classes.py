"""S2 character class cards, S3 character class boards, O6 the class-based trainer and S4 the map
playmat as the supplemental rules give them (the rulebook's own example: the class-based trainer
turning up only the bought pile)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import cardtable
from cardtable.cli.render import RenderContext, renderer_for
from cardtable.engine import IllegalAction, MalformedAction, Rng
from cardtable.games.mr_card_game.cards import CLASS_WORDS, CLASSES, K_BOARD_ITEM
from cardtable.games.mr_card_game.codes import D_NONCOMBAT, D_SIDE
from cardtable.games.mr_card_game.state import McgState

from .helpers import act, cid, conserved, deal, finish_turn, give_item, legal, new, ready, view_text


def _refused(s: McgState, text: str, error: type[Exception] = IllegalAction) -> None:
    before = (view_text(s, None), legal(s), len(s.history))
    with pytest.raises(error):
        s.apply(text)
    assert (view_text(s, None), legal(s), len(s.history)) == before


def _with_class(s: McgState, p: int, name: str) -> int:
    """Give ``p`` the named class card or board (swapped with whoever or wherever holds it)."""
    c = s.game.cards
    card = next(x for x in (*c.class_cards, *c.class_boards) if c.iname[x] == name)
    old = s.klass[p]
    if card in s.klass:
        q = s.klass.index(card)
        s.klass[q] = old
    else:
        s.box = tuple(sorted((*(x for x in s.box if x != card), old)))
    s.klass[p] = card
    ready(s)
    return card


# -- S2 class cards ----------------------------------------------------------------------------------


def test_s2_1_one_class_card_dealt_face_up_to_each_player_the_rest_set_aside() -> None:
    s = new(4, classes="cards")
    c = s.game.cards
    dealt = list(s.klass)
    assert len(set(dealt)) == 4 and all(x in c.class_cards for x in dealt)
    assert set(c.class_cards) - set(dealt) <= set(s.box)  # set aside (no ascension: not in the middle)
    assert s.middle == () and set(c.class_boards) <= set(s.box)
    # Face up, in the display case: every seat sees every class.
    for seat in (0, 2, None):
        shown = [row["class"]["name"] for row in s.view(seat)["players"]]
        assert shown == [c.iname[x] for x in dealt]
        assert all(row["class"]["type"] == "character class card" for row in s.view(seat)["players"])
    assert set(dealt) <= s.known_cards(1)
    assert all(f"is dealt the {c.iname[x]}" in "\n".join(s.events(1)) for x in dealt)
    assert s.phase == D_NONCOMBAT  # class cards need no setup decision
    assert conserved(s)
    # Dealing is random: another seed deals other classes.
    assert any(list(new(4, seed=k, classes="cards").klass) != dealt for k in range(1, 6))


def test_s2_2_a_class_card_works_as_a_passive_skill_all_game() -> None:
    s = new(3, classes="cards")
    _with_class(s, 0, "Seal Clubber Class Card")  # +1 melee, +1 melee against hot monsters
    bonuses = s.view(0)["players"][0]["bonuses"]
    assert bonuses["melee"] == 1 + 1  # the Sweet Ninja Sword and the class
    assert bonuses["against"]["hot"]["melee"] == 1
    _with_class(s, 0, "Disco Bandit Class Card")  # +1 ranged, AutoSell for 1 more meat
    bonuses = s.view(0)["players"][0]["bonuses"]
    assert bonuses["melee"] == 1 and bonuses["ranged"] == 1
    sword = s.items[0][0]
    act(s, f"autosell card={sword}")
    assert s.meat[0] == 5 + 1 + 1
    # It stays all game: still there after turns go by.
    for _ in range(4):
        finish_turn(s)
    assert s.view(1)["players"][0]["class"]["name"] == "Disco Bandit Class Card"
    assert s.view(0)["players"][0]["bonuses"]["ranged"] == 1


# -- S3 class boards ---------------------------------------------------------------------------------


def test_s3_2_each_player_in_turn_order_chooses_the_side_of_the_board_dealt_to_them() -> None:
    s = new(3, classes="boards", first_player="P2")
    c = s.game.cards
    assert all(x in c.class_boards for x in s.klass) and len(set(s.klass)) == 3
    order = []
    for face in ("class", "plain", "class"):
        assert s.phase == D_SIDE and legal(s) == ["side face=class", "side face=plain"]
        order.append(s.current_player)
        p = s.current_player
        assert p is not None
        name = c.iname[s.klass[p]]
        assert f"place your {name}" in s.view(p)["prompt"]
        assert f"P{p + 1}: setup — place their {name}" in s.view((p + 1) % 3)["prompt"]
        act(s, f"side face={face}")
    assert order == [1, 2, 0]
    assert s.phase == D_NONCOMBAT and s.current_player == 1  # then the first turn begins
    sides = [row["class"]["side"] for row in s.view(0)["players"]]
    assert sides == ["class", "class", "Mr. Card Game"]
    assert conserved(s)


def test_s3_2_bad_side_choices_are_refused_and_change_nothing() -> None:
    s = new(3, classes="boards")
    _refused(s, "side face=banana", MalformedAction)
    _refused(s, "side", MalformedAction)
    _refused(s, "end-turn")
    _refused(s, f"class card={s.klass[1]}")


def test_s3_2_s3_4_the_class_side_replaces_the_newbie_gear_with_its_three_starting_equipment() -> None:
    s = new(3, classes="boards")
    c = s.game.cards
    newbie = s.items[0]
    board = _with_class(s, 0, "Disco Bandit Class Board")  # +1 ranged; slingshot, headband, jeans
    act(s, "side face=class")
    equipment = c.board_items[c.class_boards.index(board)]
    assert set(s.items[0]) == set(equipment) and all(s.eq >> x & 1 for x in equipment)
    assert set(newbie) <= set(s.box)  # the newbie gear goes back to the game box
    assert [c.kind[x] for x in equipment] == [K_BOARD_ITEM] * 3
    bonuses = s.view(0)["players"][0]["bonuses"]
    assert bonuses["ranged"] == 2 + 1 + 1  # slingshot, jeans, the board's ability (S3.3)
    # The Mr. Card Game side keeps the newbie gear and gives no ability.
    p2_newbie = s.items[1]
    act(s, "side face=plain")
    assert s.items[1] == p2_newbie and all(s.eq >> x & 1 for x in p2_newbie)
    assert s.view(1)["players"][1]["class"]["side"] == "Mr. Card Game"
    assert conserved(s)


def test_s3_2_the_ability_counts_only_once_the_class_side_is_chosen() -> None:
    s = new(3, classes="boards")
    _with_class(s, 1, "Seal Clubber Class Board")  # +1 melee on the class side
    assert s.view(0)["players"][1]["bonuses"]["melee"] == 1  # the newbie weapon alone: no side yet
    assert s.view(2)["players"][1]["class"]["side"] == "not chosen yet"
    act(s, "side face=class", "side face=plain")
    assert s.view(0)["players"][1]["bonuses"]["melee"] == 1  # the Mr. Card Game side: no ability


def test_s3_4_board_equipment_is_never_autosold_and_new_equipment_is_laid_over_its_slot() -> None:
    s = new(3, classes="boards")
    c = s.game.cards
    board = _with_class(s, 0, "Seal Clubber Class Board")
    act(s, "side face=class", "side face=plain", "side face=plain")
    bludgeon = c.board_items[c.class_boards.index(board)][0]
    assert not any(t.startswith("autosell") for t in legal(s))
    _refused(s, f"autosell card={bludgeon}")
    cleaver = cid(s, "Overseer's Cleaver")  # melee +5
    give_item(s, 0, cleaver)
    act(s, f"equip card={cleaver}")
    assert s.eq >> cleaver & 1 and not s.eq >> bludgeon & 1  # laid over the weapon slot
    assert bludgeon in s.items[0]  # the board's weapon is covered, never gone
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 5 + 1 + 1  # cleaver, cap, the ability
    # A later non-combat phase may uncover the slot again.
    finish_turn(s)
    while s.current_player != 0:
        finish_turn(s)
    act(s, f"equip card={bludgeon}")
    assert s.eq >> bludgeon & 1 and not s.eq >> cleaver & 1
    assert f"autosell card={cleaver}" in legal(s)  # the acquired item sells as usual
    act(s, f"autosell card={cleaver}")
    finish_turn(s)
    assert cleaver in s.heap and not set(c.board_items[c.class_boards.index(board)]) & set(s.heap)
    assert conserved(s)


def test_s3_4_board_equipment_never_leaves_its_owner_in_random_games() -> None:
    options = {"classes": "boards", "mr-store": True, "use-consumes": "all"}
    for seed in range(3):
        s = new(3, seed=seed, **options)
        c = s.game.cards
        r = Rng(seed + 10)
        boards: dict[int, set[int]] = {}
        while not s.is_over and len(s.history) < 400:
            actions = s.legal_actions()
            s.apply(actions[r.below(len(actions))])
            if not boards and s.phase != D_SIDE:
                for p in range(3):
                    if not s.plain >> p & 1:
                        boards[p] = set(c.board_items[c.class_boards.index(s.klass[p])])
            for p, mine in boards.items():
                assert mine <= set(s.items[p]), (seed, p)
                assert not mine & set(s.heap) and not mine & set(s.escrow[p])
        assert conserved(s)


# -- O6 the class-based trainer ----------------------------------------------------------------------


def test_o6_1_six_class_piles_each_with_its_top_face_up() -> None:
    s = new(3, class_trainer=True)
    c = s.game.cards
    assert len(s.trainer) == len(CLASSES) == 6
    assert [c.sclass[x] for x in s.trainer] == list(range(6))
    rows = s.view(1)["trainer"]
    assert [row["class"] for row in rows] == list(CLASS_WORDS)
    assert [row["top"]["id"] for row in rows] == list(s.trainer)
    counts = [sum(1 for x in s.skill_pile if c.sclass[x] == k) for k in range(6)]
    assert [row["face_down"] for row in rows] == counts and all(counts)
    assert not set(s.skill_pile) & s.known_cards(0)  # the face-down piles stay hidden
    # The core trainer is a line of four.
    assert len(new(3).trainer) == 4


def test_o6_2_o6_3_only_the_bought_pile_turns_up_a_new_card_and_nothing_is_discarded() -> None:
    s = new(3, class_trainer=True)
    c = s.game.cards
    s.meat[0] = 30
    ready(s)
    # Any face-up skill may be bought (O6.2).
    assert {f"train card={x}" for x in s.trainer if c.cost[x] <= 30} <= set(legal(s))
    before = list(s.trainer)
    bought = before[3]
    act(s, f"train card={bought}")
    assert s.trainer[3] == -1 and bought in s.skills[0]
    finish_turn(s)  # the map update
    after = list(s.trainer)
    assert after[:3] + after[4:] == before[:3] + before[4:]  # the other piles do not change
    assert after[3] >= 0 and after[3] != bought and c.sclass[after[3]] == 3  # the Sauceror pile
    assert s.skill_disc == ()  # nothing is discarded (O6.3 replaces K12.2-K12.3)
    # A turn with no skill bought changes nothing at all.
    finish_turn(s)
    assert list(s.trainer) == after and s.skill_disc == ()
    assert conserved(s)


def test_o6_4_an_emptied_class_pile_stays_empty() -> None:
    s = new(3, class_trainer=True, skill_pile_empty="shrink")
    c = s.game.cards
    # Leave one card of the Seal Clubber pile: the top, face up; nothing face down.
    pile = [x for x in s.skill_pile if c.sclass[x] == 0]
    s.skill_pile = tuple(x for x in s.skill_pile if c.sclass[x] != 0)
    s.skills[1] = (*s.skills[1], *pile)  # moved out of the way (into P2's display case)
    s.meat[0] = 30
    ready(s)
    top = s.trainer[0]
    act(s, f"train card={top}")
    finish_turn(s)
    assert s.trainer[0] == -1 and s.view(0)["trainer"][0] == {"class": CLASS_WORDS[0], "top": None, "face_down": 0}
    assert all(x >= 0 for x in s.trainer[1:])
    assert conserved(s)


def test_o6_4_with_reshuffle_an_emptied_class_pile_is_rebuilt_from_that_class_in_the_skill_discard() -> None:
    """``skill-pile-empty=reshuffle`` (the default): the skill discard pile (only an ascension reset
    puts skills there under the class trainer) gives an emptied class pile its cards of that class."""
    s = new(3, class_trainer=True)
    c = s.game.cards
    pile = [x for x in s.skill_pile if c.sclass[x] == 0]
    s.skill_pile = tuple(x for x in s.skill_pile if c.sclass[x] != 0)
    s.skill_disc = tuple(pile[:2])
    other = next(x for x in s.skill_pile if c.sclass[x] == 1)
    s.skill_pile = tuple(x for x in s.skill_pile if x != other)
    s.skill_disc = (*s.skill_disc, other)  # another class's card stays in the discard pile
    s.skills[1] = (*s.skills[1], *pile[2:])
    s.meat[0] = 30
    ready(s)
    act(s, f"train card={s.trainer[0]}")
    finish_turn(s)
    assert s.trainer[0] in pile[:2]
    assert s.skill_disc == (other,) and sum(1 for x in s.skill_pile if c.sclass[x] == 0) == 1
    assert conserved(s)


# -- S4 the playmat ----------------------------------------------------------------------------------


def _screen(s: McgState, seat: int | None) -> str:
    out = io.StringIO()
    Console(file=out, width=120, force_terminal=False).print(
        renderer_for("mr-card-game")(s.view(seat), RenderContext(s.game, seat))
    )
    return out.getvalue()


def test_s4_1_the_playmat_changes_only_where_the_piles_lie() -> None:
    mat = new(3, playmat=True, nemesis=True, bosses=True)
    grid = new(3, nemesis=True, bosses=True)
    layout = mat.view(0)["layout"]
    assert grid.view(0)["layout"] is None
    assert isinstance(layout, dict)
    spaces = layout["spaces"]
    holds = [x["holds"] for x in spaces]
    assert holds.count("location") == 9 and holds.count("nemesis location") == 4
    assert holds.count("heap") == 1 and holds.count("quests") == 1 and holds.count("spare") == 2
    assert len({(x["row"], x["column"]) for x in spaces}) == len(spaces)  # one pile per space
    # No rule changes: the same seed and actions give the same game.
    r = Rng(1)
    for _ in range(120):
        if mat.is_over:
            break
        actions = legal(mat)
        assert actions == legal(grid)
        a = actions[r.below(len(actions))]
        act(mat, a)
        act(grid, a)
    for seat in (0, None):
        one, two = mat.view(seat), grid.view(seat)
        one.pop("layout"), two.pop("layout")
        assert one == two
    # Without bosses or nemeses those spaces are shown empty.
    bare = new(3, playmat=True).view(0)["layout"]
    assert isinstance(bare, dict)
    assert {x["holds"] for x in bare["spaces"]} >= {"empty nemesis space", "empty quest space"}


def test_s4_1_the_renderer_draws_the_piles_on_the_playmat_when_the_option_is_on() -> None:
    s = new(3, playmat=True, nemesis=True, bosses=True)
    screen = _screen(s, 0)
    assert "Playmat" in screen and "The Heap" in screen and "Quests" in screen
    for x in s.view(0)["layout"]["spaces"]:
        if x["holds"] in ("location", "nemesis location"):
            assert x["space"].removeprefix("The ")[:7] in screen
    plain = _screen(new(3, nemesis=True, bosses=True), 0)
    assert "Playmat" not in plain and "The Kingdom" in plain


def test_o6_s4_the_class_piles_and_the_playmat_are_drawn_at_five_players() -> None:
    game = cardtable.load("mr-card-game", players=5, classes="boards", **{"class-trainer": True, "playmat": True})
    s = deal(game, 2)
    for face in ("class", "plain", "class", "class", "plain"):
        s.apply(f"side face={face}")
    screen = _screen(s, 0)
    rows = [x for x in screen.splitlines() if "[" in x]
    for k, word in enumerate(CLASS_WORDS):  # one line per class pile: its name, its top, face down
        top = s.trainer[k]
        assert any(f" {word} [9] " in x and f"#{top}" in x for x in rows), word
