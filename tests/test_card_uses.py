"""Every game names its cards and says which of its actions play or acquire a card (per-card statistics)."""

from __future__ import annotations

import pytest

import cardtable
import cardtable.games


@pytest.mark.parametrize("game_id", cardtable.games.builtin())
def test_card_uses_name_real_card_actions_and_cards_have_names(game_id: str) -> None:
    game = cardtable.load(game_id)
    assert game.CARD_USES, f"{game_id} declares no CARD_USES"
    for kind, how in game.CARD_USES.items():
        assert how in ("played", "acquired")
        assert game.actions.params.get(kind) is not None and "card" in game.actions.params[kind], kind
    state = game.new(0)
    names = {c["id"]: c["name"] for c in _cards(state.view(None))}
    assert names, "the spectator view shows no card"
    for card, name in names.items():
        assert isinstance(card, int) and isinstance(name, str)
        assert name in game.card_name(card)


def _cards(value: object) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    if isinstance(value, dict):
        if isinstance(value.get("id"), int) and isinstance(value.get("name"), str):
            out.append(value)
        for v in value.values():
            out += _cards(v)
    elif isinstance(value, list):
        for v in value:
            out += _cards(v)
    return out
