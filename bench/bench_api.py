"""API latency and query counts over a 48-season history.

Generates a deterministic club history straight into the database with bulk_create: 48
seasons (1979 to 2026), 40 evenings a season, five to eight club members present (the
others of a roster of nine absent), now and then a guest, five games per present club
member, a Schock-Aus in about one game in six. It measures, in one run and through the
Django test client with a secretary's token, the median latency of

- the season standings   GET /api/v1/seasons/{id}/standings/   (the latest season)
- an evening's summary   GET /api/v1/evenings/{id}/summary/    (the latest evening)
- the evenings list      GET /api/v1/evenings/?season={id}
- a trivial endpoint     GET /api/v1/clubs/

and the number of database queries of each, first after 4 seasons, then after all 48:
the counts must not grow with the history (printed as "constant: yes").

Database: DATABASE_URL if set (PostgreSQL: a test database `test_<name>` is created and
dropped here, so nothing else is touched; pass --keepdb to keep it), else a temporary
SQLite file.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/schock_api_bench \\
        .venv/bin/python bench/bench_api.py
"""

from __future__ import annotations

import datetime
import random
import statistics
import time

from support import bench_database

FIRST, LAST = 1979, 2026
EVENINGS_PER_SEASON = 40
SMALL_SEASONS = 4
REPEATS = 30
ROSTER = [
    "Anna Becker",
    "Bernd Krause",
    "Carla Vogt",
    "Dieter Hahn",
    "Erik Lange",
    "Frank Roth",
    "Gabi Schulz",
    "Hans Wolf",
    "Ines Braun",
]
GUESTS = ["Gustav Meier", "Karin Koch", "Lutz Klein"]


def _fridays(year: int) -> list[datetime.date]:
    day = datetime.date(year, 1, 1)
    day += datetime.timedelta(days=(4 - day.weekday()) % 7)
    out = []
    while day.year == year:
        out.append(day)
        day += datetime.timedelta(days=7)
    return out


def generate(club, people: dict, years: range, rng: random.Random) -> dict:
    """Bulk-create the seasons of `years` with their evenings, attendance, games and
    Schock-Aus. Returns counts."""
    from games.evenings.models import Attendance, Evening, Game, SchockAus
    from league.club.models import Season
    from league.club.statutes import CLUB_STATUTES

    counts = {"evenings": 0, "games": 0, "schock_aus": 0}
    members = [people[n] for n in ROSTER]
    guests = [people[n] for n in GUESTS]
    for year in years:
        value, currency = CLUB_STATUTES.mark_value(year)
        season = Season.objects.create(
            club=club,
            year=year,
            starts_on=datetime.date(year, 1, 1),
            ends_on=datetime.date(year, 12, 31),
            mark_value=value,
            currency=currency,
        )
        plans = []
        for day in sorted(rng.sample(_fridays(year), EVENINGS_PER_SEASON)):
            present = rng.sample(members, rng.randint(5, 8))
            guest = [rng.choice(guests)] if rng.random() < 0.2 else []
            plans.append((day, present, guest, [m for m in members if m not in present]))
        evenings = Evening.objects.bulk_create(
            [
                Evening(club=club, season=season, date=day, secretary=present[0])
                for day, present, _g, _a in plans
            ]
        )
        attendance, games, throwers = [], [], []
        for evening, (_day, present, guest, absent) in zip(evenings, plans, strict=True):
            attendance += [
                Attendance(club=club, evening=evening, member=m, role=role)
                for people, role in ((present, "member"), (guest, "guest"), (absent, "absent"))
                for m in people
            ]
            players = present + guest
            vorleger = present[0]
            for number in range(1, 5 * len(present) + 1):
                loser = rng.choice(players)
                games.append(
                    Game(club=club, evening=evening, number=number, vorleger=vorleger, loser=loser)
                )
                throwers.append([rng.choice(players)] if rng.random() < 1 / 6 else [])
                vorleger = loser
        Attendance.objects.bulk_create(attendance, batch_size=2000)
        games = Game.objects.bulk_create(games, batch_size=2000)
        schock_aus = [
            SchockAus(club=club, game=game, thrower=t, position=i)
            for game, ts in zip(games, throwers, strict=True)
            for i, t in enumerate(ts, start=1)
        ]
        SchockAus.objects.bulk_create(schock_aus, batch_size=2000)
        counts["evenings"] += len(evenings)
        counts["games"] += len(games)
        counts["schock_aus"] += len(schock_aus)
    return counts


def measure(client, urls: dict[str, str]) -> dict[str, tuple[float, int]]:
    """Median milliseconds of REPEATS requests (interleaved) and queries per request."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times: dict[str, list[float]] = {name: [] for name in urls}
    queries = {}
    for name, url in urls.items():  # warm-up, and the query count of one request
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code == 200, (url, response.status_code, response.content[:300])
        queries[name] = len(ctx.captured_queries)
    for _ in range(REPEATS):
        for name, url in urls.items():
            start = time.perf_counter()
            client.get(url)
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: (statistics.median(times[name]), queries[name]) for name in urls}


def _secretary_token(person) -> str:
    """An API token of a new login given to `person`, who becomes the club's secretary."""
    from django.contrib.auth import get_user_model

    from league.club.accounts.services import api_token_create
    from league.club.services import member_login_set

    user = get_user_model().objects.create_user("bench-secretary")
    person.is_secretary = True
    member_login_set(person=person, user=user, also_saved=["is_secretary"])
    return api_token_create(user=user)[1]


def run() -> None:
    from django.db import connection
    from django.test import Client

    from games.evenings.models import Evening
    from league.club.models import Club, Member, Season

    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    rng = random.Random(1979)
    club = Club.objects.create(name="Schockclub Bench")
    people = {n: Member.objects.create(club=club, name=n) for n in ROSTER}
    people.update({n: Member.objects.create(club=club, name=n, kind="guest") for n in GUESTS})
    client = Client(HTTP_AUTHORIZATION=f"Token {_secretary_token(people[ROSTER[1]])}")

    results = {}
    totals = {"evenings": 0, "games": 0, "schock_aus": 0}
    for label, years in [
        ("small", range(FIRST, FIRST + SMALL_SEASONS)),
        ("full", range(FIRST + SMALL_SEASONS, LAST + 1)),
    ]:
        start = time.perf_counter()
        counts = generate(club, people, years, rng)
        for key in totals:
            totals[key] += counts[key]
        seasons = Season.objects.filter(club=club).count()
        print(
            f"{label}: generated {counts['evenings']:,} evenings, {counts['games']:,} games, "
            f"{counts['schock_aus']:,} Schock-Aus in {time.perf_counter() - start:.1f} s; "
            f"history now {seasons} seasons, {totals['evenings']:,} evenings, "
            f"{totals['games']:,} games"
        )
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        season = Season.objects.filter(club=club).order_by("-year").first()
        evening = Evening.objects.filter(club=club).order_by("-date").first()
        urls = {
            "trivial /clubs/": "/api/v1/clubs/",
            "standings": f"/api/v1/seasons/{season.pk}/standings/",
            "evening summary": f"/api/v1/evenings/{evening.pk}/summary/",
            "evenings list": f"/api/v1/evenings/?season={season.pk}",
        }
        results[label] = measure(client, urls)
        for name, (ms, queries) in results[label].items():
            print(f"  {name:<18} median {ms:7.2f} ms   {queries:2d} queries   {urls[name]}")
    print("query counts, 4 seasons -> 48 seasons:")
    constant = True
    for name in results["small"]:
        small, full = results["small"][name][1], results["full"][name][1]
        constant &= small == full
        print(f"  {name:<18} {small:2d} -> {full:2d}")
    print(f"constant: {'yes' if constant else 'NO'}")
    trivial = results["full"]["trivial /clubs/"][0]
    for name, (ms, _q) in results["full"].items():
        print(f"  {name:<18} {ms:7.2f} ms = {ms / trivial:4.1f} x trivial")


def main() -> None:
    with bench_database():
        run()


if __name__ == "__main__":
    main()
