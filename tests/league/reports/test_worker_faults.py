"""A worker killed mid-build does not lose the season report.

The worker test runs only with REDIS_URL set (CI sets it): it is Redis that hands the
unacknowledged task of a dead worker to the next one, which eager tasks cannot show. It
needs PostgreSQL too, so that the worker subprocesses see pytest's test database (the data
is committed: transactional test).

Worker A builds slowly (its PDF builder sleeps; patched only in that process) and is killed
with SIGKILL while the build is "building". Worker B, started afterwards, must get the task
again from Redis and build the report, well within two minutes. The broker's visibility
timeout is 10 s here (75 s in production, settings.py) to keep the test short.
"""

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection
from django.urls import reverse

from league.club.services import member_login_set
from league.reports import builds as report_builds
from league.reports.models import ReportBuild
from schockclub.celery import app, worker_heartbeat_read
from tests.sample import enter_sample_evening

ROOT = Path(__file__).resolve().parents[3]  # the checkout: tests/league/reports/ -> ../../..
REDIS_URL = os.environ.get("REDIS_URL", "")
VISIBILITY_TIMEOUT = 10  # seconds, for this test only
BOUND = 120  # seconds from the kill to the report ready

needs_redis = pytest.mark.skipif(
    not REDIS_URL,
    reason="needs REDIS_URL: redelivering a killed worker's task is Redis's job (CI sets it)",
)

# The worker process: Django set up, optionally a PDF builder that hangs (so the build is
# caught "building"), then a solo-pool worker on the test's own queue.
WORKER_CODE = """
import sys, time
import django
django.setup()
queue, slow = sys.argv[1], sys.argv[2] == "slow"
if slow:
    from league.reports import pdf
    def hanging_build(**kwargs):
        time.sleep(600)
        raise RuntimeError("the hanging build was not killed")
    pdf.build_season_report_pdf = hanging_build
from schockclub.celery import app
app.worker_main([
    "worker", "--pool=solo", "--concurrency=1", "-Q", queue, "--without-gossip",
    "--without-mingle", "--without-heartbeat", "--loglevel=info", "-n", f"{queue}-{slow}@%h",
])
"""


def _database_url() -> str:
    """The URL of the database pytest uses now (the test database)."""
    s = connection.settings_dict
    user = quote(s.get("USER") or "")
    password = f":{quote(s['PASSWORD'])}" if s.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{auth}{s.get('HOST') or '127.0.0.1'}{port}/{s['NAME']}"


class Workers:
    """Starts worker subprocesses on one queue; stops what is left and prints the logs."""

    def __init__(self, queue: str, media: Path) -> None:
        self.queue = queue
        self.env = dict(
            os.environ,
            DATABASE_URL=_database_url(),
            REDIS_URL=REDIS_URL,
            CELERY_TASK_DEFAULT_QUEUE=queue,
            BROKER_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
            MEDIA_ROOT=str(media),
            DJANGO_SETTINGS_MODULE="schockclub.settings",
        )
        self.running: list[tuple[subprocess.Popen, object]] = []

    def start(self, *, slow: bool) -> subprocess.Popen:
        log = tempfile.NamedTemporaryFile("w+", prefix="worker-fault-", suffix=".log")
        proc = subprocess.Popen(
            [sys.executable, "-c", WORKER_CODE, self.queue, "slow" if slow else "normal"],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.running.append((proc, log))
        return proc

    def stop_all(self) -> None:
        for proc, log in self.running:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            log.seek(0)
            print(f"worker {proc.args[-1]} (exit {proc.returncode}):\n{log.read()[-2500:]}")
            log.close()


@pytest.fixture
def workers(settings, media):
    if connection.vendor != "postgresql":
        pytest.skip("needs a database the worker processes can reach (PostgreSQL DATABASE_URL)")
    queue = f"reports-fault-{uuid.uuid4().hex[:10]}"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    settings.QUEUE_REPORTS = queue  # the report build's own queue (schockclub.celery)
    app.conf.task_always_eager = False
    app.conf.broker_url = REDIS_URL
    report_builds._broker_status["checked_at"] = 0.0
    pool = Workers(queue, media)
    try:
        yield pool
    finally:
        pool.stop_all()


def _wait(build: ReportBuild, until, seconds: float) -> float:
    """Poll the build until `until(build)`; the seconds it took. Fails after `seconds`."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        build.refresh_from_db()
        if until(build):
            return time.monotonic() - start
        time.sleep(0.25)
    raise AssertionError(f"gave up after {seconds} s: {build.status} {build.error!r}")


@pytest.mark.worker
@needs_redis
@pytest.mark.django_db(transaction=True)
def test_a_report_whose_worker_is_killed_mid_build_is_built_by_the_next_worker(
    workers, sample_evening
):
    from django.test import Client

    from tests.factories import UserFactory

    evening, people = enter_sample_evening(sample_evening)
    season = evening.season
    user = UserFactory(username="fault-test")
    member_login_set(person=people["Anna Becker"], user=user)
    client = Client()
    client.force_login(user)

    doomed = workers.start(slow=True)
    client.post(reverse("season_report_request", args=[season.year]))
    build = ReportBuild.objects.get(season=season)
    _wait(build, lambda b: b.status == ReportBuild.Status.BUILDING, 90)
    assert build.attempts == 1

    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=10)
    killed_at = time.monotonic()
    build.refresh_from_db()
    assert build.status == ReportBuild.Status.BUILDING  # the dead attempt left it so

    workers.start(slow=False)
    _wait(build, lambda b: b.status in (ReportBuild.Status.READY, ReportBuild.Status.FAILED), BOUND)
    took = time.monotonic() - killed_at
    print(f"report ready {took:.1f} s after the worker was killed")
    assert build.status == ReportBuild.Status.READY, build.error
    assert took < BOUND
    # Delivered again and built anew, not skipped as "building".
    assert build.attempts == 2

    response = client.get(reverse("season_report_download", args=[season.year]))
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"%PDF")

    # The second worker's heartbeat reached the cache the web process reads (/health/).
    beat = worker_heartbeat_read()
    assert beat is not None and time.time() - beat < 60


@pytest.mark.django_db
def test_a_build_left_building_by_a_dead_worker_is_built_anew_when_delivered_again(
    sample_evening,
):
    # What the second worker does with the task Redis gives it again (no Redis needed).
    from league.reports.runs import report_build_run

    evening, _people = enter_sample_evening(sample_evening)
    build = ReportBuild.objects.create(
        season=evening.season, status=ReportBuild.Status.BUILDING, attempts=1
    )
    report_build_run(build_id=build.pk)
    build.refresh_from_db()
    assert build.status == ReportBuild.Status.READY
    assert build.attempts == 2
    assert build.file.storage.open(build.file.name).read(4) == b"%PDF"
