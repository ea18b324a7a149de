"""The permission matrix of the API: every endpoint x method x role.

Roles: anonymous (401), a login without a club ("nobody": lists are empty, objects do not
exist), a plain member of the club (reads; writes 403; another member's dues 403), the
club's secretary (reads and writes), and the secretary of another club ("outsider": the
club's objects do not exist for him, 404; a body naming them is a 400).
"""

import datetime
from decimal import Decimal

import pytest

from games.evenings.services import evening_create
from league.banking.services import club_bank_account_set
from league.ledger.services import payment_record
from league.runden.services import runde_mark_given
from tests.api.conftest import ROLES, client_for

pytestmark = pytest.mark.django_db

OK = {"member": 200, "secretary": 200, "outsider": 200, "nobody": 200}
OWN_ONLY = {"member": 200, "secretary": 200, "outsider": 404, "nobody": 404}


def _write(created: int, outsider: int) -> dict:
    return {"member": 403, "secretary": created, "outsider": outsider, "nobody": 403}


def _object_write(done: int) -> dict:
    return {"member": 403, "secretary": done, "outsider": 404, "nobody": 404}


def _empty_evening(c):
    return evening_create(
        club=c.club,
        date=datetime.date(2026, 10, 16),
        secretary=c.secretary,
        present_members=[c.secretary, c.member],
    )


def _schock_aus(c):
    return c.games[1].schock_aus.get()


def _given(c):
    return runde_mark_given(schock_aus=_schock_aus(c), given_on=datetime.date(2026, 10, 16))


def _payment(c):
    return payment_record(
        member=c.member, amount=Decimal("15.50"), paid_on=datetime.date(2026, 10, 16)
    )


def _with_bank_account(c):
    club_bank_account_set(club=c.club, holder="Heimclub Kasse", iban="DE89370400440532013000")
    return c


def _ids(*people):
    return [p.pk for p in people]


def _evening_body(c):
    return {
        "date": "2026-10-09",
        "secretary": c.secretary.pk,
        "present_members": _ids(c.secretary, c.member, c.carla),
        "guests": _ids(c.guest),
        "absent_members": _ids(c.absent),
        "notes": "Bei Hahn",
        "version": c.evening.version,
    }


def _rounds_body(c):
    return {
        "evening": c.evening.pk,
        "rounds": [
            {
                "throws": [
                    {"player": c.secretary.pk, "dice": [1, 1, 1], "attempts": 1},
                    {"player": c.member.pk, "dice": [6, 5, 4], "attempts": 1},
                    {"player": c.carla.pk, "dice": [3, 2, 2], "attempts": 1},
                ]
            }
        ],
    }


# (name, method, url(cast), body(cast) or None, expected status per role)
MATRIX = [
    ("clubs list", "get", lambda c: "/api/v1/clubs/", None, OK),
    ("club detail", "get", lambda c: f"/api/v1/clubs/{c.club.pk}/", None, OWN_ONLY),
    ("seasons list", "get", lambda c: "/api/v1/seasons/", None, OK),
    ("season detail", "get", lambda c: f"/api/v1/seasons/{c.season.pk}/", None, OWN_ONLY),
    (
        "season create",
        "post",
        lambda c: "/api/v1/seasons/",
        lambda c: {"year": 2027},
        _write(201, 201),
    ),
    ("standings", "get", lambda c: f"/api/v1/seasons/{c.season.pk}/standings/", None, OWN_ONLY),
    ("runden owed", "get", lambda c: f"/api/v1/seasons/{c.season.pk}/runden/", None, OWN_ONLY),
    ("members list", "get", lambda c: "/api/v1/members/", None, OK),
    ("member detail", "get", lambda c: f"/api/v1/members/{c.member.pk}/", None, OWN_ONLY),
    (
        "member create",
        "post",
        lambda c: "/api/v1/members/",
        lambda c: {"name": "Hanna Neu"},
        _write(201, 201),
    ),
    (
        "member patch",
        "patch",
        lambda c: f"/api/v1/members/{c.carla.pk}/",
        lambda c: {"name": "Carla Neu"},
        _object_write(200),
    ),
    ("own dues", "get", lambda c: f"/api/v1/members/{c.member.pk}/dues/", None, OWN_ONLY),
    (
        "another member's dues",
        "get",
        lambda c: f"/api/v1/members/{c.carla.pk}/dues/",
        None,
        {"member": 403, "secretary": 200, "outsider": 404, "nobody": 404},
    ),
    ("evenings list", "get", lambda c: "/api/v1/evenings/", None, OK),
    ("evening detail", "get", lambda c: f"/api/v1/evenings/{c.evening.pk}/", None, OWN_ONLY),
    (
        "evening summary",
        "get",
        lambda c: f"/api/v1/evenings/{c.evening.pk}/summary/",
        None,
        OWN_ONLY,
    ),
    (
        "evening create",
        "post",
        lambda c: "/api/v1/evenings/",
        lambda c: {**_evening_body(c), "date": "2026-10-23"},
        _write(201, 400),
    ),
    (
        "evening put",
        "put",
        lambda c: f"/api/v1/evenings/{c.evening.pk}/",
        _evening_body,
        _object_write(200),
    ),
    (
        "evening patch",
        "patch",
        lambda c: f"/api/v1/evenings/{c.evening.pk}/",
        lambda c: {"notes": "Bei Hahn", "version": c.evening.version},
        _object_write(200),
    ),
    (
        "evening delete",
        "delete",
        lambda c: f"/api/v1/evenings/{(e := _empty_evening(c)).pk}/?version={e.version}",
        None,
        _object_write(204),
    ),
    ("games list", "get", lambda c: "/api/v1/games/", None, OK),
    ("game detail", "get", lambda c: f"/api/v1/games/{c.games[0].pk}/", None, OWN_ONLY),
    (
        "game create",
        "post",
        lambda c: "/api/v1/games/",
        lambda c: {"evening": c.evening.pk, "loser": c.carla.pk},
        _write(201, 400),
    ),
    (
        "game put",
        "put",
        lambda c: f"/api/v1/games/{c.games[0].pk}/",
        lambda c: {"loser": c.member.pk, "schock_aus": [c.carla.pk], "version": 1},
        _object_write(200),
    ),
    (
        "game patch",
        "patch",
        lambda c: f"/api/v1/games/{c.games[0].pk}/",
        lambda c: {"loser": c.member.pk, "version": 1},
        _object_write(200),
    ),
    (
        "game delete",
        "delete",
        lambda c: f"/api/v1/games/{c.games[1].pk}/?version=1",
        None,
        _object_write(204),
    ),
    ("game rounds", "get", lambda c: f"/api/v1/games/{c.games[0].pk}/rounds/", None, OWN_ONLY),
    ("game by rounds", "post", lambda c: "/api/v1/games/rounds/", _rounds_body, _write(201, 400)),
    (
        "rounds preview",
        "post",
        lambda c: "/api/v1/games/rounds/preview/",
        _rounds_body,
        {"member": 200, "secretary": 200, "outsider": 400, "nobody": 400},
    ),
    ("runden list", "get", lambda c: "/api/v1/runden/?status=all", None, OK),
    (
        "runde given",
        "post",
        lambda c: f"/api/v1/runden/{_schock_aus(c).pk}/given/",
        lambda c: {"given_on": "2026-10-16"},
        _object_write(201),
    ),
    (
        "runde taken back",
        "delete",
        lambda c: f"/api/v1/runden/{_given(c).schock_aus_id}/given/",
        None,
        _object_write(204),
    ),
    (
        "rules evaluate",
        "post",
        lambda c: "/api/v1/rules/evaluate/",
        lambda c: {"dice": [1, 1, 5], "attempts": 2},
        OK,
    ),
    # Kitty, club book and audit trail (league/ledger, clubbook and audit api.py; the
    # multipart import's roles: tests/api/test_club_book_api.py).
    ("payments list", "get", lambda c: "/api/v1/payments/", None, OK),
    (
        "payment detail",
        "get",
        lambda c: f"/api/v1/payments/{_payment(c).pk}/",
        None,
        OWN_ONLY,
    ),
    (
        "payment create",
        "post",
        lambda c: "/api/v1/payments/",
        lambda c: {"member": c.member.pk, "amount": "15.50", "paid_on": "2026-10-16"},
        _write(201, 400),
    ),
    (
        "payment cancel",
        "post",
        lambda c: f"/api/v1/payments/{_payment(c).pk}/cancel/",
        None,
        _object_write(200),
    ),
    (
        "own statement",
        "get",
        lambda c: f"/api/v1/members/{c.member.pk}/statement/",
        None,
        OWN_ONLY,
    ),
    (
        "another member's statement",
        "get",
        lambda c: f"/api/v1/members/{c.carla.pk}/statement/?season={c.season.pk}",
        None,
        {"member": 403, "secretary": 200, "outsider": 404, "nobody": 404},
    ),
    (
        "own payment details",
        "get",
        lambda c: f"/api/v1/members/{_with_bank_account(c).member.pk}/payment/",
        None,
        OWN_ONLY,
    ),
    (
        "another member's payment details",
        "get",
        lambda c: f"/api/v1/members/{_with_bank_account(c).carla.pk}/payment/",
        None,
        {"member": 403, "secretary": 200, "outsider": 404, "nobody": 404},
    ),
    ("balances", "get", lambda c: "/api/v1/balances/", None, _write(200, 200)),
    (
        "balances of a season",
        "get",
        lambda c: f"/api/v1/balances/?season={c.season.pk}",
        None,
        _write(200, 404),
    ),
    (
        "club book export attendance",
        "get",
        lambda c: "/api/v1/club-book/export/attendance.csv",
        None,
        _write(200, 200),
    ),
    (
        "club book export games",
        "get",
        lambda c: "/api/v1/club-book/export/games.csv",
        None,
        _write(200, 200),
    ),
    ("history", "get", lambda c: "/api/v1/history/", None, _write(200, 200)),
    (
        "history of an evening",
        "get",
        lambda c: f"/api/v1/history/?evening={c.evening.pk}",
        None,
        _write(200, 404),
    ),
    (
        "history of a member",
        "get",
        lambda c: f"/api/v1/history/?member={c.member.pk}",
        None,
        _write(200, 404),
    ),
    (
        "me",
        "get",
        lambda c: "/api/v1/me/",
        None,
        {"member": 200, "secretary": 200, "outsider": 200, "nobody": 404},
    ),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name,method,url,body,expected", MATRIX, ids=[row[0] for row in MATRIX])
def test_role_gets_the_expected_status(cast, role, name, method, url, body, expected):
    client = client_for(cast, role)
    kwargs = {"format": "json"}
    if body is not None:
        kwargs["data"] = body(cast)
    response = getattr(client, method)(url(cast), **kwargs)
    want = 401 if role == "anonymous" else expected[role]
    assert response.status_code == want, response.content
    if want >= 400:
        assert set(response.json()) >= {"code", "message", "field"}


LISTS = ["clubs", "seasons", "members", "evenings", "games"]  # runden: test_runden.py


@pytest.mark.parametrize("resource", LISTS)
def test_outsider_lists_hold_nothing_of_the_other_club(cast, resource):
    response = client_for(cast, "outsider").get(f"/api/v1/{resource}/")
    own = {
        "clubs": cast.club.pk,
        "seasons": cast.season.pk,
        "members": cast.member.pk,
        "evenings": cast.evening.pk,
        "games": cast.games[0].pk,
    }[resource]
    assert own not in {row["id"] for row in response.json()["results"]}
    assert response.json()["count"] >= 1


@pytest.mark.parametrize("resource", LISTS)
def test_login_without_club_sees_empty_lists(cast, resource):
    response = client_for(cast, "nobody").get(f"/api/v1/{resource}/")
    assert response.json()["count"] == 0


def test_secretary_writes_with_a_session_login(cast):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(cast.users["secretary"])
    response = client.post(
        "/api/v1/games/", {"evening": cast.evening.pk, "loser": cast.carla.pk}, format="json"
    )
    assert response.status_code == 201


def test_session_write_without_csrf_token_is_refused(cast):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(cast.users["secretary"])
    response = client.post(
        "/api/v1/games/", {"evening": cast.evening.pk, "loser": cast.carla.pk}, format="json"
    )
    assert response.status_code == 403


def test_token_endpoint_gives_the_login_its_token(cast):
    from rest_framework.test import APIClient

    response = APIClient().post(
        "/api/v1/auth/token/", {"username": "bernd", "password": "geheim-123"}, format="json"
    )
    token = response.json()["token"]
    me = APIClient(HTTP_AUTHORIZATION=f"Token {token}").get("/api/v1/me/")
    assert me.json()["member"]["id"] == cast.secretary.pk


def test_token_endpoint_refuses_a_wrong_password(cast):
    from rest_framework.test import APIClient

    response = APIClient().post(
        "/api/v1/auth/token/", {"username": "bernd", "password": "falsch"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "authorization"
