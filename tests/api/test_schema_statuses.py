"""Every status an endpoint answers is in the OpenAPI schema (league/club/api_schema.py):
401 and 403 where a login is needed, 404 where the path names an object, 409 on every
write of the books (a closed season refuses it), 304 where a read answers its ETag."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from league.club.models import Season

METHODS = {"get", "post", "put", "patch", "delete"}
WRITES = {"post", "put", "patch", "delete"}

# Writes that are not the books: logins, computations, queueing the season report.
NOT_BOOKS = {
    "POST /api/v1/auth/token/",
    "POST /api/v1/auth/logout/",
    "POST /api/v1/auth/logout-all/",
    "POST /api/v1/auth/password/",
    "DELETE /api/v1/auth/tokens/{id}/",
    "POST /api/v1/rules/evaluate/",
    "POST /api/v1/games/rounds/preview/",
    "POST /api/v1/seasons/{season_id}/report/",
    "POST /api/v1/me/calendar/revoke/",
    "PUT /api/v1/me/notifications/",
    "DELETE /api/v1/push-subscriptions/",
}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield method, path, operation


def _documented(schema, method: str, path: str) -> set[str]:
    return set(schema["paths"][path][method]["responses"])


def _needs_login(operation) -> bool:
    security = operation.get("security") or []
    return bool(security) and {} not in security


def test_every_operation_that_needs_a_login_documents_401_and_403(schema):
    missing = [
        f"{method.upper()} {path}"
        for method, path, operation in _operations(schema)
        if _needs_login(operation) and not {"401", "403"} <= set(operation["responses"])
    ]
    assert missing == []


def test_every_operation_on_a_named_object_documents_404(schema):
    missing = [
        f"{method.upper()} {path}"
        for method, path, operation in _operations(schema)
        if "{" in path and "404" not in operation["responses"]
    ]
    assert missing == []


def test_every_write_of_the_books_documents_409(schema):
    missing = [
        f"{method.upper()} {path}"
        for method, path, operation in _operations(schema)
        if method in WRITES
        and f"{method.upper()} {path}" not in NOT_BOOKS
        and "409" not in operation["responses"]
    ]
    assert missing == []


@pytest.mark.django_db
def test_the_conflicts_a_closed_season_answers_are_documented(schema, api, cast):
    Season.objects.filter(pk=cast.season.pk).update(closed_at="2026-12-31T20:00:00Z")
    secretary = api("secretary")
    payment = {"member": cast.member.pk, "amount": "0.50", "paid_on": "2026-10-10"}
    answers = {
        ("post", "/api/v1/payments/"): secretary.post("/api/v1/payments/", payment, format="json"),
        ("patch", "/api/v1/seasons/{id}/"): secretary.patch(
            f"/api/v1/seasons/{cast.season.pk}/", {"rule_preset": "stammtisch"}, format="json"
        ),
    }
    for (method, path), answer in answers.items():
        assert answer.status_code == 409, (path, answer.json())
        assert "409" in _documented(schema, method, path)


@pytest.mark.django_db
def test_a_read_that_answers_304_to_its_etag_documents_it(schema, api, cast):
    member = api("member")
    first = member.get("/api/v1/evenings/")
    again = member.get("/api/v1/evenings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert "304" in _documented(schema, "get", "/api/v1/evenings/")
