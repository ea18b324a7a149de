"""Benchmark: build the season report PDF of the last of 48 seasons.

By default the history is the 48-season club book of bench/bench_import.py (1979 to 2026,
about 1,900 evenings and 47,000 games), imported with `club_book_import`; the report is
the one of 2026 (about 40 evenings), whose all-time records read all 48 seasons. With
`--services` it is instead a club of 8 members with one season of `--evenings` evenings
(6 to 8 present, now and then a guest; five games per present member) plus two earlier
seasons, written through the services like the secretary's pages (slow: minutes).

The data go into a fresh test database (`test_<DATABASE_URL's database>`, created and
dropped by bench/support.py) when DATABASE_URL names PostgreSQL, else into a temporary
SQLite file. Redis is left out: the caches are the process's memory.
Then it times `build_season_report_pdf` and prints wall-clock and CPU seconds:

- libraries: loading WeasyPrint and matplotlib ahead (`report_libraries_load`), as a
  Celery worker does when it starts (league/reports/tasks.py); `--fresh` leaves that to
  the first build;
- cold: the first build of the process after that: empty chart and PDF caches (target:
  under 2 s); "fresh process" adds the libraries' loading;
- rebuilt: a later build after the cache was emptied (what a change of the season's
  data costs once the libraries are loaded);
- warm: the same data again (the charts and the PDF come from the cache keyed by the
  data; target: under 1 s).

    .venv/bin/python bench/bench_report.py [--seasons 48] [--runs 3] [--pdf out.pdf]
        [--profile] [--services --evenings 45]

`--profile` prints where a rebuilt (cache emptied) build spends its time (cProfile, top
30 by cumulative time).
"""

import argparse
import datetime
import os
import random
import time
from pathlib import Path
from typing import Any

from support import bench_database


def import_history(seasons: int):
    """The last `seasons` seasons (up to 2026) of bench/bench_import.py's club book,
    imported with `club_book_import`. Returns the 2026 season."""
    from bench_import import LAST, club_book

    from league.club.models import Season
    from league.clubbook.services import club_book_import

    first = str(LAST - seasons + 1).encode()
    attendance, games, _figures = club_book()

    def keep(data: bytes) -> bytes:  # the header and the rows of the seasons kept
        lines = data.split(b"\r\n")
        return b"\r\n".join(lines[:1] + [line for line in lines[1:] if line[:4] >= first])

    result = club_book_import(
        club_name="Schockclub Bench", attendance=keep(attendance), games=keep(games)
    )
    assert result.ok, result.errors[:5]
    return Season.objects.get(club__name="Schockclub Bench", year=LAST)


def generate(evenings: int, seed: int = 5):
    """A club with `evenings` evenings in 2026 and 20 in each of 2024 and 2025. Returns
    the 2026 season. Written through the services, like the secretary's pages."""
    from games.evenings.services import evening_create, game_record
    from league.club.models import Club
    from league.club.services import member_create, season_get_or_create

    rng = random.Random(seed)
    club = Club.objects.create(name=f"Bench-Club {time.time_ns()}")
    names = ["Anna", "Bernd", "Carla", "Dieter", "Erik", "Frank", "Greta", "Heinz"]
    members = [member_create(club=club, name=n, is_secretary=(n == "Bernd")) for n in names]
    guests = [member_create(club=club, name=n, kind="guest") for n in ("Gustav", "Hilde")]
    season = None
    for year, count in ((2024, 20), (2025, 20), (2026, evenings)):
        season = season_get_or_create(club=club, year=year)
        day = datetime.date(year, 1, 2)
        for _ in range(count):
            present = rng.sample(members, rng.randint(6, 8))
            if members[1] not in present:
                present[0] = members[1]
            absent = [m for m in members if m not in present]
            guest = [rng.choice(guests)] if rng.random() < 0.3 else []
            evening = evening_create(
                club=club,
                date=day,
                secretary=members[1],
                present_members=present,
                guests=guest,
                absent_members=absent,
            )
            table = present + guest
            for number in range(1, 5 * len(present) + 1):
                throwers = [rng.choice(table)] if rng.random() < 0.2 else []
                game_record(
                    evening=evening,
                    number=number,
                    loser=rng.choice(table),
                    schock_aus_throwers=throwers,
                )
            day += datetime.timedelta(days=7)
    return season


def _build(season) -> tuple[bytes, float, float]:
    """One build: (PDF, wall seconds, CPU seconds)."""
    from league.reports.pdf import (
        build_season_report_pdf,
    )

    t, c = time.perf_counter(), time.process_time()
    pdf = build_season_report_pdf(season=season)
    return pdf, time.perf_counter() - t, time.process_time() - c


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seasons", type=int, default=48, help="seasons of club-book history")
    parser.add_argument("--services", action="store_true", help="generate through services")
    parser.add_argument("--evenings", type=int, default=45, help="with --services")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pdf", help="write the report here to look at it")
    parser.add_argument("--profile", action="store_true", help="cProfile a rebuilt build")
    parser.add_argument(
        "--fresh", action="store_true", help="no library loading ahead: the build imports them"
    )
    args = parser.parse_args()
    os.environ.pop("REDIS_URL", None)  # the caches are the process's memory: cold is empty
    with bench_database(keepdb=False) as db:
        run(args, db)


def report_figures(
    args: argparse.Namespace,
    season: Any,
    evenings: int,
    pdf: bytes,
    cold: float,
    cold_cpu: float,
    fresh: tuple[float, float],
    rebuilt: list[Any],
    warm: list[Any],
    libraries: tuple[Any, float] | None,
) -> None:
    """Print the report's size and the seconds of each build against the targets."""
    import io

    from pypdf import PdfReader

    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    history = 3 if args.services else args.seasons
    print(
        f"season report {season.year} ({evenings} evenings, records over {history} seasons),"
        f" {pages} pages, {len(pdf) // 1024} KB"
    )
    if libraries is not None:
        print(
            f"libraries loaded (a worker does this when it starts): {libraries[0]:.2f} s wall,"
            f" {libraries[1]:.2f} s CPU"
        )
    print(f"cold (first build, empty caches): {cold:.2f} s wall, {cold_cpu:.2f} s CPU")
    print(f"fresh process (imports and cold build): {fresh[0]:.2f} s wall, {fresh[1]:.2f} s CPU")
    (r_wall, r_cpu), (w_wall, w_cpu) = min(rebuilt), min(warm)
    print(f"rebuilt (libraries loaded, caches emptied): {r_wall:.2f} s wall, {r_cpu:.2f} s CPU")
    print(f"warm (same data, from the cache): {w_wall:.2f} s wall, {w_cpu:.2f} s CPU")
    print(f"(best of {len(warm)}; targets: cold < 2 s, warm < 1 s)")
    ok = cold < 2 and w_wall < 1
    print("OK" if ok else "BELOW TARGET")


def run(args: argparse.Namespace, db: str) -> None:
    """Write the history, then time the cold, rebuilt and warm builds."""

    from django.core.cache import cache
    from django.db import transaction

    started = time.perf_counter()
    print(f"database: {db}")
    with transaction.atomic():  # one commit: SQLite would otherwise sync every write
        if args.services:
            season = generate(args.evenings)
            what = f"{args.evenings} evenings (+40 earlier) through the services"
        else:
            season = import_history(args.seasons)
            what = f"{args.seasons} seasons of club book"
    evenings = season.evenings.count()
    print(f"wrote {what} in {time.perf_counter() - started:.1f} s")
    from league.reports.warmup import report_libraries_load

    cache.clear()
    started, clock = time.perf_counter(), time.process_time()
    libraries = None
    if args.fresh:
        pdf, cold, cold_cpu = _build(season)
    else:
        libraries = report_libraries_load(render=True), time.process_time() - clock
        pdf, cold, cold_cpu = _build(season)
    fresh = time.perf_counter() - started, time.process_time() - clock
    rebuilt, warm = [], []
    for _ in range(max(args.runs, 1)):
        cache.clear()
        rebuilt.append(_build(season)[1:])
        pdf, *figures = _build(season)
        warm.append(figures)
    if args.pdf:
        Path(args.pdf).write_bytes(pdf)
    if args.profile:
        import cProfile
        import pstats

        cache.clear()
        profiler = cProfile.Profile()
        profiler.enable()
        _build(season)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
    report_figures(args, season, evenings, pdf, cold, cold_cpu, fresh, rebuilt, warm, libraries)


if __name__ == "__main__":
    main()
