"""Mr. Card Game on the cardtable engine: options, card data, and the action space.

Where each rule lives (see ``docs/rules/mr-card-game.md`` for the clauses and their tests):

* :mod:`.setup` — setting up the table (K2, O4);
* :mod:`.noncombat` — the non-combat actions A-G (K4, O7, O8);
* :mod:`.mojo` — the mojo pool, paying costs, buffs (K5, K6);
* :mod:`.combat` — the combat steps, scoring against each target, loot (K7, K15);
* :mod:`.resolve` — what each instant effect does; :mod:`.modifiers` — what each lasting effect does;
* :mod:`.endturn` — the end of a turn, drawing and rollover (K8, K9, K13);
* :mod:`.mapupdate` — the Heap, the location piles and the map update (K10, K11);
* :mod:`.trainer` — the skill trainer (K12);
* :mod:`.march` — the round end, the March poll and the March on the Tower (K3, K14);
* :mod:`.flow` — the decision machine that runs the steps in order;
* :mod:`.state` — the state (fields, clone, determinize, known cards);
* :mod:`.views` — what each seat sees, the prompt, the god view and the result;
* :mod:`.cards` / :mod:`.effects` — the card schema, the loader and the effect vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Final

from cardtable.engine import Action, Game, Option, OptionError, OptionValue
from cardtable.engine.errors import CardDataError
from cardtable.engine.options import CARD_FILE, HOUSE, PLAYERS, READINGS, SUPPLEMENTAL, VARIANTS
from cardtable.games.mr_card_game import modifiers
from cardtable.games.mr_card_game import state as state_module
from cardtable.games.mr_card_game.cards import E_NONCOMBAT, STAT_KINDS, CardSet, load_cards
from cardtable.games.mr_card_game.codes import MAX_X
from cardtable.games.mr_card_game.effects import (
    MANEUVER_STAT,
    MANEUVER_WORDS,
    MANEUVERS,
    MONSTER_POWER,
    STAT_TYPES,
    STAT_WORDS,
)

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState

DEFAULT_TURN_LIMIT: Final = 100
TURN_LIMIT_MAX: Final = 1000
"""The most rounds ``turn-limit`` may name: ten times the default. Random play ends a 5-player game in
about 22 rounds; 1,000 rounds of 5 players (some 50,000 decisions) cuts off no real game and keeps every
record bounded."""
MEAT_SUPPLY_MAX: Final = 1000
"""The largest finite meat pool: far more than a box holds (the five starting players hold 35), and a
pool this large never runs dry in a game, so anything larger is the same as unlimited (0)."""
_CARDS_CACHE: dict[tuple[str, tuple[str, ...]], CardSet] = {}


def by_values(actions: Sequence[Action], descending: bool) -> tuple[tuple[Action, ...], ...]:
    """For each set of stat values as a 4-bit mask (bit v: value v + 1), the actions of those values
    (``actions[v]``), in increasing or decreasing value: what a hand holding those values of one stat
    type is offered."""
    order = (3, 2, 1, 0) if descending else (0, 1, 2, 3)
    return tuple(tuple(actions[v] for v in order if nib >> v & 1) for nib in range(16))


def explain_combination(kind: str, args: tuple[object, ...]) -> str | None:
    """Why a ``maneuver`` or ``upgrade`` whose values are each valid names no action: the rule, in
    words (the engine's ``ActionSpace.explain``)."""
    if kind == "maneuver" and args[0] in MANEUVERS and args[1] in STAT_KINDS:
        m = MANEUVERS.index(str(args[0]))
        wanted = STAT_WORDS[MANEUVER_STAT[m]]
        got = STAT_WORDS[STAT_TYPES.index(str(args[1])[:3])]
        article = "an" if MANEUVER_WORDS[m][0] in "AEIOU" else "a"
        return f"{article} {MANEUVER_WORDS[m]} is played with {wanted} cards, and {args[1]} is a {got} card (K7.2)"
    if kind == "upgrade" and args[0] in STAT_KINDS and args[1] in STAT_KINDS:
        return (
            "at rollover a card is upgraded to the next value of its stat (mus1 to mus2, never above 4) "
            "or exchanged for a card of the same value of another stat (mus2 to mys2) (K9.3)"
        )
    return None


def starting_meat(position: int) -> int:
    """K2.11: 5 meat, plus one for each player who takes a turn before you."""
    return 5 + position


class MrCardGame(Game):
    """Mr. Card Game (the Kingdom of Loathing card game), core rules, 2-5 players.

    ``cardtable.load("mr-card-game", players=3, sorceress="25")``; see ``docs/rules/mr-card-game.md``.
    """

    id = "mr-card-game"
    title = "Mr. Card Game"
    OPTIONS = (
        Option(
            "players",
            2,
            "number of players (the fifth plays the Noblesse Oblige newbie set)",
            min=2,
            max=5,
            label="Number of players",
            group=PLAYERS,
        ),
        Option(
            "sorceress",
            "20",
            "the Naughty Sorceress: her 20 side (recommended for a first game), her 25 side, or a foil card "
            "of the first, second or third form (its global effect changes the kingdom)",
            choices=("20", "25", "foil-1", "foil-2", "foil-3"),
            label="The Naughty Sorceress",
            group=VARIANTS,
            choice_labels=(
                "Her 20 power side (a first game)",
                "Her 25 power side",
                "A first-form foil: power 20 and a global effect",
                "A second-form foil: power 25 and a global effect",
                "The third-form foil: power 30",
            ),
        ),
        Option(
            "first-player",
            "random",
            "who holds the Certificate of Participation and goes first: random, or P1..P5",
            choices=("random", "P1", "P2", "P3", "P4", "P5"),
            label="Who holds the Certificate of Participation (goes first)",
            group=PLAYERS,
            choice_labels=("Drawn at random", "P1", "P2", "P3", "P4", "P5"),
        ),
        Option(
            "turn-limit",
            DEFAULT_TURN_LIMIT,
            "stop an unfinished game after this many rounds (result reason 'turn-limit', truncated)",
            min=1,
            max=TURN_LIMIT_MAX,
            label="Stop an unfinished game after this many rounds",
            group=HOUSE,
            advanced=True,
        ),
        Option(
            "evasion-adds-damage",
            False,
            "an Evasion score also adds the damage of combat items and skills (the printed Evasion line does not)",
            label="Evasion also adds the damage of combat items and skills",
            group=READINGS,
            advanced=True,
        ),
        Option(
            "new-equipment",
            "equip-if-free",
            "newly acquired equipment: equipped at once if its slot is free, or always unequipped",
            choices=("equip-if-free", "unequipped"),
            label="Newly acquired equipment",
            group=READINGS,
            advanced=True,
            choice_labels=("Equipped at once if its slot is free", "Arrives unequipped (turned sideways)"),
        ),
        Option(
            "equipment-repeats",
            "refused",
            "an equip or unequip that brings back an arrangement of equipment held since the player's last "
            "other action: refused (so a turn cannot cycle), or allowed as records made before this reading had it",
            choices=("refused", "allowed"),
            label="Going back to an earlier arrangement of equipment",
            group=READINGS,
            advanced=True,
            choice_labels=(
                "Refused: no turn can cycle through equip and unequip",
                "Allowed (a turn may never end; for records made before this reading)",
            ),
            legacy="allowed",
        ),
        Option(
            "block-discards",
            "completing",
            "which cards a hardcore block offers next: only those that can still complete the block, or "
            "any card of the type, as records made before this reading had it",
            choices=("completing", "any"),
            label="Cards offered towards a hardcore block",
            group=READINGS,
            advanced=True,
            choice_labels=(
                "Only a card that can still complete the block",
                "Any card of the type (a block may fall short; for records made before this reading)",
            ),
            legacy="any",
        ),
        Option(
            "use-consumes",
            "all",
            "which used items go to escrow and the Heap: every used item, or only food, booze and combat "
            "items (equipment abilities then work once per turn)",
            choices=("all", "consumables"),
            label="Which used items go to escrow and then the Heap",
            group=READINGS,
            advanced=True,
            choice_labels=(
                "Every used item",
                "Only food, booze and combat items (equipment abilities work once a turn)",
            ),
        ),
        Option(
            "skill-pile-empty",
            "reshuffle",
            "when the skill draw pile runs out: shuffle the skill discard pile into a new one, "
            "or let the trainer shrink",
            choices=("reshuffle", "shrink"),
            label="When the class skill draw pile runs out",
            group=READINGS,
            advanced=True,
            choice_labels=("Shuffle the skill discard pile into a new one", "The Trainer Area gets shorter"),
        ),
        Option(
            "march-winner",
            "best-qualifier",
            "who wins the March: the highest total among those reaching the Sorceress, or only the single "
            "highest total if it reaches her",
            choices=("best-qualifier", "top-scorer"),
            label="Who wins the March on the Tower",
            group=READINGS,
            advanced=True,
            choice_labels=(
                "The highest total among those who defeat the Sorceress",
                "Only the single highest total, if it defeats her",
            ),
        ),
        Option(
            "march-tie",
            "shared",
            "equal winning totals at the March: all share the win, the announcer wins if tied (else the first "
            "in combat order), or the first in combat order wins",
            choices=("shared", "announcer", "first-in-order"),
            label="What happens when the March ties",
            group=READINGS,
            advanced=True,
            choice_labels=(
                "The tied players share the win",
                "The announcer wins if tied (else the first in combat order)",
                "The first in combat order wins",
            ),
        ),
        Option(
            "meat-supply",
            0,
            "meat tokens in the game (0: unlimited; otherwise gains stop when the pool is empty)",
            min=0,
            max=MEAT_SUPPLY_MAX,
            label="Meat tokens in the common pool (0: unlimited)",
            group=READINGS,
            advanced=True,
        ),
        Option(
            "cards",
            "",
            "path of a card file in the cards.toml format (empty: the bundled stand-in set)",
            label="Card file (empty: the bundled stand-in cards)",
            group=CARD_FILE,
            advanced=True,
        ),
        # -- the supplemental rules (issue 10): each a component or optional rule, combinable --
        Option(
            "nemesis",
            False,
            "play with the nemesis/epic item cards in their four nemesis location piles",
            label="Nemesis / epic item cards",
            group=SUPPLEMENTAL,
            advanced=True,
        ),
        Option(
            "bosses",
            False,
            "play with the quest boss/negative effect cards (a boss combat is always hardcore)",
            label="Quest boss / negative effect cards",
            group=SUPPLEMENTAL,
            advanced=True,
        ),
        Option(
            "quests-before-march",
            False,
            "nobody may announce a March on the Tower until the quest boss pile is empty (needs bosses)",
            label="Every quest before the March: no March while a boss remains (with the bosses)",
            group=SUPPLEMENTAL,
            advanced=True,
        ),
        Option(
            "hardcore",
            "bosses",
            "which combats are hardcore: boss combats only, or every combat (each monster and nemesis "
            "counter-attacks with its stat drop)",
            choices=("bosses", "all"),
            label="Hardcore Combat",
            group=SUPPLEMENTAL,
            advanced=True,
            choice_labels=("Boss combats only", "Every combat: monsters and nemeses counter-attack too"),
        ),
        Option(
            "ascension",
            False,
            "ascension: defeat the Sorceress three times (a Tower of foils; no March), resetting your "
            "character after each run",
            label="Ascension: defeat the Sorceress three times",
            group=SUPPLEMENTAL,
            advanced=True,
        ),
        Option(
            "boss-reset",
            "removed-only",
            "ascension with bosses, once every boss is beaten: return the boss cards removed from the game, "
            "or every boss card (negative effects in display cases too)",
            choices=("removed-only", "all"),
            label="Ascension with bosses, once every boss is beaten, return",
            group=SUPPLEMENTAL,
            advanced=True,
            choice_labels=(
                "The boss cards removed from the game",
                "Every boss card (negative effects in Display Cases too)",
            ),
        ),
        Option(
            "nemesis-rebuild",
            "heap",
            "ascension with nemeses: an emptied nemesis pile is rebuilt from its epic items in the Heap, or "
            "from all of its cards (display cases included)",
            choices=("heap", "all"),
            label="Ascension with nemeses: an emptied nemesis pile is rebuilt from",
            group=SUPPLEMENTAL,
            advanced=True,
            choice_labels=("Its epic items in the Heap", "All of its cards (Display Cases included)"),
        ),
        Option(
            "mr-store",
            False,
            "Mr. Store items: three dealt face down to each player",
            label="Mr. Store items: three face down to each player",
            group=SUPPLEMENTAL,
            advanced=True,
        ),
        Option(
            "store-filter",
            True,
            "Mr. Store: leave out the items that require a component not in play (Boris' Helm without familiars)",
            label="Mr. Store: leave out items that need a component not in play",
            group=SUPPLEMENTAL,
            advanced=True,
        ),
        Option(
            "store-used",
            "facedown",
            "Mr. Store: a used Mr. Store item goes back face down to its owner, or leaves the game",
            choices=("facedown", "removed"),
            label="Mr. Store: a used Mr. Store item",
            group=SUPPLEMENTAL,
            advanced=True,
            choice_labels=("Goes back face down to its owner", "Leaves the game"),
        ),
        Option(
            "classes",
            "none",
            "character classes: none, class cards (a passive ability) or class boards (an ability and three "
            "starting equipment on the class side)",
            choices=("none", "cards", "boards"),
            label="Character classes",
            group=SUPPLEMENTAL,
            advanced=True,
            choice_labels=(
                "None",
                "Character Class Cards (a passive ability)",
                "Character Class Boards (an ability and three starting equipment)",
            ),
        ),
        Option(
            "class-trainer",
            False,
            "class-based skills: the trainer is six class piles, each top face up",
            label="Class-based skills: six class trainer piles",
            group=SUPPLEMENTAL,
            advanced=True,
        ),
        Option(
            "playmat",
            False,
            "lay the piles out on the Kingdom of Loathing map playmat (positions only)",
            label="Kingdom of Loathing Map Playmat",
            group=SUPPLEMENTAL,
            advanced=True,
        ),
    )
    CARD_EDITS = True
    CARD_USES: ClassVar[Mapping[str, str]] = {
        "train": "acquired",
        "kill": "acquired",
        "dive": "acquired",
        "use": "played",
        "skill": "played",
        "buff": "played",
    }
    CONFIGURATIONS: ClassVar[tuple[Mapping[str, OptionValue], ...]] = (
        # The core game, and the core's ambiguity options each carrying one supplemental option.
        {"players": 2},
        {"players": 3, "nemesis": True},
        {
            "players": 4,
            "sorceress": "25",
            "first-player": "P4",
            "march-tie": "announcer",
            "new-equipment": "unequipped",
            "bosses": True,
        },
        {
            "players": 5,
            "first-player": "P5",
            "meat-supply": 100,
            "march-winner": "top-scorer",
            "march-tie": "first-in-order",
            "mr-store": True,
        },
        {
            "players": 2,
            "first-player": "P2",
            "evasion-adds-damage": True,
            "use-consumes": "consumables",
            "skill-pile-empty": "shrink",
            "turn-limit": 12,
            "hardcore": "all",
        },
        # Each supplemental part (nearly) alone.
        {"players": 3, "sorceress": "foil-1"},
        {"players": 3, "ascension": True, "turn-limit": 100},
        {"players": 4, "classes": "cards"},
        {"players": 3, "first-player": "P3", "classes": "boards", "playmat": True},
        {"players": 4, "first-player": "P1", "class-trainer": True, "sorceress": "foil-2"},
        # Combinations: every other value, then everything at once.
        {
            "players": 3,
            "bosses": True,
            "quests-before-march": True,
            "hardcore": "all",
            "sorceress": "foil-3",
            "mr-store": True,
            "store-filter": False,
            "store-used": "removed",
        },
        {
            "players": 5,
            "turn-limit": 100,
            "nemesis": True,
            "bosses": True,
            "hardcore": "all",
            "ascension": True,
            "boss-reset": "all",
            "nemesis-rebuild": "all",
            "mr-store": True,
            "classes": "boards",
            "class-trainer": True,
            "playmat": True,
        },
    )
    VIEW_KEYS: ClassVar[frozenset[str]] = frozenset(
        {
            "prompt",
            "round",
            "turn_limit",
            "whose_turn",
            "certificate",
            "phase",
            "map",
            "sorceress",
            "heap",
            "trainer",
            "skill_pile",
            "skill_discard",
            "stat_piles",
            "meat_pool",
            "players",
            "hand",
            "deck",
            "combat",
            "paying",
            "march",
            "result",
            "nemesis",
            "quests",
            "trainer_kind",
            "store",
            "middle",
            "removed",
            "layout",
        }
    )
    """The top-level keys this game adds to a view (the engine adds game, seat, turn, ...)."""

    cards: CardSet

    def _check_options(self) -> None:
        o = self.options
        path = str(o["cards"])
        key = (path, self.card_edits)
        cached = _CARDS_CACHE.get(key)
        if cached is None:
            try:
                cached = load_cards(path or None, self.card_edits)
            except CardDataError as exc:
                raise OptionError(f"{self.id}: option 'cards': {exc}", option="cards") from exc
            _CARDS_CACHE[key] = cached
        self.cards = cached
        n = self.players
        fp = str(o["first-player"])
        if fp != "random" and int(fp[1:]) > n:
            raise OptionError(
                f"{self.id}: first-player={fp} names no seat of a {n}-player game (P1..P{n})",
                options=("first-player", "players"),
            )
        supply = int(o["meat-supply"])
        need = sum(starting_meat(i) for i in range(n))
        if supply and supply < need:
            raise OptionError(
                f"{self.id}: meat-supply={supply} is less than the {need} meat the {n} players start with; "
                "use 0 for an unlimited supply",
                options=("meat-supply", "players"),
            )
        c = self.cards
        self._check_supplement(n)
        if len(c.newbie) < n:
            raise OptionError(
                f"{self.id}: {n} players need {n} newbie gear sets; the card file {c.path} has {len(c.newbie)}",
                options=("players", "cards"),
            )
        for t, name in enumerate(("mus1", "mys1", "mox1")):
            have = len(c.stat_piles[t * 4])
            if have < 4 * n:
                raise OptionError(
                    f"{self.id}: {n} players need {4 * n} {name} cards to start; the card file has {have}",
                    options=("players", "cards"),
                )

    def _check_supplement(self, n: int) -> None:
        """Option combinations the rules exclude, sub-options without their parent, and components the
        card file does not have."""
        o = self.options
        c = self.cards
        gid = self.id
        if o["quests-before-march"] and not o["bosses"]:
            raise OptionError(
                f"{gid}: quests-before-march needs the quest bosses (bosses=true)",
                options=("quests-before-march", "bosses"),
            )
        if o["ascension"]:
            if o["sorceress"] != "20":
                raise OptionError(
                    f"{gid}: ascension builds its own Tower of foils; leave sorceress at its default (got "
                    f"sorceress={o['sorceress']})",
                    options=("sorceress", "ascension"),
                )
            if o["quests-before-march"]:
                raise OptionError(
                    f"{gid}: ascension has no March, so quests-before-march cannot be combined with it",
                    options=("quests-before-march", "ascension"),
                )
        parents: dict[str, tuple[str, ...]] = {
            "ascension with bosses": ("ascension", "bosses"),
            "ascension with nemesis": ("ascension", "nemesis"),
            "mr-store": ("mr-store",),
        }
        for name, parent, default in (
            ("boss-reset", "ascension with bosses", "removed-only"),
            ("nemesis-rebuild", "ascension with nemesis", "heap"),
            ("store-filter", "mr-store", True),
            ("store-used", "mr-store", "facedown"),
        ):
            on = {
                "ascension with bosses": bool(o["ascension"] and o["bosses"]),
                "ascension with nemesis": bool(o["ascension"] and o["nemesis"]),
                "mr-store": bool(o["mr-store"]),
            }[parent]
            if o[name] != default and not on:
                raise OptionError(
                    f"{gid}: {name}={str(o[name]).lower()} applies only to {parent}", options=(name, *parents[parent])
                )
        missing: list[str] = []
        needing: list[str] = []  # the options that need what the card file lacks

        def lacks(what: str, *options: str) -> None:
            missing.append(what)
            needing.extend(x for x in options if x not in needing)

        if o["nemesis"] and not c.nemeses:
            lacks("nemesis cards", "nemesis")
        if o["bosses"] and not c.bosses:
            lacks("boss cards", "bosses")
        form = str(o["sorceress"])
        if form.startswith("foil-") and not c.foil_forms[int(form[5:]) - 1]:
            lacks(f"{form} Sorceress foils", "sorceress")
        if o["ascension"]:
            f1, f2, f3 = (len(f) for f in c.foil_forms)
            if f1 < n or f2 < n or f3 < 1:
                lacks(
                    f"at least {n} first-form, {n} second-form and one third-form foil for ascension",
                    "ascension",
                    "players",
                )
        if o["mr-store"] and len(self.store_cards()) < 3 * n:
            lacks(f"at least {3 * n} Mr. Store items (after store-filter)", "mr-store", "store-filter", "players")
        classes = str(o["classes"])
        if classes == "cards" and o["ascension"] and len(c.class_cards) < n + 1:
            # S2.3: after a run the player returns their card and takes one of the *other* cards in
            # the middle, so one more card than players is needed (a board's plain side always exists).
            lacks(
                f"at least {n + 1} class cards (ascension: a new class after each run)",
                "classes",
                "ascension",
                "players",
            )
        elif classes == "cards" and len(c.class_cards) < n:
            lacks(f"at least {n} class cards", "classes", "players")
        if classes == "boards" and len(c.class_boards) < n:
            lacks(f"at least {n} class boards", "classes", "players")
        if o["playmat"] and c.playmat is None:
            lacks("a [playmat] section", "playmat")
        if missing:
            raise OptionError(
                f"{gid}: the card file {c.path} lacks what these options need: {'; '.join(missing)}",
                options=(*needing, "cards"),
            )

    def components(self) -> frozenset[str]:
        """The components in play (what a Mr. Store item's ``requires`` names; familiars never are)."""
        o = self.options
        out = set()
        if o["nemesis"]:
            out.add("nemesis")
        if o["bosses"]:
            out.add("bosses")
        if o["ascension"] or str(o["sorceress"]).startswith("foil-"):
            out.add("foils")
        if o["ascension"]:
            out.add("ascension")
        if o["classes"] != "none":
            out.add("classes")
        if o["mr-store"]:
            out.add("accessories")  # the Mr. Store set has accessories (Mr. Accessory)
        return frozenset(out)

    def store_cards(self) -> tuple[int, ...]:
        """The Mr. Store items in the game (``store-filter``: those whose requirements are in play)."""
        c = self.cards
        if not self.options["store-filter"]:
            return c.store
        have = self.components()
        return tuple(x for x in c.store if all(r in have for r in c.requires[x]))

    def _setup(self) -> None:
        o = self.options
        c = self.cards
        self.card_hash = c.sha
        sorceress = str(o["sorceress"])
        self.foil_form = int(sorceress[5:]) if sorceress.startswith("foil-") else 0
        """The form of the single-game foil (0: the standard Sorceress card)."""
        if self.foil_form:
            self.sorceress_power = c.form_power[self.foil_form - 1]
        else:
            self.sorceress_power = c.sorceress_powers[0] if sorceress == "20" else c.sorceress_powers[1]
        self.nemesis = bool(o["nemesis"])
        self.bosses = bool(o["bosses"])
        self.quests_first = bool(o["quests-before-march"])
        self.hardcore_all = o["hardcore"] == "all"
        self.ascension = bool(o["ascension"])
        self.boss_reset_all = o["boss-reset"] == "all"
        self.nemesis_all = o["nemesis-rebuild"] == "all"
        self.store = bool(o["mr-store"])
        self.store_removed = o["store-used"] == "removed"
        self.in_store = self.store_cards() if self.store else ()
        self.classes = ("none", "cards", "boards").index(str(o["classes"]))
        self.class_trainer = bool(o["class-trainer"])
        self.playmat = bool(o["playmat"])
        fp = str(o["first-player"])
        self.first_player = -1 if fp == "random" else int(fp[1:]) - 1
        self.turn_limit = int(o["turn-limit"])
        self.evasion_adds = bool(o["evasion-adds-damage"])
        self.equip_if_free = o["new-equipment"] == "equip-if-free"
        self.no_repeats = o["equipment-repeats"] == "refused"
        self.complete_blocks = o["block-discards"] == "completing"
        self.consume_all = o["use-consumes"] == "all"
        self.reshuffle_skills = o["skill-pile-empty"] == "reshuffle"
        self.top_scorer = o["march-winner"] == "top-scorer"
        self.tie = str(o["march-tie"])
        self.meat_supply = int(o["meat-supply"])
        self.skill0 = c.skills.start
        self.text_cache: dict[tuple[str, int], str] = {}
        """Card texts in words, filled by the views as they are first needed."""
        self.all_skills = tuple(c.skills)
        # The starting decks (K2.9): four of each level-1 card per seat, from the ends of the piles.
        self.start_decks = tuple(
            tuple(x for k in (0, 4, 8) for x in c.stat_piles[k][len(c.stat_piles[k]) - 4 * (seat + 1) :][:4])
            for seat in range(self.players)
        )
        # Whether any monster can be at power 0 or less without a reduction (then it may be killed
        # with no score at all, clarification 7): a printed power of 0 (a monster, nemesis or boss),
        # or a power-lowering effect of a card; or, while one of them is on the Tower, of a foil's
        # global effect (``low_power_foils``).
        self.low_power = any(c.mpower[t] <= 0 for t in (*c.monsters, *c.nemeses, *c.bosses)) or any(
            op == MONSTER_POWER and b < 0 for fx in c.effects for op, _, b, _ in fx
        )
        self.low_power_foils: frozenset[int] = frozenset(
            f for f in c.foils if any(op == MONSTER_POWER and b < 0 for op, _, b, _ in c.gfx[f])
        )
        self.n_items = c.items.stop
        self.sums = modifiers.card_sums(c)
        self.newbie_mods: dict[int, tuple[int, ...]] = {}
        """The sums of a player holding only a newbie set (by set), filled by the deal."""
        """What each card adds to a player's sums when active (see :func:`.modifiers.compute`)."""

        a = self.actions
        for kind in ("equip", "unequip", "autosell", "use", "dive", "target", "kill", "train", "skill", "buff"):
            a.declare(kind, "card")
        a.declare("mojo", "stat")
        a.declare("spend", "mojo")
        a.declare("choose", "type")
        a.declare("upgrade", "from", "to")
        a.declare("maneuver", "kind", "stat")
        a.declare("play", "stat")
        a.declare("discard", "stat")
        for kind in ("no-upgrade", "combat", "end-turn", "end-combat", "done", "march", "pass"):
            a.declare(kind)
        items = range(self.n_items)
        # Card-id actions, indexed by card id (items) or by card id - skill0 (skills).
        self.EQUIP = a.grid("equip", items)
        self.UNEQUIP = a.grid("unequip", items)
        self.AUTOSELL = a.grid("autosell", items)
        self.USE = a.grid("use", items)
        self.DIVE = a.grid("dive", items)
        self.TARGET = a.grid("target", items)
        # Kill targets: every card that can top a pile (monsters; nemeses and bosses in the supplement).
        self.KILL = a.grid("kill", range(c.skills.start))
        self.TRAIN = a.grid("train", c.skills)
        self.SKILL = a.grid("skill", c.skills)
        self.BUFF = a.grid("buff", c.skills)
        # Stat-kind actions, indexed by kind code (type * 4 + value - 1).
        self.MOJO = [a.add("mojo", STAT_KINDS[k]) for k in range(4, 8)]
        self.SPEND = a.grid("spend", range(1, MAX_X + 1))
        self.CHOOSE = a.grid("choose", STAT_TYPES)
        self.UPGRADE: list[list[Action | None]] = [[None] * 12 for _ in range(12)]
        for k in range(12):
            t, v = divmod(k, 4)
            targets = [k + 1] if v < 3 else []
            targets += [t2 * 4 + v for t2 in range(3) if t2 != t]
            for j in targets:
                self.UPGRADE[k][j] = a.add("upgrade", STAT_KINDS[k], STAT_KINDS[j])
        self.NO_UPGRADE = a.add("no-upgrade")
        a.explain = explain_combination
        # maneuver kind=melee stat=mus3: the maneuver and its first card (clarification 4), by
        # [maneuver][value - 1].
        self.MANEUVER = [
            [a.add("maneuver", MANEUVERS[m], STAT_KINDS[MANEUVER_STAT[m] * 4 + v]) for v in range(4)] for m in range(4)
        ]
        self.PLAY = a.grid("play", STAT_KINDS)
        self.DISCARD = a.grid("discard", STAT_KINDS)
        # The same actions by the values of one stat type a hand holds (see ``endturn.kind_mask``),
        # in the order they are offered: [type or maneuver][4-bit mask of values].
        self.DISCARD_BY: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
            by_values(self.DISCARD[t * 4 : t * 4 + 4], False) for t in range(3)
        )
        self.PLAY_BY = tuple(by_values(self.PLAY[t * 4 : t * 4 + 4], True) for t in range(3))
        self.MANEUVER_BY = tuple(by_values(self.MANEUVER[m], True) for m in range(4))
        self.MOJO_BY = by_values(self.MOJO, False)
        self.kind_bit = tuple(1 << k if k >= 0 else 0 for k in c.skind)
        """Each card's stat kind as a bit (0: not a stat card): OR-ed over a zone, the kinds it holds."""
        # Per item: (unequip, equip, autosell, use in a non-combat phase), None where it does not apply.
        self.ITEM_ACTIONS: tuple[tuple[Action | None, Action | None, Action | None, Action | None], ...] = tuple(
            (
                self.UNEQUIP[i] if c.slot[i] >= 0 else None,
                self.EQUIP[i] if c.slot[i] >= 0 else None,
                self.AUTOSELL[i] if c.autosell[i] >= 0 else None,
                self.USE[i] if c.etype[i] == E_NONCOMBAT else None,
            )
            for i in items
        )
        self.COMBAT = a.add("combat")
        self.END_TURN = a.add("end-turn")
        self.END_COMBAT = a.add("end-combat")
        self.DONE = a.add("done")
        self.MARCH = a.add("march")
        self.PASS = a.add("pass")
        # The supplemental rules' actions.
        a.declare("reveal", "card")
        a.declare("block", "stat")
        a.declare("cure", "card")
        a.declare("perm", "card")
        a.declare("class", "card")
        a.declare("side", "face")
        for kind in ("suffer", "no-cure", "no-perm", "kill-sorceress"):
            a.declare(kind)
        self.REVEAL = a.grid("reveal", items)
        self.BLOCK = a.grid("block", STAT_KINDS)
        self.BLOCK_BY = tuple(by_values(self.BLOCK[t * 4 : t * 4 + 4], True) for t in range(3))
        self.SUFFER = a.add("suffer")
        self.CURE = {x: a.add("cure", x) for x in c.bosses}
        self.NO_CURE = a.add("no-cure")
        self.PERM = a.grid("perm", c.skills)
        self.NO_PERM = a.add("no-perm")
        self.CLASS = {x: a.add("class", x) for x in (*c.class_cards, *c.class_boards)}
        self.SIDE_CLASS = a.add("side", "class")
        self.SIDE_PLAIN = a.add("side", "plain")
        self.KILL_SORCERESS = a.add("kill-sorceress")

    def new_state(self, seed: int, log: bool) -> McgState:
        return state_module.McgState(self, seed, log)

    def card_name(self, card: int) -> str:
        """``Stale Cellar Cracker (card 0)``; a monster/item card names both sides (monster first)."""
        c = self.cards
        if c.mname[card] and c.iname[card] and c.mname[card] != c.iname[card]:
            return f"{c.mname[card]} / {c.iname[card]} (card {card})"
        return f"{c.name(card)} (card {card})"

    def describe_action(self, action: Action) -> str:
        """A description for people, naming the card ("train Pulverize (card 89)")."""
        from cardtable.games.mr_card_game.views import describe_action

        return describe_action(self, action)
