"""The compiled build's source rules (DESIGN.md, "Speed"), checked on the source itself.

The engine and the games are compiled with mypyc in the compiled build; CI builds it and runs the
tests against it, but that takes minutes, so the habits that keep the code compilable are checked here
too, in the pure suite, on the modules that build compiles (``build_backend/compiled_modules.py``):
no ``object.__new__`` and no weak references (compiled classes take neither), single inheritance
(no diamond of mixins), distinct ``except ... as`` names within a function (mypyc types the name
once), constants that are ``Final`` (not tuple-unpacked), no 64-bit generator arithmetic outside the
generator's pure twin, and public entry points that accept any value and check it themselves (so a
wrong type gets the documented error, not the compiled build's bare ``TypeError``).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "build_backend"))

# build_backend is on sys.path only at run time, so mypy cannot follow this import.
from compiled_modules import compiled_paths  # type: ignore[import-not-found]  # noqa: E402

PATHS: list[str] = compiled_paths()


def _tree(path: str) -> ast.Module:
    return ast.parse((ROOT / path).read_text(encoding="utf-8"), filename=path)


def test_the_compiled_set_covers_the_engine_and_every_game() -> None:
    assert "src/cardtable/engine/game.py" in PATHS
    assert "src/cardtable/engine/rng.py" not in PATHS  # the pure twin stays Python
    assert "src/cardtable/engine/errors.py" not in PATHS  # exceptions with several bases stay Python
    for game in ("mephisto", "doctor_strange", "army_of_darkness", "mr_card_game"):
        folder = ROOT / "src" / "cardtable" / "games" / game
        modules = {p.relative_to(ROOT).as_posix() for p in folder.glob("*.py") if p.name != "__init__.py"}
        assert modules and modules <= set(PATHS), game


@pytest.mark.parametrize("path", PATHS)
def test_module_is_compilable(path: str) -> None:
    tree = _tree(path)
    problems: list[str] = []
    text = (ROOT / path).read_text(encoding="utf-8")
    if re.search(r"\bweakref\b|WeakKeyDictionary|WeakValueDictionary", text):
        problems.append("uses weak references (compiled objects take none)")
    if re.search(r"<<\s*64\b|>>\s*64\b|0x9E3779B97F4A7C15|\(1 << 64\)", text):
        problems.append("does 64-bit generator arithmetic (that is the generator's job: engine/rng.py, _crng.c)")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__new__":
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == "object":
                problems.append(f"line {node.lineno}: object.__new__ (compiled classes refuse it)")
        if isinstance(node, ast.ClassDef):
            bases = [b for b in node.bases if not (isinstance(b, ast.Subscript) and ast.unparse(b.value) == "Generic")]
            traits = any(ast.unparse(d).endswith("trait") for d in node.decorator_list)
            if len(bases) > 1 and not traits:
                problems.append(f"line {node.lineno}: class {node.name} has several bases (mypyc: traits only)")
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names: dict[str, set[str]] = {}
            for handler in ast.walk(node):
                if isinstance(handler, ast.ExceptHandler) and handler.name:
                    kind = ast.unparse(handler.type) if handler.type else "BaseException"
                    names.setdefault(handler.name, set()).add(kind)
            problems += [
                f"function {node.name}: 'except ... as {name}' names {sorted(kinds)} (use distinct names)"
                for name, kinds in names.items()
                if len(kinds) > 1
            ]
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) and e.id.isupper() for e in target.elts):
            problems.append(f"line {node.lineno}: tuple-unpacked constants (write one Final per line)")
        if (
            isinstance(node, ast.Assign)
            and isinstance(target, ast.Name)
            and re.fullmatch(r"_?[A-Z][A-Z0-9_]*", target.id)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, int | float | str)
        ):
            problems.append(f"line {node.lineno}: constant {target.id} is not Final")
    assert not problems, f"{path}: " + "; ".join(problems)


DOORS: dict[str, dict[str, tuple[str, ...]]] = {
    "src/cardtable/engine/game.py": {
        "State.apply": ("action", "seat"),
        "State.view": ("seat",),
        "State.events": ("seat",),
        "Game.new": ("seed", "log"),
    },
    "src/cardtable/engine/table.py": {
        "Table.apply": ("action", "seat"),
        "Table.undo": ("seat", "count"),
        "Table.undoable": ("seat",),
        "Table.events": ("seat",),
    },
    "src/cardtable/engine/actions.py": {"ActionSpace.parse": ("text",)},
    "src/cardtable/engine/record.py": {"replay": ("record", "verify", "log")},
}


@pytest.mark.parametrize("path", sorted(DOORS))
def test_public_entry_points_accept_any_value(path: str) -> None:
    """The doors users call take ``object`` and check it themselves: a compiled signature of
    ``int`` or ``Action | str`` would answer a wrong type with mypyc's bare TypeError."""
    found: dict[str, dict[str, str]] = {}
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    found[f"{node.name}.{item.name}"] = _annotations(item)
    for node in _tree(path).body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = _annotations(node)
    for door, params in DOORS[path].items():
        for name in params:
            assert found[door][name] == "object", (door, name, found[door][name])


def _annotations(fn: ast.FunctionDef) -> dict[str, str]:
    args = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
    return {a.arg: ast.unparse(a.annotation) if a.annotation else "" for a in args}


def _final_names(path: Path) -> set[str]:
    """The module-level names of ``path`` bound as ``Final``."""
    out: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            ann = node.annotation
            base = ann.value if isinstance(ann, ast.Subscript) else ann
            if isinstance(base, ast.Name) and base.id == "Final":
                out.add(node.target.id)
    return out


def _module_file(importer: Path, node: ast.ImportFrom, name: str) -> Path:
    """The file that ``from ... import name`` in ``importer`` reads ``name`` from (the module itself when
    ``name`` is a module)."""
    if node.level:
        base = importer.parent
        for _ in range(node.level - 1):
            base = base.parent
        package = base.joinpath(*node.module.split(".")) if node.module else base
    else:
        package = ROOT.joinpath("src", *(node.module or "").split("."))
    return package / f"{name}.py" if (package / f"{name}.py").exists() else package.with_suffix(".py")


TELLS = ("tell", "tell_seated", "tell1", "tell2", "tell3", "tell4", "tell5", "tell_list", "tell_list1")
"""The State methods that record an event kept as data (cardtable.engine.game)."""


@pytest.mark.parametrize("path", [p for p in PATHS if "/games/" in p])
def test_words_passed_to_tell_are_final_names(path: str) -> None:
    """A words function handed to ``tell`` (or its flat variants, or ``tell_seated``) is a ``Final``
    module name: compiled code loads a Final as a C static, while a plain function name used as a
    value is a dictionary lookup in the module's globals at every event (cardtable.engine.events,
    "Why Final aliases")."""
    file = ROOT / path
    tree = _tree(path)
    imported: dict[str, tuple[Path, str]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                imported[alias.asname or alias.name] = (_module_file(file, stmt, alias.name), alias.name)
    local = _final_names(file)
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in TELLS
            and len(node.args) >= 2
        ):
            continue
        words = node.args[1]
        where = f"{path}:{node.lineno}"
        if isinstance(words, ast.Attribute) and isinstance(words.value, ast.Name) and words.value.id in imported:
            module, _ = imported[words.value.id]
            assert words.attr in _final_names(module), f"{where}: {ast.unparse(words)} is not a Final name"
        elif isinstance(words, ast.Name) and words.id in imported:
            module, name = imported[words.id]
            assert name in _final_names(module), f"{where}: {words.id} is not a Final name of {module.name}"
        else:
            assert isinstance(words, ast.Name) and words.id in local, (
                f"{where}: {ast.unparse(words)} is not a Final name"
            )
