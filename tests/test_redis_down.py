"""With Redis unreachable, everything but the season report keeps working (README "When
Redis or the worker is down"): the cache points at a port nobody listens on, with the
session engine used with REDIS_URL, and logging in (page and API), logging out, the pages
and the API's reads answer as with Redis. redis-py fails to connect to the dead port, so
this runs with and without a real Redis."""

import datetime

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.evenings.services import evening_create, game_record
from games.rounds.selectors import odds_simulation
from games.rules import PRESETS
from league.club.caching import GuardedCache
from league.club.services import season_get_or_create
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

DEAD_REDIS = "redis://127.0.0.1:1/0"
PASSWORD = "geheim-123"


@pytest.fixture(autouse=True)
def redis_down(settings):
    """The cache and the cached sessions as with REDIS_URL, Redis itself unreachable."""
    settings.CACHES = {
        "default": {
            "BACKEND": "schockclub.redis_cache.KeptClientRedisCache",
            "LOCATION": DEAD_REDIS,
            "OPTIONS": settings.REDIS_CACHE_OPTIONS,
        }
    }
    settings.SESSION_ENGINE = "league.club.session_store_cached"


@pytest.fixture
def secretary():
    club = ClubFactory(name="Schockclub Eintracht")
    season = season_get_or_create(club=club, year=2026)
    secretary = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    anna = MemberFactory(club=club, name="Anna Becker")
    evening = evening_create(
        club=season.club,
        date=datetime.date(2026, 3, 6),
        secretary=secretary,
        present_members=[secretary, anna],
    )
    game_record(evening=evening, loser=anna, schock_aus_throwers=[secretary])
    return secretary


@pytest.fixture
def logged_in(secretary) -> Client:
    client = Client()
    response = client.post("/login/", {"username": "bernd", "password": PASSWORD})
    assert response.status_code == 302
    return client


def test_the_cache_really_is_unreachable_here():
    from django.core.cache import cache

    with pytest.raises(Exception, match="(?i)connect"):
        cache.get("anything")


def test_logging_in_through_the_form_redirects_to_the_home_page(secretary):
    response = Client().post("/login/", {"username": "bernd", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_the_home_page_answers_after_logging_in(logged_in):
    response = logged_in.get("/")
    assert response.status_code == 200
    assert "Schockclub Eintracht" in response.content.decode()


def test_the_api_token_endpoint_issues_a_token(secretary):
    response = APIClient().post(
        "/api/v1/auth/token/", {"username": "bernd", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["token"]


def test_a_token_reads_the_api(secretary):
    client = APIClient()
    token = client.post(
        "/api/v1/auth/token/", {"username": "bernd", "password": PASSWORD}, format="json"
    ).json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/me/").status_code == 200
    evenings = client.get("/api/v1/evenings/")
    assert evenings.status_code == 200
    assert evenings.json()["count"] == 1


def test_the_session_reads_the_api(logged_in):
    assert logged_in.get("/api/v1/evenings/").status_code == 200


@pytest.mark.parametrize("path", ["/saison/2026/", "/abende/", "/kasse/", "/statistik/"])
def test_the_main_pages_answer(logged_in, path):
    assert logged_in.get(path).status_code == 200


def test_logging_out_ends_the_session(logged_in):
    response = logged_in.post("/logout/")
    assert response.status_code == 302
    assert logged_in.get("/").status_code == 302  # to the login page


def test_the_odds_page_answers(logged_in):
    assert logged_in.get("/wahrscheinlichkeiten/").status_code == 200


def test_the_odds_simulation_is_computed_when_the_cache_cannot_keep_it():
    result = odds_simulation(rules=PRESETS["club"])
    assert result.with_muss_regel.games > 0


def test_a_guarded_cache_reads_a_miss_and_skips_writes():
    from django.core.cache import caches

    guarded = GuardedCache(caches["default"], "test")
    assert guarded.set("key", 1) is False
    assert guarded.get("key", "missing") == "missing"
    assert "key" not in guarded
    assert guarded.delete("key") is False
