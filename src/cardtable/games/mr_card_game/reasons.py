"""Why an action is not legal now, in words for the seat that must decide (convention 5).

:func:`why` is asked only after an action of the game's space was found illegal; it returns a
sentence naming what is wrong ("Rage of the Walrus needs 2 mojo and your mojo pool has 0") or None,
and the engine then lists the kinds of action that are open. A reason names only what the deciding
seat may see: its own hand, discard pile, display case and skills, and public cards (the trainer,
the Heap, the tops of the locations). A card the seat cannot see is never named: "card 17 is not in
the trainer" says nothing about where card 17 is. Reasons cover the ordinary rules of the core game
and a negative effect that forbids the action (:func:`forbidden`: its card is public, in the display
case); Mr. Store items, equipment and AutoSell are explained by :func:`.noncombat.why_illegal`; the
other decisions of the supplemental rules by :func:`_supplemental` (a hardcore block, a negative
effect removed at a rollover, defeating the Sorceress in ascension, the perm and the new class).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import Action
from cardtable.games.mr_card_game import combat
from cardtable.games.mr_card_game.cards import (
    E_COMBAT,
    E_NONCOMBAT,
    K_BOARD_ITEM,
    K_BOSS,
    MOJO_X,
    S_BUFF,
    S_COMBAT,
    S_NONCOMBAT,
    STAT_CODE,
)
from cardtable.games.mr_card_game.codes import (
    D_BLOCK,
    D_CLASS,
    D_COMBAT,
    D_CURE,
    D_DISCARD,
    D_LIMIT,
    D_MANEUVER,
    D_NONCOMBAT,
    D_PERM,
    D_PULVERIZE,
    D_SPELLX,
    D_TARGET,
    D_UPGRADE,
    HAND_SIZE,
    M_TURN,
)
from cardtable.games.mr_card_game.effects import MANEUVER_STAT, MANEUVER_WORDS, STAT_WORDS
from cardtable.games.mr_card_game.hardcore import completing_values
from cardtable.games.mr_card_game.text import kind_text

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


def why(s: McgState, action: Action) -> str | None:
    """The reason ``action`` is refused now, or None (see the module docstring)."""
    p = s.current_player
    if p is None:
        return None
    phase = s.phase
    kind = action.kind
    if kind in _SUPPLEMENTAL:
        return _supplemental(s, p, action)
    if phase == D_NONCOMBAT and s.mode != M_TURN and kind in ("combat", "end-turn"):
        return _noncombat(s, p, action)  # the March: its non-combat phase ends with done
    if not action.args and kind != "done":
        return None
    if phase == D_NONCOMBAT:
        return _noncombat(s, p, action) or forbidden(s, p, action)
    if phase == D_COMBAT:
        return _step1(s, p, action) or forbidden(s, p, action)
    if phase == D_MANEUVER and kind == "play":
        return _play(s, p, str(action.args[0]))
    if phase == D_TARGET and kind == "kill":
        return _kill(s, int(action.args[0]))
    if phase in (D_DISCARD, D_LIMIT):
        if kind == "discard":
            return _in_hand(s, p, str(action.args[0]))
        if kind == "done" and phase == D_LIMIT:
            return f"you hold {len(s.hand[p])} cards: discard down to {HAND_SIZE} first"
        return None
    if phase == D_UPGRADE and kind == "upgrade":
        return _upgrade(s, p, str(action.args[0]), str(action.args[1]))
    if phase == D_PULVERIZE and kind == "target":
        return _pulverize(s, p, int(action.args[0]))
    if phase == D_SPELLX and kind == "spend":
        return f"X is at most your mojo pool ({s.mojo})"
    return None


_SUPPLEMENTAL = frozenset({"block", "cure", "kill-sorceress", "perm", "class"})
_DECISION_OF = {"block": D_BLOCK, "cure": D_CURE, "perm": D_PERM, "class": D_CLASS}
_WHEN = {
    "block": "only when a counter-attack is being blocked (hardcore combat)",
    "cure": "only at a rollover, when a negative effect may be removed",
    "perm": "only after defeating the Sorceress in ascension, when a skill may be permed",
    "class": "only after defeating the Sorceress in ascension, when a new class is chosen",
}


def _supplemental(s: McgState, p: int, action: Action) -> str | None:
    """Hardcore blocks (O1.2), the rollover removal (O2.2), and ascension's Sorceress, perm and class
    (O3.3, O3.4, O3.8): the player's own hand and display case, and public cards, only."""
    g = s.game
    c = g.cards
    kind = action.kind
    if kind == "kill-sorceress":
        if not g.ascension:
            return "only in ascension (otherwise the Sorceress is fought in the March on the Tower)"
        if s.phase == D_MANEUVER:
            return "finish the maneuver first (done), then defeat the Sorceress"
        if s.phase not in (D_COMBAT, D_TARGET):
            return "only in combat, once your score beats the Sorceress of your run"
        from cardtable.games.mr_card_game import ascension

        power = ascension.sorceress_power(s, p)
        if power is None:
            return "no Sorceress of the form of your run is left in the Tower"
        got, power = combat.score(s, 0), power - s.red
        if got >= power:
            return None
        what = "your score" if s.man >= 0 else "the damage alone (no maneuver yet)"
        return f"{what} {got} is below the power {power} of the Sorceress of your run"
    if s.phase != _DECISION_OF[kind]:
        return _WHEN[kind]
    if kind == "block":
        k = STAT_CODE[str(action.args[0])]
        t, value = k >> 2, (k & 3) + 1
        if s.hc_type >= 0 and t != s.hc_type:
            typ = STAT_WORDS[s.hc_type]
            if c.kind[s.hc_target] == K_BOSS:  # "any single type": the first card discarded set it
                return f"this block is of {typ} cards (one single type)"
            return f"{c.mname[s.hc_target]} counter-attacks with {typ}: only {typ} cards block it"
        if not any(c.skind[x] == k for x in s.hand[p]):
            return f"you have no {kind_text(s, k)} in your hand"
        if value > s.hc_last + 1:
            return (
                f"blocking cards are discarded from the highest down: next, a card of value {s.hc_last + 1} "
                "or less (the order does not change the total)"
            )
        if s.game.complete_blocks and not completing_values(s, s.hand[p], t) >> (k & 3) & 1:
            typ = STAT_WORDS[t]
            return (
                f"the {kind_text(s, k)} and the lower {typ} cards in your hand cannot reach the {s.hc} still to "
                "block: discard from the highest card down, or suffer the counter-attack"
            )
        return None
    card = int(action.args[0])
    if kind == "cure":
        if card not in s.lasting[p]:
            return f"card {card} is not a negative effect in your display case"
        if not s.cure_left and s.queue and s.queue[0][1] >= 0:  # a cure effect: only its sub-type
            from cardtable.games.mr_card_game.effects import SUBTYPES

            sub, src = s.queue[0][1], s.queue[0][3]
            return f"{c.negative_name[card]} is an {SUBTYPES[c.subtype[card]]}: {c.name(src)} cures an {SUBTYPES[sub]}"
        return None
    if kind == "perm":
        if card not in s.skills[p]:
            return f"card {card} is not a skill in your display case"
        if s.permed >> card & 1:
            return f"{g.card_name(card)} is already permed"
        return None
    if card == s.asc_card:
        return f"{g.card_name(card)} is the class you just returned: take one of the others"
    if card not in s.middle:
        return f"card {card} is not a class in the middle of the table"
    return None


def forbidden(s: McgState, p: int, action: Action) -> str | None:
    """O2.1: the negative effect in ``p``'s display case that forbids ``action`` (train, dive,
    autosell, equip, use, skill, buff or a maneuver), named with what it forbids; None when nothing
    forbids it."""
    from cardtable.games.mr_card_game.effects import FORBID, FORBIDDABLE
    from cardtable.games.mr_card_game.modifiers import FORBIDS

    kind = action.kind
    name = f"maneuver:{action.args[0]}" if kind == "maneuver" and action.args else kind
    if name not in FORBIDDABLE:
        return None
    bit = FORBIDDABLE.index(name)
    if not s.mods[p][FORBIDS] >> bit & 1:
        return None
    c = s.game.cards
    verb = name.replace("maneuver:", "perform a maneuver: ")
    for x in s.lasting[p]:
        if any(op == FORBID and a == bit for op, a, _b, _c in c.effects[x]):
            return f"{c.negative_name[x]} (a negative effect in your display case): you may not {verb}"
    return f"an effect forbids it: you may not {verb}"


# -- the phases --------------------------------------------------------------------------------------


def _noncombat(s: McgState, p: int, action: Action) -> str | None:
    kind = action.kind
    if kind == "train":
        return _train(s, p, int(action.args[0]))
    if kind == "dive":
        return _dive(s, p, int(action.args[0]))
    if kind in ("skill", "buff"):
        return _skill(s, p, int(action.args[0]), kind, in_combat=False)
    if kind == "use":
        return _use(s, p, int(action.args[0]), in_combat=False)
    if kind == "mojo":
        return _mojo(s, p, str(action.args[0]))
    if s.mode != M_TURN and kind in ("kill", "maneuver", "play", "combat", "end-turn"):
        # K14.4-K14.5: every marcher's non-combat phase comes before any combat phase of the March.
        return (
            "in the March on the Tower a non-combat phase ends with done; the combat phases "
            "(against the Sorceress) follow once every marcher has had their non-combat phase"
        )
    if kind in ("kill", "maneuver", "play"):
        return "only in combat: start one first (combat)"
    if kind == "discard":
        return "only at the end of your turn"
    return None


def _step1(s: McgState, p: int, action: Action) -> str | None:
    kind = action.kind
    if kind in ("skill", "buff"):
        return _skill(s, p, int(action.args[0]), kind, in_combat=True)
    if kind == "use":
        return _use(s, p, int(action.args[0]), in_combat=True)
    if kind == "mojo":
        return _mojo(s, p, str(action.args[0]))
    if kind == "maneuver":
        # (a maneuver with a card of another type is no action of the game at all: MalformedAction)
        return _in_hand(s, p, str(action.args[1]))
    if kind == "kill":
        return _kill(s, int(action.args[0]))
    if kind == "play":
        return "choose a maneuver first (maneuver kind=... stat=...)"
    if kind in ("train", "dive", "equip", "unequip", "autosell"):
        return "only in a non-combat phase: combat has started (K3.4)"
    return None


# -- one kind of action each -------------------------------------------------------------------------


def _train(s: McgState, p: int, card: int) -> str | None:
    g = s.game
    if card not in s.trainer:
        return f"card {card} is not in the trainer"
    from cardtable.games.mr_card_game.noncombat import train_cost

    cost = train_cost(s, p, card)
    if cost > s.meat[p]:
        return f"{g.card_name(card)} costs {cost} meat and you have {s.meat[p]}"
    return None


def _dive(s: McgState, p: int, card: int) -> str | None:
    g = s.game
    if not s.heap:
        return "the Heap is empty"
    top = s.heap[-1]
    if card != top:
        return f"only the top card of the Heap can be taken, now {g.card_name(top)}"
    from cardtable.games.mr_card_game.noncombat import dive_price

    price = dive_price(s, p, card)
    if price < 0:
        return f"{g.card_name(card)} has no meat cost, so it cannot be taken from the Heap"
    if price > s.meat[p]:
        return f"{g.card_name(card)} costs {price} meat and you have {s.meat[p]}"
    return None


def _skill(s: McgState, p: int, card: int, kind: str, in_combat: bool) -> str | None:
    g = s.game
    c = g.cards
    if card not in s.skills[p]:
        return f"card {card} is not one of your skills"
    name = g.card_name(card)
    st = c.stype[card]
    if kind == "buff":
        if st != S_BUFF:
            return f"{name} is not a buff"
        if in_combat:
            return "buffs are turned on only in a non-combat phase"
        if s.buffs >> card & 1:
            return f"{name} is already on"
    else:
        if st == S_BUFF:
            return f"{name} is a buff: turn it on with buff card={card}"
        if st == S_NONCOMBAT and in_combat:
            return f"{name} is a non-combat skill: it cannot be used in combat"
        if st == S_COMBAT and not in_combat:
            return f"{name} is a combat skill: use it in combat step 1"
        if st not in (S_NONCOMBAT, S_COMBAT):
            return f"{name} is passive: it always works and is never activated"
        if s.used >> card & 1:
            return f"{name} was already used this turn (once per turn)"
    if in_combat and s.man >= 0:
        return "combat skills come before the maneuver"
    cost = 1 if c.mojo[card] == MOJO_X else c.mojo[card]
    if cost > s.mojo:
        return (
            f"{name} needs {cost} mojo and your mojo pool has {s.mojo} "
            "(discard Mysticality cards for mojo first: mojo stat=...)"
        )
    return None


def _use(s: McgState, p: int, card: int, in_combat: bool) -> str | None:
    g = s.game
    c = g.cards
    if card not in s.items[p]:
        return f"card {card} is not in your display case"
    name = g.card_name(card)
    et = c.etype[card]
    if et == E_COMBAT and not in_combat:
        return f"{name} has a combat ability: use it in combat step 1"
    if et == E_NONCOMBAT and in_combat:
        return f"{name} has a non-combat ability: it cannot be used in combat"
    if et not in (E_COMBAT, E_NONCOMBAT):
        return f"{name} has no ability to use"
    if in_combat and s.man >= 0:
        return "combat items come before the maneuver"
    if c.slot[card] >= 0:
        if not s.eq >> card & 1:
            return f"{name} must be equipped to be used (clarification 1)"
        if s.used >> card & 1:
            return f"{name} was already used this turn (once per turn)"
    return None


def _pulverize(s: McgState, p: int, card: int) -> str | None:
    """O7.1: Pulverize destroys an item with an anvil in the player's own display case."""
    g = s.game
    c = g.cards
    if card not in s.items[p]:
        return f"card {card} is not in your display case: Pulverize destroys one of your own items"
    if c.kind[card] == K_BOARD_ITEM:
        return f"{g.card_name(card)} is printed on your class board and cannot be destroyed (A43)"
    if c.anvil[card] <= 0:
        return f"{g.card_name(card)} has no power (anvil): Pulverize destroys an item with one (O7.1)"
    return None


def _mojo(s: McgState, p: int, stat: str) -> str | None:
    missing = _in_hand(s, p, stat)
    if missing:
        return missing
    return "you have no ability left to pay mojo for in this phase"


def _play(s: McgState, p: int, stat: str) -> str | None:
    k = STAT_CODE[stat]
    t = MANEUVER_STAT[s.man]
    if k // 4 != t:
        return f"a {MANEUVER_WORDS[s.man]} is performed with {STAT_WORDS[t]} cards only"
    missing = _in_hand(s, p, stat)
    if missing:
        return missing
    if k % 4 > s.plast:
        return (
            f"the cards of a maneuver are played from the highest down: next, a card of value "
            f"{s.plast + 1} or less (the order does not change the total)"
        )
    return None


def _kill(s: McgState, card: int) -> str | None:
    c = s.game.cards
    if card not in combat.targets(s):
        return f"card {card} is not a monster on top of a location"
    if s.mode != M_TURN:
        return "in the March on the Tower only the Sorceress is fought"
    power = combat.power_of(s, card)
    got = combat.score(s, c.element[card])
    what = "your score" if s.man >= 0 else "the damage alone (no maneuver yet)"
    if got < power:
        return f"{c.mname[card]} has power {power} and {what} against it is {got}"
    return None


def _in_hand(s: McgState, p: int, stat: str) -> str | None:
    k = STAT_CODE[stat]
    skind = s.game.cards.skind
    if any(skind[x] == k for x in s.hand[p]):
        return None
    return f"you have no {kind_text(s, k)} in your hand"


def _upgrade(s: McgState, p: int, old: str, new: str) -> str | None:
    k, j = STAT_CODE[old], STAT_CODE[new]
    skind = s.game.cards.skind
    if not any(skind[x] == k for x in s.disc[p]):
        return f"you have no {kind_text(s, k)} in your discard pile"
    if not s.piles[j]:
        return f"the {kind_text(s, j)} pile is empty"
    return None
