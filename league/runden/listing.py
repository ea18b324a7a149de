"""The Runden list of the page (`/runden/`), read from per-season parts ("open Runden, all seasons"
costs what one season costs, not what the history costs).

A season's part is its `runden_overview` with status "all" (every Runde owed, given or not,
and the Runden given that are no longer owed) as plain tuples, kept in the cache under the
season's `data_version` and stored statutes: a Runde given, an evening corrected or a
payment moves the version, so a kept part is never stale, and a change to one season
recomputes that season's part only. The page's list (one season or all, open, given or
all, one person's or everyone's) is those parts filtered, and the page keeps of it what it
shows (`SHOWN` lines, `EVENINGS_SHOWN` evenings with open Runden) and the count, per club
books version.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from league.club.caching import KeptRead
from league.club.models import Club, Member, Season
from league.runden.selectors import (
    STATUS_ALL,
    STATUS_GIVEN,
    STATUS_OPEN,
    RundeStatus,
    runden_overview,
)

#: Lines of the list the page shows, and evenings with open Runden it offers to mark.
SHOWN = 300
EVENINGS_SHOWN = 60

# (evening id, date, ordinal, reason, thrower id, Schock-Aus id, given on, note)
PartRow = tuple[int, datetime.date, int, str, int, int, datetime.date | None, str]


@dataclass
class RundenPage:
    """What the Runden page shows: the first `SHOWN` lines (oldest first), how many there
    are, and the first `EVENINGS_SHOWN` evenings with open Runden (dicts with evening_id,
    date, count; `open_runden_by_evening`)."""

    rows: list[RundeStatus]
    total: int
    open_by_evening: list[dict[str, Any]]


#: A season's part: its books and the club's register ("season_part"), and the statutes
#: it stores.
RUNDEN_PART = KeptRead("runden_part", depends=("season_part", "statutes"))
#: The Runden page's list: the club's books (the call adds the club's, season's and
#: person's ids and the status).
RUNDEN_PAGE = KeptRead("runden_page", depends=("books",))


def _parts(club: Club, seasons: Sequence[Season]) -> list[list[PartRow]]:
    """The parts of `seasons` (in order): one `runden_overview` for a single missing
    season, one over the club (grouped by season) for several (four or five queries)."""

    def build(missing: list[int]) -> list[list[PartRow]]:
        wanted = [seasons[i] for i in missing]
        scope = wanted[0] if len(wanted) == 1 else None
        grouped: dict[int, list[PartRow]] = {s.pk: [] for s in wanted}
        for r in runden_overview(club=club, season=scope, status=STATUS_ALL):
            if r.season.pk in grouped:
                grouped[r.season.pk].append(
                    (
                        r.evening_id,
                        r.date,
                        r.ordinal,
                        r.reason,
                        r.thrower.pk,
                        r.schock_aus_id,
                        r.given_on,
                        r.note,
                    )
                )
        return [grouped[s.pk] for s in wanted]

    return RUNDEN_PART.cached_many(seasons, club=club, build=build)


def runden_page(
    *,
    club: Club,
    season: Season | None,
    member: Member | None,
    status: str,
) -> RundenPage:
    """The Runden page's list of `club` in `season` (None: every season), only `member`'s
    when given, with `status` "open", "given" or "all" (as `runden_overview`), kept per
    club books version. Queries when everything is cached: none; when the list is not
    but the parts are: two (seasons, people); else four or five more."""
    parts_of = (club.pk, season.pk if season else None, member.pk if member else None, status)
    return RUNDEN_PAGE.cached(
        *parts_of, club=club, build=lambda: _build_page(club, season, member, status)
    )


def _build_page(
    club: Club, season: Season | None, member: Member | None, status: str
) -> RundenPage:
    seasons = list(Season.objects.filter(club=club).order_by("year"))
    if season is not None:
        seasons = [s for s in seasons if s.pk == season.pk]
    rows: list[tuple[Season, PartRow]] = []
    for s, part in zip(seasons, _parts(club, seasons), strict=True):
        for row in part:
            given = row[6] is not None
            if member is not None and row[4] != member.pk:
                continue
            if status == STATUS_OPEN and given or status == STATUS_GIVEN and not given:
                continue
            rows.append((s, row))
    rows.sort(key=lambda sr: (sr[1][1], sr[1][2]))
    # As `open_runden_by_evening`: the evenings of the open Runden owed, oldest first.
    counts: dict[int, dict[str, Any]] = {}
    for _s, row in rows:
        if row[6] is None and row[3] != "not_owed":
            line = counts.setdefault(row[0], {"evening_id": row[0], "date": row[1], "count": 0})
            line["count"] += 1
    evenings = sorted(counts.values(), key=lambda e: e["date"])
    shown = rows[:SHOWN]
    people = Member.objects.filter(club=club).in_bulk()
    return RundenPage(
        rows=[_status(s, row, people[row[4]]) for s, row in shown],
        total=len(rows),
        open_by_evening=evenings[:EVENINGS_SHOWN],
    )


def _status(season: Season, row: PartRow, thrower: Member) -> RundeStatus:
    evening_id, day, ordinal, reason, _thrower_id, schock_aus_id, given_on, note = row
    return RundeStatus(
        evening_id=evening_id,
        date=day,
        season=season,
        ordinal=ordinal,
        reason=reason,
        thrower=thrower,
        schock_aus_id=schock_aus_id,
        given_on=given_on,
        note=note,
    )


__all__ = ["EVENINGS_SHOWN", "SHOWN", "STATUS_ALL", "RundenPage", "runden_page"]
