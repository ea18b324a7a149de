"""Statutes per club: Club.statutes (the defaults of a club's new seasons)
and Season.statutes (the statutes a season's books are kept under), both filled with seed
003's statutes; every season keeps its Mark value and currency as stored."""

from django.db import migrations, models

# Seed 003's statutes as data (league.club.statutes.CLUB_STATUTES.to_data() today), frozen
# here so that this step keeps filling old seasons with the statutes they were kept under
# even if the defaults ever change. tests/league/club/test_statutes.py holds them equal.
SEED_003_STATUTES = {
    "scoring": {
        "mode": "per_event",
        "points_per_schock_aus": 1,
        "points_per_game_lost": -1,
        "rank_points": [],
    },
    "marks_per_game_lost": 1,
    "absence": {"mode": "fixed", "marks": 6, "surcharge": 0},
    "games_per_present_member": 5,
    "mark_eras": [
        {"since_year": 1979, "value": "1.00", "currency": "DM"},
        {"since_year": 2002, "value": "0.50", "currency": "EUR"},
    ],
    "runden": {"first": True, "last": True, "every": 5, "shift": True},
}


def fill_statutes(apps, schema_editor):
    """Every club and every season gets seed 003's statutes (the only statutes the books
    knew); `mark_value` and `currency` of a season stay as they are."""
    for name in ("Club", "Season"):
        model = apps.get_model("league", name)
        model.objects.filter(statutes__isnull=True).update(statutes=SEED_003_STATUTES)
        model.objects.filter(statutes={}).update(statutes=SEED_003_STATUTES)


def statutes_not_null(apps, schema_editor):
    """PostgreSQL sets NOT NULL in place (history rows get {} first); SQLite keeps the
    nullable column (see the note on the operations; Django always writes the field)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in ("HistoricalClub", "HistoricalSeason"):
        apps.get_model("league", name).objects.filter(statutes__isnull=True).update(statutes={})
    for table in (
        "league_club",
        "league_historicalclub",
        "league_season",
        "league_historicalseason",
    ):
        schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN statutes SET NOT NULL")


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0008_payment_reminders"),
    ]

    operations = [
        # SQLite would remake league_season to add a NOT NULL column, and a remade table
        # breaks the integrity triggers of games/migrations/0002 that name it (as in 0005):
        # a plain nullable column (ALTER TABLE ADD COLUMN), filled below and made NOT NULL
        # where the database can do that in place (PostgreSQL).
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AddField(
                    model_name=model_name,
                    name="statutes",
                    field=models.JSONField(blank=True, null=True, verbose_name="statutes"),
                )
                for model_name in ("historicalclub", "club", "historicalseason", "season")
            ],
            state_operations=[
                migrations.AddField(
                    model_name=model_name,
                    name="statutes",
                    field=models.JSONField(blank=True, default=dict, verbose_name="statutes"),
                )
                for model_name in ("historicalclub", "club", "historicalseason", "season")
            ],
        ),
        migrations.RunPython(fill_statutes, migrations.RunPython.noop),
        migrations.RunPython(statutes_not_null, migrations.RunPython.noop),
    ]
