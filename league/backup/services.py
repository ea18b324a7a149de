"""Backup and restore of one club: one versioned, gzipped JSON file.

The file (format "schockclub-backup", version 2) is gzip-compressed UTF-8 JSON::

    {"format": "schockclub-backup", "version": 2,
     "created_at": "2026-11-23T14:00:00.123456+00:00",
     "club": {"id": 3, "name": "Schockclub Demo"},
     "migrations": {"auth": [...], "games": [...], "league": [...]},
     "counts": {"games.Game": 1234, ...},
     "users": [<Django "python" serializer rows of the fields of `LOGIN_FIELDS`>],
     "tables": {"league.Club": [<rows>], ..., "games.HistoricalGame": [<rows>], ...},
     "digest": "sha256:<64 hex digits>"}

`digest` is the SHA-256 of the JSON text of every other key, as written (`canonical_json`: in
the file's order, no spaces, UTF-8). Version 1 (before the digest) also held the logins' staff
flags, groups and permissions, and a "groups" list; it is still read, see below.

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
  backup's password hash. References to a login that no longer existed when the backup was
  written are restored empty. The club of each person's login (`LoginClub`) is not in
  the file: the restore writes it with the people (`login_clubs_set`), as every writer of
  a person's login does.
- A restore never grants rights over the installation: a login is created from the fields
  of `LOGIN_FIELDS` only (name, password hash, e-mail, active, dates), never superuser,
  never staff, without groups or permissions, whatever the file says (a version 1 file's
  flags, groups and permissions are dropped and the logins named in
  `RestoreResult.rights_dropped`). A club's rights live in its own rows (`Member.
  is_secretary`). A login that no row of the file names is refused
  (`backup_login_unreferenced`): club_backup writes none.
- Trust: the file is checked, and the books are recomputed, before the transaction
  commits. The digest tells damage or an edit (`backup_digest`) from a file of another
  version (`backup_version`); the header's row counts must be the rows' (`backup_counts`);
  the ledger must be what the records imply (`backup_books_differ`:
  `league.ledger.selectors.club_ledger_differences`, `league.closing.selectors.
  club_carry_differences`), and payments and ledger lines, which are never deleted, must
  be there for every history record of theirs. **Decision** on files without a digest:
  version 1 files (written before it) are read with every other check, the result says
  that no digest was checked (`RestoreResult.digest_checked`); a version 2 file without
  one is refused as damaged or edited.
- The backup and the database must be at the same migrations (of auth, league and games):
  restore an older backup with the Schockclub version that wrote it, then migrate. One
  exception: a file written before every club-owned row carried its club (without games
  0013 and league 0026, `CLUB_COLUMN_MIGRATIONS`, and at our migrations otherwise) is
  read, its rows' ``club`` derived: every row of the file belongs to the backup's club
  (`_check_belongs` follows each row's parents to it), so it is that club.
- The restore writes the rows as they were, all in one transaction: no model `save()`, no
  signals (so django-simple-history writes no new records, the history is restored as it
  was), no `books_changed` (the ledger receiver would book the charges a second time; the
  seasons keep the data versions of the backup). It ends with ``ANALYZE`` of the tables it
  wrote (`league.club.database.tables_analyze`), before its own checks read them.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection, models, transaction
from django.utils.translation import gettext as _

from league.backup.selectors import (
    CHUNK_ROWS,
    FORMAT,
    LOGIN_FIELDS,
    SCHEMA_APPS,
    applied_migrations,
    backup_tables,
    canonical_json,
    digest_of,
    user_fields,
)
from league.backup.tables import CLUB_TABLES
from league.closing.selectors import (
    club_carry_differences,
)
from league.club.caching import books_cache_forget
from league.club.database import tables_analyze
from league.club.errors import BooksError
from league.club.models import Club, LoginClub, Member
from league.club.services import login_clubs_set
from league.ledger.selectors import club_ledger_differences

__all__ = [
    "READABLE_VERSIONS",
    "RestoreResult",
    "club_restore",
]

# The versions a restore reads: 1 has no digest (and carried the logins' rights, dropped).
READABLE_VERSIONS = (1, 2)
# The migrations that gave every club-owned row its ``club``: a file written without them
# (and otherwise at ours) is restored with the club derived (`_club_derive`).
CLUB_COLUMN_MIGRATIONS = {"games": "0013_club_on_every_row", "league": "0026_club_on_every_row"}
# Rows of history whose live row is never deleted (the ledger corrects by reversal, a
# payment is cancelled by one): a record without its row means the row was cut out.
_NEVER_DELETED = ("league.Payment", "league.LedgerEntry")
_MAX_NAMED = 5  # conflicts named in one refusal


# --- restore -------------------------------------------------------------------------------


@dataclass
class RestoreResult:
    """What a restore wrote: the club, rows per model label, logins created and logins
    that existed and were taken as they are (authors only); `rights_dropped`: logins whose
    row in the file asked for rights over the installation (superuser, staff, groups,
    permissions; a version 1 file), created without them; `digest_checked`: False for a
    version 1 file, which has no digest."""

    club: Club
    counts: dict[str, int] = field(default_factory=dict)
    users_created: list[str] = field(default_factory=list)
    users_existing: list[str] = field(default_factory=list)
    rights_dropped: list[str] = field(default_factory=list)
    digest_checked: bool = True


def _damaged(reason: str) -> BooksError:
    return BooksError(
        "backup_damaged",
        _("The file is damaged or not a backup of a club: %(reason)s") % {"reason": reason},
    )


def _read(data: bytes) -> tuple[dict[str, Any], bool]:
    """The document of a backup file, its format, version, digest, shape and row counts
    checked (the digest taken out), and whether it had a digest (a version 1 file has
    none).

    Raises BooksError: backup_damaged (not gzip, not JSON, cut off, wrong shape),
    backup_format (another format), backup_version (another version), backup_digest (the
    content is not the one its digest was taken of, or a version 2 file without one),
    backup_counts (the header's row counts are not the rows')."""
    try:
        text = gzip.decompress(data)
        document = json.loads(text.decode("utf-8"))
    except (OSError, EOFError, zlib.error) as exc:
        raise _damaged(_("not a readable gzip file")) from exc
    except (UnicodeDecodeError, ValueError) as exc:
        raise _damaged(_("not JSON")) from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BooksError("backup_format", _("This file is not a Schockclub backup."))
    version = document.get("version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise BooksError(
            "backup_version",
            _("Backup version %(version)s cannot be read here (this version reads %(ours)s).")
            % {"version": version, "ours": ", ".join(map(str, READABLE_VERSIONS))},
        )
    digest_checked = _check_digest(document)
    expected = {model._meta.label for _t, _h, model in backup_tables()}
    tables = document.get("tables")
    if (
        not isinstance(tables, dict)
        or set(tables) != expected
        or not all(isinstance(rows, list) for rows in tables.values())
        or not isinstance(document.get("users"), list)
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
    for row in document["users"]:
        if not (
            isinstance(row, dict)
            and row.get("model") == "auth.user"
            and isinstance(row.get("fields"), dict)
            and isinstance(row.get("pk"), int)
        ):
            raise _damaged(_("a row of %(table)s is unreadable") % {"table": "auth.user"})
    if len(tables["league.Club"]) != 1:
        raise _damaged(_("it does not hold exactly one club"))
    _check_counts(document)
    return document, digest_checked


def _check_digest(document: dict[str, Any]) -> bool:
    """Take the digest out of `document` and compare it with the digest of the rest
    (`canonical_json`); whether there was one: a version 1 file has none (written before it),
    a version 2 file must.

    Raises BooksError backup_digest when they differ or a version 2 file has none."""
    stored = document.pop("digest", None)
    if stored is None and document.get("version") == 1:
        return False
    if not isinstance(stored, str) or stored != digest_of(canonical_json(document)):
        raise BooksError(
            "backup_digest",
            _(
                "The file is damaged or was edited: its content is not the one its digest "
                "was taken of."
            ),
        )
    return True


def _check_counts(document: dict[str, Any]) -> None:
    """The header's `counts` name every table of the file with its number of rows.

    Raises BooksError backup_counts naming the first table (in restore order) whose count
    differs."""
    counts = document.get("counts")
    if not isinstance(counts, dict):
        counts = {}
    labels = [model._meta.label for _t, _h, model in backup_tables()]
    for label in [*labels, *sorted(set(counts) - set(labels))]:
        rows = document["tables"].get(label)
        held = len(rows) if isinstance(rows, list) else 0
        if counts.get(label) != held or isinstance(counts.get(label), bool):
            raise BooksError(
                "backup_counts",
                _(
                    "The file's header counts %(counted)s rows of %(table)s, the file holds "
                    "%(held)s."
                )
                % {"counted": counts.get(label, 0), "table": label, "held": held},
            )


def _check_schema(document: dict[str, Any]) -> bool:
    """Refuse a file of other migrations (`backup_schema`); True when the file was written
    before the club column (`CLUB_COLUMN_MIGRATIONS` missing, all else ours): its rows'
    club is to be derived."""
    ours = applied_migrations()
    theirs = document["migrations"]
    before_club = {
        app: [name for name in ours[app] if name != CLUB_COLUMN_MIGRATIONS.get(app)]
        for app in SCHEMA_APPS
    }
    if all(sorted(theirs.get(app) or []) == before_club[app] for app in SCHEMA_APPS) and any(
        CLUB_COLUMN_MIGRATIONS.get(app) in ours[app] for app in SCHEMA_APPS
    ):
        return True
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
    return False


def _club_derive(document: dict[str, Any]) -> None:
    """A file written before the club column: every row (and history record) of a table
    that has a ``club`` now gets the backup's club, where the row has none. Which club
    a row belongs to is still checked through its parents (`_check_belongs`)."""
    club_id = document["tables"]["league.Club"][0]["pk"]
    for _table, _history, model in backup_tables():
        if not any(f.name == "club" for f in model._meta.concrete_fields):
            continue
        for row in document["tables"][model._meta.label]:
            row["fields"].setdefault("club", club_id)


def _check_belongs(document: dict[str, Any]) -> None:
    """Every row belongs to the backup's club (a hostile file must not write into another
    club): a live row's every reference to a table of the books names a row of the file,
    its ``club`` the backup's club; a history record names the club or a parent that the
    file holds (live or as a record: the objects of deleted records are gone)."""
    tables = document["tables"]
    ids: dict[str, set[Any]] = {}
    for table, history, model in backup_tables():
        rows = tables[model._meta.label]
        ids.setdefault(table.label, set()).update(_row_id(row, history) for row in rows)
    live = {label: {row["pk"] for row in tables[label]} for label in (t.label for t in CLUB_TABLES)}
    for table, history, model in backup_tables():
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
    for _table, _history, model in backup_tables():
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


def _check_logins(document: dict[str, Any]) -> None:
    """Every login of the file is named by a row of the club (a person's login, an author):
    club_backup writes no other, and a restore creates no other.

    Raises BooksError backup_login_unreferenced naming the first such login."""
    named = {
        row["fields"].get(name)
        for _table, _history, model in backup_tables()
        for name in user_fields(model)
        for row in document["tables"][model._meta.label]
    }
    for row in document["users"]:
        if row["pk"] not in named:
            raise BooksError(
                "backup_login_unreferenced",
                _("The file holds the login '%(name)s', which no row of the club names.")
                % {"name": row["fields"].get("username")},
            )


def _check_never_deleted(document: dict[str, Any]) -> None:
    """Payments and ledger lines are never deleted (a correction is a reversal): every one
    that has a history record in the file is in the file.

    Raises BooksError backup_books_differ naming the first one missing."""
    for table in (t for t in CLUB_TABLES if t.label in _NEVER_DELETED):
        live = {row["pk"] for row in document["tables"][table.label]}
        records = document["tables"][table.history_model._meta.label]
        missing = sorted({row["fields"].get("id") for row in records} - live, key=str)
        if missing:
            raise _books_differ(
                _("%(table)s number %(pk)s has a history but is missing (it is never deleted).")
                % {"table": table.label, "pk": missing[0]}
            )


def _books_differ(difference: str) -> BooksError:
    return BooksError(
        "backup_books_differ",
        _(
            "The books in the file do not agree with its games, attendance, payments and "
            "statutes: %(difference)s"
        )
        % {"difference": difference},
    )


def _check_books(club_id: int) -> None:
    """The restored ledger is what the restored records imply, recomputed by the ledger's
    and the season close's own rules (`club_ledger_differences`,
    `club_carry_differences`), inside the restore's transaction.

    Raises BooksError backup_books_differ naming the first difference."""
    found = club_ledger_differences(club_id=club_id) or club_carry_differences(club_id=club_id)
    if found:
        raise _books_differ(found[0])


def _deserialize(rows: Iterable[dict[str, Any]], label: str) -> list[Any]:
    """Django's deserialization of `rows`; a row it cannot read is a damaged file."""
    try:
        return list(serializers.deserialize("python", rows, ignorenonexistent=False))
    except (DeserializationError, ValidationError, ObjectDoesNotExist) as exc:
        raise _damaged(_("a row of %(table)s is unreadable") % {"table": label}) from exc


# The columns and relations of a login that give rights over the whole installation.
_RIGHTS = ("is_superuser", "is_staff", "groups", "user_permissions")


def _restore_logins(document: dict[str, Any], result: RestoreResult) -> dict[int, int]:
    """Create the logins the database lacks (matched by username) from their
    `LOGIN_FIELDS` only: never superuser or staff, no groups, no permissions (the file's
    are dropped and the login named in `result.rights_dropped`). Returns the backup's login
    numbers -> this database's."""
    users = get_user_model()
    numbers: dict[int, int] = {}
    for row in document["users"]:
        fields = row["fields"]
        existing = users.objects.filter(username=fields.get("username")).first()
        if existing is not None:
            numbers[row["pk"]] = existing.pk
            result.users_existing.append(existing.get_username())
            continue
        login = {name: fields[name] for name in LOGIN_FIELDS if name in fields}
        (obj,) = _deserialize([{"model": "auth.user", "pk": None, "fields": login}], "auth.User")
        obj.save(save_m2m=False)
        numbers[row["pk"]] = obj.object.pk
        result.users_created.append(obj.object.get_username())
        if any(fields.get(name) for name in _RIGHTS):
            result.rights_dropped.append(obj.object.get_username())
    return numbers


def _insert(model: type[models.Model], objects: list[models.Model]) -> None:
    """INSERT the rows as they are: every column as given (also auto_now timestamps),
    without save(), signals or history records (Django's raw insert, as loaddata does)."""
    fields = model._meta.local_concrete_fields
    size = max(1, min(CHUNK_ROWS, connection.ops.bulk_batch_size(fields, objects)))
    for start in range(0, len(objects), size):
        model._base_manager._insert(  # type: ignore[attr-defined]
            objects[start : start + size], fields=fields, raw=True, using=connection.alias
        )


def _restore_tables(
    document: dict[str, Any], numbers: dict[int, int], result: RestoreResult
) -> None:
    for _table, _history, model in backup_tables():
        label = model._meta.label
        rows = document["tables"][label]
        login_columns = user_fields(model)
        for row in rows:
            for name in login_columns:
                value = row["fields"].get(name)
                row["fields"][name] = numbers.get(value) if value is not None else None
        for start in range(0, len(rows), CHUNK_ROWS):
            objects = [obj.object for obj in _deserialize(rows[start : start + CHUNK_ROWS], label)]
            _insert(model, objects)
            if model is Member:
                # The club of each person's login is not in the file: it is the person's.
                login_clubs_set(people=objects)
        result.counts[label] = len(rows)


def _reset_sequences() -> None:
    """Move the id sequences past the numbers written (PostgreSQL; SQLite needs nothing)."""
    all_models = [model for _t, _h, model in backup_tables()]
    statements = connection.ops.sequence_reset_sql(no_style(), all_models)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


def club_restore(*, data: bytes) -> RestoreResult:
    """Load a club backup (`club_backup`'s bytes) into this database, all in one
    transaction: every row as it was, primary keys kept, logins matched by username and
    created without any right over the installation (see the module docstring). Then
    ``ANALYZE`` of every table written, and the books recomputed from the restored
    records: a ledger that disagrees refuses the file. Nothing is written when it is
    refused.

    Raises BooksError with code backup_damaged (not gzip, not JSON, cut off, unreadable or
    foreign rows), backup_format (another format), backup_version (another version),
    backup_digest (damaged or edited: the content is not the one its digest was taken of),
    backup_counts (the header's row counts are not the rows'), backup_schema (other
    migrations), backup_login_unreferenced (a login no row names), backup_books_differ
    (stored charges, payments, reversals or carry-overs that the records do not imply, or a
    payment or ledger line cut out), backup_club_exists / backup_login_exists /
    backup_row_exists (409: the club, a person's login or a row number is there already).
    """
    document, digest_checked = _read(data)
    try:
        if _check_schema(document):
            _club_derive(document)
        _check_belongs(document)
        _check_logins(document)
        _check_never_deleted(document)
        with transaction.atomic():
            _check_conflicts(document)
            club_row = document["tables"]["league.Club"][0]
            result = RestoreResult(club=Club(pk=club_row["pk"]), digest_checked=digest_checked)
            numbers = _restore_logins(document, result)
            _restore_tables(document, numbers, result)
            _reset_sequences()
            # Rows written in bulk and never analysed leave PostgreSQL's planner blind, for
            # the checks below and for the club's first pages (league.club.database).
            tables_analyze(
                tables=[get_user_model(), LoginClub, *(m for _t, _h, m in backup_tables())]
            )
            _check_books(club_row["pk"])
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
