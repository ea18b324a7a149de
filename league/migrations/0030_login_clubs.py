"""A login is one person of one club, kept in the database in a form Citus accepts
(README "Distributing by club (Citus)").

Until here `league_member` kept it by `UNIQUE (user_id)`, the one unique constraint of a
club-owned table without the club, which a table distributed by club cannot have. Now:

- `league_loginclub` (`LoginClub`): the club of each login that is or was a person's,
  `user_id` its key, `UNIQUE (user_id, club_id)`; installation-wide like `auth_user` (a
  reference table under Citus). Filled here from every person with a login; from now on
  every writer of a person's login writes it (`league.club.services.member_login_set`).
- on PostgreSQL `league_member` trades `UNIQUE (user_id)` and Django's foreign key
  `user_id -> auth_user (id)` for `UNIQUE (user_id, club_id)` (one person per login in a
  club) and the foreign key `(user_id, club_id) -> league_loginclub (user_id, club_id)`
  (`league_member_user_club_fk`, deferred like Django's own): the person's club must be
  the login's one club, so a login is one person at most, as before. The login itself
  stays referenced through `league_loginclub.user_id -> auth_user`.

Django's state keeps `Member.user` a OneToOneField (its reverse accessor `user.member`,
and `select_related("user__member")` of the API token's one query, stay as they are;
the database still holds at most one person per login). A later migration that alters
`Member.user` finds no one-column unique constraint or foreign key to drop, and leaves
these alone, as with migration 0028's keys. SQLite keeps Django's `UNIQUE (user_id)`
and foreign key (it never distributes); `league_loginclub` is written there too.
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

#: The new unique constraint and foreign key of league_member (PostgreSQL).
UNIQUE_NAME = "league_member_user_id_club_id_key"
FK_NAME = "league_member_user_club_fk"
#: Django's name for the `UNIQUE (user_id)` of a OneToOneField (made again backwards).
OLD_UNIQUE_NAME = "league_member_user_id_key"

FILL = (
    "INSERT INTO league_loginclub (user_id, club_id)"
    " SELECT user_id, club_id FROM league_member WHERE user_id IS NOT NULL"
)


def _keys():
    """Migration 0028, whose helper finds Django's one-column foreign keys and unique
    constraints."""
    return importlib.import_module("league.migrations.0028_primary_keys_with_club")


def forward(apps, schema_editor):
    """PostgreSQL: league_member's login unique per club and referring to its LoginClub
    row, instead of unique alone and referring to auth_user."""
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending events to alter
    dropped = [
        *_keys()._one_column_keys(schema_editor, "league_member", "user_id"),
        *_keys()._one_column_keys(schema_editor, "league_member", "user_id", kind="u"),
    ]
    drops = "".join(f" DROP CONSTRAINT {name}," for name in dropped)
    schema_editor.execute(
        f"ALTER TABLE league_member{drops}"
        f" ADD CONSTRAINT {UNIQUE_NAME} UNIQUE (user_id, club_id),"
        f" ADD CONSTRAINT {FK_NAME} FOREIGN KEY (user_id, club_id)"
        " REFERENCES league_loginclub (user_id, club_id) DEFERRABLE INITIALLY DEFERRED"
    )


def backward(apps, schema_editor):
    """PostgreSQL: `UNIQUE (user_id)` and Django's foreign key to auth_user again."""
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    schema_editor.execute(
        f"ALTER TABLE league_member DROP CONSTRAINT {FK_NAME},"
        f" DROP CONSTRAINT {UNIQUE_NAME},"
        f" ADD CONSTRAINT {OLD_UNIQUE_NAME} UNIQUE (user_id)"
    )
    member = apps.get_model("league", "Member")
    schema_editor.execute(
        schema_editor._create_fk_sql(
            member, member._meta.get_field("user"), "_fk_%(to_table)s_%(to_column)s"
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("league", "0029_history_primary_keys_with_club"),
    ]

    operations = [
        migrations.CreateModel(
            name="LoginClub",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="login_club",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="login",
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="league.club",
                        verbose_name="club",
                    ),
                ),
            ],
            options={
                "verbose_name": "club of a login",
                "verbose_name_plural": "clubs of logins",
                "constraints": [
                    models.UniqueConstraint(fields=("user", "club"), name="login_club_user_club")
                ],
            },
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop, elidable=False),
        migrations.RunPython(forward, backward, elidable=False),
    ]
