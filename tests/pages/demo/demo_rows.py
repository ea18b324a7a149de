"""The demo (`manage.py demo`, league/management/commands/demo.py) entered once per process
and written again by PostgreSQL's COPY wherever a test package needs it again.

The demo's two clubs are about 35 evenings, 900 games entered through the services: half
a minute of a process's time, and tests/pages/demo, tests/fuzz and the backup's round
trip each need them (in one xdist group, so on one worker). The first `demo_entered` of a
process runs the command as always and keeps every row it added (COPY ... TO, per table);
every later call with the same arguments writes those rows again (COPY ... FROM, triggers
and foreign keys off for the copy only: the rows passed them when the services wrote
them), one statement per table. The rows keep their ids: the first build moved the
sequences past them for good (a rollback does not move a sequence back), and each xdist
worker has its own database. The same approach as tests/sample.py's
enter_sample_evening_copied, for the demo.
"""

from __future__ import annotations

import datetime
import functools
import io

from django.core.management import call_command
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone

from league.club import statutes

# The demo's day in the tests: its last season (2025) closed, the current one (2026) with
# its first evenings.
DEMO_TODAY = datetime.date(2026, 3, 20)
# The hasher every test logs in with (tests/conftest.py): the demo's logins are made with
# it, so a test may log in with "schocken" as with a demo built in it.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The rows a demo added, per table as COPY text, and what the command printed, per what
# the demo reads besides its arguments: the statutes a new season starts with and the
# day of the clock (the rows carry its time).
_kept: dict[tuple[str, ...], tuple[dict[str, bytes], str]] = {}


def demo_entered(today: datetime.date) -> str:
    """Enter the demo for `today` (`manage.py demo --today`) into the database, inside the
    caller's transaction; returns what the command printed.

    The first call of a process (for the same `today`, statutes and day) runs the command;
    a later one copies its rows (see the module). Without the copy (not PostgreSQL, or not
    as a superuser, who alone may switch triggers off), or when the database holds rows of
    another demo already, every call runs the command."""
    key = (today.isoformat(), repr(statutes.CLUB_STATUTES), timezone.now().date().isoformat())
    if not _copy_possible() or _holds_a_demo():
        return _run_command(today)
    if key not in _kept:
        before = _rows()
        out = _run_command(today)
        after = _rows()
        added = {table: lines - before.get(table, set()) for table, lines in after.items()}
        _kept[key] = ({t: b"".join(sorted(rows)) for t, rows in added.items() if rows}, out)
        return out
    rows, out = _kept[key]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        for table, data in rows.items():
            with cursor.copy(f'COPY "{table}" FROM STDIN') as copy:
                copy.write(data)
        cursor.execute("SET LOCAL session_replication_role = origin")
    return out


def _run_command(today: datetime.date) -> str:
    out = io.StringIO()
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        call_command("demo", today=today, stdout=out)
    return out.getvalue()


def _holds_a_demo() -> bool:
    """Whether a demo club is in the database already (the command would only add its
    missing parts: its rows are not the ones kept)."""
    from league.club.models import Club
    from league.management.commands.demo import CLUB, SECOND_CLUB

    return Club.objects.filter(name__in=[CLUB, SECOND_CLUB]).exists()


def _rows() -> dict[str, set[bytes]]:
    """Every row of every table, as COPY text lines, by table."""
    found = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            with cursor.copy(f'COPY "{table}" TO STDOUT') as copy:
                found[table] = set(b"".join(copy).splitlines(keepends=True))
    return found


def _copy_possible() -> bool:
    """PostgreSQL, as a superuser (who alone may switch the triggers off for a copy)."""
    return connection.vendor == "postgresql" and _is_superuser(connection.settings_dict["NAME"])


@functools.cache
def _is_superuser(_database: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        return bool(cursor.fetchone()[0])
