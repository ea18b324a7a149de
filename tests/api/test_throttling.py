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
