"""A bot worker process: ``python -m cardtable.web.botworker PARENT_PID WATCHDOG_FD NICE``.

The server (:mod:`cardtable.web.workers`) starts a few of these. Each reads one job per line on its
standard input (JSON: what a record holds, the seat, the agent spec, the agent's seed), asks the
agent (:func:`cardtable.web.bots.choose`) and writes one result line, ``{"id", "ok": action text}``
or ``{"id", "error": "..."}``, on its standard output. Anything an agent prints goes to standard
error instead, so it can never garble a result.

A worker dies with its server, however the server ends (``kill -9`` included):

- on Linux it asks the kernel for ``SIGKILL`` when its parent dies (``PR_SET_PDEATHSIG``);
- everywhere, a watchdog thread blocks on a pipe whose only writer is the server: when the server
  is gone the pipe reads end-of-file and the worker exits, even in the middle of a search;
- end-of-file on standard input (the server closed it) ends it too.

It lowers its own CPU priority (``nice``), so the server's event loop wins a contended core.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from typing import Any

from cardtable.lifetime import die_with_parent


def _die_with_parent(parent: int, watchdog_fd: int) -> None:
    die_with_parent(parent)

    def watch() -> None:
        try:
            while os.read(watchdog_fd, 64):
                pass
        except OSError:
            pass
        os._exit(0)

    threading.Thread(target=watch, name="watchdog", daemon=True).start()


def _answer(job: dict[str, Any]) -> dict[str, Any]:
    from cardtable.web.bots import choose

    try:
        text = choose(
            job["game"],
            job["options"],
            job["seed"],
            job["actions"],
            job["seat"],
            job["spec"],
            job["agent_seed"],
            job["key"],
            job.get("budget"),
            job.get("max_iterations"),
        )
    except Exception as exc:  # a broken agent: the server plays a random action and says why
        return {"id": job.get("id"), "error": f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"}
    return {"id": job.get("id"), "ok": text}


def main(argv: list[str]) -> int:
    parent, watchdog_fd, nice = int(argv[0]), int(argv[1]), int(argv[2])
    _die_with_parent(parent, watchdog_fd)
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    # Results go out on a private copy of standard output; fd 1 itself now points at standard error,
    # so an agent's print() cannot write into the result stream.
    results = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    import cardtable.web.bots  # noqa: F401  (the engine and the agents, before the first job)

    jobs = sys.stdin.buffer
    results.write(b'{"ready": true}\n')
    while True:
        line = jobs.readline()
        if not line:
            return 0
        try:
            job = json.loads(line)
        except ValueError:
            results.write(b'{"id": null, "error": "a job that is not JSON"}\n')
            continue
        results.write(json.dumps(_answer(job)).encode() + b"\n")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
