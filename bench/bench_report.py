"""Benchmark: build the season report PDF for a season of 45 evenings (issue 5).

Generates a club with 8 members and one season of 45 evenings (6 to 8 present, the rest
absent, now and then a guest; five games per present member; Schock-Aus at about the
rate of the sample evening) plus two earlier seasons for the all-time records, into
DATABASE_URL if set, else a temporary SQLite file. Then times `build_season_report_pdf`
(first run includes the lazy imports of WeasyPrint and matplotlib; the figures are the
best of the following runs) and prints wall-clock and CPU seconds (CPU time is what one
core spends, whatever else the machine runs). Target: under 5 s on one core.

    .venv/bin/python bench/bench_report.py [--evenings 45] [--runs 3] [--pdf out.pdf]
        [--reuse] [--profile]

With DATABASE_URL naming a database that already holds a bench club (a SQLite file of an
earlier run), `--reuse` takes its latest season instead of generating one (generating
costs minutes on a loaded machine). `--profile` prints where a warm build spends its time
(cProfile, top 25 by cumulative time).

The first build of a process is "cold" (lazy imports of WeasyPrint and matplotlib, empty
chart cache); the next ones are "warm" (the charts come from the cache while the season's
data version is unchanged).
"""

import argparse
import datetime
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup_django() -> str:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schockclub.settings")
    if not os.environ.get("DATABASE_URL"):
        path = Path(tempfile.mkdtemp(prefix="bench-report-")) / "bench.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return os.environ["DATABASE_URL"]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=45)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pdf", help="write the report here to look at it")
    parser.add_argument("--reuse", action="store_true", help="use an earlier run's season")
    parser.add_argument("--profile", action="store_true", help="cProfile a warm build")
    args = parser.parse_args()
    db = setup_django()
    from django.db import transaction

    from league.club.models import Season
    from league.reports.services import build_season_report_pdf

    started = time.perf_counter()
    season = None
    if args.reuse:
        season = (
            Season.objects.filter(club__name__startswith="Bench-Club ", year=2026)
            .order_by("-pk")
            .first()
        )
    print(f"database: {db.split('@')[-1]}")
    if season is None:
        with transaction.atomic():  # one commit: SQLite would otherwise sync every write
            season = generate(args.evenings)
        print(
            f"generated {args.evenings} evenings (+40 earlier) in "
            f"{time.perf_counter() - started:.1f} s"
        )
    else:
        print(f"reusing {season.club.name} {season.year}")
    times, cpu, pdf = [], [], b""
    for _ in range(max(args.runs, 1) + 1):
        t, c = time.perf_counter(), time.process_time()
        pdf = build_season_report_pdf(season=season)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    if args.pdf:
        Path(args.pdf).write_bytes(pdf)
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        build_season_report_pdf(season=season)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    import io

    from pypdf import PdfReader

    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    print(f"first build (cold: imports, empty chart cache): {times[0]:.2f} s, {cpu[0]:.2f} s CPU")
    print(
        f"season report, {args.evenings} evenings, {pages} pages, {len(pdf) // 1024} KB: "
        f"{min(times[1:]):.2f} s wall, {min(cpu[1:]):.2f} s CPU "
        f"(best of {len(times) - 1}; target < 5 s on one core)"
    )


if __name__ == "__main__":
    main()
