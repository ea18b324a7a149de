"""The history tables of the club-owned models (django-simple-history's
`<app>_historical<model>`, whose models have the `league.club.history.ClubHistory` base)
are keyed with their club as the tables they record are (migration 0028), on PostgreSQL:
`club_id` NOT NULL and `PRIMARY KEY (history_id, club_id)` instead of `(history_id)`, so
that Citus can distribute them by club with the rest (README "Distributing by club
(Citus)").

simple-history copies every field of the tracked model into its historical model and
makes a copied foreign key nullable, so Django's state keeps the `club` of each
historical model nullable and `history_id` as its primary key; only the database
changes. The app's PostgreSQL backend (schockclub/postgresql) groups an aggregate over
these models by every selected column, as for the tables of 0028.

First the records without a club are given one once more, as games migration 0013 filled
them (`fill_club`, its helper): from the live row itself or another record of it, and,
for the tables whose club came with those migrations, from the live parent or the
parent's history. A record that still has none stops the migration with the tables and
their counts; nothing is changed then (the migration is one transaction). History is
never rewritten or deleted here: the README says what the operator does.

SQLite keeps `(history_id)` and a nullable `club_id` (it never distributes).
"""

import importlib

from django.db import migrations

#: The history tables of the club-owned models, their tracked table beside each (the
#: tests compare them to the historical models with the ClubHistory base).
HISTORY_TABLES = [
    ("games_historicalattendance", "games_attendance"),
    ("games_historicalevening", "games_evening"),
    ("games_historicalgame", "games_game"),
    ("games_historicalobjection", "games_objection"),
    ("games_historicalplannedevening", "games_plannedevening"),
    ("games_historicalround", "games_round"),
    ("games_historicalroundthrow", "games_roundthrow"),
    ("games_historicalrundegiven", "games_rundegiven"),
    ("games_historicalschockaus", "games_schockaus"),
    ("league_historicalbankstatementline", "league_bankstatementline"),
    ("league_historicalclubbankaccount", "league_clubbankaccount"),
    ("league_historicalledgerentry", "league_ledgerentry"),
    ("league_historicalmember", "league_member"),
    ("league_historicalnotificationchoice", "league_notificationchoice"),
    ("league_historicalpayment", "league_payment"),
    ("league_historicalseason", "league_season"),
    ("league_historicalwallscreen", "league_wallscreen"),
]


def _play():
    """games migration 0013, whose `fill_club` fills the club of history records."""
    return importlib.import_module("games.migrations.0013_club_on_every_row")


def _books():
    """league migration 0026, whose FILL_HISTORY names the book's history records filled."""
    return importlib.import_module("league.migrations.0026_club_on_every_row")


def _keys():
    """league migration 0028, whose `_primary_key_name` reads a table's key from the
    catalogue."""
    return importlib.import_module("league.migrations.0028_primary_keys_with_club")


def fill_again(schema_editor) -> None:
    """Give the records without a club one, with games 0013's `fill_club`: a record of
    each history table from its live row, else from another record of that row (the
    row's own club); then the records of migrations 0013 and 0026 from their live parent,
    else the parent's history (for a row deleted before its club was filled in); then
    the own row's once more (a sibling record may have found its club by the parent)."""
    own = [(history, "id", table, history) for history, table in HISTORY_TABLES]
    by_parent = [*_play().FILL_HISTORY, *_books().FILL_HISTORY]
    _play().fill_club(schema_editor, [], [*own, *by_parent, *own])


def records_without_club(schema_editor) -> dict[str, int]:
    """{history table: its records whose club_id is NULL}, the tables with none left out."""
    counts = {}
    with schema_editor.connection.cursor() as cursor:
        for history, _table in HISTORY_TABLES:
            cursor.execute(f"SELECT COUNT(*) FROM {history} WHERE club_id IS NULL")
            (count,) = cursor.fetchone()
            if count:
                counts[history] = count
    return counts


class HistoryWithoutClub(Exception):
    """Records of the history tables have no club and none could be found for them."""


def forward(apps, schema_editor):
    """PostgreSQL: every history record with its club (else stop with HistoryWithoutClub,
    which names each table and its count), `club_id` NOT NULL, `PRIMARY KEY
    (history_id, club_id)`."""
    if schema_editor.connection.vendor != "postgresql":
        return
    fill_again(schema_editor)
    missing = records_without_club(schema_editor)
    if missing:
        tables = ", ".join(f"{table}: {count}" for table, count in sorted(missing.items()))
        raise HistoryWithoutClub(
            f"History records without a club ({tables}). Nothing was changed. Give each a"
            " club or archive and delete it, then migrate again (README 'Distributing by"
            " club (Citus)')."
        )
    for history, _table in HISTORY_TABLES:
        name = _keys()._primary_key_name(schema_editor, history)
        schema_editor.execute(
            f"ALTER TABLE {history} ALTER COLUMN club_id SET NOT NULL,"
            f" DROP CONSTRAINT {name}, ADD CONSTRAINT {name} PRIMARY KEY (history_id, club_id)"
        )


def backward(apps, schema_editor):
    """PostgreSQL: `PRIMARY KEY (history_id)` again and `club_id` nullable (the clubs
    filled in stay)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    for history, _table in HISTORY_TABLES:
        name = _keys()._primary_key_name(schema_editor, history)
        schema_editor.execute(
            f"ALTER TABLE {history} DROP CONSTRAINT {name},"
            f" ADD CONSTRAINT {name} PRIMARY KEY (history_id), ALTER COLUMN club_id DROP NOT NULL"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_club_on_every_row"),
        ("league", "0028_primary_keys_with_club"),
    ]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
