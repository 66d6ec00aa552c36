"""What each seat sees (``view``), the prompt, the god view (``snapshot``) and the result.

A view is the table as a person in that seat sees it (DESIGN.md, "Views are for people"): the 3x3
map with each location's top monster (both sides) and what is still below it (a set anyone can work
out, never its order), the Sorceress, the Heap in order, the trainer, the stat piles, every display
case, escrow, played cards and discard pile, the totals a player adds up (bonuses per maneuver, the
score against each target in a combat, the mojo pool, the March totals), and a prompt saying what is
being decided, by whom and why. Hidden: other players' hands (a count, and what hand and deck hold
together, which is public), every deck's order, the hidden part of the location piles and the skill
draw pile (a count). Stat cards of one kind are interchangeable, so they appear as kinds with counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import JSON, Action, Result, ranks_from_keys
from cardtable.games.mr_card_game import modifiers
from cardtable.games.mr_card_game.cards import (
    CLASS_WORDS,
    E_COMBAT,
    E_NONCOMBAT,
    E_PASSIVE,
    K_BOSS,
    K_STAT,
    MOJO_X,
    S_BUFF,
    S_COMBAT,
    S_NONCOMBAT,
    S_PASSIVE,
    SKILL_SUBTYPES,
    STAT_KINDS,
)
from cardtable.games.mr_card_game.codes import (
    D_CHOOSE,
    D_COMBAT,
    D_DISCARD,
    D_LIMIT,
    D_MANEUVER,
    D_NONCOMBAT,
    D_POLL,
    D_PULVERIZE,
    D_SPELLX,
    D_TARGET,
    D_UPGRADE,
    M_MARCH,
    NO_LIMIT,
    ST_COMBAT,
    ST_MANEUVER,
    ST_TARGET,
)
from cardtable.games.mr_card_game.effects import (
    BONUS_WORDS,
    ELEMENTS,
    MANEUVER_STAT,
    MANEUVER_WORDS,
    MANEUVERS,
    STAT_WORDS,
    describe,
)

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.game import MrCardGame
    from cardtable.games.mr_card_game.state import McgState

_ITEM_TYPE_WORDS = ("weapon", "hat", "pants", "accessory", "food", "booze", "combat item")
_SKILL_ABILITY = ("passive", "buff", "combat", "non-combat")


# -- card objects ------------------------------------------------------------------------------------


def _bonus(icons: tuple[int, int, int, int]) -> dict[str, JSON]:
    return {MANEUVERS[m]: v for m, v in enumerate(icons) if v}


def _bonus_words(icons: tuple[int, int, int, int]) -> list[str]:
    return [f"+{v} {BONUS_WORDS[m]}" for m, v in enumerate(icons) if v]


def item_text(g: MrCardGame, card: int) -> str:
    """An item's printed abilities in words (computed once per game and card)."""
    key = ("item", card)
    text = g.text_cache.get(key)
    if text is None:
        text = g.text_cache[key] = _item_text(g, card)
    return text


def _item_text(g: MrCardGame, card: int) -> str:
    c = g.cards
    parts = _bonus_words(c.icons[card])
    effects = "; ".join(describe(e) for e in c.effects[card])
    et = c.etype[card]
    consumed = c.itype[card] >= 4 or g.consume_all
    if et == E_PASSIVE and effects:
        parts.append(f"Passive: {effects}")
    elif et == E_NONCOMBAT:
        parts.append(f"Non-combat{' (used up)' if consumed else ', once a turn'}: {effects}")
    elif et == E_COMBAT:
        parts.append(f"Combat{' (used up)' if consumed else ', once a turn'}: {effects}")
    if c.slot[card] >= 0:
        parts.append("works only while equipped")
    return ". ".join(p[0].upper() + p[1:] for p in parts) + ("." if parts else "")


def item_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    """An item card (item side up)."""
    c = g.cards
    it = c.itype[card]
    kind = _ITEM_TYPE_WORDS[it]
    if it == 0:
        kind = ("ranged " if c.ranged[card] else "melee ") + kind
    out: dict[str, JSON] = {
        "id": card,
        "name": c.iname[card],
        "type": kind,
        "text": item_text(g, card),
        "bonus": _bonus(c.icons[card]),
        "power": c.anvil[card] if c.slot[card] >= 0 else None,
        "autosell": c.autosell[card] if c.autosell[card] >= 0 else None,
        "meat_cost": c.price[card] if c.price[card] >= 0 else None,
    }
    return out


def _item_side(g: MrCardGame, card: int) -> dict[str, JSON]:
    """The item side of a card on the map (no id: the card object is the monster)."""
    d = item_json(g, card)
    del d["id"]
    return d


def monster_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    c = g.cards
    drop = c.drop[card]
    return {
        "id": card,
        "name": c.mname[card],
        "type": "monster",
        "text": "",
        "power": c.mpower[card],
        "element": ELEMENTS[c.element[card]],
        "meat": c.meat[card],
        "stat_drop": stat_words(g, drop) if drop >= 0 else f"any type, value {-1 - drop}",
        "location": c.locations[c.loc[card]].name if c.loc[card] >= 0 else "",
        "item_side": _item_side(g, card),
    }


def skill_text(g: MrCardGame, card: int) -> str:
    """A skill's printed abilities in words (computed once per game and card)."""
    key = ("skill", card)
    text = g.text_cache.get(key)
    if text is None:
        text = g.text_cache[key] = _skill_text(g, card)
    return text


def _skill_text(g: MrCardGame, card: int) -> str:
    c = g.cards
    parts = _bonus_words(c.icons[card])
    effects = "; ".join(describe(e) for e in c.effects[card])
    st = c.stype[card]
    if st == S_PASSIVE:
        if effects:
            parts.append(f"Passive: {effects}")
    elif st == S_BUFF:
        parts = [
            f"Buff ({c.mojo[card]} mojo, until your next rollover or the March): "
            + "; ".join([*parts, *([effects] if effects else [])])
        ]
    elif st == S_COMBAT:
        cost = "X" if c.mojo[card] == MOJO_X else str(c.mojo[card])
        parts.append(f"Combat ({cost} mojo, once a turn): {effects}")
    elif st == S_NONCOMBAT:
        parts.append(f"Non-combat ({c.mojo[card]} mojo, once a turn): {effects}")
    return ". ".join(p[0].upper() + p[1:] for p in parts) + ("." if parts else "")


def skill_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    c = g.cards
    st = c.stype[card]
    return {
        "id": card,
        "name": c.iname[card],
        "type": SKILL_SUBTYPES[c.ssub[card]],
        "text": skill_text(g, card),
        "class": CLASS_WORDS[c.sclass[card]],
        "ability": _SKILL_ABILITY[st],
        "cost": c.cost[card],
        "mojo": None if st == S_PASSIVE else ("X" if c.mojo[card] == MOJO_X else c.mojo[card]),
        "bonus": _bonus(c.icons[card]),
    }


def stat_words(g: MrCardGame, kind: int) -> str:
    t, v = divmod(kind, 4)
    return f"{g.cards.stat_names[kind]} ({STAT_WORDS[t]} {v + 1})"


def kind_groups(s: McgState, cards: list[int] | tuple[int, ...]) -> list[JSON]:
    """Stat cards as kinds with counts (they are interchangeable), by type then value."""
    g = s.game
    skind = g.cards.skind
    counts = [0] * 12
    for card in cards:
        counts[skind[card]] += 1
    out: list[JSON] = []
    for k in range(12):
        if counts[k]:
            t, v = divmod(k, 4)
            out.append(
                {
                    "kind": STAT_KINDS[k],
                    "name": g.cards.stat_names[k],
                    "type": "stat",
                    "text": "",
                    "stat": STAT_WORDS[t],
                    "value": v + 1,
                    "count": counts[k],
                }
            )
    return out


def card_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    """Any card as people see it face up."""
    c = g.cards
    k = c.kind[card]
    if card in c.skills:
        return skill_json(g, card)
    if k == K_BOSS:
        return {"id": card, "name": c.negative_name[card], "type": "negative effect", "text": ""}
    if k == K_STAT:
        return {"id": card, "name": c.stat_names[c.skind[card]], "type": "stat", "text": ""}
    if card < c.items.stop:
        return item_json(g, card)
    return {"id": card, "name": c.iname[card], "type": "card", "text": ""}


# -- the prompt --------------------------------------------------------------------------------------


def prompt(s: McgState, seat: int | None) -> str:
    """One sentence: what is being decided now, by whom and why (as ``seat`` may know it)."""
    g = s.game
    if s.is_over:
        return "The game is over: " + _ending(s)
    p = s.current_player if s.current_player is not None else s.actor
    who = g.seat_name(p)
    you = " (you)" if seat == p else ""
    ph = s.phase
    march = s.mode == M_MARCH
    if ph == D_POLL:
        return f"{who}{you}: march on the Tower, or pass? (round {s.round} is over)"
    if ph == D_NONCOMBAT:
        if march:
            return f"{who}{you}: the March on the Tower — your last non-combat phase (done when finished)"
        return (
            f"{who}{you}: non-combat phase — equip, AutoSell, use items, train, skills and buffs, "
            "Dumpster Dive; then start a combat or end the turn"
        )
    if ph == D_SPELLX:
        return f"{who}{you}: choose X, the mojo to spend on {g.cards.iname[s.pending]} (a Spell Attack ability)"
    if ph == D_CHOOSE:
        src = s.queue[0][3]
        why = f" ({g.cards.name(src)}'s effect)" if src >= 0 else ""
        return f"{who}{you}: choose the type of the value-{s.queue[0][2]} stat card to gain{why}"
    if ph == D_PULVERIZE:
        return f"{who}{you}: choose the item with an anvil to Pulverize"
    if ph == D_UPGRADE:
        if s.upg_roll:
            return f"{who}{you}: rollover — upgrade or exchange one card of your discard pile, or not"
        return f"{who}{you}: upgrade or exchange one card of your discard pile (an effect), or not"
    if ph == D_COMBAT:
        if march:
            return (
                f"{who}{you}: the March — combat items and skills, then a maneuver against the "
                f"{g.cards.sorceress_name} (or end the combat and announce the damage alone)"
            )
        return (
            f"{who}{you}: combat step 1 — combat items and skills, then a maneuver (or kill a monster the "
            "damage alone beats, or end the combat)"
        )
    if ph == D_MANEUVER:
        t = STAT_WORDS[MANEUVER_STAT[s.man]]
        return f"{who}{you}: {MANEUVER_WORDS[s.man]} — play {t} cards (so far {s.psum}), then done"
    if ph == D_TARGET:
        return f"{who}{you}: choose the monster to kill (your score against each is shown), or end the combat"
    if ph == D_DISCARD:
        return f"{who}{you}: end of turn — discard any cards, then draw up to six"
    if ph == D_LIMIT:
        return f"{who}{you}: end of turn — discard down to six cards"
    return f"{who}{you} decides"


def _ending(s: McgState) -> str:
    g = s.game
    if s.reason == "sorceress-defeated":
        names = " and ".join(g.seat_name(w) for w in s.winners)
        return f"{names} defeated the {g.cards.sorceress_name}"
    if s.reason == "all-eliminated":
        return "every adventurer is out; nobody won"
    return f"the turn limit ({g.turn_limit} rounds) was reached; nobody won"


def _phase_words(s: McgState) -> str:
    g = s.game
    if s.is_over:
        return "game over"
    if s.phase == D_POLL:
        return "the March poll"
    who = g.seat_name(s.actor)
    if s.mode == M_MARCH:
        part = "non-combat" if s.phase == D_NONCOMBAT else "combat"
        return f"the March on the Tower: {who}'s {part} phase"
    if s.phase in (D_DISCARD, D_LIMIT) or (s.phase == D_UPGRADE and s.upg_roll):
        return f"{who}'s end of turn"
    if s.phase in (D_COMBAT, D_MANEUVER, D_TARGET) or (s.man >= 0 and s.phase != D_NONCOMBAT):
        return f"{who}'s combat phase"
    return f"{who}'s non-combat phase"


# -- the view ----------------------------------------------------------------------------------------


def _display_case(s: McgState, p: int) -> list[JSON]:
    g = s.game
    out: list[JSON] = []
    for card in s.items[p]:
        d = item_json(g, card)
        if g.cards.slot[card] >= 0:
            d["equipped"] = bool(s.eq >> card & 1)
        if s.used >> card & 1:
            d["used_this_turn"] = True
        out.append(d)
    return out


def _skills(s: McgState, p: int) -> list[JSON]:
    g = s.game
    out: list[JSON] = []
    for card in s.skills[p]:
        d = skill_json(g, card)
        if g.cards.stype[card] == S_BUFF:
            d["active"] = bool(s.buffs >> card & 1)
        elif g.cards.stype[card] in (S_COMBAT, S_NONCOMBAT):
            d["used_this_turn"] = bool(s.used >> card & 1)
        out.append(d)
    return out


def _bonuses(s: McgState, p: int) -> dict[str, JSON]:
    m = s.mods[p]
    out: dict[str, JSON] = {MANEUVERS[i]: m[i] for i in range(4)}
    vs: dict[str, JSON] = {}
    for e in range(1, 6):
        row = {MANEUVERS[i]: m[modifiers.VS + 4 * e + i] for i in range(4) if m[modifiers.VS + 4 * e + i]}
        if row:
            vs[ELEMENTS[e]] = row
    if vs:
        out["against"] = vs
    extra = {
        "meat per kill": m[modifiers.MEAT],
        "training cost": m[modifiers.SKILLCOST],
        "AutoSell": m[modifiers.SELL],
        "Heap prices": m[modifiers.DIVE],
        "rollover upgrades": m[modifiers.UPGRADES],
    }
    for k, v in extra.items():
        if v:
            out[k] = v
    return out


def _combat(s: McgState) -> dict[str, JSON] | None:
    from cardtable.games.mr_card_game.combat import power_of, score, targets
    from cardtable.games.mr_card_game.march import threshold

    if s.phase not in (D_COMBAT, D_MANEUVER, D_TARGET) and not (
        s.phase in (D_SPELLX, D_CHOOSE, D_UPGRADE) and s.step in (ST_COMBAT, ST_MANEUVER, ST_TARGET)
    ):
        return None
    g = s.game
    c = g.cards
    out: dict[str, JSON] = {
        "player": g.seat_name(s.actor),
        "maneuver": MANEUVER_WORDS[s.man] if s.man >= 0 else None,
        "cards_played_total": s.psum,
        "damage": s.dmg,
        "extra_damage_against": {ELEMENTS[e]: s.dmg_vs[e] for e in range(6) if s.dmg_vs[e]},
        "power_reduction": s.red,
        "bonus_this_combat": {MANEUVERS[m]: s.cb[m] for m in range(4) if s.cb[m]},
    }
    if s.mode == M_MARCH:
        sorc = c.sorceress
        out["against_sorceress"] = {"score": score(s, c.element[sorc]), "needs": threshold(s)}
    else:
        rows: list[JSON] = []
        for t in targets(s):
            power = power_of(s, t)
            sc = score(s, c.element[t])
            rows.append(
                {
                    "monster": c.mname[t],
                    "card": t,
                    "element": ELEMENTS[c.element[t]],
                    "power": power,
                    "score": sc,
                    "beaten": power <= 0 or sc >= power,
                }
            )
        out["targets"] = rows
    return out


def view(s: McgState, seat: int | None) -> dict[str, JSON]:
    g = s.game
    c = g.cards
    locations: list[JSON] = []
    for li in c.kingdom:
        loc = c.locations[li]
        top = s.top[li]
        grid = loc.grid or (0, 0)
        locations.append(
            {
                "location": loc.name,
                "row": grid[0],
                "column": grid[1],
                "monster": monster_json(g, top) if top >= 0 else None,
                "hidden_cards": len(s.below[li]),
                "still_below": sorted(c.mname[x] for x in s.below[li]),
                "empty": top < 0 and not s.below[li],
            }
        )
    skind = c.skind
    players: list[JSON] = []
    for p in range(g.players):
        hand_deck = [*s.hand[p], *s.deck[p]]
        players.append(
            {
                "seat": g.seat_name(p),
                "meat": s.meat[p],
                "out_of_the_game": bool(s.out >> p & 1),
                "certificate": s.cert == p,
                "bonuses": _bonuses(s, p),
                "display_case": _display_case(s, p),
                "skills": _skills(s, p),
                "escrow": [item_json(g, x) for x in s.escrow[p]],
                "played": kind_groups(s, s.played[p]),
                "mojo": s.mojo if p == s.actor and not s.is_over else 0,
                "hand_size": len(s.hand[p]),
                "deck_size": len(s.deck[p]),
                "discard": kind_groups(s, s.disc[p]),
                "hand_and_deck": kind_groups(s, hand_deck),
                "stat_total": sum((skind[x] & 3) + 1 for x in (*hand_deck, *s.disc[p], *s.played[p])),
                "kills": s.kills[p],
            }
        )
    trainer: list[JSON] = [skill_json(g, x) if x >= 0 else None for x in s.trainer]
    paying: JSON = None
    if s.phase == D_SPELLX and s.pending >= 0:
        paying = {"card": skill_json(g, s.pending), "cost": "X (1 or more)", "mojo_pool": s.mojo}
    march: JSON = None
    if s.mode == M_MARCH or s.announcer >= 0:
        march = {
            "announcer": g.seat_name(s.announcer) if s.announcer >= 0 else None,
            "order": [g.seat_name(p) for p in s.morder] if s.mode == M_MARCH else [],
            "totals": [
                {"player": g.seat_name(p), "total": s.mtotal[p], "needs": s.mthresh[p]}
                for p in range(g.players)
                if s.mtotal[p] >= 0
            ],
            "eliminated": [g.seat_name(p) for p in s.elim],
        }
    out: dict[str, JSON] = {
        "prompt": prompt(s, seat),
        "round": s.round,
        "turn_limit": g.turn_limit,
        "whose_turn": "the March on the Tower" if s.mode == M_MARCH else g.seat_name(s.active),
        "certificate": g.seat_name(s.cert),
        "phase": _phase_words(s),
        "map": locations,
        "sorceress": {
            "id": c.sorceress,
            "name": c.sorceress_name,
            "type": "boss",
            "text": "Defeat her in the March on the Tower to win.",
            "power": g.sorceress_power,
            "element": ELEMENTS[c.element[c.sorceress]],
        },
        "heap": [card_json(g, x) for x in s.heap],
        "trainer": trainer,
        "skill_pile": len(s.skill_pile),
        "skill_discard": [skill_json(g, x) for x in s.skill_disc],
        "stat_piles": [
            {
                "kind": STAT_KINDS[k],
                "name": c.stat_names[k],
                "stat": STAT_WORDS[k // 4],
                "value": k % 4 + 1,
                "left": len(s.piles[k]),
            }
            for k in range(12)
        ],
        "meat_pool": None if s.pool == NO_LIMIT else s.pool,
        "players": players,
        "hand": kind_groups(s, s.hand[seat]) if seat is not None else None,
        "deck": kind_groups(s, s.deck[seat]) if seat is not None else None,
        "combat": _combat(s),
        "paying": paying,
        "march": march,
        "result": result(s).to_json() if s.is_over else None,
    }
    return out


# -- snapshot and result -----------------------------------------------------------------------------


def snapshot(s: McgState) -> dict[str, JSON]:
    """Everything, for storage, debugging and tests (engine bookkeeping included)."""
    return {
        "hand": [list(h) for h in s.hand],
        "deck": [list(d) for d in s.deck],
        "discard": [list(d) for d in s.disc],
        "played": [list(x) for x in s.played],
        "items": [list(x) for x in s.items],
        "skills": [list(x) for x in s.skills],
        "escrow": [list(x) for x in s.escrow],
        "lasting": [list(x) for x in s.lasting],
        "store": [list(x) for x in s.store],
        "meat": list(s.meat),
        "mods": [list(m) for m in s.mods],
        "kills": list(s.kills),
        "trained": list(s.trained),
        "piles": [list(x) for x in s.piles],
        "top": list(s.top),
        "below": [list(x) for x in s.below],
        "heap": list(s.heap),
        "trainer": list(s.trainer),
        "skill_pile": list(s.skill_pile),
        "skill_discard": list(s.skill_disc),
        "gone": list(s.gone),
        "pool": s.pool,
        "global_fx": [list(e) for e in s.global_fx],
        "equipped": s.eq,
        "buffs": s.buffs,
        "used": s.used,
        "taken": s.taken,
        "out": s.out,
        "eliminated": list(s.elim),
        "certificate": s.cert,
        "first": s.first,
        "round": s.round,
        "active": s.active,
        "actor": s.actor,
        "mode": s.mode,
        "step": s.step,
        "phase": s.phase,
        "queue": [list(q) for q in s.queue],
        "mojo": s.mojo,
        "pending": s.pending,
        "upg_left": s.upg_left,
        "upg_roll": s.upg_roll,
        "maneuver": s.man,
        "psum": s.psum,
        "plast": s.plast,
        "damage": s.dmg,
        "damage_vs": list(s.dmg_vs),
        "combat_bonus": list(s.cb),
        "reduce": s.red,
        "poll": list(s.poll),
        "march_order": list(s.morder),
        "midx": s.midx,
        "announcer": s.announcer,
        "march_totals": list(s.mtotal),
        "march_thresholds": list(s.mthresh),
        "winners": list(s.winners),
        "reason": s.reason,
    }


def progress(s: McgState, p: int) -> tuple[int, ...]:
    """How far a player still in the game has come (for ranks): stat values, then meat."""
    skind = s.game.cards.skind
    stats = sum((skind[x] & 3) + 1 for x in (*s.hand[p], *s.deck[p], *s.disc[p], *s.played[p]))
    return (stats, s.meat[p])


def result(s: McgState) -> Result:
    """Winners share the win; the others rank by being still in, then progress; eliminated players
    last, an earlier elimination lower."""
    if not s.is_over:
        raise ValueError("the game is not over")
    g = s.game
    n = g.players
    winners = s.winners
    keys: list[tuple[float, ...]] = []
    for p in range(n):
        if p in winners:
            keys.append((2, 0, 0, 0))
        elif s.out >> p & 1:
            keys.append((0, s.elim.index(p), 0, 0))
        else:
            keys.append((1, 0, *progress(s, p)))
    scores = tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(n))
    details: dict[str, JSON] = {
        "march_totals": {g.seat_name(p): s.mtotal[p] for p in range(n) if s.mtotal[p] >= 0},
        "announcer": g.seat_name(s.announcer) if s.announcer >= 0 else None,
        "eliminated": [g.seat_name(p) for p in s.elim],
        "rounds": s.round if s.reason != "turn-limit" else g.turn_limit,
        "kills": {g.seat_name(p): s.kills[p] for p in range(n)},
        "meat": {g.seat_name(p): s.meat[p] for p in range(n)},
        "skills_trained": {g.seat_name(p): s.trained[p] for p in range(n)},
    }
    return Result(
        scores=scores,
        ranks=ranks_from_keys(keys),
        winners=tuple(winners),
        reason=s.reason,
        turns=s.turn,
        truncated=s.reason == "turn-limit",
        details=details,
    )


# -- actions in words --------------------------------------------------------------------------------


def describe_action(g: MrCardGame, action: Action) -> str:
    kind = action.kind
    words = {
        "no-upgrade": "make no upgrade",
        "combat": "start a combat",
        "end-turn": "end the turn without a combat",
        "end-combat": "end the combat (no kill; in the March: announce your total)",
        "done": "done",
        "march": "march on the Tower",
        "pass": "pass (no March)",
    }
    if kind in words:
        return words[kind]
    value = action.args[0]
    if kind in ("mojo", "play", "discard"):
        k = STAT_KINDS.index(str(value))
        verb = {"mojo": "discard for mojo", "play": "play", "discard": "discard"}[kind]
        return f"{verb} {stat_words(g, k)}"
    if kind == "upgrade":
        a, b = STAT_KINDS.index(str(action.args[0])), STAT_KINDS.index(str(action.args[1]))
        return f"exchange {stat_words(g, a)} for {stat_words(g, b)}"
    if kind == "spend":
        return f"spend {value} mojo"
    if kind == "choose":
        return f"choose {STAT_WORDS[('mus', 'mys', 'mox').index(str(value))]}"
    if kind == "maneuver":
        man = MANEUVER_WORDS[MANEUVERS.index(str(value))]
        first = stat_words(g, STAT_KINDS.index(str(action.args[1])))
        return f"perform {'an' if man[0] in 'AEIOU' else 'a'} {man} with {first}"
    card = int(value)
    if kind == "kill":
        return f"kill {g.cards.mname[card]} (card {card})"
    verb = {
        "equip": "equip",
        "unequip": "unequip",
        "autosell": "AutoSell",
        "use": "use",
        "dive": "Dumpster Dive",
        "target": "Pulverize",
        "train": "train",
        "skill": "activate",
        "buff": "activate the buff",
    }[kind]
    return f"{verb} {g.card_name(card)}"
