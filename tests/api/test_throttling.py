"""The API's throttles (league/club/throttles.py): past the rate per login or per client
address the answer is 429 `throttled` with a German message and Retry-After, and the
schema documents it. The suite runs with the rates raised (tests/conftest.py); these
tests lower them."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from league.club import throttles

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


@pytest.fixture
def clock(monkeypatch):
    """The throttle's clock, set by the test: `clock[0]` seconds since the epoch."""
    now = [0.0]
    monkeypatch.setattr(throttles.ApiThrottle, "timer", staticmethod(lambda: now[0]))
    return now


def test_the_earlier_window_weighs_by_how_much_of_it_the_sliding_window_still_holds(
    api, settings, clock
):
    settings.API_THROTTLE_RATES = {"user": "4/min", "address": "100/min"}
    member = api("member")
    clock[0] = 60 * 1000 + 50  # 50 s into a minute
    for _ in range(4):
        assert member.get("/api/v1/clubs/").status_code == 200
    assert member.get("/api/v1/clubs/").status_code == 429
    # 20 s into the next minute the sliding window holds two thirds of the earlier one:
    # 4 * 2/3 = 2.67 requests, so two more are let through (2.67 + 1 < 4), not a third.
    clock[0] = 60 * 1001 + 20
    assert member.get("/api/v1/clubs/").status_code == 200
    assert member.get("/api/v1/clubs/").status_code == 200
    refused = member.get("/api/v1/clubs/")
    assert refused.status_code == 429
    # The earlier minute's share falls under 4 - 2 = 2 when half of it is left: at 30 s.
    assert refused["Retry-After"] == "10"
    clock[0] = 60 * 1001 + 31
    assert member.get("/api/v1/clubs/").status_code == 200


def test_a_full_window_waits_for_its_end_and_its_weight_to_fall(api, settings, clock):
    settings.API_THROTTLE_RATES = {"user": "3/min", "address": "100/min"}
    member = api("member")
    clock[0] = 60 * 1000 + 15
    for _ in range(3):
        assert member.get("/api/v1/clubs/").status_code == 200
    # 45 s to the minute's end; then 3 * (1 - t/60) < 3 at once after it.
    assert member.get("/api/v1/clubs/")["Retry-After"] == "45"


def test_a_scope_keeps_two_counts_not_a_log_of_every_request(api, cast, settings, clock):
    settings.API_THROTTLE_RATES = {"user": "100/min", "address": "100/min"}
    member = api("member")
    clock[0] = 60 * 1000 + 10
    for _ in range(5):
        assert member.get("/api/v1/clubs/").status_code == 200
    user_keys = [f"throttle_user_{cast.users['member'].pk}_{n}" for n in (999, 1000)]
    assert throttles.throttle_cache.get_many(user_keys) == {user_keys[1]: 5}
    assert throttles.throttle_cache.get("throttle_address_127.0.0.1_1000") == 5
