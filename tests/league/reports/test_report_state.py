"""The season report's state is read in one query (the season page reads it on
every request): the latest build and the ready build of the current data version, with
the version computed in SQL (`_report_version_sql`) equal to `report_data_version`."""

import datetime

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import connection
from django.utils import timezone

from games.evenings.services import game_record
from league.closing.models import SeasonSignOff
from league.club.models import Club, Season
from league.reports import builds as report_builds
from league.reports.builds import report_build_current, report_state
from league.reports.models import ReportBuild
from league.reports.runs import report_data_version

pytestmark = pytest.mark.django_db


def _sql_version(season: Season) -> int:
    params = {
        "season": season.pk,
        "club": season.club_id,
        "year": season.year,
        "day": timezone.localdate().toordinal(),
    }
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {report_builds._report_version_sql()}", params)
        return int(cursor.fetchone()[0])


def _ready_build(season: Season, version: int) -> ReportBuild:
    name = default_storage.save(f"reports/test/{season.pk}-{version}.pdf", ContentFile(b"%PDF"))
    return ReportBuild.objects.create(
        season=season, status=ReportBuild.Status.READY, data_version=version, file=name
    )


def test_sql_version_equals_report_data_version_as_the_books_move(sample_season):
    season = sample_season.season
    year = season.year - 1
    earlier = Season.objects.create(
        club=season.club,
        year=year,
        starts_on=datetime.date(year, 1, 1),
        ends_on=datetime.date(year, 12, 31),
        mark_value=season.mark_value,
        currency=season.currency,
    )
    Season.objects.filter(pk=earlier.pk).update(data_version=7)
    assert _sql_version(season) == report_data_version(season=season)
    game_record(evening=sample_season, loser=sample_season.club.members.get(name="Anna Becker"))
    season.refresh_from_db()
    assert _sql_version(season) == report_data_version(season=season)
    SeasonSignOff.objects.create(
        season=season,
        auditor=sample_season.club.members.get(name="Anna Becker"),
        signed_at=timezone.now(),
        fingerprint="0" * 64,
        data_version=season.data_version,
    )
    assert _sql_version(season) == report_data_version(season=season)
    # The earlier season's version counts for the later one's report, not the reverse;
    # beside the books, the club's register version and the day the report prints.
    register = Club.objects.get(pk=season.club_id).register_version
    beside = register + timezone.localdate().toordinal()
    assert _sql_version(earlier) == report_data_version(season=earlier) == 7 + beside


def test_state_is_one_query_and_tells_ready_from_stale(sample_season, django_assert_num_queries):
    season = sample_season.season
    with django_assert_num_queries(1):
        assert report_state(season=season, check_broker=False).state == "none"
    ready = _ready_build(season, report_data_version(season=season))
    with django_assert_num_queries(1):
        state = report_state(season=season, check_broker=False)
    assert (state.state, state.ready, state.build) == ("ready", ready, ready)
    # A later failed build: still ready (the ready file is served), the latest is the failed.
    failed = ReportBuild.objects.create(
        season=season, status=ReportBuild.Status.FAILED, data_version=0, error="x"
    )
    state = report_state(season=season, check_broker=False)
    assert (state.state, state.ready) == ("ready", ready)
    # The books move: the ready build is of an old version, the latest decides.
    game_record(evening=sample_season, loser=sample_season.club.members.get(name="Anna Becker"))
    with django_assert_num_queries(1):
        state = report_state(season=season, check_broker=False)
    assert (state.state, state.build) == ("failed", failed)
    assert report_build_current(season=season) is None


def test_a_ready_build_whose_file_is_gone_is_not_served(sample_season):
    season = sample_season.season
    ready = _ready_build(season, report_data_version(season=season))
    default_storage.delete(ready.file.name)
    assert report_build_current(season=season) is None
    assert report_state(season=season, check_broker=False).state == "stale"
