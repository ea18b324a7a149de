"""The page frame's kept navigation (league/templatetags/frame_cache.py) and the code
version in every cache key (league/club/caching.py): the navigation is rendered
once per role and language, never shows one role's links to another, and its logout form
carries each session's own CSRF token.

Outside a transaction (`transaction=True`): inside one nothing is kept.
"""

import re

import pytest
from django.core.cache import cache
from django.test import Client

from league.club import caching
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def people():
    club = ClubFactory(name="Schockclub Rahmen")
    bernd = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    anna = MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))
    return bernd, anna


def _client(member) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member.user)
    return client


def _nav(html: str) -> str:
    return html.split('<nav class="mainnav"', 1)[1].split("</nav>", 1)[0]


def test_each_role_gets_its_own_navigation_from_the_kept_one(people):
    bernd, anna = people
    secretary, member = _client(bernd), _client(anna)
    for _ in range(2):  # the second round reads the kept navigation
        bernd_nav = _nav(secretary.get("/passwort/").content.decode())
        anna_nav = _nav(member.get("/passwort/").content.decode())
        assert 'href="/verein/"' in bernd_nav and 'href="/abende/neu/"' in bernd_nav
        assert 'href="/verein/"' not in anna_nav and 'href="/abende/neu/"' not in anna_nav
        assert 'href="/marken/"' in anna_nav


def test_the_kept_logout_form_carries_each_sessions_own_token(people):
    bernd, anna = people
    first, second = _client(bernd), _client(anna)
    first.get("/passwort/")  # the first visit renders and keeps the member's navigation
    tokens = []
    for client in (first, second):
        nav = _nav(client.get("/passwort/").content.decode())
        token = _TOKEN.search(nav).group(1)
        assert token != caching.CSRF_PLACEHOLDER
        tokens.append(token)
        # The token works: the logout is accepted (a wrong token would be a 403).
        response = client.post("/logout/", {"csrfmiddlewaretoken": token})
        assert response.status_code == 302
    assert tokens[0] != tokens[1]


def test_a_kept_navigation_is_read_not_rendered(people, monkeypatch):
    bernd, _anna = people
    client = _client(bernd)
    client.get("/passwort/")
    built = []
    original = caching.books_cached

    def counting(*parts, build, **kw):
        def counted():
            built.append(parts[0])
            return build()

        return original(*parts, build=counted, **kw)

    monkeypatch.setattr(caching, "books_cached", counting)
    client.get("/passwort/")
    assert "frame:nav" not in built
    cache.clear()
    client.get("/passwort/")
    assert "frame:nav" in built


def test_the_code_version_is_part_of_every_cache_key(monkeypatch):
    key = caching.books_cache_key("season_standings", "1-2-3", 7)
    assert re.fullmatch(r"[0-9a-f]{16}", caching.code_version())
    monkeypatch.setattr(caching, "code_version", lambda: "another-release")
    assert caching.books_cache_key("season_standings", "1-2-3", 7) != key


def test_a_renamed_club_gets_its_pages_again_not_a_304(people):
    from league.club.models import Club

    bernd, _anna = people
    client = _client(bernd)
    client.get("/abende/")  # the CSRF cookie: pages send their ETag to a client with one
    first = client.get("/kasse/")
    assert first.status_code == 200 and first.get("ETag")
    assert client.get("/kasse/", headers={"If-None-Match": first["ETag"]}).status_code == 304
    Club.objects.filter(pk=bernd.club_id).update(name="Schockclub Neuer Name")
    again = client.get("/kasse/", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200
    assert "Schockclub Neuer Name" in again.content.decode()
