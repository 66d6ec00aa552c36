"""Processes as /proc shows them (Linux), for the tests that check nothing outlives a server."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead and waiting to be reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")[:-1]
    except OSError:
        return []


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[1]) == pid:
            out.append(int(entry))
    return out


def bot_workers(server_pid: int) -> list[int]:
    """The live bot workers started by the server ``server_pid`` (their command line names it), even
    once they are orphans."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and alive(int(entry)):
            args = cmdline(int(entry))
            if "cardtable.web.botworker" in args and args[args.index("cardtable.web.botworker") + 1 :][:1] == [
                str(server_pid)
            ]:
                found.append(int(entry))
    return found


def wait_until(check: Callable[[], T], timeout: float, what: str, every: float = 0.05) -> T:
    """``check()``'s first truthy value within ``timeout`` seconds, else an AssertionError saying ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        time.sleep(every)
