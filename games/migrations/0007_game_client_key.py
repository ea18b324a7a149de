"""Game.client_key: the key a phone gives a game it queued offline, so a
game sent twice is recorded once.

SQLite would remake games_game to add a UNIQUE column, and a remade table breaks the
integrity triggers of 0002 that name it. So the database gets a plain nullable column
(ALTER TABLE ADD COLUMN) and a unique index beside it (NULLs never collide, on SQLite and
PostgreSQL alike); Django's state knows the field as unique.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_round_kinds_of_seed_actions"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AddField(
                    model_name="game",
                    name="client_key",
                    field=models.UUIDField(blank=True, editable=False, null=True),
                ),
                migrations.RunSQL(
                    "CREATE UNIQUE INDEX games_game_client_key_uniq ON games_game (client_key)",
                    "DROP INDEX games_game_client_key_uniq",
                ),
            ],
            state_operations=[
                migrations.AddField(
                    model_name="game",
                    name="client_key",
                    field=models.UUIDField(blank=True, editable=False, null=True, unique=True),
                ),
            ],
        ),
        migrations.AddField(
            model_name="historicalgame",
            name="client_key",
            field=models.UUIDField(blank=True, db_index=True, editable=False, null=True),
        ),
    ]
