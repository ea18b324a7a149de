"""Redis memory of the kept reads per write, at steady state.

Loads the demo club (`manage.py demo`: a few seasons of evenings) into a throw-away
database, empties the cache's Redis database, and reads a set of kept pages and API reads
as the secretary (the warm-up). Then, WRITES times: one write of the books (a payment of
1 EUR through `payment_record`, which ends in the books-changed event) followed by every
read again, as a club does between two writes. After each round it counts the cache
database's keys (DBSIZE) and their bytes (the sum of MEMORY USAGE over its keys: the
figure of this database alone; INFO memory's used_memory, printed beside it, is the whole
Redis instance's and moves with anyone else's databases).

Prints keys and bytes before the first write and after the last, and the growth per write
(target: under 50 KB). `--keep-old` leaves the superseded versions' keys in place (what
the cache did before a version move dropped them) for the comparison.

The cache must be a Redis database of the bench's own (it is emptied):

    REDIS_URL=redis://127.0.0.1:6379/14 REDIS_CACHE_URL=redis://127.0.0.1:6379/15 \\
        .venv/bin/python bench/bench_cache_memory.py [--keep-old]
"""

from __future__ import annotations

import datetime
import os
import sys
from decimal import Decimal

from support import bench_database

WRITES = int(os.environ.get("BENCH_WRITES", "20"))


def _reads(club, season_year: int, season_id: int, member_id: int) -> list[str]:
    return [
        "/",
        "/abende/",
        f"/saison/{season_year}/",
        "/ewige-tabelle/",
        "/kasse/",
        f"/kasse/konto/{member_id}/",
        "/runden/",
        "/statistik/saisons/",
        "/statistik/rekorde/",
        "/api/v1/seasons/",
        f"/api/v1/seasons/{season_id}/standings/",
        "/api/v1/standings/all-time/",
        "/api/v1/balances/",
        f"/api/v1/members/{member_id}/statement/",
        "/api/v1/statistics/records/",
    ]


def _cache_client():
    from django.core.cache import cache

    return cache._cache.get_client(None, write=True)  # type: ignore[attr-defined]


def _measure() -> tuple[int, int, int]:
    """(keys, bytes of the cache database's keys, used_memory of the instance)."""
    client = _cache_client()
    size = sum(client.memory_usage(key) or 0 for key in client.scan_iter(count=1000))
    return client.dbsize(), size, client.info("memory")["used_memory"]


def run(*, keep_old: bool) -> None:
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client
    from django.utils import timezone

    import league.club.books
    from league.club.models import Club, Member
    from league.club.selectors import club_current_season
    from league.ledger.services import payment_record

    if keep_old:
        league.club.books.kept_reads_superseded = lambda **_kwargs: None  # type: ignore[assignment]
    from league.management.commands.demo import CLUB

    with open(os.devnull, "w") as quiet:
        call_command("demo", stdout=quiet)
    club = Club.objects.get(name=CLUB)
    secretary = Member.objects.get(club=club, user__username="sekretaer")
    payer = Member.objects.get(club=club, user__username="anna")
    season = club_current_season(club=club)
    client = Client()
    client.force_login(secretary.user)
    client.get("/abende/")  # the CSRF cookie: pages get their ETags
    reads = _reads(club, season.year, season.pk, payer.pk)
    cache.clear()

    def read_all() -> None:
        for url in reads:
            response = client.get(url)
            if response.status_code != 200:
                raise SystemExit(f"bench_cache_memory: {url} answered {response.status_code}")

    read_all()
    read_all()
    keys0, bytes0, used0 = _measure()
    for n in range(WRITES):
        payment_record(
            member=payer,
            amount=Decimal("1.00"),
            paid_on=timezone.localdate() - datetime.timedelta(days=n % 3),
            note=f"bench {n}",
        )
        read_all()
    keys1, bytes1, used1 = _measure()
    mode = "old versions kept (--keep-old)" if keep_old else "old versions dropped on a move"
    print(f"bench_cache_memory: {len(reads)} reads, {WRITES} writes, {mode}")
    mb = 1024 * 1024
    for label, keys, size, used in (
        ("before", keys0, bytes0, used0),
        ("after", keys1, bytes1, used1),
    ):
        print(
            f"  {label:6} the writes: {keys:6d} keys {size / 1024:10.1f} KB"
            f" (instance {used / mb:.1f} MB)"
        )
    print(
        f"  per write:         {(keys1 - keys0) / WRITES:6.1f} keys "
        f"{(bytes1 - bytes0) / WRITES / 1024:10.1f} KB (target under 50 KB)"
    )


def main() -> None:
    if not os.environ.get("REDIS_URL"):
        print(
            "bench_cache_memory: skipped, set REDIS_URL and REDIS_CACHE_URL (databases of its own)"
        )
        return
    with bench_database(sqlite_ok=True):
        run(keep_old="--keep-old" in sys.argv)


if __name__ == "__main__":
    main()
