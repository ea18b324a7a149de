"""What a club backup holds, table by table, and what it leaves out and why.

`CLUB_TABLES` lists every model of the club's books in the order a restore writes them
(parents first: the database's triggers check an evening's season and a game's attendance
as the row arrives). Each table names the way from its rows to the club: either a
``club`` column, or a foreign key to a parent table (an attendance belongs to the club of
its evening). The audit history of each table (django-simple-history's historical model)
is backed up by the same way, through the *historical* parents, so the records of deleted
evenings, games and Schock-Aus come along too.

`NOT_BACKED_UP` names every other model of the project with the reason it is left out.
tests/league/backup/test_tables.py fails when a model is in neither list, so a model added
later cannot be forgotten silently.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps
from django.db import models
from django.db.models import Q, Subquery
from simple_history.utils import get_history_model_for_model

__all__ = [
    "CLUB_TABLES",
    "LOGIN_TABLES",
    "NOT_BACKED_UP",
    "ClubTable",
    "backed_up_labels",
]


@dataclass(frozen=True)
class ClubTable:
    """One table of the club's books.

    Attributes:
        label: the model's label ("games.Game").
        parent: None when the row has a ``club`` foreign key (or is the club itself);
            otherwise (foreign key name, parent label): the row belongs to the club of
            that parent ("evening", "games.Evening").
        history: the table has a django-simple-history model whose records are backed up.
    """

    label: str
    parent: tuple[str, str] | None = None
    history: bool = True

    @property
    def model(self) -> type[models.Model]:
        return apps.get_model(self.label)

    @property
    def history_model(self) -> type[models.Model]:
        return get_history_model_for_model(self.model)


# Parents before children: the order in which a restore writes the rows.
CLUB_TABLES: tuple[ClubTable, ...] = (
    ClubTable("league.Club"),
    ClubTable("league.Season"),
    ClubTable("league.Member"),
    ClubTable("league.ClubBankAccount"),
    ClubTable("games.Evening"),
    ClubTable("games.Attendance", ("evening", "games.Evening")),
    ClubTable("games.Game", ("evening", "games.Evening")),
    ClubTable("games.SchockAus", ("game", "games.Game")),
    ClubTable("games.Round", ("game", "games.Game")),
    ClubTable("games.RoundThrow", ("round", "games.Round")),
    # A person's objection to a game of a provisional evening and the secretary's answer.
    ClubTable("games.Objection", ("evening", "games.Evening")),
    # The secretary's moves, cancellations and additions to the planned evenings.
    ClubTable("games.PlannedEvening"),
    ClubTable("league.Payment"),
    ClubTable("league.BankStatementLine"),
    ClubTable("league.LedgerEntry"),
    ClubTable("league.RundeGiven", ("schock_aus", "games.SchockAus")),
    # The Kassenprüfer's signatures of closed seasons (league.closing); never changed, so
    # no history of their own (the season's history records the close and reopen).
    ClubTable("league.SeasonSignOff", ("season", "league.Season"), history=False),
    # Reminders sent: kept so that a restored club does not mail the same month again. Not
    # audited (a log of mails sent, no record of the books).
    ClubTable("league.PaymentReminder", ("member", "league.Member"), history=False),
    # How each person wants to hear of each kind of message (e-mail, push, neither).
    ClubTable("league.NotificationChoice", ("member", "league.Member")),
    # Messages sent, one per person, kind and week: kept so that a restored club does not
    # send the same week's message again. Not audited (a log of messages sent).
    ClubTable("league.NotificationSent", ("member", "league.Member"), history=False),
)

# The logins of the club's people and everyone who appears as an author in its rows or
# history (the secretary who recorded a payment, the admin who corrected a game): matched
# by username on restore, never by number. Only their name, password hash, e-mail, active
# flag and dates (league.backup.selectors.LOGIN_FIELDS): no right over the installation.
LOGIN_TABLES: tuple[str, ...] = ("auth.User",)

NOT_BACKED_UP: dict[str, str] = {
    "league.ReportBuild": "derived: a PDF built from the books, rebuilt on request; the file "
    "itself lives in MEDIA_ROOT, not in the database",
    "auth.Permission": "made by migrate; rights over the installation, never taken from a "
    "club's file",
    "auth.Group": "Django's groups carry permissions over the whole installation (the admin); "
    "a club's rights are its own rows (Member.is_secretary), so a restore never grants them",
    "contenttypes.ContentType": "made by migrate",
    "admin.LogEntry": "the admin's own log of one installation; the books' history is "
    "django-simple-history's, which is backed up",
    "sessions.Session": "logins in progress of one installation",
    "authtoken.Token": "API tokens are secrets of one installation: a login gets a new one",
    "knox.AuthToken": "API tokens are secrets of one installation: a login gets a new one",
    "axes.AccessAttempt": "failed login attempts (lockout state) of one installation",
    "axes.AccessAttemptExpiration": "failed login attempts (lockout state) of one installation",
    "axes.AccessFailureLog": "login log of one installation, not the club's books",
    "axes.AccessLog": "login log of one installation, not the club's books",
    "league.WallScreen": "a wall screen's link is a secret of one installation (only its "
    "hash is kept): a restored club makes new links",
    "league.HistoricalWallScreen": "the audit trail of the wall links, left out with them",
    "league.PushSubscription": "a browser's push subscription is made for this "
    "installation's VAPID key (a push service refuses another server's key): the person's "
    "browser subscribes again on the restored installation",
    "league.ClubSignup": "requests to create a club on this installation (its rate limit "
    "and the operator's list), not any club's books",
    "league.IdempotencyKey": "answers to API writes kept for a day so that a retry books "
    "once; of one installation, not the club's books",
    "league.LoginClub": "derived: the club of each person's login is the person's, in the "
    "file's people; the restore writes it for every person's login it restores "
    "(league.club.services.login_clubs_set)",
}


def backed_up_labels() -> set[str]:
    """Labels of every model whose rows a club backup holds: the club's tables, their
    historical models, groups and users."""
    labels = set(LOGIN_TABLES)
    for table in CLUB_TABLES:
        labels.add(table.label)
        if table.history:
            labels.add(table.history_model._meta.label)
    return labels


def _table(label: str) -> ClubTable:
    return next(t for t in CLUB_TABLES if t.label == label)


def club_rows(table: ClubTable, club_id: int, *, history: bool = False) -> Q:
    """The condition that picks the club's rows of `table` (its live rows, or with
    `history` its historical records, also those of deleted objects), as a Q on that
    model. Parents are followed as subqueries; a historical record's parent is found among
    the parent's records or, for a parent written before its table had a history (rounds
    before games migration 0005), among its live rows."""
    if table.label == "league.Club":
        return Q(id=club_id)
    if table.parent is None:
        return Q(club_id=club_id)
    field, parent_label = table.parent
    parent = _table(parent_label)
    live = parent.model._default_manager.filter(club_rows(parent, club_id))
    matching = Q(**{f"{field}_id__in": Subquery(live.values("id"))})
    if history:
        records = parent.history_model._default_manager.filter(
            club_rows(parent, club_id, history=True)
        )
        matching |= Q(**{f"{field}_id__in": Subquery(records.values("id"))})
    return matching
