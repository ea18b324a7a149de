"""Django's PostgreSQL backend with one change, for the tables of the club's rows, whose
primary key is `(id, club_id)` (league migration 0028; README "Distributing by club
(Citus)") while Django reads `id` as the key.

An aggregate over a model's rows (`annotate(Count(...))`) is grouped by Django on
PostgreSQL by the model's primary key alone, the other selected columns left out because
PostgreSQL knows they depend on the key. With `(id, club_id)` as the key, `id` alone is
not one, and PostgreSQL refuses such a query (`GroupingError: column ... must appear in
the GROUP BY clause`). For those models the backend says it cannot group by the key
alone, so Django groups by every selected column, as it does on SQLite; every other
model (the club, the logins, the history records) keeps Django's shorter GROUP BY.

settings.DATABASES names this module as the ENGINE wherever the URL names PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base, features


def keyed_with_club(model: Any) -> bool:
    """Whether `model`'s table has `(id, club_id)` as its primary key on PostgreSQL: a
    model with a `club` foreign key that may not be empty (the history records' and the
    idempotency keys' may, and keep `(id)`) and a key of its own (a login's club,
    `LoginClub`, is keyed by its login)."""
    field = next((f for f in model._meta.concrete_fields if f.name == "club"), None)
    own_key = not model._meta.pk.is_relation
    return field is not None and field.is_relation and not field.null and own_key


class DatabaseFeatures(features.DatabaseFeatures):
    """Django's, but an aggregate over a club-owned model is grouped by every column."""

    def allows_group_by_selected_pks_on_model(self, model: Any) -> bool:
        return super().allows_group_by_selected_pks_on_model(model) and not keyed_with_club(model)


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's PostgreSQL connection with `DatabaseFeatures` above."""

    features_class = DatabaseFeatures
