"""Member.calendar_version: the version of the person's secret calendar link; revoking
the link moves it (league.club.services.member_calendar_revoke)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0016_preset_names_in_german'),
    ]

    operations = [
        migrations.AddField(
            model_name='historicalmember',
            name='calendar_version',
            field=models.PositiveIntegerField(default=0, verbose_name='calendar link version'),
        ),
        # As in 0013: a plain ADD COLUMN with a database default, so that SQLite does not
        # remake league_member and break the integrity triggers that name it (games 0002).
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    "ALTER TABLE league_member ADD COLUMN calendar_version integer "
                    "NOT NULL DEFAULT 0 CHECK (calendar_version >= 0)",
                    "ALTER TABLE league_member DROP COLUMN calendar_version",
                ),
            ],
            state_operations=[
                migrations.AddField(
                    model_name='member',
                    name='calendar_version',
                    field=models.PositiveIntegerField(
                        default=0, verbose_name='calendar link version'
                    ),
                ),
            ],
        ),
    ]
