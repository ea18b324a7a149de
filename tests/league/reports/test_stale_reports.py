"""The evening sheet and the stored season report follow the register and the day: a
renamed club or person shows on the next sheet, and a stored report printed with the old
name, or with another day's "Stand", is never served as current.

The sheet's books are kept in the cache (league/club/caching.py), which happens outside a
transaction only (`transaction=True`)."""

import datetime

import pytest
import time_machine
from django.core.cache import cache
from django.db import transaction

from league.club.books import register_changed
from league.club.services import member_update
from league.reports.builds import report_build_for_download, report_build_request
from league.reports.models import ReportBuild
from league.reports.pdf import (
    build_evening_sheet_pdf,
)
from tests.league.reports.conftest import pdf_pages

NEW_NAME = "Schockfreunde Neustadt"
# A day of the sample season 2026 and the next day, noon in Berlin.
DAY = datetime.datetime(2026, 11, 26, 11, 0, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _club_renamed(club, name: str) -> None:
    """What the admin's club form does: save the name, then the register's event."""
    with transaction.atomic():
        club.refresh_from_db()
        club.name = name
        club.save()
        register_changed(club=club)


def _sheet_text(evening) -> str:
    return " ".join(pdf_pages(build_evening_sheet_pdf(evening=evening)))


@pytest.mark.django_db(transaction=True)
def test_the_evening_sheet_shows_the_clubs_new_name_after_a_rename(sample_season):
    old = sample_season.club.name
    assert old in _sheet_text(sample_season)
    assert old in _sheet_text(sample_season)  # the kept books

    _club_renamed(sample_season.club, NEW_NAME)

    text = _sheet_text(sample_season)
    assert NEW_NAME in text and old not in text


@pytest.mark.django_db(transaction=True)
def test_the_evening_sheet_shows_a_persons_new_name_after_a_rename(sample_season):
    anna = sample_season.club.members.get(name="Anna Becker")
    assert "Anna Becker" in _sheet_text(sample_season)

    member_update(member=anna, name="Anna Schmidt")

    text = _sheet_text(sample_season)
    assert "Anna Schmidt" in text and "Anna Becker" not in text


@pytest.fixture
def ready_report(sample_season, django_capture_on_commit_callbacks):
    with time_machine.travel(DAY, tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            report_build_request(season=sample_season.season)
        assert report_build_for_download(season=sample_season.season) is not None
    return sample_season


@pytest.mark.django_db
def test_a_stored_report_is_stale_after_the_club_is_renamed(ready_report):
    with time_machine.travel(DAY, tick=False):
        _club_renamed(ready_report.club, NEW_NAME)
        assert report_build_for_download(season=ready_report.season) is None


@pytest.mark.django_db
def test_a_stored_report_is_stale_on_the_next_day_since_it_prints_its_day(ready_report):
    with time_machine.travel(DAY + datetime.timedelta(days=1), tick=False):
        assert report_build_for_download(season=ready_report.season) is None


@pytest.mark.django_db
def test_a_stored_report_is_served_again_the_same_day(ready_report):
    with time_machine.travel(DAY + datetime.timedelta(hours=2), tick=False):
        assert report_build_for_download(season=ready_report.season) is not None
    assert ReportBuild.objects.count() == 1
