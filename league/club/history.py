"""The audit trail of a club-owned model (django-simple-history) in its club's scope.

A club-owned model's history is declared `history = ClubHistoricalRecords()` instead of
simple-history's `HistoricalRecords()`. Its historical model (one row per save or delete,
each with the `club_id` of the row it records) then has the scoped managers of the model
itself (league/club/scoping.py):

- `HistoricalX.objects`, the historical model's default manager, is django-scopes'
  `ScopedManager(club="club")` over simple-history's `HistoricalQuerySet`;
- `X.history` and `x.history` (simple-history's `HistoryManager`, what `as_of`,
  `most_recent`, `prev_record` and `next_record` read through) start from that scoped
  manager.

So a query of history rows outside a club scope raises `ScopeError`, inside one it sees
that club's rows only, and `across_clubs()` (the operator's admin, a restore, a club-book
import) sees every club's. Writing history is not a query: simple-history saves a record
with `Model.save()` (the base manager) and `bulk_history_create` with `bulk_create`,
which django-scopes lets through in every scope.

The migrations' model states know none of this (a ScopedManager is not
`use_in_migrations`): a data migration reads and writes history rows unscoped, as before.

On PostgreSQL the table of such a historical model is keyed `(history_id, club_id)`, its
`club_id` NOT NULL (league migration 0029), as the club-owned tables are keyed `(id,
club_id)`; Django still reads `history_id` as the key and the `club` as nullable
(simple-history's copy of a foreign key), and the app's backend groups an aggregate over
them by every column (schockclub/postgresql).

The Club's own history is simple-history's plain `HistoricalRecords`: a Club is not a row
of a club but the club, read across clubs by the operator and in every scope by its
members.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django_scopes.manager import DisabledQuerySet
from simple_history.manager import HistoricalQuerySet, HistoryManager
from simple_history.models import HistoricalRecords

from league.club.scoping import ScopedManager

__all__ = ["ClubHistoricalRecords", "ClubHistory", "ClubHistoryManager"]

#: The path from a historical record to its club: every historical model of a club-owned
#: model carries `club_id` itself (a copy of its row's), whatever the model's own path.
CLUB_PATH = "club"


class ClubHistory(models.Model):
    """The abstract base of the historical model of a club-owned model: declares its
    default manager, `objects`, django-scopes' ScopedManager over simple-history's
    HistoricalQuerySet (a query outside a club scope raises `ScopeError`; inside one it
    answers that club's records only)."""

    objects = ScopedManager(
        models.Manager.from_queryset(HistoricalQuerySet),
        club=CLUB_PATH,
    )

    class Meta:
        abstract = True


class ClubHistoryManager(HistoryManager):
    """simple-history's `Model.history` / `instance.history` manager, starting from the
    historical model's scoped default manager instead of an unscoped queryset: every read
    through it (`all`, `filter`, `as_of`, `most_recent`, the records' `prev_record` and
    `next_record`) is in the active club's scope. Raises ScopeError as ScopedManager."""

    def get_super_queryset(self) -> Any:
        """The historical model's records in the active scope, a HistoricalQuerySet.
        Raises ScopeError when no club scope is active (at once: django-scopes' stand-in
        queryset lacks simple-history's own methods such as `latest_of_each`)."""
        queryset = self.model._default_manager.db_manager(self._db).get_queryset()
        if isinstance(queryset, DisabledQuerySet):
            queryset.error()
        return queryset


class ClubHistoricalRecords(HistoricalRecords):
    """simple-history's HistoricalRecords for a club-owned model: its historical model has
    the ClubHistory base (a scoped `objects`) and its `history` manager is
    ClubHistoryManager. Takes HistoricalRecords' options but `bases` and
    `history_manager`, which it sets."""

    def __init__(self, **options: Any) -> None:
        super().__init__(bases=[ClubHistory], history_manager=ClubHistoryManager, **options)
