"""The schema and Swagger UI are served, and every operation of the API
carries a description and an example."""

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _client() -> APIClient:
    client = APIClient()
    client.force_authenticate(UserFactory(username="docs-reader"))
    return client


METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        response = _client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        UserFactory._meta.model.objects.filter(username="docs-reader").delete()
    return response.json()


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", operation


def test_schema_is_openapi_3(schema):
    assert schema["openapi"].startswith("3.")


def test_swagger_ui_is_served():
    response = _client().get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


@pytest.mark.parametrize("path", ["/api/docs/", "/api/schema/"])
def test_anonymous_visitors_see_no_api_docs(path):
    assert APIClient().get(path).status_code in (401, 403)


def test_every_operation_has_a_description(schema):
    missing = [name for name, op in _operations(schema) if not op.get("description")]
    assert missing == []


def _has_example(operation) -> bool:
    contents = [operation.get("requestBody", {}).get("content", {})]
    contents += [r.get("content", {}) for r in operation.get("responses", {}).values()]
    return any(media.get("examples") for content in contents for media in content.values())


def test_every_operation_has_an_example(schema):
    missing = [name for name, op in _operations(schema) if not _has_example(op)]
    assert missing == []
