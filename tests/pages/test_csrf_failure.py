"""A form sent without its CSRF token is refused with a German page in the site's frame,
403, with nothing inline the Content-Security-Policy blocks (settings.CSRF_FAILURE_VIEW)."""

import pytest
from django.test import Client

from tests.test_deploy import _Scripts

pytestmark = pytest.mark.django_db


@pytest.fixture
def refused():
    client = Client(enforce_csrf_checks=True)
    return client.post("/login/", {"username": "anna", "password": "geheim-123"})


def test_a_login_posted_without_a_csrf_token_gets_a_german_403_page(refused):
    assert refused.status_code == 403
    text = refused.content.decode()
    assert "Formular abgelaufen" in text
    assert "Sicherheitsprüfung ist fehlgeschlagen" in text
    assert "Forbidden" not in text


def test_the_csrf_refusal_has_no_inline_style_or_script(refused):
    assert "default-src 'self'" in refused.headers["Content-Security-Policy"]
    parser = _Scripts()
    parser.feed(refused.content.decode())
    assert (parser.inline, parser.handlers, parser.styles) == ([], [], [])
