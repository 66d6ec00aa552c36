"""What the three screens share: one game with the candidate in one seat and the shipped heuristic in
the others (deal ``deal`` from rotation ``rot``, agents seeded as ``benchmarks/ladder.py`` seeds them),
and the run's line (the candidate's win share with its 95% Wilson interval)."""

import json
import time
from collections.abc import Callable
from multiprocessing import Pool

from cardtable.agents.base import Agent, Observation
from cardtable.agents.registry import make_agent
from cardtable.engine import Game, State
from cardtable.sim.stats import wilson


def agent_seed(deal: int, seat: int) -> int:
    """As ``benchmarks/ladder.py`` seeds an agent (the screens ran as scripts, without its imports)."""
    return (deal * 1_000_003 + seat * 7919 + 17) % (1 << 62)


def play(game: Game, candidate: Callable[[int], Agent], deal: int, rot: int, first_seed: int) -> tuple[State, int]:
    """Deal ``first_seed + deal`` played to its end with ``candidate(seed)`` at the seat rotation
    ``rot`` gives it; the finished state and the candidate's seat."""
    n = game.players
    hero = next(s for s in range(n) if (s + rot) % n == 0)
    agents = [
        candidate(agent_seed(deal, s)) if s == hero else make_agent("heuristic", game, agent_seed(deal, s))
        for s in range(n)
    ]
    st = game.new(first_seed + deal, log=False)
    while not st.is_over:
        seat = st.current_player
        legal = st.legal_actions()
        act = legal[0] if len(legal) == 1 else agents[seat].choose(Observation(st, seat))
        st.apply(act)
    return st, hero


def run(task: Callable, tasks: list, workers: int = 2, **fields: object) -> list:
    """``task`` over ``tasks`` on ``workers`` processes (each returns ``(deal, rot, share, ...)``);
    prints the run's line, ``fields`` first, and returns the results."""
    started = time.time()
    with Pool(workers) as pool:
        res = pool.map(task, tasks, chunksize=2)
    share = wilson(sum(x[2] for x in res), len(res))
    line = {
        **fields,
        "games": len(res),
        "share": round(share.estimate, 4),
        "ci": [round(share.low, 3), round(share.high, 3)],
        "secs": round(time.time() - started, 1),
    }
    print(json.dumps(line), flush=True)
    return res
