"""Numbers in a page's query (?saison=, ?person=) are read as ASCII digits only and within
what the database stores: anything else is an unknown season (404) or no filter, never a
server error. (A superscript two is a digit to str.isdigit() but not to int().)"""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "\u00b2"


@pytest.mark.parametrize("year", [SUPERSCRIPT_TWO, "99999999999999999999", "2026x"])
def test_kitty_of_an_unreadable_season_is_404(secretary_client, season, year):
    assert secretary_client.get(reverse("ledger_home") + f"?saison={year}").status_code == 404


def test_kitty_of_a_season_named_by_its_year_is_shown(secretary_client, season):
    response = secretary_client.get(reverse("ledger_home") + "?saison=2026")
    assert (response.status_code, response.context["season"]) == (200, season)


def test_evening_list_with_an_unreadable_season_shows_the_current_one(member_client, season):
    response = member_client.get(reverse("evening_list") + f"?saison={SUPERSCRIPT_TWO}")
    assert (response.status_code, response.context["season"]) == (200, season)


def test_runden_of_a_person_named_by_a_superscript_digit_are_everyones(member_client, season):
    response = member_client.get(reverse("runden_list") + f"?person={SUPERSCRIPT_TWO}")
    assert (response.status_code, response.context["person"]) == (200, None)


def test_schock_aus_statistics_of_an_unreadable_season_show_the_latest(member_client, season):
    response = member_client.get(reverse("schock_aus_stats") + f"?saison={SUPERSCRIPT_TWO}")
    assert (response.status_code, response.context["stats"].season) == (200, season)
