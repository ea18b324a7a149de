"""The API's JSON bodies are bounded (league.club.parsers): nesting and size past the bound
answer 400 `parse_error` with a German message, never a 500 (issue 13 item 1)."""

import pytest
from rest_framework.test import APIClient

from league.club.parsers import MAX_DEPTH, nesting_depth

pytestmark = pytest.mark.django_db


def _post(client: APIClient, path: str, body: str):
    return client.post(path, data=body, content_type="application/json")


def test_a_deeply_nested_body_to_the_token_endpoint_is_a_400_not_a_500():
    body = "[" * 100_000 + "]" * 100_000
    response = _post(APIClient(), "/api/v1/auth/token/", body)
    assert (response.status_code, response.json()["code"]) == (400, "parse_error")


def test_a_body_nested_just_past_the_bound_is_refused_in_german():
    body = '{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1)
    response = APIClient().post(
        "/api/v1/auth/token/", data=body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 400
    assert "verschachtelt" in response.json()["message"]


def test_a_body_at_the_bound_is_read(api):
    body = '{"date": "2026-03-06", "x": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}"
    response = _post(api("secretary"), "/api/v1/evenings/", body)
    assert response.status_code == 400
    assert response.json()["code"] != "parse_error"


def test_a_body_past_the_size_bound_is_refused(settings):
    settings.API_MAX_BODY_BYTES = 100
    response = _post(APIClient(), "/api/v1/auth/token/", '{"username": "' + "a" * 200 + '"}')
    assert (response.status_code, response.json()["code"]) == (400, "parse_error")


@pytest.mark.parametrize(
    ("value", "depth"), [(1, 0), ([], 1), ({"a": [1, {"b": []}]}, 4), ([[[[]]]], 4)]
)
def test_the_nesting_depth_of_a_parsed_value(value, depth):
    assert nesting_depth(value) == depth
