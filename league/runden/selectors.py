"""Reads of the Runden owed (docs/rules.md section 5: the thrower of the first, every fifth and
the last Schock-Aus of an evening owes one): a season's, evening by evening, and with the
throwers' names and the day each was given. A fixed number of queries, whatever the number
of evenings or games.
"""

from collections import defaultdict

from django.db.models import QuerySet

from games.evenings.models import SchockAus
from league.club.models import Club, Member, Season
from league.club.statutes import season_statutes
from league.runden.models import RundeGiven


def season_runden(*, season: Season) -> list[dict]:
    """All Runden owed in a season, evening by evening: dicts with evening_id, date,
    ordinal, thrower_id, reason, schock_aus_id. One query."""
    rows = _runden(SchockAus.objects.filter(game__evening__season=season), season)
    for row in rows:
        del row["season_id"]
    return rows


def club_runden(*, club: Club, season: Season | None = None) -> list[dict]:
    """The Runden owed in a club, in every season (or `season`'s only), as
    `season_runden`'s dicts with `season_id`, oldest first. One query over all seasons,
    whatever their number ("open Runden, all seasons"), and one for their
    statutes."""
    schock_aus = SchockAus.objects.filter(game__evening__club=club)
    if season is not None:
        schock_aus = schock_aus.filter(game__evening__season=season)
    return _runden(schock_aus, season)


def _runden(schock_aus: QuerySet[SchockAus], season: Season | None) -> list[dict]:
    """The Runden these Schock-Aus owe, evening by evening (the season's statutes: seed
    003's first, every fifth and last Schock-Aus in throwing order). One query for one
    `season`, two over all seasons."""
    rows = schock_aus.order_by(
        "game__evening__date", "game__evening_id", "game__number", "position"
    ).values_list(
        "pk", "thrower_id", "game__evening_id", "game__evening__date", "game__evening__season_id"
    )
    per_evening: dict[int, list] = defaultdict(list)
    dates, seasons = {}, {}
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


def season_runden_owed(*, season: Season, thrower_id: int | None = None) -> list[dict]:
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
