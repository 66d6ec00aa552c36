"""The README's Python examples run as written, and the engine snippet also pasted into the prompt."""

from __future__ import annotations

import code
import contextlib
import io
import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README has no Python example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})


def test_quick_start_is_two_commands_and_ci_runs_the_second() -> None:
    text = README.read_text()
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", quick, flags=re.S)
    assert len(commands) == 2 and all("\n" not in c for c in commands)
    ci = (README.parent / ".ci" / "run").read_text()
    assert commands[1].replace("pip install", "python -m pip install -q") in ci


class Prompt(code.InteractiveConsole):
    """Python's interactive prompt, fed line by line as a paste feeds it, keeping its errors."""

    def __init__(self) -> None:
        super().__init__(locals={})
        self.errors: list[str] = []

    def write(self, data: str) -> None:
        self.errors.append(data)


def paste(block: str) -> Prompt:
    prompt = Prompt()
    # The prompt reports errors through ``write`` only while ``sys.excepthook`` is Python's own;
    # a library loaded by an earlier test in the same worker may have replaced it.
    hook = sys.excepthook
    sys.excepthook = sys.__excepthook__
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for line in block.splitlines():
                prompt.push(line)
            prompt.push("")  # the Enter after the paste
    finally:
        sys.excepthook = hook
    return prompt


def engine_snippet() -> str:
    blocks: list[str] = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    return next(b for b in blocks if "cardtable.load(" in b and "while not state.is_over" in b)


def test_the_engine_snippet_works_pasted_into_the_interactive_prompt() -> None:
    """The issue's finding: pasted into ``python``, the ``while`` block swallowed the next line (a
    SyntaxError), and the final check then passed on a game that had not been played."""
    prompt = paste(engine_snippet())
    assert prompt.errors == []
    state = prompt.locals["state"]
    assert state.is_over and prompt.locals["record"]["result"] is not None


def test_the_snippet_check_fails_on_a_pasted_block_that_breaks() -> None:
    """Positive control: without the blank line after the loop the paste breaks, and then the
    snippet's own check must fail rather than pass on an unfinished game."""
    broken = engine_snippet().replace("\n\nprint(", "\nprint(", 1)
    prompt = paste(broken)
    assert any("SyntaxError" in e for e in prompt.errors)
    assert any("AssertionError" in e for e in prompt.errors) or "record" not in prompt.locals
