"""The generic renderer draws any view; per-game renderers are picked by game id."""

from __future__ import annotations

import io
import sys
import types

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console, RenderableType
from rich.text import Text

import cardtable
from cardtable.cli import render
from cardtable.cli.render import RenderContext, generic, renderer_for
from tests.cli.conftest import Runner


def draw(renderable: RenderableType) -> str:
    out = io.StringIO()
    Console(file=out, force_terminal=False, width=100).print(renderable)
    return out.getvalue()


def ctx(seat: int | None = 0) -> RenderContext:
    return RenderContext(cardtable.load("toy"), seat)


def test_cards_per_seat_values_and_nested_zones_are_laid_out() -> None:
    view = {
        "game": "toy",
        "seat": 0,
        "turn": 4,
        "current_player": 1,
        "is_over": False,
        "deck_size": 17,
        "scores": [3, 8],
        "hand_sizes": [2, 5],
        "hand": [{"id": 17, "name": "Greataxe", "cost": 1, "damage": 4}],
        "lanes": [{"lane": 1, "monsters": [{"id": 4, "name": "Witch", "attack": 12}], "face_down": 2}],
        "board": {"trap": {"id": 9, "name": "Pit", "armed": True}, "counts": {"discard": 3}},
    }
    text = draw(generic.render_view(view, ctx()))
    assert "turn 4" in text and "P2 decides" in text and "you are P1" in text
    assert "deck size" in text and "17" in text
    assert "Seats" in text and "P1 (you)" in text
    assert "Your hand (1)" in text and "Greataxe" in text and "damage" in text
    assert "Witch #4 (attack 12)" in text and "face down" in text
    assert "Pit" in text and "armed" in text and "discard" in text


json_scalars = st.none() | st.booleans() | st.integers(-5, 99) | st.text(max_size=8)
cards = st.fixed_dictionaries(
    {"id": st.integers(0, 99), "name": st.text(min_size=1, max_size=10)}, optional={"cost": st.integers(0, 9)}
)
json_values = st.recursive(
    json_scalars | cards,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(min_size=1, max_size=6), inner, max_size=4),
    max_leaves=20,
)


@given(
    body=st.dictionaries(st.text(min_size=1, max_size=8), json_values, max_size=6), seat=st.sampled_from([None, 0, 1])
)
def test_any_json_view_renders_without_error(body: dict[str, object], seat: int | None) -> None:
    view = {"game": "toy", "seat": seat, "turn": 1, "current_player": 0, "is_over": False, **body}
    text = draw(generic.render_view(view, ctx(seat)))
    assert "turn 1" in text


def test_a_game_module_in_cli_render_is_preferred(monkeypatch: object) -> None:
    module = types.ModuleType("cardtable.cli.render.toy")

    def render_view(view: dict[str, object], context: RenderContext) -> RenderableType:
        return Text("custom toy table")

    module.render_view = render_view  # type: ignore[attr-defined]  # a bare module, given its renderer here
    sys.modules["cardtable.cli.render.toy"] = module
    try:
        assert renderer_for("toy") is render_view
    finally:
        del sys.modules["cardtable.cli.render.toy"]
    view = {
        "game": "toy",
        "seat": 0,
        "turn": 1,
        "current_player": 0,
        "is_over": False,
        "hand": [{"id": 1, "name": "A"}],
    }
    for game_id in ("toy", "some-future-game"):  # no module of its own: the generic layout
        assert draw(renderer_for(game_id)(view, ctx())) == draw(generic.render_view(view, ctx()))


def test_registered_renderer_is_used_by_play(cli: Runner) -> None:
    render.register_renderer("named-toy", lambda view, context: Text(f"CUSTOM hand={len(view['hand'])}"))
    try:
        run = cli("play", "named-toy", "--seed", "1", input=["quit", ""])
    finally:
        render._REGISTERED.pop("named-toy")
    assert "CUSTOM hand=2" in run.out


def test_a_long_public_pile_is_a_paragraph_but_the_hand_stays_a_table() -> None:
    pile = [{"id": i, "name": f"Card{i}", "cost": i} for i in range(generic.LONG_PILE + 1)]
    view = {"game": "toy", "seat": 0, "turn": 1, "current_player": 0, "is_over": False, "discard": pile, "hand": pile}
    text = draw(generic.render_view(view, ctx()))
    assert "Card0 #0 · Card1 #1" in text
    assert "cost" in text  # the hand's table has a column per stat


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(
    st.lists(st.text(alphabet="abcdefgh '!", min_size=1, max_size=18).map(str.strip).filter(bool), max_size=14),
    st.integers(min_value=24, max_value=100),
)
def test_a_flow_keeps_every_separator_where_it_breaks_a_line(items: list[str], width: int) -> None:
    """Between two items there is always a ``·``, also where the line breaks (``… a Bitch`` at the
    end of a full line once lost it, and the next item read as part of the one before)."""
    from rich.text import Text

    from cardtable.cli.render.faces import Flow

    flow = Flow([Text(i) for i in items], head=Text("Removed from the game: "), indent=4)
    lines = [line.plain.rstrip() for line in flow.lines(width)]
    assert all(len(line) <= width for line in lines)
    said = " ".join(line.strip() for line in lines)
    assert said.count("·") == max(0, len([i for i in items if i]) - 1)
