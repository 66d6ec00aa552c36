"""A real ``cardtable serve`` in a subprocess (uvicorn), for the kill -9 and browser tests."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


MANY_TABLES = ["--max-tables-per-client", "1000"]
"""For a module's shared server whose tests make a table each (every configuration of every game):
the per-client quota (10 by default, tested in test_admission.py) is not what they test, and how many
of them one pytest-xdist worker runs depends on how the tests are split between workers."""


class Server:
    """``cardtable serve`` on 127.0.0.1:``port`` with the database ``db``; start, kill -9, start again."""

    def __init__(
        self,
        db: str,
        port: int | None = None,
        bot_delay: float = 0.0,
        extra: list[str] | None = None,
        pythonpath: list[Path] | None = None,
        nofile: int | None = None,
    ) -> None:
        self.db = db
        self.nofile = nofile
        """The server's limit on open files (``RLIMIT_NOFILE``, soft and hard), when given."""
        self.pythonpath = list(pythonpath or [])
        """Folders put first on the server's (and so its bot workers') ``PYTHONPATH`` (tests/web/slowbot)."""
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.extra = list(extra or [])
        """More ``cardtable serve`` arguments (limits, --bot-workers ...)."""
        self.proc: subprocess.Popen[bytes] | None = None
        self.dealt: dict[str, dict[int, str]] = {}
        """The tokens of the tables written by :meth:`deal`, by table and seat."""
        self.base = f"http://127.0.0.1:{self.port}"
        self._log = tempfile.NamedTemporaryFile(prefix="cardtable-serve-", suffix=".log", delete=False)  # noqa: SIM115
        """The server's standard error (a file: a pipe nobody reads would fill and stall the server)."""

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def log(self) -> str:
        """What the server wrote on its standard error so far (every start)."""
        return Path(self._log.name).read_text(errors="replace")

    def start(self, timeout: float = 30.0) -> Server:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [*(str(p) for p in self.pythonpath), str(ROOT / "src"), env.get("PYTHONPATH", "")]
        )
        args = [sys.executable, "-m", "cardtable.cli.main", "serve", "--port", str(self.port), "--no-browser"]
        args += ["--db", self.db, "--bot-delay", str(self.bot_delay)]
        if "--bot-workers" not in self.extra and "--bot-cpu" not in self.extra:
            args += ["--bot-workers", "1"]
        args += self.extra
        self.proc = subprocess.Popen(
            args, env=env, stdout=subprocess.DEVNULL, stderr=self._log, preexec_fn=self._limit_files
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/api/tables", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError("the server did not start in time")

    def deal(self, table: str, game: Any, seed: int, seats: Sequence[str] | None = None) -> Server:
        """Write a table of ``game`` dealt from ``seed`` into the database while the server is down
        (:func:`write_dealt_table`), so that it starts (or restarts) with it and drives its bots from the
        start; the tokens of its people's seats are kept in :attr:`dealt`."""
        assert self.proc is None or self.proc.poll() is not None, (
            "a running server would drive its bots only once someone opens the table"
        )
        self.dealt[table] = write_dealt_table(self.db, table, game, seed, f"token-of-{table}", seats)
        return self

    def _limit_files(self) -> None:
        if self.nofile is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    # -- HTTP ----------------------------------------------------------------------------------------
    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return json.load(r)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        req = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    def post_from(self, source: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        """POST JSON from the local address ``source`` (another loopback address is another client);
        the status and the answer's JSON, errors included."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(source, 0))
        try:
            conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            conn.close()

    def socket_from(self, source: str) -> socket.socket:
        """A TCP connection to the server from the local address ``source``."""
        return socket.create_connection(("127.0.0.1", self.port), timeout=10, source_address=(source, 0))

    def create(self, game: str, seats: list[str], **options: Any) -> tuple[str, dict[int, str]]:
        out = self.post("/api/tables", {"game": game, "options": options, "seats": seats})
        return out["table"]["id"], {int(k): v for k, v in out["tokens"].items()}

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/"


def write_dealt_table(
    db: str, table: str, game: Any, seed: int, token: str, seats: Sequence[str] | None = None
) -> dict[int, str]:
    """Write a table of ``game`` (a loaded :class:`cardtable.Game`) dealt from ``seed`` into the
    database ``db``; returns the tokens of its people's seats. ``seats`` names each seat as the
    lobby's form does: ``"me"`` a person holding a token (``token`` at seat 0, ``f"{token}-{seat}"``
    at another seat), ``"human"`` an open seat for a person to join, anything else a bot's spec; by
    default seat 0 is ``"me"`` and every other seat a ``random`` bot. Write it before the server
    starts, as a restart finds it (the server then drives its bots from the start): a fixed deal the
    HTTP API cannot make, since it never lets a client choose the seed. ``table`` is letters and
    digits, as the server's table ids are."""
    from cardtable.games import load_arguments
    from cardtable.web.live import token_hash
    from cardtable.web.storage import Storage

    specs = list(seats) if seats is not None else ["me"] + ["random"] * (game.players - 1)
    assert len(specs) == game.players, f"{len(specs)} seats for {game.players} players"
    tokens = {i: token if i == 0 else f"{token}-{i}" for i, spec in enumerate(specs) if spec == "me"}
    stored = [
        ("human", token_hash(tokens[i])) if spec == "me" else ("human", None) if spec == "human" else (spec, None)
        for i, spec in enumerate(specs)
    ]
    storage = Storage(db)
    try:
        storage.create_table(table, game.id, load_arguments(game), seed, stored)
    finally:
        storage.close()
    return tokens


def recv_state(ws: Any, timeout: float = 15.0) -> dict[str, Any]:
    """The next ``state`` frame on a ``websockets`` client connection (other messages skipped)."""
    while True:
        msg = json.loads(ws.recv(timeout=timeout))
        if msg["type"] == "state":
            return dict(msg)


def catch_up(socks: dict[int, Any], frames: dict[int, dict[str, Any]], version: int) -> None:
    """Read each connection until its latest frame is at state ``version``."""
    for s, ws in socks.items():
        while frames[s]["state"] < version:
            frames[s] = recv_state(ws)


def act(ws: Any, state: int, action: str) -> dict[str, Any] | None:
    """Send an action; the acknowledgement (the frame of the next state), or None if refused."""
    ws.send(json.dumps({"type": "action", "state": state, "action": action}))
    while True:
        msg = json.loads(ws.recv(timeout=15))
        if msg["type"] == "error":
            return None
        if msg["type"] == "state" and msg["state"] > state:
            return dict(msg)
