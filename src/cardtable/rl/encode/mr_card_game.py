"""Mr. Card Game (Kingdom of Loathing): the view of one seat as a vector.

Reads the keys of ``cardtable.games.mr_card_game.views``. Cards with ids (monsters on the map, items in
the heap, display cases and escrow, skills in the trainer, the skill discard, display and the one
being paid for) go into a ``cards x zones`` grid; stat cards, which a view shows as counts by kind
(``mus1`` .. ``mox4``), into a ``kinds x zones`` grid of counts. Then the 3x3 map (the top monster's
numbers, how many cards lie below), every seat's numbers (meat, mojo, bonuses, stat total, kills,
hand and deck sizes), the phase, the combat (maneuver, totals, targets beaten, the Sorceress's
threshold) and the March on the Tower. Seats are in order from the observer. Other hands and decks,
the monsters below the top of each location and the piles' order appear only as counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from cardtable.engine.game import JSON
from cardtable.games.mr_card_game.cards import STAT_KINDS
from cardtable.games.mr_card_game.effects import ELEMENTS, MANEUVER_WORDS, MANEUVERS
from cardtable.rl.encode import Encoder, Layout, Vector
from cardtable.rl.encode.tools import CardZones, number, seat_of

PHASES = ("non-combat phase", "combat phase", "end of turn", "the March poll", "game over")
MAP_FEATURES = ("monster", "power/20", "meat/5", "cards below/8", "emptied", *(f"element {e}" for e in ELEMENTS))
PLAYER_FEATURES = (
    "meat/20",
    "out of the game",
    "holds the certificate",
    "mojo/10",
    "hand/10",
    "deck/20",
    "stat total/40",
    "kills/10",
    *(f"{m} bonus/5" for m in MANEUVERS),
)


class MrCardGameEncoder(Encoder):
    game_id: ClassVar[str] = "mr-card-game"
    TURN_SCALE: ClassVar[float] = 100.0

    def build(self, layout: Layout) -> None:
        n = self.players
        self.n_cards = len(self.game.cards)  # type: ignore[attr-defined]
        zones = ["map", "heap", "trainer", "skill_discard", "being_paid_for", "combat_target"]
        # The supplemental components (issue 10): nemesis pile tops, the quest bosses, the Sorceress
        # on top of the Tower, cards removed from the game, class cards or boards in the middle, and
        # the observer's own face-down Mr. Store cards; per seat its lasting cards and class.
        zones += ["nemesis", "quests", "tower", "removed", "middle", "my_store"]
        for kind in ("display_case", "skills", "escrow", "negative_effects", "class", "store_known"):
            zones += [f"{kind}_{r}" for r in range(n)]
        self.cards = CardZones(
            layout,
            "cards",
            self.n_cards,
            zones,
            "where each visible card with an id is (a zone ending _r belongs to the seat r places after the observer)",
        )
        self.b_card_state = layout.add(
            "card_state", (self.n_cards, 2), "per card: equipped (items), used this turn or active (items, skills)"
        )
        self.stat_index = {k: i for i, k in enumerate(STAT_KINDS)}
        self.stat_zones = ["my_hand", "my_deck", "piles_left"]
        for kind in ("played", "discard", "hand_and_deck"):
            self.stat_zones += [f"{kind}_{r}" for r in range(n)]
        self.stat_zone_index = {z: i for i, z in enumerate(self.stat_zones)}
        self.b_stats = layout.add(
            "stat_cards",
            (len(STAT_KINDS), len(self.stat_zones)),
            "stat cards by kind (" + ", ".join(STAT_KINDS) + "), count/5 per zone: " + ", ".join(self.stat_zones),
        )
        self.b_phase = layout.add("phase", len(PHASES) + 2, "one-hot: " + ", ".join(PHASES) + "; the March; mine")
        self.b_whose = layout.add("whose_turn", n, "one-hot: whose turn it is, relative to the observer")
        self.b_cert = layout.add("certificate", n, "one-hot: who holds the certificate, relative to the observer")
        self.b_rounds = layout.add(
            "rounds", 4, "round/turn limit, skill pile/100, meat pool/100 (1: no limit), sorceress power/50"
        )
        self.b_map = layout.add("map", (9, len(MAP_FEATURES)), "the 3x3 map, row by row: " + ", ".join(MAP_FEATURES))
        self.b_players = layout.add(
            "players", (n, len(PLAYER_FEATURES)), "per seat from the observer: " + ", ".join(PLAYER_FEATURES)
        )
        self.b_combat = layout.add(
            "combat",
            8 + len(MANEUVER_WORDS),
            "a combat: shown, mine, cards played/20, damage/20, power reduction/10, targets beaten/3, "
            "score against the Sorceress/30, needed/30; maneuver one-hot: " + ", ".join(MANEUVER_WORDS),
        )
        self.b_march = layout.add(
            "march", 6, "the March: on, I announced, I am out, seats out/players, my total/30, what I need/30"
        )

    def _stat(self, out: Vector, groups: JSON, zone: str, count: str = "count") -> None:
        if type(groups) is not list:
            return
        col = self.b_stats.start + self.stat_zone_index[zone]
        width = len(self.stat_zones)
        index = self.stat_index
        # Counts add up per kind first (exact integers), then each kind is written once: a numpy
        # read-modify-write per group cost more than the rest of the block.
        totals: dict[int, float] = {}
        for group in groups:
            if type(group) is dict:
                k = index.get(str(group.get("kind")))
                if k is not None:
                    totals[k] = totals.get(k, 0.0) + number(group.get(count), 1.0)
        for k, total in totals.items():
            out[col + k * width] = total / 5.0

    def _state(self, out: Vector, card: JSON) -> None:
        if isinstance(card, dict) and isinstance(card.get("id"), int) and 0 <= card["id"] < self.n_cards:
            base = self.b_card_state.start + 2 * card["id"]
            out[base] = number(card.get("equipped"))
            out[base + 1] = max(number(card.get("used_this_turn")), number(card.get("active")))

    def fill(self, view: Mapping[str, JSON], out: Vector, me: int) -> None:
        n = self.players
        cards = self.cards
        names = view["seat_names"]
        my_name = names[me] if isinstance(names, list) else None

        cards.put_all(out, view.get("heap"), "heap")
        for entry in view.get("trainer") or []:
            # A class trainer shows piles with their top card; the core trainer shows cards.
            cards.put(out, entry.get("top") if isinstance(entry, dict) and "top" in entry else entry, "trainer")
        for spot in view.get("nemesis") or []:
            if isinstance(spot, dict):
                cards.put(out, spot.get("monster"), "nemesis")
        cards.put_all(out, view.get("quests"), "quests")
        cards.put(out, view.get("sorceress"), "tower")
        cards.put_all(out, view.get("removed"), "removed")
        cards.put_all(out, view.get("middle"), "middle")
        cards.put_all(out, view.get("store"), "my_store")
        cards.put_all(out, view.get("skill_discard"), "skill_discard")
        paying = view.get("paying")
        if isinstance(paying, dict):
            cards.put(out, paying.get("card"), "being_paid_for")
        self._stat(out, view.get("hand"), "my_hand")
        self._stat(out, view.get("deck"), "my_deck")
        piles = view.get("stat_piles")
        if isinstance(piles, list):
            self._stat(out, piles, "piles_left", count="left")

        phase = str(view.get("phase") or "")
        p0 = self.b_phase.start
        for i, words in enumerate(PHASES):
            if phase.endswith(words):
                out[p0 + i] = 1.0
        if "March" in phase:
            out[p0 + len(PHASES)] = 1.0
        if my_name and phase.startswith(f"{my_name}'s"):
            out[p0 + len(PHASES) + 1] = 1.0
        whose = seat_of(view, view.get("whose_turn"))
        if whose is not None:
            out[self.b_whose.start + (whose - me) % n] = 1.0
        cert = seat_of(view, view.get("certificate"))
        if cert is not None:
            out[self.b_cert.start + (cert - me) % n] = 1.0
        r0 = self.b_rounds.start
        out[r0] = number(view.get("round")) / (number(view.get("turn_limit"), 1.0) or 1.0)
        out[r0 + 1] = number(view.get("skill_pile")) / 100.0
        pool = view.get("meat_pool")
        out[r0 + 2] = 1.0 if pool is None else number(pool) / 100.0
        sorceress = view.get("sorceress")
        if isinstance(sorceress, dict):
            out[r0 + 3] = number(sorceress.get("power")) / 50.0

        spots = view.get("map")
        if isinstance(spots, list):
            width = len(MAP_FEATURES)
            for spot in spots:
                if not isinstance(spot, dict):
                    continue
                i = int(number(spot.get("row"))) * 3 + int(number(spot.get("column")))
                if not 0 <= i < 9:
                    continue
                base = self.b_map.start + i * width
                monster = spot.get("monster")
                if isinstance(monster, dict):
                    cards.put(out, monster, "map")
                    out[base] = 1.0
                    out[base + 1] = number(monster.get("power")) / 20.0
                    out[base + 2] = number(monster.get("meat")) / 5.0
                    element = monster.get("element")
                    if element in ELEMENTS:
                        out[base + 5 + ELEMENTS.index(element)] = 1.0
                out[base + 3] = number(spot.get("hidden_cards")) / 8.0
                out[base + 4] = number(spot.get("empty"))

        players = view.get("players")
        if isinstance(players, list):
            width = len(PLAYER_FEATURES)
            for row in players:
                if not isinstance(row, dict):
                    continue
                seat = seat_of(view, row.get("seat"))
                if seat is None:
                    continue
                r = (seat - me) % n
                base = self.b_players.start + r * width
                out[base] = number(row.get("meat")) / 20.0
                out[base + 1] = number(row.get("out_of_the_game"))
                out[base + 2] = number(row.get("certificate"))
                out[base + 3] = number(row.get("mojo")) / 10.0
                out[base + 4] = number(row.get("hand_size")) / 10.0
                out[base + 5] = number(row.get("deck_size")) / 20.0
                out[base + 6] = number(row.get("stat_total")) / 40.0
                out[base + 7] = number(row.get("kills")) / 10.0
                bonuses = row.get("bonuses")
                if isinstance(bonuses, dict):
                    for k, m in enumerate(MANEUVERS):
                        out[base + 8 + k] = number(bonuses.get(m)) / 5.0
                cards.put_all(out, row.get("negative_effects"), f"negative_effects_{r}")
                cards.put(out, row.get("class"), f"class_{r}")
                cards.put_all(out, row.get("store_known_face_down"), f"store_known_{r}")
                for kind in ("display_case", "skills", "escrow"):
                    held = row.get(kind)
                    cards.put_all(out, held, f"{kind}_{r}")
                    if isinstance(held, list):
                        for card in held:
                            self._state(out, card)
                self._stat(out, row.get("played"), f"played_{r}")
                self._stat(out, row.get("discard"), f"discard_{r}")
                self._stat(out, row.get("hand_and_deck"), f"hand_and_deck_{r}")

        combat = view.get("combat")
        if isinstance(combat, dict):
            c0 = self.b_combat.start
            out[c0] = 1.0
            out[c0 + 1] = 1.0 if combat.get("player") == my_name else 0.0
            out[c0 + 2] = number(combat.get("cards_played_total")) / 20.0
            out[c0 + 3] = number(combat.get("damage")) / 20.0
            out[c0 + 4] = number(combat.get("power_reduction")) / 10.0
            targets = combat.get("targets")
            if isinstance(targets, list):
                for t in targets:
                    if isinstance(t, dict):
                        cards.put(out, t.get("card"), "combat_target")
                        out[c0 + 5] += number(t.get("beaten")) / 3.0
            sorc = combat.get("against_sorceress")
            if isinstance(sorc, dict):
                out[c0 + 6] = number(sorc.get("score")) / 30.0
                out[c0 + 7] = number(sorc.get("needs")) / 30.0
            maneuver = combat.get("maneuver")
            if maneuver in MANEUVER_WORDS:
                out[c0 + 8 + MANEUVER_WORDS.index(maneuver)] = 1.0

        march = view.get("march")
        if isinstance(march, dict):
            m0 = self.b_march.start
            out[m0] = 1.0
            out[m0 + 1] = 1.0 if march.get("announcer") == my_name else 0.0
            eliminated = march.get("eliminated")
            if isinstance(eliminated, list):
                out[m0 + 2] = 1.0 if my_name in eliminated else 0.0
                out[m0 + 3] = len(eliminated) / n
            totals = march.get("totals")
            if isinstance(totals, list):
                for t in totals:
                    if isinstance(t, dict) and t.get("player") == my_name:
                        out[m0 + 4] = number(t.get("total")) / 30.0
                        out[m0 + 5] = number(t.get("needs")) / 30.0
