"""Member.password_set_by_holder: whether the person set the login's password themself
(invitation, reset, change), which the Kassenprüfer's sign-off asks for. Logins that exist
start with False: nobody can tell who chose their password."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0012_idempotency_key'),
    ]

    operations = [
        migrations.AddField(
            model_name='historicalmember',
            name='password_set_by_holder',
            field=models.BooleanField(default=False, verbose_name='password set by the holder'),
        ),
        # As in 0008: a plain ADD COLUMN with a database default, so that SQLite does not
        # remake league_member and break the integrity triggers that name it (games 0002).
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    "ALTER TABLE league_member ADD COLUMN password_set_by_holder boolean "
                    "NOT NULL DEFAULT false",
                    "ALTER TABLE league_member DROP COLUMN password_set_by_holder",
                ),
            ],
            state_operations=[
                migrations.AddField(
                    model_name='member',
                    name='password_set_by_holder',
                    field=models.BooleanField(
                        default=False, verbose_name='password set by the holder'
                    ),
                ),
            ],
        ),
    ]
