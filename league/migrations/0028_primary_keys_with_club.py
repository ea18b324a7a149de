"""The primary key of every club-owned table includes its club: `PRIMARY KEY (id,
club_id)` instead of `(id)`, on PostgreSQL, so that every primary key and unique
constraint of those tables holds the distribution column Citus needs (README
"Distributing by club (Citus)"; `league.Member.user` stays the one unique without it).

Django keeps `id` as each model's primary key (a foreign key cannot point at a composite
one in Django 5.2). `id` stays unique all the same: each table has one identity sequence,
and the backup's restore refuses an id that exists. A query by `id` uses the new key's
index, whose first column it is.

The old key can only go once no foreign key needs it, so first every one-column foreign
key between club-owned tables becomes composite: `(<column>, club_id) REFERENCES parent
(id, club_id)` (`<table>_<column>_club_fk`, deferred like Django's own; games 0013 and
league 0026/0027 made those of a row's parent already, here come the ones to people and
seasons). They also refuse a row that names a person or season of another club (the
triggers of games 0002 refuse most of them earlier, with their own code). Then Django's
one-column key is dropped and the primary key changed.

The foreign key fields stay as they are in Django's state: a later migration that alters
one leaves its composite key alone (Django drops and remakes only a one-column key that
it finds, and finds none). A new foreign key to a club-owned model needs
`db_constraint=False` and its composite key made in its own migration as here (on
PostgreSQL Django's own would find no unique `(id)` to refer to, and fail);
`tests/test_club_on_every_row.py` reads the schema and fails on one left behind.

SQLite keeps `(id)` and Django's foreign keys (it never distributes).
"""

import importlib

from django.db import migrations

#: The club-owned tables: every table with a non-null club_id (their history tables are
#: keyed `(history_id, club_id)` by migration 0029).
CLUB_TABLES = [
    "games_attendance",
    "games_evening",
    "games_game",
    "games_objection",
    "games_plannedevening",
    "games_round",
    "games_roundthrow",
    "games_rundegiven",
    "games_schockaus",
    "league_bankstatementline",
    "league_clubbankaccount",
    "league_ledgerentry",
    "league_member",
    "league_notificationchoice",
    "league_notificationsent",
    "league_payment",
    "league_paymentreminder",
    "league_pushsubscription",
    "league_reportbuild",
    "league_season",
    "league_seasonsignoff",
    "league_wallscreen",
]

#: (table, column, parent table, made): every one-column foreign key between club-owned
#: tables as Django made them, and whether its composite key came "before" (games 0013,
#: league 0026 and 0027) or is made "here".
FOREIGN_KEYS = [
    ("games_attendance", "evening_id", "games_evening", "before"),
    ("games_attendance", "member_id", "league_member", "here"),
    ("games_evening", "season_id", "league_season", "here"),
    ("games_evening", "secretary_id", "league_member", "here"),
    ("games_game", "evening_id", "games_evening", "before"),
    ("games_game", "loser_id", "league_member", "here"),
    ("games_game", "vorleger_id", "league_member", "here"),
    ("games_objection", "answered_by_id", "league_member", "here"),
    ("games_objection", "evening_id", "games_evening", "before"),
    ("games_objection", "game_id", "games_game", "before"),
    ("games_objection", "raised_by_id", "league_member", "here"),
    ("games_round", "after_id", "league_member", "here"),
    ("games_round", "game_id", "games_game", "before"),
    ("games_round", "loser_id", "league_member", "here"),
    ("games_round", "player_id", "league_member", "here"),
    ("games_round", "vorleger_id", "league_member", "here"),
    ("games_roundthrow", "player_id", "league_member", "here"),
    ("games_roundthrow", "round_id", "games_round", "before"),
    ("games_rundegiven", "schock_aus_id", "games_schockaus", "before"),
    ("games_schockaus", "game_id", "games_game", "before"),
    ("games_schockaus", "thrower_id", "league_member", "here"),
    ("league_bankstatementline", "payment_id", "league_payment", "before"),
    ("league_ledgerentry", "member_id", "league_member", "here"),
    ("league_ledgerentry", "payment_id", "league_payment", "before"),
    ("league_ledgerentry", "reverses_id", "league_ledgerentry", "before"),
    ("league_ledgerentry", "season_id", "league_season", "here"),
    ("league_notificationchoice", "member_id", "league_member", "before"),
    ("league_notificationsent", "member_id", "league_member", "before"),
    ("league_payment", "member_id", "league_member", "here"),
    ("league_payment", "season_id", "league_season", "here"),
    ("league_paymentreminder", "member_id", "league_member", "before"),
    ("league_pushsubscription", "member_id", "league_member", "before"),
    ("league_reportbuild", "season_id", "league_season", "before"),
    ("league_season", "closed_by_id", "league_member", "here"),
    ("league_seasonsignoff", "auditor_id", "league_member", "here"),
    ("league_seasonsignoff", "season_id", "league_season", "before"),
]


def _play():
    """games migration 0013, whose helpers make and drop the composite keys."""
    return importlib.import_module("games.migrations.0013_club_on_every_row")


#: (table, column, parent table) of the composite keys made here.
MADE_HERE = [
    (table, column, parent) for table, column, parent, made in FOREIGN_KEYS if made == "here"
]


def _one_column_keys(schema_editor, table: str, column: str, kind: str = "f") -> list[str]:
    """The names of the one-column foreign keys on `table`.`column` (Django's); with
    `kind` "u" its one-column unique constraints."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.conname FROM pg_constraint c JOIN pg_attribute a"
            " ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]"
            " WHERE c.contype = %s AND cardinality(c.conkey) = 1"
            " AND c.conrelid = %s::regclass AND a.attname = %s",
            [kind, table, column],
        )
        return [name for (name,) in cursor.fetchall()]


def _primary_key_name(schema_editor, table: str) -> str:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT conname FROM pg_constraint WHERE contype = 'p' AND conrelid = %s::regclass",
            [table],
        )
        return cursor.fetchone()[0]


def forward(apps, schema_editor):
    """PostgreSQL: the composite foreign keys, Django's one-column ones dropped, then
    `PRIMARY KEY (id, club_id)` on every club-owned table."""
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    _play().composite_fks_add(schema_editor, MADE_HERE)
    for table, column, _parent, _made in FOREIGN_KEYS:
        for name in _one_column_keys(schema_editor, table, column):
            schema_editor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
    for table in CLUB_TABLES:
        name = _primary_key_name(schema_editor, table)
        schema_editor.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT {name},"
            f" ADD CONSTRAINT {name} PRIMARY KEY (id, club_id)"
        )


def backward(apps, schema_editor):
    """PostgreSQL: `PRIMARY KEY (id)` again, Django's one-column foreign keys made as
    Django makes them, and the composite keys made here dropped."""
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    for table in CLUB_TABLES:
        name = _primary_key_name(schema_editor, table)
        schema_editor.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT {name}, ADD CONSTRAINT {name} PRIMARY KEY (id)"
        )
    fields = {
        (model._meta.db_table, field.column): (model, field)
        for app in ("league", "games")
        for model in apps.get_app_config(app).get_models()
        for field in model._meta.local_fields
        if field.is_relation and (field.many_to_one or field.one_to_one)
    }
    for table, column, _parent, _made in FOREIGN_KEYS:
        model, field = fields[(table, column)]
        schema_editor.execute(
            schema_editor._create_fk_sql(model, field, "_fk_%(to_table)s_%(to_column)s")
        )
    _play().composite_fks_remove(schema_editor, MADE_HERE)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_club_on_every_row"),
        ("league", "0027_one_to_one_links_unique_per_club"),
    ]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
