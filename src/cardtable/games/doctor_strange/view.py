"""What each seat sees (:func:`view`) and the god view (:func:`snapshot`) of a Doctor Strange state.

A seat sees its own hand, the table (characters with their attachments, incapacitated tokens,
control and capture markers), the public piles (discard, killed, exiled), the sizes of the deck and
the other hand, and the hidden cards it has been shown: opponent's hand cards seen with Read Minds /
All Seeing Eye (while they stay in that hand) and deck cards seen with Investigate (with their
position from the top, until the deck is shuffled). During its own Go Back in Time search it sees the
deck's contents (sorted, never its order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import JSON
from cardtable.games.doctor_strange import base as S
from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange import fates as F

if TYPE_CHECKING:
    from cardtable.games.doctor_strange.state import DSState


def _table(st: DSState) -> list[JSON]:
    g = st.game
    out: list[JSON] = []
    for c in st.chars:
        s = g.SLOT[c]
        d = g.card_json(c)
        d.update(
            {
                "modified_power": st.mpow[s],
                "owner": st.owner[s],
                "side": st.side[s],
                "viable": F.viable(st, c),
                "incapacitated": bool(st.incap[s]),
                "controlled_by": st.ctl[s] if st.ctl[s] >= 0 else None,
                "captured_by": st.cap[s] if st.cap[s] >= 0 else None,
                "marked": bool(st.marked >> s & 1),
                "attacked": bool(st.attacked >> s & 1),
                "attachments": [g.card_json(a) for a in F.attachments(st, c)],
            }
        )
        out.append(d)
    return out


def _attack(st: DSState) -> JSON:
    """The declared attacks of this turn and, while one is being resolved, its dice and totals."""
    g = st.game
    att = st.attacks
    declared = [
        {
            "attacker": att[i],
            "target": att[i + 1],
            "card": g.card_json(att[i + 2]),
            "fate": C.FATE_NAMES[g.FATE[att[i + 2]]],
        }
        for i in range(0, len(att), 3)
    ]
    out: dict[str, JSON] = {"declared": declared, "resolving": None}
    if st.phase in (S.EXCHANGE, S.HELPER):
        atk, dfn = st._totals()
        out["resolving"] = {
            "index": st.ares,
            "attack_roll": st.ra,
            "defense_roll": st.rd,
            "attack_bonus": st.ba,
            "defense_bonus": st.bd,
            "helpers": [c for c in st.chars if st.helpers >> g.SLOT[c] & 1],
            "attack_total": atk,
            "defense_total": dfn,
        }
    if st.phase in (S.TARGET, S.WEAPON):
        out["choosing"] = {"attacker": st.decl_a, "target": st.decl_t if st.phase == S.WEAPON else None}
    return out


def view(st: DSState, seat: int | None) -> dict[str, JSON]:
    """Exactly what ``seat`` may know (``None``: a spectator)."""
    g = st.game
    cj = g.card_json
    out: dict[str, JSON] = {
        "phase": S.PHASE_NAMES[st.phase],
        "active": st.active if not st.is_over else None,
        "good": g.good,
        "evil": g.evil,
        "you": None if seat is None else ("good" if seat == g.good else "evil"),
        "hand": [cj(c) for c in sorted(st.hands[seat])] if seat is not None else None,
        "hand_sizes": [len(st.hands[0]), len(st.hands[1])],
        "deck_size": len(st.stack) + len(st.pool),
        "table": _table(st),
        "pending": cj(st.pending) if st.pending >= 0 else None,
        "event": cj(st.evcard) if st.evcard >= 0 else None,
        "discard": [cj(c) for c in st.discard],
        "killed": [cj(c) for c in st.killed],
        "exiled": [cj(c) for c in st.exiled],
        "attack": _attack(st),
        "streaks": list(st.streak),
        "turn_limit": g.turn_limit,
    }
    if seat is not None:
        bits = st.peek[seat]
        out["known_opponent_hand"] = [cj(c) for c in sorted(st.hands[1 - seat]) if bits >> c & 1]
        n = len(st.stack)
        out["known_deck"] = [
            {"from_top": n - 1 - i, "card": cj(c)} for i, c in reversed(list(enumerate(st.stack))) if bits >> c & 1
        ]
        if st.phase == S.TAKE and st.current_player == seat:
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
        "evcard": st.evcard,
        "ret": st.ret,
        "decl": [st.decl_a, st.decl_t],
        "attacks": list(st.attacks),
        "ares": st.ares,
        "dice": [st.ra, st.rd, st.ba, st.bd],
        "helpers": st.helpers,
        "marked": st.marked,
        "attacked": st.attacked,
        "peek": list(st.peek),
        "streak": list(st.streak),
        "winner": st.winner,
        "reason": st.reason,
    }
