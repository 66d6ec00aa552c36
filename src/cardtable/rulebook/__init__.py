"""The rules of each game for players: ``docs/rules/<game>.md``, shipped with the package, clause by clause.

The traceability documents in ``docs/rules/`` are the single source (this package holds links to them,
which a build copies as files). They are written for developers: each clause cites the tests that show
it. :func:`for_players` drops those citations, so the terminal's ``rules`` command and the web table's
rules page show the clauses in words only.

>>> book = rulebook("mephisto")
>>> book.clause("m8.2").id
'M8.2'
>>> "test_" in book.clause("M8.2").text
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from cardtable.engine.errors import OptionError

_HEADING = re.compile(r"^(#{1,3})\s+(.*\S)\s*$")
_SECTION_ID = re.compile(r"^([A-Z]{1,3}[0-9]+)\b[\s:.—-]*(.*)$")
_CLAUSE = re.compile(r"^- \*\*([A-Z]{1,3}[0-9]+(?:\.[0-9]+)*(?:[\u2013-][A-Z]{0,3}[0-9]+(?:\.[0-9]+)*)?)\*\*\s*(.*)$")
# A test citation: ``test_file.py::test_name`` (with an optional parametrisation), possibly in backticks.
_CITATION = re.compile(r"`?(?:[\w./]+/)?test_\w+\.py(?:::\w+(?:\[[^\]]*\])?)?`?")
# Where a clause's citations begin: a dash or a ``Tests:`` label right before the first citation.
_CITED_TAIL = re.compile(r"(?:\s[\u2014\u2013]|\s*Tests?:)\s*$")
# Sections about the software rather than the game (speed, bots, the terminal, the protocol that
# interfaces speak): the players' edition leaves them out.
_FOR_DEVELOPERS = re.compile(
    r"^(?:Speed|Heuristic agent|Agents and the terminal|Terminal|Game length)\b|\bprotocol\b", re.IGNORECASE
)
_TESTS_LINE = re.compile(r"^\s*Tests?:\s*$")


@dataclass(frozen=True, slots=True)
class Clause:
    """One numbered rule (``M8.2``), its words for players, and the section it belongs to."""

    id: str
    section: str
    text: str


@dataclass(frozen=True, slots=True)
class Section:
    """A heading of the rules document: its number where it has one (``M8``), its title, the words
    under it that are not numbered clauses, and its clauses."""

    id: str | None
    title: str
    level: int
    text: str
    clauses: tuple[Clause, ...]

    @property
    def heading(self) -> str:
        return f"{self.id} {self.title}" if self.id else self.title


@dataclass(frozen=True, slots=True)
class Rulebook:
    """A game's rules document, parsed: its title and its sections in order."""

    game: str
    title: str
    sections: tuple[Section, ...]

    def clause(self, query: str) -> Clause | None:
        """The clause numbered ``query`` (any case: ``m8.2``), or None."""
        want = query.strip().upper()
        for section in self.sections:
            for clause in section.clauses:
                if clause.id.upper() == want:
                    return clause
        return None

    def section(self, query: str) -> Section | None:
        """The section numbered ``query`` (``M8``), or else the first whose title contains it, or None."""
        want = query.strip().upper()
        if not want:
            return None
        for section in self.sections:
            if section.id is not None and section.id.upper() == want:
                return section
        for section in self.sections:
            if want in section.title.upper():
                return section
        return None

    def find(self, query: str) -> Clause | Section | None:
        """A clause by number, else a section by number or title words."""
        return self.clause(query) or self.section(query)


def games() -> list[str]:
    """The games whose rules ship with the package."""
    root = resources.files(__package__)
    return sorted(p.name[: -len(".md")] for p in root.iterdir() if p.name.endswith(".md"))


def text(game: str) -> str:
    """The whole rules document of ``game`` (markdown, as developers read it, citations included).

    Raises :class:`~cardtable.engine.errors.OptionError` for a game without a rules document."""
    if game not in games():
        raise OptionError(f"no rules document for game {game!r}; known: {', '.join(games())}")
    return resources.files(__package__).joinpath(f"{game}.md").read_text(encoding="utf-8")


def for_players(markdown: str) -> str:
    """``markdown`` without its test citations (and the separators and ``Tests:`` labels they leave)."""
    out = _CITATION.sub("", markdown)
    out = re.sub(r"Tests?:\s*(?:[,.;]\s*)*(?=\n|$)", "", out)
    # What a removed list of citations leaves behind: " — , ," and the like at the end of a sentence.
    out = re.sub(r"\s*[\u2014\u2013]\s*(?:[,;]\s*)*(?=\n\s*(?:- |\n|$)|$)", "", out)
    out = re.sub(r"(?:\s*,)+\s*(?=\n\s*(?:- |#|\n)|$)", "", out)
    out = re.sub(r"\n[ \t]+(?=\n)", "\n", out)
    lines = [line for line in out.split("\n") if not _TESTS_LINE.match(line)]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


@cache
def rulebook(game: str) -> Rulebook:
    """``game``'s rules document parsed into sections and clauses: the players' edition, without the
    sections about the software (speed, bots, the terminal, the interfaces' protocol) and without the
    developers' test citations."""
    lines = text(game).split("\n")
    title = ""
    sections: list[Section] = []
    heading: tuple[str | None, str, int] | None = None
    body: list[str] = []

    def close() -> None:
        if heading is None:
            return
        sid, stitle, level = heading
        sections.append(_section(sid, stitle, level, body))

    for line in lines:
        m = _HEADING.match(line)
        if m is None:
            body.append(line)
            continue
        level, words = len(m.group(1)), m.group(2)
        if level == 1:
            title = words
            body = []
            continue
        close()
        idm = _SECTION_ID.match(words)
        heading = (idm.group(1), idm.group(2) or words, level) if idm else (None, words, level)
        body = []
    close()
    return Rulebook(game, title, tuple(s for s in sections if not _FOR_DEVELOPERS.search(s.title)))


def _clause_words(words: str) -> str:
    """A clause's words without its citations: a clause ends its rule with `` — test_…`` or
    ``Tests: `…` ``, and everything from there on is for developers."""
    m = _CITATION.search(words)
    if m is not None:
        tail = _CITED_TAIL.search(words[: m.start()])
        if tail is not None:
            words = words[: tail.start()]
    return for_players(words).strip()


def _section(sid: str | None, title: str, level: int, body: list[str]) -> Section:
    heading = f"{sid} {title}" if sid else title
    clauses: list[Clause] = []
    prose: list[str] = []
    current: tuple[str, list[str]] | None = None
    for line in body:
        m = _CLAUSE.match(line)
        if m is not None:
            if current is not None:
                clauses.append(Clause(current[0], heading, _clause_words(" ".join(current[1]))))
            current = (m.group(1), [m.group(2)])
        elif current is not None and (line.startswith("  ") or (line.strip() and not line.startswith("- "))):
            current[1].append(line.strip())
        else:
            if current is not None:
                clauses.append(Clause(current[0], heading, _clause_words(" ".join(current[1]))))
                current = None
            prose.append(line)
    if current is not None:
        clauses.append(Clause(current[0], heading, _clause_words(" ".join(current[1]))))
    return Section(sid, title, level, for_players("\n".join(prose)).strip(), tuple(clauses))
