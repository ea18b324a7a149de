"""The evening's share page and image card kept by the club's books version: a
repeated read is served from the cache (fewer queries, the same bytes) or answered 304
with its ETag; a game entered, a Schock-Aus or a rename shows on the very next read; what
is kept is never another club's (another club's evening is a 404) nor another host's link.

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py).
"""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.services import game_record
from league.club.services import member_login_set, member_update
from tests.factories import ClubFactory, MemberFactory, SeasonFactory, UserFactory
from tests.sample import enter_sample_evening_copied

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def evening(sample_evening):
    """The sample evening of 25 games (2026-10-09); Anna Becker has a login."""
    evening, people = enter_sample_evening_copied(sample_evening)
    member_login_set(person=people["Anna Becker"], user=UserFactory(username="anna"))
    return evening, people


def _client(member, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(member.user)
    client.get("/abende/")  # the session's CSRF cookie: the page gets an ETag
    return client


def _read(client: Client, url: str):
    """(queries, response) of GET `url`, which must answer 200."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries), response


def _without_csrf(html: str) -> str:
    return re.sub(r'(name="csrfmiddlewaretoken" value=)"[^"]*"', r"\1", html)


def test_a_repeated_share_page_is_kept_and_answers_304_with_its_etag(evening):
    evening_row, people = evening
    client = _client(people["Anna Becker"])
    url = f"/abende/{evening_row.pk}/teilen/"
    cold, first = _read(client, url)
    warm, second = _read(client, url)
    assert warm < cold
    assert _without_csrf(second.content.decode()) == _without_csrf(first.content.decode())
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304


def test_a_game_entered_shows_at_once_in_the_kept_share_text(evening):
    evening_row, people = evening
    client = _client(people["Anna Becker"])
    url = f"/abende/{evening_row.pk}/teilen/"
    first = client.get(url)
    assert "25 von 25 Spielen" in first.content.decode()

    game_record(evening=evening_row, loser=people["Anna Becker"], schock_aus_throwers=[])

    again = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200
    assert "26 von 25 Spielen" in again.content.decode()


def test_the_kept_share_text_links_to_the_host_it_was_asked_on(evening):
    evening_row, people = evening
    url = f"/abende/{evening_row.pk}/teilen/"
    one = _client(people["Anna Becker"]).get(url, HTTP_HOST="testserver").content.decode()
    other = _client(people["Anna Becker"]).get(url, HTTP_HOST="localhost").content.decode()
    assert f"http://testserver/abende/{evening_row.pk}/" in one
    assert f"http://localhost/abende/{evening_row.pk}/" in other
    assert "http://testserver/" not in other


def test_a_repeated_card_is_kept_the_same_png_and_answers_304(evening):
    evening_row, people = evening
    client = _client(people["Anna Becker"])
    url = f"/abende/{evening_row.pk}/teilen.png"
    cold, first = _read(client, url)
    warm, second = _read(client, url)
    assert warm < cold
    assert first["Content-Type"] == "image/png"
    assert second.content == first.content
    assert first["Content-Disposition"] == 'inline; filename="abend-2026-10-09.png"'
    assert second["Content-Disposition"] == first["Content-Disposition"]
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304


def test_a_rename_shows_at_once_on_the_kept_card(evening):
    evening_row, people = evening
    client = _client(people["Anna Becker"])
    url = f"/abende/{evening_row.pk}/teilen.png"
    before = client.get(url)

    member_update(member=people["Anna Becker"], name="Anna Zeppelin-Langenburg")

    after = client.get(url, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert after.content != before.content
    assert (
        "Anna Zeppelin-Langenburg"
        in client.get(f"/abende/{evening_row.pk}/teilen/").content.decode()
    )


def test_another_clubs_member_gets_404_for_a_kept_share_page_and_card(evening):
    evening_row, people = evening
    page, card = f"/abende/{evening_row.pk}/teilen/", f"/abende/{evening_row.pk}/teilen.png"
    anna = _client(people["Anna Becker"])
    assert anna.get(page).status_code == 200 and anna.get(card).status_code == 200  # kept
    club = ClubFactory(name="Andere Runde")
    SeasonFactory(club=club, year=2026)
    outsider = _client(MemberFactory(club=club, name="Otto Außen", user=UserFactory()))
    assert outsider.get(page).status_code == 404
    assert outsider.get(card).status_code == 404
