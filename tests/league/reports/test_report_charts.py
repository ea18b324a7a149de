"""The season report's charts: names drawn as plain text, drawn once per
data and then taken from the cache, and a chart that cannot be drawn costs
the chart, not the report."""

import base64
import datetime
import logging
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games.evenings.services import game_record
from league.club.services import member_update
from league.reports import charts
from league.reports.pdf import (
    build_season_report_pdf,
)
from tests.league.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db

MATH_NAMES = ["$x$", "$", "a_b^c", r"\frac{1}{2} $\alpha", "100$ Peter"]


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def svg_text(uri: str) -> str:
    return base64.b64decode(uri.split(",", 1)[1]).decode("utf-8")


def person(name: str, guest: bool = False) -> SimpleNamespace:
    return SimpleNamespace(name=name, is_guest=guest, pk=id(name))


@pytest.mark.parametrize("name", MATH_NAMES)
def test_points_chart_draws_a_name_with_mathtext_as_it_is(name):
    dates = [datetime.date(2026, 1, 2), datetime.date(2026, 1, 9)]
    series = [SimpleNamespace(member=person(name), points=[1, 3])]
    assert name.replace("&", "&amp;") in svg_text(charts.points_chart_svg(dates, series))


@pytest.mark.parametrize("name", MATH_NAMES)
def test_schock_aus_chart_draws_a_name_with_mathtext_as_it_is(name):
    uri = charts.schock_aus_chart_svg([(person(name), 2), (person("Anna"), 1)])
    assert name in svg_text(uri)


def rename(season, old: str, new: str):
    member = season.club.members.get(name=old)
    with transaction.atomic():
        return member_update(member=member, name=new)


def test_a_member_named_like_mathtext_gets_a_season_report(sample_season):
    rename(sample_season.season, "Anna Becker", "$x$")
    text = pdf_text(build_season_report_pdf(season=sample_season.season))
    assert "$x$" in text


def test_report_page_is_ready_for_a_member_named_like_mathtext(
    member_client, sample_season, django_capture_on_commit_callbacks
):
    rename(sample_season.season, "Bernd Krause", "$ Bernd_1^2")
    with django_capture_on_commit_callbacks(execute=True):
        member_client.post(reverse("season_report_request", args=[2026]))
    page = member_client.get(reverse("season_report", args=[2026])).content.decode()
    assert reverse("season_report_download", args=[2026]) in page
    assert "Error" not in page and "Traceback" not in page


# Kept only outside a writer's transaction (league/club/caching.py): outside the test's.
@pytest.mark.django_db(transaction=True)
def test_charts_are_drawn_once_while_the_data_stays_the_same(sample_season, monkeypatch):
    drawn = []
    real = charts.points_chart_svg
    monkeypatch.setattr(charts, "points_chart_svg", lambda *a: drawn.append(1) or real(*a))
    build_season_report_pdf(season=sample_season.season)
    build_season_report_pdf(season=sample_season.season)
    assert len(drawn) == 1


def test_charts_are_drawn_anew_when_a_game_changes_the_points(sample_season, monkeypatch):
    drawn = []
    real = charts.points_chart_svg
    monkeypatch.setattr(charts, "points_chart_svg", lambda *a: drawn.append(1) or real(*a))
    build_season_report_pdf(season=sample_season.season)
    evening = sample_season
    loser = evening.attendances.filter(role="member").first().member
    with transaction.atomic():
        game_record(evening=evening, number=evening.games.count() + 1, loser=loser)
    build_season_report_pdf(season=sample_season.season)
    assert len(drawn) == 2


def test_charts_are_drawn_anew_when_a_member_is_renamed(sample_season, monkeypatch):
    drawn = []
    real = charts.schock_aus_chart_svg
    monkeypatch.setattr(charts, "schock_aus_chart_svg", lambda *a: drawn.append(1) or real(*a))
    build_season_report_pdf(season=sample_season.season)
    rename(sample_season.season, "Anna Becker", "Anna Schmidt")
    text = pdf_text(build_season_report_pdf(season=sample_season.season))
    assert len(drawn) == 2
    assert "Anna Schmidt" in text


def test_a_chart_that_cannot_be_drawn_is_left_out_with_a_note_and_logged(
    sample_season, monkeypatch, caplog
):
    def broken(*args):
        raise ValueError("drawing failed")

    monkeypatch.setattr(charts, "points_chart_svg", broken)
    with caplog.at_level(logging.ERROR, logger="league.reports.pdf"):
        text = pdf_text(build_season_report_pdf(season=sample_season.season))
    with translation.override("de"):
        note = gettext("This chart could not be drawn; the figures are in the tables.")
    assert note.replace("\xa0", " ")[:30] in text.replace("\xa0", " ")
    assert "drawing failed" not in text
    assert any("could not be drawn" in r.getMessage() for r in caplog.records)


def count_renders(monkeypatch) -> list:
    from league.reports import pdf

    rendered = []
    real = pdf._weasyprint
    monkeypatch.setattr(pdf, "_weasyprint", lambda html: rendered.append(1) or real(html))
    return rendered


# Kept only outside a writer's transaction (league/club/caching.py): outside the test's.
@pytest.mark.django_db(transaction=True)
def test_the_same_report_is_rendered_once(sample_season, monkeypatch):
    rendered = count_renders(monkeypatch)
    first = build_season_report_pdf(season=sample_season.season)
    again = build_season_report_pdf(season=sample_season.season)
    assert len(rendered) == 1
    assert again == first


def test_the_report_is_rendered_anew_when_a_game_changes_it(sample_season, monkeypatch):
    rendered = count_renders(monkeypatch)
    build_season_report_pdf(season=sample_season.season)
    evening = sample_season
    loser = evening.attendances.filter(role="member").first().member
    with transaction.atomic():
        game_record(evening=evening, number=evening.games.count() + 1, loser=loser)
    text = pdf_text(build_season_report_pdf(season=sample_season.season))
    assert len(rendered) == 2
    assert str(evening.games.count()) in text


def test_a_failed_build_shows_a_german_message_on_the_page_never_the_exception(
    member_client, sample_season, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(**kwargs):
        raise ValueError(r"Unknown symbol: \frac, found '$'")

    monkeypatch.setattr("league.reports.pdf.build_season_report_pdf", broken)
    with django_capture_on_commit_callbacks(execute=True):
        member_client.post(reverse("season_report_request", args=[2026]))
    page = member_client.get(reverse("season_report", args=[2026])).content.decode()
    with translation.override("de"):
        message = gettext(
            "Building the report failed. The error has been logged for the administrator; "
            "build the report again later."
        )
    assert message in page
    assert "ValueError" not in page and "Unknown symbol" not in page


def test_a_build_that_fails_is_logged_with_its_traceback(sample_season, monkeypatch, caplog):
    from league.reports import pdf

    def broken(**kwargs):
        raise ValueError("no data")

    monkeypatch.setattr(pdf, "season_report_data", broken)
    with caplog.at_level(logging.ERROR, logger="league.reports.pdf"):
        with pytest.raises(ValueError):
            build_season_report_pdf(season=sample_season.season)
    record = next(r for r in caplog.records if "could not be built" in r.getMessage())
    assert record.exc_info is not None
