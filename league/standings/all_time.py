"""The all-time standings ("Ewige Tabelle"): every season's table added up,
read from per-season parts so that the cost of a read does not grow with the history.

A season's part is its table as the season page shows it (``seasons_standings``, which
follows each season's statutes and rules: points by +1/-1 or by an evening's rank, places
shared on equal points) reduced to plain numbers per person, kept in the cache under the
season's ``data_version`` and stored statutes (``KeptRead.cached_many``). A change to one
season moves that season's version only, so the next read rebuilds that one part; the
seasons whose part is missing are built together in one batch (a constant number of
queries, whatever their number).

Decisions (where the issue is silent):

- **Points** are the sum of the points of each season's table under that season's
  statutes, counted for the seasons in which the person is ranked (a club member at the
  time of the season's table). Two statutes may score very differently (a by-rank season
  gives 7 points to an evening's winner, a seed-003 season -1 per lost game); the sum is
  still what the seasons' pages show, added up.
- **Order** as in a season (docs/rules.md section 5, Decision): points (high first), then more
  Schock-Aus, then name; equal points share a place (1, 2, 2, 4).
- **Seasons** counts the seasons in which the person was present at least one evening;
  **evenings** the evenings present (absent ones apart). **Titles** are the seasons in
  which the person's place was 1 (shared first places count for each); the **best season**
  is the best place, the earliest season of it on equal places.
- **Guests** (people of kind guest) are listed apart, not ranked, with their seasons,
  evenings, games lost and Schock-Aus, as on a season's page; no points, titles or best
  season.
- People never on an attendance list are not listed. No money column: Marks were worth
  1 DM up to 2001 and 0.50 EUR since, which cannot be added up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from league.club.caching import KeptRead
from league.club.models import Club, Member, Season
from league.standings.selectors import seasons_standings

__all__ = ["AllTimeRow", "AllTimeStandings", "all_time_standings"]

# A season's part: (evenings, games, Schock-Aus, rows); a row per person on the season's
# table: (member id, place or None for a guest, evenings present, evenings absent, games
# played, games lost, Schock-Aus, points).
PartRow = tuple[int, int | None, int, int, int, int, int, int]
Part = tuple[int, int, int, tuple[PartRow, ...]]


@dataclass
class AllTimeRow:
    """One person over every season. Counts are integers; `place` is None for guests;
    `best_year`/`best_place` None when the person was never ranked; `title_years` the
    years of the titles, oldest first."""

    member_id: int
    name: str
    guest: bool
    place: int | None = None
    points: int = 0
    seasons: int = 0
    evenings_attended: int = 0
    evenings_absent: int = 0
    games_played: int = 0
    games_lost: int = 0
    schock_aus: int = 0
    best_year: int | None = None
    best_place: int | None = None
    title_years: list[int] = field(default_factory=list)

    @property
    def titles(self) -> int:
        """Seasons ranked first."""
        return len(self.title_years)


@dataclass
class AllTimeStandings:
    """The ranked club members (`rows`), the guests (unranked, by name) and the totals over
    every season: `seasons` (number of seasons), `first_year`/`last_year` (None without
    seasons), evenings, games and Schock-Aus."""

    rows: list[AllTimeRow]
    guests: list[AllTimeRow]
    seasons: int
    first_year: int | None
    last_year: int | None
    evenings: int
    games: int
    schock_aus: int


#: What a season's part depends on: its books (``data_version``) and the club's register
#: (names order a tie; "season_part"), the statutes and rules it stores (a change to them
#: moves the version too; named for safety).
ALL_TIME_STANDINGS_PART = KeptRead(
    "all_time_standings_part", depends=("season_part", "statutes", "rules")
)


def _parts(seasons: list[Season], club: Club) -> list[Part]:
    """The parts of `seasons`, in order: the kept ones from the cache in one round trip,
    the missing ones built together (``seasons_standings``: six to eight queries)."""

    def build(missing: list[int]) -> list[Part]:
        tables = seasons_standings(seasons=[seasons[i] for i in missing])
        return [
            (
                table.evenings,
                table.games,
                table.schock_aus,
                tuple(
                    (
                        row.member.pk,
                        row.place,
                        row.evenings_attended,
                        row.evenings_absent,
                        row.games_played,
                        row.games_lost,
                        row.schock_aus,
                        row.points,
                    )
                    for row in table.everyone
                ),
            )
            for table in tables
        ]

    return ALL_TIME_STANDINGS_PART.cached_many(seasons, club=club, build=build)


def all_time_standings(*, club: Club) -> AllTimeStandings:
    """The all-time table of `club`: per person seasons, evenings present and absent, games
    played and lost, Schock-Aus, points (the sum over the seasons' tables, each under its
    own statutes), best season and titles; ranked as a season is (see the module's
    decisions); guests apart. docs/rules.md section 5.

    Two queries (the seasons, the people) and one cache round trip when every season's
    part is kept; six to eight more for the seasons whose part is not (inside a
    transaction nothing is kept, league/club/caching.py), whatever their number.
    """
    seasons = list(Season.objects.filter(club=club).order_by("year"))
    people = {
        pk: (name, kind)
        for pk, name, kind in Member.objects.filter(club=club).values_list("id", "name", "kind")
    }
    rows: dict[int, AllTimeRow] = {}
    evenings = games = schock_aus = 0
    for season, part in zip(seasons, _parts(seasons, club), strict=True):
        evenings += part[0]
        games += part[1]
        schock_aus += part[2]
        for member_id, place, present, absent, played, lost, thrown, points in part[3]:
            name, kind = people[member_id]
            row = rows.get(member_id)
            if row is None:
                guest = kind == Member.Kind.GUEST
                row = rows[member_id] = AllTimeRow(member_id=member_id, name=name, guest=guest)
            row.seasons += 1 if present else 0
            row.evenings_attended += present
            row.evenings_absent += absent
            row.games_played += played
            row.games_lost += lost
            row.schock_aus += thrown
            if place is None:
                continue
            row.points += points
            if row.best_place is None or place < row.best_place:
                row.best_place, row.best_year = place, season.year
            if place == 1:
                row.title_years.append(season.year)
    members = [r for r in rows.values() if not r.guest]
    guests = sorted((r for r in rows.values() if r.guest), key=lambda r: r.name)
    for row in guests:
        row.points, row.best_place, row.best_year, row.title_years = 0, None, None, []
    return AllTimeStandings(
        rows=_ranked(members),
        guests=guests,
        seasons=len(seasons),
        first_year=seasons[0].year if seasons else None,
        last_year=seasons[-1].year if seasons else None,
        evenings=evenings,
        games=games,
        schock_aus=schock_aus,
    )


def _ranked(rows: list[AllTimeRow]) -> list[AllTimeRow]:
    """Order by points (high first), then more Schock-Aus, then name; equal points share a
    place: 1, 2, 2, 4 (as ``rank_rows`` orders a season)."""
    rows.sort(key=lambda r: (-r.points, -r.schock_aus, r.name))
    place, previous = 0, None
    for index, row in enumerate(rows, start=1):
        if row.points != previous:
            place, previous = index, row.points
        row.place = place
    return rows
