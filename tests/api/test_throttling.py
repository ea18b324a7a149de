"""The API's throttles (league/club/throttles.py): past the rate per login or per client
address the answer is 429 `throttled` with a German message and Retry-After, and the
schema documents it. The suite runs with the rates raised (tests/conftest.py); these
tests lower them."""

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db


def test_a_login_past_its_rate_is_answered_429_in_german(api, settings):
    settings.API_THROTTLE_RATES = {"user": "3/min", "address": "100/min"}
    member = api("member")
    for _ in range(3):
        assert member.get("/api/v1/evenings/").status_code == 200
    response = member.get("/api/v1/evenings/")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert "Anfrage wurde gedrosselt" in body["message"] and "Sekunden" in body["message"]
    assert 0 < int(response["Retry-After"]) <= 60


def test_another_login_is_not_throttled_by_the_first(api, settings):
    settings.API_THROTTLE_RATES = {"user": "2/min", "address": "100/min"}
    member, secretary = api("member"), api("secretary")
    for _ in range(3):
        member.get("/api/v1/evenings/")
    assert secretary.get("/api/v1/evenings/").status_code == 200


def test_one_address_past_its_rate_is_throttled_whoever_asks(api, settings):
    settings.API_THROTTLE_RATES = {"user": "100/min", "address": "3/min"}
    member, secretary = api("member"), api("secretary")
    for _ in range(3):
        assert member.get("/api/v1/evenings/").status_code == 200
    response = secretary.get("/api/v1/evenings/")
    assert response.status_code == 429
    assert response.json()["code"] == "throttled"


def test_every_operation_documents_the_429(settings):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    responses = schema["paths"]["/api/v1/evenings/"]["get"]["responses"]
    assert "429" in responses
    examples = responses["429"]["content"]["application/json"]["examples"]
    assert any(e["value"]["code"] == "throttled" for e in examples.values())


def test_a_login_refused_by_its_rate_still_counts_for_its_address(api, settings):
    settings.API_THROTTLE_RATES = {"user": "2/min", "address": "4/min"}
    member, secretary = api("member"), api("secretary")
    for _ in range(2):
        assert member.get("/api/v1/clubs/").status_code == 200
    # Refused by the login's rate, let through by the address's: counted there (as by
    # DRF's two throttles), so the address is full after the fourth request.
    assert member.get("/api/v1/clubs/").status_code == 429
    assert secretary.get("/api/v1/clubs/").status_code == 200
    assert secretary.get("/api/v1/clubs/").status_code == 429


def test_a_rate_set_to_none_is_off(api, settings):
    settings.API_THROTTLE_RATES = {"user": None, "address": "3/min"}
    member = api("member")
    for _ in range(3):
        assert member.get("/api/v1/clubs/").status_code == 200
    assert member.get("/api/v1/clubs/").status_code == 429
    settings.API_THROTTLE_RATES = {"user": None, "address": None}
    assert member.get("/api/v1/clubs/").status_code == 200


def test_both_counts_are_one_cache_read_and_one_write(api, settings, monkeypatch):
    from league.club import throttles

    settings.API_THROTTLE_RATES = {"user": "100/min", "address": "100/min"}
    calls: list[str] = []
    for name in ("get", "set", "get_many", "set_many"):
        method = getattr(throttles.throttle_cache, name)

        def counted(*args, _name=name, _method=method, **kwargs):
            calls.append(_name)
            return _method(*args, **kwargs)

        monkeypatch.setattr(throttles.throttle_cache, name, counted)
    member = api("member")
    assert member.get("/api/v1/clubs/").status_code == 200
    assert calls == ["get_many", "set_many"]
    calls.clear()
    assert member.get("/api/v1/clubs/").status_code == 200
    assert calls == ["get_many", "set_many"]
