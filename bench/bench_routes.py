"""Every page and API read of the route table at 48 seasons, one user at a time ("every page and
API read at 48 seasons, one user: median under 100 ms and at most
2x the trivial endpoint").

The reads are the ones `tests/test_query_counts.py` counts: its `ROUTES` table names every
route of the URL conf, with the path of its read or the reason it is not a read of the
books (writes, files rendered by WeasyPrint or matplotlib, the schema). This script asks
each counted read of the 48-season club book of bench/bench_import.py (1979 to 2026, about
1,900 evenings and 47,000 games, imported into `test_<DATABASE_URL's database>`, created
here, or reused with --keepdb) as the club's secretary, through the Django test client
with the session (pages and API alike), once to warm up and then REPEATS times, and
prints per read: the status, the median and p90 in ms, the ratio of the median to the
trivial endpoint's (`GET /api/v1/clubs/`), the queries of a warm read, the body's size,
and a mark where a target is missed (median >= 100 ms or ratio > 2). The trivial endpoint
is measured first and again last; the ratio is to the mean of both.

The cast of the route table: the club, its 2026 season, the member with the most ledger
lines (the longest statement and history), the last evening of 2026 and its first game,
the club's latest payment (one is recorded through the services when there is none).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/schock_routes_bench \\
    REDIS_URL=redis://127.0.0.1:6379/6 .venv/bin/python bench/bench_routes.py [--keepdb]

BENCH_REPEATS (default 9) sets the repeats; BENCH_ONLY="statistik,kasse" measures only
the reads whose name or path holds one of these words.
"""

from __future__ import annotations

import os
import statistics
import time

from support import QueryCounter, bench_database, is_postgresql

REPEATS = int(os.environ.get("BENCH_REPEATS", "9"))
ONLY = [w.strip().lower() for w in os.environ.get("BENCH_ONLY", "").split(",") if w.strip()]
LAST = 2026
TRIVIAL = "/api/v1/clubs/"
MEDIAN_TARGET_MS = 100.0
RATIO_TARGET = 2.0


def _measure(client, url: str) -> tuple[int, float, float, int, int]:
    """(status, median ms, p90 ms, queries of a warm read, body bytes) of GET `url`."""
    first = client.get(url)
    with QueryCounter() as warm:
        client.get(url)
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
    return first.status_code, statistics.median(times), p90, warm.count, len(first.content)


def _cast() -> dict:
    """The ids the route table's paths are built from (see the module's docstring)."""
    from decimal import Decimal

    from bench_import import CLUB
    from django.db.models import Count

    from games.evenings.models import Evening, Game
    from league.club.models import Club, Member, Season
    from league.ledger.models import Payment
    from league.ledger.services import payment_record
    from league.sharing.models import WallScreen
    from league.sharing.services import wall_screen_create

    club = Club.objects.get(name=CLUB)
    season = Season.objects.get(club=club, year=LAST)
    person = (
        Member.objects.filter(club=club, kind="member")
        .annotate(n=Count("ledger_entries"))
        .order_by("-n", "pk")
        .first()
    )
    evening = Evening.objects.filter(season=season).order_by("-date", "-pk").first()
    game = Game.objects.filter(evening=evening).order_by("pk").first()
    payment = Payment.objects.filter(member__club=club).order_by("-pk").first()
    if payment is None:
        payment = payment_record(
            member=person, season=season, amount=Decimal("5.00"), paid_on=evening.date
        )
    # A wall screen's link shows its secret once: a screen of an earlier run is replaced.
    WallScreen.objects.filter(club=club, name="Bench").delete()
    return {
        "club": club.pk,
        "season": season.pk,
        "member": person.pk,
        "evening": evening.pk,
        "game": game.pk,
        "payment": payment.pk,
        "person": person,
        "wall": wall_screen_create(club=club, name="Bench")[1],
    }


def run() -> None:
    from bench_import import CLUB, club_book
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client

    from league.club.models import Club, Member
    from league.club.services import member_login_set
    from league.clubbook.services import club_book_import
    from tests.test_query_counts import ROUTES

    print(f"database: {connection.vendor}; cache: {cache.__class__.__name__}")
    if not Club.objects.filter(name=CLUB).exists():  # --keepdb: imported by an earlier run
        attendance, games, _figures = club_book()
        start = time.perf_counter()
        result = club_book_import(club_name=CLUB, attendance=attendance, games=games)
        assert result.ok, result.errors[:5]
        print(f"imported in {time.perf_counter() - start:.1f} s")
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    cast = _cast()
    user, _new = get_user_model().objects.get_or_create(username="bench-secretary")
    for other in Member.objects.filter(user=user).exclude(pk=cast["member"]):
        member_login_set(person=other, user=None)
    person = Member.objects.get(pk=cast["member"])
    person.is_secretary = True
    member_login_set(person=person, user=user, also_saved=["is_secretary"])
    cache.clear()
    client = Client()
    client.force_login(user)
    client.get("/abende/")  # the session's first page sets its CSRF cookie

    reads = [(name, build(cast)) for name, build in ROUTES.items() if build is not None]
    reads = [(n, u) for n, u in reads if u != TRIVIAL]
    if ONLY:
        reads = [(n, u) for n, u in reads if any(w in (n + u).lower() for w in ONLY)]
    _status, before, *_rest = _measure(client, TRIVIAL)
    rows = [(name, url, *_measure(client, url)) for name, url in reads]
    _status, after, p90, warm, size = _measure(client, TRIVIAL)
    trivial = (before + after) / 2
    rows.sort(key=lambda r: -r[3])
    print(
        f"trivial {TRIVIAL}: {before:.1f} ms first, {after:.1f} ms last, mean {trivial:.1f} ms;"
        f" {len(rows)} reads, {REPEATS} repeats each; targets: median < "
        f"{MEDIAN_TARGET_MS:.0f} ms and <= {RATIO_TARGET:.0f}x trivial"
    )
    print("| read | path | status | median | p90 | x trivial | warm queries | body | target |")
    print("|---|---|---|---|---|---|---|---|---|")
    missed = 0
    for name, url, status, median, p90, warm, size in rows:
        ratio = median / trivial
        miss = median >= MEDIAN_TARGET_MS or ratio > RATIO_TARGET
        missed += miss
        print(
            f"| {name} | `{url}` | {status} | {median:.1f} ms | {p90:.1f} ms | {ratio:.2f} |"
            f" {warm} | {size / 1024:.0f} KiB | {'MISSED' if miss else 'ok'} |"
        )
    print(f"{len(rows) - missed} of {len(rows)} reads within both targets; {missed} missed")


def main() -> None:
    if not is_postgresql():
        print("bench_routes: skipped, set DATABASE_URL to a PostgreSQL database of your own")
        return
    with bench_database(sqlite_ok=False):
        run()


if __name__ == "__main__":
    main()
