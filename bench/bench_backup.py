"""Backup and restore of the 48-season club of bench/bench_import.py (issue 13 item 6).

Imports the generated club book (1979 to 2026, about 1,900 evenings and 47,700 games, every
row with its history record) into a fresh test database, then prints the backup's seconds
and file size, the restore's seconds into a second fresh database, and whether every
season's standings and the club's balances are identical after the restore.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/schock_backup_bench \
        .venv/bin/python bench/bench_backup.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schockclub.settings")


def import_bench_club() -> str:
    """Import the 48-season club book of bench_import into the current database; returns
    the club's name."""
    from bench_import import CLUB, club_book

    from league.clubbook.services import club_book_import

    attendance, games, _figures = club_book()
    result = club_book_import(club_name=CLUB, attendance=attendance, games=games)
    assert result.ok, result.errors[:5]
    return CLUB


def _figures(name: str) -> list:
    """Every season's standings and the club's balances, as comparable text."""
    from league.club.models import Club, Season
    from league.ledger.services import club_balances
    from league.standings.selectors import season_standings

    club = Club.objects.get(name=name)
    rows = [repr(club_balances(club=club))]
    for season in Season.objects.filter(club=club).order_by("year"):
        standings = season_standings(season=season)
        rows.append(
            (
                season.year,
                season.data_version,
                [(r.member.name, r.place, r.points, r.marks, r.money) for r in standings.everyone],
                standings.games,
                standings.schock_aus,
                standings.runden,
                standings.money_total,
            )
        )
    return rows


def main() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("bench_backup: skipped, set DATABASE_URL to a PostgreSQL database of your own")
        return
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    from league.backup.services import club_backup, club_restore
    from league.club.models import Club

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        start = time.perf_counter()
        name = import_bench_club()
        print(f"import of the 48-season club book: {time.perf_counter() - start:.1f} s")
        before = _figures(name)
        start, cpu = time.perf_counter(), time.process_time()
        data = club_backup(club=Club.objects.get(name=name))
        print(
            f"backup: {time.perf_counter() - start:.1f} s ({time.process_time() - cpu:.1f} s CPU"
            f" in Python), {len(data) / 1e6:.1f} MB (gzip JSON)"
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    # A second, empty database: the restore as after losing the first.
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        start, cpu = time.perf_counter(), time.process_time()
        result = club_restore(data=data)
        print(
            f"restore into an empty database: {time.perf_counter() - start:.1f} s "
            f"({time.process_time() - cpu:.1f} s CPU in Python), "
            f"{sum(result.counts.values()):,} rows"
        )
        print("figures identical:", _figures(name) == before)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
