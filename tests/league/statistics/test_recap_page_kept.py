"""The season recap page (/saison/<year>/rueckblick/) kept by the club's books version: a repeated
read is served from the cache (fewer queries) or answered 304 with
its ETag; a game entered shows on the very next read; an unknown year is a 404.

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py).
"""

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.services import evening_create, game_record
from league.club.services import member_login_set
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = "/saison/2025/rueckblick/"


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def client(books) -> Client:
    """Carl (a member of the statistics club) logged in, with the session's CSRF cookie."""
    member_login_set(person=books["carl"], user=UserFactory(username="recap-carl"))
    client = Client()
    client.force_login(books["carl"].user)
    client.get("/abende/")
    return client


def _read(client: Client, url: str):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries), response


def _without_csrf(html: str) -> str:
    return re.sub(r'(name="csrfmiddlewaretoken" value=)"[^"]*"', r"\1", html)


def _season_line(html: str) -> str:
    return re.search(r"<dt>Saison</dt><dd>([^<]*)</dd>", html)[1]


def test_a_repeated_recap_page_is_kept_and_answers_304_with_its_etag(client):
    cold, first = _read(client, PAGE)
    warm, second = _read(client, PAGE)
    assert warm < cold
    assert _without_csrf(second.content.decode()) == _without_csrf(first.content.decode())
    assert client.get(PAGE, headers={"If-None-Match": first["ETag"]}).status_code == 304


def test_a_game_entered_shows_at_once_on_the_kept_recap(client, books):
    first = client.get(PAGE)
    assert _season_line(first.content.decode()) == "2 Abende · 6 Spiele · 4 Schock-Aus"

    evening = evening_create(
        club=books["club"],
        date=datetime.date(2025, 10, 15),
        secretary=books["anna"],
        present_members=[books["anna"], books["bernd"]],
    )
    game_record(evening=evening, loser=books["bernd"], schock_aus_throwers=[books["anna"]])

    again = client.get(PAGE, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200
    assert _season_line(again.content.decode()) == "3 Abende · 7 Spiele · 5 Schock-Aus"


def test_an_unknown_year_of_the_recap_is_not_found_and_nothing_is_kept(client):
    assert client.get("/saison/1900/rueckblick/").status_code == 404
    assert client.get("/saison/1900/rueckblick/").status_code == 404
