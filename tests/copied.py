"""Fixtures built through the services once per process, then written again by COPY.

A fixture that enters books through the services (an evening, its games, the ledger they
move) costs hundreds of queries and tenths of a second, and hundreds of tests start from
the same one. `copied(name, build)` calls `build()` the first time in a process in a
savepoint, keeps every row it added (PostgreSQL's `COPY ... TO`, per table) and what it
returned (pickled), and rolls back; that call and every later one write those rows again
(`COPY ... FROM`, one statement per table, triggers and deferred foreign keys off for the
copy only: the rows passed them when the services wrote them) and return an unpickled copy
of the result: the same rows, ids and objects as `build()` gave.

It is `build()` itself, each time:
- where COPY cannot be used: SQLite, or a database role that may not switch triggers off;
- when the database held other rows before than it did at the first call (the added rows
  were written against those: a fixture asked after another one wrote differently);
- when `build()` changed or deleted a row that was there before (a copy only adds rows), or
  returned what cannot be pickled.

What else the rows depend on is part of the key: the clock (to the minute: rows carry the
time they were written; tests travel), the statutes a new season starts with (tests patch
them), the password hashers (the logins' hashes) and the caller's `inputs`. Each xdist
worker has its own database, whose sequences the first build moved past the copied ids
for good (a rolled-back savepoint keeps what it drew from a sequence). `build()` must not
leave state outside the database that a test reads (files); what the first build kept in
the cache names the rows the copy writes again (same ids, same content, same data
versions), so it stays. `transaction.on_commit` callbacks of the build do not run (as in
every test that runs in a transaction).
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class _Copy:
    before: str  # the database's fingerprint before the first build
    rows: dict[str, tuple[str, bytes]]  # table -> (its columns, the added rows as COPY text)
    result: bytes  # the pickled result of build()


# key -> the copy, or None where the build cannot be copied
_copies: dict[tuple[Hashable, ...], _Copy | None] = {}


def copied(name: str, build: Callable[[], T], *inputs: Hashable) -> T:
    """`build()`'s rows and result, written by COPY after the first call of the process.

    `name` names the build (one entry per fixture); `inputs` are what else its rows depend
    on (hashable). Returns what `build()` returned, or an equal copy of it (unpickled), its
    model instances pointing at the copied rows. Raises what `build()` raises.
    """
    from django.db import connection, transaction

    if not _copy_possible(connection):
        return build()
    key = (name, *inputs, *_implicit_inputs())
    before = database_fingerprint()
    assert before is not None
    if key not in _copies:
        _copies[key] = _first_build(build, before)
    copy = _copies[key]
    if copy is None or copy.before != before:
        return build()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        for table, (columns, data) in copy.rows.items():
            with cursor.copy(f'COPY "{table}" ({columns}) FROM STDIN') as pipe:
                pipe.write(data)
        cursor.execute("SET LOCAL session_replication_role = origin")
    result: T = pickle.loads(copy.result)  # our own pickle of this process
    return result


def _implicit_inputs() -> tuple[Hashable, ...]:
    from django.conf import settings
    from django.utils import timezone

    from league.club import statutes

    now = timezone.now().replace(second=0, microsecond=0)
    return (now.isoformat(), repr(statutes.CLUB_STATUTES), tuple(settings.PASSWORD_HASHERS))


def _first_build(build: Callable[[], Any], before: str) -> _Copy | None:
    """Build in a savepoint: the rows it added and its pickled result, or None."""
    from django.db import connection, transaction

    from league.club.caching import _superseded

    columns = _columns()
    start = _rows(columns)
    pending = set(_superseded.pending)
    with transaction.atomic():
        result = build()
        # Its deferred foreign keys are checked now, as a commit would check them: the
        # copies are written with them off, and the savepoint's rollback forgets the
        # checks it queued, so a row the build wrote wrong would pass every test.
        connection.check_constraints()
        end = _rows(columns)
        try:
            pickled = pickle.dumps(result)
        except Exception:  # what cannot be pickled is built each time
            pickled = None
        transaction.set_rollback(True)
    # The kept reads the rolled-back build's writes would drop at the next commit
    # (league.club.caching `kept_reads_superseded`) wait for this thread's next commit; a
    # build that is not kept drops nothing, so they are forgotten with it.
    _superseded.pending = pending
    changed = any(start[table] - end.get(table, set()) for table in start)
    if pickled is None or changed:
        return None
    added = {table: lines - start.get(table, set()) for table, lines in end.items()}
    rows = {
        table: (columns[table], b"".join(sorted(lines))) for table, lines in added.items() if lines
    }
    return _Copy(before=before, rows=rows, result=pickled)


def _columns() -> dict[str, str]:
    """Every table of the schema and its columns, quoted and in order, for COPY: the copy
    names them, so a table rebuilt since (a migration test) cannot take a value into
    another column."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum)"
            " FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()"
            " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
            " WHERE c.relkind = 'r' GROUP BY c.relname"
        )
        return dict(cursor.fetchall())


def _rows(columns: dict[str, str]) -> dict[str, set[bytes]]:
    """Every table's rows as COPY text lines."""
    from django.db import connection

    found = {}
    with connection.cursor() as cursor:
        for table, names in columns.items():
            with cursor.copy(f'COPY "{table}" ({names}) TO STDOUT') as pipe:
                found[table] = set(b"".join(pipe).splitlines(keepends=True))
    return found


def database_fingerprint() -> str | None:
    """A digest of every table's content (one statement: md5 of each table's rows), for
    what depends on the database alone: equal fingerprints, equal rows. None but on
    PostgreSQL."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        parts = [
            f"SELECT {i}, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) "
            f'FROM "{table}" t'
            for i, table in enumerate(tables)
        ]
        cursor.execute(" UNION ALL ".join(parts) + " ORDER BY 1")
        return "".join(digest for _i, digest in cursor.fetchall())


def copy_possible() -> bool:
    """Whether `copied` can copy here (PostgreSQL, as a superuser)."""
    from django.db import connection

    return _copy_possible(connection)


def _copy_possible(connection: Any) -> bool:
    return connection.vendor == "postgresql" and _is_superuser()


@functools.cache
def _is_superuser() -> bool:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        return bool(cursor.fetchone()[0])
