"""Import of a 48-season club book (1979 to 2026) into PostgreSQL, then the standings page.

Generates a deterministic club book in the import format (about 1,900 evenings, 13,000
attendance rows and 47,000 games), imports it with `club_book_import` into a fresh test
database (`test_<name of DATABASE_URL's database>`, created and dropped here, so nothing
else is touched), and prints: the import's seconds (target: under 5) with each
step's wall, CPU and PostgreSQL CPU seconds (on a shared machine the CPU says what the wall
time cannot), a second import's seconds (idempotent: nothing created), the export's
seconds, and the time of the standings selector and of the standings page for the last
season.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/schock_import_bench \
        .venv/bin/python bench/bench_import.py [--keepdb]
"""

from __future__ import annotations

import datetime
import functools
import os
import random
import time
from contextlib import contextmanager
from pathlib import Path

from support import bench_database, is_postgresql

TARGET_SECONDS = 5  # the import's target (was 60)
FIRST, LAST = 1979, 2026
CLUB = "Schockclub Bench"

FIRST_NAMES = [
    "Anna",
    "Bernd",
    "Carla",
    "Dieter",
    "Erik",
    "Frank",
    "Gabi",
    "Hans",
    "Ines",
    "Jürgen",
    "Karin",
    "Lutz",
    "Monika",
    "Norbert",
    "Olga",
    "Peter",
    "Renate",
    "Stefan",
    "Tanja",
    "Uwe",
]
LAST_NAMES = [
    "Becker",
    "Krause",
    "Vogt",
    "Hahn",
    "Lange",
    "Roth",
    "Meier",
    "Schulz",
    "Wolf",
    "Braun",
    "Zimmermann",
    "Hoffmann",
    "Schäfer",
    "Koch",
    "Richter",
    "Klein",
]


def club_book(seed: int = 1979) -> tuple[bytes, bytes, dict]:
    """(attendance CSV, games CSV, figures) of a deterministic 48-season club book, in the
    canonical order of the export. About 40 Friday evenings a season; a roster of seven
    club members (one leaves and a new one joins every few years), each present with
    probability 0.72; now and then a guest; five games per present club member."""
    from league.clubbook.selectors import (
        name_key,
    )

    rng = random.Random(seed)
    names = [f"{first} {last}" for last in LAST_NAMES for first in FIRST_NAMES]
    rng.shuffle(names)
    members, guests = names[:60], names[60:80]
    roster, next_member = members[:7], 7
    attendance = ["date,name,role"]
    games = ["date,number,loser,schock_aus"]
    n_evenings = n_games = 0
    for year in range(FIRST, LAST + 1):
        if year > FIRST and rng.random() < 0.35:
            roster[rng.randrange(len(roster))] = members[next_member % len(members)]
            next_member += 1
        fridays = [
            datetime.date(year, 1, 1) + datetime.timedelta(days=d)
            for d in range(366)
            if (datetime.date(year, 1, 1) + datetime.timedelta(days=d)).year == year
            and (datetime.date(year, 1, 1) + datetime.timedelta(days=d)).weekday() == 4
        ]
        for day in sorted(rng.sample(fridays, 40 if year % 4 else 38)):
            present = sorted((m for m in roster if rng.random() < 0.72), key=name_key)
            if len(present) < 2:
                present = sorted(rng.sample(roster, 3), key=name_key)
            absent = sorted((m for m in roster if m not in present), key=name_key)
            guest = [rng.choice(guests)] if rng.random() < 0.2 else []
            secretary = rng.choice(present)
            date = day.isoformat()
            for name in present:
                attendance.append(f"{date},{name},{'secretary' if name == secretary else 'member'}")
            attendance += [f"{date},{g},guest" for g in guest]
            attendance += [f"{date},{m},absent" for m in absent]
            players = present + guest
            for number in range(1, 5 * len(present) + 1):
                throwers = []
                while rng.random() < (0.2 if not throwers else 0.1):
                    throwers.append(rng.choice(players))
                loser = rng.choice([p for p in players if p not in throwers] or players)
                games.append(f"{date},{number},{loser},{';'.join(throwers)}")
            n_evenings += 1
            n_games += 5 * len(present)
    encode = lambda lines: ("\r\n".join(lines) + "\r\n").encode("utf-8")  # noqa: E731
    figures = {"evenings": n_evenings, "attendance": len(attendance) - 1, "games": n_games}
    return encode(attendance), encode(games), figures


def main() -> None:
    if not is_postgresql():
        print("bench_import: skipped, set DATABASE_URL to a PostgreSQL database of your own")
        return
    with bench_database():
        run()


def run() -> None:
    """Generate the club book, import it twice, export it, then time the standings
    selector and the pages a club of this size opens most."""
    from league.club.models import Club

    start = time.perf_counter()
    attendance, games, figures = club_book()
    print(
        f"generated {figures['evenings']:,} evenings, {figures['attendance']:,} attendance rows,"
        f" {figures['games']:,} games ({LAST - FIRST + 1} seasons) in "
        f"{time.perf_counter() - start:.1f} s"
    )
    seconds = _import_twice_and_export(attendance, games)
    club = Club.objects.get(name=CLUB)
    client, member = _standings(club)
    _pages(client, member)
    print("OK" if seconds < TARGET_SECONDS else "BELOW TARGET")


@functools.cache
def _backend_pid() -> int:
    """The process id of this bench's PostgreSQL backend (one connection throughout)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _server_cpu() -> float | None:
    """CPU seconds the PostgreSQL backend of this connection has used so far, read from
    /proc when the server runs on this machine (else None): with the process's own CPU
    it says what the import costs whatever else the machine is running."""
    pid = _backend_pid()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _import_twice_and_export(attendance: bytes, games: bytes) -> float:
    """Import the files, import them again (nothing created), export them; prints each
    one's time and returns the first import's seconds."""
    from league.club.models import Club
    from league.clubbook.selectors import (
        club_book_export,
    )
    from league.clubbook.services import (
        club_book_import,
        club_book_parse,
    )

    clock = time.process_time()
    club_book_parse(attendance=attendance, games=games)
    print(f"parse and checks alone: {time.process_time() - clock:.2f} s CPU")
    server = _server_cpu()
    start, clock = time.perf_counter(), time.process_time()
    with _steps_timed() as steps:
        result = club_book_import(club_name=CLUB, attendance=attendance, games=games)
    seconds = time.perf_counter() - start
    assert result.ok, result.errors[:5]
    cpu = time.process_time() - clock
    after = _server_cpu()
    known = server is not None and after is not None
    server_text = f", PostgreSQL {after - server:.1f} s" if known else ""
    print(
        f"import: {seconds:.1f} s  (target < {TARGET_SECONDS} s; CPU: this process {cpu:.1f} s"
        f"{server_text}) created {result.created}"
    )
    _print_steps(steps, seconds, time.process_time() - clock, server, after)
    start = time.perf_counter()
    again = club_book_import(club_name=CLUB, attendance=attendance, games=games)
    print(
        f"second import: {time.perf_counter() - start:.1f} s, created anything: "
        f"{again.changed}, evenings unchanged: {again.skipped:,}"
    )
    club = Club.objects.get(name=CLUB)
    start = time.perf_counter()
    exported = club_book_export(club=club)
    print(
        f"export: {time.perf_counter() - start:.1f} s, identical to the generated files: "
        f"{exported == (attendance, games)}"
    )
    return seconds


# The steps of `club_book_import` (league/clubbook/services.py), in their order.
STEPS = [
    ("club_book_parse", "parse and checks"),
    ("_import_club", "club"),
    ("_check_kinds_with_db", "people's kinds against the books"),
    ("_compare_with_db", "stored evenings compared"),
    ("_create_members", "people created"),
    ("_seasons_of", "seasons found or created"),
    ("_write_evenings", "evenings and their history"),
    ("_write_attendance", "attendance and its history"),
    ("_write_games", "games, Schock-Aus and their history"),
    ("_write_charges", "ledger charges and their history"),
    ("books_changed", "books_changed per season"),
    ("_season_totals", "season totals"),
]


@contextmanager
def _steps_timed():
    """Time each step of the import while the block runs: yields {step: [wall, this
    process's CPU, PostgreSQL's CPU]} (seconds, summed over calls; PostgreSQL's None when
    the server's /proc is not readable)."""
    from league.clubbook import services

    steps: dict[str, list] = {}
    originals = {name: getattr(services, name) for name, _label in STEPS}

    def timed(name, function):
        def step(*args, **kwargs):
            server, start, clock = _server_cpu(), time.perf_counter(), time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                after = _server_cpu()
                took = steps.setdefault(name, [0.0, 0.0, 0.0])
                took[0] += time.perf_counter() - start
                took[1] += time.process_time() - clock
                known = server is not None and after is not None
                took[2] = took[2] + (after - server) if known and took[2] is not None else None

        return step

    for name, function in originals.items():
        setattr(services, name, timed(name, function))
    try:
        yield steps
    finally:
        for name, function in originals.items():
            setattr(services, name, function)


def _print_steps(steps, seconds, cpu, server, after) -> None:
    """Print each step's seconds (wall, this process's CPU, PostgreSQL's CPU), and the
    rest: the commit (where PostgreSQL checks the deferred foreign keys) and what lies
    between the steps."""
    total = [seconds, cpu, after - server if server is not None and after is not None else None]
    rest = list(total)
    print(f"  {'step':38s} {'wall':>6s} {'CPU':>6s} {'PostgreSQL':>10s}")
    for name, label in STEPS:
        took = steps.get(name)
        if took is None:
            continue
        for i in range(3):
            rest[i] = None if rest[i] is None or took[i] is None else rest[i] - took[i]
        print(f"  {label:38s} {took[0]:6.2f} {took[1]:6.2f} {_seconds(took[2]):>10s}")
    label = "commit (deferred foreign keys), rest"
    print(f"  {label:38s} {rest[0]:6.2f} {rest[1]:6.2f} {_seconds(rest[2]):>10s}")


def _seconds(value) -> str:
    return "?" if value is None else f"{value:.2f}"


def _standings(club):
    """Time the standings selector and page of the last season (best of 5); returns a
    client logged in as the club's first member, and that member."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from league.club.models import Member, Season
    from league.club.services import member_login_set
    from league.standings.selectors import season_standings

    season = Season.objects.get(club=club, year=LAST)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        season_standings(season=season)
        best = min(best, time.perf_counter() - start)
    print(f"season_standings({LAST}): {best * 1000:.0f} ms (best of 5)")
    user = get_user_model().objects.create_user("bench", password="bench-123")
    member_login_set(
        person=Member.objects.filter(club=club, kind="member").order_by("pk").first(), user=user
    )
    client = Client()
    client.force_login(user)
    url = reverse("season_standings", args=[LAST])
    client.get(url)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        response = client.get(url)
        best = min(best, time.perf_counter() - start)
    print(f"standings page {url}: {best * 1000:.0f} ms (best of 5), status {response.status_code}")
    return client, Member.objects.get(user=user)


def _pages(client, member) -> None:
    """Time the kitty, Runden and history pages as the club's secretary (second request,
    after one to warm up)."""
    from django.urls import reverse

    member.is_secretary = True
    member.save()
    for label, page in [
        ("kitty overview", reverse("ledger_home") + f"?saison={LAST}"),
        ("statement, all seasons", reverse("ledger_statement", args=[member.pk])),
        ("open Runden, current season", reverse("runden_list")),
        ("open Runden, all seasons", reverse("runden_list") + "?saison=alle"),
        ("history of a person", reverse("audit_member", args=[member.pk])),
    ]:
        client.get(page)
        start = time.perf_counter()
        response = client.get(page)
        print(
            f"{label} {page}: {(time.perf_counter() - start) * 1000:.0f} ms, "
            f"status {response.status_code}"
        )


if __name__ == "__main__":
    main()
