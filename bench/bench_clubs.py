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
3. imports `--clubs` generated club books, `--batch` (100) at a time with one COPY per
   table for the batch (`import_club_batch`; progress and rate printed);
4. "among N": the same cells for the 48-season club and for a club in the middle of the
   N, then the ratios of the 48-season club among N to it alone (target: within 20 %);
   after each phase's wrk cells, the read cells' CPU per request in this process
   (`cpu_per_cell`), which the machine's other load moves far less than wrk's figures;
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
    ensure_wrk,
    fetch,
    recreate_database,
    release_database,
    setup_django,
    start_gunicorn,
    stop,
    wait_ready,
)
from bench_load import run_wrk as load_wrk  # noqa: E402
from support import NEVER_THROTTLED  # noqa: E402

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
    parser.add_argument("--batch", type=int, default=100, help="clubs per import (100)")
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
    from league.club.accounts.backends import LOGIN_BACKEND
    from league.club.accounts.services import api_token_create
    from league.club.models import Club, Member, Season
    from league.club.services import member_login_set

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
    secretary.is_secretary = True
    member_login_set(person=secretary, user=user, also_saved=["is_secretary"])
    evening = Evening.objects.filter(club=club, date=entry_date).first()
    if evening is None:
        evening = evening_create(
            club=club, date=entry_date, secretary=secretary, present_members=people
        )
    client = Client()
    client.force_login(user, backend=LOGIN_BACKEND)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    csrf = f"{settings.CSRF_COOKIE_NAME}={_get_new_csrf_string()}"
    return {
        "club": club.pk,
        "token": api_token_create(user=user)[1],
        "cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}; {csrf}",
        "standings": f"/saison/{season.year}/",
        "statement": f"/api/v1/members/{people[1].pk}/statement/?season={season.pk}",
        # Past the evening's target (games per present member) a game is refused with
        # `evening_target_reached` (409) unless confirmed: the bench saves hundreds.
        "game": json.dumps({"evening": evening.pk, "loser": people[2].pk, "beyond_target": True}),
    }


def run_wrk(wrk: str, args, url: str, headers: dict[str, str], body: str | None = None) -> dict:
    """One wrk run (bench_load's), with its rate (requests a second answered 2xx or 3xx)
    and errors added."""
    figures = load_wrk(wrk, args, url, headers, body)
    figures["errors"] = sum(figures[k] for k in ("connect", "read", "write", "status", "timeout"))
    # Answers that were not refused (a refused game entry is cheaper than a saved one).
    answered = figures["requests"] - figures["status"]
    figures["rate"] = answered / (figures["duration_us"] / 1e6)
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


def cpu_per_cell(targets: dict[str, dict], results: dict, count: int = 200) -> None:
    """Add to each read cell of `results` the CPU milliseconds per request of this process
    (`cpu_ms`): the cell's URL called `count` times through the WSGI handler
    (bench/bench_api_profile.py's caller), after a warm-up, median of 5 blocks. What the
    worker's CPU spends, apart from the machine's other load (which wrk's figures carry)."""
    import statistics

    from bench_api_profile import caller, cpu_per_request
    from django.core.wsgi import get_wsgi_application
    from django.db import connections

    application = get_wsgi_application()
    for name, t in targets.items():
        api = {"Authorization": f"Token {t['token']}"}
        cells = {
            "trivial GET /api/v1/clubs/": ("/api/v1/clubs/", api),
            "standings page": (t["standings"], {"Cookie": t["cookie"]}),
            "statement API": (t["statement"], api),
        }
        for cell, (path, headers) in cells.items():
            call = caller(application, path, headers)
            for _ in range(10):
                call()
            blocks = [cpu_per_request(call, count // 5) for _ in range(5)]
            results[(name, cell)]["cpu_ms"] = statistics.median(blocks)
            print(f"  {name:24} {cell:28} {results[(name, cell)]['cpu_ms']:8.2f} ms CPU")
    connections.close_all()


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

    from league.club.accounts.backends import LOGIN_BACKEND

    if not settings.REDIS_URL:
        print("Redis memory per club: skipped (no REDIS_URL)")
        return
    import redis

    users = [
        get_user_model().objects.get(username=f"bench-r{i}")
        for i, name in enumerate(sample)
        if club_target(name, f"bench-r{i}", ENTRY_DATES["among"])
    ]
    if not users:
        print("Redis memory per club: skipped (--redis-sample 0)")
        return
    cache_redis = redis.Redis.from_url(settings.REDIS_CACHE_URL)
    cache_redis.flushdb()
    before = cache_redis.info("memory")["used_memory"]
    for user in users:
        client = Client()
        client.force_login(user, backend=LOGIN_BACKEND)
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
        **NEVER_THROTTLED,
    }
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = os.environ["REDIS_URL"]
    return env


class _Collected:
    """The rows that the club book import's bulk writers (league/clubbook/services.py:
    `_insert_rows`, `_insert_schock_aus`, `_insert_game_charges`, `_record_history`) are
    handed while `patches` are started, kept to be written once per table for a batch of
    clubs. `writers` holds the real writers."""

    def __init__(self, book) -> None:
        from types import SimpleNamespace
        from unittest import mock

        self.writers = SimpleNamespace(
            rows=book._insert_rows,
            schock_aus=book._insert_schock_aus,
            game_charges=book._insert_game_charges,
            history=book._record_history,
        )
        self.rows: dict[type, list] = {}
        self.throws: list[tuple[int, int, int, int]] = []
        self.charges = SimpleNamespace(season_of={}, evening_ids={}, statutes={}, money={})
        self.patches = [
            mock.patch.object(book, "_insert_rows", self.collect_rows),
            mock.patch.object(
                book, "_insert_schock_aus", lambda _clubs, some: self.throws.extend(some)
            ),
            mock.patch.object(book, "_insert_game_charges", self.collect_game_charges),
            mock.patch.object(book, "_record_history", lambda queryset, history: None),
        ]

    def collect_rows(self, model, model_rows) -> None:
        self.rows.setdefault(model, []).extend(model_rows)

    def collect_game_charges(self, batch, statutes_of, money) -> int:
        for season in batch.season_of.values():
            self.charges.season_of[season.pk] = season
        self.charges.evening_ids.update({pk: pk for pk in batch.evening_ids.values()})
        self.charges.statutes.update(statutes_of)
        self.charges.money.update(money)
        return 0


def _collect_books(book, batches: list, collected: _Collected) -> None:
    """Run the import's steps for each club of `batches` with the writers collecting; the
    evenings alone are written at once (the later rows need their keys)."""
    from games.evenings.models import Evening

    club_ids = [b.club.pk for b in batches]
    for collector in collected.patches:
        collector.start()
    try:
        for b in batches:
            book._create_members(b)
            errors: list = []
            book._seasons_of(b, "club-book-attendance.csv", errors)
            assert not errors, errors[:3]
            book._write_evenings(b)  # rows collected; their keys are read below
        collected.writers.rows(Evening, collected.rows.pop(Evening))
        evening_ids: dict[int, dict] = {pk: {} for pk in club_ids}
        for club_id, date, pk in Evening.objects.filter(club_id__in=club_ids).values_list(
            "club_id", "date", "pk"
        ):
            evening_ids[club_id][date] = pk
        for b in batches:
            b.evening_ids = evening_ids[b.club.pk]
            book._write_attendance(b)
            book._write_games(b)
            book._write_charges(b, [])
    finally:
        for collector in collected.patches:
            collector.stop()


def _write_collected(book, club_ids: list[int], collected: _Collected, history: dict) -> None:
    """Write the collected rows once per table, then their audit-trail records, and
    ANALYZE the tables written."""
    from games.evenings.models import Attendance, Evening, Game, SchockAus
    from league.club.database import tables_analyze
    from league.club.models import Member
    from league.ledger.models import LedgerEntry

    rows, writers = collected.rows, collected.writers
    writers.rows(Attendance, rows.pop(Attendance))
    writers.rows(Game, rows.pop(Game))
    writers.schock_aus(club_ids, collected.throws)
    writers.rows(LedgerEntry, rows.pop(LedgerEntry, []))
    writers.game_charges(collected.charges, collected.charges.statutes, collected.charges.money)
    assert not rows, f"rows of {list(rows)} not written"
    in_clubs = {"club_id__in": club_ids}
    of_evenings = {"evening__club_id__in": club_ids}
    for queryset in (
        Member.objects.filter(**in_clubs),
        Evening.objects.filter(**in_clubs),
        Attendance.objects.filter(**of_evenings),
        Game.objects.filter(**of_evenings),
        SchockAus.objects.filter(game__evening__club_id__in=club_ids),
        LedgerEntry.objects.filter(**in_clubs),
    ):
        writers.history(queryset, history)
    tables_analyze(tables=book._written_tables())


def import_club_batch(books: list[tuple[str, bytes, bytes]]) -> None:
    """Import the club books `books` (club name, attendance CSV, games CSV; new clubs) in
    one transaction, writing the rows `club_book_import` writes for each of them (clubs,
    people, seasons, evenings, attendance, games, Schock-Aus, ledger charges, each with
    its audit-trail record, the books' versions moved) with one COPY or INSERT ... SELECT
    per table for all of them instead of one per club.

    The rows are built by the import's own steps (league/clubbook/services.py: its
    parsing, `_create_members`, `_seasons_of`, `_write_evenings`, `_write_attendance`,
    `_write_games`, `_write_charges`), club by club, with its bulk writers replaced for
    the while by collectors (`_Collected`); the collected rows are then written by those
    same writers once per table. What is left out is only the import's result (its
    recomputed totals, a read). A club per call took 6.7 s on a loaded machine (its
    statements and the ANALYZE of every table it wrote, for a few thousand rows)."""
    from django.db import transaction

    from league.club.books import books_changed
    from league.clubbook import services as book

    parsed = []
    for name, attendance, games in books:
        evenings, errors = book.club_book_parse(attendance=attendance, games=games)
        assert not errors, (name, errors[:3])
        parsed.append((name, evenings))
    history = {"default_user": None, "default_change_reason": book.IMPORT_REASON}
    collected = _Collected(book)
    with transaction.atomic():
        batches = []
        for name, evenings in parsed:
            club, created = book._import_club(name, history)
            assert created, f"{name} exists already"
            batches.append(book._Batch(club, list(evenings.values()), {}, history))
        _collect_books(book, batches, collected)
        _write_collected(book, [b.club.pk for b in batches], collected, history)
        for b in batches:
            for season_id in {s.pk for s in b.season_of.values()}:
                books_changed(season_id=season_id, reason="club_book_import")


def import_small_clubs(clubs: int, batch: int) -> list[str]:
    """The small clubs imported `batch` at a time (`import_club_batch`; those an earlier
    run left are kept); prints the rate. Returns their names."""
    from league.club.models import Club

    names = [f"Bench-Club {i:04d}" for i in range(clubs)]
    have = set(Club.objects.filter(name__in=names).values_list("name", flat=True))
    missing = [i for i, name in enumerate(names) if name not in have]
    start = time.perf_counter()
    for done in range(0, len(missing), batch):
        chunk = missing[done : done + batch]
        import_club_batch([(names[i], *small_club_book(i)) for i in chunk])
        seconds = time.perf_counter() - start
        print(
            f"  {done + len(chunk):,} of {len(missing):,} clubs imported in {seconds:,.0f} s "
            f"({(done + len(chunk)) / seconds:.1f} clubs/s; load average "
            f"{os.getloadavg()[0]:.1f})",
            flush=True,
        )
    print(f"{len(missing):,} clubs imported in {time.perf_counter() - start:,.0f} s")
    return names


def print_comparison(clubs: int, alone: dict, among: dict) -> None:
    """The tables: each cell's requests/s alone and among the clubs, and of a small club;
    then the read cells' CPU per request (`cpu_per_cell`) alike."""
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
    print(
        f"\n| cell | 48-season alone CPU ms | 48-season among {clubs:,} CPU ms | "
        f"among / alone | club among {clubs:,} CPU ms |"
    )
    print("|---|---|---|---|---|")
    for (target, cell), figures in alone.items():
        if "cpu_ms" not in figures:
            continue
        other = among[(target, cell)]["cpu_ms"]
        small = among[(f"club among {clubs:,}", cell)]["cpu_ms"]
        ratio = other / figures["cpu_ms"]
        flag = "" if ratio <= 1.25 else " (more than 20 % slower)"
        print(
            f"| {cell} | {figures['cpu_ms']:.2f} | {other:.2f} | {ratio:.2f}{flag} | {small:.2f} |"
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
        cpu_per_cell(targets, alone)

        names = import_small_clubs(args.clubs, args.batch)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        middle = names[len(names) // 2]
        targets = {
            "48-season club": club_target(CLUB, "bench-big", ENTRY_DATES["among"]),
            f"club among {args.clubs:,}": club_target(middle, "bench-middle", ENTRY_DATES["among"]),
        }
        connections.close_all()
        among = measure(wrk, args, env, targets, f"among {args.clubs:,} clubs")
        cpu_per_cell(targets, among)

        print_comparison(args.clubs, alone, among)
        sizes(args.clubs, size_alone, rows_alone)
        redis_per_club(names[: args.redis_sample])
    finally:
        release_database(url, keep=args.keep)


if __name__ == "__main__":
    main()
