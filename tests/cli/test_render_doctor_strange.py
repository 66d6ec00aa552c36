"""Doctor Strange's renderer: sides with power, state in words and attachments under their character,
captives under their captor; the fight's dice and totals; the hand's printed data; victory progress."""

from __future__ import annotations

import io

from rich.console import Console

import cardtable
from cardtable.cli.render import RenderContext, renderer_for
from cardtable.engine import Rng
from cardtable.games.doctor_strange import state as S
from tests.doctor_strange.helpers import EVIL, GOOD, act, attach, dice, scenario
from tests.support.walk import apply_random


def _draw(view: dict[str, object], seat: int | None, width: int = 100) -> str:
    game = cardtable.load("doctor-strange")
    out = io.StringIO()
    Console(file=out, width=width, force_terminal=False).print(
        renderer_for("doctor-strange")(view, RenderContext(game, seat))
    )
    return out.getvalue()


def test_sides_show_power_state_in_words_and_attachments() -> None:
    st = scenario({EVIL: ["Hypnotic Ray", "Poison"]}, play={GOOD: ["Topaz"]})
    attach(st, "Magic Amulet", "Topaz")
    dice(st, 12, 1)
    act(st, "attacker", "Baron Mordo")
    act(st, "target", "Topaz")
    act(st, "play", "Hypnotic Ray")
    text = _draw(st.view(EVIL), EVIL)
    # Evil (you) next to your hand, the player across first; Topaz now fights for Evil, controlled
    # through Mordo, still owned by Good; its amulet lies under it.
    assert text.index("Good (across the table)") < text.index("Evil (you)")
    mine = text[text.index("Evil (you)") :]
    assert "Topaz P4 (3)" in mine and "controlled through Baron Mordo" in mine and "owned by Good" in mine
    topaz = next(line for line in mine.splitlines() if "Topaz" in line)
    assert "└ Magic Amulet +1" in topaz
    assert "1 viable character" in text


def test_fight_shows_dice_power_cards_and_totals_until_the_next() -> None:
    st = scenario({EVIL: ["Poison", "Surprise"], GOOD: ["Mental Battle"]})
    dice(st, 1, 1)
    act(st, "attacker", "Baron Mordo")
    act(st, "target", "Doctor Strange")
    act(st, "play", "Poison")  # lone passes follow: Good's counter window, Evil's last declare window
    assert st.phase == S.EXCHANGE and st.current_player == EVIL  # 7 against 9
    act(st, "play", "Surprise")  # +2: 9 against 9, Evil leads on the tie
    text = _draw(st.view(GOOD), GOOD)
    assert "Fight (turn 1) · Poison: the target is killed if the attack wins" in text
    assert "roll 1 + power 6 + Surprise +2 = 9" in text and "roll 1 + power 8 = 9" in text
    assert "Evil leads 9 to 9 (a tie goes to the attacker); Good needs +1 to win" in text
    act(st, "play", "Mental Battle")  # +2 for Good: 11 against 9; Evil has nothing left: it resolves
    text = _draw(st.view(EVIL), EVIL)
    assert "Last fight (turn 1)" in text and "Good won, 11 against 9: the attack failed" in text


def test_hand_shows_each_cards_printed_data_in_words() -> None:
    hand = ["Detect Danger", "Poison", "Learn Secrets", "Desperate Cry", "Loki", "Hidden Temple", "Healing Powers"]
    st = scenario({EVIL: hand}, phase=S.MYSTIC, lone_passes=False)
    text = _draw(st.view(EVIL), EVIL, width=140)
    assert "Your hand (7)" in text
    assert "+2 in a fight, defender only (DO)" in text
    assert "attack: the target is killed" in text
    assert "Event, Mystic Arts (E)" in text and "Draw 3 cards." in text
    assert "Event, defending (D)" in text and "Good only" in text  # Evil holds a card it cannot play
    assert "Event, Rest (R)" in text and "Incapacitated token" in text
    assert "power 12 (Norse God)" in text and "Evil only" in text
    assert "attach: +1 power (one Location per character)" in text
    assert "Poison ⇒killed" in text  # an Attack card's fate, as on the card
    assert text.rstrip().endswith("to end your Mystic Arts phase")  # the prompt comes last


def test_victory_progress_and_piles() -> None:
    st = scenario({EVIL: ["Poison"]})
    st.turn, st.streak = 11, (0, 1)
    text = _draw(st.view(None), None)
    assert "turn 11: the victory check runs at the end of every turn" in text
    assert "Good 1 of 2" in text
    assert "Deck " in text and "Discard 0" in text and "spectator" in text


def test_a_captive_lies_under_its_captor() -> None:
    """The issue's finding: a captured Baron Mordo read "state captive of Doctor Strange (card 0)" in
    the other side's area; on a table the captive lies under the character holding it."""
    st = scenario({GOOD: ["Bind"]}, phase=S.MYSTIC, lone_passes=False)
    view = st.view(GOOD)
    table = view["table"]
    mordo = next(r for r in table if r["name"] == "Baron Mordo")
    strange = next(r for r in table if r["name"] == "Doctor Strange")
    mordo.update(captured=True, held_by=strange["id"], viable=False, state="captive of Doctor Strange (card 0)")
    text = _draw(view, GOOD)
    line = next(line for line in text.splitlines() if "Doctor Strange P" in line)
    assert "└ holds captive: Baron Mordo" in line
    evil = text[text.index("Evil (across the table)") : text.index("Good (you)")]
    assert "Baron Mordo" not in evil and "(no characters)" in evil
    assert "(card 0)" not in text and "captive of" not in text


def test_every_view_along_games_draws_and_leaves_room_on_a_50_row_screen() -> None:
    game = cardtable.load("doctor-strange")
    tallest = 0
    for seed in (3, 8):
        state = game.new(seed, log=False)
        rng = Rng(seed)
        for step in range(400):
            if state.is_over:
                break
            if step % 4 == 0:
                for seat in (0, 1, None):
                    view = state.view(seat)
                    text = _draw(view, seat)
                    assert all(str(r["name"]) in text for r in view["table"])
                    tallest = max(tallest, len(text.splitlines()))
            apply_random(state, rng)
    # The whole table (the `table` command) stays inside 50 rows at width 100; a decision's screen
    # fits the terminal by folding (tests/cli/test_screen_fits.py).
    assert tallest <= 50
