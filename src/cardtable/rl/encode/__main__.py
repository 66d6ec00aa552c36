"""Print every game's observation layout as Markdown (the tables of ``docs/rl.md``).

python -m cardtable.rl.encode            # every available game, one configuration each
"""

from __future__ import annotations

import cardtable
from cardtable.rl.encode import encoder_for


def layout_config(game_id: str) -> dict[str, object]:
    """The configuration a game's documented layout is shown for: its first two-player configuration
    (its first configuration when it has none). Blocks that are per seat grow with the players."""
    cls = cardtable.games.game_class(game_id)
    configs = [dict(c) for c in getattr(cls, "CONFIGURATIONS", ())] or [{}]
    for config in configs:
        if config.get("players") == 2:
            return config
    return configs[0]


def documented_layouts() -> list[tuple[str, str]]:
    """(section title, Markdown table) for every built-in game that is available."""
    out = []
    for game_id in cardtable.games.builtin():
        if game_id not in cardtable.available():
            continue
        config = layout_config(game_id)
        encoder = encoder_for(cardtable.load(game_id, **config))
        options = ", ".join(f"{k}={v}" for k, v in config.items()) or "defaults"
        title = f"### {game_id} ({type(encoder).__name__}, {options}: {encoder.size} values)"
        out.append((title, encoder.layout.markdown()))
    return out


def main() -> None:
    for title, table in documented_layouts():
        print(title)
        print()
        print(table)
        print()


if __name__ == "__main__":
    main()
