"""A season's rule set through the API: shown as flags with the preset
they equal, given at creation over the chosen preset, changed by the secretary (PATCH)."""

import dataclasses

import pytest
from rest_framework.test import APIClient

from games.rules import PRESETS
from league.club.models import Season
from league.club.services import member_create, member_login_set, season_create
from league.club.statutes import season_rules
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

COMPOSED_FLAGS = {"jule": True, "collected_strasse_counts": True, "deckel_total": 15}


@pytest.fixture
def club():
    return ClubFactory(name="Heimclub")


@pytest.fixture
def season(club):
    return season_create(club=club, year=2026)


def _client(club, *, secretary: bool) -> APIClient:
    person = member_create(club=club, name="Bernd" if secretary else "Anna", is_secretary=secretary)
    member_login_set(person=person, user=UserFactory())
    client = APIClient()
    client.force_authenticate(person.user)
    return client


def test_a_season_shows_its_flags_and_the_preset_they_equal(club, season):
    data = _client(club, secretary=False).get(f"/api/v1/seasons/{season.pk}/").json()
    assert data["rules"] == PRESETS["club"].to_dict()
    assert (data["rule_preset"], data["rules_preset"]) == ("club", "club")


def test_a_composed_season_has_no_preset_name(club):
    season = season_create(club=club, year=2026, rules=COMPOSED_FLAGS)
    data = _client(club, secretary=False).get(f"/api/v1/seasons/{season.pk}/").json()
    assert data["rules_preset"] is None
    assert data["rules"]["deckel_total"] == 15


def test_a_new_season_lays_its_flags_over_the_chosen_preset(club):
    body = {"year": 2027, "rule_preset": "app", "rules": {"jule": True}}
    response = _client(club, secretary=True).post("/api/v1/seasons/", body, format="json")
    assert response.status_code == 201, response.json()
    season = Season.objects.get(pk=response.json()["id"])
    assert season_rules(season) == dataclasses.replace(PRESETS["app"], jule=True)


def test_the_secretary_changes_a_seasons_rules(club, season):
    client = _client(club, secretary=True)
    response = client.patch(
        f"/api/v1/seasons/{season.pk}/", {"rules": COMPOSED_FLAGS}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["rules_preset"] is None
    assert response.json()["data_version"] == season.data_version + 1
    expected = dataclasses.replace(PRESETS["club"], **COMPOSED_FLAGS)
    assert season_rules(Season.objects.get(pk=season.pk)) == expected


def test_a_member_may_not_change_the_rules(club, season):
    client = _client(club, secretary=False)
    response = client.patch(
        f"/api/v1/seasons/{season.pk}/", {"rules": {"jule": True}}, format="json"
    )
    assert response.status_code == 403
    assert season_rules(Season.objects.get(pk=season.pk)) == PRESETS["club"]


def test_another_clubs_season_does_not_exist_for_the_secretary(club):
    other = season_create(club=ClubFactory(name="Fremdclub"), year=2026)
    client = _client(club, secretary=True)
    response = client.patch(
        f"/api/v1/seasons/{other.pk}/", {"rules": {"jule": True}}, format="json"
    )
    assert response.status_code == 404


@pytest.mark.parametrize(
    "rules", [{"jule": "yes"}, {"deckel_total": 100}, {"trumpf": True}, {"max_attempts": True}]
)
def test_bad_flags_are_a_400_invalid_rule_set(club, season, rules):
    client = _client(club, secretary=True)
    response = client.patch(f"/api/v1/seasons/{season.pk}/", {"rules": rules}, format="json")
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["field"]) == ("invalid_rule_set", "rules")


def test_bad_flags_at_creation_are_a_400_invalid_rule_set(club):
    body = {"year": 2027, "rules": {"format": "triple"}}
    response = _client(club, secretary=True).post("/api/v1/seasons/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_rule_set")
    assert not Season.objects.filter(year=2027).exists()
