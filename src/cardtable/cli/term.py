"""The terminal a command talks to: a rich console for output and a line source for input.

Commands never call ``input()`` or ``print()`` directly; they use :class:`Terminal`, so tests (and
scripts) can drive them with any text stream and capture everything they show.
"""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console


class Terminal:
    """Output through ``console``; input line by line from ``stdin`` (default: the process's stdin).

    :meth:`ask` returns ``None`` at end of input, never raises ``EOFError``. When the input is not an
    interactive terminal, each line read is echoed after its prompt so a transcript reads naturally.
    """

    def __init__(self, console: Console | None = None, stdin: TextIO | None = None) -> None:
        self.console = console if console is not None else Console(highlight=False)
        self._stdin = stdin
        self.eof = False

    @property
    def stdin(self) -> TextIO:
        return self._stdin if self._stdin is not None else sys.stdin

    @property
    def interactive(self) -> bool:
        """True when a person types at a real terminal (so stepping and prompts make sense)."""
        try:
            return self.stdin.isatty()
        except (AttributeError, ValueError):
            return False

    def ask(self, prompt: str) -> str | None:
        """Show ``prompt`` (rich markup allowed) and read one line, stripped; ``None`` at end of input."""
        if self.eof:
            return None
        if self._stdin is None and self.interactive and self.console.is_terminal:
            # The builtin input() (through rich) gives the person line editing and history.
            try:
                return self.console.input(prompt).strip()
            except EOFError:
                self.eof = True
                self.console.print()
                return None
        self.console.print(prompt, end="")
        try:
            line = self.stdin.readline()
        except UnicodeDecodeError:
            # Bytes that are not text: answer as if the line were empty (the caller asks again).
            self.console.print("(that line could not be read as text)")
            return ""
        if not line:
            self.eof = True
            self.console.print()
            return None
        line = line.rstrip("\r\n")
        if not self.interactive:
            self.console.print(line, markup=False, highlight=False)
        return line.strip()

    def clear(self) -> None:
        """Clear the screen and, where the terminal supports it, its scrollback.

        Used between hot-seat players so that one cannot scroll back to another's hand.
        """
        if self.console.is_terminal:
            self.console.clear()
            # ESC[3J drops the scrollback buffer too (xterm, tmux, most modern terminals).
            self.console.file.write("\x1b[3J")
            self.console.file.flush()
        else:
            self.console.rule()
