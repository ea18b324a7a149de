"""`GET /health/`: anonymous JSON from django-health-check; 200 when the
database, cache, Redis, media storage and disk and the worker heartbeat are fine, 503 when
one is not."""

import time
from collections import namedtuple

import pytest
import time_machine
from django.core.cache import cache

from schockclub import health
from schockclub.celery import WORKER_HEARTBEAT_KEY, app, worker_heartbeat_write

pytestmark = pytest.mark.django_db

URL = "/health/"
DiskUsage = namedtuple("DiskUsage", "total used free percent")


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def queued_tasks():
    """Tasks go to a worker (as with REDIS_URL): the heartbeat is needed."""
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    cache.delete(WORKER_HEARTBEAT_KEY)
    yield
    app.conf.task_always_eager = saved
    cache.delete(WORKER_HEARTBEAT_KEY)


@pytest.fixture
def eager_tasks():
    """Tasks run in the web process (no REDIS_URL, `make run`): no worker is needed."""
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = saved


def test_health_is_ok_for_an_anonymous_visitor_without_a_worker_needed(client, eager_tasks):
    response = client.get(URL)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "OK"
    assert body["checks"]["cache"] == "OK"
    assert body["checks"]["media_storage"] == "OK"
    assert body["checks"]["media_disk"] == "OK"
    assert body["checks"]["worker"].startswith("not needed")
    assert "no-store" in response["Cache-Control"]


def test_health_is_ok_with_a_fresh_worker_heartbeat(client, queued_tasks):
    worker_heartbeat_write()
    response = client.get(URL)
    assert response.status_code == 200, response.content
    assert response.json()["checks"]["worker"] == "OK"


def test_health_fails_with_503_when_no_worker_ever_beat(client, queued_tasks):
    response = client.get(URL)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert "no worker heartbeat" in body["checks"]["worker"]
    assert body["checks"]["database"] == "OK"


def test_health_fails_with_503_when_the_last_heartbeat_is_too_old(client, queued_tasks, settings):
    settings.HEALTH_WORKER_MAX_AGE = 120
    cache.set(WORKER_HEARTBEAT_KEY, time.time() - 125, None)
    response = client.get(URL)
    assert response.status_code == 503
    assert "last worker heartbeat" in response.json()["checks"]["worker"]


def test_health_fails_with_503_when_the_media_disk_is_full(client, monkeypatch, eager_tasks):
    monkeypatch.setattr(
        "health_check.contrib.psutil.psutil.disk_usage",
        lambda path: DiskUsage(100, 97, 3, 97.0),
    )
    response = client.get(URL)
    assert response.status_code == 503
    assert "97.0" in response.json()["checks"]["media_disk"]


def test_health_fails_with_503_when_the_database_is_unreachable(client, monkeypatch, eager_tasks):
    from django.db import OperationalError

    def refuse(self):
        raise OperationalError("connection refused: the database is down")

    monkeypatch.setattr("django.db.backends.base.base.BaseDatabaseWrapper.cursor", refuse)
    response = client.get(URL)
    assert response.status_code == 503
    assert response.json()["checks"]["database"].startswith("Unavailable")


def test_health_checks_redis_only_when_redis_is_configured(settings):
    settings.REDIS_URL = ""
    assert "redis" not in health.health_checks()
    settings.REDIS_URL = "redis://127.0.0.1:6379/3"
    assert "redis" in health.health_checks()


def test_health_answers_over_http_while_pages_are_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get(URL).status_code in (200, 503)
    response = client.get("/login/")
    assert response.status_code == 301
    assert response["Location"].startswith("https://")


# --- a dead worker is reported within 90 s of its death --------------------------------

DEATH_REPORTED_WITHIN = 90  # seconds


def test_a_worker_is_reported_dead_within_90_seconds_by_the_configured_timings():
    from django.conf import settings

    from schockclub.celery import WORKER_HEARTBEAT_INTERVAL

    # Dead at any moment after its last beat: failing once that beat is max_age old.
    assert settings.HEALTH_WORKER_MAX_AGE <= DEATH_REPORTED_WITHIN
    # A live worker is not reported dead for one late beat.
    assert settings.HEALTH_WORKER_MAX_AGE >= 3 * WORKER_HEARTBEAT_INTERVAL


def test_a_worker_killed_after_its_last_beat_is_reported_within_90_seconds(client, queued_tasks):
    with time_machine.travel(1_800_000_000, tick=False) as traveller:
        worker_heartbeat_write()  # its last beat; then it is killed
        traveller.shift(DEATH_REPORTED_WITHIN)
        response = client.get(URL)
    assert response.status_code == 503
    worker = response.json()["checks"]["worker"]
    assert "no worker heartbeat" in worker or "last worker heartbeat" in worker


def test_the_worker_check_fails_with_a_reason_when_the_cache_is_unreachable(
    client, queued_tasks, monkeypatch
):
    def unreachable():
        raise ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    monkeypatch.setattr(health, "worker_heartbeat_read", unreachable)
    response = client.get(URL)
    assert response.status_code == 503
    assert "worker heartbeat unreadable" in response.json()["checks"]["worker"]
