"""A real Celery worker on Redis builds the season report (CI).

Runs only with REDIS_URL set and a database another process can reach (PostgreSQL): CI
sets both. The worker is a subprocess on a queue of its own (so a stray worker cannot take
the task) whose DATABASE_URL points at pytest's test database; the data is committed
(transactional test) so the worker sees it.
"""

import io
import os
import shutil
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
from pypdf import PdfReader

from league.club.money import format_money
from league.club.services import member_login_set
from league.reports import builds as report_builds
from league.reports.models import ReportBuild
from league.standings.selectors import season_standings
from schockclub.celery import app
from tests.sample import enter_sample_evening

ROOT = Path(__file__).resolve().parents[3]  # the checkout: tests/league/reports/ -> ../../..
REDIS_URL = os.environ.get("REDIS_URL", "")

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL (a real Redis); CI sets it"),
]


def _database_url() -> str:
    """The URL of the database pytest uses now (the test database)."""
    s = connection.settings_dict
    user = quote(s.get("USER") or "")
    password = f":{quote(s['PASSWORD'])}" if s.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{auth}{s.get('HOST') or '127.0.0.1'}{port}/{s['NAME']}"


@pytest.fixture
def worker_queue(settings, media):
    """A real worker subprocess on a queue of its own; stopped at the end."""
    if connection.vendor != "postgresql":
        pytest.skip("needs a database the worker process can reach (PostgreSQL DATABASE_URL)")
    queue = f"reports-test-{uuid.uuid4().hex[:10]}"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    settings.QUEUE_REPORTS = queue  # the report build's own queue (schockclub.celery)
    app.conf.task_always_eager = False
    app.conf.broker_url = REDIS_URL
    report_builds._broker_status["checked_at"] = 0.0
    env = dict(
        os.environ,
        DATABASE_URL=_database_url(),
        REDIS_URL=REDIS_URL,
        CELERY_TASK_DEFAULT_QUEUE=queue,
        MEDIA_ROOT=str(media),
        DJANGO_SETTINGS_MODULE="schockclub.settings",
    )
    celery = Path(sys.executable).with_name("celery")
    log = tempfile.NamedTemporaryFile("w+", prefix="worker-", suffix=".log", delete=False)
    proc = subprocess.Popen(
        [
            str(celery),
            "-A",
            "schockclub",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-Q",
            queue,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=info",
            "-n",
            f"{queue}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield queue
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.seek(0)
        print(f"worker log ({log.name}):\n" + log.read()[-3000:])
        log.close()


def _wait_for(build: ReportBuild, seconds: float = 120) -> ReportBuild:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        build.refresh_from_db()
        if build.status in (ReportBuild.Status.READY, ReportBuild.Status.FAILED):
            return build
        time.sleep(0.5)
    raise AssertionError(f"the worker did not finish the build: {build.status} {build.error}")


@pytest.mark.django_db(transaction=True)
def test_worker_on_redis_builds_the_season_report(worker_queue, sample_evening, tmp_path):
    import datetime

    from django.test import Client

    from tests.factories import UserFactory

    evening, people = enter_sample_evening(sample_evening)
    enter_sample_evening(sample_evening, date=datetime.date(2026, 10, 16))
    season = evening.season
    user = UserFactory(username="worker-test")
    member_login_set(person=people["Anna Becker"], user=user)
    client = Client()
    client.force_login(user)

    client.post(reverse("season_report_request", args=[season.year]))
    build = _wait_for(ReportBuild.objects.get(season=season))
    assert build.status == ReportBuild.Status.READY, build.error

    page = client.get(reverse("season_report", args=[season.year])).content.decode()
    assert reverse("season_report_download", args=[season.year]) in page
    response = client.get(reverse("season_report_download", args=[season.year]))
    pdf = b"".join(response.streaming_content)
    reader = PdfReader(io.BytesIO(pdf))
    text = "\n".join(p.extract_text() for p in reader.pages).replace("\xa0", " ")

    standings = season_standings(season=season)
    positions = [text.index(f"{r.place}. {r.member.name}") for r in standings.rows]
    assert positions == sorted(positions)
    total = format_money(standings.money_total, standings.currency).replace("\xa0", " ")
    assert f"{standings.marks_total} {total}" in text
    # the chronicle: per evening who threw Schock-Aus and who owes a Runde (which one)
    owed = ", ".join(
        f"{item['thrower']} ({item['ordinal']}.)"
        for item in sorted(sample_evening["expected"]["runden_owed"], key=lambda i: i["ordinal"])
    )
    assert text.count(f"Runden: {owed}") == 2  # both evenings

    if shutil.which("pdftoppm"):
        pdf_path = tmp_path / "saisonbericht.pdf"
        pdf_path.write_bytes(pdf)
        out = Path(tempfile.gettempdir()) / f"saisonbericht-worker-{os.getpid()}"
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "60",
                "-f",
                "1",
                "-l",
                "1",
                "-singlefile",
                str(pdf_path),
                str(out),
            ],
            check=True,
        )
        print(f"page 1 of the report built by the worker: {out}.png")
        assert out.with_suffix(".png").stat().st_size > 0
