"""How the season report is set for WeasyPrint without changing what it shows: chronicle entries
that never break, no cyclic garbage collection while a report
is built, and all-time records whose queries do not grow with the seasons."""

import datetime
import gc

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.reports import pdf
from league.reports.pdf import (
    build_season_report_pdf,
)
from league.reports.selectors import (
    ChronicleLine,
    club_records,
)
from tests.factories import MemberFactory
from tests.sample import enter_sample_evening_copied


def line(name: str) -> ChronicleLine:
    return ChronicleLine(
        date=datetime.date(2026, 10, 9),
        game=12,
        thrower=MemberFactory.build(name=name),
        ordinal=3,
        runde=None,
    )


def test_a_chronicle_entry_is_held_together_by_no_break_spaces():
    assert line("Anna Becker").entry == "12\xa0Anna\xa0Becker\xa03."


def test_a_chronicle_entry_with_a_hyphenated_name_keeps_its_nowrap_span():
    assert line("Hans-Peter Groß").entry == '<span class="nowrap">12 Hans-Peter Groß 3.</span>'


def test_a_chronicle_entry_escapes_the_name():
    assert line("<b>Ede</b>").entry == '<span class="nowrap">12 &lt;b&gt;Ede&lt;/b&gt; 3.</span>'
    assert line("Ede O'Neil").entry == "12\xa0Ede\xa0O&#x27;Neil\xa03."


@pytest.mark.django_db
def test_no_cyclic_garbage_collection_while_a_report_is_built(sample_season, monkeypatch):
    seen = []
    real = pdf.season_report_data
    monkeypatch.setattr(
        pdf, "season_report_data", lambda **kw: seen.append(gc.isenabled()) or real(**kw)
    )
    assert gc.isenabled()
    build_season_report_pdf(season=sample_season.season)
    assert seen == [False]
    assert gc.isenabled()


@pytest.mark.django_db
def test_garbage_collection_is_back_on_after_a_failed_build(sample_season, monkeypatch):
    def broken(**kw):
        raise RuntimeError("database gone")

    monkeypatch.setattr(pdf, "season_report_data", broken)
    with pytest.raises(RuntimeError):
        build_season_report_pdf(season=sample_season.season)
    assert gc.isenabled()


@pytest.mark.django_db
def test_garbage_collection_stays_off_after_a_build_when_it_was_off(sample_season):
    gc.disable()
    try:
        build_season_report_pdf(season=sample_season.season)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.django_db
def test_all_time_records_take_as_many_queries_for_three_seasons_as_for_one(sample_evening):
    evening, _ = enter_sample_evening_copied(sample_evening)
    with CaptureQueriesContext(connection) as one:
        club_records(club=evening.club, up_to_year=2026)
    enter_sample_evening_copied(sample_evening, date=datetime.date(2025, 10, 17))
    enter_sample_evening_copied(sample_evening, date=datetime.date(2024, 10, 18))
    with CaptureQueriesContext(connection) as three:
        records, champions, first = club_records(club=evening.club, up_to_year=2026)
    assert len(three) == len(one) <= 6  # seasons, people, evenings, Schock-Aus, games, attendance
    assert [c.year for c in champions] == [2026, 2025, 2024] and first == 2024
