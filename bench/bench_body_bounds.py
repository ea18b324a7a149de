"""How long the API takes to refuse an oversized request body (target: < 100 ms each).

Through the Django test client, as a member of a small club (token), it sends

- the 600 KB body that once kept a worker 11 to 30 s: a round preview whose
  `not_thrown` lists 200,000 people (`POST /api/v1/games/rounds/preview/`), refused as
  `body_too_large` before it is read, and again with the body bound raised to 1 MiB,
  refused as `too_many_items` before the first of the people is read;
- a 5 MB body to the same endpoint, refused as `body_too_large` before it is read;
- a body just under API_MAX_BODY_BYTES of rounds of throws, each round within its
  bound, refused as `too_many_throws` before the first round is read;
- the largest game the bounds let through: 50 rounds of 20 throws (MAX_THROWS), every
  throw read until the last, by a person of another club (`unknown_person`);

and prints the median and the slowest wall time of each, the median CPU time of this
process (the figure a loaded machine disturbs least), and the answer's status and code.

Database: DATABASE_URL if set (PostgreSQL: a test database `test_<name>` is created and
dropped), else a temporary SQLite file.

    .venv/bin/python bench/bench_body_bounds.py
"""

from __future__ import annotations

import datetime
import json
import statistics
import time

from support import bench_database

REPEATS = 15
TARGET_MS = 100.0


def _bodies(evening_id: int, person: int, stranger: int) -> list[tuple[str, bytes]]:
    from league.club.body_limits import max_body_bytes

    rounds = [{"kind": "deckel_nehmen", "not_thrown": [0] * 200_000}]
    stall = json.dumps({"evening": evening_id, "rounds": rounds}).encode()
    huge = json.dumps({"evening": evening_id, "rounds": [], "pad": "x" * 5_000_000}).encode()
    throw = {"player": person, "dice": [1, 2, 3]}
    rounds, size = [], 0
    while size < max_body_bytes() - 4_000:
        rounds.append({"throws": [throw] * 100})
        size = len(json.dumps({"evening": evening_id, "rounds": rounds}))
    mib = json.dumps({"evening": evening_id, "rounds": rounds}).encode()
    rounds = [{"throws": [throw] * 20} for _ in range(50)]
    rounds[-1] = {"throws": [throw] * 19 + [{"player": stranger, "dice": [1, 2, 3]}]}
    largest = json.dumps({"evening": evening_id, "rounds": rounds}).encode()
    return [
        (f"600 KB not_thrown ({len(stall) // 1000} KB)", stall),
        (f"5 MB body ({len(huge) // 1000} KB)", huge),
        (f"throws up to the body bound ({len(mib) // 1000} KB)", mib),
        (f"largest game within the bounds ({len(largest) // 1000} KB)", largest),
    ]


def run() -> None:
    from django.test import override_settings
    from rest_framework.test import APIClient

    from games.evenings.services import evening_create
    from league.club.accounts.services import api_token_create
    from league.club.models import Club
    from league.club.services import member_create, member_login_set, season_create
    from tests.factories import UserFactory

    club = Club.objects.create(name="Bench club")
    season_create(club=club, year=2026)
    secretary = member_create(club=club, name="Bernd Krause", is_secretary=True)
    member = member_create(club=club, name="Anna Becker")
    member_login_set(person=member, user=UserFactory(username="bench-anna"))
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 3, 6),
        secretary=secretary,
        present_members=[secretary, member],
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=member.user)[1]}")
    print(f"bench_body_bounds: {REPEATS} requests each, target < {TARGET_MS:.0f} ms")
    cases = [(name, body, None) for name, body in _bodies(evening.pk, member.pk, 999_999)]
    cases.insert(1, (cases[0][0] + ", bound 1 MiB", cases[0][1], 1024 * 1024))
    for name, body, bound in cases:
        raised = {"API_MAX_BODY_BYTES": bound, "DATA_UPLOAD_MAX_MEMORY_SIZE": bound}
        with override_settings(**(raised if bound else {})):
            measure(client, name, body)


def measure(client, name: str, body: bytes) -> None:
    """Send `body` REPEATS times to the round preview; print its figures."""
    path = "/api/v1/games/rounds/preview/"
    times, cpu, answer = [], [], (0, None)
    for _ in range(REPEATS):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.generic("POST", path, body, content_type="application/json")
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        answer = (response.status_code, response.json().get("code"))
    median = statistics.median(times)
    verdict = "ok" if median < TARGET_MS else "MISSED"
    print(
        f"  {name:46} median {median:6.1f} ms  slowest {max(times):7.1f} ms  "
        f"CPU {statistics.median(cpu):6.1f} ms  answer {answer[0]} {answer[1]}  {verdict}"
    )


def main() -> None:
    with bench_database():
        run()


if __name__ == "__main__":
    main()
