"""Django's PostgreSQL backend with one change, for the tables of the club's rows, whose
primary key is `(id, club_id)` (league migration 0028; README "Distributing by club
(Citus)") while Django reads `id` as the key, and for their history tables, whose key is
`(history_id, club_id)` (league migration 0029) while Django reads `history_id`.

An aggregate over a model's rows (`annotate(Count(...))`) is grouped by Django on
PostgreSQL by the model's primary key alone, the other selected columns left out because
PostgreSQL knows they depend on the key. With `(id, club_id)` or `(history_id, club_id)`
as the key, `id` or `history_id` alone is not one, and PostgreSQL refuses such a query
(`GroupingError: column ... must appear in the GROUP BY clause`). For those models the
backend says it cannot group by the key alone, so Django groups by every selected
column, as it does on SQLite; every other model (the club and its history, the logins,
the idempotency keys) keeps Django's shorter GROUP BY.

settings.DATABASES names this module as the ENGINE wherever the URL names PostgreSQL.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db.backends.postgresql import base, features


@functools.lru_cache(maxsize=1024)
def keyed_with_club(model: Any) -> bool:
    """Whether `model`'s table has its club in its primary key on PostgreSQL: `(id,
    club_id)` for a model with a `club` foreign key that may not be empty (the
    idempotency keys' may, and keep `(id)`) and a key of its own (a login's club,
    `LoginClub`, is keyed by its login), `(history_id, club_id)` for the historical
    model of a club-owned model (its base is league.club.history.ClubHistory; Django's
    state keeps its `club` nullable, the database does not). Cached per model class: it
    is asked while each aggregate query is compiled."""
    # Not imported at the top: the module defines a model, which needs the app registry,
    # and Django may load this backend before the registry is ready.
    from league.club.history import ClubHistory

    if issubclass(model, ClubHistory):
        return True
    field = next((f for f in model._meta.concrete_fields if f.name == "club"), None)
    own_key = not model._meta.pk.is_relation
    return field is not None and field.is_relation and not field.null and own_key


class DatabaseFeatures(features.DatabaseFeatures):
    """Django's, but an aggregate over a club-owned model or its history is grouped by
    every column."""

    def allows_group_by_selected_pks_on_model(self, model: Any) -> bool:
        return super().allows_group_by_selected_pks_on_model(model) and not keyed_with_club(model)


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's PostgreSQL connection with `DatabaseFeatures` above."""

    features_class = DatabaseFeatures
