"""Backup and restore of one club (issue 13 item 6): one versioned, gzipped JSON file.

The file (format "schockclub-backup", version 1) is gzip-compressed UTF-8 JSON::

    {"format": "schockclub-backup", "version": 1,
     "created_at": "2026-11-23T14:00:00.123456+00:00",
     "club": {"id": 3, "name": "Schockclub Demo"},
     "migrations": {"auth": [...], "games": [...], "league": [...]},
     "counts": {"games.Game": 1234, ...},
     "users": [<Django "python" serializer rows, natural keys for groups and permissions>],
     "groups": [<rows, natural keys>],
     "tables": {"league.Club": [<rows>], ..., "games.HistoricalGame": [<rows>], ...}}

Rows are Django's own serialization (django.core.serializers, "python" format: model, pk,
fields), datetimes with their microseconds. What is in it: `league.backup.tables`.

Decisions (the issue left them open):

- Primary keys of the club's rows (and of their history records) are kept. The ledger
  names the records it charged by number (``evening_id_ref``, ``source_key`` "game:12"),
  and so does the history of deleted rows; renumbering would have to rewrite those texts.
  So a restore needs a database in which the club's numbers are free: an empty database
  (after ``migrate``), or the database the club was deleted from, or one whose other clubs
  do not use them. A number already taken is refused, naming it.
- Logins are matched by username, never by number: a person's login must not exist
  (refused: "Benutzer 'anna' existiert schon"); a login that appears only as an author (an
  admin who corrected a game) is taken as it is when it exists, else created with the
  backup's password hash. Groups are matched by name the same way. References to a login
  that no longer existed when the backup was written are restored empty.
- The backup and the database must be at the same migrations (of auth, league and games):
  restore an older backup with the Schockclub version that wrote it, then migrate.
- The restore writes the rows as they were, all in one transaction: no model `save()`, no
  signals (so django-simple-history writes no new records, the history is restored as it
  was), no `books_changed` (the ledger receiver would book the charges a second time; the
  seasons keep the data versions of the backup).
"""

from __future__ import annotations

import datetime
import gzip
import json
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import serializers
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone
from django.utils.translation import gettext as _

from league.backup.tables import CLUB_TABLES, ClubTable, club_rows
from league.club.caching import books_cache_forget
from league.club.errors import BooksError
from league.club.models import Club

__all__ = [
    "FORMAT",
    "VERSION",
    "RestoreResult",
    "club_backup",
    "club_restore",
]

FORMAT = "schockclub-backup"
VERSION = 1
# The apps whose tables the file holds: their migrations must match on restore.
SCHEMA_APPS = ("auth", "games", "league")
_CHUNK = 2000  # rows read or written per query
_MAX_NAMED = 5  # conflicts named in one refusal


class _Encoder(DjangoJSONEncoder):
    """DjangoJSONEncoder keeps only milliseconds of a datetime; the history is ordered by
    its microseconds, so they are kept."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def _user_fields(model: type[models.Model]) -> list[str]:
    """Names of the model's foreign keys to the login model (author, recorder, login)."""
    user_model = get_user_model()
    return [
        f.name
        for f in model._meta.concrete_fields
        if f.is_relation and f.related_model is user_model
    ]


def _tables() -> Iterator[tuple[ClubTable, bool, type[models.Model]]]:
    """(table, is history, model) in restore order: each table's rows, then its history."""
    for table in CLUB_TABLES:
        yield table, False, table.model
        if table.history:
            yield table, True, table.history_model


def _applied_migrations() -> dict[str, list[str]]:
    applied = MigrationRecorder(connection).applied_migrations()
    return {app: sorted(name for a, name in applied if a == app) for app in SCHEMA_APPS}


# --- backup --------------------------------------------------------------------------------


def club_backup(*, club: Club) -> bytes:
    """Everything of `club` as one backup file's bytes (gzip-compressed JSON, format
    `FORMAT` version `VERSION`, see the module docstring): its rows of every table of
    `league.backup.tables.CLUB_TABLES` with their history records, the logins of its people
    and of every author in them, and those logins' groups. Reads only; one query per table
    and chunk of 2,000 rows."""
    tables: dict[str, list[dict[str, Any]]] = {}
    user_ids: set[int] = set()
    for table, history, model in _tables():
        rows = model._default_manager.filter(club_rows(table, club.pk, history=history))
        data = serializers.serialize("python", rows.order_by("pk").iterator(chunk_size=_CHUNK))
        for name in _user_fields(model):
            user_ids.update(row["fields"][name] for row in data if row["fields"][name])
        tables[model._meta.label] = data
    users = get_user_model().objects.filter(pk__in=user_ids).order_by("pk")
    groups = Group.objects.filter(user__in=users).distinct().order_by("name")
    document = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": timezone.now(),
        "club": {"id": club.pk, "name": club.name},
        "migrations": _applied_migrations(),
        "counts": {label: len(rows) for label, rows in tables.items()},
        "users": serializers.serialize("python", users, use_natural_foreign_keys=True),
        "groups": serializers.serialize(
            "python", groups, use_natural_foreign_keys=True, use_natural_primary_keys=True
        ),
        "tables": tables,
    }
    text = json.dumps(document, cls=_Encoder, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=6)


# --- restore -------------------------------------------------------------------------------


@dataclass
class RestoreResult:
    """What a restore wrote: the club, rows per model label, logins created and logins
    that existed and were taken as they are (authors only)."""

    club: Club
    counts: dict[str, int] = field(default_factory=dict)
    users_created: list[str] = field(default_factory=list)
    users_existing: list[str] = field(default_factory=list)


def _damaged(reason: str) -> BooksError:
    return BooksError(
        "backup_damaged",
        _("The file is damaged or not a backup of a club: %(reason)s") % {"reason": reason},
    )


def _read(data: bytes) -> dict[str, Any]:
    """The document of a backup file, its format and version checked.

    Raises BooksError: backup_damaged (not gzip, not JSON, cut off, wrong shape),
    backup_format (another format), backup_version (another version)."""
    try:
        text = gzip.decompress(data)
        document = json.loads(text.decode("utf-8"))
    except (OSError, EOFError, zlib.error) as exc:
        raise _damaged(_("not a readable gzip file")) from exc
    except (UnicodeDecodeError, ValueError) as exc:
        raise _damaged(_("not JSON")) from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BooksError("backup_format", _("This file is not a Schockclub backup."))
    if document.get("version") != VERSION:
        raise BooksError(
            "backup_version",
            _("Backup version %(version)s cannot be read here (this version reads %(ours)s).")
            % {"version": document.get("version"), "ours": VERSION},
        )
    expected = {model._meta.label for _t, _h, model in _tables()}
    tables = document.get("tables")
    if (
        not isinstance(tables, dict)
        or set(tables) != expected
        or not all(isinstance(rows, list) for rows in tables.values())
        or not isinstance(document.get("users"), list)
        or not isinstance(document.get("groups"), list)
        or not isinstance(document.get("migrations"), dict)
    ):
        raise _damaged(_("its tables are not those of a club backup"))
    for label, rows in tables.items():
        name = label.lower()
        for row in rows:
            if not (
                isinstance(row, dict)
                and row.get("model") == name
                and isinstance(row.get("pk"), int)
                and isinstance(row.get("fields"), dict)
            ):
                raise _damaged(_("a row of %(table)s is unreadable") % {"table": label})
    for key, model_name in (("users", "auth.user"), ("groups", "auth.group")):
        for row in document[key]:
            if not (
                isinstance(row, dict)
                and row.get("model") == model_name
                and isinstance(row.get("fields"), dict)
                and (key == "groups" or isinstance(row.get("pk"), int))
            ):
                raise _damaged(_("a row of %(table)s is unreadable") % {"table": model_name})
    if len(tables["league.Club"]) != 1:
        raise _damaged(_("it does not hold exactly one club"))
    return document


def _check_schema(document: dict[str, Any]) -> None:
    ours = _applied_migrations()
    theirs = document["migrations"]
    for app in SCHEMA_APPS:
        if sorted(theirs.get(app) or []) != ours[app]:
            raise BooksError(
                "backup_schema",
                _(
                    "The backup was written at other migrations of %(app)s (its last: "
                    "%(theirs)s, here: %(ours)s): restore it with the Schockclub version "
                    "that wrote it, then migrate."
                )
                % {
                    "app": app,
                    "theirs": (sorted(theirs.get(app) or []) or ["-"])[-1],
                    "ours": (ours[app] or ["-"])[-1],
                },
            )


def _check_belongs(document: dict[str, Any]) -> None:
    """Every row belongs to the backup's club (a hostile file must not write into another
    club): a live row's every reference to a table of the books names a row of the file,
    its ``club`` the backup's club; a history record names the club or a parent that the
    file holds (live or as a record: the objects of deleted records are gone)."""
    tables = document["tables"]
    ids: dict[str, set[Any]] = {}
    for table, history, model in _tables():
        rows = tables[model._meta.label]
        ids.setdefault(table.label, set()).update(_row_id(row, history) for row in rows)
    live = {label: {row["pk"] for row in tables[label]} for label in (t.label for t in CLUB_TABLES)}
    for table, history, model in _tables():
        label = model._meta.label
        if history:
            if table.label == "league.Club":
                checks = [("id", live["league.Club"])]
            elif table.parent is None:
                checks = [("club", live["league.Club"])]
            else:
                checks = [(table.parent[0], ids[table.parent[1]])]
        else:
            related = {f.name: _related_label(f) for f in model._meta.concrete_fields}
            checks = [(name, live[to]) for name, to in related.items() if to in live]
        for row in tables[label]:
            for name, known in checks:
                value = row["fields"].get(name)
                if value is None and name != "club" and name != "id":
                    continue
                if value not in known:
                    raise _damaged(
                        _("row %(pk)s of %(table)s does not belong to its club")
                        % {"pk": row["pk"], "table": label}
                    )


def _related_label(field: Any) -> str:
    """The label of the model a foreign key points to ("" for other fields)."""
    return field.related_model._meta.label if field.is_relation and field.related_model else ""


def _row_id(row: dict[str, Any], history: bool) -> Any:
    """The id of the object a row stands for (a history record's ``id`` field)."""
    return row["fields"].get("id") if history else row["pk"]


def _check_conflicts(document: dict[str, Any]) -> None:
    """Refuse when the club, a person's login or a number of a row is there already."""
    club_name = document["tables"]["league.Club"][0]["fields"].get("name")
    if Club.objects.filter(name=club_name).exists():
        raise BooksError(
            "backup_club_exists",
            _("Club '%(name)s' already exists.") % {"name": club_name},
            status=409,
        )
    usernames = _login_usernames(document)
    taken = sorted(
        get_user_model().objects.filter(username__in=usernames).values_list("username", flat=True)
    )
    if taken:
        raise BooksError(
            "backup_login_exists",
            _("Login '%(name)s' already exists.") % {"name": "', '".join(taken[:_MAX_NAMED])},
            status=409,
        )
    for _table, _history, model in _tables():
        pks = {row["pk"] for row in document["tables"][model._meta.label]}
        if pks:
            # One query per table: the numbers in use between the backup's lowest and
            # highest (none in an empty database), then which of them the backup needs.
            in_range = model._default_manager.filter(pk__range=(min(pks), max(pks)))
            used = sorted(pks.intersection(in_range.values_list("pk", flat=True)))[:_MAX_NAMED]
            if used:
                raise BooksError(
                    "backup_row_exists",
                    _(
                        "%(table)s number %(pks)s exists already: the backup keeps its "
                        "numbers and needs a database without them."
                    )
                    % {"table": model._meta.label, "pks": ", ".join(map(str, used))},
                    status=409,
                )


def _login_usernames(document: dict[str, Any]) -> set[str]:
    """Usernames of the logins of the club's people (not of other authors)."""
    login_ids = {row["fields"].get("user") for row in document["tables"]["league.Member"]}
    return {
        str(row["fields"].get("username"))
        for row in document["users"]
        if isinstance(row, dict) and row.get("pk") in login_ids
    }


def _deserialize(rows: Iterable[dict[str, Any]], label: str) -> list[Any]:
    """Django's deserialization of `rows`; a row it cannot read is a damaged file."""
    try:
        return list(serializers.deserialize("python", rows, ignorenonexistent=False))
    except (DeserializationError, ValidationError, ObjectDoesNotExist) as exc:
        raise _damaged(_("a row of %(table)s is unreadable") % {"table": label}) from exc


def _restore_logins(document: dict[str, Any], result: RestoreResult) -> dict[int, int]:
    """Create the groups and logins the database lacks (matched by name); returns the
    backup's login numbers -> this database's."""
    for obj in _deserialize((g for g in document["groups"] if isinstance(g, dict)), "auth.Group"):
        if not Group.objects.filter(name=obj.object.name).exists():
            obj.save()
    users = get_user_model()
    numbers: dict[int, int] = {}
    for row in document["users"]:
        if not isinstance(row, dict) or not isinstance(row.get("pk"), int):
            raise _damaged(_("a row of %(table)s is unreadable") % {"table": "auth.User"})
        existing = users.objects.filter(username=row.get("fields", {}).get("username")).first()
        if existing is not None:
            numbers[row["pk"]] = existing.pk
            result.users_existing.append(existing.get_username())
            continue
        (obj,) = _deserialize([{**row, "pk": None}], "auth.User")
        obj.save()
        numbers[row["pk"]] = obj.object.pk
        result.users_created.append(obj.object.get_username())
    return numbers


def _insert(model: type[models.Model], objects: list[models.Model]) -> None:
    """INSERT the rows as they are: every column as given (also auto_now timestamps),
    without save(), signals or history records (Django's raw insert, as loaddata does)."""
    fields = model._meta.local_concrete_fields
    size = max(1, min(_CHUNK, connection.ops.bulk_batch_size(fields, objects)))
    for start in range(0, len(objects), size):
        model._base_manager._insert(  # type: ignore[attr-defined]
            objects[start : start + size], fields=fields, raw=True, using=connection.alias
        )


def _restore_tables(
    document: dict[str, Any], numbers: dict[int, int], result: RestoreResult
) -> None:
    for _table, _history, model in _tables():
        label = model._meta.label
        rows = document["tables"][label]
        user_fields = _user_fields(model)
        for row in rows:
            for name in user_fields:
                value = row["fields"].get(name)
                row["fields"][name] = numbers.get(value) if value is not None else None
        for start in range(0, len(rows), _CHUNK):
            objects = [obj.object for obj in _deserialize(rows[start : start + _CHUNK], label)]
            _insert(model, objects)
        result.counts[label] = len(rows)


def _reset_sequences() -> None:
    """Move the id sequences past the numbers written (PostgreSQL; SQLite needs nothing)."""
    all_models = [model for _t, _h, model in _tables()]
    statements = connection.ops.sequence_reset_sql(no_style(), all_models)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


def club_restore(*, data: bytes) -> RestoreResult:
    """Load a club backup (`club_backup`'s bytes) into this database, all in one
    transaction: every row as it was, primary keys kept, logins matched by username (see
    the module docstring). Nothing is written when it is refused.

    Raises BooksError with code backup_damaged (not gzip, not JSON, cut off, unreadable or
    foreign rows), backup_format (another format), backup_version (another version),
    backup_schema (other migrations), backup_club_exists / backup_login_exists /
    backup_row_exists (409: the club, a person's login or a row number is there already).
    """
    document = _read(data)
    try:
        _check_schema(document)
        _check_belongs(document)
        with transaction.atomic():
            _check_conflicts(document)
            club_row = document["tables"]["league.Club"][0]
            result = RestoreResult(club=Club(pk=club_row["pk"]))
            numbers = _restore_logins(document, result)
            _restore_tables(document, numbers, result)
            _reset_sequences()
            result.club = Club.objects.get(pk=club_row["pk"])
            # The seasons are back at the backup's data versions, which the club had
            # passed before: what the cache kept under the later ones is forgotten once
            # the restore is committed (league/club/caching.py).
            transaction.on_commit(books_cache_forget)
    except (DatabaseError, ValueError, TypeError, KeyError, AttributeError) as exc:
        # A row the database refuses (a constraint, a trigger, a value of the wrong type):
        # the file was changed by hand or is damaged; the transaction wrote nothing.
        raise _damaged(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    return result
