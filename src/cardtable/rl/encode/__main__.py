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


BEGIN = "<!-- layouts:begin (python -m cardtable.rl.encode --write docs/rl.md) -->"
END = "<!-- layouts:end -->"


def markdown() -> str:
    return "\n\n".join(f"{title}\n\n{table}" for title, table in documented_layouts())


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
