"""Reading a season's books: standings, dues per member, Runden owed (issue 2 item 5;
RULES.md section 5). A fixed number of queries, whatever the number of evenings or games.
"""

from collections import defaultdict

from games.evenings.models import SchockAus
from league.club.models import Season
from league.club.statutes import season_statutes


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
