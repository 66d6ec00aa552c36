"""Which modules the compiled build compiles with mypyc (the rest stays Python in both builds).

The engine and every game package, the agents that search and play out games, the RL observers
(``rl/observe``: they write a seat's observation from the state at every environment step, so an
environment runs at the speed of the engine it reads only if they are compiled with it) and the RL
environments' core (:data:`RL_CORE`: the episode, the one-learner table, its opponents and the action
codec, the per-step work every adapter runs; the rest of ``rl`` is the libraries' API and stays
Python). Left as Python:
package ``__init__`` files (run once at import), the generator's pure twin ``engine/rng.py`` (its
64-bit arithmetic is the C twin's job), the engine's exception classes ``engine/errors.py`` (they
subclass ``ValueError`` and the like as well, and users catch and subclass them), the root-parallel
search's process plumbing ``agents/parallel.py`` and ``agents/worker.py`` (the helper runs as
``python -m``, which a compiled module cannot, and neither is on a hot path) and every interface
(CLI, web, the RL environments, simulation, testing).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "games", "games/*", "agents", "agents/heuristics", "rl/observe")
RL_CORE = (
    "src/cardtable/rl/episode.py",
    "src/cardtable/rl/table.py",
    "src/cardtable/rl/spaces.py",
    "src/cardtable/rl/opponents.py",
)
"""The environments' core, compiled too: the per-step work between the libraries' API and the engine
(a game for one learner, its opponents, the legal-action mask), which every adapter runs."""
NEVER = {
    "src/cardtable/engine/rng.py",
    "src/cardtable/engine/errors.py",
    "src/cardtable/agents/parallel.py",
    "src/cardtable/agents/worker.py",
}


def compiled_paths() -> list[str]:
    """Source paths (relative to the project root, sorted) of the modules the compiled build compiles."""
    out: list[str] = []
    for pattern in PACKAGES:
        for folder in sorted((ROOT / "src" / "cardtable").glob(pattern)):
            if not folder.is_dir() or folder.name == "__pycache__":
                continue
            for path in sorted(folder.glob("*.py")):
                rel = path.relative_to(ROOT).as_posix()
                if path.name != "__init__.py" and rel not in NEVER:
                    out.append(rel)
    out.extend(RL_CORE)
    return sorted(out)
