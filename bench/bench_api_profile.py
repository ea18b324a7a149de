"""CPU time per request of the trivial API endpoint and of the bare Django view, in one
process through the WSGI handler (no server, no network): what a request costs the
worker's CPU, which wall-clock figures under load (wrk on a shared machine) cannot say.

Both URLs of bench_gunicorn.py are called N times each (alternating in blocks, after a
warm-up): the anchor `/bench/bare/` (a bare view behind the app's whole middleware,
bench/anchor_urls.py) and `GET /api/v1/clubs/` with an API token. The production settings
(DEBUG off, CONN_MAX_AGE as in production) on PostgreSQL; Redis as cache when REDIS_URL
is set. Prints the process CPU time per request (ms, median of the blocks) of each, their
ratio, and with --profile the top functions of a cProfile run of the trivial endpoint
(cumulative and own time).

Needs PostgreSQL (DATABASE_URL: a database `<name>_api_profile` is created beside it and
dropped at the end, unless --keep).

    .venv/bin/python bench/bench_api_profile.py [--requests 500] [--profile] [--top 40]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_gunicorn import CELLS, fill, server_env  # noqa: E402
from bench_load import (  # noqa: E402
    bench_database_url,
    recreate_database,
    release_database,
    setup_django,
)

TRIVIAL = "GET /api/v1/clubs/"
#: The steps from the bare view to the trivial endpoint (bench_gunicorn's cells, their
#: anchors in bench/anchor_urls.py), each with the token sent: DRF alone, DRF with the
#: app's token and permission, then the endpoint itself (adding the throttle and the
#: club's serializer).
STEPS = {
    "DRF view, no auth": CELLS["drf"][0],
    "DRF view, token and permission": CELLS["drf-token"][0],
    TRIVIAL: CELLS["trivial"][0],
}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=500, help="per URL (500)")
    parser.add_argument("--blocks", type=int, default=10, help="alternating blocks (10)")
    parser.add_argument("--profile", action="store_true", help="cProfile the trivial endpoint")
    parser.add_argument("--profile-bare", action="store_true", help="cProfile the bare view")
    parser.add_argument("--profile-step", choices=list(STEPS), help="cProfile one step")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--reuse", action="store_true", help="the kept database as it is")
    return parser.parse_args()


def make_environ(path: str, headers: dict[str, str]) -> dict:
    """A WSGI environ of `GET path` (a query string after `?`) from 127.0.0.1 as gunicorn
    would pass it (behind no proxy: the bench server's settings)."""
    path, _, query = path.partition("?")
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8792",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8792",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for name, value in headers.items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ


def caller(application, path: str, headers: dict[str, str]):
    """A function that sends one request and checks its status is 200."""

    def call() -> None:
        statuses: list[str] = []
        environ = make_environ(path, headers)
        body = application(environ, lambda status, _headers, *_: statuses.append(status))
        for _chunk in body:
            pass
        if hasattr(body, "close"):
            body.close()
        if not statuses[0].startswith("200"):
            raise SystemExit(f"{path} answered {statuses[0]}")

    return call


def cpu_per_request(call, count: int) -> float:
    """Process CPU milliseconds per request over `count` requests."""
    start = time.process_time()
    for _ in range(count):
        call()
    return (time.process_time() - start) * 1000 / count


def profile(call, count: int, top: int, title: str) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(count):
        call()
    profiler.disable()
    for order in ("cumulative", "tottime"):
        print(f"\n--- {title}: {count} requests, by {order} ---")
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(top)
        print(out.getvalue())


def reused_token() -> str:
    """A new API token of the login of the reused database's first token."""
    from knox.models import AuthToken

    from league.club.accounts.services import api_token_create

    user = AuthToken.objects.order_by("pk").first().user  # type: ignore[union-attr]
    return api_token_create(user=user)[1]


def main() -> None:
    args = parse_args()
    url = bench_database_url("_api_profile")
    if not url:
        print("bench_api_profile: skipped, set DATABASE_URL to PostgreSQL")
        return
    env = server_env(url)
    if os.environ.get("BENCH_SETTINGS"):  # another settings module (experiments)
        env["DJANGO_SETTINGS_MODULE"] = os.environ["BENCH_SETTINGS"]
    if not args.reuse:
        recreate_database(url)
    try:
        setup_django(env)
        token = reused_token() if args.reuse else fill()
        from django.core.wsgi import get_wsgi_application

        application = get_wsgi_application()
        auth = {"Authorization": f"Token {token}"}
        calls = {name: caller(application, path, auth) for name, path in STEPS.items()}
        calls["bare view"] = caller(application, CELLS["bare"][0], {})
        for call in calls.values():  # warm-up: imports, connections, caches
            for _ in range(50):
                call()
        per_block = max(1, args.requests // args.blocks)
        figures: dict[str, list[float]] = {name: [] for name in calls}
        for block in range(args.blocks):
            order = list(calls) if block % 2 else list(reversed(calls))
            for name in order:
                figures[name].append(cpu_per_request(calls[name], per_block))
        medians = {name: statistics.median(values) for name, values in figures.items()}
        bare, trivial = medians["bare view"], medians[TRIVIAL]
        print(
            f"{per_block * args.blocks} requests each, {args.blocks} blocks alternating; "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
            f"cache {'Redis' if env.get('REDIS_URL') else 'local memory'}"
        )
        print("| view | CPU ms per request (median of blocks) | min-max | bare / view |")
        print("|---|---|---|---|")
        for name in ("bare view", *STEPS):
            values = figures[name]
            print(
                f"| {name} | {medians[name]:.2f} | {min(values):.2f}-{max(values):.2f} "
                f"| {bare / medians[name]:.0%} |"
            )
        print(
            f"bare / trivial CPU (the requests/s ratio one core could reach): {bare / trivial:.0%}"
        )
        if args.profile:
            profile(calls[TRIVIAL], args.requests, args.top, TRIVIAL)
        if args.profile_step:
            profile(calls[args.profile_step], args.requests, args.top, args.profile_step)
        if args.profile_bare:
            profile(calls["bare view"], args.requests, args.top, "bare view")
    finally:
        release_database(url, keep=args.keep)


if __name__ == "__main__":
    main()
