"""Mephisto: the view of one seat as a vector.

Reads the keys of ``cardtable.games.mephisto.views``: where every visible card is (a ``cards x zones``
grid; other seats' zones in seat order from the observer), the dungeon as the seat sees it (rows far
to near, lanes 1-3: a grid of cells), every player's favor, soul points and hand size, the seat's own
lanes (monsters' attack against the attack it would bring), the fight in progress, the state of cards
in play (durability left, used this turn) and progress through the deck. Hidden cards (other hands
except cards known to be there, the deck, face-down corner cards) appear only as counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from cardtable.engine.game import JSON
from cardtable.rl.encode import Encoder, Layout, Vector
from cardtable.rl.encode.tools import CardZones, number, seat_of

TYPES = ("monster", "weapon", "spell", "item")
CELL_FEATURES = (
    "card",
    "monster",
    "weapon",
    "spell",
    "item",
    "attack/12",
    "souls/4",
    "cost/3",
    "durability/4",
    "range/3",
    "face-down corner",
    "the deck",
)
PLAYER_FEATURES = (
    "favor/20",
    "soul points/20",
    "cards in hand/10",
    "attack bonus this turn/5",
    "cards in play/5",
    "souls taken/10",
    "team-mate of the observer",
)


class MephistoEncoder(Encoder):
    game_id: ClassVar[str] = "mephisto"
    TURN_SCALE: ClassVar[float] = 40.0

    def build(self, layout: Layout) -> None:
        game = self.game
        n = self.players
        self.n_cards = len(game.cards.names)  # type: ignore[attr-defined]
        zones = ["my_hand", *[f"hand_known_{r}" for r in range(1, n)]]
        zones += [f"in_play_{r}" for r in range(n)] + [f"attached_{r}" for r in range(n)]
        zones += [f"souls_{r}" for r in range(n)]
        zones += ["dungeon", "discard", "fight_monsters", "fight_weapons", "resolving"]
        self.cards = CardZones(
            layout,
            "cards",
            self.n_cards,
            zones,
            "where each visible card is, by card id (a zone ending _r belongs to the seat r places after the observer)",
        )
        # Zone names per relative seat, made once (not an f-string per seat per observation).
        self._zone_known = ["", *[f"hand_known_{r}" for r in range(1, n)]]
        self._zone_in_play = [f"in_play_{r}" for r in range(n)]
        self._zone_attached = [f"attached_{r}" for r in range(n)]
        self._zone_souls = [f"souls_{r}" for r in range(n)]
        self._type_at = {kind: 1 + i for i, kind in enumerate(TYPES)}
        self.b_card_state = layout.add(
            "card_state", (self.n_cards, 2), "for each card in play: durability left/4, activated this turn"
        )
        self.b_dungeon = layout.add(
            "dungeon",
            (3, 3, len(CELL_FEATURES)),
            "the dungeon from the observer's side: rows far to near (the nearest row last; two rows with "
            "two players), lanes 1-3; per cell: " + ", ".join(CELL_FEATURES),
        )
        self.b_players = layout.add(
            "players", (n, len(PLAYER_FEATURES)), "per seat from the observer: " + ", ".join(PLAYER_FEATURES)
        )
        self.b_lanes = layout.add(
            "my_lanes",
            (3, 3),
            "the observer's lanes 1-3: monsters' attack/20, the attack it would bring/20, favor to win all/20",
        )
        self.b_fight = layout.add(
            "fight",
            7,
            "a fight in progress: shown, the observer fights, fighter is seat r/players, needed/20, attack/20, "
            "favor to close the gap/20, fighter's favor/20",
        )
        self.b_progress = layout.add(
            "progress", 3, "deck/cards, passes through the deck done/passes, the end is triggered"
        )

    def fill(self, view: Mapping[str, JSON], out: Vector, me: int) -> None:
        n = self.players
        cards = self.cards
        cards.put_all(out, view.get("hand"), "my_hand")
        cards.put_all(out, view.get("discard_pile"), "discard")
        state_at = self.b_card_state.start

        players = view.get("players")
        my_team = None
        if isinstance(players, list) and 0 <= me < len(players) and isinstance(players[me], dict):
            my_team = players[me].get("team")
        if isinstance(players, list):
            p0 = self.b_players.start
            width = len(PLAYER_FEATURES)
            for seat, row in enumerate(players[:n]):
                if not isinstance(row, dict):
                    continue
                r = (seat - me) % n
                base = p0 + r * width
                in_play = row.get("in_play")
                souls = row.get("souls")
                out[base] = number(row.get("favor")) / 20.0
                out[base + 1] = number(row.get("soul_points")) / 20.0
                out[base + 2] = number(row.get("cards_in_hand")) / 10.0
                out[base + 3] = number(row.get("attack_bonus_this_turn")) / 5.0
                out[base + 4] = (len(in_play) if isinstance(in_play, list) else 0) / 5.0
                out[base + 5] = (len(souls) if isinstance(souls, list) else 0) / 10.0
                out[base + 6] = 1.0 if my_team is not None and row.get("team") == my_team and r else 0.0
                if r:
                    cards.put_all(out, row.get("known_in_hand"), self._zone_known[r])
                cards.put_all(out, souls, self._zone_souls[r])
                if isinstance(in_play, list):
                    zone_in_play, zone_attached = self._zone_in_play[r], self._zone_attached[r]
                    for card in in_play:
                        if not isinstance(card, dict):
                            continue
                        cards.put(out, card, zone_in_play)
                        cards.put_all(out, card.get("attached"), zone_attached)
                        cid = card.get("id")
                        if isinstance(cid, int) and 0 <= cid < self.n_cards:
                            out[state_at + 2 * cid] = number(card.get("durability_left")) / 4.0
                            out[state_at + 2 * cid + 1] = number(card.get("activated_this_turn"))

        dungeon = view.get("dungeon")
        rows = dungeon.get("rows") if isinstance(dungeon, dict) else None
        if isinstance(rows, list):
            width = len(CELL_FEATURES)
            type_at = self._type_at
            top = 3 - len(rows)  # two rows (two players) fill the middle and near rows
            for i, row in enumerate(rows[:3]):
                if not isinstance(row, list):
                    continue
                for j, cell in enumerate(row[:3]):
                    if not isinstance(cell, dict):
                        continue
                    base = self.b_dungeon.start + ((top + i) * 3 + j) * width
                    if "face_down" in cell:
                        out[base + 10] = 1.0
                    if "deck" in cell:
                        out[base + 11] = 1.0
                    card = cell.get("card")
                    if isinstance(card, dict):
                        cards.put(out, card, "dungeon")
                        out[base] = 1.0
                        kind = card.get("type")
                        at = type_at.get(kind) if type(kind) is str else None
                        if at is not None:
                            out[base + at] = 1.0
                        out[base + 5] = number(card.get("attack")) / 12.0
                        out[base + 6] = number(card.get("souls")) / 4.0
                        out[base + 7] = number(card.get("cost")) / 3.0
                        out[base + 8] = number(card.get("durability")) / 4.0
                        out[base + 9] = number(card.get("range")) / 3.0

        lanes = view.get("your_lanes")
        if isinstance(lanes, list):
            for lane in lanes:
                if not isinstance(lane, dict):
                    continue
                k = int(number(lane.get("lane"))) - 1
                if 0 <= k < 3:
                    base = self.b_lanes.start + 3 * k
                    out[base] = number(lane.get("monster_attack")) / 20.0
                    out[base + 1] = number(lane.get("your_attack")) / 20.0
                    out[base + 2] = number(lane.get("favor_to_win_all")) / 20.0

        fight = view.get("fight")
        if isinstance(fight, dict):
            f = self.b_fight.start
            fighter = seat_of(view, fight.get("fighter"))
            out[f] = 1.0
            if fighter is not None:
                out[f + 1] = 1.0 if fighter == me else 0.0
                out[f + 2] = ((fighter - me) % n) / n
            out[f + 3] = number(fight.get("needed")) / 20.0
            out[f + 4] = number(fight.get("attack")) / 20.0
            out[f + 5] = number(fight.get("favor_to_close_gap")) / 20.0
            out[f + 6] = number(fight.get("fighter_favor")) / 20.0
            cards.put_all(out, fight.get("monsters"), "fight_monsters")
            cards.put_all(out, fight.get("weapons"), "fight_weapons")

        resolving = view.get("resolving")
        if isinstance(resolving, dict):
            cards.put(out, resolving.get("card"), "resolving")

        progress = view.get("progress")
        if isinstance(progress, dict):
            g = self.b_progress.start
            out[g] = number(progress.get("deck")) / self.n_cards
            passes = str(progress.get("pass_through_deck", ""))
            done, _, total = passes.partition(" of ")
            if done.isdigit() and total.isdigit() and int(total):
                out[g + 1] = (int(done) - 1) / int(total)
            out[g + 2] = 1.0 if str(progress.get("end", "")).startswith("triggered") else 0.0
