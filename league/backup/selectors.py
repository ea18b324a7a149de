"""The backup of one club read out of the database: the file's format and version, the
logins' columns it holds, the tables in restore order, and `club_backup`, which writes the
file's bytes (gzip-compressed JSON; the format is described in league/backup/services.py,
which restores it). Reads only."""

from __future__ import annotations

import datetime
import gzip
import hashlib
import json
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from league.backup.tables import CLUB_TABLES, ClubTable, club_rows
from league.club.models import Club

FORMAT = "schockclub-backup"
VERSION = 2


# The only columns of a login a backup holds and a restore takes: never is_superuser,
# is_staff, groups or permissions (rights over the installation, not the club's).
LOGIN_FIELDS = (
    "username",
    "password",
    "first_name",
    "last_name",
    "email",
    "is_active",
    "last_login",
    "date_joined",
)


# The apps whose tables the file holds: their migrations must match on restore.
SCHEMA_APPS = ("auth", "games", "league")
CHUNK_ROWS = 2000  # rows read or written per query


class _Encoder(DjangoJSONEncoder):
    """DjangoJSONEncoder keeps only milliseconds of a datetime; the history is ordered by
    its microseconds, so they are kept."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def user_fields(model: type[models.Model]) -> list[str]:
    """Names of the model's foreign keys to the login model (author, recorder, login)."""
    user_model = get_user_model()
    return [
        f.name
        for f in model._meta.concrete_fields
        if f.is_relation and f.related_model is user_model
    ]


def backup_tables() -> Iterator[tuple[ClubTable, bool, type[models.Model]]]:
    """(table, is history, model) in restore order: each table's rows, then its history."""
    for table in CLUB_TABLES:
        yield table, False, table.model
        if table.history:
            yield table, True, table.history_model


def applied_migrations() -> dict[str, list[str]]:
    """The migrations applied to this database, app -> sorted names, for `SCHEMA_APPS`."""
    applied = MigrationRecorder(connection).applied_migrations()
    return {app: sorted(name for a, name in applied if a == app) for app in SCHEMA_APPS}


def club_backup(*, club: Club) -> bytes:
    """Everything of `club` as one backup file's bytes (gzip-compressed JSON, format
    `FORMAT` version `VERSION`, see the module docstring): its rows of every table of
    `league.backup.tables.CLUB_TABLES` with their history records, the logins of its people
    and of every author in them (their `LOGIN_FIELDS` only: no rights over the
    installation), the header's row counts and the digest. Reads only; one query per table
    and chunk of 2,000 rows."""
    tables: dict[str, list[dict[str, Any]]] = {}
    user_ids: set[int] = set()
    for table, history, model in backup_tables():
        rows = model._default_manager.filter(club_rows(table, club.pk, history=history))
        data = serializers.serialize("python", rows.order_by("pk").iterator(chunk_size=CHUNK_ROWS))
        for name in user_fields(model):
            user_ids.update(row["fields"][name] for row in data if row["fields"][name])
        tables[model._meta.label] = data
    users = get_user_model().objects.filter(pk__in=user_ids).order_by("pk")
    document = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": timezone.now(),
        "club": {"id": club.pk, "name": club.name},
        "migrations": applied_migrations(),
        "counts": {label: len(rows) for label, rows in tables.items()},
        "users": serializers.serialize("python", users, fields=LOGIN_FIELDS),
        "tables": tables,
    }
    text = canonical_json(document)
    # The file is the canonical text with the digest of that text as one more key (the
    # text is not written twice: the last "}" closes the object after the digest).
    text = f'{text[:-1]},"digest":"{digest_of(text)}"}}'
    return gzip.compress(text.encode("utf-8"), compresslevel=6)


def canonical_json(document: dict[str, Any]) -> str:
    """The JSON text the digest is taken of: the keys in the order of the file, no spaces,
    not ASCII-escaped. The same text whether `document` holds the backup's Python values
    (dates, Decimals: written as `_Encoder` writes them) or the strings and numbers a
    file's JSON was read back into (json keeps the order of an object's keys). Keys are not
    sorted: a JSON column's value (a season's statutes) is restored in its own order."""
    return json.dumps(document, cls=_Encoder, ensure_ascii=False, separators=(",", ":"))


def digest_of(text: str) -> str:
    """The file's digest of `text` (its `canonical_json`): "sha256:<hex>"."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
