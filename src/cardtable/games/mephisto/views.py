"""What each seat sees (``view``), the god view (``snapshot``) and the final result (``result``).

A seat's view is the table as a person in that seat sees it (DESIGN.md, "Views are for people"): a
prompt saying what is being decided, by whom and why; whose turn it is; progress towards the end;
the dungeon drawn from the seat's own side (rows far to near, lanes 1..3 left to right); every
player's favor, souls and cards in play; the seat's own lanes with the attack it would bring and the
monsters' attack there; a fight in progress with its totals; the card being paid for or resolved;
the discard pile; the seat's own hand. Cards are objects with their printed data in words
(:func:`~cardtable.games.mephisto.words.card_object`, made once per card: ``Mephisto.card_json``).
Hidden cards appear only as counts: other hands (except cards publicly known to be there: taken
from the dungeon, or announced while their cost is paid), the deck and the face-down corner cards.
Spectators see the table from P1's side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import JSON, Result, ranks_from_keys
from cardtable.engine.memo import per_game
from cardtable.games.mephisto.board import BLOCKED, DECK, SIDES
from cardtable.games.mephisto.cards import MONSTER, TYPE_NAMES, WEAPON
from cardtable.games.mephisto.rules import (
    P_ATTACH,
    P_DAMAGE,
    P_DISCARD,
    P_FAVOR,
    P_MON,
    P_PAY,
    P_PLAY,
    P_REMOVE,
    P_REPAIR,
    P_TAKE,
    P_TARGET,
    P_WPN,
    PHASE_NAMES,
    STEP_NAMES,
)
from cardtable.games.mephisto.words import lane_phrase, ordinal, team_name

if TYPE_CHECKING:
    from cardtable.games.mephisto.game import Mephisto
    from cardtable.games.mephisto.rules import MephistoState

SOLO_RANKS = ((20, "Expert"), (16, "Hard"), (11, "Medium"), (1, "Easy"), (0, "Unranked"))


# ---------------------------------------------------------------------- the decision in words
def _cards_word(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def _fight_totals(s: MephistoState) -> tuple[int, int, int]:
    """(attack so far without favor, attack needed, favor that closes the gap) of the open fight."""
    c = s.game.cards
    attack = s.fight_attack(s.actor, s.fight_wpns, 0)
    need = sum(c.attack[m] for m in s.fight_mons)
    return attack, need, max(0, need - attack)


def _effect_of(s: MephistoState, src: int) -> str:
    """``Slime's immediate effect``: the card an effect comes from, and which of its texts it is."""
    c = s.game.cards
    if c.type[src] == MONSTER:
        kind = "ability" if any(src in souls for souls in s.souls) else "immediate effect"
    else:
        kind = "effect"
    return f"{c.names[src]}'s {kind}"


def _decision(s: MephistoState, reader: int | None) -> tuple[str, str]:
    """The open decision as (what the deciding seat is told to do, what ``reader`` is told when it is
    another seat: lanes are numbered from the reader's side)."""
    g = s.game
    c = g.cards
    seat = s.current_player
    assert seat is not None
    who = g.seat_name(seat)
    phase = s.phase
    if phase == P_PLAY:
        partner = g.partner[seat]
        handover = f"; or hand the decision to {g.seat_name(partner)}" if s.can_switch() else ""
        if g.DONE in s.legal_actions():
            return (
                "no action is possible (the dungeon, the deck and the discard pile are empty): pass with done"
                + handover,
                f"{who} has no action to take",
            )
        return (
            "play or activate cards, then take your action: loot, fight or summon" + handover,
            f"{who} is playing cards or choosing an action",
        )
    if phase == P_PAY:
        name = c.names[s.paying]
        return (
            f"pay {s.pay_left} more for {name}: discard a card",
            f"{who} is paying for {name}: {s.pay_left} more {'card' if s.pay_left == 1 else 'cards'} to discard",
        )
    if phase == P_DISCARD:
        _, n, _, _, src = s.queue[0]
        return (
            f"discard {_cards_word(n)} ({_effect_of(s, src)})",
            f"{who} is choosing {_cards_word(n)} to discard ({_effect_of(s, src)})",
        )
    if phase in (P_MON, P_WPN, P_FAVOR):
        return _fight_decision(s, seat, who, reader)
    if phase == P_TAKE:
        name = c.names[s.pending]
        return (
            f"summoning {name}: choose the dungeon card to take into your hand in its place",
            f"{who} is summoning {name}: choosing the dungeon card to take in its place",
        )
    if phase == P_ATTACH:
        name = c.names[s.pending]
        return f"choose the weapon to attach {name} to", f"{who} is choosing the weapon to attach {name} to"
    if phase == P_TARGET:
        name = c.names[s.pending]
        mate = g.seat_name(g.partner[seat])
        return (
            f"choose who gets the effects of {name}: you ({who}) or {mate}",
            f"{who} is choosing who gets the effects of {name}: {who} or {mate}",
        )
    if phase in (P_REPAIR, P_DAMAGE):
        _, n, t, chooser, src = s.queue[0]
        why = f"({_effect_of(s, src)})"
        if phase == P_REPAIR:
            whose = "one of your" if t == chooser else f"one of {g.seat_name(t)}'s"
            return (
                f"choose {whose} items or weapons to repair by {n} {why}",
                f"{who} is choosing an item or weapon to repair {why}",
            )
        if t == chooser:
            return (
                f"choose one of your items or weapons to lose {n} durability {why}",
                f"{who} is choosing one of their items or weapons to lose {n} durability {why}",
            )
        return (
            f"choose an opponent's item or weapon to lose {n} durability {why}",
            f"{who} is choosing an opponent's item or weapon to lose {n} durability {why}",
        )
    assert phase == P_REMOVE
    turned = s.discard[-1]
    kind = TYPE_NAMES[c.type[turned]]
    return (
        f"the solitaire step turned up {c.names[turned]} (a {kind}): choose which of the tied {kind}s "
        "to discard from the dungeon",
        f"{who} is choosing which of the tied {kind}s to discard from the dungeon",
    )


def _fight_decision(s: MephistoState, seat: int, who: str, reader: int | None) -> tuple[str, str]:
    g = s.game
    attack, need, gap = _fight_totals(s)
    lane_for = lane_phrase(g, seat, seat, s.fight_lane)
    lane_seen = lane_phrase(g, reader, seat, s.fight_lane)
    if s.phase == P_MON:
        chosen = f" (chosen so far: {need} attack)" if s.fight_mons else ""
        return (
            f"choose the monsters to fight in {lane_for}{chosen}, then done",
            f"{who} is choosing the monsters to fight in {lane_seen}",
        )
    totals = f"attack {attack} against {need}"
    if s.phase == P_WPN:
        return (
            f"choose the weapons to fight with in {lane_for} ({totals} so far), then done",
            f"{who} is choosing the weapons to fight with in {lane_seen} ({totals} so far)",
        )
    favor = s.favor[seat]
    if not gap:
        advice = "you win without favor (spend 0)"
    elif gap <= favor:
        advice = f"{gap} favor wins the fight (you have {favor})"
    else:
        advice = f"even all your {favor} favor leaves you {gap - favor} short"
    return f"spend favor in the fight: {totals}; {advice}", f"{who} is choosing how much favor to spend ({totals})"


def decision_words(s: MephistoState, seat: int) -> str:
    """What ``seat`` is told about the open decision (imperative when it decides)."""
    if s.is_over:
        return "the game is over: " + outcome_words(s)
    mine, theirs = _decision(s, seat)
    return mine if seat == s.current_player else theirs


def prompt(s: MephistoState, seat: int | None) -> str:
    """One line: what is being decided now, by whom and why, as ``seat`` may know it."""
    if s.is_over:
        return "Game over: " + outcome_words(s)
    deciding = s.current_player
    assert deciding is not None
    mine, theirs = _decision(s, seat)
    if seat == deciding:
        return f"{s.game.seat_name(seat)}: {mine}"
    return theirs[0].upper() + theirs[1:]


def outcome_words(s: MephistoState) -> str:
    """How the game ended ("P1 wins with 14 soul points (P2 11)")."""
    g = s.game
    res = result(s)
    details = res.details
    if g.solo:
        return f"{g.seat_name(0)} collected {s.soul_pts[0]} soul points: {details['ranking']}"
    by = str(details["decided_by"])
    if g.teams:
        totals = details["team_soul_points"]
        assert isinstance(totals, list)
        score = ", ".join(f"{team_name(g, t)} {totals[t]}" for t in (0, 1))
    else:
        score = ", ".join(f"{g.seat_name(p)} {s.soul_pts[p]}" for p in range(g.players))
    if res.draw:
        return f"a draw (soul points: {score}; still tied on favor and on weapons and items in play)"
    winners = res.winners
    if g.teams:
        name, verb = team_name(g, g.team_of[winners[0]]), "win"
    else:
        name, verb = " and ".join(g.seat_name(w) for w in winners), "wins"
    tie = "" if by == "soul points" else f", tied on soul points and decided by {by}"
    return f"{name} {verb} (soul points: {score}{tie})"


# ---------------------------------------------------------------------- the table
class _Words:
    """Per game, the words of a view that depend on the seats and the board alone (built once per
    game, on first need): seat and team names, where each seat sits and how it names each lane as
    each reader sees it. Only strings and tuples: nothing a caller of a view could change."""

    __slots__ = ("lanes", "monsters", "names", "seen", "sides", "teams", "where")

    def __init__(self, g: Mephisto) -> None:
        n = g.players
        readers: tuple[int | None, ...] = (None, *range(n))
        self.names = tuple(g.seat_name(p) for p in range(n))
        self.teams = tuple(team_name(g, g.team_of[p]) for p in range(n)) if g.teams else ()
        self.sides = tuple(team_name(g, side) for side in range(g.n_sides))
        # Indexed by reader + 1 (0: the spectator).
        self.where = tuple(tuple(_where(g, r, p) for p in range(n)) for r in readers)
        c = g.cards
        self.monsters = tuple(f"{c.names[m]} ({c.attack[m]})" for m in range(len(c.names)))
        """A monster in a lane's list: ``Slime (2)``, by card id."""
        self.lanes = tuple(
            tuple((None, *(lane_phrase(g, r, p, lane) for lane in (1, 2, 3))) for p in range(n)) for r in readers
        )
        self.seen = tuple(
            tuple(tuple(g.board.lane_as_seen(0 if r is None else r, p, lane) for lane in (1, 2, 3)) for p in range(n))
            for r in readers
        )
        """Where each seat's lanes 1..3 lie on the reader's picture of the dungeon: ``(reader's lane, "")``
        or ``(0, row)`` for a lane that crosses the reader's lanes (a seat at the reader's left or right)."""


_words = per_game(_Words)


def _where(g: Mephisto, reader: int | None, other: int) -> str:
    """Where ``other`` sits as ``reader`` sees the table (spectators sit on P1's side)."""
    me = 0 if reader is None else reader
    if other == me:
        return "you" if reader is not None else "near side"
    sides = g.board.sides
    offset = (SIDES.index(sides[other]) - SIDES.index(sides[me])) % 4
    return ("across the table", "on your left", "across the table", "on your right")[offset]


def _in_play(s: MephistoState, owner: int, lanes: tuple[str | None, ...]) -> list[JSON]:
    """``owner``'s cards in play; ``lanes``: how the reader names ``owner``'s lanes 1..3."""
    g = s.game
    c = g.cards
    card_json = g.card_json
    ctype = c.type
    dur = s.dur
    activated = s.activated
    out: list[JSON] = []
    for card in s.inplay[owner]:
        d = card_json(card)
        d["durability_left"] = dur[card]
        d["activated_this_turn"] = bool(activated >> card & 1)
        if ctype[card] == WEAPON:
            host = s.host
            d["lane"] = lanes[c.range[card]]
            d["attached"] = [card_json(sp) for sp in s.attached if host[sp] == card]
        out.append(d)
    return out


def _players(s: MephistoState, seat: int | None, w: _Words) -> list[JSON]:
    g = s.game
    card_json = g.card_json
    r = 0 if seat is None else seat + 1
    where = w.where[r]
    lanes = w.lanes[r]
    seen = w.seen[r]
    pub = s.pub
    out: list[JSON] = []
    for p in range(g.players):
        row: dict[str, JSON] = {"name": w.names[p], "sits": where[p]}
        if w.teams:
            row["team"] = w.teams[p]
        row["favor"] = s.favor[p]
        row["soul_points"] = s.soul_pts[p]
        hand = s.hands[p]
        row["cards_in_hand"] = len(hand)
        row["attack_bonus_this_turn"] = s.bonus[p]
        row["souls"] = [card_json(m) for m in s.souls[p]]
        if p != seat:
            row["known_in_hand"] = [card_json(k) for k in sorted([k for k in hand if pub >> k & 1])] if pub else []
        row["in_play"] = _in_play(s, p, lanes[p])
        # Where this player's lanes 1..3 (a weapon's range) lie on the dungeon as drawn for the reader:
        # a column of it (``lane``, the reader's number) or, for a seat at the reader's side, a row.
        row["lanes_seen"] = [{"lane": mine} if mine else {"row": place} for mine, place in seen[p]]
        out.append(row)
    return out


def _dungeon(s: MephistoState, seat: int | None) -> dict[str, JSON]:
    g = s.game
    me = 0 if seat is None else seat
    card_json = g.card_json
    dungeon = s.dungeon
    rows: list[JSON] = []
    for row in g.board.picture[me]:
        cells: list[JSON] = []
        for kind, space, lane, place in row:
            if kind == BLOCKED:
                cells.append({"lane": lane, "place": place, "face_down": "a face-down corner card: out of play"})
            elif kind == DECK:
                cells.append({"lane": lane, "place": place, "deck": len(s.deck)})
            else:
                card = dungeon[space]
                cells.append({"lane": lane, "place": place, "card": card_json(card) if card >= 0 else None})
        rows.append(cells)
    side = "your side" if seat is not None else f"{g.seat_name(0)}'s side"
    return {"seen_from": f"{side} ({g.board.sides[me]}): rows far to near, lanes 1-3 left to right", "rows": rows}


def _your_lanes(s: MephistoState, seat: int) -> list[JSON]:
    """For each of ``seat``'s lanes: the monsters there, the attack it would bring with every weapon
    there, and the favor it would need to defeat them all."""
    g = s.game
    c = g.cards
    labels = _words(g).monsters
    # s.lane_weapons for the three lanes in one pass (same order: the order in play).
    ctype, crange = c.type, c.range
    by_lane: tuple[list[int], ...] = ([], [], [], [])
    for w in s.inplay[seat]:
        if ctype[w] == WEAPON and 1 <= crange[w] <= 3:
            by_lane[crange[w]].append(w)
    unarmed: list[tuple[str, int]] | None = None  # attack_parts(seat, [], 0), asked for once
    out: list[JSON] = []
    for lane in (1, 2, 3):
        mons = s.lane_monsters(seat, lane)
        weapons = by_lane[lane]
        if weapons:
            parts = s.attack_parts(seat, weapons, 0)
        else:
            if unarmed is None:
                unarmed = s.attack_parts(seat, weapons, 0)
            parts = unarmed
        attack = sum(n for _, n in parts)
        need = sum(c.attack[m] for m in mons)
        out.append(
            {
                "lane": lane,
                "monsters": ", ".join([labels[m] for m in mons]) or "none",
                "monster_attack": need,
                "your_attack": attack,
                "attack_from": " + ".join(f"{label} {n}" for label, n in parts) or "nothing",
                "favor_to_win_all": max(0, need - attack) if mons else 0,
            }
        )
    return out


def _fight(s: MephistoState, seat: int | None) -> dict[str, JSON] | None:
    if s.phase not in (P_MON, P_WPN, P_FAVOR):
        return None
    g = s.game
    fighter = s.actor
    attack, need, gap = _fight_totals(s)
    parts = s.attack_parts(fighter, s.fight_wpns, 0)
    return {
        "fighter": g.seat_name(fighter),
        "lane": lane_phrase(g, seat, fighter, s.fight_lane),
        "monsters": [g.card_json(m) for m in s.fight_mons],
        "needed": need,
        "weapons": [g.card_json(w) for w in s.fight_wpns],
        "attack": attack,
        "attack_from": " + ".join(f"{label} {n}" for label, n in parts) or "nothing yet",
        "favor_to_close_gap": gap,
        "fighter_favor": s.favor[fighter],
        "summary": f"attack {attack} against {need}: " + _gap_words(gap, g.seat_name(fighter), s.favor[fighter]),
    }


def _gap_words(gap: int, who: str, favor: int) -> str:
    if not gap:
        return "enough to win"
    if gap <= favor:
        return f"{gap} favor closes the gap ({who} has {favor})"
    return f"{gap} favor would close the gap, but {who} has only {favor}"


def _resolving(s: MephistoState) -> dict[str, JSON] | None:
    """The card being paid for, summoned or resolved, or whose effect asks for the open decision."""
    g = s.game
    phase = s.phase
    who = g.seat_name(s.actor)
    if phase == P_PAY:
        card, status = s.paying, f"{who} is paying for it: {s.pay_left} more to discard"
    elif phase == P_TAKE:
        card, status = s.pending, f"{who} is summoning it"
    elif phase == P_ATTACH:
        card, status = s.pending, f"{who} played it: it attaches to a weapon"
    elif phase == P_TARGET:
        card, status = s.pending, f"{who} played or activated it: its effects go to {who} or their partner"
    elif phase in (P_DISCARD, P_REPAIR, P_DAMAGE):
        card, status = s.queue[0][4], "its effect is resolving"
    elif phase == P_REMOVE:
        card, status = s.discard[-1], "turned up by the solitaire step"
    else:
        return None
    return {"card": g.card_json(card), "status": status}


def _whose_turn(s: MephistoState) -> str:
    g = s.game
    if s.is_over:
        return f"the game ended after turn {s.turn}"
    name = _words(g).sides[s.side]
    if not g.teams:
        return f"turn {s.turn}: {name}'s turn"
    status = "; ".join(
        f"{g.seat_name(p)} {'has taken their action' if s.team_done >> p & 1 else 'still to take their action'}"
        for p in (s.side, s.side + 2)
    )
    return f"turn {s.turn}: team {name}'s turn ({status})"


def _progress(s: MephistoState) -> dict[str, JSON]:
    g = s.game
    this_pass = min(s.runouts + 1, g.passes)
    out: dict[str, JSON] = {"deck": len(s.deck), "pass_through_deck": f"{this_pass} of {g.passes}"}
    if s.is_over:
        out["end"] = "the game is over"
    elif s.end_turn:
        out["end"] = "triggered: " + s.end_words()
    else:
        when = "runs out" if s.runouts + 1 >= g.passes else f"runs out for the {ordinal(g.passes)} time"
        if g.solo:
            then = "you get one more turn"
        elif g.left_of_start:
            then = f"play goes on until {_words(g).sides[(s.first + 1) % g.n_sides]} finishes a turn"
        elif g.complete_round:
            verb = "play" if g.teams else "plays"
            last = (s.first - 1) % g.n_sides
            then = f"play goes on until the round is complete ({_words(g).sides[last]} {verb} last)"
        else:
            then = "the game ends after that turn"
        out["end"] = f"when the deck {when}, {then}"
    if g.solo:
        out["ranking"] = solo_progress(s.soul_pts[0])
    return out


def view(s: MephistoState, seat: int | None) -> dict[str, JSON]:
    g = s.game
    return {
        "prompt": prompt(s, seat),
        "whose_turn": _whose_turn(s),
        "progress": _progress(s),
        "dungeon": _dungeon(s, seat),
        "players": _players(s, seat, _words(g)),
        "your_lanes": _your_lanes(s, seat) if seat is not None else None,
        "fight": _fight(s, seat),
        "resolving": _resolving(s),
        "discard_pile": [g.card_json(k) for k in s.discard],
        "hand": [g.card_json(k) for k in sorted(s.hands[seat])] if seat is not None else None,
    }


def snapshot(s: MephistoState) -> dict[str, JSON]:
    return {
        "deck": list(s.deck),
        "discard": list(s.discard),
        "dungeon": list(s.dungeon),
        "corners": list(s.corners),
        "emptied_by": list(s.emptied_by),
        "hands": [list(h) for h in s.hands],
        "favor": list(s.favor),
        "souls": [list(x) for x in s.souls],
        "soul_pts": list(s.soul_pts),
        "inplay": [list(x) for x in s.inplay],
        "dur": list(s.dur),
        "host": list(s.host),
        "attached": list(s.attached),
        "limbo": list(s.limbo),
        "pub": s.pub,
        "activated": s.activated,
        "bonus": list(s.bonus),
        "queue": [list(q) for q in s.queue],
        "choices": list(s.choices),
        "phase": PHASE_NAMES[s.phase],
        "step": STEP_NAMES[s.step],
        "actor": s.actor,
        "side": s.side,
        "first": s.first,
        "runouts": s.runouts,
        "end_turn": s.end_turn,
        "paying": s.paying,
        "pay_left": s.pay_left,
        "pending": s.pending,
        "fight": [s.fight_lane, list(s.fight_mons), list(s.fight_wpns)],
        "team_done": s.team_done,
        "acted": s.acted,
        "handed": s.handed,
    }


def solo_ranking(souls: int) -> str:
    """M12.8: Easy 1-10, Medium 11-15, Hard 16-19, Expert 20+ (0 souls earns no ranking)."""
    for floor, name in SOLO_RANKS:
        if souls >= floor:
            return name
    return "Unranked"


def solo_progress(souls: int) -> str:
    """``Medium so far; 16 soul points for Hard``."""
    now = solo_ranking(souls)
    better = [(floor, name) for floor, name in SOLO_RANKS if floor > souls]
    if not better:
        return f"{now} so far (the best ranking)"
    floor, name = better[-1]
    return f"{now} so far; {floor} soul points for {name}"


def result(s: MephistoState) -> Result:
    """M9.3-M9.4: soul points, then favor, then weapons+items in play, then a draw (teams: summed)."""
    if not s.is_over:
        raise ValueError("the game is not over")
    g = s.game
    n = g.players
    own = [(float(s.soul_pts[p]), float(s.favor[p]), float(len(s.inplay[p]))) for p in range(n)]
    details: dict[str, JSON] = {
        "soul_points": list(s.soul_pts),
        "favor": list(s.favor),
        "in_play": [len(x) for x in s.inplay],
    }
    teams = None
    keys: list[tuple[float, ...]]
    if g.teams:
        teams = ((0, 2), (1, 3))
        team_key = [tuple(float(sum(own[p][i] for p in t)) for i in range(3)) for t in teams]
        keys = [team_key[g.team_of[p]] for p in range(n)]
        details["team_soul_points"] = [int(k[0]) for k in team_key]
    else:
        keys = list(own)
    ranks = ranks_from_keys(keys)
    winners = tuple(p for p in range(n) if ranks[p] == 1)
    draw = len({g.team_of[p] for p in winners}) > 1
    # Which tie-break settled first place (for statistics): 0 souls, 1 favor, 2 equipment, 3 draw.
    top = [keys[p] for p in winners]
    best_others = [keys[p] for p in range(n) if ranks[p] > 1]
    level = 3 if draw else 0
    if not draw and best_others:
        runner = max(best_others)
        level = next((i for i in range(3) if top[0][i] != runner[i]), 3)
    details["decided_by"] = ("soul points", "favor", "weapons and items", "draw")[level]
    if g.solo:
        details["ranking"] = solo_ranking(s.soul_pts[0])
    return Result(
        scores=tuple(k[0] for k in keys),
        ranks=ranks,
        winners=() if draw else winners,
        reason="deck-exhausted",
        turns=s.turn,
        draw=draw,
        teams=teams,
        details=details,
    )


__all__ = ["decision_words", "outcome_words", "prompt", "result", "snapshot", "view"]
