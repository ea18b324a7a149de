"""The one-to-one links between rows of one club are unique per club: an entry's reversal
(`LedgerEntry.reverses`), a payment's ledger entry (`LedgerEntry.payment`) and bank line
(`BankStatementLine.payment`), a Schock-Aus's Runde given (`RundeGiven.schock_aus`). Each
`UNIQUE (<link>_id)` gives way to `UNIQUE (club_id, <link>_id)` (the links become
`league.club.models.ClubOneToOneField`, whose column is not unique alone), so every
unique constraint of a club-owned table includes the club (README "Distributing by club
(Citus)").

The meaning stays: on PostgreSQL a composite foreign key (link_id, club_id) -> (id,
club_id) makes the linked row one of the row's club (Runden given have theirs from
migration 0026; the ledger entries' and bank lines' are made here, with unique (id,
club) on ledger entries and payments for them), so unique per club is unique. A row
whose link names another club's row is refused by them, also when the migration runs.
The new unique constraints are made before the old ones go, so no moment is without one.
"""

import importlib

import django.db.models.deletion
from django.db import migrations, models

import league.club.models

#: (table, link column, linked table): the composite foreign keys made here (PostgreSQL).
COMPOSITE_FKS = [
    ("league_ledgerentry", "reverses_id", "league_ledgerentry"),
    ("league_ledgerentry", "payment_id", "league_payment"),
    ("league_bankstatementline", "payment_id", "league_payment"),
]


def _play():
    """games migration 0013, whose helpers make the composite keys."""
    return importlib.import_module("games.migrations.0013_club_on_every_row")


def composite_fks(apps, schema_editor):
    _play().composite_fks_add(schema_editor, COMPOSITE_FKS)


def composite_fks_drop(apps, schema_editor):
    _play().composite_fks_remove(schema_editor, COMPOSITE_FKS)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_club_on_every_row"),
        ("league", "0026_club_on_every_row"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="ledgerentry",
            constraint=models.UniqueConstraint(fields=("id", "club"), name="ledger_entry_id_club"),
        ),
        migrations.AddConstraint(
            model_name="payment",
            constraint=models.UniqueConstraint(fields=("id", "club"), name="payment_id_club"),
        ),
        migrations.AddConstraint(
            model_name="ledgerentry",
            constraint=models.UniqueConstraint(
                fields=("club", "reverses"), name="ledger_entry_unique_reverses"
            ),
        ),
        migrations.AddConstraint(
            model_name="ledgerentry",
            constraint=models.UniqueConstraint(
                fields=("club", "payment"), name="ledger_entry_unique_payment"
            ),
        ),
        migrations.AddConstraint(
            model_name="bankstatementline",
            constraint=models.UniqueConstraint(
                fields=("club", "payment"), name="bank_line_unique_payment"
            ),
        ),
        migrations.AddConstraint(
            model_name="rundegiven",
            constraint=models.UniqueConstraint(
                fields=("club", "schock_aus"), name="runde_given_unique_schock_aus"
            ),
        ),
        migrations.AlterField(
            model_name="ledgerentry",
            name="reverses",
            field=league.club.models.ClubOneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="reversed_by",
                to="league.ledgerentry",
            ),
        ),
        migrations.AlterField(
            model_name="ledgerentry",
            name="payment",
            field=league.club.models.ClubOneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="ledger_entry",
                to="league.payment",
            ),
        ),
        migrations.AlterField(
            model_name="bankstatementline",
            name="payment",
            field=league.club.models.ClubOneToOneField(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="bank_line",
                to="league.payment",
            ),
        ),
        migrations.AlterField(
            model_name="rundegiven",
            name="schock_aus",
            field=league.club.models.ClubOneToOneField(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="runde_given",
                to="games.schockaus",
            ),
        ),
        migrations.RunPython(composite_fks, composite_fks_drop),
    ]
