"""A write of the API sent again with the same `Idempotency-Key` books once
(league/club/idempotency.py): the same request answers the first answer again, another
request with the key 422, a key still being processed 409; keys are kept per login."""

import datetime

import pytest
from django.utils import timezone

from games.evenings.models import Evening, Game
from league.club.idempotency import ABANDONED_AFTER, KEEP, request_fingerprint
from league.club.models import IdempotencyKey, Member, Season
from league.ledger.models import Payment
from tests.api.conftest import DATE

pytestmark = pytest.mark.django_db

KEY = "3f1e8c1a-7f0b-4c55-9d2e-6b1d2f8a9c01"


def _payment(cast, amount: str = "5.00") -> dict:
    return {"member": cast.member.pk, "amount": amount, "paid_on": DATE.isoformat()}


def _pay(client, body: dict, key: str = KEY):
    return client.post("/api/v1/payments/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_payment_sent_twice_with_one_key_is_booked_once(api, cast):
    client = api("secretary")
    _pay(client, _payment(cast))
    _pay(client, _payment(cast))
    assert Payment.objects.filter(member=cast.member).count() == 1


def test_a_payment_sent_twice_with_one_key_gets_the_first_answer_again(api, cast):
    client = api("secretary")
    first = _pay(client, _payment(cast))
    again = _pay(client, _payment(cast))
    assert (
        (again.status_code, again.json())
        == (first.status_code, first.json())
        == (
            201,
            first.json(),
        )
    )
    assert again["Idempotent-Replayed"] == "true"


def test_a_quoted_key_is_the_same_key(api, cast):
    client = api("secretary")
    _pay(client, _payment(cast))
    _pay(client, _payment(cast), key=f'"{KEY}"')
    assert Payment.objects.filter(member=cast.member).count() == 1


def test_another_request_with_a_used_key_is_refused_with_422(api, cast):
    client = api("secretary")
    _pay(client, _payment(cast))
    response = _pay(client, _payment(cast, amount="7.00"))
    assert (response.status_code, response.json()["code"]) == (422, "idempotency_key_reused")
    assert Payment.objects.filter(member=cast.member).count() == 1


def test_two_logins_with_the_same_key_do_not_collide(api, cast):
    _pay(api("secretary"), _payment(cast))
    other = {"member": cast.other_secretary.pk, "amount": "5.00", "paid_on": DATE.isoformat()}
    response = _pay(api("outsider"), other)
    assert response.status_code == 201
    assert Payment.objects.filter(member=cast.other_secretary).count() == 1


def test_a_key_still_being_processed_is_refused_with_409(api, cast):
    body = _payment(cast)
    IdempotencyKey.objects.create(
        user=cast.users["secretary"],
        key=KEY,
        fingerprint=request_fingerprint(method="POST", path="/api/v1/payments/", body=body),
        created_at=timezone.now(),
    )
    response = _pay(api("secretary"), body)
    assert (response.status_code, response.json()["code"]) == (409, "idempotency_key_in_use")
    assert not Payment.objects.filter(member=cast.member).exists()


def test_a_key_whose_request_died_is_taken_over(api, cast):
    body = _payment(cast)
    IdempotencyKey.objects.create(
        user=cast.users["secretary"],
        key=KEY,
        fingerprint=request_fingerprint(method="POST", path="/api/v1/payments/", body=body),
        created_at=timezone.now() - ABANDONED_AFTER - datetime.timedelta(seconds=1),
    )
    assert _pay(api("secretary"), body).status_code == 201


def test_a_failed_request_keeps_nothing_so_the_corrected_one_goes_through(api, cast):
    client = api("secretary")
    refused = _pay(client, _payment(cast, amount="0.00"))
    assert refused.status_code == 400
    assert _pay(client, _payment(cast)).status_code == 201


def test_a_key_of_more_than_255_characters_is_refused(api, cast):
    response = _pay(api("secretary"), _payment(cast), key="k" * 256)
    assert (response.status_code, response.json()["code"]) == (400, "invalid_idempotency_key")


def test_keys_older_than_a_day_are_forgotten_when_a_key_is_written(api, cast):
    IdempotencyKey.objects.create(
        user=cast.users["secretary"],
        key="old",
        fingerprint="0" * 64,
        status=201,
        created_at=timezone.now() - KEEP - datetime.timedelta(minutes=1),
    )
    _pay(api("secretary"), _payment(cast))
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == [KEY]


def _rounds(cast) -> dict:
    throws = [
        {"player": cast.secretary.pk, "dice": [1, 1, 1], "attempts": 1},
        {"player": cast.member.pk, "dice": [6, 5, 4], "attempts": 1},
        {"player": cast.carla.pk, "dice": [3, 2, 2], "attempts": 1},
    ]
    return {"evening": cast.evening.pk, "rounds": [{"throws": throws}]}


# (name, path, body(cast), rows(cast): the count of what the write books)
CREATING = [
    (
        "a game",
        "/api/v1/games/",
        lambda c: {"evening": c.evening.pk, "loser": c.carla.pk},
        lambda c: Game.objects.filter(evening=c.evening).count(),
    ),
    (
        "a game by rounds",
        "/api/v1/games/rounds/",
        _rounds,
        lambda c: Game.objects.filter(evening=c.evening).count(),
    ),
    (
        "an evening",
        "/api/v1/evenings/",
        lambda c: {"date": "2026-10-16", "present_members": [c.secretary.pk, c.member.pk]},
        lambda c: Evening.objects.filter(club=c.club).count(),
    ),
    (
        "a member",
        "/api/v1/members/",
        lambda c: {"name": "Hanna Neu"},
        lambda c: Member.objects.filter(club=c.club).count(),
    ),
    (
        "a season",
        "/api/v1/seasons/",
        lambda c: {"year": 2027},
        lambda c: Season.objects.filter(club=c.club).count(),
    ),
    (
        "a payment",
        "/api/v1/payments/",
        _payment,
        lambda c: Payment.objects.filter(club=c.club).count(),
    ),
]


@pytest.mark.parametrize(
    ("path", "body", "rows"), [case[1:] for case in CREATING], ids=[c[0] for c in CREATING]
)
def test_each_creating_write_sent_twice_with_one_key_books_once(api, cast, path, body, rows):
    client = api("secretary")
    before = rows(cast)
    answers = [
        client.post(path, body(cast), format="json", HTTP_IDEMPOTENCY_KEY=KEY) for _ in range(2)
    ]
    assert answers[0].status_code == answers[1].status_code == 201
    assert answers[0].json() == answers[1].json()
    assert rows(cast) == before + 1


def test_a_game_replayed_with_its_key_keeps_its_etag(api, cast):
    client = api("secretary")
    body = {"evening": cast.evening.pk, "loser": cast.carla.pk}
    first, again = (
        client.post("/api/v1/games/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
        for _ in range(2)
    )
    assert again["ETag"] == first["ETag"]


def test_the_schema_documents_the_header_on_creating_writes_only(api):
    schema = api("secretary").get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = schema.json()["paths"]

    def headers(path: str, method: str) -> list[str]:
        parameters = paths[path][method].get("parameters", [])
        return [p["name"] for p in parameters if p["in"] == "header"]

    assert "Idempotency-Key" in headers("/api/v1/payments/", "post")
    assert "Idempotency-Key" in headers("/api/v1/games/rounds/", "post")
    assert "Idempotency-Key" not in headers("/api/v1/payments/", "get")
    assert "Idempotency-Key" not in headers("/api/v1/games/rounds/preview/", "post")
    assert "422" in paths["/api/v1/payments/"]["post"]["responses"]
