"""Static files after `collectstatic`: the pages link hashed names, served with
`Cache-Control: max-age=31536000, public, immutable` (a year); a plain name keeps
WHITENOISE_MAX_AGE. Without collectstatic the pages link the plain names."""

import re

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client

pytestmark = pytest.mark.django_db

# Only the project's own files: the admin's and Swagger UI's are collected alike, slower.
IGNORE = ["admin", "drf_spectacular_sidecar", "rest_framework", "django_filters"]


@pytest.fixture
def collected(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path / "static"
    settings.WHITENOISE_MAX_AGE = 60
    args = ["collectstatic", "--noinput", "-v", "0"]
    for pattern in IGNORE:
        args += ["-i", pattern]
    call_command(*args)
    return settings.STATIC_ROOT


def test_the_pages_link_hashed_names_kept_a_year(collected):
    url = static("css/app.css")
    assert re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", url)
    response = Client().get(url)
    assert response.status_code == 200
    assert response["Cache-Control"] == "max-age=31536000, public, immutable"


def test_a_plain_name_is_kept_only_briefly(collected):
    response = Client().get("/static/css/app.css")
    assert response.status_code == 200
    assert response["Cache-Control"] == "max-age=60, public"


def test_without_collectstatic_the_pages_link_the_plain_names(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path / "empty"
    assert static("css/app.css") == "/static/css/app.css"
