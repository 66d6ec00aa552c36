"""What happened since a seat's last decision, summarised turn by turn above its prompt.

The events a seat has not been shown (redacted for it, as its log reads) are grouped by the turns
they happened in: one paragraph per turn, headed by the turn and who played it, the events after it
joined on one wrapped line without the player's name repeated (``turn 32 · P2: draws a card ·
summons Skeleton #3 · fights in lane 1 and loses``). Nothing is hidden behind ``log``: only on a
screen too short for every turn does the block say how many earlier turns ``log`` holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Group
from rich.text import Text

from cardtable.cli.render.faces import Flow
from cardtable.cli.screen import Block, Form

TURN_KINDS = frozenset({"turn"})
"""Event kinds that start a turn (every game's log says ``turn N: P2's turn`` with this kind)."""
DIGEST_NAMES = 5
"""The most card names a turn's one-line digest gives."""
_CARD = re.compile(r" \(card (\d+)(?:, ([^)]*))?\)")


@dataclass(frozen=True)
class Turn:
    """The events of one turn (or of the rest of the turn the seat last decided in): its heading
    (empty for that rest), who played it, and the events in words."""

    heading: str
    actor: str | None
    events: tuple[str, ...]
    cards: tuple[int, ...] = ()
    """The cards its events name, in order, each once."""


def brief(text: str) -> str:
    """An event in fewer characters: ``Greataxe (card 17)`` is ``Greataxe #17`` (the ids ``look``
    and the actions take), ``(card 51, free)`` is ``#51 (free)``."""
    return _CARD.sub(lambda m: f" #{m.group(1)}" + (f" ({m.group(2)})" if m.group(2) else ""), text)


def turns(events: Sequence[tuple[str, str]], names: Sequence[str], deal: bool = False) -> list[Turn]:
    """``(kind, text)`` events grouped into turns; ``names`` are the seats' names, to find who played;
    ``deal``: the events start with the game's, so those before the first turn are the deal."""
    out: list[Turn] = []
    heading: str = "the deal" if deal else ""
    actor: str | None = None
    lines: list[str] = []
    cards: list[int] = []

    def close() -> None:
        if heading or lines:
            out.append(Turn(heading, actor, tuple(lines), tuple(dict.fromkeys(cards))))

    for kind, text in events:
        if kind in TURN_KINDS:
            close()
            heading, lines, cards = text, [], []
            bare = re.sub(r" \(.*\)$", "", text)
            found = [(bare.find(n), n) for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", bare)]
            # One player's turn: its events need not repeat the name. A team's: they must.
            actor = found[0][1] if len(found) == 1 else None
            continue
        cards += [int(m.group(1)) for m in _CARD.finditer(text)]
        short = brief(text)
        if actor:
            # "P4 (Henry the Red) plays ..." under "turn 2: P4 (Henry the Red)": "plays ...".
            short = re.sub(rf"^{re.escape(actor)}(?: \([^)]*\))? (?!'s)", "", short, count=1)
        lines.append(short)
    close()
    # The turn now beginning, with nothing in it yet, is what the header says: no line for it.
    if len(out) > 1 and out[-1].heading and not out[-1].events:
        out.pop()
    return out


def heading(text: str) -> str:
    """``turn 12: P2's turn`` -> ``turn 12: P2``: a turn's heading in a summary."""
    return brief(text).removesuffix("'s turn")


def _flow(turn: Turn) -> Flow:
    head = Text(f"{heading(turn.heading)} — " if turn.heading else "then: ", style="bold")
    items = [Text(e) for e in turn.events] or [Text("nothing else happened", style="dim")]
    return Flow(items, sep=" · ", head=head, indent=4)


def digest(turn: Turn, name: Callable[[int], str] | None) -> Text:
    """A turn in one line: its heading, how many things happened, the cards they involved
    (``turn 1: P2 — 7 events: Battle Fury, Skeleton, Wraith``); ``log`` has the words."""
    count = len(turn.events)
    out = Text(f"{heading(turn.heading)} — " if turn.heading else "then: ", style="bold")
    out.append(f"{count} event{'s' if count != 1 else ''}", style="dim")
    if name is not None and turn.cards:
        named = list(dict.fromkeys(name(c) for c in turn.cards))
        more = f" and {len(named) - DIGEST_NAMES} more" if len(named) > DIGEST_NAMES else ""
        out.append(": " + ", ".join(named[:DIGEST_NAMES]) + more)
    return out


def summary_block(
    events: Sequence[tuple[str, str]],
    names: Sequence[str],
    keep: int = 2,
    deal: bool = False,
    card_name: Callable[[int], str] | None = None,
) -> Block:
    """The block above the prompt: every turn since the seat's last decision in full. A screen too
    short for them gets, in turn, the newest ``keep`` turns in full and the earlier ones a line each
    (their cards, their number of events), the newest one in full, every turn a line, the newest
    turns and a count of the earlier ones, then a single line (``log`` always has every word)."""
    title = Text("Since your last decision", style="bold magenta")
    grouped = turns(events, names, deal)
    key = "since your last decision"
    if not grouped:
        return Block(key, (Form(Text.assemble(title, (": nothing new.", "dim"))),), fold=None)
    head = Text.assemble(title, ":")
    note = Text("(a line a turn: `log` has every word)", style="dim")
    forms = [Form(Group(head, *(_flow(t) for t in grouped)))]
    for shown, loss in ((keep, 12), (1, 18), (0, 22)):
        if len(grouped) > shown:
            earlier, later = grouped[: len(grouped) - shown], grouped[len(grouped) - shown :]
            lines = [digest(t, card_name) for t in earlier]
            forms.append(Form(Group(Text.assemble(head, " ", note), *lines, *(_flow(t) for t in later)), loss))
    if len(grouped) > keep:
        later = grouped[-keep:]
        forms.append(Form(Group(head, _earlier(grouped[:-keep]), *(_flow(t) for t in later)), 30))
    forms.append(Form(Text.assemble(title, ": ", _earlier(grouped)), 45))
    return Block(key, tuple(forms), fold=None)


def _earlier(grouped: Sequence[Turn]) -> Text:
    who = ", ".join(dict.fromkeys(t.actor for t in grouped if t.actor))
    count = len(grouped)
    return Text(
        f"{count} {'earlier ' if count else ''}turn{'s' if count != 1 else ''}"
        + (f" ({who})" if who else "")
        + ": type `log` to read them",
        style="dim",
    )
