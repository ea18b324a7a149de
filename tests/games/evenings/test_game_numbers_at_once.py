"""Games posted at once without a number get the evening's next numbers, consecutive and
distinct: the evening's row is locked (SELECT ... FOR UPDATE) before the number is
counted. Ten phones posting together, each on its own database connection.

On PostgreSQL (DATABASE_URL) every post succeeds at its first try: the row lock makes
them wait for each other. SQLite has no row locks: a writer finding the database locked
fails at once, so there a phone sends the game again with its client_key, as a phone
whose answer failed does (a game that arrived is not recorded twice); the numbers must
come out the same."""

import datetime
import threading
import time
import uuid

import pytest
from django.db import OperationalError, connection
from rest_framework.test import APIClient

from games.evenings.services import evening_create
from league.club.scoping import across_clubs
from tests.factories import ClubFactory, MemberFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
PHONES = 10


def test_ten_games_posted_at_once_get_ten_consecutive_numbers():
    club = ClubFactory(name="Heimclub")
    SeasonFactory(club=club, year=2026)
    secretary = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    anna = MemberFactory(club=club, name="Anna Becker")
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 10, 9),
        secretary=secretary,
        present_members=[secretary, anna],
    )
    start = threading.Barrier(PHONES)
    answers: list[tuple[int, dict]] = []
    retries: list[int] = []
    lock = threading.Lock()

    def phone() -> None:
        with across_clubs():  # a thread starts without the test's scope
            client = APIClient()
            client.force_authenticate(secretary.user)
            body = {"evening": evening.pk, "loser": anna.pk, "client_key": str(uuid.uuid4())}
            try:
                start.wait()
                for attempt in range(50):
                    try:
                        answer = client.post("/api/v1/games/", body, format="json")
                        if (
                            answer.status_code == 409
                            and answer.json()["code"] == "duplicate_client_key"
                        ):
                            game = evening.games.get(client_key=body["client_key"])
                            with lock:
                                answers.append((201, {"number": game.number}))
                            return
                        break
                    except OperationalError:  # SQLite: "database table is locked"
                        with lock:
                            retries.append(attempt)
                        time.sleep(0.05)
                with lock:
                    answers.append((answer.status_code, answer.json()))
            finally:
                connection.close()

    threads = [threading.Thread(target=phone) for _ in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [status for status, _body in answers] == [201] * PHONES, answers
    assert sorted(body["number"] for _status, body in answers) == list(range(1, PHONES + 1))
    assert sorted(evening.games.values_list("number", flat=True)) == list(range(1, PHONES + 1))
    if connection.vendor == "postgresql":
        assert retries == []
