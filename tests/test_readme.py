"""The README's Python example runs as written."""

from __future__ import annotations

import re
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
