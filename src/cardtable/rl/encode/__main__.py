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
    """(section title, Markdown table) for every available built-in game with an encoder of its own
    (a game read by the generic hashed encoder has one anonymous block, described in prose)."""
    from cardtable.rl.encode import dedicated

    out = []
    for game_id in cardtable.games.builtin():
        if game_id not in cardtable.available() or not dedicated(game_id):
            continue
        config = layout_config(game_id)
        encoder = encoder_for(cardtable.load(game_id, **config))
        options = ", ".join(f"{k}={v}" for k, v in config.items()) or "defaults"
        title = f"### {game_id} ({type(encoder).__name__}, {options}: {encoder.size} values)"
        out.append((title, encoder.layout.markdown()))
    return out


def player_counts(game_id: str) -> list[int]:
    """The player counts of a game's configurations, in order."""
    cls = cardtable.games.game_class(game_id)
    configs = [dict(c) for c in getattr(cls, "CONFIGURATIONS", ())] or [{}]
    return sorted({int(cardtable.load(game_id, **c).players) for c in configs})


def layouts_by_players() -> list[tuple[str, str]]:
    """(section title, Markdown table) per game: every block's slice and shape for each player count
    its configurations use (the layout depends on the players only: the card file and the other
    options leave it alone, as ``tests/rl/test_encoders.py`` checks)."""
    from cardtable.rl.encode import dedicated

    out = []
    for game_id in cardtable.games.builtin():
        if game_id not in cardtable.available() or not dedicated(game_id):
            continue
        counts = player_counts(game_id)
        layouts = {n: encoder_for(cardtable.load(game_id, players=n)).layout for n in counts}
        names = [b.name for b in layouts[counts[0]]]
        head = "| block | " + " | ".join(f"players={n}" for n in counts) + " |"
        rows = [head, "|---|" + "---|" * len(counts)]
        for name in names:
            cells = []
            for n in counts:
                b = layouts[n][name]
                shape = "x".join(str(k) for k in b.shape)
                cells.append(f"{b.start}:{b.stop} ({shape})")
            rows.append(f"| `{name}` | " + " | ".join(cells) + " |")
        rows.append("| whole vector | " + " | ".join(str(layouts[n].size) for n in counts) + " |")
        out.append((f"#### {game_id}: slices for every player count", "\n".join(rows)))
    return out


BEGIN = "<!-- layouts:begin (python -m cardtable.rl.encode --write docs/rl.md) -->"
END = "<!-- layouts:end -->"


def markdown() -> str:
    parts = [f"{title}\n\n{table}" for title, table in documented_layouts()]
    parts.append(
        "Blocks per seat grow with the players. Every block's slice (and shape) for each player count "
        "the configurations use:"
    )
    parts += [f"{title}\n\n{table}" for title, table in layouts_by_players()]
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    import argparse
    from pathlib import Path

    parser = argparse.ArgumentParser(description="Print (or write into a document) every game's observation layout.")
    parser.add_argument("--write", type=Path, help="replace the text between the layout markers of this file")
    args = parser.parse_args(argv)
    text = markdown()
    if args.write is None:
        print(text)
        return 0
    doc = args.write.read_text()
    if BEGIN not in doc or END not in doc:
        parser.error(f"{args.write} has no layout markers ({BEGIN} ... {END})")
    head, _, rest = doc.partition(BEGIN)
    _, _, tail = rest.partition(END)
    args.write.write_text(f"{head}{BEGIN}\n\n{text}\n\n{END}{tail}")
    print(f"wrote the layouts into {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
