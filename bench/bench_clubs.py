"""Many clubs in one installation: 1,000 clubs (each 2 seasons of 40 evenings, 25 games an
evening, 12 people) beside the 48-season club of bench/bench_import.py, in one fresh
PostgreSQL database.

What it does:

1. creates `<name>_clubs_bench` beside DATABASE_URL's database (dropped first; `--reuse`
   keeps a filled one), migrates it and imports the 48-season club book through
   `club_book_import` (bulk COPY, as `manage.py import_club_book` does);
2. "alone": gunicorn (`gunicorn.conf.py`, DEBUG off, REDIS_URL passed on) and wrk drive
   the 48-season club's standings page, its evening entry (POST /api/v1/games/: a game
   saved per request, by the API's token), a member's statement and the trivial endpoint
   (GET /api/v1/clubs/);
3. imports `--clubs` generated club books the same way (progress and rate printed);
4. "among N": the same cells for the 48-season club and for a club in the middle of the
   N, then the ratios of the 48-season club among N to it alone (target: within 20 %);
5. prints the database size, the rows of the largest tables and both per club, and the
   Redis memory per club: the cache's `used_memory` before and after reading the pages of
   `--redis-sample` clubs in this process, divided by their number.

The machine is shared: the load average is printed with each phase; compare ratios.

    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/bench_clubs.py \
        [--clubs 1000] [--duration 8] [--connections 16] [--workers 2] [--keep] [--reuse]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_import import FIRST_NAMES, LAST_NAMES  # noqa: E402
from bench_load import (  # noqa: E402
    bench_database_url,
    drop_database,
    ensure_wrk,
    fetch,
    recreate_database,
    setup_django,
    start_gunicorn,
    stop,
    wait_ready,
)
from bench_load import run_wrk as load_wrk  # noqa: E402

PASSWORD = "bench-clubs-Schocken-1979"  # a local throwaway database's logins
SMALL_YEARS = (2025, 2026)
# The evening the game entry saves its games into: a fresh one per phase (a save costs
# more as the evening grows: its charges are brought in line with every game).
ENTRY_DATES = {"alone": datetime.date(2026, 12, 28), "among": datetime.date(2026, 12, 30)}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=1000)
    parser.add_argument("--duration", type=int, default=8, help="seconds per cell (8)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8793)
    parser.add_argument("--redis-sample", type=int, default=20)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--reuse", action="store_true")
    return parser.parse_args()


def small_club_book(seed: int) -> tuple[bytes, bytes]:
    """(attendance CSV, games CSV) of one generated club: 12 people, 2 seasons of 40
    Friday evenings, 10 to 12 present, 25 games an evening, a Schock-Aus now and then."""
    rng = random.Random(seed)
    names = rng.sample([f"{f} {last}" for last in LAST_NAMES for f in FIRST_NAMES], 12)
    attendance = ["date,name,role"]
    games = ["date,number,loser,schock_aus"]
    for year in SMALL_YEARS:
        first = datetime.date(year, 1, 2)
        fridays = [first + datetime.timedelta(days=d) for d in range(360)]
        fridays = [d for d in fridays if d.weekday() == 4 and d.year == year]
        for day in sorted(rng.sample(fridays, 40)):
            present = sorted(rng.sample(names, rng.randint(10, 12)))
            secretary = rng.choice(present)
            date = day.isoformat()
            for name in names:
                role = "absent" if name not in present else "member"
                role = "secretary" if name == secretary else role
                attendance.append(f"{date},{name},{role}")
            for number in range(1, 26):
                throwers = [rng.choice(present)] if rng.random() < 0.15 else []
                loser = rng.choice([p for p in present if p not in throwers])
                games.append(f"{date},{number},{loser},{';'.join(throwers)}")
    encode = lambda lines: ("\r\n".join(lines) + "\r\n").encode("utf-8")  # noqa: E731
    return encode(attendance), encode(games)


def import_club(name: str, attendance: bytes, games: bytes) -> None:
    from league.clubbook.services import club_book_import

    result = club_book_import(club_name=name, attendance=attendance, games=games)
    assert result.ok, (name, result.errors[:3])


def club_target(club_name: str, username: str, entry_date: datetime.date) -> dict:
    """The club's secretary with a login, an API token, a session cookie, a fresh evening
    of the last season for the game entry, and the cells' URLs."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db.models import Count
    from django.middleware.csrf import _get_new_csrf_string
    from django.test import Client

    from games.evenings.models import Evening
    from games.evenings.services import evening_create
    from league.club.accounts.services import api_token_create
    from league.club.models import Club, Member, Season

    club = Club.objects.get(name=club_name)
    season = Season.objects.filter(club=club).order_by("-year").first()
    assert season is not None
    people = list(
        Member.objects.filter(club=club, kind="member")
        .annotate(n=Count("attendances"))
        .order_by("-n", "pk")[:3]
    )
    secretary = people[0]
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        user = get_user_model().objects.create_user(username, password=PASSWORD)
    Member.objects.filter(pk=secretary.pk).update(user=user, is_secretary=True)
    evening = Evening.objects.filter(club=club, date=entry_date).first()
    if evening is None:
        evening = evening_create(
            club=club, date=entry_date, secretary=secretary, present_members=people
        )
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    csrf = f"{settings.CSRF_COOKIE_NAME}={_get_new_csrf_string()}"
    return {
        "club": club.pk,
        "token": api_token_create(user=user)[1],
        "cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}; {csrf}",
        "standings": f"/saison/{season.year}/",
        "statement": f"/api/v1/members/{people[1].pk}/statement/?season={season.pk}",
        "game": json.dumps({"evening": evening.pk, "loser": people[2].pk}),
    }


def run_wrk(wrk: str, args, url: str, headers: dict[str, str], body: str | None = None) -> dict:
    """One wrk run (bench_load's), with its rate (requests a second) and errors added."""
    figures = load_wrk(wrk, args, url, headers, body)
    figures["rate"] = figures["requests"] / (figures["duration_us"] / 1e6)
    figures["errors"] = sum(figures[k] for k in ("connect", "read", "write", "status", "timeout"))
    return figures


def measure(wrk: str, args, env: dict, targets: dict[str, dict], label: str) -> dict:
    """Start gunicorn, drive each target's cells, stop. {(target, cell): figures}."""
    log = Path(tempfile.mkdtemp(prefix="bench-clubs-")) / "gunicorn.log"
    gargs = argparse.Namespace(port=args.port, workers=args.workers)
    process = start_gunicorn(gargs, env, log)
    base = f"http://127.0.0.1:{args.port}"
    results = {}
    try:
        wait_ready(base, process, log)
        print(f"{label}: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        for name, t in targets.items():
            api = {"Authorization": f"Token {t['token']}"}
            json_api = {**api, "Content-Type": "application/json"}
            cells = [
                ("trivial GET /api/v1/clubs/", "/api/v1/clubs/", api, None),
                ("standings page", t["standings"], {"Cookie": t["cookie"]}, None),
                ("statement API", t["statement"], api, None),
                ("evening entry (POST a game)", "/api/v1/games/", json_api, t["game"]),
            ]
            for cell, path, headers, body in cells:
                if body is None:
                    status = fetch(base, path, headers)[0]
                    if status != 200:
                        raise SystemExit(f"{name} {path} answered {status}")
                figures = run_wrk(wrk, args, base + path, headers, body)
                results[(name, cell)] = figures
                print(
                    f"  {name:24} {cell:28} {figures['rate']:8.1f} req/s  p50 "
                    f"{figures['p50_us'] / 1000:6.1f} ms  errors {figures['errors']}",
                    flush=True,
                )
    finally:
        stop(process)
    return results


def database_figures() -> tuple[int, dict[str, int]]:
    """(database size in bytes, {table: live rows}) after ANALYZE."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("SELECT pg_database_size(current_database())")
        size = cursor.fetchone()[0]
        cursor.execute("SELECT relname, n_live_tup FROM pg_stat_user_tables")
        rows = dict(cursor.fetchall())
    return size, rows


def sizes(n_clubs: int, size_alone: int, rows_alone: dict[str, int]) -> None:
    """The database's growth by the `n_clubs` clubs: in all and per club, by table."""
    size, rows = database_figures()
    grown = size - size_alone
    print(
        f"\ndatabase {size / 2**20:,.0f} MiB ({size_alone / 2**20:,.0f} MiB with the "
        f"48-season club alone); the {n_clubs:,} clubs added {grown / 2**20:,.0f} MiB, "
        f"{grown / n_clubs / 1024:,.0f} KiB per club"
    )
    added = sorted(((rows[t] - rows_alone.get(t, 0), t) for t in rows), reverse=True)[:10]
    print("| table | rows added | per club |")
    print("|---|---|---|")
    for count, table in added:
        print(f"| {table} | {count:,} | {count / n_clubs:,.0f} |")


def redis_per_club(sample: list[str]) -> None:
    """The cache's memory growth per club when five pages of each of `sample`'s clubs are
    read once, by its secretary (in this process, through the configured cache)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    if not settings.REDIS_URL:
        print("Redis memory per club: skipped (no REDIS_URL)")
        return
    import redis

    users = [
        get_user_model().objects.get(username=f"bench-r{i}")
        for i, name in enumerate(sample)
        if club_target(name, f"bench-r{i}", ENTRY_DATES["among"])
    ]
    cache_redis = redis.Redis.from_url(settings.REDIS_CACHE_URL)
    cache_redis.flushdb()
    before = cache_redis.info("memory")["used_memory"]
    for user in users:
        client = Client()
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        for path in ("/", "/saison/2026/", "/abende/", "/kasse/", "/statistik/"):
            # secure: the session cookie is Secure with DEBUG off, as behind the TLS proxy
            status = client.get(path, secure=True).status_code
            assert status == 200, (path, status)
    after = cache_redis.info("memory")["used_memory"]
    keys = cache_redis.dbsize()
    print(
        f"\nRedis (cache) after reading 5 pages of {len(users)} clubs: "
        f"{(after - before) / len(users) / 1024:,.0f} KiB per club, "
        f"{keys / len(users):,.0f} keys per club"
    )


def server_env(url: str) -> dict[str, str]:
    """The environment of the measured server: production settings on the bench's
    database, no throttling; Redis when REDIS_URL is set."""
    env = {
        "DATABASE_URL": url,
        "DEBUG": "false",
        "SECRET_KEY": "bench-clubs-only-" + os.urandom(16).hex(),
        "ALLOWED_HOSTS": "127.0.0.1,testserver",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "ERROR",
        "API_THROTTLE_USER": "1000000/min",
        "API_THROTTLE_ADDRESS": "1000000/min",
    }
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = os.environ["REDIS_URL"]
    return env


def import_small_clubs(clubs: int) -> list[str]:
    """The small clubs imported (those an earlier run left are kept); returns their names."""
    from league.club.models import Club

    names = [f"Bench-Club {i:04d}" for i in range(clubs)]
    have = set(Club.objects.filter(name__in=names).values_list("name", flat=True))
    start = time.perf_counter()
    for i, name in enumerate(names):
        if name not in have:
            import_club(name, *small_club_book(i))
        if (i + 1) % 50 == 0:
            rate = (i + 1) / (time.perf_counter() - start)
            print(f"  {i + 1:,} clubs imported ({rate:.1f} clubs/s)", flush=True)
    print(f"{clubs:,} clubs in {time.perf_counter() - start:,.0f} s")
    return names


def print_comparison(clubs: int, alone: dict, among: dict) -> None:
    """The table: each cell's requests/s alone and among the clubs, and of a small club."""
    print(
        f"\n| cell | 48-season alone req/s | 48-season among {clubs:,} req/s | "
        f"ratio | club among {clubs:,} req/s |"
    )
    print("|---|---|---|---|---|")
    for (target, cell), figures in alone.items():
        other = among[(target, cell)]
        small = among[(f"club among {clubs:,}", cell)]
        ratio = other["rate"] / figures["rate"]
        flag = "" if ratio >= 0.8 else " (more than 20 % slower)"
        print(
            f"| {cell} | {figures['rate']:,.1f} | {other['rate']:,.1f} | "
            f"{ratio:.2f}{flag} | {small['rate']:,.1f} |"
        )


def main() -> None:
    args = parse_args()
    url = bench_database_url("_clubs_bench")
    if not url:
        print("bench_clubs: skipped, set DATABASE_URL to PostgreSQL")
        return
    wrk = ensure_wrk()
    env = server_env(url)
    if not args.reuse:
        recreate_database(url)
    try:
        setup_django(env)
        from bench_import import CLUB, club_book
        from django.core.management import call_command
        from django.db import connection, connections

        from league.club.models import Club

        call_command("migrate", verbosity=0)
        if not Club.objects.filter(name=CLUB).exists():
            attendance, games, _figures = club_book()
            import_club(CLUB, attendance, games)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        targets = {"48-season club": club_target(CLUB, "bench-big", ENTRY_DATES["alone"])}
        size_alone, rows_alone = database_figures()
        connections.close_all()
        alone = measure(wrk, args, env, targets, "48-season club alone")

        names = import_small_clubs(args.clubs)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        middle = names[len(names) // 2]
        targets = {
            "48-season club": club_target(CLUB, "bench-big", ENTRY_DATES["among"]),
            f"club among {args.clubs:,}": club_target(middle, "bench-middle", ENTRY_DATES["among"]),
        }
        connections.close_all()
        among = measure(wrk, args, env, targets, f"among {args.clubs:,} clubs")

        print_comparison(args.clubs, alone, among)
        sizes(args.clubs, size_alone, rows_alone)
        redis_per_club(names[: args.redis_sample])
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # Django may not be set up yet
            pass
        if not args.keep:
            drop_database(url)


if __name__ == "__main__":
    main()
