"""Building, storing and serving the season report, with eager
tasks: the build runs in the test process after commit, as under `make run`."""

import datetime

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from games.evenings.services import game_record
from league.reports import builds as report_builds
from league.reports.builds import (
    report_build_for_download,
    report_build_request,
    report_refresh_if_stale,
    report_state,
)
from league.reports.models import ReportBuild
from league.reports.runs import report_data_version
from league.reports.tasks import MAX_RETRIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def request_report(django_capture_on_commit_callbacks):
    """Ask for the report and run what is queued after commit (the eager task)."""

    def ask(season):
        with django_capture_on_commit_callbacks(execute=True):
            build = report_build_request(season=season)
        build.refresh_from_db()
        return build

    return ask


def test_request_with_eager_tasks_builds_the_report_at_once(sample_season, request_report):
    build = request_report(sample_season.season)
    assert build.status == ReportBuild.Status.READY
    assert default_storage.open(build.file.name).read().startswith(b"%PDF")


def test_ready_report_is_served_again_without_a_new_build(sample_season, request_report):
    first = request_report(sample_season.season)
    again = request_report(sample_season.season)
    assert again.pk == first.pk
    assert ReportBuild.objects.count() == 1


def test_report_goes_stale_when_the_season_changes(sample_season, request_report):
    request_report(sample_season.season)
    anna = sample_season.club.members.get(name="Anna Becker")
    game_record(evening=sample_season, loser=anna)
    assert report_build_for_download(season=sample_season.season) is None
    assert report_state(season=sample_season.season).state == "stale"


def test_stale_report_is_rebuilt_from_the_new_data(sample_season, request_report):
    old = request_report(sample_season.season)
    game_record(evening=sample_season, loser=sample_season.club.members.get(name="Anna Becker"))
    new = request_report(sample_season.season)
    assert new.pk != old.pk
    assert new.status == ReportBuild.Status.READY
    assert new.data_version == report_data_version(season=sample_season.season)


def test_rebuilt_report_removes_the_old_file(sample_season, request_report):
    old = request_report(sample_season.season)
    old_name = old.file.name
    game_record(evening=sample_season, loser=sample_season.club.members.get(name="Anna Becker"))
    request_report(sample_season.season)
    assert not default_storage.exists(old_name)


def test_stale_report_is_queued_again_when_its_page_is_read(
    sample_season, request_report, django_capture_on_commit_callbacks
):
    request_report(sample_season.season)
    game_record(evening=sample_season, loser=sample_season.club.members.get(name="Anna Becker"))
    with django_capture_on_commit_callbacks(execute=True):
        report_refresh_if_stale(season=sample_season.season)
    assert report_state(season=sample_season.season).state == "ready"


def test_nothing_is_built_for_a_season_nobody_asked_about(sample_season):
    assert report_refresh_if_stale(season=sample_season.season) is None
    assert ReportBuild.objects.count() == 0


def test_failing_build_is_retried_then_failed_with_the_reason(
    sample_season, request_report, monkeypatch
):
    def broken(**kwargs):
        raise RuntimeError("Schriftart fehlt")

    monkeypatch.setattr("league.reports.pdf.build_season_report_pdf", broken)
    build = request_report(sample_season.season)
    assert build.status == ReportBuild.Status.FAILED
    assert build.attempts == MAX_RETRIES + 1
    assert "Schriftart fehlt" in build.error


def test_failed_build_shows_its_reason_in_the_state(sample_season, request_report, monkeypatch):
    monkeypatch.setattr(
        "league.reports.pdf.build_season_report_pdf",
        lambda **kw: (_ for _ in ()).throw(RuntimeError("Platte voll")),
    )
    request_report(sample_season.season)
    state = report_state(season=sample_season.season)
    assert state.state == "failed"
    assert "Platte voll" in state.message
    assert state.can_request


def test_build_that_fails_once_succeeds_on_retry(sample_season, request_report, monkeypatch):
    from league.reports import pdf as reports

    real, calls = reports.build_season_report_pdf, []

    def flaky(**kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OSError("kurz weg")
        return real(**kwargs)

    monkeypatch.setattr("league.reports.pdf.build_season_report_pdf", flaky)
    build = request_report(sample_season.season)
    assert build.status == ReportBuild.Status.READY
    assert build.attempts == 2


def test_half_written_file_is_never_served(sample_season, request_report, monkeypatch):
    storage = ReportBuild._meta.get_field("file").storage
    real_save = storage.save

    def save_half(name, content, *args, **kwargs):
        data = content.read()
        real_save(name, ContentFile(data[: len(data) // 2]), *args, **kwargs)
        raise OSError("Platte voll")

    monkeypatch.setattr(storage, "save", save_half)
    build = request_report(sample_season.season)
    assert build.status != ReportBuild.Status.READY
    assert report_build_for_download(season=sample_season.season) is None


def test_half_written_temporary_file_is_removed(sample_season, request_report, monkeypatch, media):
    storage = ReportBuild._meta.get_field("file").storage
    monkeypatch.setattr(storage, "size", lambda name: 10)  # the write looks incomplete
    request_report(sample_season.season)
    leftovers = [p for p in media.rglob("*") if p.is_file()]
    assert leftovers == []


def test_a_build_still_building_is_not_served_even_with_a_file(sample_season):
    season = sample_season.season
    name = default_storage.save("reports/partial.pdf", ContentFile(b"%PDF-1.7 half"))
    ReportBuild.objects.create(
        season=season,
        status=ReportBuild.Status.BUILDING,
        file=name,
        data_version=report_data_version(season=season),
    )
    assert report_build_for_download(season=season) is None


def test_a_ready_build_whose_file_is_missing_is_not_served(sample_season):
    season = sample_season.season
    ReportBuild.objects.create(
        season=season,
        status=ReportBuild.Status.READY,
        file="reports/gone.pdf",
        data_version=report_data_version(season=season),
    )
    assert report_build_for_download(season=season) is None


def test_change_during_the_build_leaves_the_report_stale(
    sample_season, request_report, monkeypatch
):
    from league.club.books import books_changed
    from league.reports import pdf as reports

    real = reports.build_season_report_pdf

    def changing(**kwargs):
        books_changed(season_id=sample_season.season_id)  # someone enters a game meanwhile
        return real(**kwargs)

    monkeypatch.setattr("league.reports.pdf.build_season_report_pdf", changing)
    request_report(sample_season.season)
    assert report_build_for_download(season=sample_season.season) is None


def test_a_change_to_an_earlier_season_makes_the_report_stale(
    sample_evening, sample_season, request_report
):
    from tests.sample import enter_sample_evening

    request_report(sample_season.season)
    enter_sample_evening(sample_evening, date=datetime.date(2025, 10, 10))
    assert report_state(season=sample_season.season).state == "stale"


def test_queued_build_waiting_too_long_says_the_worker_is_not_running(sample_season):
    season = sample_season.season
    build = ReportBuild.objects.create(
        season=season,
        status=ReportBuild.Status.QUEUED,
        data_version=report_data_version(season=season),
    )
    late = build.updated_at - report_builds.WORKER_PATIENCE - datetime.timedelta(seconds=1)
    ReportBuild.objects.filter(pk=build.pk).update(updated_at=late)
    state = report_state(season=season, check_broker=False)
    assert state.state == "queued"
    assert state.worker_late
    assert state.can_request


def test_build_that_died_while_building_is_built_again_on_request(sample_season, request_report):
    season = sample_season.season
    dead = ReportBuild.objects.create(
        season=season,
        status=ReportBuild.Status.BUILDING,
        data_version=report_data_version(season=season),
    )
    stopped = dead.updated_at - report_builds.BUILD_TIMEOUT - datetime.timedelta(seconds=1)
    ReportBuild.objects.filter(pk=dead.pk).update(updated_at=stopped)
    assert report_state(season=season, check_broker=False).can_request
    build = request_report(season)
    assert build.pk == dead.pk
    assert build.status == ReportBuild.Status.READY
