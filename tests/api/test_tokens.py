"""API tokens (league/club/accounts): they expire after
SCHOCKCLUB_TOKEN_DAYS days (30 by default), a login may hold several, each can be listed and
revoked by its owner, logout revokes them and so does a password change."""

import datetime
import os
import subprocess
import sys
from pathlib import Path

import pytest
import time_machine
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

PASSWORD = "geheim-123"  # tests/factories.py UserFactory


def _obtain(username: str = "bernd", password: str = PASSWORD):
    return APIClient().post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json"
    )


def _client(token: str) -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Token {token}")


def test_the_token_endpoint_answers_the_token_and_its_expiry_thirty_days_ahead(cast):
    response = _obtain()
    body = response.json()
    assert response.status_code == 200
    assert set(body) == {"token", "expiry"}
    expiry = datetime.datetime.fromisoformat(body["expiry"])
    days = (expiry - timezone.now()).total_seconds() / 86400
    assert 29.99 < days <= 30
    assert _client(body["token"]).get("/api/v1/me/").status_code == 200


def test_the_token_is_stored_only_as_a_hash(cast):
    token = _obtain().json()["token"]
    row = AuthToken.objects.get(user=cast.users["secretary"])
    assert token not in row.digest
    assert row.token_key == token[:15]


def test_a_token_past_its_expiry_is_refused_with_token_expired_every_time(cast):
    token = _obtain().json()["token"]
    with time_machine.travel(timezone.now() + datetime.timedelta(days=30, minutes=1)):
        for _attempt in range(2):
            response = _client(token).get("/api/v1/me/")
            assert response.status_code == 401
            assert response.json()["code"] == "token_expired"


def test_a_token_a_day_before_its_expiry_still_works(cast):
    token = _obtain().json()["token"]
    with time_machine.travel(timezone.now() + datetime.timedelta(days=29)):
        assert _client(token).get("/api/v1/me/").status_code == 200


def test_an_unknown_token_is_refused_with_invalid_token(cast):
    response = _client("0" * 64).get("/api/v1/me/")
    assert (response.status_code, response.json()["code"]) == (401, "invalid_token")


def test_a_new_token_clears_the_logins_expired_ones(cast):
    old = _obtain().json()["token"]
    with time_machine.travel(timezone.now() + datetime.timedelta(days=31)):
        _obtain()
        assert not AuthToken.objects.filter(token_key=old[:15]).exists()
        assert AuthToken.objects.filter(user=cast.users["secretary"]).count() == 1


def test_the_token_lifetime_comes_from_the_environment():
    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "SCHOCKCLUB_TOKEN_DAYS": "7",
        "DJANGO_SETTINGS_MODULE": "schockclub.settings",
    }
    code = "from django.conf import settings; print(settings.REST_KNOX['TOKEN_TTL'].days)"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "7"


def test_a_login_lists_its_tokens_and_sees_which_one_it_uses(cast):
    first = _obtain().json()["token"]
    second = _obtain().json()["token"]
    body = _client(second).get("/api/v1/auth/tokens/").json()
    assert [t["id"] for t in body] == [second[:15], first[:15]]
    assert [t["current"] for t in body] == [True, False]
    assert all(second not in str(t) for t in body)


def test_another_logins_tokens_are_not_listed(cast):
    _obtain("anna")
    mine = _obtain().json()["token"]
    body = _client(mine).get("/api/v1/auth/tokens/").json()
    assert [t["id"] for t in body] == [mine[:15]]


def test_the_owner_revokes_one_token_and_the_other_keeps_working(cast):
    phone = _obtain().json()["token"]
    laptop = _obtain().json()["token"]
    response = _client(laptop).delete(f"/api/v1/auth/tokens/{phone[:15]}/")
    assert response.status_code == 204
    assert _client(phone).get("/api/v1/me/").json()["code"] == "invalid_token"
    assert _client(laptop).get("/api/v1/me/").status_code == 200


def test_revoking_another_logins_token_is_a_404(cast):
    annas = _obtain("anna").json()["token"]
    mine = _obtain().json()["token"]
    response = _client(mine).delete(f"/api/v1/auth/tokens/{annas[:15]}/")
    assert (response.status_code, response.json()["code"]) == (404, "token_not_found")
    assert _client(annas).get("/api/v1/me/").status_code == 200


def test_logout_revokes_the_token_it_was_sent_with_only(cast):
    phone = _obtain().json()["token"]
    laptop = _obtain().json()["token"]
    assert _client(phone).post("/api/v1/auth/logout/").status_code == 204
    assert _client(phone).get("/api/v1/me/").status_code == 401
    assert _client(laptop).get("/api/v1/me/").status_code == 200


def test_logout_everywhere_revokes_every_token_of_the_login(cast):
    phone = _obtain().json()["token"]
    laptop = _obtain().json()["token"]
    annas = _obtain("anna").json()["token"]
    assert _client(phone).post("/api/v1/auth/logout-all/").status_code == 204
    assert _client(laptop).get("/api/v1/me/").status_code == 401
    assert _client(annas).get("/api/v1/me/").status_code == 200


def test_logout_with_a_session_ends_it_and_revokes_the_logins_tokens(cast):
    token = _obtain().json()["token"]
    session = APIClient()
    session.force_login(cast.users["secretary"])
    assert session.post("/api/v1/auth/logout/").status_code == 204
    assert session.get("/api/v1/me/").status_code in (401, 403)
    assert _client(token).get("/api/v1/me/").status_code == 401


def test_a_password_change_by_api_revokes_every_token(cast):
    phone = _obtain().json()["token"]
    laptop = _obtain().json()["token"]
    response = _client(phone).post(
        "/api/v1/auth/password/",
        {"old_password": PASSWORD, "new_password": "Wuerfelbecher-1979"},
        format="json",
    )
    assert response.status_code == 204
    assert _client(laptop).get("/api/v1/me/").status_code == 401
    assert _client(phone).get("/api/v1/me/").status_code == 401
    assert _obtain(password="Wuerfelbecher-1979").status_code == 200
    assert _obtain().status_code == 400


def test_a_password_change_with_a_wrong_old_password_is_refused(cast):
    token = _obtain().json()["token"]
    response = _client(token).post(
        "/api/v1/auth/password/",
        {"old_password": "falsch", "new_password": "Wuerfelbecher-1979"},
        format="json",
    )
    body = response.json()
    assert (response.status_code, body["code"], body["field"]) == (
        400,
        "wrong_password",
        "old_password",
    )
    assert _client(token).get("/api/v1/me/").status_code == 200


@pytest.mark.parametrize(
    ("weak", "german"),
    [("kurz1", "zu kurz"), ("password", "zu üblich"), ("83749261", "komplett numerisch")],
)
def test_a_weak_new_password_is_refused_by_djangos_validators(cast, weak, german):
    token = _obtain().json()["token"]
    response = _client(token).post(
        "/api/v1/auth/password/",
        {"old_password": PASSWORD, "new_password": weak},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    body = response.json()
    assert (response.status_code, body["code"], body["field"]) == (
        400,
        "invalid_password",
        "new_password",
    )
    assert german in body["message"]


def test_a_password_change_by_api_keeps_the_session(cast):
    session = APIClient()
    session.force_login(cast.users["secretary"])
    response = session.post(
        "/api/v1/auth/password/",
        {"old_password": PASSWORD, "new_password": "Wuerfelbecher-1979"},
        format="json",
    )
    assert response.status_code == 204
    assert session.get("/api/v1/me/").status_code == 200


def test_the_login_endpoints_are_in_the_schema_with_examples(api):
    schema = api("member").get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path, method in [
        ("/api/v1/auth/tokens/", "get"),
        ("/api/v1/auth/tokens/{id}/", "delete"),
        ("/api/v1/auth/logout/", "post"),
        ("/api/v1/auth/logout-all/", "post"),
        ("/api/v1/auth/password/", "post"),
        ("/api/v1/auth/token/", "post"),
    ]:
        assert method in paths[path], path
    listed = paths["/api/v1/auth/tokens/"]["get"]["responses"]["200"]["content"]
    assert listed["application/json"]["examples"]
    assert "429" in paths["/api/v1/auth/token/"]["post"]["responses"]
