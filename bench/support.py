"""What every database bench script needs: Django set up, and a throw-away database.

Import it first in a bench script (it puts the project root and ``bench/`` on ``sys.path``
and sets ``DJANGO_SETTINGS_MODULE``), then run the bench inside ``bench_database()``:

    from support import bench_database, is_postgresql

    def main() -> None:
        if not is_postgresql():
            print("bench_x: skipped, set DATABASE_URL to a PostgreSQL database of your own")
            return
        with bench_database():
            run()

Database: with ``DATABASE_URL`` naming PostgreSQL, a test database ``test_<name>`` is
created (all migrations, the trigger migrations included) and dropped afterwards, so the
database the URL names is never touched; ``keepdb=True`` (default: ``--keepdb`` on the
command line) keeps it for the next run and reuses it. Without ``DATABASE_URL`` (and
``sqlite_ok=True``) a temporary SQLite file is migrated and deleted afterwards.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _path in (str(ROOT), str(ROOT / "bench")):
    if _path not in sys.path:
        sys.path.insert(0, _path)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schockclub.settings")

#: The API throttles' rates of a bench (in-process, and of a measured server): never
#: refused, and counted as in production (a count holds the times of the last window's
#: requests, so a per-second window holds about as many as the production rates' minute,
#: 300 and 1,200; a per-minute one would grow to all of wrk's, and refuse a bench's
#: requests once a machine serves 1,200 a minute).
NEVER_THROTTLED = {"API_THROTTLE_USER": "1000000/s", "API_THROTTLE_ADDRESS": "1000000/s"}

_temporary_sqlite: str | None = None
_operator_scope: AbstractContextManager[None] | None = None


def is_postgresql() -> bool:
    """True when ``DATABASE_URL`` names a PostgreSQL database (the benches of the
    48-season club need one: bulk COPY, row triggers, real concurrency)."""
    return os.environ.get("DATABASE_URL", "").startswith("postgres")


def django_setup(*, sqlite_ok: bool = True) -> None:
    """Set Django up once for a bench process, in the test environment (locmem e-mail,
    ALLOWED_HOSTS for the test client), never throttled (`NEVER_THROTTLED`, unless the
    environment sets the rates) and across clubs (`operator_scope`).

    Without ``DATABASE_URL`` and with ``sqlite_ok`` the settings are pointed at a fresh
    temporary SQLite file first (``bench_database`` migrates it). Raises RuntimeError when
    neither applies. Calling it again is a no-op."""
    global _temporary_sqlite
    from django.apps import apps

    if apps.ready:
        return
    if not os.environ.get("DATABASE_URL"):
        if not sqlite_ok:
            raise RuntimeError("set DATABASE_URL to a PostgreSQL database of your own")
        handle, _temporary_sqlite = tempfile.mkstemp(prefix="schock_bench_", suffix=".sqlite3")
        os.close(handle)
        os.environ["DATABASE_URL"] = f"sqlite:///{_temporary_sqlite}"
    for name, rate in NEVER_THROTTLED.items():
        os.environ.setdefault(name, rate)
    import django

    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()
    operator_scope()


def operator_scope() -> None:
    """Open django-scopes' scope across clubs for the rest of the bench process (its main
    thread), as the operator's commands that make or load whole clubs do
    (league/club/scoping.py): a bench builds and checks its clubs from outside any one
    club. What it measures is unchanged: each request it sends opens its club's scope in
    the middleware (and puts this one back after), and gunicorn's workers and a live
    server's thread have scopes of their own."""
    from league.club.scoping import across_clubs

    global _operator_scope
    if _operator_scope is None:
        _operator_scope = across_clubs()  # kept: a collected one would close its scope
        _operator_scope.__enter__()


@contextmanager
def bench_database(*, keepdb: bool | None = None, sqlite_ok: bool = True) -> Iterator[str]:
    """A migrated database of the bench's own for the ``with`` block; yields its name.

    PostgreSQL: ``test_<name of DATABASE_URL's database>``, created (dropped first if left
    over, or reused with ``keepdb``) and dropped on exit unless ``keepdb``. ``keepdb=None``
    means ``"--keepdb" in sys.argv``. Two blocks one after the other give two fresh
    databases (a restore "as after losing the first"). SQLite: the temporary file of
    ``django_setup``, migrated; deleted on exit. Sets Django up if that has not happened."""
    django_setup(sqlite_ok=sqlite_ok)
    from django.core.management import call_command
    from django.db import connection

    if keepdb is None:
        keepdb = "--keepdb" in sys.argv
    if connection.vendor == "sqlite":
        name = str(connection.settings_dict["NAME"])
        call_command("migrate", verbosity=0)
        try:
            yield name
        finally:
            connection.close()
            if name == _temporary_sqlite and not keepdb:
                for suffix in ("", "-wal", "-shm", "-journal"):
                    Path(name + suffix).unlink(missing_ok=True)
        return
    old_name = connection.settings_dict["NAME"]
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=keepdb)
    try:
        yield name
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=keepdb)


class QueryCounter:
    """Counts the queries run on the default connection while it is entered (also across
    its reconnects): `with QueryCounter() as counted: ...; counted.count`."""

    def __enter__(self) -> QueryCounter:
        from django.db import connection

        self.count = 0
        self._wrapper = connection.execute_wrapper(self)
        self._wrapper.__enter__()
        return self

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)

    def __exit__(self, *exc) -> None:
        self._wrapper.__exit__(*exc)
