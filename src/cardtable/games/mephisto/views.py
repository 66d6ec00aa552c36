"""What each seat sees (``view``), the god view (``snapshot``) and the final result (``result``).

A seat's view holds its own hand, everything face-up (dungeon, discard pile, souls, cards in play and
the spells under them, the spell being resolved), the cards publicly known to be in other hands
(taken from the dungeon, or announced while their cost is paid), and only counts for the rest of the
hands and for the deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import JSON, Result, ranks_from_keys
from cardtable.games.mephisto.cards import OP_NAMES, TRIGGER_NAMES, TYPE_NAMES, describe_effect

if TYPE_CHECKING:
    from cardtable.games.mephisto.game import Mephisto
    from cardtable.games.mephisto.rules import MephistoState

SOLO_RANKS = ((20, "Expert"), (16, "Hard"), (11, "Medium"), (1, "Easy"), (0, "Unranked"))


def card_json(game: Mephisto, card: int) -> dict[str, JSON]:
    """A visible card: id, name, type and its public stats."""
    c = game.cards
    kind = c.type[card]
    out: dict[str, JSON] = {"id": card, "name": c.names[card], "type": TYPE_NAMES[kind]}
    if kind == 0:
        out["attack"] = c.attack[card]
        out["souls"] = c.souls[card]
        out["immediate"] = [describe_effect(e) for e in c.immediate[card]]
        if c.trigger[card]:
            out["ability"] = (
                TRIGGER_NAMES[c.trigger[card]] + ": " + "; ".join(describe_effect(e) for e in c.ability[card])
            )
        return out
    out["cost"] = c.cost[card]
    if kind == 1:
        out["attack"] = c.attack[card]
        out["range"] = c.range[card]
    if kind in (1, 3):
        out["durability"] = c.durability[card]
        out["on_play"] = [describe_effect(e) for e in c.on_play[card]]
        out["activate"] = [describe_effect(e) for e in c.activate[card]]
    if kind == 2:
        out["effects"] = [describe_effect(e) for e in c.effects[card]]
        if c.attach[card]:
            out["attached"] = f"+{c.attach_bonus[card]} attack to the host weapon"
    return out


def _in_play(s: MephistoState, seat: int) -> list[JSON]:
    g = s.game
    out: list[JSON] = []
    for card in s.inplay[seat]:
        d = card_json(g, card)
        d["remaining"] = s.dur[card]
        d["activated"] = bool(s.activated >> card & 1)
        d["attached_spells"] = [card_json(g, sp) for sp in s.attached if s.host[sp] == card]
        out.append(d)
    return out


def view(s: MephistoState, seat: int | None) -> dict[str, JSON]:
    g = s.game
    from cardtable.games.mephisto.rules import (
        P_ATTACH,
        P_DAMAGE,
        P_DISCARD,
        P_REMOVE,
        P_REPAIR,
        PHASE_NAMES,
        STEP_NAMES,
    )

    b = g.board

    def lanes_of(space: int) -> list[int]:
        return [b.space_lane[x][space] for x in range(len(b.sides))]

    dungeon: list[JSON] = []
    for space, card in enumerate(s.dungeon):
        x, y = b.coords[space]
        dungeon.append(
            {
                "space": space,
                "x": x,
                "y": y,
                "lane": b.space_lane[seat][space] if seat is not None else None,
                "lane_by_seat": lanes_of(space),
                "card": card_json(g, card) if card >= 0 else None,
            }
        )
    players: list[JSON] = []
    for p in range(g.players):
        players.append(
            {
                "seat": p,
                "side": b.sides[p],
                "team": g.team_of[p] if g.teams else None,
                "favor": s.favor[p],
                "soul_points": s.soul_pts[p],
                "souls": [card_json(g, m) for m in s.souls[p]],
                "hand_size": len(s.hands[p]),
                "known_hand": [card_json(g, c) for c in sorted(s.hands[p]) if s.pub >> c & 1],
                "in_play": _in_play(s, p),
                "attack_bonus": s.bonus[p],
            }
        )
    out: dict[str, JSON] = {
        "layout": b.layout,
        "blocked": [list(c) for c in b.blocked],
        "deck_at": list(b.deck_at) if b.deck_at else None,
        "my_lanes": {str(r): list(b.lane_spaces[seat][r]) for r in (1, 2, 3)} if seat is not None else None,
        "dungeon": dungeon,
        "deck_size": len(s.deck),
        "discard": [card_json(g, c) for c in s.discard],
        "limbo": [card_json(g, c) for c in s.limbo],
        "players": players,
        "hand": [card_json(g, c) for c in sorted(s.hands[seat])] if seat is not None else None,
        "first": s.first,
        "side_to_play": s.side,
        "actor": s.actor,
        "phase": PHASE_NAMES[s.phase],
        "step": STEP_NAMES[s.step],
        "passes": g.passes,
        "runouts": s.runouts,
        "end_turn": s.end_turn or None,
        "paying": card_json(g, s.paying) if s.paying >= 0 else None,
        "pay_left": s.pay_left,
        "pending": card_json(g, s.pending) if s.pending >= 0 else None,
        "fight": {"lane": s.fight_lane, "monsters": list(s.fight_mons), "weapons": list(s.fight_wpns)}
        if s.fight_lane
        else None,
        "queue": [[OP_NAMES[q[0]] if q[0] < len(OP_NAMES) else "finish", q[1], q[2], q[3]] for q in s.queue],
        "done_this_turn": [p for p in range(g.players) if s.team_done >> p & 1],
    }
    # The open choice: public, except a discard, which lists the discarding player's hand.
    if s.phase in (P_ATTACH, P_REPAIR, P_DAMAGE, P_REMOVE) or (s.phase == P_DISCARD and seat == s.current_player):
        out["choices"] = list(s.choices)
    if s.is_over:
        out["result"] = s.result().to_json()
    return out


def snapshot(s: MephistoState) -> dict[str, JSON]:
    return {
        "deck": list(s.deck),
        "discard": list(s.discard),
        "dungeon": list(s.dungeon),
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
        "phase": s.phase,
        "step": s.step,
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
    }


def solo_ranking(souls: int) -> str:
    """M12.8: Easy 1-10, Medium 11-15, Hard 16-19, Expert 20+ (0 souls earns no ranking)."""
    for floor, name in SOLO_RANKS:
        if souls >= floor:
            return name
    return "Unranked"


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
