"""The season forms' GET is kept per books version (league/club/views.py
`_season_form_page`): a change through the services shows on the next read, the kept form
carries each viewer's own CSRF token, and a post is answered as before.

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py)."""

import re

import pytest
from django.core.cache import cache
from django.test import Client

from league.club.caching import CSRF_PLACEHOLDER
from league.club.fields import last_year
from league.club.models import Season
from league.club.services import season_create, season_statutes_update, season_update
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def club():
    club = ClubFactory(name="Schockclub Vorrat")
    bernd = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    season_create(club=club, year=2026)
    return {"club": club, "bernd": bernd}


def _secretary(club) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(club["bernd"].user)
    return client


def _deckel(html: str) -> str:
    return re.search(r'name="deckel_total" value="(\d+)"', html).group(1)


def _token(html: str) -> str:
    return html.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]


def test_a_rule_change_through_the_services_shows_on_the_next_read_of_the_kept_form(club):
    client = _secretary(club)
    url = "/saison/2026/regeln/bearbeiten/"
    before = client.get(url).content.decode()
    assert client.get(url).content.decode().count('name="deckel_total"') == 1
    season = Season.objects.get(club=club["club"], year=2026)
    update = {"deckel_total": int(_deckel(before)) + 2}
    season_update(season=season, rules=update)
    assert _deckel(client.get(url).content.decode()) == str(update["deckel_total"])


def test_a_season_created_moves_the_year_the_kept_new_season_form_offers(club):
    client = _secretary(club)
    first = client.get("/saison/neu/").content.decode()
    offered = int(re.search(r'name="year" value="(\d+)"', first).group(1))
    season_create(club=club["club"], year=offered)
    again = client.get("/saison/neu/").content.decode()
    assert re.search(r'name="year" value="(\d+)"', again).group(1) == str(offered + 1)


def test_the_kept_season_form_carries_each_viewers_own_token_and_posts(club):
    other = MemberFactory(
        club=club["club"], name="Carla Vogt", is_secretary=True, user=UserFactory(username="c")
    )
    bernd = _secretary(club)
    bernd.get("/saison/neu/")  # kept with a placeholder, never with Bernd's token
    carla = Client(enforce_csrf_checks=True)
    carla.force_login(other.user)
    page = carla.get("/saison/neu/").content.decode()
    token = _token(page)
    assert token != CSRF_PLACEHOLDER
    next_year = last_year()  # the last year a season may have
    response = carla.post(
        "/saison/neu/",
        {"csrfmiddlewaretoken": token, "year": str(next_year), "rule_preset": "club"},
    )
    assert response.status_code == 302
    assert Season.objects.filter(club=club["club"], year=next_year).exists()


def test_a_refused_new_season_shows_its_german_error_not_the_kept_form(club):
    client = _secretary(club)
    token = _token(client.get("/saison/neu/").content.decode())
    response = client.post("/saison/neu/", {"csrfmiddlewaretoken": token, "year": "2026"})
    assert response.status_code == 200
    assert 'class="field has-error"' in response.content.decode()


def _games_per_member(html: str) -> str:
    return re.search(r'name="games_per_present_member" value="(\d+)"', html).group(1)


def test_a_statutes_change_through_the_services_shows_on_the_next_read_of_the_kept_page(club):
    client = _secretary(club)
    url = "/saison/2026/satzung/"
    before = int(_games_per_member(client.get(url).content.decode()))
    season = Season.objects.get(club=club["club"], year=2026)
    season_statutes_update(season=season, statutes={"games_per_present_member": before + 3})
    assert _games_per_member(client.get(url).content.decode()) == str(before + 3)


def test_a_member_is_not_served_the_secretarys_kept_statutes_form(club):
    anna = MemberFactory(club=club["club"], name="Anna Becker", user=UserFactory(username="a"))
    _secretary(club).get("/saison/2026/satzung/")
    member = Client()
    member.force_login(anna.user)
    page = member.get("/saison/2026/satzung/").content.decode()
    assert "Satzung 2026" in page and "games_per_present_member" not in page
