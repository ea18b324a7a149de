"""The reads of a 48-season club, one user at a time: median latency and query counts.

Imports the 48-season club book of bench/bench_import.py (1979 to 2026, about 1,900
evenings and 47,000 games, every row with its history line) into a fresh test database
(`test_<name of DATABASE_URL's database>`, created and dropped here), then measures through
the Django test client, as the club's secretary, the median of REPEATS requests (after
one to warm up) and the queries of the first (cold) and of a repeated (warm) request of:

the trivial endpoint, the standings page and API, the evenings page, the evening sheet (the
last evening of 2026), the Kasse page, the balances API, a member's statement (page and
API, one season and all seasons), a person's history page, the statistics pages and API
(one season, all-time records) and "open Runden, all seasons"; the standings
and the statistics page also cold (the cache emptied before each request). A last column
shows a repeated request with the ETag it got (`If-None-Match`): 304 when the page
supports it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/schock_reads_bench \\
    REDIS_URL=redis://127.0.0.1:6379/6 .venv/bin/python bench/bench_reads.py [--keepdb]
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from support import QueryCounter, bench_database, is_postgresql

REPEATS = int(os.environ.get("BENCH_REPEATS", "15"))
# BENCH_ONLY="standings,Runden": measure only the reads whose name holds one of these words.
ONLY = [w.strip().lower() for w in os.environ.get("BENCH_ONLY", "").split(",") if w.strip()]
LAST = 2026


def _measure(client, url: str, headers: dict) -> tuple[float, int, int, int, str]:
    """(median ms, queries cold, queries warm, status of a conditional GET, size). With
    `"cold": True` in `headers`, the cache is emptied before each timed request (the
    first read after a change: nothing kept yet)."""
    from django.core.cache import cache

    headers = dict(headers)
    empty_first = headers.pop("cold", False)
    with QueryCounter() as cold:
        first = client.get(url, headers=headers)
    assert first.status_code == 200, (url, first.status_code, first.content[:300])
    with QueryCounter() as warm:
        client.get(url, headers=headers)
    times = []
    for _ in range(REPEATS):
        if empty_first:
            cache.clear()
        start = time.perf_counter()
        client.get(url, headers=headers)
        times.append((time.perf_counter() - start) * 1000)
    conditional = 0
    if first.get("ETag"):
        conditional = client.get(
            url, headers={**headers, "If-None-Match": first["ETag"]}
        ).status_code
    size = f"{len(first.content) / 1024:.0f} KiB"
    return statistics.median(times), cold.count, warm.count, (conditional), size


def bench_books() -> tuple:
    """The whole club book imported (unless an earlier run with --keepdb did), the cache
    empty, and its busiest person the secretary with a login: (season of LAST, person,
    user)."""
    from bench_import import CLUB, club_book
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import connection

    from league.club.models import Club, Member, Season
    from league.club.services import member_login_set
    from league.clubbook.services import club_book_import

    print(f"database: {connection.vendor}; cache: {cache.__class__.__name__}")
    attendance, games, _figures = club_book()
    start = time.perf_counter()
    if not Club.objects.filter(name=CLUB).exists():  # --keepdb: imported by an earlier run
        result = club_book_import(club_name=CLUB, attendance=attendance, games=games)
        assert result.ok, result.errors[:5]
        print(f"imported in {time.perf_counter() - start:.1f} s")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    cache.clear()
    club = Club.objects.get(name=CLUB)
    season = Season.objects.get(club=club, year=LAST)
    user, _new = get_user_model().objects.get_or_create(username="bench-secretary")
    # The person with the most ledger lines: the longest statement and history.
    from django.db.models import Count

    person = Member.objects.filter(club=club, kind="member").annotate(n=Count("ledger_entries"))
    person = person.order_by("-n").first()
    person.is_secretary = True
    member_login_set(person=person, user=user, also_saved=["is_secretary"])
    return season, person, user


def bench_reads(season: Any, person: Any, user: Any) -> list[tuple[str, Any, str, dict]]:
    """The reads measured: (name, client, URL, headers), the pages by a logged-in session,
    the API by the same session."""
    from django.test import Client

    page = Client()
    page.force_login(user)
    page.get("/abende/")  # the session's first page sets its CSRF cookie (then ETags)
    api, auth = page, {}  # the API by session: the kind of token belongs to the accounts
    statement_api = f"/api/v1/members/{person.pk}/statement/"
    last_evening = season.evenings.order_by("-date").first()
    return [
        ("trivial API /clubs/", api, "/api/v1/clubs/", auth),
        ("standings page", page, f"/saison/{LAST}/", {}),
        ("standings page (cold)", page, f"/saison/{LAST}/", {"cold": True}),
        ("standings API", api, f"/api/v1/seasons/{season.pk}/standings/", auth),
        ("evenings page", page, "/abende/", {}),
        ("evening sheet", page, f"/abende/{last_evening.pk}/", {}),
        ("Kasse page", page, "/kasse/", {}),
        ("balances API (all)", api, "/api/v1/balances/", auth),
        ("balances API (season)", api, f"/api/v1/balances/?season={season.pk}", auth),
        ("statement page (season)", page, f"/kasse/konto/{person.pk}/?saison={LAST}", {}),
        ("statement page (all)", page, f"/kasse/konto/{person.pk}/?saison=alle", {}),
        ("statement API (season)", api, f"{statement_api}?season={season.pk}", auth),
        ("statement API (default)", api, statement_api, auth),
        ("person history page", page, f"/verlauf/person/{person.pk}/", {}),
        ("open Runden, all seasons", page, "/runden/?saison=alle", {}),
        ("statistics page", page, "/statistik/", {}),
        ("statistics page (cold)", page, "/statistik/", {"cold": True}),
        ("season statistics page", page, f"/statistik/saisons/?saison={LAST}", {}),
        ("records page (all seasons)", page, "/statistik/rekorde/", {}),
        ("season statistics API", api, f"/api/v1/seasons/{season.pk}/statistics/", auth),
        ("records API (all seasons)", api, "/api/v1/statistics/records/", auth),
        ("all-time standings page", page, "/ewige-tabelle/", {}),
        ("all-time standings page (cold)", page, "/ewige-tabelle/", {"cold": True}),
        ("all-time standings API", api, "/api/v1/standings/all-time/", auth),
        ("Marks page", page, f"/saison/{LAST}/marken/{person.pk}/", {}),
    ]


def run() -> None:
    season, person, user = bench_books()
    reads = bench_reads(season, person, user)
    print(
        f"{'read':<26} {'median':>9} {'x trivial':>9} {'queries':>9} {'warm':>5} "
        f"{'If-None-Match':>13} {'size':>9}"
    )
    trivial = None
    for name, client, url, headers in reads:
        if ONLY and trivial and not any(word in name.lower() for word in ONLY):
            continue
        ms, cold, warm, conditional, size = _measure(client, url, headers)
        trivial = trivial or ms
        print(
            f"{name:<26} {ms:7.1f} ms {ms / trivial:8.1f}x {cold:9d} {warm:5d} "
            f"{conditional or '-':>13} {size:>9}"
        )


def main() -> None:
    if not is_postgresql():
        print("bench_reads: skipped, set DATABASE_URL to a PostgreSQL database of your own")
        return
    with bench_database(sqlite_ok=False):
        run()


if __name__ == "__main__":
    main()
