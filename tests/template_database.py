"""The test databases on PostgreSQL cloned from a migrated template, kept per digest of what
builds the schema.

Migrating an empty database through every migration costs about 17 s of CPU, and a run
did it once per pytest-xdist worker and once for each smoke run of `.ci/other-pythons`.
PostgreSQL copies a database in well under a second (`CREATE DATABASE ... TEMPLATE`,
which Django issues when the database's TEST setting names a TEMPLATE). So the first run
migrates a template database, named by the digest of every input of the schema: the
project's migrations and models modules, the settings (installed apps) and the lock (the
versions, and so the migrations, of Django and the other apps). Every later run with the
same digest clones it; Django's own test set-up still runs `migrate` on the clone, which
finds nothing to do, and `post_migrate` as always. A change of any migration gives a new
digest and a new template, as a change of the lock gives `.ci/run` a new virtualenv; the
templates of other digests are dropped when a new one is made (one in use by another run
stays).

The template is made once per server: the first process takes an advisory lock, migrates a
database of a temporary name in a subprocess (`manage.py migrate`, the settings as the
tests have them but for the database's name) and renames it; the others wait for the lock
and find it. No one connects to a template afterwards (`ALLOW_CONNECTIONS false`), since
PostgreSQL refuses to copy a database someone is connected to. SQLite keeps Django's way
(its test database is in memory).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
#: The PostgreSQL engines: Django's and the app's (schockclub/postgresql).
POSTGRESQL = ("django.db.backends.postgresql", "schockclub.postgresql")
LOCK_ID = 0x5C0C_7E57  # pg_advisory_lock's key for making a template


def schema_inputs(root: Path = ROOT) -> list[Path]:
    """The files that build the test schema under `root`: every migration of the
    project's apps, the models modules (a migration may name a field class of one, e.g.
    league.club.models.ClubOneToOneField), the settings module and the lock."""
    apps = ("games", "league", "schockclub")
    return [
        *sorted(root.glob("*/migrations/*.py")),
        *sorted(p for app in apps for p in (root / app).rglob("models.py")),
        root / "schockclub" / "settings.py",
        root / "requirements" / "development.txt",
    ]


def schema_digest(root: Path = ROOT) -> str:
    """The sha256 (hex, first 12 digits) of `schema_inputs(root)`, by path and content."""
    digest = hashlib.sha256()
    for path in schema_inputs(root):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def template_name(database_name: str, digest: str) -> str:
    """The template's name for a database `database_name` (the settings' NAME, before any
    test prefix): "schockclub" -> "test_schockclub_template_<digest>" (63 bytes at most,
    PostgreSQL's limit for a name)."""
    return f"test_{database_name}"[: 63 - len(digest) - 10] + f"_template_{digest}"


def _connect(db: dict[str, Any]) -> Any:
    import psycopg

    return psycopg.connect(
        dbname="postgres",
        host=db.get("HOST") or None,
        port=db.get("PORT") or None,
        user=db.get("USER") or None,
        password=db.get("PASSWORD") or None,
        autocommit=True,
    )


def _database_url(url: str, name: str) -> str:
    """`url` (a DATABASE_URL) naming the database `name` instead."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _exists(cursor: Any, name: str) -> bool:
    cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
    return cursor.fetchone() is not None


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def ensure_template(db: dict[str, Any], url: str) -> str:
    """The name of the migrated template of this checkout's schema on `db`'s server (the
    settings of a PostgreSQL database), made now if the server has none. `url` is the
    DATABASE_URL the settings were read from. Raises subprocess.CalledProcessError (with
    migrate's output) when the migrations fail."""
    name = template_name(db["NAME"], schema_digest())
    with _connect(db) as conn, conn.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [LOCK_ID])
        try:
            if not _exists(cursor, name):
                _make(cursor, name, url)
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK_ID])
    return name


def _make(cursor: Any, name: str, url: str) -> None:
    building = f"{name[:50]}_building"
    cursor.execute(f"DROP DATABASE IF EXISTS {_quote(building)}")
    cursor.execute(f"CREATE DATABASE {_quote(building)}")
    env = {**os.environ, "DATABASE_URL": _database_url(url, building)}
    env.pop("DATABASE_REPLICA_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--run-syncdb", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    cursor.execute(f"ALTER DATABASE {_quote(building)} RENAME TO {_quote(name)}")
    cursor.execute(f"ALTER DATABASE {_quote(name)} ALLOW_CONNECTIONS false")
    prefix = name.rsplit("_template_", 1)[0] + "_template_"
    cursor.execute(
        "SELECT datname FROM pg_database WHERE starts_with(datname, %s) AND datname <> %s",
        [prefix, name],
    )
    for (old,) in cursor.fetchall():
        try:
            cursor.execute(f"DROP DATABASE {_quote(old)}")
        except Exception:  # a template another run is copying stays
            pass


def use_templates(databases: dict[str, dict[str, Any]]) -> None:
    """Points the TEST settings of every PostgreSQL database of `databases` (the settings'
    DATABASES, which Django's test set-up reads) that is not a test mirror at the template
    of this checkout's schema, made first if needed. Needs DATABASE_URL, which is how the
    settings name a PostgreSQL database; without it nothing changes."""
    url = os.environ.get("DATABASE_URL", "")
    for db in databases.values():
        test = db.setdefault("TEST", {})
        if db.get("ENGINE") not in POSTGRESQL or test.get("MIRROR") or not url:
            continue
        test["TEMPLATE"] = ensure_template(db, url)
