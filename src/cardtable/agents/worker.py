"""A helper process of root-parallel search: ``python -m cardtable.agents.worker LIFELINE_FD``.

It reads tasks from stdin and writes answers to stdout (:mod:`cardtable.agents.parallel` holds the
protocol and the reasons). A watchdog thread blocks on the lifeline pipe and ends the process the
moment the parent's end closes, whatever the main thread is doing; Ctrl-C is the parent's to handle.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Any


def _watch(fd: int) -> None:
    """Block until the parent's end of the lifeline closes, then end this process at once."""
    try:
        while os.read(fd, 1):
            pass
    except OSError:
        pass
    os._exit(0)


def _answer(task: tuple[Any, ...]) -> tuple[Any, ...]:
    from cardtable.agents.base import Observation
    from cardtable.agents.ismcts import Ismcts
    from cardtable.agents.registry import make_agent

    _, task_id, spec, blob, seat, seeds, iterations, until = task
    deadline = time.perf_counter() + (float(until) - time.monotonic())
    from cardtable.agents.parallel import loads

    state = loads(blob)
    agent = make_agent(spec, state.game, 0)
    search = getattr(agent, "searcher", agent)
    if not isinstance(search, Ismcts):
        raise TypeError(f"{spec!r} is not a search agent")
    stats, done = search.grow_trees(Observation(state, int(seat)), [int(s) for s in seeds], int(iterations), deadline)
    return ("done", task_id, stats, done)


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch, args=(int(argv[1]),), daemon=True, name="lifeline").start()
    from cardtable.agents.parallel import dumps, read_message, write_message

    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    while True:
        data = read_message(stdin)
        if data is None:
            return 0
        task_id: Any = None
        try:
            from cardtable.agents.parallel import loads

            task = loads(data)
            task_id = task[1]
            _, task_id, stats, done = _answer(task)
            reply: tuple[Any, ...] = (task_id, stats, done)
        except Exception as exc:  # the parent goes on without this helper's trees
            reply = (task_id, "error", f"{type(exc).__name__}: {exc}")
        write_message(stdout, dumps(reply))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
