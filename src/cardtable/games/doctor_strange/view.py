"""What each seat sees (:func:`view`) and the god view (:func:`snapshot`) of a Doctor Strange state.

A view is the table as a person in that seat sees it (DESIGN.md, "Views are for people"): a prompt
saying what is being decided, by whom and why; where the turn is (the rulebook's phase and the step
in words); the seat's own hand and every visible card with its printed data in words
(:mod:`.words`); the characters in play with their power, attachments and state in words; the
declared attacks and the fight being resolved (or the last one, until the next starts) with its dice
and totals; the public piles; the sizes of the hidden zones; progress towards victory; and the
hidden cards the seat has been shown: opponent's hand cards seen with Read Minds / All Seeing Eye
(while they stay in that hand), deck cards seen with Investigate (with their place from the top,
until the deck is shuffled) and, during its own Go Back in Time search, the deck's contents (sorted,
never its order). Nothing in it reads a card the seat cannot see, so whether and how anything
appears never depends on one.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress, count
from typing import TYPE_CHECKING

from cardtable.engine import JSON
from cardtable.games.doctor_strange import base as S
from cardtable.games.doctor_strange import fates as F
from cardtable.games.doctor_strange.words import FATE_DONE, NEGATE_WORDS, RULEBOOK_PHASE, STEP

if TYPE_CHECKING:
    from cardtable.games.doctor_strange.state import DSState

VIEW_KEYS = frozenset(
    {
        "prompt",
        "phase",
        "step",
        "turn_of",
        "hand",
        "hand_sizes",
        "deck_size",
        "table",
        "playing",
        "attacks",
        "fight",
        "discard",
        "killed",
        "exiled",
        "victory",
        "known_opponent_hand",
        "known_deck",
        "search",
    }
)
"""The top-level keys :func:`view` adds to the engine's."""


def _state_words(st: DSState, c: int) -> str:
    """A character's state in words: viable or not and why, who holds it, what it did this turn."""
    g = st.game
    s = g.SLOT[c]
    if st.cap[s] >= 0:
        parts = [f"captive of {g.card_name(st.cap[s])}"]
    elif st.incap[s]:
        parts = ["incapacitated"]
    else:
        parts = ["viable"]
    if st.ctl[s] >= 0:
        parts.append(f"controlled through {g.card_name(st.ctl[s])}")
    if st.owner[s] != st.side[s]:
        parts.append(f"owned by {g.seat_name(st.owner[s])}")
    if st.marked >> s & 1:
        parts.append("marked")
    if st.attacked >> s & 1:
        parts.append("has attacked")
    if st.helpers >> s & 1 and st.phase in (S.EXCHANGE, S.HELPER):
        parts.append("helping the defense")
    return ", ".join(parts)


_MINUS_ONE_LT = (-1).__lt__
"""``_MINUS_ONE_LT(h)``: ``h >= 0`` for an int ``h >= -1`` (a C-level predicate for ``map``)."""


def _table(st: DSState) -> list[JSON]:
    g = st.game
    cj = g.card_json
    slot = g.SLOT
    # Every character's attachments in card-id order (F.attachments for each, in one pass).
    # compress/map keep the scan over every card in C: ``att_on`` holds -1 or a character.
    att_on = st.att_on
    attached: dict[int, list[JSON]] = {}
    for a in compress(count(), map(_MINUS_ONE_LT, att_on)):
        attached.setdefault(att_on[a], []).append(cj(a))
    helping = st.phase in (S.EXCHANGE, S.HELPER)
    out: list[JSON] = []
    for c in st.chars:
        s = slot[c]
        d = cj(c)
        ctl = st.ctl[s]
        cap = st.cap[s]
        holder = ctl if ctl >= 0 else cap
        d["modified_power"] = st.mpow[s]
        d["side"] = g.seat_name(st.side[s])
        d["owner"] = g.seat_name(st.owner[s])
        d["state"] = _state_words(st, c)
        d["viable"] = F.viable(st, c)
        d["incapacitated"] = bool(st.incap[s])
        d["controlled"] = ctl >= 0
        d["captured"] = cap >= 0
        d["held_by"] = holder if holder >= 0 else None
        d["marked"] = bool(st.marked >> s & 1)
        d["attacked"] = bool(st.attacked >> s & 1)
        d["helping"] = bool(st.helpers >> s & 1) and helping
        d["attachments"] = attached.get(c, [])
        out.append(d)
    return out


def _shown(st: DSState, public: set[int]) -> tuple[Callable[[int], str], Callable[[int], JSON]]:
    """How a past fight or attack names its cards: a card that has since been shuffled back out of
    sight (by a custom card file's event) is no longer shown, so a view never names a hidden card."""
    g = st.game

    def name(c: int) -> str:
        return g.card_name(c) if c in public else "a card shuffled back into the deck"

    def obj(c: int) -> JSON:
        return g.card_json(c) if c in public else None

    return name, obj


def _attacks(st: DSState, public: set[int]) -> list[JSON]:
    """This turn's attacks: declared (waiting, being fought, done) and the one being declared."""
    g = st.game
    name, obj = _shown(st, public)
    att = st.attacks
    fighting = st.phase in (S.EXCHANGE, S.HELPER)
    out: list[JSON] = []
    for k, i in enumerate(range(0, len(att), 3)):
        if k < st.ares:
            status = "done"
        elif k == st.ares and fighting:
            status = "being fought"
        else:
            status = "waiting"
        out.append(
            {
                "attacker": name(att[i]),
                "target": name(att[i + 1]),
                "attack_card": obj(att[i + 2]),
                "fate": FATE_DONE[g.FATE[att[i + 2]]],
                "status": status,
            }
        )
    if st.phase in (S.TARGET, S.WEAPON):
        out.append(
            {
                "attacker": g.card_name(st.decl_a),
                "target": g.card_name(st.decl_t) if st.phase == S.WEAPON else None,
                "attack_card": None,
                "fate": None,
                "status": "being declared",
            }
        )
    return out


def _fight(st: DSState, public: set[int]) -> JSON:
    """The fight being resolved, or the last one (until the next starts or the discard pile is
    shuffled into the deck): dice, power, Power cards played, helpers and totals for both sides, and
    how it stands or ended."""
    if not st.fight:
        return None
    g = st.game
    name, obj = _shown(st, public)
    a, t, w, turn, outcome, apow, dpow, seat = st.fight
    live = outcome < 0
    slot = g.SLOT
    if live:
        apow, dpow = st.mpow[slot[a]], st.mpow[slot[t]]
        helpers = [(c, st.mpow[slot[c]]) for c in st.chars if st.helpers >> slot[c] & 1]
    else:
        helpers = [(st.fhelp[i], st.fhelp[i + 1]) for i in range(0, len(st.fhelp), 2)]
    atk = st.ra + apow + st.ba
    dfn = st.rd + dpow + st.bd + sum(p for _, p in helpers)
    attacker, defender = g.seat_name(seat), g.seat_name(1 - seat)
    if live:
        if atk >= dfn:
            result = (
                f"in progress: {attacker} leads {atk} to {dfn}"
                + (" (a tie goes to the attacker)" if atk == dfn else "")
                + f"; {defender} needs +{atk - dfn + 1} to win"
            )
        else:
            result = f"in progress: {defender} leads {dfn} to {atk}; {attacker} needs +{dfn - atk} to win"
    elif outcome:
        result = f"{attacker} won, {atk} against {dfn}: {name(t)} is {FATE_DONE[g.FATE[w]]}"
    else:
        result = f"{defender} won, {dfn} against {atk}: the attack failed"
    return {
        "turn": turn,
        "attack_card": obj(w),
        "fate": FATE_DONE[g.FATE[w]],
        "attacker": {
            "player": attacker,
            "character": name(a),
            "roll": st.ra,
            "power": apow,
            "power_cards": [obj(c) for c in st.fpa if c in public],
            "total": atk,
        },
        "defender": {
            "player": defender,
            "character": name(t),
            "roll": st.rd,
            "power": dpow,
            "power_cards": [obj(c) for c in st.fpd if c in public],
            "helpers": [f"{name(c)} +{p}" for c, p in helpers],
            "total": dfn,
        },
        "in_progress": live,
        "result": result,
    }


def _victory(st: DSState) -> JSON:
    """Progress towards victory (DS11): the count of the victory rule against the turn it starts
    from, each side's viable characters, and each side's checks in a row without one."""
    g = st.game
    unit = "round" if g.rounds else "turn"
    count = (st.turn + 1) // 2 if g.rounds else st.turn
    checking = count >= g.victory_from
    viable = [len(st._viable_on(s)) for s in (0, 1)]
    if checking:
        when = f"{unit} {count}: the victory check runs at the end of every {unit}"
    else:
        when = f"{unit} {count}: the victory check starts at the end of {unit} {g.victory_from}"
    danger = [f"{g.seat_name(s)} {st.streak[s]} of 2" for s in (0, 1) if st.streak[s]]
    summary = when + " (no viable character at 2 checks in a row loses)"
    if danger:
        summary += "; checks without a viable character: " + ", ".join(danger)
    return {
        "counting": "rounds (both players' turns)" if g.rounds else "each player's turn",
        "now": count,
        "checks_from": g.victory_from,
        "checking": checking,
        "viable_characters": viable,
        "no_viable_streak": list(st.streak),
        "turn_limit": g.turn_limit,
        "summary": summary,
    }


def _negate_words(st: DSState) -> str:
    return NEGATE_WORDS[st.game.NEGATE[st.evcard]]


def prompt(st: DSState, seat: int | None) -> str:
    """One sentence: what is being decided now, by whom and why, as ``seat`` may know it (the deciding
    seat reads what it may do; the others read what that player is deciding, the same whatever its
    hand holds); at the end, how the game ended."""
    g = st.game
    if st.is_over:
        return "Game over: " + _end_words(st)
    who = st.current_player
    assert who is not None
    name = g.seat_name(who)
    other = g.seat_name(1 - who)
    me = seat == who
    ph = st.phase
    if ph == S.MYSTIC:
        if me:
            return f"{name}: play a Mystic Arts (E) or any-time (X) event, or pass to end your Mystic Arts phase"
        return f"{name} is in its Mystic Arts phase and may play E or X events"
    if ph == S.XWIN:
        if me:
            return f"{name}: play an any-time (X) event, or pass (window after {other}'s Mystic Arts phase)"
        return f"{name} may play an any-time (X) event (window after {other}'s Mystic Arts phase)"
    if ph == S.XANY:
        if me:
            return f"{name}: play an any-time (X) event, or pass (window after {other}'s action)"
        return f"{name} may play an any-time (X) event (window after {other}'s action)"
    if ph == S.SUMMON:
        if me:
            return f"{name}: put a character or an attachment into play, or pass to end your Summon phase"
        return f"{name} is in its Summon phase and may put characters and attachments into play"
    if ph == S.ONTO:
        card = g.card_name(st.pending)
        return f"{name}: choose the character that takes {card}" if me else f"{name} is choosing who takes {card}"
    if ph == S.DECLARE:
        n = len(st.attacks) // 3
        done = f"{n} declared" if n else "none declared yet"
        if me:
            return f"{name}: declare an attack (choose an attacker), or pass to fight the attacks declared ({done})"
        return f"{name} is declaring attacks ({done})"
    if ph == S.TARGET:
        by = g.card_name(st.decl_a)
        return f"{name}: choose the opposing character {by} attacks" if me else f"{name} is choosing {by}'s target"
    if ph == S.WEAPON:
        what = f"{g.card_name(st.decl_a)}'s attack on {g.card_name(st.decl_t)}"
        if me:
            return f"{name}: choose the Attack card for {what} (its fate applies if the attack wins)"
        return f"{name} is choosing the Attack card for {what}"
    if ph == S.COUNTER:
        att = st.attacks
        what = f"{g.NAMES[att[-1]]} ({g.NAMES[att[-3]]} attacks {g.NAMES[att[-2]]})"
        if me:
            return f"{name}: counter {what} with a Counter card, or pass to let it stand"
        return f"{name} may counter {what}"
    if ph == S.EXCHANGE:
        atk, dfn = st._totals()
        defending = who != st.active
        need = atk - dfn + 1 if defending else dfn - atk
        totals = f"Attack Total {atk}, Defense Total {dfn}"
        if me:
            extra = " or call a defender" if defending else ""
            return (
                f"{name}: you are behind in the fight ({totals}; +{need} needed): play a Power card{extra}, "
                "or pass and lose it"
            )
        return f"{name} is behind in the fight ({totals}) and may play Power cards"
    if ph == S.HELPER:
        target = g.card_name(st.attacks[st.ares * 3 + 1])
        if me:
            return f"{name}: choose the character that helps defend {target} (Call Defender)"
        return f"{name} is choosing a character to help defend {target} (Call Defender)"
    if ph == S.REST:
        if me:
            return f"{name}: play a Rest (R) or any-time (X) event, or pass to end your Rest phase (hand limit, rolls)"
        return f"{name} is in its Rest phase and may play R or X events"
    if ph == S.OREST:
        if me:
            return f"{name}: play a Rest (R) or any-time (X) event in {other}'s Rest phase, or pass"
        return f"{name} may play a Rest (R) or any-time (X) event in {other}'s Rest phase"
    if ph == S.DISCARD:
        n = len(st.hands[who]) - S.HAND_LIMIT
        if me:
            return f"{name}: discard a card (hand limit 7; {n} to discard)"
        return f"{name} is discarding down to 7 cards ({n} to discard)"
    if ph == S.NEGATE:
        card = g.card_name(st.evcard)
        if me:
            return f"{name}: choose the target of {card} ({_negate_words(st)})"
        return f"{name} is choosing the target of {card}"
    # TAKE
    if me:
        return f"{name}: take a card from the deck (Go Back in Time); the deck is shuffled afterwards"
    return f"{name} is searching the deck for a card (Go Back in Time)"


def _end_words(st: DSState) -> str:
    g = st.game
    if st.reason == "turn-limit":
        return f"the turn limit ({g.turn_limit} turns) was reached; nobody wins"
    if st.winner == 2:
        return "both players had no viable character at 2 checks in a row; nobody wins"
    loser = g.seat_name(1 - st.winner)
    return f"{loser} had no viable character at 2 checks in a row: {g.seat_name(st.winner)} wins"


def view(st: DSState, seat: int | None) -> dict[str, JSON]:
    """Exactly what ``seat`` may know (``None``: a spectator)."""
    g = st.game
    cj = g.card_json
    ph = st.phase
    base = st.xret if ph == S.XANY else st.ret if ph in (S.NEGATE, S.TAKE) else ph
    if base == S.XANY:  # an event played in an any-time window
        base = st.xret
    playing = st.pending if st.pending >= 0 else st.evcard
    # The public cards name the cards of past attacks and fights: needed only when there are some.
    public = st._known_cards(None) if st.attacks or st.fight else set()
    out: dict[str, JSON] = {
        "prompt": prompt(st, seat),
        "phase": None if st.is_over else RULEBOOK_PHASE.get(base),
        "step": STEP[S.OVER if st.is_over else ph],
        "turn_of": None if st.is_over else g.seat_name(st.active),
        "hand": [cj(c) for c in sorted(st.hands[seat])] if seat is not None else None,
        "hand_sizes": [len(st.hands[0]), len(st.hands[1])],
        "deck_size": len(st.stack) + len(st.pool),
        "table": _table(st),
        "playing": cj(playing) if playing >= 0 else None,
        "attacks": _attacks(st, public),
        "fight": _fight(st, public),
        "discard": [cj(c) for c in st.discard],
        "killed": [cj(c) for c in st.killed],
        "exiled": [cj(c) for c in st.exiled],
        "victory": _victory(st),
        "known_opponent_hand": None,
        "known_deck": None,
        "search": None,
    }
    if seat is not None:
        bits = st.peek[seat]
        out["known_opponent_hand"] = [cj(c) for c in sorted(st.hands[1 - seat]) if bits >> c & 1]
        n = len(st.stack)
        out["known_deck"] = [
            {"from_top": n - i, "card": cj(c)} for i, c in reversed(list(enumerate(st.stack))) if bits >> c & 1
        ]
        if ph == S.TAKE and st.current_player == seat:
            out["search"] = [cj(c) for c in sorted(st.stack + st.pool)]
    return out


def snapshot(st: DSState) -> dict[str, JSON]:
    """Everything, JSON-ready (the god view used for hashes, storage and tests)."""
    return {
        "phase": S.PHASE_NAMES[st.phase],
        "active": st.active,
        "stack": list(st.stack),
        "pool": list(st.pool),
        "hands": [list(h) for h in st.hands],
        "discard": list(st.discard),
        "killed": list(st.killed),
        "exiled": list(st.exiled),
        "chars": list(st.chars),
        "side": list(st.side),
        "owner": list(st.owner),
        "incap": list(st.incap),
        "ctl": list(st.ctl),
        "cap": list(st.cap),
        "mpow": list(st.mpow),
        "loc": list(st.loc),
        "att_on": list(st.att_on),
        "pending": st.pending,
        "evcard": [st.evcard, st.evseat],
        "ret": st.ret,
        "decl": [st.decl_a, st.decl_t],
        "attacks": list(st.attacks),
        "ares": st.ares,
        "dice": [st.ra, st.rd, st.ba, st.bd],
        "helpers": st.helpers,
        "marked": st.marked,
        "attacked": st.attacked,
        "fight": [list(st.fight), list(st.fpa), list(st.fpd), list(st.fhelp)],
        "any_time": [st.xowed, st.xseat, st.xret],
        "peek": list(st.peek),
        "streak": list(st.streak),
        "winner": st.winner,
        "reason": st.reason,
    }
