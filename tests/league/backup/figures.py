"""What must be identical after a restore: every figure the selectors and services compute
for a club, as plain values, and the helper that deletes everything of a club."""

import dataclasses
import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models

from games.evenings.models import Objection, PlannedEvening
from league.audit.selectors import club_audit_recent, evening_audit, member_audit
from league.backup.selectors import backup_tables
from league.backup.tables import club_rows
from league.banking.models import (
    BankStatementLine,
    ClubBankAccount,
    NotificationChoice,
    NotificationSent,
    PaymentReminder,
)
from league.club.models import Club, LoginClub, Member, Season
from league.ledger.selectors import (
    club_balances,
    member_statement,
)
from league.reports.models import ReportBuild
from league.reports.selectors import (
    club_records,
    season_report_data,
)
from league.runden.selectors import (
    runden_overview,
)
from league.standings.selectors import member_dues, season_standings

TODAY = datetime.date(2026, 11, 20)


def plain(value: Any) -> Any:
    """A comparable plain value: a model row becomes its label, pk and every column."""
    if isinstance(value, models.Model):
        return (
            value._meta.label,
            value.pk,
            tuple(_column(value, f) for f in value._meta.concrete_fields),
        )
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__name__,
            {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)},
        )
    if isinstance(value, dict):
        return {repr(plain(k)): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [plain(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, set | frozenset) else items
    return value


def _column(row: models.Model, field: models.Field) -> tuple[str, str]:
    """A column's value; a login by its username (logins are matched by name on restore,
    their numbers may change)."""
    value = getattr(row, field.attname)
    if field.is_relation and field.related_model is get_user_model() and value is not None:
        value = get_user_model().objects.get(pk=value).get_username()
    return field.attname, repr(value)


def club_figures(
    club_name: str, *, every_season: bool = True, every_evening: bool = True
) -> dict[str, Any]:
    """Every figure of the club: per season its standings, each person's dues, the report's
    data (dues, chronicle, evenings, records), balances, data version; per person the
    statement and the history lines; the Runden owed and given; the club's history lines and
    every evening's (also of deleted evenings).

    Without `every_season` (a club of 48 seasons, to keep the test short): the report, the
    dues and the records of the last season only, the history of each season's first
    evening, of the last season's people and the club's latest 500 lines; standings,
    balances, data versions and statements of every season and person still.

    Without `every_evening` (a club of hundreds of evenings): the history of each season's
    first evening only; every other figure as `every_season` says."""
    club = Club.objects.get(name=club_name)
    seasons = list(Season.objects.filter(club=club).order_by("year"))
    members = list(Member.objects.filter(club=club).order_by("pk"))
    figures: dict[str, Any] = {
        "club": plain(club),
        "seasons": [plain(s) for s in seasons],
        "members": [plain(m) for m in members],
        "bank_account": [plain(a) for a in ClubBankAccount.objects.filter(club=club)],
        "bank_lines": [
            plain(b) for b in BankStatementLine.objects.filter(club=club).order_by("pk")
        ],
        "reminders": [
            plain(r) for r in PaymentReminder.objects.filter(member__club=club).order_by("pk")
        ],
        "objections": [
            plain(o) for o in Objection.objects.filter(evening__club=club).order_by("pk")
        ],
        "planned_evenings": [
            plain(p) for p in PlannedEvening.objects.filter(club=club).order_by("pk")
        ],
        "notification_choices": [
            plain(c) for c in NotificationChoice.objects.filter(member__club=club).order_by("pk")
        ],
        "notifications_sent": [
            plain(n) for n in NotificationSent.objects.filter(member__club=club).order_by("pk")
        ],
        # A restore takes a login's name and password, never its rights over the
        # installation (staff, groups: test_restore_trust.py).
        "logins": sorted(
            (m.name, m.user.username, m.user.password, m.is_secretary) for m in members if m.user
        ),
        "balances": plain(club_balances(club=club)),
        "runden": plain(runden_overview(club=club, status="all")),
        "club_history": plain(club_audit_recent(club=club, limit=10**6 if every_season else 500)),
    }
    for season in seasons:
        figures[f"season {season.year}"] = {
            "data_version": season.data_version,
            "standings": plain(season_standings(season=season)),
            "balances": plain(club_balances(club=club, season=season)),
        }
        if every_season or season == seasons[-1]:
            figures[f"season {season.year}"] |= {
                "report": plain(season_report_data(season=season, today=TODAY)),
                "dues": [plain(member_dues(member=m, season=season)) for m in members],
                "records": plain(club_records(club=club, up_to_year=season.year)),
            }
    last_players = (
        set(
            Member.objects.filter(attendances__evening__season=seasons[-1]).values_list(
                "pk", flat=True
            )
        )
        if seasons
        else set()
    )
    for member in members:
        figures[f"member {member.name}"] = {"statement": plain(member_statement(member=member))}
        if every_season or member.pk in last_players:
            figures[f"member {member.name}"]["history"] = plain(member_audit(member=member))
    evening_model = next(m for t, h, m in backup_tables() if h and t.label == "games.Evening")
    records = evening_model.objects.filter(club_id=club.pk)
    evening_ids = set(records.values_list("id", flat=True))
    if not (every_season and every_evening):
        evening_ids = {
            records.filter(season_id=season.pk).order_by("date").values_list("id", flat=True)[0]
            for season in seasons
        }
    for evening_id in sorted(evening_ids):
        figures[f"evening {evening_id}"] = plain(evening_audit(evening_id=evening_id))
    return figures


def history_lines(figures: dict[str, Any]) -> int:
    """How many history lines the club's list, the people's and the evenings' lists show."""
    return len(figures["club_history"]) + sum(
        len(v.get("history", ()) if k.startswith("member ") else v)
        for k, v in figures.items()
        if k.startswith(("member ", "evening "))
    )


def delete_club(club_name: str) -> None:
    """Delete every row of the club, its history records, its report builds and its
    people's logins (and their clubs), without signals (so no new history records are
    written): children first, so that the database's triggers and foreign keys agree at
    every step."""
    club = Club.objects.get(name=club_name)
    logins = list(
        Member.objects.filter(club=club, user__isnull=False).values_list("user_id", flat=True)
    )
    ReportBuild.objects.filter(season__club=club).delete()
    for table, history, model in reversed(list(backup_tables())):
        if model is Club:  # the club's people are gone, and with them the logins' link
            LoginClub.objects.filter(club=club).delete()
        rows = model._base_manager.filter(club_rows(table, club.pk, history=history))
        rows._raw_delete(rows.db)
    get_user_model().objects.filter(pk__in=logins).delete()


def differences(before: Any, after: Any, path: str = "") -> list[str]:
    """Where two figures differ, as readable paths (empty: identical)."""
    if type(before) is not type(after):
        return [f"{path}: {before!r:.200} -> {after!r:.200}"]
    if isinstance(before, dict):
        found = [f"{path}/{k}: only on one side" for k in set(before) ^ set(after)]
        for key in sorted(set(before) & set(after)):
            found += differences(before[key], after[key], f"{path}/{key}")
        return found
    if isinstance(before, list | tuple):
        found = (
            [f"{path}: {len(before)} -> {len(after)} items"] if len(before) != len(after) else []
        )
        for index, (x, y) in enumerate(zip(before, after, strict=False)):
            found += differences(x, y, f"{path}[{index}]")
        return found
    return [] if before == after else [f"{path}: {before!r:.200} -> {after!r:.200}"]
