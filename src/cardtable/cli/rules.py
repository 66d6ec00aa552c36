"""``rules`` at the table: the game's rules, clause by clause, from :mod:`cardtable.rulebook`.

``rules`` lists the sections (their numbers and titles); ``rules M8.2`` shows one clause; ``rules M8``
or ``rules solitaire`` (words of a title) shows a section with its clauses. Reading never acts.
"""

from __future__ import annotations

from rich.console import Console, Group
from rich.text import Text

from cardtable.engine import CardtableError
from cardtable.engine.errors import quoted
from cardtable.rulebook import Clause, Section, rulebook


def show_rules(console: Console, game_id: str, query: str) -> None:
    try:
        book = rulebook(game_id)
    except CardtableError:
        console.print(Text(f"✗ {game_id} has no rules document to show", style="bold red"))
        return
    query = query.strip()
    if not query:
        console.print(Text(book.title or f"The rules of {game_id}", style="bold underline"))
        for section in book.sections:
            numbers = f" ({section.clauses[0].id}…)" if section.clauses else ""
            indent = "  " * max(0, section.level - 2)
            console.print(
                Text.assemble(indent, (section.heading, "bold" if section.level <= 2 else ""), (numbers, "dim"))
            )
        console.print(Text("Type `rules M8.2` for a clause, `rules M8` or `rules WORDS` for a section.", style="dim"))
        return
    found = book.find(query)
    if found is None:
        console.print(
            Text(
                f"✗ no clause or section {quoted(query)} in the rules of {game_id}: type `rules` for the list",
                style="bold red",
            )
        )
        return
    console.print(section_text(found) if isinstance(found, Section) else clause_text(found))


def clause_text(clause: Clause) -> Group:
    return Group(
        Text(clause.section, style="dim"),
        Text.assemble((clause.id, "bold cyan"), "  ", clause.text),
    )


def section_text(section: Section) -> Group:
    parts: list[Text] = [Text(section.heading, style="bold underline")]
    if section.text:
        parts.append(Text(section.text))
    for clause in section.clauses:
        parts.append(Text.assemble((clause.id, "bold cyan"), "  ", clause.text))
    return Group(*parts)
