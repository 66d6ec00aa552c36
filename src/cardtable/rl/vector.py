"""Vectorised environments: N games stepped in one call, batched NumPy arrays, automatic resets.

>>> import cardtable.rl
>>> envs = cardtable.rl.vector_env("mephisto", 64, players=2, opponents="random")
>>> obs, infos = envs.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape
((64, 1047), (64, 739))
>>> obs, rewards, terminations, truncations, infos = envs.step(envs.sample_legal())

Each sub-environment is a game for one learner against opponents, as
:class:`cardtable.rl.gym_env.CardtableGymEnv` (the same options: ``opponents``, ``seat``,
``reward``, ``illegal``, ``max_steps``, ...). It follows Gymnasium's vector API
(:class:`gymnasium.vector.VectorEnv`): observations are a dict of batched arrays
(``observation``: ``(N, size)`` float32, ``action_mask``: ``(N, actions)`` int8), rewards, terminations
and truncations arrays of ``(N,)``; ``infos`` is a dict of arrays with a ``_key`` mask for each key.

**Automatic resets** (Gymnasium's ``SAME_STEP`` mode): when a game ends, the step returns the first
observation of the next game in its row, and ``infos["final_obs"]`` / ``infos["final_info"]`` (with
``infos["_final_obs"]`` saying which rows) hold the last observation and the info of the game that
ended (its ``result``, ``true_reward``, ``seat``, ``seed``).

**Seeding reproduces whole runs.** ``reset(seed=s)`` deals sub-environment ``i`` the game ``s + i``
(a list gives one seed per row) and seeds its own generator from it; every later game of that row
(and its seat, with ``seat=None``) is drawn from that generator, and opponents are seeded from each
game's seed. The same seeds and actions give the same observations, rewards and ends, whatever the
number of worker processes.

**Worker processes.** ``workers=k`` runs the N games in ``k`` processes (rows split evenly), which
write into shared memory: the parent only sends actions and reads the arrays. Opponents must pickle
then (spec strings always do). ``workers=0`` (the default) steps every game in this process.

Observations are written straight into the batch by the game's observer (:mod:`cardtable.rl.observe`),
updating only what changed since each row's last step. ``copy=True`` (the default) returns copies of
the arrays, as Gymnasium's own vector environments do; ``copy=False`` returns the environment's own
buffers, valid until the next call (faster for big observations).
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
from collections.abc import Sequence
from multiprocessing import shared_memory
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import cardtable
from cardtable.engine.errors import IllegalAction, MalformedAction
from cardtable.engine.game import JSON, Game
from cardtable.rl.encode import encoder_for
from cardtable.rl.gym_env import observation_space
from cardtable.rl.limits import MAX_STEPS, MAX_TURN_STEPS, check_limit
from cardtable.rl.observe import observer_for
from cardtable.rl.opponents import OpponentSpec, check_specs
from cardtable.rl.research import Codebook
from cardtable.rl.shaping import DEFAULT_SCALE, check_scale, potential_for
from cardtable.rl.spaces import ActionCodec
from cardtable.rl.table import ILLEGAL_MODES, Table, step_tables

Infos = list[tuple[int, dict[str, Any]]]
"""Per row that has something to say: (row, info)."""


class _Rows:
    """The games of rows ``[lo, hi)`` and their buffers: the work of one process."""

    def __init__(self, settings: dict[str, Any], lo: int, hi: int, arrays: dict[str, np.ndarray]) -> None:
        self.lo, self.hi = lo, hi
        s = settings
        self.game: Game = cardtable.load(s["game_id"], **s["options"])
        encoder = encoder_for(self.game, s["encoder"])
        self.observer = observer_for(self.game, encoder, s["observe"])
        self.codec = ActionCodec(self.game)
        potential = potential_for(s["game_id"], s["reward"])
        self.fixed_seat: int | None = s["seat"]
        self.arrays = arrays
        obs, masks = arrays["observation"], arrays["action_mask"]
        self.tables = [
            Table(
                self.game,
                self.observer,
                self.codec,
                s["opponents"],
                potential=potential,
                scale=s["shaping_scale"],
                illegal=s["illegal"],
                max_steps=s["max_steps"],
                max_turn_steps=s["max_turn_steps"],
                observation=obs[i],
                mask=masks[i],
            )
            for i in range(lo, hi)
        ]
        self.generators: list[np.random.Generator] = [seeding.np_random(None)[0] for _ in self.tables]

    def _start(self, k: int, game_seed: int) -> dict[str, Any]:
        rng = self.generators[k]
        seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(0, self.game.players))
        return self.tables[k].start(game_seed, seat)

    def reset(self, seeds: Sequence[int | None]) -> Infos:
        infos: Infos = []
        for k, seed in enumerate(seeds):
            if seed is not None:
                self.generators[k] = seeding.np_random(seed)[0]
                game_seed = int(seed)
            else:
                game_seed = int(self.generators[k].integers(0, 2**62))
            infos.append((self.lo + k, self._start(k, game_seed)))
        return infos

    def step(self, actions: Sequence[int]) -> Infos:
        arrays = self.arrays
        lo = self.lo
        infos: Infos = []
        # Every row in one loop (compiled with the tables in the compiled build); only the rows with
        # something to say come back here, those whose game ended to be dealt the next one.
        said = step_tables(
            self.tables, list(map(int, actions)), arrays["rewards"], arrays["terminations"], arrays["truncations"], lo
        )
        for i, ended, info in said:
            if ended:
                k = i - lo
                table = self.tables[k]
                info["seat"] = table.seat
                info["seed"] = table.live.seed
                final = {"final_obs": self._row_obs(i), "final_info": info}
                start = self._start(k, int(self.generators[k].integers(0, 2**62)))
                infos.append((i, {**final, **start}))
            else:
                infos.append((i, info))
        return infos

    def _row_obs(self, i: int) -> dict[str, np.ndarray]:
        return {
            "observation": self.arrays["observation"][i].copy(),
            "action_mask": self.arrays["action_mask"][i].copy(),
        }

    def call(self, name: str, args: tuple[Any, ...]) -> Any:
        if name == "legal":
            return [np.array(t.legal_indices(), dtype=np.int64) for t in self.tables]
        if name == "snapshot":
            return [t.live.state.snapshot() for t in self.tables]
        if name == "view":
            return [t.live.view(t.seat) for t in self.tables]
        if name == "record":
            return [t.live.state.record() for t in self.tables]
        if name == "seats":
            return [t.seat for t in self.tables]
        raise ValueError(f"unknown call {name!r}")


def _worker(
    settings: dict[str, Any], lo: int, hi: int, shapes: dict[str, tuple[str, tuple[int, ...], str]], pipe: Any
) -> None:
    """A worker process: the rows ``[lo, hi)``, written into the shared arrays, driven over ``pipe``."""
    blocks = []
    arrays: dict[str, np.ndarray] = {}
    try:
        for key, (name, shape, dtype) in shapes.items():
            block = shared_memory.SharedMemory(name=name)
            blocks.append(block)
            arrays[key] = np.ndarray(shape, dtype=np.dtype(dtype), buffer=block.buf)
        rows = _Rows(settings, lo, hi, arrays)
        pipe.send(("ready", None))
        while True:
            command, payload = pipe.recv()
            try:
                if command == "reset":
                    pipe.send(("ok", rows.reset(payload)))
                elif command == "step":
                    pipe.send(("ok", rows.step(payload)))
                elif command == "call":
                    pipe.send(("ok", rows.call(*payload)))
                elif command == "close":
                    pipe.send(("ok", None))
                    return
                else:
                    pipe.send(("error", ValueError(f"unknown command {command!r}")))
            except Exception as exc:  # the parent raises it
                pipe.send(("error", exc))
    except (EOFError, KeyboardInterrupt):
        return
    finally:
        del arrays
        for block in blocks:
            block.close()


class CardtableVectorEnv(Codebook, VectorEnv[dict[str, Any], Any, np.ndarray]):
    """``num_envs`` games, each for one learner against opponents (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        *,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        seat: int | None = 0,
        reward: str = "win",
        shaping_scale: float = DEFAULT_SCALE,
        illegal: str = "lose",
        encoder: str = "auto",
        observe: str = "auto",
        max_steps: int | None = MAX_STEPS,
        max_turn_steps: int | None = MAX_TURN_STEPS,
        workers: int = 0,
        copy: bool = True,
        context: str | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= num_envs:
            raise ValueError(f"workers must be from 0 (this process) to num_envs ({num_envs}), got {workers!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, got {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        check_limit("max_steps", max_steps)
        check_limit("max_turn_steps", max_turn_steps)
        self.game: Game = cardtable.load(game_id, **options)
        players = self.game.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"seat must be a seat from 0 to {players - 1} (or None: a random seat), got {seat!r}")
        specs = check_specs(opponents, self.game)
        potential_for(game_id, reward)  # checks the reward now
        self.encoder = encoder_for(self.game, encoder)
        self.observer = observer_for(self.game, self.encoder, observe)
        self.codec = ActionCodec(self.game)
        self.num_envs = num_envs
        self.copy = copy
        self.render_mode = render_mode
        self.single_observation_space = observation_space(
            self.observer.size, self.observer.low, self.observer.high, self.codec.size
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.codec.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete(np.full(num_envs, self.codec.size, dtype=np.int64))
        self.settings: dict[str, Any] = {
            "game_id": game_id,
            "options": options,
            "opponents": specs,
            "seat": seat,
            "reward": reward,
            "shaping_scale": check_scale(shaping_scale),
            "illegal": illegal,
            "encoder": encoder,
            "observe": observe,
            "max_steps": max_steps,
            "max_turn_steps": max_turn_steps,
        }
        self.workers = workers
        self.context = context
        self._dealt = False
        self._open(options)

    # -- set-up ------------------------------------------------------------------------------------
    def _shapes(self) -> dict[str, tuple[tuple[int, ...], Any]]:
        n = self.num_envs
        return {
            "observation": ((n, self.observer.size), np.float32),
            "action_mask": ((n, self.codec.size), np.int8),
            "rewards": ((n,), np.float64),
            "terminations": ((n,), np.bool_),
            "truncations": ((n,), np.bool_),
        }

    def _open(self, options: dict[str, Any]) -> None:
        self._blocks: list[shared_memory.SharedMemory] = []
        self._procs: list[Any] = []
        self._pipes: list[Any] = []
        self._rows: _Rows | None = None
        self.closed = False
        shapes = self._shapes()
        if not self.workers:
            self.arrays = {key: np.zeros(shape, dtype=dtype) for key, (shape, dtype) in shapes.items()}
            self._rows = _Rows(self.settings, 0, self.num_envs, self.arrays)
            return
        self.arrays = {}
        described: dict[str, tuple[str, tuple[int, ...], str]] = {}
        for key, (shape, dtype) in shapes.items():
            size = max(1, int(np.prod(shape)) * np.dtype(dtype).itemsize)
            block = shared_memory.SharedMemory(create=True, size=size)
            self._blocks.append(block)
            self.arrays[key] = np.ndarray(shape, dtype=dtype, buffer=block.buf)
            self.arrays[key].fill(0)
            described[key] = (block.name, shape, np.dtype(dtype).str)
        method = self.context or ("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")
        ctx: Any = mp.get_context(method)
        bounds = np.linspace(0, self.num_envs, self.workers + 1).astype(int)
        self._bounds = [(int(bounds[k]), int(bounds[k + 1])) for k in range(self.workers)]
        for lo, hi in self._bounds:
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(self.settings, lo, hi, described, child), daemon=True)
            proc.start()
            child.close()
            self._procs.append(proc)
            self._pipes.append(parent)
        for pipe in self._pipes:
            self._receive(pipe)

    def _receive(self, pipe: Any) -> Any:
        try:
            status, payload = pipe.recv()
        except EOFError:
            raise RuntimeError("a worker process of the vector environment stopped (see its error above)") from None
        if status == "error":
            raise payload
        return payload

    def _each(self, command: str, payloads: Sequence[Any]) -> list[Any]:
        for pipe, payload in zip(self._pipes, payloads, strict=True):
            pipe.send((command, payload))
        return [self._receive(pipe) for pipe in self._pipes]

    # -- the vector API ------------------------------------------------------------------------------
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a new game in every row (see the module docstring for ``seed``)."""
        self._check_open()
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int) and not isinstance(seed, bool):
            seeds = [seed + i for i in range(n)]
        elif isinstance(seed, bool):
            raise TypeError("reset(seed=...) takes an integer or one seed per sub-environment, not a bool")
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"reset(seed=...) needs {n} seeds (one per sub-environment), got {len(seeds)}")
        if isinstance(seed, int):
            # The environment's own generator (``np_random``: sample_legal's), as Gymnasium's VectorEnv.
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        if self._rows is not None:
            infos = self._rows.reset(seeds)
        else:
            infos = [x for part in self._each("reset", [seeds[lo:hi] for lo, hi in self._bounds]) for x in part]
        self._dealt = True
        return self._observations(), self._infos(infos)

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one action per row (an array of ``num_envs`` action indices)."""
        self._check_open()
        if not getattr(self, "_dealt", True):
            raise RuntimeError("call reset() before using the environment")
        acts = np.asarray(actions).reshape(-1)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"step() needs {self.num_envs} actions (one per sub-environment), got {np.shape(actions)}")
        if acts.dtype.kind not in "iu":
            # Never cast: 2.7 would be played as action 2, True as action 1.
            raise ValueError(f"step() takes action indices as integers, got an array of dtype {acts.dtype}")
        values = acts.tolist()
        if self.settings["illegal"] == "raise":
            # Every row checked before any is stepped: an illegal action changes nothing.
            size = self.codec.size
            masks = self.arrays["action_mask"]
            for i, a in enumerate(values):
                if not 0 <= a < size:
                    raise MalformedAction(
                        f"row {i}: action index {a} is out of range (0 to {size - 1}); nothing was applied"
                    )
                # An empty mask is a game that ended before the learner's first decision: any
                # action delivers its outcome (cardtable.rl.table.Table.start).
                if not masks[i, a] and masks[i].any():
                    raise IllegalAction(f"row {i}: {self.codec.items[a].text!r} is not legal now (nothing was applied)")
        if self._rows is not None:
            infos = self._rows.step(values)
        else:
            infos = [x for part in self._each("step", [values[lo:hi] for lo, hi in self._bounds]) for x in part]
        arrays = self.arrays
        if self.copy:
            return (
                self._observations(),
                arrays["rewards"].copy(),
                arrays["terminations"].copy(),
                arrays["truncations"].copy(),
                self._infos(infos),
            )
        return (
            self._observations(),
            arrays["rewards"],
            arrays["terminations"],
            arrays["truncations"],
            self._infos(infos),
        )

    def close_extras(self, **kwargs: Any) -> None:
        if self._pipes:
            for pipe in self._pipes:
                try:
                    pipe.send(("close", None))
                    pipe.recv()
                except (OSError, EOFError, BrokenPipeError):
                    pass
            for proc in self._procs:
                proc.join(timeout=5)
                if proc.is_alive():
                    proc.terminate()
        self.arrays = {}
        for block in self._blocks:
            block.close()
            block.unlink()
        self._blocks = []
        self._pipes = []
        self._procs = []
        self._rows = None

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            with contextlib.suppress(Exception):  # best effort, at interpreter exit too
                self.close()

    # -- researchers -------------------------------------------------------------------------------
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every row's legal-action mask as booleans, ``(num_envs, actions)``."""
        return self.arrays["action_mask"].astype(bool)

    def legal_actions(self) -> list[npt.NDArray[np.int64]]:
        """Every row's legal action indices, ascending."""
        return self._gather("legal")

    def sample_legal(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per row (from ``rng``, or the environment's generator)."""
        gen = rng if rng is not None else self.np_random
        return np.array([int(gen.choice(legal)) for legal in self.legal_actions()], dtype=np.int64)

    def seats(self) -> list[int]:
        """The learner's seat in each row's game."""
        return list(self._gather("seats"))

    def views(self) -> list[dict[str, JSON]]:
        """Each row's learner view, for people."""
        return list(self._gather("view"))

    def texts(self, width: int = 100) -> list[str]:
        """Each row's learner table as text, as the terminal draws it."""
        from cardtable.rl.render import view_text

        return [view_text(self.game, view, width) for view in self.views()]

    def render(self) -> tuple[str, ...] | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return tuple(self.texts())

    def snapshots(self) -> list[dict[str, JSON]]:
        """Each row's god view (the whole state): for tools and centralised critics, never a policy."""
        return list(self._gather("snapshot"))

    def records(self) -> list[dict[str, JSON]]:
        """Each row's game so far as a cardtable record."""
        return list(self._gather("record"))

    # -- internals -------------------------------------------------------------------------------
    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError("the vector environment is closed")

    def _gather(self, name: str) -> list[Any]:
        self._check_open()
        if self._rows is not None:
            out: list[Any] = self._rows.call(name, ())
            return out
        return [x for part in self._each("call", [(name, ())] * len(self._pipes)) for x in part]

    def _observations(self) -> dict[str, np.ndarray]:
        obs, mask = self.arrays["observation"], self.arrays["action_mask"]
        if self.copy:
            return {"observation": obs.copy(), "action_mask": mask.copy()}
        return {"observation": obs, "action_mask": mask}

    def _infos(self, infos: Infos) -> dict[str, Any]:
        return batch_infos(self.num_envs, infos) if infos else {}

    # A vector environment pickles as its settings and every row's game replayed (worker processes
    # are started again).
    def __getstate__(self) -> dict[str, Any]:
        rows = self._rows
        if rows is None:
            raise TypeError("a vector environment with worker processes does not pickle; use workers=0")
        return {
            "dict": {k: v for k, v in self.__dict__.items() if k not in ("arrays", "_rows", "_blocks")},
            "rows": rows.__dict__,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state["dict"])
        self._blocks = []
        self._rows = rows = _Rows.__new__(_Rows)
        rows.__dict__.update(state["rows"])
        self.arrays = rows.arrays
        # Rebind every table's buffers to the rows of the (unpickled) batch arrays.
        obs, masks = self.arrays["observation"], self.arrays["action_mask"]
        for k, table in enumerate(rows.tables):
            table.tracker.vector = obs[k]
            table.tracker.view = obs[k].data
            table.mask_buffer = masks[k]


def batch_infos(n: int, infos: Infos) -> dict[str, Any]:
    """The rows' infos as Gymnasium's vector API batches them (what ``VectorEnv._add_info`` builds
    row by row, the same dict, arrays and dtypes): every key an array of ``n`` (its dtype from the
    first row that has it: ``int``, ``float``, ``bool`` and NumPy numbers batched as that type,
    arrays stacked, anything else an object array; a dict batched the same way, key by key;
    ``final_obs`` always an object array), beside ``_key``, which says which rows have it. Built key
    by key for all rows at once: two arrays per key, where the row-by-row build makes a mask per row
    and key (an ended Mr. Card Game's result has some 25 keys)."""
    out: dict[str, Any] = {}
    keys: dict[str, None] = {}
    for _, info in infos:
        keys.update(dict.fromkeys(info))
    for key in keys:
        present = [(i, info[key]) for i, info in infos if key in info]
        first = present[0][1]
        array: Any
        if key == "final_obs":
            array = np.full(n, None, dtype=object)
            for i, value in present:
                array[i] = value
        elif isinstance(first, dict):
            array = batch_infos(n, [(i, value) for i, value in present if isinstance(value, dict)])
        else:
            kind = type(first)
            if kind in (int, float, bool) or issubclass(kind, np.number):
                array = np.zeros(n, dtype=kind)
            elif isinstance(first, np.ndarray):
                array = np.zeros((n, *first.shape), dtype=first.dtype)
            else:
                array = np.full(n, None, dtype=object)
            for i, value in present:
                array[i] = value
        mask = np.zeros(n, dtype=np.bool_)
        mask[[i for i, _ in present]] = True
        out[key] = array
        out[f"_{key}"] = mask
    return out


def vector_env(game_id: str, num_envs: int, **kwargs: Any) -> CardtableVectorEnv:
    """``num_envs`` games of ``game_id`` stepped together (see :class:`CardtableVectorEnv`)."""
    return CardtableVectorEnv(game_id, num_envs, **kwargs)
