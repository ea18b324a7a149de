"""The season report carries the sign-off: "Geprüft von ... am ...
(gültig/ungültig)", and a signature gives the report a new version (its cache key)."""

import pytest
from django.utils import timezone

from league.closing.services import season_close, season_reopen, season_sign_off
from league.reports.pdf import (
    build_season_report_pdf,
)
from league.reports.runs import report_data_version
from tests.league.closing.test_services import _payment
from tests.league.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db


def _close(books):
    season_close(season=books.season, by=books.secretary, confirm=True)


def _text(books) -> str:
    return " ".join(pdf_text(build_season_report_pdf(season=books.season)).split())


def test_a_signature_gives_the_report_a_new_version(books):
    _close(books)
    before = report_data_version(season=books.season)
    season_sign_off(season=books.season, auditor=books.auditor)
    assert report_data_version(season=books.season) == before + 1


def test_the_report_names_the_auditor_and_the_state_of_the_signature(books):
    _close(books)
    assert "Geprüft von" not in _text(books)
    signed = season_sign_off(season=books.season, auditor=books.auditor)
    day = timezone.localtime(signed.signed_at).day
    text = _text(books)
    assert f"Geprüft von Anna Becker am {day}." in text
    assert "(gültig)" in text

    season_reopen(season=books.season, by=books.secretary, reason="Zahlung fehlte")
    _payment(books)
    assert "(Unterschrift ungültig (Bücher nach der Prüfung geändert))" in _text(books)
