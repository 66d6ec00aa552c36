#!/usr/bin/env python
"""Regenerate the golden event logs (tests/eventlog/golden.json.gz) after an intended change of wording.

Prints how many events changed in each game, and the first few changes, for review: every change
should be a wording someone meant (never a change of who reads what).
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from cardtable.testing.eventlog import golden  # noqa: E402

PATH = ROOT / "tests" / "eventlog" / "golden.json.gz"


def main() -> int:
    old = json.loads(gzip.decompress(PATH.read_bytes())) if PATH.exists() else {}
    new = golden()
    shown = 0
    for key, lines in new.items():
        before = old.get(key, [])
        changed = [(a, b) for a, b in zip(before, lines, strict=False) if a != b]
        if changed or len(before) != len(lines):
            print(f"{key}: {len(changed)} events changed, {len(before)} -> {len(lines)} events")
            for a, b in changed[: max(0, 3 - shown)]:
                print(f"  - {a}\n  + {b}")
                shown += 1
    text = json.dumps(new, separators=(",", ":"), ensure_ascii=False)
    PATH.write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))
    print(f"wrote {PATH.relative_to(ROOT)} ({PATH.stat().st_size:,} bytes, {len(new)} games)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
