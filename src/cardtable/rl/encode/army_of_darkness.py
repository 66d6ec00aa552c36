"""Army of Darkness (Rules of Kalle): the view of one seat as a vector.

Reads the keys of ``cardtable.games.army_of_darkness.view``: where every visible card is (a
``cards x zones`` grid: the seat's hand, each seat's tabled monsters, allies and items, in seat order
from the observer, the cards known to be in other hands, the discard pile, the cards the Rules of
Kalle removed, the card being played or coming back), each seat's side and counts, whose turn it is
and the step of the turn. Other hands and the deck appear only as counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from cardtable.engine.game import JSON
from cardtable.rl.encode import Encoder, Layout, Vector
from cardtable.rl.encode.tools import CardZones, number

PLAYER_FEATURES = (
    "good",
    "evil",
    "cards in hand/10",
    "monsters/5",
    "allies/5",
    "items/5",
    "holds the Necronomicon",
    "side switches/5",
    "about to switch (no hand cards)",
)
STEPS = 4


class ArmyOfDarknessEncoder(Encoder):
    game_id: ClassVar[str] = "army-of-darkness"
    TURN_SCALE: ClassVar[float] = 400.0

    def build(self, layout: Layout) -> None:
        n = self.players
        self.n_cards = len(self.game.cards)  # type: ignore[attr-defined]
        zones = ["my_hand", *[f"known_in_hand_{r}" for r in range(1, n)]]
        for kind in ("monsters", "allies", "items"):
            zones += [f"{kind}_{r}" for r in range(n)]
        zones += ["discard", "removed", "being_played", "returning"]
        self.cards = CardZones(
            layout,
            "cards",
            self.n_cards,
            zones,
            "where each visible card is, by card id (a zone ending _r belongs to the seat r places after the observer)",
        )
        self.b_turn_of = layout.add("turn_of", n, "one-hot: whose turn it is, relative to the observer")
        self.b_step = layout.add("step", STEPS, "one-hot: the rulebook's step of the turn (1-4)")
        self.b_players = layout.add(
            "players", (n, len(PLAYER_FEATURES)), "per seat from the observer: " + ", ".join(PLAYER_FEATURES)
        )
        self.b_deck = layout.add("deck", 1, "cards left in the deck / cards")

    def fill(self, view: Mapping[str, JSON], out: Vector, me: int) -> None:
        n = self.players
        cards = self.cards
        cards.put_all(out, view.get("hand"), "my_hand")
        cards.put_all(out, view.get("discard"), "discard")
        cards.put_all(out, view.get("removed"), "removed")
        cards.put(out, view.get("being_played"), "being_played")
        cards.put(out, view.get("returning"), "returning")
        turn_of = view.get("turn_of")
        if isinstance(turn_of, int) and not isinstance(turn_of, bool) and 0 <= turn_of < n:
            out[self.b_turn_of.start + (turn_of - me) % n] = 1.0
        step = view.get("step")
        if isinstance(step, str) and step.startswith("step ") and step[5:6].isdigit():
            k = int(step[5]) - 1
            if 0 <= k < STEPS:
                out[self.b_step.start + k] = 1.0
        out[self.b_deck.start] = number(view.get("deck_size")) / self.n_cards

        players = view.get("players")
        if not isinstance(players, list):
            return
        width = len(PLAYER_FEATURES)
        for row in players:
            if not isinstance(row, dict):
                continue
            seat = row.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
                continue
            r = (seat - me) % n
            base = self.b_players.start + r * width
            side = row.get("side")
            out[base] = 1.0 if side == "good" else 0.0
            out[base + 1] = 1.0 if side == "evil" else 0.0
            out[base + 2] = number(row.get("hand_size")) / 10.0
            for k, kind in enumerate(("monsters", "allies", "items")):
                tabled = row.get(kind)
                if isinstance(tabled, list):
                    out[base + 3 + k] = len(tabled) / 5.0
                    cards.put_all(out, tabled, f"{kind}_{r}")
                    if kind == "items" and any(isinstance(c, dict) and c.get("type") == "necronomicon" for c in tabled):
                        out[base + 6] = 1.0
            out[base + 7] = number(row.get("switches")) / 5.0
            out[base + 8] = 1.0 if row.get("switching") else 0.0
            if r:
                cards.put_all(out, row.get("known_in_hand"), f"known_in_hand_{r}")
