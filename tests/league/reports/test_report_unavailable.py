"""Redis unreachable: the season page still renders, says the
report cannot be built now, and nothing hangs."""

import socket

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from league.reports.builds import broker_available, report_build_request, report_state
from league.reports.models import ReportBuild
from schockclub.celery import app

pytestmark = pytest.mark.django_db


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the socket goes


@pytest.fixture
def redis_down(settings):
    """Tasks go to a Redis that does not answer (a closed local port)."""
    url = f"redis://127.0.0.1:{_closed_port()}/0"
    app.conf.task_always_eager = False
    app.conf.broker_url = url
    settings.CELERY_BROKER_URL = url
    return url


def unreachable_text() -> str:
    with translation.override("de"):
        return gettext(
            "The report cannot be built now: the task queue (Redis) cannot be reached. "
            "Everything else works; try again later."
        )


def test_broker_check_says_redis_is_not_available(redis_down):
    assert broker_available(use_cache=False) is False


def test_season_report_page_renders_and_says_it_cannot_be_built_now(redis_down, member_client):
    response = member_client.get(reverse("season_report", args=[2026]))
    assert response.status_code == 200
    assert unreachable_text() in response.content.decode()


def test_standings_page_still_renders_while_redis_is_down(redis_down, member_client):
    response = member_client.get(reverse("season_standings", args=[2026]))
    assert response.status_code == 200
    assert unreachable_text() in response.content.decode()


def test_request_while_redis_is_down_keeps_the_build_with_the_reason(
    redis_down, sample_season, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        build = report_build_request(season=sample_season.season)
    build.refresh_from_db()
    assert build.status == ReportBuild.Status.QUEUED
    assert build.error == unreachable_text()
    assert report_state(season=sample_season.season, check_broker=False).state == "unavailable"


def test_request_page_while_redis_is_down_answers_with_the_report_page(redis_down, member_client):
    response = member_client.post(reverse("season_report_request", args=[2026]), follow=True)
    assert response.status_code == 200
    assert unreachable_text() in response.content.decode()


def test_request_is_queued_again_when_redis_is_back(
    redis_down, sample_season, django_capture_on_commit_callbacks
):
    from league.reports import builds as report_builds

    with django_capture_on_commit_callbacks(execute=True):
        first = report_build_request(season=sample_season.season)
    app.conf.task_always_eager = True  # Redis is back (eager stands in for the worker)
    report_builds._broker_status["checked_at"] = 0.0
    with django_capture_on_commit_callbacks(execute=True):
        again = report_build_request(season=sample_season.season)
    again.refresh_from_db()
    assert again.pk == first.pk
    assert again.status == ReportBuild.Status.READY


def test_api_status_says_the_broker_is_down(redis_down, member_client, sample_season):
    response = member_client.get(f"/api/v1/seasons/{sample_season.season_id}/report/")
    assert response.status_code == 200
    assert response.json()["state"] == "unavailable"
    assert response.json()["broker_ok"] is False
