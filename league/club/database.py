"""What the books' bulk writers tell the database itself.

A restore or a club-book import writes tens of thousands of rows in one transaction.
PostgreSQL plans its queries by the statistics of each table's columns (distinct values,
common values, histograms), which only ``ANALYZE`` gathers; autovacuum runs it some time
after the commit, and never for rows of a transaction still open. Until then the planner
guesses the selectivity of every filter and join, for the restore's own checks and for the
first pages of the club read right after it (bench/bench_backup.py measures both).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, models

__all__ = ["tables_analyze"]


def tables_analyze(*, tables: Iterable[type[models.Model]]) -> None:
    """Gather the planner's statistics of the tables of `tables` (models), inside the
    caller's transaction: ``ANALYZE`` of all of them in one statement on PostgreSQL (which
    counts the rows this transaction wrote), ``ANALYZE`` of each table on SQLite (allowed in
    a transaction too). Other databases: nothing. Each table once, in the order given."""
    names = list(dict.fromkeys(model._meta.db_table for model in tables))
    if not names:
        return
    quoted = [connection.ops.quote_name(name) for name in names]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"ANALYZE {', '.join(quoted)}")
        elif connection.vendor == "sqlite":
            for name in quoted:
                cursor.execute(f"ANALYZE {name}")
