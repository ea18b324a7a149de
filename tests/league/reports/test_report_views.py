"""Report pages and CSV exports: who may see them, what they answer."""

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from league.club.services import member_login_set
from league.standings.selectors import season_standings
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def read_csv(response) -> list[list[str]]:
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


def test_report_page_needs_a_login(sample_season):
    response = Client().get(reverse("season_report", args=[2026]))
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_same_year_of_another_club_shows_only_that_clubs_books(sample_season, outsider_client):
    rows = read_csv(outsider_client.get(reverse("season_csv", args=[2026, "tabelle"])))
    names = {r[1] for r in rows[1:]}
    assert "Anna Becker" not in names


def test_unknown_season_is_not_found(member_client):
    assert member_client.get(reverse("season_report", args=[1990])).status_code == 404


def test_report_page_offers_to_build_the_report(member_client):
    response = member_client.get(reverse("season_report", args=[2026]))
    assert reverse("season_report_request", args=[2026]) in response.content.decode()


def test_asking_for_the_report_needs_a_post(member_client):
    response = member_client.get(reverse("season_report_request", args=[2026]))
    assert response.status_code == 405


def test_download_sends_back_to_the_report_page_before_a_build(member_client):
    response = member_client.get(reverse("season_report_download", args=[2026]))
    assert response.status_code == 302
    assert response["Location"] == reverse("season_report", args=[2026])


def test_download_serves_the_pdf_once_ready(member_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        member_client.post(reverse("season_report_request", args=[2026]))
    response = member_client.get(reverse("season_report_download", args=[2026]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content).startswith(b"%PDF")


def test_report_page_links_the_download_once_ready(
    member_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        member_client.post(reverse("season_report_request", args=[2026]))
    page = member_client.get(reverse("season_report", args=[2026])).content.decode()
    assert reverse("season_report_download", args=[2026]) in page


def test_status_fragment_shows_the_state(member_client):
    response = member_client.get(reverse("season_report_status", args=[2026]))
    assert 'data-state="none"' in response.content.decode()


def test_evening_sheet_is_a_pdf(member_client, sample_season):
    response = member_client.get(reverse("evening_sheet_pdf", args=[sample_season.pk]))
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_evening_sheet_of_another_club_is_not_found(sample_season, outsider_client):
    response = outsider_client.get(reverse("evening_sheet_pdf", args=[sample_season.pk]))
    assert response.status_code == 404


def test_standings_csv_lists_the_places_in_order(member_client, sample_season):
    rows = read_csv(member_client.get(reverse("season_csv", args=[2026, "tabelle"])))
    standings = season_standings(season=sample_season.season)
    ranked = [(r[0], r[1]) for r in rows[1:] if r[0]]
    assert ranked == [(str(r.place), r.member.name) for r in standings.rows]


def test_standings_csv_lists_guests_without_a_place(member_client):
    rows = read_csv(member_client.get(reverse("season_csv", args=[2026, "tabelle"])))
    guest = next(r for r in rows if r[1] == "Gustav Meier")
    assert guest[0] == ""


def test_dues_csv_uses_the_decimal_comma_and_ends_with_the_total(sample_season, sample_evening):
    # Every person's dues and the totals: the secretary's file (a member gets the own line).
    secretary = sample_season.club.members.get(is_secretary=True)
    member_login_set(person=secretary, user=UserFactory(username="bernd"))
    client = Client()
    client.force_login(secretary.user)
    rows = read_csv(client.get(reverse("season_csv", args=[2026, "kasse"])))
    total = rows[-1]
    assert total[2] == str(sample_evening["expected"]["marks_total"])
    assert total[3] == sample_evening["expected"]["money_total"].replace(".", ",")
    assert total[-1] == "EUR"


def test_dues_csv_counts_payments_as_paid(member_client, sample_season):
    from decimal import Decimal

    from league.ledger.services import payment_record

    anna = sample_season.club.members.get(name="Anna Becker")
    payment_record(member=anna, amount=Decimal("1.50"), paid_on=sample_season.date)
    rows = read_csv(member_client.get(reverse("season_csv", args=[2026, "kasse"])))
    line = next(r for r in rows if r[0] == "Anna Becker")
    assert line[3:6] == ["2,00", "1,50", "0,50"]


def test_chronicle_csv_lists_every_schock_aus_with_its_runde(member_client, sample_evening):
    rows = read_csv(member_client.get(reverse("season_csv", args=[2026, "schock-aus"])))
    got = [(r[1], r[2], r[3]) for r in rows[1:]]
    expected = [
        (str(s["game"]), s["thrower"], str(s["ordinal"]))
        for s in sample_evening["expected"]["schock_aus"]
    ]
    assert got == expected
    owing = [r[2] for r in rows[1:] if r[4]]
    assert owing == [r["thrower"] for r in sample_evening["expected"]["runden_owed"]]


def test_chronicle_csv_dates_are_german(member_client):
    rows = read_csv(member_client.get(reverse("season_csv", args=[2026, "schock-aus"])))
    assert rows[1][0] == "09.10.2026"


def test_unknown_csv_is_not_found(member_client):
    assert member_client.get(reverse("season_csv", args=[2026, "geheim"])).status_code == 404


def test_csv_of_another_club_is_not_found(sample_season, outsider_client):
    from tests.factories import SeasonFactory

    sample_season.club.seasons.filter(year=2025).delete()
    SeasonFactory(club=sample_season.club, year=2025)
    response = outsider_client.get(reverse("season_csv", args=[2025, "tabelle"]))
    assert response.status_code == 404


def test_standings_page_links_the_report_and_the_csv_exports(member_client):
    page = member_client.get(reverse("season_standings", args=[2026])).content.decode()
    assert reverse("season_report", args=[2026]) in page
    assert reverse("season_csv", args=[2026, "kasse"]) in page


def test_standings_page_links_the_download_once_ready(
    member_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        member_client.post(reverse("season_report_request", args=[2026]))
    page = member_client.get(reverse("season_standings", args=[2026])).content.decode()
    assert reverse("season_report_download", args=[2026]) in page


def test_evening_page_links_the_evening_sheet(member_client, sample_season):
    page = member_client.get(reverse("evening_detail", args=[sample_season.pk])).content.decode()
    assert reverse("evening_sheet_pdf", args=[sample_season.pk]) in page
