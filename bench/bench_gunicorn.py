"""Gunicorn's worker class and count, by measurement: `sync` vs `gthread` at several
worker (and thread) counts, each driven by `wrk` on two URLs:

- the anchor: `/bench/bare/`, a bare Django view behind the app's whole middleware (no
  database, no template; bench/anchor_urls.py);
- the trivial endpoint: `GET /api/v1/clubs/` with an API token (the token's check, the
  club's row, DRF's rendering): the app's cheapest real answer;
- with `--waiting N`, each cell measured while N clients keep a request waiting 200 ms
  without the CPU (`/bench/wait/`: a slow PostgreSQL query, a slow client) in flight at
  any time: how one worker class answers beside such requests, which the others cannot
  show;
- with `--steps`, the two steps between them (bench/anchor_urls.py): a DRF view with no
  authentication, permission or throttle (`/bench/drf/`, the framework's floor), and that
  view behind the app's token and permission (`/bench/drf-token/`).

The configurations alternate, round after round, so the machine's other load (this one is
shared) weighs on all alike; each round prints the load average, the table gives each
configuration's median over the rounds and the trivial endpoint's ratio to the anchor
(the middleware and framework cost of a real answer).

Needs PostgreSQL (DATABASE_URL: a database `<name>_gunicorn_bench` is created beside it
and dropped at the end) and wrk (`apt-get install -y wrk`); REDIS_URL is passed on
(cache and sessions) when set.

    .venv/bin/python bench/bench_gunicorn.py [--rounds 3] [--duration 8] [--connections 16]
        [--configs sync:2,sync:5,gthread:2x4,gthread:3x4] [--port 8792]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_load import (  # noqa: E402
    bench_database_url,
    ensure_wrk,
    fetch,
    recreate_database,
    release_database,
    run_wrk,
    setup_django,
    stop,
)
from support import NEVER_THROTTLED  # noqa: E402

USERNAME = "bench-secretary"
PASSWORD = "bench-gunicorn-Schocken-1979"  # a local throwaway database's login


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=8, help="seconds per cell (8)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (2)")
    parser.add_argument("--port", type=int, default=8792)
    parser.add_argument(
        "--configs",
        default="sync:2,sync:5,gthread:2x4,gthread:3x4",
        help="class:workers[xthreads], comma separated",
    )
    parser.add_argument("--steps", action="store_true", help="also the DRF steps between")
    parser.add_argument(
        "--waiting", type=int, default=0, help="clients keeping a 200-ms wait in flight (0)"
    )
    parser.add_argument("--keep", action="store_true")
    return parser.parse_args()


#: The cells: name -> (path, whether the token is sent).
CELLS = {
    "bare": ("/bench/bare/", False),
    "drf": ("/bench/drf/", True),
    "drf-token": ("/bench/drf-token/", True),
    "trivial": ("/api/v1/clubs/", True),
}


def cell_names(args: argparse.Namespace) -> list[str]:
    """The cells measured: bare and trivial, with --steps the DRF steps too."""
    return list(CELLS) if args.steps else ["bare", "trivial"]


def fill() -> str:
    """Migrate; one club whose secretary has the bench's login. Returns its API token."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from league.club.services import club_create, member_login_set, season_create

    call_command("migrate", verbosity=0)
    person = club_create(name="Bench-Club", secretary_name="Bernd Bench")
    season_create(club=person.club, year=2026)
    user = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    member_login_set(person=person, user=user)
    from league.club.accounts.services import api_token_create

    return api_token_create(user=user)[1]


def start(config: str, port: int, env: dict[str, str], log: Path):
    import subprocess

    worker_class, counts = config.split(":")
    workers, _, threads = counts.partition("x")
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        str(ROOT / "gunicorn.conf.py"),
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        workers,
        "--worker-class",
        worker_class,
        "--threads",
        threads or "1",
        "--access-logfile",
        "/dev/null",
        "schockclub.wsgi",
    ]
    with log.open("ab") as out:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_ready(base: str, process, log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn stopped at start; its log: {log}")
        try:
            if fetch(base, "/bench/bare/", {})[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer within 90 s; its log: {log}")


def server_env(url: str) -> dict[str, str]:
    """The environment of the measured servers: production settings on the bench's
    database, throttles that never refuse; Redis when REDIS_URL is set."""
    env = {
        "DJANGO_SETTINGS_MODULE": "anchor_settings",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "bench")]),
        "DATABASE_URL": url,
        "DEBUG": "false",
        "SECRET_KEY": "bench-gunicorn-only-" + os.urandom(16).hex(),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "ERROR",
        **NEVER_THROTTLED,
    }
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = os.environ["REDIS_URL"]
    return env


def measure_config(
    wrk: str,
    args: argparse.Namespace,
    base: str,
    config: str,
    token: str,
    round_no: int,
    results: dict[str, list[float]],
) -> None:
    """One round of a running server: each cell (the order reversed every other round),
    its requests/s appended to `results`."""
    names = list(results)
    for cell in names if round_no % 2 else reversed(names):
        path, with_token = CELLS[cell]
        headers = {"Authorization": f"Token {token}"} if with_token else {}
        status = fetch(base, path, headers)[0]
        if status != 200:
            raise SystemExit(f"{config} {path} answered {status}")
        with waiting_clients(base, args.waiting) as waited:
            figures = run_wrk(wrk, args, base + path, headers)
        errors = sum(figures[k] for k in ("connect", "read", "write", "status", "timeout"))
        rate = figures["requests"] / (figures["duration_us"] / 1e6)
        results[cell].append(rate)
        print(
            f"  {config:12} {cell:8} {rate:8.1f} req/s  p50 "
            f"{figures['p50_us'] / 1000:6.1f} ms  p99 "
            f"{figures['p99_us'] / 1000:6.1f} ms  errors {errors}"
            + (f"  waits done {waited[0]}" if args.waiting else ""),
            flush=True,
        )


@contextlib.contextmanager
def waiting_clients(base: str, count: int):
    """`count` threads, each sending `/bench/wait/` again as soon as it is answered, while
    the block runs; yields a one-item list, the waits answered (filled in at the end)."""
    stop = threading.Event()
    done = [0]

    def client() -> None:
        while not stop.is_set():
            if fetch(base, "/bench/wait/", {})[0] == 200:
                done[0] += 1

    threads = [threading.Thread(target=client, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    try:
        yield done
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)


def print_results(
    args: argparse.Namespace,
    configs: list[str],
    results: dict[str, dict[str, list[float]]],
    loads: list[float],
) -> None:
    """The table of the medians per configuration."""
    print()
    print(
        f"wrk {args.connections} connections, {args.duration} s a cell, {args.rounds} "
        f"rounds alternating; load average {min(loads):.1f}-{max(loads):.1f} on "
        f"{os.cpu_count()} cores (shared machine)"
    )
    names = list(results[configs[0]])
    print("| gunicorn | " + " | ".join(f"{CELLS[n][0]} req/s (/ bare)" for n in names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for config in configs:
        medians = {n: statistics.median(results[config][n]) for n in names}
        cells = [f"{medians[n]:,.0f} ({medians[n] / medians['bare']:.0%})" for n in names]
        print(f"| {config} | " + " | ".join(cells) + " |")


def main() -> None:
    args = parse_args()
    url = bench_database_url("_gunicorn_bench")
    if not url:
        print("bench_gunicorn: skipped, set DATABASE_URL to PostgreSQL")
        return
    wrk = ensure_wrk()
    env = server_env(url)
    configs = args.configs.split(",")
    recreate_database(url)
    log = Path(tempfile.mkdtemp(prefix="bench-gunicorn-")) / "gunicorn.log"
    results: dict[str, dict[str, list[float]]] = {
        c: {n: [] for n in cell_names(args)} for c in configs
    }
    loads: list[float] = []
    try:
        setup_django(env)
        token = fill()
        from django.db import connections

        connections.close_all()
        base = f"http://127.0.0.1:{args.port}"
        for round_no in range(1, args.rounds + 1):
            loads.append(os.getloadavg()[0])
            print(f"round {round_no}: load average {loads[-1]:.1f} on {os.cpu_count()} cores")
            order = configs if round_no % 2 else list(reversed(configs))
            for config in order:
                process = start(config, args.port, env, log)
                try:
                    wait_ready(base, process, log)
                    measure_config(wrk, args, base, config, token, round_no, results[config])
                finally:
                    stop(process)
        loads.append(os.getloadavg()[0])
        print_results(args, configs, results, loads)
    finally:
        release_database(url, keep=args.keep)


if __name__ == "__main__":
    main()
