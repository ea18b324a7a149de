"""The standings and the evening sheet make a fixed number of queries, whatever the number
of evenings and games."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.evenings.services import evening_create, game_record
from league.club.caching import books_cache_forget

pytestmark = pytest.mark.django_db


def _evening(season, people, day: int, games: int):
    secretary, member, guest = people
    evening = evening_create(
        club=season.club,
        date=datetime.date(2026, 5, day),
        secretary=secretary,
        present_members=[secretary, member],
        guests=[guest],
    )
    for n in range(games):
        game_record(
            evening=evening,
            loser=people[n % 3],
            schock_aus_throwers=[people[(n + 1) % 3]] if n % 4 == 0 else [],
        )
    return evening


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.fixture
def people(secretary, member, guest):
    return (secretary, member, guest)


def test_standings_queries_do_not_grow_with_evenings(secretary_client, season, people):
    url = reverse("season_standings", args=[2026])
    _evening(season, people, 1, 5)
    one = _queries(secretary_client, url)
    _evening(season, people, 8, 5)
    _evening(season, people, 15, 5)
    assert _queries(secretary_client, url) == one


@pytest.mark.parametrize("client_fixture", ["secretary_client", "member_client"])
def test_evening_sheet_queries_do_not_grow_with_games(request, client_fixture, season, people):
    client = request.getfixturevalue(client_fixture)
    small = _evening(season, people, 1, 5)
    large = _evening(season, people, 8, 25)
    # Each read from an empty cache: the first read would otherwise keep the club-wide
    # parts (the season's provisional hours) that the second then finds.
    books_cache_forget()
    small_count = _queries(client, reverse("evening_detail", args=[small.pk]))
    books_cache_forget()
    assert _queries(client, reverse("evening_detail", args=[large.pk])) == small_count


def test_marks_page_queries_do_not_grow_with_evenings(member_client, season, people, member):
    url = reverse("member_dues", args=[2026, member.pk])
    _evening(season, people, 1, 5)
    one = _queries(member_client, url)
    _evening(season, people, 8, 5)
    _evening(season, people, 15, 5)
    assert _queries(member_client, url) == one
