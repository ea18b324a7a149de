"""Every 404 and 405 under /api/ is the API's JSON refusal with a stable code, also when no
route matched (an unknown path, an id that is not a number) and when a view outside DRF
refused the method."""

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

NO_ROUTE = [
    "/api/v1/evenings/abc/",
    "/api/v1/evenings/1x/summary/",
    "/api/v1/games/%E2%82%AC/",
    "/api/v1/seasons/zwei/report/",
    "/api/v1/members/abc/statement/",
    "/api/v1/unknown/",
    "/api/unknown/",
    "/api/docs/unknown/",
]


@pytest.fixture
def secretary(cast):
    return client_for(cast, "secretary")


@pytest.mark.parametrize("path", NO_ROUTE)
def test_a_path_no_route_matches_is_a_json_404_not_found(secretary, path):
    response = secretary.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"code": "not_found", "message": "Nicht gefunden.", "field": None}


@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
def test_every_method_on_a_non_numeric_id_is_a_json_404(secretary, method):
    response = getattr(secretary, method)("/api/v1/games/abc/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_an_anonymous_visitor_gets_the_json_404_too():
    response = APIClient().get("/api/v1/evenings/abc/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_an_unknown_numeric_id_says_not_found_in_german(secretary):
    response = secretary.get("/api/v1/evenings/999999/")
    assert response.json() == {"code": "not_found", "message": "Nicht gefunden.", "field": None}


@pytest.mark.parametrize("path", ["/api/docs/", "/api/schema/"])
def test_a_method_the_docs_do_not_take_is_a_json_405_with_allow(secretary, path):
    response = secretary.post(path)
    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert (body["code"], body["field"]) == ("method_not_allowed", None)
    assert body["message"] == 'Methode "POST" nicht erlaubt.'
    assert "GET" in response["Allow"]
