"""Every row of play carries its club (`club_id`): attendance, games, Schock-Aus,
objections, rounds and throws, and their history tables; and every unique constraint of
them includes the club, so the tables can be distributed by club (README "Distributing by
club (Citus)").

The column is added nullable, filled from the row's parent (one UPDATE with a correlated
subquery per table, parents first, which SQLite and PostgreSQL both run; a history row
takes its club from the live parent, else from the parent's history, else stays empty),
then made NOT NULL.

On PostgreSQL a composite foreign key (parent_id, club_id) -> parent (id, club_id) keeps
the club of a row its parent's: a row can never claim another club than its parent's
(`<table>_<parent>_club_fk`, deferred like Django's own foreign keys; the parents gain
unique (id, club) for it). On SQLite, whose table rebuilds for the constraint changes
break and drop the triggers of migration 0002, those are dropped first and made again last.
The unique index on client_key of 0007 gives way to unique (club, client_key).
"""

import importlib

import django.db.models.deletion
from django.db import migrations, models

#: (table, parent column, parent table): filled in this order (a parent before its children).
FILL = [
    ("games_attendance", "evening_id", "games_evening"),
    ("games_game", "evening_id", "games_evening"),
    ("games_objection", "evening_id", "games_evening"),
    ("games_schockaus", "game_id", "games_game"),
    ("games_round", "game_id", "games_game"),
    ("games_roundthrow", "round_id", "games_round"),
]

#: (table, parent column, parent table): the composite foreign keys (PostgreSQL only).
COMPOSITE_FKS = [
    *FILL,
    ("games_objection", "game_id", "games_game"),
]


def history_table(table: str) -> str:
    app, name = table.split("_", 1)
    return f"{app}_historical{name}"


#: (history table, parent column, parent table, parent's history table).
FILL_HISTORY = [(history_table(t), c, p, history_table(p)) for t, c, p in FILL]


def fill_club(schema_editor, fill_rows, fill_history) -> None:
    """Give every row of `fill_rows` ((table, parent column, parent table)), and every row
    of `fill_history` ((history table, parent column, parent table, parent's history
    table)), the club of its parent (league migration 0026 fills its tables with it)."""
    if schema_editor.connection.vendor == "postgresql":
        # The foreign keys are checked at once, so the NOT NULL that follows in this
        # transaction finds no pending trigger events.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    for table, column, parent in fill_rows:
        schema_editor.execute(
            f"UPDATE {table} SET club_id = (SELECT p.club_id FROM {parent} p"
            f" WHERE p.id = {table}.{column}) WHERE club_id IS NULL"
        )
    for history, column, parent, parent_history in fill_history:
        schema_editor.execute(
            f"UPDATE {history} SET club_id = COALESCE("
            f"(SELECT p.club_id FROM {parent} p WHERE p.id = {history}.{column}),"
            f" (SELECT MAX(p.club_id) FROM {parent_history} p WHERE p.id = {history}.{column}))"
            " WHERE club_id IS NULL"
        )


def _fk_name(table: str, column: str) -> str:
    return f"{table}_{column.removesuffix('_id')}_club_fk"


def composite_fks_add(schema_editor, fks) -> None:
    """PostgreSQL: (parent_id, club_id) of each row of `fks` ((table, parent column,
    parent table)) references its parent's (id, club_id); deferred like Django's own."""
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, column, parent in fks:
        schema_editor.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT {_fk_name(table, column)}"
            f" FOREIGN KEY ({column}, club_id)"
            f" REFERENCES {parent} (id, club_id) DEFERRABLE INITIALLY DEFERRED"
        )


def composite_fks_remove(schema_editor, fks) -> None:
    """PostgreSQL: drop what composite_fks_add made for `fks`."""
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, column, _parent in fks:
        schema_editor.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {_fk_name(table, column)}"
        )


def fill(apps, schema_editor):
    """Give every row, and every history row, the club of its parent."""
    fill_club(schema_editor, FILL, FILL_HISTORY)


def composite_fks(apps, schema_editor):
    composite_fks_add(schema_editor, COMPOSITE_FKS)


def composite_fks_drop(apps, schema_editor):
    composite_fks_remove(schema_editor, COMPOSITE_FKS)


def sqlite_triggers_drop(apps, schema_editor):
    """SQLite: drop the row triggers of migration 0002 while the tables are rebuilt (a
    trigger naming a table being rebuilt breaks its rename; the rebuild drops its own)."""
    if schema_editor.connection.vendor != "sqlite":
        return
    triggers = importlib.import_module("games.migrations.0002_integrity_triggers")
    for name in triggers.SQLITE_NAMES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name};")


def sqlite_triggers_again(apps, schema_editor):
    """SQLite: make the row triggers of migration 0002 again."""
    if schema_editor.connection.vendor != "sqlite":
        return
    sqlite_triggers_drop(apps, schema_editor)
    triggers = importlib.import_module("games.migrations.0002_integrity_triggers")
    for statement in triggers.SQLITE:
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_provisional_evenings_objections_and_planned_evenings"),
        ("league", "0025_wall_screens"),
    ]

    operations = [
        migrations.RunPython(sqlite_triggers_drop, sqlite_triggers_again),
        # The unique index of 0007 (not a constraint Django made) gives way to (club, client_key).
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    "DROP INDEX IF EXISTS games_game_client_key_uniq",
                    "CREATE UNIQUE INDEX games_game_client_key_uniq ON games_game (client_key)",
                ),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="game",
                    name="client_key",
                    field=models.UUIDField(blank=True, editable=False, null=True),
                ),
            ],
        ),
        migrations.AddField(
            model_name="attendance",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="historicalattendance",
            name="club",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="historicalgame",
            name="club",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="historicalobjection",
            name="club",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="historicalround",
            name="club",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="historicalroundthrow",
            name="club",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="historicalschockaus",
            name="club",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="objection",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="roundthrow",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="schockaus",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="attendance",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="objection",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="round",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="roundthrow",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="schockaus",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.RemoveConstraint(
            model_name="attendance",
            name="attendance_unique_member_per_evening",
        ),
        migrations.RemoveConstraint(
            model_name="game",
            name="game_unique_number",
        ),
        migrations.RemoveConstraint(
            model_name="objection",
            name="objection_one_open_per_person_and_game",
        ),
        migrations.RemoveConstraint(
            model_name="round",
            name="round_unique_number",
        ),
        migrations.RemoveConstraint(
            model_name="roundthrow",
            name="round_throw_unique_pos",
        ),
        migrations.RemoveConstraint(
            model_name="roundthrow",
            name="round_throw_unique_player",
        ),
        migrations.RemoveConstraint(
            model_name="schockaus",
            name="schock_aus_unique_pos",
        ),
        migrations.AlterField(
            model_name="historicalgame",
            name="client_key",
            field=models.UUIDField(blank=True, editable=False, null=True),
        ),
        migrations.AddConstraint(
            model_name="attendance",
            constraint=models.UniqueConstraint(
                fields=("club", "evening", "member"), name="attendance_unique_member_per_evening"
            ),
        ),
        migrations.AddConstraint(
            model_name="evening",
            constraint=models.UniqueConstraint(fields=("id", "club"), name="evening_id_club"),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                fields=("club", "evening", "number"), name="game_unique_number"
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                fields=("club", "client_key"), name="game_unique_client_key"
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(fields=("id", "club"), name="game_id_club"),
        ),
        migrations.AddConstraint(
            model_name="objection",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "open")),
                fields=("club", "game", "raised_by"),
                name="objection_one_open_per_person_and_game",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                fields=("club", "game", "number"), name="round_unique_number"
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(fields=("id", "club"), name="round_id_club"),
        ),
        migrations.AddConstraint(
            model_name="roundthrow",
            constraint=models.UniqueConstraint(
                fields=("club", "round", "position"), name="round_throw_unique_pos"
            ),
        ),
        migrations.AddConstraint(
            model_name="roundthrow",
            constraint=models.UniqueConstraint(
                fields=("club", "round", "player"), name="round_throw_unique_player"
            ),
        ),
        migrations.AddConstraint(
            model_name="schockaus",
            constraint=models.UniqueConstraint(
                fields=("club", "game", "position"), name="schock_aus_unique_pos"
            ),
        ),
        migrations.AddConstraint(
            model_name="schockaus",
            constraint=models.UniqueConstraint(fields=("id", "club"), name="schock_aus_id_club"),
        ),
        migrations.RunPython(composite_fks, composite_fks_drop),
        migrations.RunPython(sqlite_triggers_again, sqlite_triggers_drop),
    ]
