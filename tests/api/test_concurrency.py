"""Two phones at one table: clients adding games to one evening at the
same moment get distinct numbers and lose nothing; two changes sent with the same version
leave exactly one standing. Real threads against PostgreSQL, whose row locks
(`select_for_update` in the services) are what is being tested; SQLite serialises every
writer anyway, so there the test would prove nothing."""

import threading

import pytest
from django.db import connection

from games.evenings.models import Game
from league.club.scoping import across_clubs
from league.ledger.models import Payment
from tests.api.conftest import client_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL row locks (CI runs on PostgreSQL; set DATABASE_URL)",
    ),
]

PHONES = 8


def _at_once(cast, requests) -> list:
    """Run each `request(client)` in its own thread, all released at one barrier."""
    barrier = threading.Barrier(len(requests))
    results: list = [None] * len(requests)

    def run(index, request):
        with across_clubs():  # a thread starts without the test's scope
            client = client_for(cast, "secretary")
            try:
                barrier.wait()
                results[index] = request(client)
            finally:
                connection.close()

    threads = [threading.Thread(target=run, args=(i, r)) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _add_game(cast):
    return lambda client: client.post(
        "/api/v1/games/", {"evening": cast.evening.pk, "loser": cast.carla.pk}, format="json"
    )


def test_phones_adding_games_at_once_all_succeed(cast):
    responses = _at_once(cast, [_add_game(cast)] * PHONES)
    assert [r.status_code for r in responses] == [201] * PHONES


def test_phones_adding_games_at_once_get_distinct_numbers(cast):
    responses = _at_once(cast, [_add_game(cast)] * PHONES)
    numbers = sorted(r.json()["number"] for r in responses)
    assert numbers == list(range(len(cast.games) + 1, len(cast.games) + PHONES + 1))


def test_phones_adding_games_at_once_lose_nothing(cast):
    _at_once(cast, [_add_game(cast)] * PHONES)
    assert Game.objects.filter(evening=cast.evening).count() == len(cast.games) + PHONES


def test_same_version_sent_at_once_leaves_exactly_one_change(cast):
    version = cast.evening.version

    def change(note):
        return lambda client: client.patch(
            f"/api/v1/evenings/{cast.evening.pk}/",
            {"notes": note, "version": version},
            format="json",
        )

    responses = _at_once(cast, [change(f"Telefon {i}") for i in range(PHONES)])
    assert sorted(r.status_code for r in responses) == [200] + [412] * (PHONES - 1)


def test_one_payment_sent_at_once_with_one_key_is_booked_once(cast):
    body = {"member": cast.member.pk, "amount": "5.00", "paid_on": cast.evening.date.isoformat()}

    def pay(client):
        return client.post(
            "/api/v1/payments/", body, format="json", HTTP_IDEMPOTENCY_KEY="one-payment"
        )

    responses = _at_once(cast, [pay] * PHONES)
    assert Payment.objects.filter(member=cast.member).count() == 1
    assert {r.status_code for r in responses} <= {201, 409}
