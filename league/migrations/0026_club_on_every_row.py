"""Every club-owned row of the books carries its club (`club_id`): Runden given, sign-offs,
report builds, payment reminders, notification choices, push subscriptions and
notifications sent (and the history tables of those audited); every unique constraint of
them includes the club (a push subscription's endpoint and a wall screen's token are
unique per club; the token keeps a plain index for the lookup by it), so the tables can
be distributed by club (README "Distributing by club (Citus)").

As games migration 0013: the column is added nullable, filled from the row's parent
(one UPDATE with a correlated subquery per table, SQLite and PostgreSQL), then made NOT
NULL; on PostgreSQL a composite foreign key (parent_id, club_id) -> parent (id, club_id)
keeps the club of a row its parent's (seasons gain unique (id, club) for it). On SQLite,
whose rebuild of league_season for the new constraint breaks and drops triggers, the
triggers of games 0002 and league 0010 are dropped first and made again last.
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

#: (table, parent column, parent table): filled in this order; also the composite foreign
#: keys of PostgreSQL.
FILL = [
    ("games_rundegiven", "schock_aus_id", "games_schockaus"),
    ("league_seasonsignoff", "season_id", "league_season"),
    ("league_reportbuild", "season_id", "league_season"),
    ("league_paymentreminder", "member_id", "league_member"),
    ("league_notificationchoice", "member_id", "league_member"),
    ("league_pushsubscription", "member_id", "league_member"),
    ("league_notificationsent", "member_id", "league_member"),
]

#: (history table, parent column, parent table, parent's history table).
FILL_HISTORY = [
    ("games_historicalrundegiven", "schock_aus_id", "games_schockaus", "games_historicalschockaus"),
    (
        "league_historicalnotificationchoice",
        "member_id",
        "league_member",
        "league_historicalmember",
    ),
]


def _play():
    """games migration 0013, whose helpers fill the club and make the composite keys."""
    return importlib.import_module("games.migrations.0013_club_on_every_row")


def fill(apps, schema_editor):
    """Give every row, and every history row, the club of its parent."""
    _play().fill_club(schema_editor, FILL, FILL_HISTORY)


def composite_fks(apps, schema_editor):
    _play().composite_fks_add(schema_editor, FILL)


def composite_fks_drop(apps, schema_editor):
    _play().composite_fks_remove(schema_editor, FILL)


def sqlite_triggers_drop(apps, schema_editor):
    """SQLite: drop the triggers of games 0002 and league 0010 while league_season is
    rebuilt (a trigger naming it breaks its rename; the rebuild drops its own)."""
    if schema_editor.connection.vendor != "sqlite":
        return
    close = importlib.import_module("league.migrations.0010_season_close")
    _play().sqlite_triggers_drop(apps, schema_editor)
    schema_editor.execute(close.SQLITE_REVERSE)


def sqlite_triggers_again(apps, schema_editor):
    """SQLite: make the triggers of games 0002 and league 0010 again."""
    if schema_editor.connection.vendor != "sqlite":
        return
    close = importlib.import_module("league.migrations.0010_season_close")
    _play().sqlite_triggers_again(apps, schema_editor)
    schema_editor.execute(close.SQLITE_REVERSE)
    schema_editor.execute(close.SQLITE)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0025_wall_screens"),
        ("games", "0013_club_on_every_row"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(sqlite_triggers_drop, sqlite_triggers_again),
        migrations.AddField(
            model_name="historicalnotificationchoice",
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
            model_name="historicalrundegiven",
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
            model_name="notificationchoice",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="notificationsent",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="paymentreminder",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="pushsubscription",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="reportbuild",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="rundegiven",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.club",
            ),
        ),
        migrations.AddField(
            model_name="seasonsignoff",
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
            model_name="notificationchoice",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="notificationsent",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="paymentreminder",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="pushsubscription",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="reportbuild",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="rundegiven",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.AlterField(
            model_name="seasonsignoff",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.club"
            ),
        ),
        migrations.RemoveConstraint(
            model_name="notificationchoice",
            name="notification_choice_once_per_kind",
        ),
        migrations.RemoveConstraint(
            model_name="notificationsent",
            name="notification_once_per_kind_and_week",
        ),
        migrations.RemoveConstraint(
            model_name="paymentreminder",
            name="payment_reminder_once_a_month",
        ),
        migrations.AlterField(
            model_name="historicalwallscreen",
            name="token_hash",
            field=models.CharField(max_length=64),
        ),
        migrations.AlterField(
            model_name="pushsubscription",
            name="endpoint",
            field=models.URLField(max_length=1000, verbose_name="endpoint"),
        ),
        migrations.AlterField(
            model_name="wallscreen",
            name="token_hash",
            field=models.CharField(max_length=64),
        ),
        migrations.AddIndex(
            model_name="wallscreen",
            index=models.Index(fields=["token_hash"], name="wall_screen_token_hash"),
        ),
        migrations.AddConstraint(
            model_name="notificationchoice",
            constraint=models.UniqueConstraint(
                fields=("club", "member", "kind"), name="notification_choice_once_per_kind"
            ),
        ),
        migrations.AddConstraint(
            model_name="notificationsent",
            constraint=models.UniqueConstraint(
                fields=("club", "member", "kind", "period"),
                name="notification_once_per_kind_and_week",
            ),
        ),
        migrations.AddConstraint(
            model_name="paymentreminder",
            constraint=models.UniqueConstraint(
                fields=("club", "member", "month"), name="payment_reminder_once_a_month"
            ),
        ),
        migrations.AddConstraint(
            model_name="pushsubscription",
            constraint=models.UniqueConstraint(
                fields=("club", "endpoint"), name="push_subscription_unique_endpoint"
            ),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.UniqueConstraint(fields=("id", "club"), name="season_id_club"),
        ),
        migrations.AddConstraint(
            model_name="wallscreen",
            constraint=models.UniqueConstraint(
                fields=("club", "token_hash"), name="wall_screen_unique_token"
            ),
        ),
        migrations.RunPython(composite_fks, composite_fks_drop),
        migrations.RunPython(sqlite_triggers_again, sqlite_triggers_drop),
    ]
