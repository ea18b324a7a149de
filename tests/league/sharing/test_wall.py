"""The wall screen (/tafel/<token>/): read-only, no login, behind a secret link the
secretary makes and revokes; tonight's games, who lost most, Schock-Aus, Runden owed and
the season's table, never money; a conditional GET with the current ETag is a 304 after
one query that renders nothing, and a saved game changes the ETag.

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py).
"""

import hashlib
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.evenings.services import game_record
from league.club.errors import BooksError
from league.club.services import member_login_set
from league.sharing import views as sharing_views
from league.sharing.models import WallScreen, wall_token_hash
from league.sharing.selectors import wall_screen_by_token
from league.sharing.services import MAX_SCREENS, wall_screen_create, wall_screen_revoke
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.sample import enter_sample_evening_copied

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def tonight(sample_evening):
    """The sample evening of 25 games played today; its club, people and a wall link."""
    evening, people = enter_sample_evening_copied(sample_evening, date=timezone.localdate())
    screen, token = wall_screen_create(club=evening.club, name="Fernseher")
    return evening, people, screen, token


def _url(token: str) -> str:
    return f"/tafel/{token}/"


def test_the_wall_shows_tonight_and_the_table_without_a_login(tonight):
    evening, people, _screen, token = tonight
    response = Client().get(_url(token))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Abend vom" in html
    assert "Am meisten verloren" in html
    assert "Offene Runden" in html
    assert f"Tabelle {evening.season.year}" in html
    for name in ("Anna Becker", "Dieter Hahn", "Frank Roth"):
        assert name in html
    assert html.count('class="wall-no"') >= 8


def test_the_wall_never_shows_money(tonight):
    html = Client().get(_url(tonight[3])).content.decode()
    text = re.sub(r"<[^>]+>", " ", html)
    for money in ("€", "EUR", " DM", "Geld", "Marken", "Kasse"):
        assert money not in text


def test_an_unknown_link_is_a_404(tonight):
    assert Client().get(_url("x" * 43)).status_code == 404
    assert Client().get(_url("x" * 43) + "?teil=1").status_code == 404


def test_a_revoked_link_is_a_404(tonight):
    evening, _people, screen, token = tonight
    assert Client().get(_url(token)).status_code == 200
    wall_screen_revoke(club=evening.club, screen_id=screen.pk)
    assert Client().get(_url(token)).status_code == 404
    assert Client().get(_url(token) + "?teil=1").status_code == 404


def test_only_the_tokens_hash_is_stored(tonight):
    _evening, _people, screen, token = tonight
    assert len(token) >= 43
    screen.refresh_from_db()
    assert screen.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert not WallScreen.objects.filter(token_hash=token).exists()


def test_a_304_costs_one_query_and_renders_nothing(tonight, monkeypatch):
    token = tonight[3]
    client = Client()
    etag = client.get(_url(token) + "?teil=1")["ETag"]
    cache.clear()  # nothing kept to fall back on: a 304 must not need it

    def no_build(**kwargs):
        raise AssertionError("a 304 rebuilt the board")

    monkeypatch.setattr(sharing_views, "wall_board", no_build)
    monkeypatch.setattr(sharing_views, "render_to_string", no_build)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(_url(token) + "?teil=1", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response["ETag"] == etag
    assert len(queries.captured_queries) == 1


def test_a_saved_game_changes_the_board_and_its_etag(tonight):
    evening, people, _screen, token = tonight
    client = Client()
    first = client.get(_url(token) + "?teil=1")
    game_record(evening=evening, loser=people["Anna Becker"])
    second = client.get(_url(token) + "?teil=1", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert second["ETag"] != first["ETag"]
    newest = '<span class="wall-no">26.</span>'
    assert newest in second.content.decode()
    assert newest not in first.content.decode()


def test_fifty_screens_share_one_rendering(tonight, monkeypatch):
    evening = tonight[0]
    tokens = [tonight[3]] + [
        wall_screen_create(club=evening.club, name=f"TV {i}")[1] for i in range(3)
    ]
    calls = []
    real = sharing_views.wall_board
    monkeypatch.setattr(sharing_views, "wall_board", lambda **kw: calls.append(1) or real(**kw))
    for token in tokens:
        assert Client().get(_url(token) + "?teil=1").status_code == 200
    assert len(calls) == 1


def test_the_page_polls_every_four_seconds_with_its_etag(tonight):
    html = Client().get(_url(tonight[3])).content.decode()
    assert 'data-every="4000"' in html
    assert 'data-url="/tafel/' in html and "?teil=1" in html
    assert re.search(r'data-etag="&quot;[0-9a-f]+&quot;"', html)
    assert "js/wall.js" in html


def test_the_wall_asks_not_to_be_indexed_nor_to_leak_its_link(tonight):
    response = Client().get(_url(tonight[3]))
    assert response["Referrer-Policy"] == "no-referrer"
    assert "noindex" in response["X-Robots-Tag"]
    assert "no-cache" in response["Cache-Control"]


# --- the secretary's page ------------------------------------------------------------------


@pytest.fixture
def secretary(tonight):
    evening, people, _screen, _token = tonight
    member = people["Bernd Krause"]
    member.is_secretary = True
    member_login_set(person=member, user=UserFactory(username="bernd"), also_saved=["is_secretary"])
    client = Client()
    client.force_login(member.user)
    return client, member


def test_the_secretary_makes_a_link_and_sees_it_once(secretary):
    client, member = secretary
    response = client.post("/verein/tafel/", {"name": "  Tablet   am Tresen "})
    assert response.status_code == 200
    html = response.content.decode()
    link = re.search(r'href="(http://testserver/tafel/[^"]+/)"', html).group(1)
    screen = WallScreen.objects.get(name="Tablet am Tresen")
    assert screen.created_by == member.user
    assert Client().get(link.removeprefix("http://testserver")).status_code == 200
    again = client.get("/verein/tafel/").content.decode()
    assert link not in again
    assert "Tablet am Tresen" in again


def test_the_secretary_revokes_a_link_and_it_is_audited(secretary, tonight):
    client, member = secretary
    _evening, _people, screen, token = tonight
    response = client.post("/verein/tafel/", {"revoke": str(screen.pk)})
    assert response.status_code == 302
    assert Client().get(_url(token)).status_code == 404
    history = list(screen.history.order_by("history_date"))
    assert [h.history_type for h in history] == ["+", "~"]
    assert history[-1].revoked_at is not None
    assert history[-1].history_user == member.user


def test_another_clubs_link_cannot_be_revoked(secretary):
    client, _member = secretary
    other, _token = wall_screen_create(club=ClubFactory(), name="Fremd")
    response = client.post("/verein/tafel/", {"revoke": str(other.pk)})
    assert response.status_code == 400
    other.refresh_from_db()
    assert other.revoked_at is None


def test_a_bad_revoke_is_a_400(secretary):
    client, _member = secretary
    assert client.post("/verein/tafel/", {"revoke": "abc"}).status_code == 400


def test_a_member_may_not_make_links(tonight):
    member = tonight[1]["Anna Becker"]
    member_login_set(person=member, user=UserFactory(username="anna"))
    client = Client()
    client.force_login(member.user)
    assert client.get("/verein/tafel/").status_code == 403
    assert client.post("/verein/tafel/", {"name": "x"}).status_code == 403
    assert WallScreen.objects.count() == 1


def test_a_name_is_required_and_bounded(tonight):
    club = tonight[0].club
    for name in ("", "   ", "x" * 61):
        with pytest.raises(BooksError) as refused:
            wall_screen_create(club=club, name=name)
        assert refused.value.code == "invalid_name"


def test_a_club_has_a_bounded_number_of_links(tonight):
    club = tonight[0].club
    for i in range(MAX_SCREENS - 1):
        wall_screen_create(club=club, name=f"TV {i}")
    with pytest.raises(BooksError) as refused:
        wall_screen_create(club=club, name="one too many")
    assert refused.value.code == "too_many_screens"


def test_a_club_without_an_evening_gets_an_empty_wall():
    club = ClubFactory()
    MemberFactory(club=club)
    _screen, token = wall_screen_create(club=club, name="TV")
    response = Client().get(_url(token))
    assert response.status_code == 200
    assert "Noch kein Abend" in response.content.decode()


def test_the_link_of_a_suspended_club_is_a_404(tonight):
    from league.club.services import club_suspend

    evening, _people, _screen, token = tonight
    first = Client().get(_url(token))
    club_suspend(club=evening.club)
    assert Client().get(_url(token), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 404


def test_a_link_names_its_club_and_is_looked_for_among_its_clubs_links_only(tonight):
    evening, _people, _screen, token = tonight
    club_id, _dash, secret = token.partition("-")
    assert club_id == str(evening.club_id) and len(secret) == 43
    with CaptureQueriesContext(connection) as queries:
        assert wall_screen_by_token(token=token) is not None
    (sql,) = [q["sql"] for q in queries.captured_queries if "league_wallscreen" in q["sql"]]
    assert f'"league_wallscreen"."club_id" = {evening.club_id}' in sql
    # The club's id is part of what the hash covers: another club named, no link.
    other = ClubFactory(name="Nachbarn")
    assert Client().get(_url(f"{other.pk}-{secret}")).status_code == 404


def test_a_link_made_before_links_named_their_club_still_opens_the_wall(tonight):
    evening = tonight[0]
    old = "A" * 43  # the older form: 32 random bytes in URL-safe base64, nothing else
    WallScreen.objects.create(
        club=evening.club, name="Alter Fernseher", token_hash=wall_token_hash(old)
    )
    assert Client().get(_url(old)).status_code == 200


@pytest.mark.parametrize("token", ["abc", "12-", "-x", "²-" + "x" * 43, "9" * 19 + "-x" * 22])
def test_a_token_that_names_no_club_is_not_looked_up(tonight, token):
    with CaptureQueriesContext(connection) as queries:
        assert wall_screen_by_token(token=token) is None
    assert queries.captured_queries == []
