"""Child processes that end with the process that started them.

The web server's bot workers (:mod:`cardtable.web.botworker`) and the simulation's worker processes
(:mod:`cardtable.sim.workers`) call :func:`die_with_parent` first thing; each also keeps an
end-of-file check of its own, which works on every system.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """On Linux, ask the kernel to kill this process (``SIGKILL``) the moment its parent dies,
    however it dies (``kill -9`` included); then exit at once if ``parent`` is no longer this process's
    parent (it died before the request was made). Elsewhere only that second check is made."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # no prctl here: the caller's check remains
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)
