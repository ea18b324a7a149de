"""Filtering (django-filter), pagination and ordering on the API lists,
and constant query counts of the computed endpoints."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.evenings.services import evening_create, game_record
from league.club.services import season_create
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(cast):
    return client_for(cast, "member")


def _results(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.content
    return response.json()["results"]


def _second_evening(cast, date=datetime.date(2026, 10, 16), losers=None):
    evening = evening_create(
        club=cast.club,
        date=date,
        secretary=cast.secretary,
        present_members=[cast.secretary, cast.member, cast.carla],
    )
    for loser in losers or [cast.member]:
        game_record(evening=evening, loser=loser)
    return evening


def test_evenings_filter_by_date_range(cast, member):
    later = _second_evening(cast)
    rows = _results(member, "/api/v1/evenings/?date_from=2026-10-10")
    assert [r["id"] for r in rows] == [later.pk]


def test_evenings_filter_by_season(cast, member):
    old = season_create(club=cast.club, year=2001)
    evening_create(
        club=cast.club,
        date=datetime.date(2001, 3, 2),
        secretary=cast.secretary,
        present_members=[cast.secretary],
    )
    rows = _results(member, f"/api/v1/evenings/?season={old.pk}")
    assert [r["season"] for r in rows] == [old.pk]


def test_evenings_are_newest_first_by_default(cast, member):
    _second_evening(cast)
    dates = [r["date"] for r in _results(member, "/api/v1/evenings/")]
    assert dates == sorted(dates, reverse=True)


def test_evenings_order_by_date_ascending(cast, member):
    _second_evening(cast)
    dates = [r["date"] for r in _results(member, "/api/v1/evenings/?ordering=date")]
    assert dates == sorted(dates)


def test_games_filter_by_evening(cast, member):
    later = _second_evening(cast, losers=[cast.member, cast.carla])
    rows = _results(member, f"/api/v1/games/?evening={later.pk}")
    assert {r["evening"] for r in rows} == {later.pk} and len(rows) == 2


def test_games_filter_by_loser(cast, member):
    rows = _results(member, f"/api/v1/games/?loser={cast.carla.pk}")
    assert {r["loser"] for r in rows} == {cast.carla.pk}


def test_games_filter_by_schock_aus_thrower(cast, member):
    rows = _results(member, f"/api/v1/games/?schock_aus_thrower={cast.secretary.pk}")
    assert [r["id"] for r in rows] == [cast.games[1].pk]


def test_games_order_by_number_descending(cast, member):
    numbers = [r["number"] for r in _results(member, "/api/v1/games/?ordering=-number")]
    assert numbers == sorted(numbers, reverse=True)


def test_members_filter_by_kind(cast, member):
    rows = _results(member, "/api/v1/members/?kind=guest")
    assert [r["id"] for r in rows] == [cast.guest.pk]


def test_members_filter_by_name_part(cast, member):
    rows = _results(member, "/api/v1/members/?name=vog")
    assert [r["id"] for r in rows] == [cast.carla.pk]


def test_seasons_filter_by_currency(cast, member):
    season_create(club=cast.club, year=1999)
    rows = _results(member, "/api/v1/seasons/?currency=DM")
    assert [r["year"] for r in rows] == [1999]


def test_lists_are_paginated_with_page_size(cast, member):
    response = member.get("/api/v1/members/?page_size=2&page=2").json()
    assert response["count"] == 5
    assert len(response["results"]) == 2
    assert response["previous"] is not None


def test_page_size_is_capped(cast, member, monkeypatch):
    from league.club.api_common import ApiPagination

    monkeypatch.setattr(ApiPagination, "max_page_size", 3)
    response = member.get("/api/v1/members/?page_size=4")
    assert response.status_code == 200
    assert (response.json()["count"], len(response.json()["results"])) == (5, 3)


def test_unknown_filter_value_is_a_400(cast, member):
    response = member.get("/api/v1/members/?kind=alien")
    assert (response.status_code, response.json()["field"]) == (400, "kind")


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def _grow(cast, evenings: int):
    """Add `evenings` more evenings of three games each to the cast's season."""
    start = datetime.date(2026, 1, 2)
    for i in range(evenings):
        _second_evening(
            cast,
            date=start + datetime.timedelta(days=7 * i),
            losers=[cast.member, cast.carla, cast.secretary],
        )


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/seasons/{season}/standings/",
        "/api/v1/evenings/{evening}/summary/",
        "/api/v1/seasons/{season}/runden/",
        "/api/v1/members/{member}/dues/",
        "/api/v1/evenings/",
        "/api/v1/games/",
    ],
)
def test_endpoint_query_count_does_not_grow_with_the_history(cast, member, url):
    url = url.format(season=cast.season.pk, evening=cast.evening.pk, member=cast.member.pk)
    small = _queries(member, url)
    _grow(cast, 6)
    game_record(evening=cast.evening, loser=cast.carla, schock_aus_throwers=[cast.carla])
    assert _queries(member, url) == small
