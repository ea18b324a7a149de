"""The home page: what a person owes (open amount per currency, Runden
owed), and the first steps of a club set up from nothing by its secretary."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from league.club.services import season_create
from league.ledger.services import payment_record
from league.runden.services import runde_mark_given

pytestmark = pytest.mark.django_db


def test_a_member_sees_the_open_amount(member_client, evening):
    text = member_client.get(reverse("home")).content.decode()
    assert "Offen: 0,50\xa0€" in text or "Offen: 0,50 €" in text


def test_a_payment_leaves_nothing_open(member_client, evening, member):
    payment_record(member=member, amount=Decimal("0.50"), paid_on=datetime.date(2026, 3, 6))
    text = member_client.get(reverse("home")).content.decode()
    assert "Nichts offen" in text


def test_paying_too_much_shows_a_credit(member_client, evening, member):
    payment_record(member=member, amount=Decimal("2.00"), paid_on=datetime.date(2026, 3, 6))
    text = member_client.get(reverse("home")).content.decode()
    assert "Guthaben: 1,50" in text


def test_the_thrower_of_a_schock_aus_sees_the_runde_owed(secretary_client, evening):
    text = secretary_client.get(reverse("home")).content.decode()
    assert "1 Runde offen" in text
    assert "06.03.2026" in text


def test_a_runde_given_is_no_longer_owed(secretary_client, evening):
    schock_aus = evening.games.get(number=1).schock_aus.get()
    runde_mark_given(schock_aus=schock_aus, given_on=datetime.date(2026, 3, 20))
    text = secretary_client.get(reverse("home")).content.decode()
    assert "Keine Runde offen." in text


@pytest.fixture
def two_seasons(season, evening):
    """The 2026 season with its evening, and 2025 before it."""
    season_create(club=season.club, year=2025)
    return season


def test_the_kasse_starts_on_the_current_season(secretary_client, two_seasons):
    response = secretary_client.get(reverse("ledger_home"))
    assert response.context["season"] == two_seasons


def test_the_statement_starts_on_the_current_season_with_every_season_a_tap_away(
    member_client, two_seasons, member
):
    response = member_client.get(reverse("ledger_statement", args=[member.pk]))
    assert response.context["season"] == two_seasons
    text = response.content.decode()
    for year in (2025, 2026):
        assert f"?saison={year}" in text
    assert "?saison=alle" in text


def test_my_marks_start_on_the_current_season_with_every_season_a_tap_away(
    member_client, two_seasons, member
):
    response = member_client.get(reverse("my_dues"), follow=True)
    assert response.context["season"] == two_seasons
    assert reverse("member_dues", args=[2025, member.pk]) in response.content.decode()


def _giro_button():
    return f'<a class="button primary" href="{reverse("my_girocodes")}">'


def test_the_own_statement_offers_the_giro_code_while_euros_are_open(
    member_client, evening, member
):
    """A member who owes euros is one tap from the GiroCode page; with
    nothing open the button goes."""
    statement = reverse("ledger_statement", args=[member.pk])
    assert _giro_button() in member_client.get(statement).content.decode()
    payment_record(member=member, amount=Decimal("0.50"), paid_on=datetime.date(2026, 3, 6))
    assert _giro_button() not in member_client.get(statement).content.decode()


def test_the_secretary_reading_another_statement_gets_no_giro_code_button(
    secretary_client, evening, member
):
    text = secretary_client.get(reverse("ledger_statement", args=[member.pk])).content.decode()
    assert "Noch offen" in text
    assert _giro_button() not in text
