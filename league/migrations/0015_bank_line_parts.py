"""A bank line that settles several open amounts is booked in parts (one payment each):
BankStatementLine.part, unique with the club and the line's key."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0014_club_versions"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="bankstatementline",
            name="bank_line_unique_hash_per_club",
        ),
        migrations.AddField(
            model_name="bankstatementline",
            name="part",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="historicalbankstatementline",
            name="part",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddConstraint(
            model_name="bankstatementline",
            constraint=models.UniqueConstraint(
                fields=("club", "line_hash", "part"), name="bank_line_unique_part_per_club"
            ),
        ),
    ]
