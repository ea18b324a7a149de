"""The one books-changed event: every writer of the books ends with it (STYLE.md 1).

A writer is every service that changes what the books show: an evening, its attendance, a
game, a Schock-Aus, a round or throw, a payment or its reversal, a Runde given or taken
back, a club-book import, a season's Mark value, and every admin action (which goes
through those services). It calls `books_changed` inside its own transaction, once per
season it touched. The event

1. moves the season's `data_version` by one, so every read keyed by it (the standings
   cache, the ETags, the season report) sees the change at once and in the same
   transaction as the change itself; and
2. hands the change to the receivers the books layer connected at start-up (the ledger
   brings an evening's charges in line), in the same transaction.

The register cannot import the books (README "Layout": the books sit above play), so the
books connect themselves here in `LeagueConfig.ready()`; the event itself stays one
function that nobody can go around.

The register has its own event, `register_changed`: a person's name, kind, active or
secretary flag, a login, the club's name or bank account. It moves the club's
`register_version` and no season's `data_version`, so a closed season (whose books are
locked) never stands in the way of renaming a person; every kept read that shows names is
keyed by both versions (league/club/caching.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F

from league.club.caching import kept_reads_superseded
from league.club.errors import season_closed_error
from league.club.models import Club, Season

__all__ = [
    "CLUB_BOOK_IMPORT",
    "MARK_VALUE_CHANGED",
    "STATUTES_CHANGED",
    "BooksChange",
    "BooksChangedOutsideTransaction",
    "books_changed",
    "books_changed_connect",
    "books_changes_gathered",
    "register_changed",
    "register_changed_of_login",
]

# The reason of a change to a season's Mark value (`league.club.services.season_update`):
# every money amount of the season follows, so the receivers recompute the whole season,
# not one evening (the ledger reverses each charge booked at the old value and books it
# again at the new one, docs/rules.md 5).
MARK_VALUE_CHANGED = "mark_value_changed"
# The reason of a change to a season's statutes (`league.club.services.
# season_statutes_update`): points, Marks and money of the whole season
# follow, so the receivers treat it like `MARK_VALUE_CHANGED`.
STATUTES_CHANGED = "statutes_changed"
# The reason the club-book import writes into the history of every row it creates.
CLUB_BOOK_IMPORT = "club book import"


@dataclass(frozen=True)
class BooksChange:
    """What changed: the season, and the evening when the change was an evening's records.

    Attributes:
        season_id: primary key of the season whose books changed.
        evening_id: primary key of the evening whose records changed, or None (a payment,
            a Runde given, a Mark value).
        evening_deleted: the evening itself is gone (its charges must be reversed).
        reason: a stable snake_case word for the audit and the tests (``"evening"``,
            ``"payment"``, ``"runde_given"``, ...); `MARK_VALUE_CHANGED` tells the
            receivers that every amount of the season must be recomputed.
    """

    season_id: int
    evening_id: int | None = None
    evening_deleted: bool = False
    reason: str = "books"


class BooksChangedOutsideTransaction(RuntimeError):
    """`books_changed` was called outside a transaction: a writer forgot `atomic`."""


Receiver = Callable[[BooksChange], None]
_receivers: list[Receiver] = []


class _Gathering(threading.local):
    """The changes held back by `books_changes_gathered` in this thread (a stack: one list
    per open block; a thread of a threaded server never gathers another's)."""

    def __init__(self) -> None:
        self.stack: list[list[BooksChange]] = []


_gathered = _Gathering()


def books_changed_connect(receiver: Receiver) -> None:
    """Connect a receiver of the books layer (idempotent; called from an AppConfig.ready)."""
    if receiver not in _receivers:
        _receivers.append(receiver)


def books_changed(
    *,
    season_id: int,
    evening_id: int | None = None,
    evening_deleted: bool = False,
    reason: str = "books",
) -> BooksChange:
    """Record that the books of `season_id` changed: move its data version, tell the books.

    Must run inside the writer's transaction (`transaction.atomic`), so the version moves
    exactly when the change commits and never without it (docs/rules.md 5: the books of a
    season are its evenings, games, Schock-Aus, Marks and money, payments and Runden).

    Args:
        season_id: the season whose books changed; its `data_version` rises by one.
        evening_id: the evening whose records changed, when it was an evening's records.
        evening_deleted: that evening is being deleted (its charges are reversed).
        reason: a stable word naming the writer (see `BooksChange.reason`).

    Returns the `BooksChange` handed to the receivers.

    Raises:
        BooksChangedOutsideTransaction: called outside a transaction.
        BooksError: `season_closed` (409) when the season is closed (league.closing): a
            closed season's books change only after `season_reopen`.
    """
    if not transaction.get_connection().in_atomic_block:
        raise BooksChangedOutsideTransaction(
            "books_changed must run inside the writer's transaction"
        )
    # A closed season's books are locked (league.closing): the update
    # leaves it alone and the writer's transaction is refused and rolled back. The database
    # refuses it too (trigger schock_season_closed, league migration 0010).
    moved = Season.objects.filter(pk=season_id, closed_at__isnull=True).update(
        data_version=F("data_version") + 1
    )
    if not moved and Season.objects.filter(pk=season_id, closed_at__isnull=False).exists():
        raise season_closed_error()
    # The club's books version moves with it (one UPDATE through the season's club).
    Club.objects.filter(seasons__pk=season_id).update(books_version=F("books_version") + 1)
    kept_reads_superseded(season_id=season_id)
    change = BooksChange(
        season_id=season_id, evening_id=evening_id, evening_deleted=evening_deleted, reason=reason
    )
    _hand_on(change)
    return change


@contextmanager
def books_changes_gathered() -> Iterator[None]:
    """Hand the receivers each distinct books change of the block once, at its end, in the
    writer's transaction: for a writer that records many rows of one evening in a row (the
    demo's evenings of 25 games), whose receivers would otherwise bring the same evening's
    charges in line after every game. The versions move at every `books_changed` as always;
    only the receivers wait. Inside the block the ledger lags the records, so a writer
    reads no money in it.

    Must be entered inside a transaction; when the block raises, nothing is handed on
    (the transaction is rolled back anyway).

    Raises:
        BooksChangedOutsideTransaction: entered outside a transaction.
    """
    if not transaction.get_connection().in_atomic_block:
        raise BooksChangedOutsideTransaction(
            "books_changes_gathered must run inside the writer's transaction"
        )
    _gathered.stack.append([])
    try:
        yield
    except BaseException:
        _gathered.stack.pop()
        raise
    for change in _gathered.stack.pop():
        _hand_on(change)


def _hand_on(change: BooksChange) -> None:
    """Hand `change` to every receiver, or hold it for the enclosing
    `books_changes_gathered` (each distinct change once)."""
    if _gathered.stack:
        if change not in _gathered.stack[-1]:
            _gathered.stack[-1].append(change)
        return
    for receiver in _receivers:
        receiver(change)


def register_changed(*, club: Club | int) -> None:
    """Record that the club's register changed: a person added, renamed, made a guest or
    member, (in)active, secretary or not, merged away; a login given, locked or changed;
    the club's name or bank account. Moves the club's `register_version` by one (no
    season's `data_version`: a closed season does not refuse it), so every kept read that
    shows the register is computed again.

    Must run inside the writer's transaction, like `books_changed`; the kept reads of the
    old version are dropped after the commit (league/club/caching.py).

    Raises:
        BooksChangedOutsideTransaction: called outside a transaction.
    """
    if not transaction.get_connection().in_atomic_block:
        raise BooksChangedOutsideTransaction(
            "register_changed must run inside the writer's transaction"
        )
    club_id = club if isinstance(club, int) else club.pk
    Club.objects.filter(pk=club_id).update(register_version=F("register_version") + 1)
    kept_reads_superseded(club_id=club_id)


def register_changed_of_login(*, user: Any) -> None:
    """`register_changed` for the club of the person whose login `user` is (nothing for a
    login without a person, e.g. a staff account)."""
    club_id = Club.objects.filter(members__user=user).values_list("pk", flat=True).first()
    if club_id is not None:
        register_changed(club=club_id)
