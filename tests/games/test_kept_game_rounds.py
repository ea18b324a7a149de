"""A stored game's rounds page (`/spiele/<id>/runden/`) is kept by the club's books version: a
repeated read reads the rounds from the cache and answers 304 to its ETag; a
correction of the game shows on the next read; another club's game is a 404.

Outside a transaction (`transaction=True`): inside one nothing is kept.
"""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.services import game_update
from league.club.services import member_login_set
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.games.rounds.test_services import _evening_copied

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def evening(sample_evening):
    """The sample evening, game 20 entered round by round; Bernd has a login."""
    evening, people = _evening_copied(sample_evening, rounds_games=(20,))
    member_login_set(person=people["Bernd Krause"], user=UserFactory(username="bernd"))
    return evening, people


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    client.get("/abende/")  # the session's CSRF cookie: pages send their ETag to it
    return client


def _without_csrf(html: str) -> str:
    return re.sub(r'(name="csrfmiddlewaretoken" value=)"[^"]*"', r"\1", html)


def _read(client: Client, url: str) -> tuple[int, str, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), response.content.decode(), response["ETag"]


def test_the_rounds_page_is_kept_and_follows_a_correction(evening):
    evening_row, people = evening
    game = evening_row.games.get(number=20)
    client = _client(people["Bernd Krause"].user)
    url = f"/spiele/{game.pk}/runden/"
    cold, first, tag = _read(client, url)
    warm, second, _tag = _read(client, url)
    assert warm < cold and _without_csrf(second) == _without_csrf(first)
    assert "Runde 1" in first or "Round 1" in first
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    # A short game: corrected, its new loser shows at once.
    short = evening_row.games.get(number=1)
    short_url = f"/spiele/{short.pk}/runden/"
    loser = short.loser
    other = next(p for n, p in people.items() if p.pk != loser.pk and n == "Anna Becker")
    assert loser.name in _read(client, short_url)[1]
    game_update(game=short, loser=other)
    text = _read(client, short_url)[1]
    assert other.name in text.split("</h1>", 1)[1].split("</p>", 1)[0]
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 200


def test_another_clubs_game_is_not_found_and_nothing_is_kept(evening):
    evening_row, _people = evening
    game = evening_row.games.get(number=20)
    stranger = MemberFactory(club=ClubFactory(name="Andere"), user=UserFactory(username="x"))
    client = _client(stranger.user)
    assert client.get(f"/spiele/{game.pk}/runden/").status_code == 404
    assert client.get(f"/spiele/{game.pk}/runden/").status_code == 404
