"""Doctor Strange card game: the :class:`DoctorStrange` Game (card data, options, actions).

Two players, one Good and one Evil, share one deck holding one of each card of the rulebook's
CARD LIST. By default P1 (seat 0) is Evil and goes first, P2 (seat 1) is Good; option
``good-seat=P1`` swaps them. People read the seats as "Good" and "Evil" (:meth:`seat_name`).
The rules live in :mod:`.state` (turn flow, decisions, protocol), :mod:`.effects`
(deck and events), :mod:`.combat` (attacks), :mod:`.upkeep` (Rest rolls, victory, turn limit),
:mod:`.fates` (kill, exile, incapacitate, control, capture and their reversal), over the fields and
shared queries of :mod:`.base`; :mod:`.view` is what each seat sees. See
``docs/rules/doctor-strange.md`` for the numbered rules and every interpretation.

Actions (every one takes a card id; the meaning of a ``play`` depends on the phase)::

    play card=N       play card N from your hand (summon, attach, event, attack card, power, counter)
    onto card=N       attach the pending permanent card to your character N
    attacker card=N   declare an attack by your viable character N
    target card=N     mark the opposing viable character N as the target
    helper card=N     Call Defender: character N adds its power to the defence
    negate card=N     the target of a Negate card (a character in a pile or in play, or an Item)
    take card=N       Go Back in Time: keep deck card N
    discard card=N    discard card N from your hand (Rest phase hand limit)
    pass              stop: end this phase's plays / decline this window

The timing options ``rest-events`` and ``any-time-events`` settle when R and X events may be played.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from cardtable.engine import Action, Game, Option, State
from cardtable.engine.errors import OptionError, quoted
from cardtable.engine.options import CARD_FILE, HOUSE, PLAYERS, READINGS
from cardtable.engine.seats import label_seat
from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange import words
from cardtable.games.doctor_strange.changes import note_starts
from cardtable.games.doctor_strange.view import VIEW_KEYS

TURN_LIMIT_MAX: Final = 2000
"""The most player turns ``turn-limit`` (and ``victory-from``) may name: five times the default of 400.
Random play ends a game in about a dozen turns (the longest of 30 seeded games: 111), so 2,000 turns
(some 17,000 decisions) cuts off no real game and keeps every record bounded."""


class DoctorStrange(Game):
    """The Doctor Strange card game with the full card list of its rulebook."""

    id = "doctor-strange"
    title = "Doctor Strange Card Game"
    VIEW_KEYS = VIEW_KEYS
    OPTIONS = (
        Option(
            "players",
            2,
            "number of players (the game is for exactly 2)",
            min=2,
            max=2,
            label="Number of players",
            group=PLAYERS,
        ),
        Option(
            "good-seat",
            "P2",
            "which player plays Good, P1 or P2 (the other plays Evil, who goes first)",
            choices=("P1", "P2"),
            label="Who plays Good (Evil goes first)",
            group=PLAYERS,
            choice_labels=("P1 plays Good, P2 plays Evil", "P2 plays Good, P1 plays Evil"),
        ),
        Option(
            "victory-count",
            "player-turns",
            "what a 'turn' of the victory rule counts: each player's turn, or a round of both turns",
            choices=("player-turns", "rounds"),
            label="What a “turn” of the VICTORY rule counts",
            group=READINGS,
            advanced=True,
            choice_labels=("Each player's turn", "A round: both players' turns"),
        ),
        Option(
            "victory-from",
            10,
            "the turn (as counted by victory-count) from which the victory rule applies",
            min=1,
            max=TURN_LIMIT_MAX,
            label="The VICTORY rule applies from turn (rulebook: 10)",
            group=HOUSE,
            advanced=True,
        ),
        Option(
            "rest-events",
            "own-rest",
            "when an R (Rest) event may be played: in your own Rest phase only, or in either player's Rest phase",
            choices=("own-rest", "both-rests"),
            label="When R (Rest Phase) events may be played",
            group=READINGS,
            advanced=True,
            choice_labels=("In your own Rest Phase only", "In either player's Rest Phase"),
        ),
        Option(
            "any-time-events",
            "windows",
            "where an X (any time) event may be played: whenever you play cards and in the window after the "
            "opponent's Mystic Arts phase, or also after every action of the opponent",
            choices=("windows", "after-every-action"),
            label="When X (any time) events may be played",
            group=READINGS,
            advanced=True,
            choice_labels=(
                "Whenever you play cards, and after the opponent's Mystic Arts Phase",
                "Also after every action of the opponent",
            ),
        ),
        Option(
            "turn-limit",
            400,
            "stop the game (result 'turn-limit', truncated) after this many player turns",
            min=2,
            max=TURN_LIMIT_MAX,
            label="Stop an undecided game after this many turns",
            group=HOUSE,
            advanced=True,
        ),
        Option(
            "cards",
            "",
            "path of a card file in the cards.toml format, e.g. your own transcription of the card list "
            "(empty: the built-in cards.toml)",
            label="Card file (empty: the rulebook's card list)",
            group=CARD_FILE,
            advanced=True,
        ),
    )
    CARD_EDITS = True
    CARD_USES = {"play": "played", "take": "acquired"}
    CONFIGURATIONS = (
        {"players": 2},
        {"players": 2, "good-seat": "P1", "rest-events": "both-rests"},
        {"players": 2, "victory-count": "rounds", "any-time-events": "after-every-action"},
    )

    def _check_options(self) -> None:
        path = str(self.options["cards"])
        if path:
            try:
                regular = Path(path).is_file()
            except (OSError, ValueError):
                regular = False
            if not regular:
                raise OptionError(
                    f"doctor-strange: option 'cards': {quoted(path, 80)} is not a readable regular file",
                    option="cards",
                )

    def _setup(self) -> None:
        path = str(self.options["cards"]) or C.CARD_FILE
        data = C.load_cards(path, self.card_edits)
        self.cards = data
        self.card_hash = data.sha
        self.good: int = label_seat(str(self.options["good-seat"]))
        self.evil: int = 1 - self.good
        self.rounds: bool = self.options["victory-count"] == "rounds"
        self.rest_both: bool = self.options["rest-events"] == "both-rests"
        self.x_every: bool = self.options["any-time-events"] == "after-every-action"
        self.victory_from: int = int(self.options["victory-from"])
        self.turn_limit: int = int(self.options["turn-limit"])
        n = len(data)
        self.N = n
        self.NAMES = data.names
        self.CARD_OBJ = words.card_objects(data)
        self.TYPE = data.types
        self.POW = data.power
        self.FATE = data.fate
        self.TIMING = data.timing
        self.ROLE = data.role
        self.DS = data.id_of("Doctor Strange")
        self.BM = data.id_of("Baron Mordo")
        # Characters get a slot 0..K-1 so per-character state is a short list.
        self.CHARS: tuple[int, ...] = tuple(c for c in range(n) if data.types[c] == C.CHARACTER)
        slot = [-1] * n
        for i, c in enumerate(self.CHARS):
            slot[c] = i
        self.SLOT: tuple[int, ...] = tuple(slot)
        # ``NOTE[zone][seat]``: where that zone's entries of a state's change list start (.changes).
        self.NOTE: tuple[tuple[int, ...], ...] = note_starts(2, n)
        # use[seat][card]: may this seat use (play) the card at all (GPO / EPO).
        use = []
        for seat in (0, 1):
            mine = C.GOOD if seat == self.good else C.EVIL
            use.append(tuple(data.only[c] in (C.ANY, mine) for c in range(n)))
        self.USE: tuple[tuple[bool, ...], ...] = tuple(use)
        # Power-card bonus by role: BONUS[0] as attacker, BONUS[1] as defender (0 = not allowed).
        atk = tuple(
            data.power[c] if data.types[c] == C.POWER and data.role[c] != C.ROLE_DEFENDER else 0 for c in range(n)
        )
        dfn = tuple(
            data.power[c] if data.types[c] == C.POWER and data.role[c] != C.ROLE_ATTACKER else 0 for c in range(n)
        )
        self.BONUS: tuple[tuple[int, ...], tuple[int, ...]] = (atk, dfn)
        self.IS_ATTACH = tuple(data.types[c] in C.PERMANENT_ATTACHMENTS for c in range(n))
        # Events: the first effect names what kind of event it is for the rules.
        ev = []
        for c in range(n):
            effs = data.effects[c]
            ev.append(effs[0]["do"] if effs else "")
        self.EVENT_KIND: tuple[str, ...] = tuple(ev)
        # Per-seat lookup tables for the hot path (usable by that seat AND of the kind).
        tm = data.timing
        self.MYST = tuple(tuple(use[s][c] and tm[c] == C.MYSTIC_ARTS for c in range(n)) for s in (0, 1))
        self.RESTEV = tuple(tuple(use[s][c] and tm[c] == C.REST for c in range(n)) for s in (0, 1))
        self.SUMM = tuple(
            tuple(
                (1 if data.types[c] == C.CHARACTER else 2 if self.IS_ATTACH[c] else 0) if use[s][c] else 0
                for c in range(n)
            )
            for s in (0, 1)
        )
        self.ATK = tuple(tuple(use[s][c] and data.types[c] == C.ATTACK for c in range(n)) for s in (0, 1))
        self.CTR = tuple(tuple(use[s][c] and ev[c] == "counter" for c in range(n)) for s in (0, 1))
        self.DCALL = tuple(tuple(use[s][c] and ev[c] == "call_defender" for c in range(n)) for s in (0, 1))
        # BON[seat][role][card]: the bonus of a Power card that seat may play in that role (0 = none).
        self.BON = tuple(
            tuple(tuple(b if use[s][c] else 0 for c, b in enumerate(r)) for r in self.BONUS) for s in (0, 1)
        )
        self.XCARDS: tuple[int, ...] = tuple(c for c in range(n) if tm[c] == C.ANY_TIME)

        # Candidates of each window, per seat: the cards of that kind the seat may use. A window opens
        # when one of them might be in the seat's hand as far as public information goes (DS13.2).
        def usable(seat: int, pick: Callable[[int], bool]) -> tuple[int, ...]:
            return tuple(c for c in range(n) if use[seat][c] and pick(c))

        ty = data.types
        self.CAND_E = tuple(usable(s, lambda c: ty[c] == C.EVENT and tm[c] == C.MYSTIC_ARTS) for s in (0, 1))
        self.CAND_X = tuple(usable(s, lambda c: ty[c] == C.EVENT and tm[c] == C.ANY_TIME) for s in (0, 1))
        self.CAND_R = tuple(usable(s, lambda c: ty[c] == C.EVENT and tm[c] == C.REST) for s in (0, 1))
        self.CAND_CHAR = tuple(usable(s, lambda c: ty[c] == C.CHARACTER) for s in (0, 1))
        self.CAND_ATT = tuple(usable(s, lambda c: self.IS_ATTACH[c] and ty[c] != C.LOCATION) for s in (0, 1))
        self.CAND_LOC = tuple(usable(s, lambda c: ty[c] == C.LOCATION) for s in (0, 1))
        self.CAND_ATK = tuple(usable(s, lambda c: ty[c] == C.ATTACK) for s in (0, 1))
        self.CAND_CTR = tuple(usable(s, lambda c: ev[c] == "counter") for s in (0, 1))
        self.CAND_D = tuple(usable(s, lambda c: ev[c] == "call_defender") for s in (0, 1))
        self.CAND_POW = tuple(tuple(tuple(c for c in range(n) if self.BON[s][r][c]) for r in (0, 1)) for s in (0, 1))
        self.NEGATE: tuple[str, ...] = tuple(
            str(data.effects[c][0]["target"]) if ev[c] == "negate" else "" for c in range(n)
        )

        a = self.actions
        for kind in ("play", "onto", "attacker", "target", "helper", "negate", "take", "discard"):
            a.declare(kind, "card")
        a.declare("pass")
        ids = list(range(n))
        self.PLAY: list[Action] = a.grid("play", ids)
        self.ONTO: list[Action] = a.grid("onto", ids)
        self.ATTACKER: list[Action] = a.grid("attacker", ids)
        self.TARGET: list[Action] = a.grid("target", ids)
        self.HELPER: list[Action] = a.grid("helper", ids)
        self.NEGATE_ACT: list[Action] = a.grid("negate", ids)
        self.TAKE: list[Action] = a.grid("take", ids)
        self.DISCARD: list[Action] = a.grid("discard", ids)
        self.PASS: Action = a.add("pass")

    def new_state(self, seed: int, log: bool) -> State:
        from cardtable.games.doctor_strange.state import DSState

        return DSState(self, seed, log)

    def seat_name(self, seat: int) -> str:
        return "Good" if seat == self.good else "Evil"

    def card_name(self, card: int) -> str:
        """``"Poison (card 24)"``."""
        return f"{self.NAMES[card]} (card {card})"

    def describe_action(self, action: Action) -> str:
        if action.kind == "pass":
            return "pass: end this phase, or let this window go by"
        card = action.args[0]
        assert isinstance(card, int)
        name = self.card_name(card)
        words: dict[str, str] = {
            "play": f"play {name}",
            "onto": f"attach it to {name}",
            "attacker": f"attack with {name}",
            "target": f"target {name}",
            "helper": f"call {name} to defend",
            "negate": f"negate: target {name}",
            "take": f"take {name} from the deck",
            "discard": f"discard {name}",
        }
        return words[action.kind]

    def card_json(self, card: int) -> dict[str, Any]:
        """A visible card as views show it (a fresh dict): its printed data in words, see
        :func:`.words.card_objects`."""
        return dict(self.CARD_OBJ[card])
