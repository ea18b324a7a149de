"""The secretary's new-season page: a season of a year, refused twice, dates in order."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from league.club.models import Season

pytestmark = pytest.mark.django_db


def test_new_season_of_a_year_takes_the_years_mark_value(secretary_client, club, secretary):
    response = secretary_client.post(
        reverse("season_create"), {"year": 2027, "rule_preset": "club"}
    )
    season = Season.objects.get(club=club, year=2027)
    assert response["Location"] == reverse("season_standings", args=[2027])
    assert (season.starts_on, season.ends_on) == (
        datetime.date(2027, 1, 1),
        datetime.date(2027, 12, 31),
    )
    assert (season.mark_value, season.currency) == (Decimal("0.50"), "EUR")


def test_a_second_season_of_a_year_is_refused_at_the_year(secretary_client, season):
    response = secretary_client.post(
        reverse("season_create"), {"year": 2026, "rule_preset": "club"}
    )
    assert response.context["form"].errors["year"] == ["Die Saison 2026 gibt es schon."]
    assert Season.objects.filter(club=season.club).count() == 1


def test_last_day_before_first_day_is_refused_at_the_last_day(secretary_client, club, secretary):
    response = secretary_client.post(
        reverse("season_create"),
        {
            "year": 2027,
            "rule_preset": "club",
            "starts_on": "2027-06-01",
            "ends_on": "2027-05-01",
        },
    )
    assert response.context["form"].errors["ends_on"] == [
        "Der letzte Tag liegt vor dem ersten Tag."
    ]
    assert not Season.objects.filter(club=club, year=2027).exists()


def test_evening_of_the_new_season_can_be_entered(secretary_client, club, secretary):
    secretary_client.post(reverse("season_create"), {"year": 2027, "rule_preset": "club"})
    response = secretary_client.post(
        reverse("evening_create"),
        {
            "date": "2027-01-08",
            "secretary": secretary.pk,
            f"role_{secretary.pk}": "member",
        },
    )
    assert response.status_code == 302
    assert Season.objects.get(club=club, year=2027).evenings.count() == 1
