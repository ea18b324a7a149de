"""Backup and restore of the 48-season club of bench/bench_import.py.

Imports the generated club book (1979 to 2026, about 1,900 evenings and 47,700 games, every
row with its history record) into a fresh test database, then prints the backup's seconds
and file size, the restore's seconds into a second fresh database, and whether every figure
of the club is identical after the restore (`tests/league/backup/figures.py`: every season's
standings, balances and data version, every person's statement, the report, dues and
records of the last season, the history of each season's first evening, of the last
season's people and the club's latest 500 lines) and every table holds as many rows.
This is the backup test's scale (the test suite round-trips two seasons across the change
from Mark to Euro); it exits with status 1 when a figure differs.

First, the demo club's round trip as the test suite runs it
(tests/league/backup/test_round_trip.py: the demo club as `demo` builds it, every figure,
backup, delete, restore, every figure again, all in one transaction that is rolled back, so
autovacuum never sees the rows): each step's seconds. The restore ends with ANALYZE of the
tables it wrote (league.club.database); `--no-analyze` leaves it out (and the club-book
import's), to see what it is worth. `--demo-only` stops after the demo.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/schock_backup_bench \
        .venv/bin/python bench/bench_backup.py [--no-analyze] [--demo-only]
"""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Callable
from typing import Any

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


def without_analyze() -> None:
    """Leave ANALYZE out of the restore and the club-book import (`--no-analyze`)."""
    from league.backup import services as backup_services
    from league.clubbook import services as clubbook_services

    def skip(*, tables):
        return None

    backup_services.tables_analyze = skip  # type: ignore[assignment]
    clubbook_services.tables_analyze = skip  # type: ignore[assignment]


class StepTimer:
    """The seconds of each step of a run, with its queries, their time waited and the CPU
    seconds here and in PostgreSQL; and every query over 0.5 s with the phase it ran in.
    Installed by `connection.execute_wrapper(timer)`."""

    def __init__(self, server_cpu: Callable[[], float | None]) -> None:
        self.server_cpu = server_cpu
        self.steps: list[str] = []
        self.slow: list[tuple[float, str, str]] = []
        self.phase = "demo"
        self.seconds, self.queries = 0.0, 0
        self.cpu = [time.process_time(), server_cpu() or 0.0]
        self.start = time.perf_counter()

    def step(self, name: str, *, then: str | None = None) -> None:
        """End the step `name`; the next queries count to the phase `then`."""
        python, server = time.process_time(), self.server_cpu() or 0.0
        self.steps.append(
            f"{name} {time.perf_counter() - self.start:.1f} s: {self.queries:,} queries "
            f"waited for {self.seconds:.1f} s, CPU {python - self.cpu[0]:.1f} s here and "
            f"{server - self.cpu[1]:.1f} s in PostgreSQL"
        )
        self.seconds, self.queries = 0.0, 0
        self.cpu = [python, server]
        self.start = time.perf_counter()
        if then is not None:
            self.phase = then

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            seconds = time.perf_counter() - began
            self.seconds += seconds
            self.queries += 1
            if seconds > 0.5:
                self.slow.append((seconds, self.phase, " ".join(sql.split())[:300]))

    def report(self) -> None:
        """Print the steps and the slowest queries."""
        for line in self.steps:
            print(f"  {line}")
        slow = sorted(self.slow, reverse=True)
        print(f"queries over 0.5 s: {len(slow)}, {sum(s for s, _p, _q in slow):.1f} s in all")
        for seconds, where, sql in slow[:8]:
            print(f"  {seconds:.1f} s in {where}: {sql}")


def demo_round_trip() -> list[str]:
    """The suite's round trip of the demo club, step by step with its seconds, in one
    transaction rolled back at the end (as pytest-django runs the test); returns the
    differences of the figures (empty: identical)."""
    from bench_import import _server_cpu
    from django.db import connection, transaction

    from league.backup.selectors import (
        club_backup,
    )
    from league.backup.services import (
        club_restore,
    )
    from league.club.models import Club
    from league.management.commands import demo
    from tests.league.backup.figures import TODAY, club_figures, delete_club, differences

    timer = StepTimer(_server_cpu)
    total = time.perf_counter()
    with transaction.atomic(), connection.execute_wrapper(timer):
        demo.Command(stdout=io.StringIO()).first_club(TODAY)
        timer.step("demo", then="figures")
        before = club_figures("Schockclub Demo")
        timer.step("figures", then="backup")
        data = club_backup(club=Club.objects.get(name="Schockclub Demo"))
        timer.step("backup")
        delete_club("Schockclub Demo")
        timer.step("delete", then="restore")
        club_restore(data=data)
        timer.step("restore", then="figures after the restore")
        after = club_figures("Schockclub Demo")
        timer.step("figures after the restore")
        transaction.set_rollback(True)
    print(f"demo round trip as the test runs it: {time.perf_counter() - total:.1f} s")
    timer.report()
    return differences(before, after)


def whole_book_round_trip() -> list[str]:
    """The 48-season club book imported, backed up, restored into an empty database, with
    the seconds of each; returns the differences of the figures and row counts."""
    from league.backup.selectors import (
        club_backup,
    )
    from league.backup.services import (
        club_restore,
    )
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
        start = time.perf_counter()
        after = club_figures(name, every_season=False)
        print(f"the figures after the restore: {time.perf_counter() - start:.1f} s")
        found = differences(before, after)
        found += [f"rows: {rows} -> {our_rows()}"] if our_rows() != rows else []
    return found


def main() -> None:
    if not is_postgresql():
        print("bench_backup: skipped, set DATABASE_URL to a PostgreSQL database of your own")
        return
    django_setup()
    if "--no-analyze" in sys.argv:
        without_analyze()
        print("without ANALYZE after the restore and the import (--no-analyze)")
    with bench_database(keepdb=False):
        found = demo_round_trip()
    if found:
        print("demo figures identical: NO")
        print("\n".join(found[:20]))
        raise SystemExit(1)
    if "--demo-only" in sys.argv:
        return
    found = whole_book_round_trip()
    print("figures and row counts identical:", "yes" if not found else "NO")
    if found:
        print("\n".join(found[:20]))
        raise SystemExit(1)


if __name__ == "__main__":
    main()
