"""A throw-away PostgreSQL server for the tests: initdb in a temp dir, pg_ctl start on a free port.

Runs the server binaries from Debian's ``postgresql`` package (``.ci/run`` installs it). As root the
binaries run as the ``postgres`` user (initdb refuses root). :func:`missing` says why it cannot start.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from tests.web.server import free_port


def _bindir() -> str | None:
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(candidate, "initdb")):
            return candidate
    found = shutil.which("initdb")
    return os.path.dirname(found) if found else None


def _as_user() -> list[str]:
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", "postgres", "--"]


def missing() -> str | None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install '.[test]')"
    if _bindir() is None:
        return "no PostgreSQL server binaries: install Debian's postgresql (apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return (
                "running as root and there is no 'postgres' user to run the server as: install Debian's "
                "postgresql (apt-get install postgresql), which creates it"
            )
    return None


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start a server; yield its URL (database ``cardtable``); stop and remove it afterwards."""
    bindir = _bindir()
    assert bindir is not None
    base = tempfile.mkdtemp(prefix="cardtable-pg-")
    data = os.path.join(base, "data")
    if os.geteuid() == 0:
        import pwd

        pw = pwd.getpwnam("postgres")
        os.chown(base, pw.pw_uid, pw.pw_gid)
    port = free_port()
    user = _as_user()

    def run(*args: str) -> None:
        subprocess.run([*user, *args], check=True, capture_output=True, timeout=120)

    try:
        run(os.path.join(bindir, "initdb"), "-D", data, "-U", "cardtable", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100"
        run(os.path.join(bindir, "pg_ctl"), "-D", data, "-o", options, "-l", os.path.join(base, "log"), "-w", "start")
        run(os.path.join(bindir, "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "cardtable", "cardtable")
        yield f"postgresql://cardtable@127.0.0.1:{port}/cardtable"
    finally:
        subprocess.run(
            [*user, os.path.join(bindir, "pg_ctl"), "-D", data, "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(base, ignore_errors=True)
