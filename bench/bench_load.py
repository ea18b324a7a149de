"""Load benchmark: gunicorn on a fresh PostgreSQL database with the 48-season history, driven
by `wrk` at 32 concurrent connections from 127.0.0.1.

What it does, in one run:

1. creates a fresh PostgreSQL database (dropped first if it exists; `--database-url`, by
   default `<name>_load_bench` beside DATABASE_URL's database; skipped when DATABASE_URL
   is not PostgreSQL and no `--database-url` is given), migrates it and imports the
   48-season club book of `bench/bench_import.py` through `club_book_import` (about 1,900
   evenings, 47,000 games), then makes one member the club's secretary with a login;
2. starts gunicorn (`-c gunicorn.conf.py` when the repository has that file; bind and
   workers from `--port` / `--workers`, which override the file) in its own process group,
   with DEBUG off and the same DATABASE_URL (and REDIS_URL when given: the cache);
3. checks every URL once (it must answer 200), then drives each one with `wrk` (installed
   with apt-get when missing) for `--duration` seconds at `--connections` connections,
   the API with the secretary's token and the pages with the secretary's session cookie
   (set by a generated Lua script);
   The cells: the trivial endpoint (first and again last), the standings API and page,
   the standings page asked again with its ETag (If-None-Match: 304, no body), the
   evenings and Kasse pages, balances, a member's statement (API and page, all seasons
   and one), a person's history, the statistics pages (one season, all-time records),
   and "open Runden, all seasons";
4. prints a table: requests/s, median and p99 latency (ms), errors (socket errors and
   answers of 400 and above) and the ratios of requests/s and of p99 to the trivial
   endpoint's;
5. stops gunicorn (SIGTERM to its process group, SIGKILL after 10 s) and drops the
   database (unless `--keep`) whatever happened (try/finally).

wrk is a closed loop: each connection sends its next request when the answer is in, so
requests/s falls when a request costs more. Every cell runs alone, one after the other;
the machine's other load shows in the figures (compare ratios, not absolute numbers).

    .venv/bin/python bench/bench_load.py [--duration 10] [--connections 32] [--workers 2]
        [--port 8791] [--database-url postgres://...] [--redis-url redis://...]
        [--only standings] [--keep] [--reuse]

`--reuse` skips the database creation and import when the database already holds the
bench club (for a second run against the same history; without `--keep` it is dropped at
the end all the same).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import NEVER_THROTTLED, operator_scope  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))

USERNAME = "bench-secretary"
CONDITIONAL = "standings page, If-None-Match (304)"
PASSWORD = "bench-load-Schocken-1979"  # a local throwaway database's login, dropped after

# wrk prints this table of its own measurements as one JSON line at the end (Lua `done`).
LUA = """\
wrk.method = "GET"
{headers}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {{"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d,'
    .. ' "connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per cell (10)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (32)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (2)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2)")
    parser.add_argument("--port", type=int, default=8791, help="port on 127.0.0.1 (8791)")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_LOAD_DATABASE_URL", ""),
        help="PostgreSQL database to create and fill (dropped first!); default: "
        "<name>_load_bench on DATABASE_URL's server",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("BENCH_LOAD_REDIS_URL", ""),
        help="REDIS_URL for gunicorn (cache, sessions); none: in-memory cache per worker",
    )
    parser.add_argument("--only", action="append", default=[], help="cells whose name has this")
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    parser.add_argument("--reuse", action="store_true", help="reuse a filled database")
    return parser.parse_args()


def ensure_wrk() -> str:
    """The path of wrk, installing Debian's package when it is missing."""
    path = shutil.which("wrk")
    if path:
        return path
    print("wrk missing: apt-get install -y wrk")
    subprocess.run(["apt-get", "install", "-y", "wrk"], check=True, stdout=subprocess.DEVNULL)
    path = shutil.which("wrk")
    if not path:
        raise SystemExit("wrk could not be installed")
    return path


def admin_dsn(database_url: str) -> tuple[str, str]:
    """(DSN of the server's `postgres` database, name of the bench database)."""
    parts = urllib.parse.urlsplit(database_url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise SystemExit("bench_load needs a PostgreSQL --database-url")
    name = parts.path.lstrip("/")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise SystemExit(f"unusual database name {name!r}")
    return urllib.parse.urlunsplit(parts._replace(path="/postgres")), name


def recreate_database(database_url: str) -> None:
    import psycopg

    dsn, name = admin_dsn(database_url)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(database_url: str) -> None:
    import psycopg

    dsn, name = admin_dsn(database_url)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def release_database(database_url: str, *, keep: bool) -> None:
    """A bench's end: close this process's Django connections (when Django was set up) and
    drop the bench's database unless `keep` (`--keep`)."""
    try:
        from django.db import connections

        connections.close_all()
    except Exception:  # Django may not be set up yet
        pass
    if not keep:
        drop_database(database_url)


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schockclub.settings")
    import django

    django.setup()
    operator_scope()


def fill(reuse: bool) -> None:
    """Migrate and import the 48-season club book (unless `reuse` and it is there)."""
    from bench_import import CLUB, club_book
    from django.core.management import call_command

    from league.club.models import Club

    call_command("migrate", verbosity=0)
    if reuse and Club.objects.filter(name=CLUB).exists():
        print("reusing the filled database")
        return
    from league.clubbook.services import club_book_import

    attendance, games, figures = club_book()
    start = time.perf_counter()
    result = club_book_import(club_name=CLUB, attendance=attendance, games=games)
    assert result.ok, result.errors[:5]
    print(
        f"imported {figures['evenings']:,} evenings, {figures['games']:,} games in "
        f"{time.perf_counter() - start:.1f} s"
    )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def bench_urls(season_id: int, member_id: int) -> dict[str, tuple[str, str]]:
    """The cells: name -> (URL, or candidate URLs split by spaces; auth kind "api" or
    "page"), of the last season and the busiest member."""
    from bench_import import LAST

    return {
        "trivial GET /api/v1/clubs/": ("/api/v1/clubs/", "api"),
        "standings API": (f"/api/v1/seasons/{season_id}/standings/", "api"),
        "standings page": (f"/saison/{LAST}/", "page"),
        "evenings page": ("/abende/", "page"),
        "Kasse page": ("/kasse/", "page"),
        "balances API": ("/api/v1/balances/", "api"),
        # `?season=all` since the statement defaults to the current season; before that,
        # no parameter meant every season (the first URL that answers 200 is measured).
        "statement API, all seasons": (
            f"/api/v1/members/{member_id}/statement/?season=all"
            f" /api/v1/members/{member_id}/statement/",
            "api",
        ),
        "statement API, one season": (
            f"/api/v1/members/{member_id}/statement/?season={season_id}",
            "api",
        ),
        "statement page, one season": (f"/kasse/konto/{member_id}/?saison={LAST}", "page"),
        "statement page, all seasons": (f"/kasse/konto/{member_id}/?saison=alle", "page"),
        "person's history page": (f"/verlauf/person/{member_id}/", "page"),
        "statistics page": ("/statistik/", "page"),
        "season statistics page": (f"/statistik/saisons/?saison={LAST}", "page"),
        "records page (all seasons)": ("/statistik/rekorde/", "page"),
        "all-time standings page": ("/ewige-tabelle/", "page"),
        "all-time standings API": ("/api/v1/standings/all-time/", "api"),
        "open Runden, all seasons": ("/runden/?saison=alle", "page"),
    }


def login_and_urls() -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """Make the busiest member of the last season the secretary with a login. Returns
    ({"page": session cookie header}, {cell name: (url, auth kind "api" or "page")})."""
    from bench_import import CLUB, LAST
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db.models import Count, Q
    from django.test import Client

    from league.club.accounts.backends import LOGIN_BACKEND
    from league.club.models import Club, Member, Season
    from league.club.services import member_login_set

    club = Club.objects.get(name=CLUB)
    season = Season.objects.get(club=club, year=LAST)
    member = (
        Member.objects.filter(club=club, kind="member")
        .annotate(n=Count("attendances", filter=Q(attendances__evening__season=season)))
        .order_by("-n", "pk")
        .first()
    )
    assert member is not None
    user_model = get_user_model()
    user = user_model.objects.filter(username=USERNAME).first()
    if user is None:
        user = user_model.objects.create_user(USERNAME, password=PASSWORD)
    for other in Member.objects.filter(user=user).exclude(pk=member.pk):
        member_login_set(person=other, user=None)
    member.is_secretary = True
    member_login_set(person=member, user=user, also_saved=["is_secretary"])
    client = Client()
    # A session in the configured session store, as the login page makes one.
    client.force_login(user, backend=LOGIN_BACKEND)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    # And a CSRF cookie, as a browser has after its first page: pages send their ETag only
    # to a client that has one (league/club/caching.py, the logout form's token).
    from django.middleware.csrf import _get_new_csrf_string

    csrf = f"{settings.CSRF_COOKIE_NAME}={_get_new_csrf_string()}"
    auth = {"page": f"{settings.SESSION_COOKIE_NAME}={cookie}; {csrf}"}
    return auth, bench_urls(season.pk, member.pk)


def start_gunicorn(args: argparse.Namespace, env: dict[str, str], log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "gunicorn"]
    if (ROOT / "gunicorn.conf.py").exists():
        command += ["-c", str(ROOT / "gunicorn.conf.py")]
    command += [
        "--bind",
        f"127.0.0.1:{args.port}",
        "--workers",
        str(args.workers),
        "schockclub.wsgi",
    ]
    print("starting:", " ".join(command[1:]))
    with log.open("wb") as out:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as one
        )


def stop(process: subprocess.Popen) -> None:
    """SIGTERM to the process group, SIGKILL when it is still there after 10 s."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass


def fetch(base: str, url: str, headers: dict[str, str]) -> tuple[int, int, str]:
    """(status, body bytes, ETag or "") of one GET, redirects not followed."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(base + url, headers=headers)
    try:
        with opener.open(request, timeout=60) as response:
            return response.status, len(response.read()), response.headers.get("ETag", "")
    except urllib.error.HTTPError as error:
        return error.code, 0, error.headers.get("ETag", "") if error.headers else ""


def wait_ready(base: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn stopped at start; its log: {log}")
        try:
            if fetch(base, "/login/", {"Accept": "text/html"})[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer within 60 s; its log: {log}")


def api_token(base: str) -> str:
    """A token from POST /api/v1/auth/token/, as an API client gets one."""
    request = urllib.request.Request(
        base + "/api/v1/auth/token/",
        data=json.dumps({"username": USERNAME, "password": PASSWORD}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())["token"]


def run_wrk(
    wrk: str,
    args: argparse.Namespace,
    url: str,
    headers: dict[str, str],
    body: str | None = None,
) -> dict:
    """One wrk run with these request headers (a POST of `body` when given); its Lua `done`
    prints the figures as JSON (wrk counts a 304 as a success, like any answer below 400).
    Also used by bench_clubs and bench_gunicorn."""
    script_text = LUA.format(
        headers="\n".join(
            f"wrk.headers[{json.dumps(name)}] = {json.dumps(value)}"
            for name, value in headers.items()
        )
    )
    if body is not None:
        script_text = script_text.replace(
            'wrk.method = "GET"', f'wrk.method = "POST"\nwrk.body = {json.dumps(body)}'
        )
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(script_text)
    try:
        output = subprocess.run(
            [
                wrk,
                f"-t{args.threads}",
                f"-c{args.connections}",
                f"-d{args.duration}s",
                "--timeout",
                "30s",
                "-s",
                script.name,
                url,
            ],
            capture_output=True,
            text=True,
            timeout=args.duration + 60,
            check=True,
        ).stdout
    finally:
        os.unlink(script.name)
    line = next(x for x in output.splitlines() if x.startswith("BENCH_JSON "))
    return json.loads(line.removeprefix("BENCH_JSON "))


def bench_database_url(suffix: str) -> str:
    """`<name><suffix>` on the server of DATABASE_URL (a bench's own throwaway database), or
    "" when that is not PostgreSQL. Also used by bench_clubs and bench_gunicorn."""
    url = os.environ.get("DATABASE_URL", "")
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        return ""
    return urllib.parse.urlunsplit(parts._replace(path=f"{parts.path}{suffix}"))


def server_env(args: argparse.Namespace) -> dict[str, str]:
    """The environment of the measured server (production settings on the bench's
    database, never throttled; Redis when given, else none at all)."""
    env = {
        "DATABASE_URL": args.database_url,
        "DEBUG": "false",
        "SECRET_KEY": "bench-load-only-" + os.urandom(16).hex(),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "ERROR",
        **NEVER_THROTTLED,
    }
    if args.redis_url:
        env["REDIS_URL"] = args.redis_url
    else:
        os.environ.pop("REDIS_URL", None)
    return env


def cells_in_order(args: argparse.Namespace, urls: dict) -> list[tuple[str, tuple[str, str]]]:
    """The cells measured, in order: name -> (candidate URLs, "api" or "page")."""
    urls = dict(urls)
    # The standings page once more, asked as a browser asks again: with the ETag it
    # got (If-None-Match), answered 304 without a body.
    at = list(urls).index("standings page") + 1
    items = list(urls.items())
    items.insert(at, (CONDITIONAL, (urls["standings page"][0], "page")))
    cells = {
        name: value
        for name, value in items
        if not args.only or name.startswith("trivial") or any(o in name for o in args.only)
    }
    # The trivial endpoint first and again last: the ratios are to the mean of both, so
    # a change of the machine's other load during the run shows and weighs less.
    first = next(iter(cells))
    return [*cells.items(), (f"{first} (again, last)", cells[first])]


def measure_cell(
    wrk: str, args: argparse.Namespace, base: str, name: str, candidates: str, headers: dict
) -> tuple:
    """One cell: the first candidate URL answering 200 (the conditional cell: 304 with
    its ETag), loaded by wrk. Returns (name, URL, body size, requests/s, figures, errors)."""
    for url in candidates.split():
        status, size, etag = fetch(base, url, headers)  # also warms the caches
        if status == 200:
            break
    else:
        raise SystemExit(f"{name}: {candidates} answered {status}, not 200")
    cell_headers = dict(headers)
    if name == CONDITIONAL:
        if not etag:
            raise SystemExit(f"{name}: {url} sent no ETag")
        cell_headers["If-None-Match"] = etag
        status, size, _etag = fetch(base, url, cell_headers)
        if status != 304:
            raise SystemExit(f"{name}: {url} with its ETag answered {status}, not 304")
    figures = run_wrk(wrk, args, base + url, cell_headers)
    seconds = figures["duration_us"] / 1e6
    errors = sum(figures[k] for k in ("connect", "read", "write", "status", "timeout"))
    print(
        f"  {name}: {figures['requests'] / seconds:.1f} req/s, "
        f"p50 {figures['p50_us'] / 1000:.0f} ms",
        flush=True,
    )
    return (name, url, size, figures["requests"] / seconds, figures, errors)


def main() -> None:
    args = parse_args()
    args.database_url = args.database_url or bench_database_url("_load_bench")
    if not args.database_url:
        print("bench_load: skipped, set DATABASE_URL (or --database-url) to PostgreSQL")
        return
    wrk = ensure_wrk()
    env = server_env(args)
    if not args.reuse:
        recreate_database(args.database_url)
    process = None
    log = Path(tempfile.mkdtemp(prefix="bench-load-")) / "gunicorn.log"
    try:
        setup_django(env)
        fill(args.reuse)
        auth, urls = login_and_urls()
        from django.db import connections

        connections.close_all()
        process = start_gunicorn(args, env, log)
        base = f"http://127.0.0.1:{args.port}"
        wait_ready(base, process, log)
        headers = {
            "api": {"Authorization": f"Token {api_token(base)}"},
            "page": {"Cookie": auth["page"]},
        }
        rows = [
            measure_cell(wrk, args, base, name, candidates, headers[kind])
            for name, (candidates, kind) in cells_in_order(args, urls)
        ]
        print_table(args, rows)
    finally:
        if process is not None:
            stop(process)
            if process.returncode not in (0, -signal.SIGTERM):
                print(f"gunicorn ended with {process.returncode}; log: {log}")
        release_database(args.database_url, keep=args.keep)


def print_table(args: argparse.Namespace, rows: list) -> None:
    trivial = (rows[0][3] + rows[-1][3]) / 2
    trivial_p99 = (rows[0][4]["p99_us"] + rows[-1][4]["p99_us"]) / 2
    print()
    print(
        f"gunicorn {args.workers} workers, wrk {args.connections} connections, "
        f"{args.duration} s a cell, 127.0.0.1; load average at the end "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print("(ratios to the mean of the trivial endpoint's first and last cell)")
    print(
        "| what | URL | body | requests/s | median | p99 | errors | req/s vs trivial "
        "| p99 vs trivial |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, url, size, rate, figures, errors in rows:
        print(
            f"| {name} | `{url}` | {size / 1024:,.0f} KiB | {rate:,.1f} | "
            f"{figures['p50_us'] / 1000:,.0f} ms | {figures['p99_us'] / 1000:,.0f} ms | "
            f"{errors} | {rate / trivial:.2f} | {figures['p99_us'] / trivial_p99:.2f} |"
        )


if __name__ == "__main__":
    main()
