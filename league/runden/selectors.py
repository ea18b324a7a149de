"""Reads of the Runden owed (RULES.md section 5: the thrower of the first, every fifth and
the last Schock-Aus of an evening owes one): a season's, evening by evening, and with the
throwers' names and the day each was given. A fixed number of queries, whatever the number
of evenings or games.
"""

from collections import defaultdict

from games.evenings.models import SchockAus
from league.club.models import Member, Season
from league.club.statutes import season_statutes
from league.runden.models import RundeGiven


def season_runden(*, season: Season) -> list[dict]:
    """All Runden owed in a season, evening by evening: dicts with evening_id, date,
    ordinal, thrower_id, reason, schock_aus_id. One query."""
    rows = (
        SchockAus.objects.filter(game__evening__season=season)
        .order_by("game__evening__date", "game__number", "position")
        .values_list("pk", "thrower_id", "game__evening_id", "game__evening__date")
    )
    statutes = season_statutes(season)
    per_evening: dict[int, list] = defaultdict(list)
    dates = {}
    for pk, thrower_id, evening_id, date in rows:
        per_evening[evening_id].append((pk, thrower_id))
        dates[evening_id] = date
    result = []
    for evening_id, items in per_evening.items():
        for r in statutes.runden([thrower for _, thrower in items]):
            result.append(
                {
                    "evening_id": evening_id,
                    "date": dates[evening_id],
                    "ordinal": r.ordinal,
                    "thrower_id": r.thrower,
                    "reason": r.reason,
                    "schock_aus_id": items[r.ordinal - 1][0],
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
    names = dict(
        Member.objects.filter(pk__in={r["thrower_id"] for r in rows}).values_list("pk", "name")
    )
    given = dict(
        RundeGiven.objects.filter(schock_aus__in=[r["schock_aus_id"] for r in rows]).values_list(
            "schock_aus_id", "given_on"
        )
    )
    for r in rows:
        r["thrower_name"] = names[r["thrower_id"]]
        r["given_on"] = given.get(r["schock_aus_id"])
    return rows
