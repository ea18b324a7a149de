"""Fixtures of the report tests: eager Celery (unless a test says otherwise), a private
media folder, the sample season and a logged-in member of its club."""

import io

import pytest
from django.test import Client
from pypdf import PdfReader

from league.club.services import member_login_set
from league.reports import builds as report_builds
from schockclub.celery import app
from tests.factories import ClubFactory, MemberFactory, SeasonFactory, UserFactory
from tests.sample import enter_sample_evening_copied


@pytest.fixture(autouse=True)
def eager_tasks():
    """Tasks run in the test process, even when REDIS_URL is set (CI); the broker check
    starts fresh. The worker test switches this off for itself."""
    saved = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager = True
    report_builds._note_broker(True)
    report_builds._broker_status["checked_at"] = 0.0
    yield
    app.conf.task_always_eager, app.conf.broker_url = saved
    report_builds._broker_status["checked_at"] = 0.0


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def sample_season(sample_evening):
    """The sample evening of 2026-10-09 entered through the services; its Evening."""
    evening, _ = enter_sample_evening_copied(sample_evening)
    return evening


@pytest.fixture
def member_client(sample_season):
    """A client logged in as a club member of the sample club (Anna Becker)."""
    user = UserFactory(username="anna")
    member = sample_season.club.members.get(name="Anna Becker")
    member_login_set(person=member, user=user)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def outsider_client(db):
    """A client logged in as a member of another club."""
    club = ClubFactory(name="Andere Runde")
    SeasonFactory(club=club, year=2026)
    user = UserFactory(username="outsider")
    MemberFactory(club=club, name="Otto Außen", user=user)
    client = Client()
    client.force_login(user)
    return client


def pdf_pages(pdf: bytes) -> list[str]:
    """The text of every page of a PDF (pypdf)."""
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages]


def pdf_text(pdf: bytes) -> str:
    return "\n".join(pdf_pages(pdf))
