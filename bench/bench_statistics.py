"""Statistics and records of the 48-season club of bench/bench_import.py.

Imports the generated club book (1979 to 2026, about 1,900 evenings and 47,700 games) into a
fresh test database (``test_<name of DATABASE_URL's database>``, created and dropped here),
then prints, best of 5 each: the season statistics of the last season, the all-time
statistics and records, and the standings selector of the last season for comparison, with
the number of queries of each.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sc_stats \
        .venv/bin/python bench/bench_statistics.py [--keepdb]
"""

from __future__ import annotations

import time

from support import bench_database, is_postgresql


def _best_of(label: str, function, repeats: int = 5) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    best = float("inf")
    queries = 0
    for _ in range(repeats):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            function()
            best = min(best, time.perf_counter() - start)
        queries = len(captured.captured_queries)
    print(f"{label}: {best * 1000:.0f} ms (best of {repeats}), {queries} queries")


def run() -> None:
    from bench_backup import import_bench_club
    from bench_import import LAST

    from league.club.models import Club, Season
    from league.standings.selectors import season_standings
    from league.statistics.selectors import club_statistics

    start = time.perf_counter()
    name = import_bench_club()
    print(f"imported the 48-season club book in {time.perf_counter() - start:.1f} s")
    club = Club.objects.get(name=name)
    season = Season.objects.get(club=club, year=LAST)
    _best_of(f"season_standings({LAST})", lambda: season_standings(season=season))
    _best_of(f"club_statistics({LAST})", lambda: club_statistics(club=club, season=season))
    _best_of("club_statistics(all seasons)", lambda: club_statistics(club=club), repeats=3)
    stats = club_statistics(club=club)
    print(
        f"all time: {stats.seasons} seasons, {stats.evenings:,} evenings, {stats.games:,} games, "
        f"{stats.schock_aus:,} Schock-Aus, {len(stats.people)} people"
    )


def main() -> None:
    if not is_postgresql():
        print("bench_statistics: skipped, set DATABASE_URL to a PostgreSQL database of your own")
        return
    with bench_database():
        run()


if __name__ == "__main__":
    main()
