"""Reads of the Runden owed (docs/rules.md section 5: the thrower of the first, every fifth and
the last Schock-Aus of an evening owes one): a season's, evening by evening, and with the
throwers' names and the day each was given. A fixed number of queries, whatever the number
of evenings or games.
"""

import datetime
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from games.evenings.models import SchockAus
from league.club.models import Club, Member, Season
from league.club.statutes import season_statutes
from league.runden.models import RundeGiven


def season_runden(*, season: Season) -> list[dict[str, Any]]:
    """All Runden owed in a season, evening by evening: dicts with evening_id, date,
    ordinal, thrower_id, reason, schock_aus_id. One query."""
    rows = _runden(SchockAus.objects.filter(game__evening__season=season), season)
    for row in rows:
        del row["season_id"]
    return rows


def club_runden(*, club: Club, season: Season | None = None) -> list[dict[str, Any]]:
    """The Runden owed in a club, in every season (or `season`'s only), as
    `season_runden`'s dicts with `season_id`, oldest first. One query over all seasons,
    whatever their number ("open Runden, all seasons"), and one for their
    statutes."""
    schock_aus = SchockAus.objects.filter(game__evening__club=club)
    if season is not None:
        schock_aus = schock_aus.filter(game__evening__season=season)
    return _runden(schock_aus, season)


def _runden(schock_aus: QuerySet[SchockAus], season: Season | None) -> list[dict[str, Any]]:
    """The Runden these Schock-Aus owe, evening by evening (the season's statutes: seed
    003's first, every fifth and last Schock-Aus in throwing order). One query for one
    `season`, two over all seasons."""
    rows = schock_aus.order_by(
        "game__evening__date", "game__evening_id", "game__number", "position"
    ).values_list(
        "pk", "thrower_id", "game__evening_id", "game__evening__date", "game__evening__season_id"
    )
    per_evening: dict[int, list[tuple[int, int]]] = defaultdict(list)
    dates: dict[int, datetime.date] = {}
    seasons: dict[int, int] = {}
    for pk, thrower_id, evening_id, date, season_id in rows:
        per_evening[evening_id].append((pk, thrower_id))
        dates[evening_id] = date
        seasons[evening_id] = season_id
    # Each evening owes Runden under its season's statutes: the one
    # season given, else every season's, read in one more query.
    if season is not None:
        statutes_of = {season.pk: season_statutes(season)}
    else:
        statutes_of = {
            s.pk: season_statutes(s)
            for s in Season.objects.filter(pk__in=set(seasons.values())).only("statutes")
        }
    result = []
    for evening_id, items in per_evening.items():
        statutes = statutes_of[seasons[evening_id]]
        for r in statutes.runden([thrower for _, thrower in items]):
            result.append(
                {
                    "evening_id": evening_id,
                    "date": dates[evening_id],
                    "ordinal": r.ordinal,
                    "thrower_id": r.thrower,
                    "reason": r.reason,
                    "schock_aus_id": items[r.ordinal - 1][0],
                    "season_id": seasons[evening_id],
                }
            )
    result.sort(key=lambda r: (r["date"], r["ordinal"]))
    return result


def season_runden_owed(*, season: Season, thrower_id: int | None = None) -> list[dict[str, Any]]:
    """The rows of `season_runden` (only `thrower_id`'s when given), each with
    `thrower_name` and `given_on` (the day it was given, or None). Three queries."""
    rows = season_runden(season=season)
    if thrower_id is not None:
        rows = [r for r in rows if r["thrower_id"] == thrower_id]
    names = dict(Member.objects.filter(club_id=season.club_id).values_list("pk", "name"))
    # The season's Runden given, by a join rather than a list of Schock-Aus ids.
    given = dict(
        RundeGiven.objects.filter(schock_aus__game__evening__season=season).values_list(
            "schock_aus_id", "given_on"
        )
    )
    for r in rows:
        r["thrower_name"] = names[r["thrower_id"]]
        r["given_on"] = given.get(r["schock_aus_id"])
    return rows


STATUS_OPEN, STATUS_GIVEN, STATUS_ALL = "open", "given", "all"


@dataclass
class RundeStatus:
    """One Runde owed: evening, Schock-Aus ordinal, reason (first/fifth/last), thrower,
    and when it was given (None while open)."""

    evening_id: int
    date: datetime.date
    season: Season
    ordinal: int
    reason: str
    thrower: Member
    schock_aus_id: int
    given_on: datetime.date | None = None
    note: str = ""

    @property
    def given(self) -> bool:
        return self.given_on is not None


def runden_overview(
    *,
    club: Club,
    season: Season | None = None,
    member: Member | None = None,
    status: str = STATUS_OPEN,
) -> list[RundeStatus]:
    """The Runden owed in a club (one season, or all), oldest first, optionally only one
    thrower's, filtered by status "open", "given" or "all". With "given" and "all", a
    Runde given for a Schock-Aus that no longer owes one is listed too (reason
    "not_owed"). Four queries, whatever the number of seasons."""
    if season is not None and season.club_id != club.pk:
        return []
    seasons = Season.objects.filter(club=club).in_bulk()
    owed = [
        (seasons[r["season_id"]], r)
        for r in club_runden(club=club, season=season)
        if member is None or r["thrower_id"] == member.pk
    ]
    owed_ids = {r["schock_aus_id"] for _season, r in owed}
    # The club's (season's) Runden given by a join, not by a list of Schock-Aus ids.
    given_rows = RundeGiven.objects.filter(schock_aus__game__evening__club=club)
    if season is not None:
        given_rows = given_rows.filter(schock_aus__game__evening__season=season)
    given = {g.schock_aus_id: g for g in given_rows}
    people = Member.objects.filter(club=club).in_bulk()
    result = []
    for s, r in owed:
        g = given.get(r["schock_aus_id"])
        if status == STATUS_OPEN and g is not None or status == STATUS_GIVEN and g is None:
            continue
        result.append(
            RundeStatus(
                evening_id=r["evening_id"],
                date=r["date"],
                season=s,
                ordinal=r["ordinal"],
                reason=r["reason"],
                thrower=people[r["thrower_id"]],
                schock_aus_id=r["schock_aus_id"],
                given_on=g.given_on if g else None,
                note=g.note if g else "",
            )
        )
    if status != STATUS_OPEN:
        result += _given_not_owed(club, season, member, owed_ids)
    result.sort(key=lambda x: (x.date, x.ordinal))
    return result


def open_runden_by_evening(rows: list[RundeStatus]) -> list[dict[str, Any]]:
    """The evenings with open Runden among `rows` (from `runden_overview`), oldest first:
    dicts with evening_id, date and count (for the page's "mark all given" buttons)."""
    evenings: dict[int, dict[str, Any]] = {}
    for r in rows:
        if not r.given and r.reason != "not_owed":
            line = evenings.setdefault(
                r.evening_id, {"evening_id": r.evening_id, "date": r.date, "count": 0}
            )
            line["count"] += 1
    return sorted(evenings.values(), key=lambda e: e["date"])


def _given_not_owed(
    club: Club, season: Season | None, member: Member | None, owed_ids: set[int]
) -> list[RundeStatus]:
    """Runden marked as given whose Schock-Aus owes none any more (a later correction of
    the evening's games moved the ordinals): listed with reason "not_owed", never hidden."""
    given = RundeGiven.objects.filter(schock_aus__game__evening__club=club)
    if season is not None:
        given = given.filter(schock_aus__game__evening__season=season)
    if member is not None:
        given = given.filter(schock_aus__thrower=member)
    rows = []
    for g in given.select_related("schock_aus__thrower", "schock_aus__game__evening__season"):
        if g.schock_aus_id in owed_ids:  # owed: listed above (few rows: Runden given)
            continue
        evening = g.schock_aus.game.evening
        rows.append(
            RundeStatus(
                evening_id=evening.pk,
                date=evening.date,
                season=evening.season,
                ordinal=0,
                reason="not_owed",
                thrower=g.schock_aus.thrower,
                schock_aus_id=g.schock_aus_id,
                given_on=g.given_on,
                note=g.note,
            )
        )
    return rows
