"""A greedy Mephisto player a casual player would recognise.

It reads only its seat's view and its legal actions. In the play step it plays cheap cards and uses
favor-making items, then takes the best action: a fight it can win (the lane giving the most souls),
otherwise a summon when favor is low, otherwise loots the most useful card. It pays costs with its
least useful cards, spends just enough favor to win, helps the team-mate who needs favor most, and
damages the opponent's strongest equipment.
"""

from __future__ import annotations

import math
import re
from typing import Any, Final

from cardtable.agents.base import Agent, Observation
from cardtable.engine.actions import Action
from cardtable.engine.errors import OptionError
from cardtable.engine.seats import label_seat
from cardtable.games.mephisto.rules import MephistoState

_BONUS = re.compile(r"\+(\d+) attack")
_ACTIVATE: Final = "Activate ("


def _bonus_of(text: str) -> int:
    m = _BONUS.search(text)
    return int(m.group(1)) if m else 0


def _activation(card: dict[str, Any]) -> str:
    """The words of a card's activated ability ("" if it has none)."""
    text = str(card.get("text", ""))
    return text[text.index(_ACTIVATE) :] if _ACTIVATE in text else ""


def _value(card: dict[str, Any]) -> float:
    """How much a card in hand is worth keeping (higher = keep)."""
    kind = card["type"]
    if kind == "weapon":
        return float(2 + card["attack"] + card["durability"] - card["cost"])
    if kind == "item":
        return float(2 + card["durability"] - card["cost"])
    if kind == "spell":
        return float(2.5 - card["cost"] * 0.5)
    return float(1.5 + card["souls"] * 0.1)  # monsters: summon fodder


class Heuristic(Agent):
    """Greedy Mephisto play. Options: ``aggression`` (0..10, default 5): favor kept back before summoning."""

    name = "heuristic"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        super().__init__(seed)
        unknown = set(options) - {"aggression"}
        if unknown:
            raise OptionError(f"mephisto heuristic: unknown option(s) {', '.join(sorted(unknown))}")
        try:
            self.aggression = int(options.get("aggression", 5))
        except (TypeError, ValueError):
            raise OptionError("mephisto heuristic: aggression must be an integer") from None

    # ------------------------------------------------------------------ helpers on the view
    @staticmethod
    def _me(view: dict[str, Any]) -> dict[str, Any]:
        player: dict[str, Any] = view["players"][view["seat"]]
        return player

    @staticmethod
    def _lane_monsters(view: dict[str, Any], lane: int) -> list[dict[str, Any]]:
        """The monsters in the viewing seat's lane ``lane`` (the dungeon is drawn from its side)."""
        return [
            cell["card"]
            for row in view["dungeon"]["rows"]
            for cell in row
            if cell["lane"] == lane and cell.get("card") and cell["card"]["type"] == "monster"
        ]

    def _weapon_attack(self, view: dict[str, Any], wid: int) -> int:
        for w in self._me(view)["in_play"]:
            if w["id"] == wid:
                return int(w["attack"]) + sum(_bonus_of(s["text"]) for s in w.get("attached", []))
        return 0

    def _best_fight(self, view: dict[str, Any], lanes: list[int]) -> tuple[int, int]:
        """(lane, souls) of the most rewarding winnable fight (souls 0 if none)."""
        me = self._me(view)
        best = (0, 0)
        for lane in lanes:
            power = view["your_lanes"][lane - 1]["your_attack"] + me["favor"]
            monsters = sorted(
                self._lane_monsters(view, lane), key=lambda m: (-m["souls"] / max(1, m["attack"]), m["attack"])
            )
            total = souls = 0
            for m in monsters:
                if total + m["attack"] <= power:
                    total += m["attack"]
                    souls += m["souls"]
            if souls > best[1]:
                best = (lane, souls)
        return best

    # ------------------------------------------------------------------ decisions
    # The open decision, told by the kinds of the legal actions (the view says it in words).
    _DECISIONS = (
        ("discard", "_cheapest_discard"),
        ("monster", "_fight_monsters"),
        ("weapon", "_fight_weapons"),
        ("spend", "_fight_favor"),
        ("take", "_summon_take"),
        ("attach", "_attach"),
        ("target", "_target"),
        ("repair", "_repair"),
        ("damage", "_damage"),
        ("remove", "_solitaire_remove"),
    )

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = obs.view()
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        method = next((m for kind, m in self._DECISIONS if kind in by_kind), "_play")
        choice = getattr(self, method)(view, by_kind)
        if choice is None:
            choice = next((a for a in legal if a.kind != "switch"), legal[0])
        return choice  # type: ignore[no-any-return]

    def _cards(self, view: dict[str, Any]) -> dict[int, dict[str, Any]]:
        out: dict[int, dict[str, Any]] = {}
        for c in view["hand"]:
            out[c["id"]] = c
        for row in view["dungeon"]["rows"]:
            for cell in row:
                if cell.get("card"):
                    out[cell["card"]["id"]] = cell["card"]
        for p in view["players"]:
            for c in p["in_play"]:
                out[c["id"]] = c
        return out

    def _play(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        cards = self._cards(view)
        me = self._me(view)
        hand_size = len(view["hand"])
        lanes = [int(a.args[0]) for a in acts.get("fight", [])]
        lane, souls = self._best_fight(view, lanes)
        # 1. play free cards and cheap equipment (keeping Battle-Fury-like bonuses for a real fight)
        for a in acts.get("play", []):
            c = cards[int(a.args[0])]
            if c["type"] == "spell" and "in your fight this turn" in c["text"] and not souls:
                continue
            if c["type"] == "spell" and "favor" in c["text"] and me["favor"] >= 9:
                continue
            if c["cost"] == 0 or (c["type"] in ("weapon", "item") and c["cost"] <= 1 and hand_size >= 3):
                return a
        # 2. use items/weapons whose activation helps, if it does not waste the weapon before a fight
        for a in acts.get("activate", []):
            c = cards[int(a.args[0])]
            text = _activation(c)
            if "gain" in text and me["favor"] >= 9:
                continue
            if c["type"] == "weapon" and c["durability_left"] <= 1 and souls:
                continue
            if "repair" in text and all(x["durability_left"] >= x["durability"] for x in me["in_play"]):
                continue
            return a
        # 3. the action
        if souls:
            return next(a for a in acts["fight"] if int(a.args[0]) == lane)
        if acts.get("summon") and me["favor"] <= self.aggression + 2:
            return acts["summon"][0]
        loots = acts.get("loot", [])
        if loots:
            return max(loots, key=lambda a: _value(cards[int(a.args[0])]))
        if acts.get("loot-deck"):
            return acts["loot-deck"][0]
        if acts.get("summon"):
            return acts["summon"][0]
        return None

    def _cheapest_discard(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        hand = {c["id"]: c for c in view["hand"]}
        options = [a for a in acts.get("discard", []) if int(a.args[0]) in hand]
        if not options:
            return None
        return min(options, key=lambda a: _value(hand[int(a.args[0])]))

    @staticmethod
    def _fight_lane(view: dict[str, Any]) -> int:
        """The lane of the open fight (the viewing seat is fighting: ``lane N`` in its own numbers)."""
        return int(str(view["fight"]["lane"]).split()[-1])

    def _fight_monsters(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        fight = view["fight"]
        power = view["your_lanes"][self._fight_lane(view) - 1]["your_attack"] + self._me(view)["favor"]
        cards = self._cards(view)
        chosen = int(fight["needed"])
        options = sorted(acts.get("monster", []), key=lambda a: -cards[int(a.args[0])]["souls"])
        for a in options:
            if chosen + cards[int(a.args[0])]["attack"] <= power:
                return a
        if acts.get("done"):
            return acts["done"][0]
        return min(options, key=lambda a: cards[int(a.args[0])]["attack"]) if options else None

    def _fight_weapons(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        fight = view["fight"]
        if fight["attack"] >= fight["needed"] or not acts.get("weapon"):
            return acts["done"][0]
        return max(acts["weapon"], key=lambda a: self._weapon_attack(view, int(a.args[0])))

    def _fight_favor(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        short = int(view["fight"]["favor_to_close_gap"])
        spends = {int(a.args[0]): a for a in acts.get("spend", [])}
        return spends.get(short, spends.get(0))

    def _summon_take(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        cards = self._cards(view)
        return max(acts.get("take", []), key=lambda a: _value(cards[int(a.args[0])]), default=None)

    def _attach(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        cards = self._cards(view)
        return max(
            acts.get("attach", []),
            key=lambda a: (cards[int(a.args[0])]["durability_left"], cards[int(a.args[0])]["attack"]),
            default=None,
        )

    def _target(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        players = view["players"]
        return min(acts.get("target", []), key=lambda a: players[label_seat(str(a.args[0]))]["favor"], default=None)

    def _repair(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        cards = self._cards(view)
        return max(
            acts.get("repair", []),
            key=lambda a: cards[int(a.args[0])]["durability"] - cards[int(a.args[0])]["durability_left"],
            default=None,
        )

    def _damage(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        cards = self._cards(view)

        def worth(a: Action) -> tuple[int, int]:
            c = cards[int(a.args[0])]
            return (int(c["durability_left"] <= 1), int(c.get("attack", 0)) + int(c["durability_left"]))

        return max(acts.get("damage", []), key=worth, default=None)

    def _solitaire_remove(self, view: dict[str, Any], acts: dict[str, list[Action]]) -> Action | None:
        """Solitaire tie: throw away the card worth least to us (for monsters: the fewest souls)."""
        cards = self._cards(view)

        def keep(a: Action) -> float:
            c = cards[int(a.args[0])]
            return float(c["souls"]) if c["type"] == "monster" else _value(c)

        return min(acts.get("remove", []), key=keep, default=None)


# ---------------------------------------------------------------------- search evaluation
# Weights of the position score: soul points decide the game; favor is the first tie-break and the
# fuel of future fights; equipment in play is the second tie-break and future attack; cards in hand
# are options. Tuned by playing ISMCTS with cut rollouts against the heuristic (benchmarks/ladder.py).
_FAVOR_WEIGHT: Final = 0.3
_INPLAY_WEIGHT: Final = 0.5
_HAND_WEIGHT: Final = 0.2
# The score difference that makes a seat ~73% likely to win (logistic scale): a little when the game
# is about to end, more while much of the deck is left to change things.
_SCALE_BASE: Final = 1.5
_SCALE_PER_CARD: Final = 0.06

# ISMCTS cuts its random rollouts after this many decisions and scores them with rollout_rewards:
# about one player's turn; in play against the heuristic (2000 iterations) depth 4 did better than 8,
# and far better than playing random rollouts to the end.
ROLLOUT_DEPTH: Final = 4


def rollout_rewards(state: MephistoState) -> list[float]:
    """Search evaluation of a Mephisto position (full information, e.g. a determinization).

    One value per seat in 0..1 estimating :func:`~cardtable.agents.ismcts.seat_rewards` at the end:
    each side's (seat's or team's) score is soul points plus weighted favor, equipment in play and
    hand size (the M9.3-M9.4 ranking with its tie-breaks, softened); the sides' win chances are a
    softmax of those scores whose temperature shrinks as the deck runs out, and every member of a
    team gets the team's chance. Solitaire: the reward's shape with the current soul points. Reads the
    state's fields only (never mutates it) and takes a few microseconds.
    """
    g = state.game
    n = g.players
    souls = state.soul_pts
    if n == 1:
        s = float(souls[0])
        return [0.75 + 0.25 * s / (1.0 + s)]
    favor = state.favor
    inplay = state.inplay
    hands = state.hands
    own = [
        souls[p] + _FAVOR_WEIGHT * favor[p] + _INPLAY_WEIGHT * len(inplay[p]) + _HAND_WEIGHT * len(hands[p])
        for p in range(n)
    ]
    # Cards still to come before the end: the rest of this pass, plus whole passes still to go.
    left = len(state.deck) + max(0, g.passes - state.runouts - 1) * len(g.cards)
    scale = _SCALE_BASE + _SCALE_PER_CARD * left
    team_of = g.team_of
    sides = g.n_sides
    side_score = [0.0] * sides
    for p in range(n):
        side_score[team_of[p]] += own[p]
    top = max(side_score)
    weights = [math.exp((v - top) / scale) for v in side_score]
    total = sum(weights)
    return [weights[team_of[p]] / total for p in range(n)]


# ---------------------------------------------------------------------- learned evaluation
VALUE_FEATURES = (
    "souls",
    "souls_late",
    "favor",
    "favor_late",
    "equipment",
    "weapon_attack",
    "durability",
    "hand",
    "to_move",
)
"""What :func:`value_features` measures for each seat (``scripts/train_values.py`` fits the weights).
Only for games without teams: a team's chances are its members' together, which this model's
one-softmax-over-seats does not express (team games keep :func:`rollout_rewards`)."""


def value_applies(game: Any) -> bool:
    """The learned value serves games without teams (see :data:`VALUE_FEATURES`)."""
    return not game.teams


def value_features(state: MephistoState) -> list[list[float]]:
    """Per seat: soul points and favor, each also weighted by how much of the game has gone (``_late``:
    the same lead matters more near the end), equipment in play with its weapons' attack and the
    durability left, cards in hand, and whether it is the seat acting now."""
    g = state.game
    n = g.players
    cards = g.cards
    total = (g.passes) * len(cards)
    left = len(state.deck) + max(0, g.passes - state.runouts - 1) * len(cards)
    gone = 1.0 - min(1.0, left / total) if total else 1.0
    out: list[list[float]] = []
    attack, dur = cards.attack, state.dur
    for p in range(n):
        souls = float(state.soul_pts[p])
        favor = float(state.favor[p])
        inplay = state.inplay[p]
        out.append(
            [
                souls,
                souls * gone,
                favor,
                favor * gone,
                float(len(inplay)),
                float(sum(attack[c] for c in inplay)),
                float(sum(dur[c] for c in inplay)),
                float(len(state.hands[p])),
                1.0 if state.actor == p else 0.0,
            ]
        )
    return out
