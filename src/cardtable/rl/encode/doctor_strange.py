"""Doctor Strange: the view of one side (Good or Evil) as a vector.

Reads the keys of ``cardtable.games.doctor_strange.view``: where every visible card is (a
``cards x zones`` grid, "mine"/"theirs" relative to the observer), each character's state, the step
of the turn and the rulebook phase, the fight's dice and totals, the declared attacks, and progress
towards victory (DS11). The opponent's hand and the deck appear only as counts, plus the cards the
seat has been shown (Read Minds, Investigate, its own Go Back in Time search).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from cardtable.engine.game import JSON
from cardtable.games.doctor_strange.words import FATE_DONE, STEP
from cardtable.rl.encode import Encoder, Layout, Vector
from cardtable.rl.encode.tools import CardZones, OneHot, number, seat_of

ZONES = (
    "my_hand",
    "their_hand_seen",
    "in_play_mine",
    "in_play_theirs",
    "attached_mine",
    "attached_theirs",
    "being_played",
    "discard",
    "killed",
    "exiled",
    "deck_seen",
    "deck_searched",
    "declared_attack",
    "fight_attack_card",
    "fight_power_mine",
    "fight_power_theirs",
)

CHARACTER_FEATURES = (
    "in_play",
    "on_my_side",
    "owned_by_me",
    "modified_power/10",
    "viable",
    "incapacitated",
    "controlled",
    "captured",
    "marked",
    "attacked",
    "helping",
)


class DoctorStrangeEncoder(Encoder):
    game_id: ClassVar[str] = "doctor-strange"
    TURN_SCALE: ClassVar[float] = 100.0

    def build(self, layout: Layout) -> None:
        game = self.game
        n = len(game.cards)  # type: ignore[attr-defined]
        self.n_cards = n
        self.characters = [c for c in range(n) if game.card_json(c)["type"] == "Character"]  # type: ignore[attr-defined]
        self.char_row = {c: i for i, c in enumerate(self.characters)}
        self.b_role = layout.add("role", 2, "1 if the observer plays Good; 1 if it is the observer's turn")
        self.step = OneHot(layout, "step", list(dict.fromkeys(STEP.values())), "one-hot: the step of the turn")
        self.phase = OneHot(layout, "phase", ["Mystic Arts", "Summon", "Attack", "Rest"], "one-hot: rulebook phase")
        self.cards = CardZones(layout, "cards", n, ZONES, "where each visible card is, by card id")
        self.b_chars = layout.add(
            "characters",
            (len(self.characters), len(CHARACTER_FEATURES)),
            "one row per character card (in card-id order): " + ", ".join(CHARACTER_FEATURES),
        )
        self.b_counts = layout.add(
            "counts",
            6,
            "my hand/10, their hand/10, deck/cards, discard/cards, killed/characters, exiled/characters",
        )
        self.b_attacks = layout.add(
            "attacks", 4, "this turn's attacks: done/5, waiting/5, one being fought, one being declared"
        )
        self.b_fight = layout.add(
            "fight",
            11,
            "the fight (or the last one): shown, in progress, I attack, attacker roll/12, power/20, total/40, "
            "defender roll/12, power/20, total/40, helpers/3, (my total - theirs)/20",
            low=-1.0,
        )
        self.fate = OneHot(layout, "fight_fate", FATE_DONE, "one-hot: the fight's Attack card fate")
        self.b_victory = layout.add(
            "victory",
            7,
            "count/victory start (at most 1), checking, my viable characters/5, theirs/5, "
            "my checks without one/2, theirs/2, turn/turn limit",
        )

    def fill(self, view: Mapping[str, JSON], out: Vector, me: int) -> None:
        names = view["seat_names"]
        assert isinstance(names, list)
        my_name = names[me]
        cards = self.cards
        out[self.b_role.start] = 1.0 if my_name == "Good" else 0.0
        out[self.b_role.start + 1] = 1.0 if view.get("turn_of") == my_name else 0.0
        self.step.set(out, view.get("step"))
        self.phase.set(out, view.get("phase"))

        cards.put_all(out, view.get("hand"), "my_hand")
        cards.put_all(out, view.get("known_opponent_hand"), "their_hand_seen")
        cards.put(out, view.get("playing"), "being_played")
        cards.put_all(out, view.get("discard"), "discard")
        cards.put_all(out, view.get("killed"), "killed")
        cards.put_all(out, view.get("exiled"), "exiled")
        cards.put_all(out, view.get("search"), "deck_searched")
        known_deck = view.get("known_deck")
        if isinstance(known_deck, list):
            for entry in known_deck:
                if isinstance(entry, dict):
                    cards.put(out, entry.get("card"), "deck_seen")

        rows = self.b_chars.start
        width = len(CHARACTER_FEATURES)
        table = view.get("table")
        if isinstance(table, list):
            for char in table:
                if not isinstance(char, dict):
                    continue
                mine = char.get("side") == my_name
                cards.put(out, char, "in_play_mine" if mine else "in_play_theirs")
                attachments = char.get("attachments")
                cards.put_all(out, attachments, "attached_mine" if mine else "attached_theirs")
                row = self.char_row.get(char["id"]) if isinstance(char.get("id"), int) else None
                if row is None:
                    continue
                base = rows + row * width
                out[base] = 1.0
                out[base + 1] = 1.0 if mine else 0.0
                out[base + 2] = 1.0 if char.get("owner") == my_name else 0.0
                out[base + 3] = number(char.get("modified_power")) / 10.0
                for k, key in enumerate(("viable", "incapacitated", "controlled", "captured", "marked")):
                    out[base + 4 + k] = number(char.get(key))
                out[base + 9] = number(char.get("attacked"))
                out[base + 10] = number(char.get("helping"))

        sizes = view.get("hand_sizes")
        c = self.b_counts.start
        if isinstance(sizes, list) and len(sizes) == 2:
            out[c] = number(sizes[me]) / 10.0
            out[c + 1] = number(sizes[1 - me]) / 10.0
        out[c + 2] = number(view.get("deck_size")) / self.n_cards
        out[c + 3] = _len(view.get("discard")) / self.n_cards
        out[c + 4] = _len(view.get("killed")) / max(1, len(self.characters))
        out[c + 5] = _len(view.get("exiled")) / max(1, len(self.characters))

        attacks = view.get("attacks")
        a = self.b_attacks.start
        if isinstance(attacks, list):
            for attack in attacks:
                if not isinstance(attack, dict):
                    continue
                status = attack.get("status")
                if status == "done":
                    out[a] += 0.2
                elif status == "waiting":
                    out[a + 1] += 0.2
                elif status == "being fought":
                    out[a + 2] = 1.0
                elif status == "being declared":
                    out[a + 3] = 1.0
                cards.put(out, attack.get("attack_card"), "declared_attack")

        fight = view.get("fight")
        if isinstance(fight, dict):
            f = self.b_fight.start
            attacker = fight.get("attacker")
            defender = fight.get("defender")
            out[f] = 1.0
            out[f + 1] = number(fight.get("in_progress"))
            if isinstance(attacker, dict) and isinstance(defender, dict):
                i_attack = seat_of(view, attacker.get("player")) == me
                out[f + 2] = 1.0 if i_attack else 0.0
                out[f + 3] = number(attacker.get("roll")) / 12.0
                out[f + 4] = number(attacker.get("power")) / 20.0
                out[f + 5] = number(attacker.get("total")) / 40.0
                out[f + 6] = number(defender.get("roll")) / 12.0
                out[f + 7] = number(defender.get("power")) / 20.0
                out[f + 8] = number(defender.get("total")) / 40.0
                out[f + 9] = _len(defender.get("helpers")) / 3.0
                lead = number(attacker.get("total")) - number(defender.get("total"))
                out[f + 10] = (lead if i_attack else -lead) / 20.0
                mine, theirs = ("fight_power_mine", "fight_power_theirs")[:: 1 if i_attack else -1]
                cards.put_all(out, attacker.get("power_cards"), mine)
                cards.put_all(out, defender.get("power_cards"), theirs)
            cards.put(out, fight.get("attack_card"), "fight_attack_card")
            self.fate.set(out, fight.get("fate"))

        victory = view.get("victory")
        if isinstance(victory, dict):
            v = self.b_victory.start
            start = number(victory.get("checks_from"), 1.0) or 1.0
            out[v] = number(victory.get("now")) / start
            out[v + 1] = number(victory.get("checking"))
            viable = victory.get("viable_characters")
            streak = victory.get("no_viable_streak")
            if isinstance(viable, list) and len(viable) == 2:
                out[v + 2] = number(viable[me]) / 5.0
                out[v + 3] = number(viable[1 - me]) / 5.0
            if isinstance(streak, list) and len(streak) == 2:
                out[v + 4] = number(streak[me]) / 2.0
                out[v + 5] = number(streak[1 - me]) / 2.0
            limit = number(victory.get("turn_limit"), 1.0) or 1.0
            out[v + 6] = number(view.get("turn")) / limit


def _len(value: JSON) -> float:
    return float(len(value)) if isinstance(value, list) else 0.0
