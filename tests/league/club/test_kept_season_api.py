"""The season list and a season's Runden owed through the API, kept by the club's books
version (league/standings/api.py `SeasonViewSet`): a repeated read answers 304 to its
ETag, a change through the services shows on the next read, another club's seasons never
show, and a filter or page is never answered with another's data.

Outside a transaction (`transaction=True`): inside one nothing is kept."""

import datetime
from decimal import Decimal

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.evenings.services import evening_create, game_record
from league.club.models import Season
from league.club.services import season_create, season_update
from league.runden.services import runde_mark_given
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
    anna = MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))
    for year in (2025, 2026):
        season_create(club=club, year=year)
    evening = evening_create(
        club=club, date=datetime.date(2026, 10, 9), secretary=bernd, present_members=[bernd, anna]
    )
    game = game_record(evening=evening, loser=anna, schock_aus_throwers=[bernd])
    other = ClubFactory(name="Fremdclub")
    season_create(club=other, year=2024)
    client = APIClient()
    client.force_login(anna.user)
    return {"club": club, "game": game, "client": client, "bernd": bernd}


def test_the_season_list_read_again_with_its_etag_is_304_until_the_books_change(club):
    client = club["client"]
    first = client.get("/api/v1/seasons/")
    assert first.status_code == 200
    assert [s["year"] for s in first.json()["results"]] == [2026, 2025]  # not Fremdclub's
    etag = first["ETag"]
    assert client.get("/api/v1/seasons/", headers={"If-None-Match": etag}).status_code == 304

    season = Season.objects.get(club=club["club"], year=2025)
    season_update(season=season, mark_value=Decimal("0.75"))

    changed = client.get("/api/v1/seasons/", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.json()["results"][1]["mark_value"] == "0.75"


def test_a_new_season_shows_in_the_kept_season_list(club):
    client = club["client"]
    assert client.get("/api/v1/seasons/").json()["count"] == 2
    season_create(club=club["club"], year=2027)
    again = client.get("/api/v1/seasons/").json()
    assert again["count"] == 3 and again["results"][0]["year"] == 2027


def test_a_filter_or_page_of_the_season_list_is_kept_apart(club):
    client = club["client"]
    client.get("/api/v1/seasons/")
    assert [s["year"] for s in client.get("/api/v1/seasons/?year=2025").json()["results"]] == [2025]
    assert [s["year"] for s in client.get("/api/v1/seasons/?page_size=1").json()["results"]] == [
        2026
    ]
    assert client.get("/api/v1/seasons/?year=abc").status_code == 400


def test_a_runde_given_shows_on_the_next_read_of_the_kept_runden_owed(club):
    client = club["client"]
    season = Season.objects.get(club=club["club"], year=2026)
    url = f"/api/v1/seasons/{season.pk}/runden/"
    first = client.get(url)
    assert [r["given_on"] for r in first.json()] == [None]
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304

    runde_mark_given(
        schock_aus=club["game"].schock_aus.first(), given_on=datetime.date(2026, 10, 16)
    )

    assert [r["given_on"] for r in client.get(url).json()] == ["2026-10-16"]
    assert client.get(f"{url}?member={club['bernd'].pk + 1000}").json() == []
