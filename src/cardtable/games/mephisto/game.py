"""Mephisto on the cardtable engine: the Game (options, card data, the interned action space).

Rules live in :mod:`.rules` (turn flow, actions, effects), views/results in :mod:`.views`, the
dungeon's geometry in :mod:`.board` and the card data in :mod:`.cards`.
"""

from __future__ import annotations

from typing import ClassVar

from cardtable.engine import JSON, Action, Game, Option, OptionError, State
from cardtable.engine.options import CARD_FILE, HOUSE, PLAYERS, READINGS, VARIANTS, OptionValue
from cardtable.engine.seats import label_seat, seat_labels
from cardtable.games.mephisto.board import Board, make_board
from cardtable.games.mephisto.cards import (
    BONUS,
    DRAW,
    GAIN,
    MONSTER,
    REPAIR,
    SPELL,
    YOU,
    CardSet,
    load_cards,
)
from cardtable.games.mephisto.changes import note_starts
from cardtable.games.mephisto.words import card_object

_CARDS_CACHE: dict[tuple[str, tuple[str, ...]], CardSet] = {}


class Mephisto(Game):
    """Mephisto: 1-4 players, 2v2 teams, solitaire, Care Bear; see docs/rules/mephisto.md."""

    id = "mephisto"
    title = "Mephisto"
    OPTIONS = (
        Option(
            "players",
            2,
            "number of players: 1 is Solitaire Mode, 2 a duel, 3-4 a free-for-all on the 3x3 dungeon",
            min=1,
            max=4,
            label="Number of players",
            group=PLAYERS,
        ),
        Option(
            "variant",
            "standard",
            "standard rules, or care-bear (durability removal repairs you instead)",
            choices=("standard", "care-bear"),
            label="Rules",
            group=VARIANTS,
            choice_labels=(
                "Standard rules",
                "Care Bear Variant: removing an opponent's durability repairs your own item or weapon instead",
            ),
        ),
        Option(
            "teams",
            False,
            "4 players in two teams of two (P1+P3 against P2+P4), simultaneous team turns",
            label="4 Player Game (2v2): two teams of two",
            group=PLAYERS,
        ),
        Option(
            "lane-view",
            "mirrored",
            "2 players: mirrored (seated opposite, lane 1 = opponent's lane 3) "
            "or shared (both number the columns alike)",
            choices=("mirrored", "shared"),
            label="How the two players of a duel number the lanes",
            group=READINGS,
            advanced=True,
            choice_labels=(
                "Mirrored: seated opposite, my lane 1 is your lane 3",
                "Shared: both number the lanes alike",
            ),
        ),
        Option(
            "passes",
            0,
            "passes through the deck before the end is triggered (0 = rulebook: 1 for 1-2 players, 2 for 3-4)",
            min=0,
            max=3,
            label="Passes through the Dungeon Deck before the game ends (0: as the rulebook says)",
            group=HOUSE,
            advanced=True,
        ),
        Option(
            "final-round",
            "complete",
            "after the end is triggered: complete the round, end after the current turn, or (literal reading) "
            "end when the player to the left of the starting player finishes a turn",
            choices=("complete", "current-turn", "left-of-start"),
            label="When the game ends once the Dungeon Deck runs out",
            group=READINGS,
            advanced=True,
            choice_labels=(
                "After the round: everyone gets the same number of turns",
                "After the current turn",
                "When the player to the left of the starting player finishes a turn (literal reading)",
            ),
        ),
        Option(
            "solo-refill-effects",
            "as-opponent",
            "solitaire: immediate effects during refill hit you as a non-active player, or are skipped",
            choices=("as-opponent", "skip"),
            label="Solitaire: immediate effects triggered while replacing empty spaces",
            group=READINGS,
            advanced=True,
            choice_labels=("Treated as if it isn't your turn", "Skipped"),
        ),
        Option(
            "corner-cards",
            "dungeon",
            "3-4 players: the two face-down corner cards are dealt from the dungeon deck (out of the game, "
            "unseen) or are spare component cards (all 60 dungeon cards stay in play)",
            choices=("dungeon", "spare"),
            label="3-4 players: the two face-down corner cards",
            group=READINGS,
            advanced=True,
            choice_labels=(
                "Two Dungeon Cards, out of the game unseen",
                "Spare cards: all 60 Dungeon Cards stay in play",
            ),
        ),
        Option(
            "repair-cap",
            True,
            "repair never raises durability above the printed value",
            label="Repair stops at the printed durability",
            group=READINGS,
            advanced=True,
        ),
        Option(
            "cards",
            "",
            "path of a card file to play with (empty = the bundled stand-in set)",
            label="Card file (empty: the bundled stand-in cards)",
            group=CARD_FILE,
            advanced=True,
        ),
    )
    VIEW_KEYS = frozenset(
        {
            "prompt",
            "whose_turn",
            "progress",
            "dungeon",
            "players",
            "your_lanes",
            "fight",
            "resolving",
            "discard_pile",
            "hand",
        }
    )
    CARD_EDITS = True
    CARD_USES = {"play": "played", "summon": "played", "loot": "acquired", "take": "acquired"}
    CONFIGURATIONS: ClassVar[tuple[dict[str, OptionValue], ...]] = (
        {"players": 1},
        {"players": 2},
        {"players": 2, "variant": "care-bear"},
        {"players": 2, "lane-view": "shared"},
        {"players": 3},
        {"players": 4},
        {"players": 4, "teams": True},
        {"players": 4, "teams": True, "variant": "care-bear"},
    )

    cards: CardSet
    board: Board
    NOTE: tuple[tuple[int, ...], ...]
    """``NOTE[zone][seat]``: where that zone's entries of a state's change list start (:mod:`.changes`)."""

    def _check_options(self) -> None:
        o = self.options
        if o["teams"] and self.players != 4:
            raise OptionError(
                f"mephisto: teams need exactly 4 players, got players={self.players}", options=("teams", "players")
            )
        if o["lane-view"] != "mirrored" and self.players != 2:
            raise OptionError("mephisto: lane-view applies only to 2 players", options=("lane-view", "players"))
        if self.players == 1 and o["variant"] == "care-bear":
            raise OptionError(
                "mephisto: solitaire already repairs instead of removing durability; care-bear is for 2-4",
                options=("variant", "players"),
            )
        if self.players < 3 and o["corner-cards"] != "dungeon":
            raise OptionError(
                "mephisto: corner-cards applies only to 3-4 players (the 3x3 dungeon)",
                options=("corner-cards", "players"),
            )
        if self.players != 1 and o["solo-refill-effects"] != "as-opponent":
            raise OptionError(
                "mephisto: solo-refill-effects applies only to solitaire (players=1)",
                options=("solo-refill-effects", "players"),
            )

    def _setup(self) -> None:
        path = str(self.options["cards"]) or None
        key = (path or "", self.card_edits)
        cards = _CARDS_CACHE.get(key)
        if cards is None:
            cards = load_cards(path, self.card_edits)
            if path is None:
                _CARDS_CACHE[key] = cards
        self.cards = cards
        self.card_hash = cards.sha
        self.board = make_board(self.players, str(self.options["lane-view"]))
        o = self.options
        self.solo = self.players == 1
        self.teams = bool(o["teams"])
        self.care_bear = o["variant"] == "care-bear"
        self.repair_cap = bool(o["repair-cap"])
        self.corners_from_deck = self.players >= 3 and o["corner-cards"] == "dungeon"
        self.solo_skip_refill = o["solo-refill-effects"] == "skip"
        passes = int(o["passes"])
        self.passes = passes if passes else (2 if self.players >= 3 else 1)
        self.complete_round = o["final-round"] == "complete"
        self.left_of_start = o["final-round"] == "left-of-start"
        n = self.players
        # Team of each seat and the opponents of each seat (precomputed: used on every effect).
        self.team_of = tuple((s % 2) if self.teams else s for s in range(n))
        self.partner = tuple(((s + 2) % 4) if self.teams else -1 for s in range(n))
        self.opponents = tuple(tuple(o for o in range(n) if self.team_of[o] != self.team_of[s]) for s in range(n))
        self.n_sides = 2 if self.teams else n
        c = self.cards
        self.NOTE = note_starts(n, len(c))

        # A card is "beneficial" (can be cast/activated on a partner in teams) when it has effects on
        # "you" and all of them help.
        def beneficial(effects: tuple[tuple[int, int, int], ...]) -> bool:
            mine = [e for e in effects if e[2] == YOU]
            return bool(mine) and all(e[0] in (GAIN, DRAW, REPAIR, BONUS) for e in mine)

        self.spell_beneficial = tuple(
            c.type[i] == SPELL and not c.attach[i] and beneficial(c.effects[i]) for i in range(len(c))
        )
        self.act_beneficial = tuple(beneficial(c.activate[i]) for i in range(len(c)))
        # Hot-path tables. The extra last entry makes index -1 (an empty dungeon space) read False.
        self.is_monster = (*(t == MONSTER for t in c.type), False)
        self.lootable = (*(t != MONSTER for t in c.type), False)
        self.play_cost = tuple(99 if t == MONSTER else c.cost[i] for i, t in enumerate(c.type))
        self.has_activate = tuple(bool(e) for e in c.activate)
        self.lane_list = tuple(tuple((r, b[r]) for r in (1, 2, 3)) for b in self.board.lane_spaces)
        # Every card as views show it, made once: views copy these instead of rewording cards each time.
        self._card_objects = tuple(card_object(c, i) for i in range(len(c)))

        a = self.actions
        ids = range(len(c))
        for kind in (
            "play",
            "activate",
            "discard",
            "loot",
            "monster",
            "weapon",
            "summon",
            "take",
            "attach",
            "repair",
            "damage",
            "remove",
        ):
            a.declare(kind, "card")
        a.declare("loot-deck")
        a.declare("fight", "lane")
        a.declare("done")
        a.declare("spend", "favor")
        a.declare("target", "seat")
        a.declare("switch")
        self.PLAY = a.grid("play", ids)
        self.ACT = a.grid("activate", ids)
        self.DISCARD = a.grid("discard", ids)
        self.LOOT = a.grid("loot", ids)
        self.LOOT_DECK = a.add("loot-deck")
        lanes = a.grid("fight", (1, 2, 3))
        self.FIGHT = [lanes[0], *lanes]  # indexed by lane 1..3 (index 0 unused)
        self.MON = a.grid("monster", ids)
        self.WPN = a.grid("weapon", ids)
        self.DONE = a.add("done")
        self.SPEND = a.grid("spend", range(11))
        self.SUMMON = a.grid("summon", ids)
        self.TAKE = a.grid("take", ids)
        self.ATTACH = a.grid("attach", ids)
        self.TARGET = a.grid("target", seat_labels(n))
        self.REPAIR = a.grid("repair", ids)
        self.DAMAGE = a.grid("damage", ids)
        self.REMOVE = a.grid("remove", ids)
        self.SWITCH = a.add("switch")

    def new_state(self, seed: int, log: bool) -> State:
        from cardtable.games.mephisto.rules import MephistoState

        return MephistoState(self, seed, log)

    def card_json(self, card: int) -> dict[str, JSON]:
        """``card`` as a view shows it (a fresh dict): id, name, type, text in words, printed numbers."""
        return dict(self._card_objects[card])

    def card_name(self, card: int) -> str:
        return f"{self.cards.names[card]} (card {card})"

    def describe_action(self, action: Action) -> str:
        """A human description naming the card ("play Greataxe (card 25)")."""
        kind = action.kind
        if not action.args:
            return {
                "loot-deck": "loot the top card of the dungeon deck",
                "done": "done (stop choosing; in the play step: pass, no action is possible)",
                "switch": "hand the decision to your partner",
            }.get(kind, kind)
        value = action.args[0]
        if kind == "fight":
            return f"fight in lane {value}"
        if kind == "spend":
            return f"spend {value} favor"
        if kind == "target":
            seat = label_seat(str(value))
            return f"resolve it for {self.seat_name(seat)}"
        assert isinstance(value, int)
        verb = {
            "play": "play",
            "activate": "activate",
            "discard": "discard",
            "loot": "loot",
            "monster": "fight the monster",
            "weapon": "fight with",
            "summon": "summon",
            "take": "take from the dungeon",
            "attach": "attach the spell to",
            "repair": "repair",
            "damage": "remove durability from",
            "remove": "discard from the dungeon",
        }[kind]
        return f"{verb} {self.card_name(value)}"
