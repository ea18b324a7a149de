"""Seasons of a club never share a day, and names refuse invisible characters.

- `season_dates_no_overlap`: an exclusion constraint on PostgreSQL (GiST over the club and
  the closed date range [starts_on, ends_on], btree_gist for the club's equality): two
  seasons of one club whose dates overlap are refused, whatever path writes them. It is
  added by RunPython on PostgreSQL only (Django's ExclusionConstraint, kept out of the
  model's Meta): SQLite has no exclusion constraints, and adding a constraint there would
  rebuild league_season and drop the integrity triggers of games migration 0002 and the
  close trigger of 0010. On every database `league.club.services.season_dates_check`
  refuses the overlap first with the stable code `season_overlaps` (409); the constraint's
  name maps to the same code (league.club.errors). Existing overlapping seasons make the
  migration fail on PostgreSQL: change their dates first.
- The names of clubs and people carry `league.club.names.validate_name` (the admin's
  forms); a validator is no column change, so nothing is rebuilt.
"""

from django.contrib.postgres.constraints import ExclusionConstraint
from django.contrib.postgres.fields import DateRangeField, RangeBoundary, RangeOperators
from django.contrib.postgres.operations import BtreeGistExtension
from django.db import migrations, models

import league.club.names

NAME = "season_dates_no_overlap"


class DateRange(models.Func):
    """PostgreSQL's daterange(first, last, '[]'): both days belong to the season."""

    function = "DATERANGE"
    output_field = DateRangeField()


def _constraint() -> ExclusionConstraint:
    return ExclusionConstraint(
        name=NAME,
        expressions=[
            (
                DateRange("starts_on", "ends_on", RangeBoundary(inclusive_upper=True)),
                RangeOperators.OVERLAPS,
            ),
            ("club", RangeOperators.EQUAL),
        ],
    )


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.add_constraint(apps.get_model("league", "Season"), _constraint())


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.remove_constraint(apps.get_model("league", "Season"), _constraint())


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0010_season_close"),
    ]

    operations = [
        BtreeGistExtension(),  # CREATE EXTENSION on PostgreSQL, nothing elsewhere
        migrations.RunPython(forwards, backwards),
        migrations.AlterField(
            model_name="club",
            name="name",
            field=models.CharField(
                max_length=100,
                unique=True,
                validators=[league.club.names.validate_name],
                verbose_name="name",
            ),
        ),
        migrations.AlterField(
            model_name="historicalclub",
            name="name",
            field=models.CharField(
                db_index=True,
                max_length=100,
                validators=[league.club.names.validate_name],
                verbose_name="name",
            ),
        ),
        migrations.AlterField(
            model_name="historicalmember",
            name="name",
            field=models.CharField(
                max_length=100,
                validators=[league.club.names.validate_name],
                verbose_name="name",
            ),
        ),
        migrations.AlterField(
            model_name="member",
            name="name",
            field=models.CharField(
                max_length=100,
                validators=[league.club.names.validate_name],
                verbose_name="name",
            ),
        ),
    ]
