"""Reading files people hand to cardtable (card files, records): regular files of a bounded size only.

A path may name anything: a directory, a device (``/dev/zero``), a FIFO that never ends, a file of
gigabytes, or carry a NUL byte. Everything that reads such a path goes through
:func:`read_regular_file` (or, for a file streamed line by line, :func:`regular_file` first), which
answers each of those with one clear :class:`~cardtable.engine.errors.CardtableError` instead of
reading forever, running out of memory or raising a raw ``OSError``/``ValueError``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

from cardtable.engine.errors import CardtableError, quoted

CARD_FILE_LIMIT: Final = 4 * 1024 * 1024
"""Largest card file accepted (the biggest bundled set is a few dozen kilobytes)."""
RECORD_LIMIT: Final = 64 * 1024 * 1024
"""Largest record file accepted (a record of a very long game is a few megabytes)."""


class FileRefused(CardtableError):
    """A path that cannot be read as a data file; the message names the path and why (``reason``)."""

    def __init__(self, what: str, name: str, reason: str) -> None:
        self.reason = reason
        super().__init__(f"cannot read {what} {name}: {reason}")


def regular_file(path: str | Path, what: str) -> os.stat_result:
    """The status of the regular file at ``path``, checked without opening it.

    ``what`` names the file's role in messages ("card file", "record"). Raises :class:`FileRefused`
    for a missing or unreadable path, a path with a NUL byte, and anything that is not a regular file
    (directory, device, FIFO, socket). For a file streamed line by line (a simulation's records);
    :func:`read_regular_file` reads a whole one.
    """
    name = quoted(str(path), 80)
    if "\x00" in str(path):
        raise FileRefused(what, name, "the path contains a NUL byte")
    try:
        info = os.stat(path)
    except OSError as stat_failed:
        raise FileRefused(what, name, str(stat_failed.strerror or stat_failed)) from None
    except ValueError as unencodable:  # e.g. a path the OS cannot encode
        raise FileRefused(what, name, str(unencodable)) from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file (a device, FIFO or socket)"
        raise FileRefused(what, name, f"it is {kind}")
    return info


def read_regular_file(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` bytes long.

    Raises :class:`FileRefused` as :func:`regular_file` does, and for a file larger than ``limit``;
    never blocks on a FIFO.
    """
    name = quoted(str(path), 80)
    info = regular_file(path, what)
    if info.st_size > limit:
        raise FileRefused(what, name, f"{info.st_size} bytes is more than the {limit} allowed")
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO since the stat, opening it must not hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as open_failed:
        raise FileRefused(what, name, str(open_failed.strerror or open_failed)) from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise FileRefused(what, name, "it is not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(what, name, f"it is larger than the {limit} bytes allowed")
    return data
