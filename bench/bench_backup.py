"""Backup and restore of the 48-season club of bench/bench_import.py (issue 13 item 6).

Imports the generated club book (1979 to 2026, about 1,900 evenings and 47,700 games, every
row with its history record) into a fresh test database, then prints the backup's seconds
and file size, the restore's seconds into a second fresh database, and whether every figure
of the club is identical after the restore (`tests/league/backup/figures.py`: every season's
standings, balances and data version, every person's statement, the report, dues and
records of the last season, the history of each season's first evening, of the last
season's people and the club's latest 500 lines) and every table holds as many rows.
This is the backup test's scale (the test suite round-trips five seasons across the change
from Mark to Euro); it exits with status 1 when a figure differs.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/schock_backup_bench \
        .venv/bin/python bench/bench_backup.py
"""

from __future__ import annotations

import time

from support import bench_database, django_setup, is_postgresql


def import_bench_club() -> str:
    """Import the 48-season club book of bench_import into the current database; returns
    the club's name."""
    from bench_import import CLUB, club_book

    from league.clubbook.services import club_book_import

    attendance, games, _figures = club_book()
    result = club_book_import(club_name=CLUB, attendance=attendance, games=games)
    assert result.ok, result.errors[:5]
    return CLUB


def main() -> None:
    if not is_postgresql():
        print("bench_backup: skipped, set DATABASE_URL to a PostgreSQL database of your own")
        return
    django_setup()
    from league.backup.services import club_backup, club_restore
    from league.club.models import Club, Season
    from tests.league.backup.conftest import our_rows
    from tests.league.backup.figures import club_figures, differences

    with bench_database(keepdb=False):
        start = time.perf_counter()
        name = import_bench_club()
        print(f"import of the 48-season club book: {time.perf_counter() - start:.1f} s")
        club = Club.objects.get(name=name)
        start = time.perf_counter()
        before, rows = club_figures(name, every_season=False), our_rows()
        print(
            f"{Season.objects.filter(club=club).count()} seasons, "
            f"{rows['games.Evening']:,} evenings, {rows['games.Game']:,} games, "
            f"{sum(rows.values()):,} rows; the figures in {time.perf_counter() - start:.1f} s"
        )
        start, cpu = time.perf_counter(), time.process_time()
        data = club_backup(club=club)
        print(
            f"backup: {time.perf_counter() - start:.1f} s ({time.process_time() - cpu:.1f} s CPU"
            f" in Python), {len(data) / 1e6:.1f} MB (gzip JSON)"
        )
    # A second, empty database: the restore as after losing the first.
    with bench_database(keepdb=False):
        start, cpu = time.perf_counter(), time.process_time()
        result = club_restore(data=data)
        print(
            f"restore into an empty database: {time.perf_counter() - start:.1f} s "
            f"({time.process_time() - cpu:.1f} s CPU in Python), "
            f"{sum(result.counts.values()):,} rows"
        )
        found = differences(before, club_figures(name, every_season=False))
        found += [f"rows: {rows} -> {our_rows()}"] if our_rows() != rows else []
    print("figures and row counts identical:", "yes" if not found else "NO")
    if found:
        print("\n".join(found[:20]))
        raise SystemExit(1)


if __name__ == "__main__":
    main()
