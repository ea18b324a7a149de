"""Reads cached by the club's books version, and conditional GETs.

These tests run outside a transaction (`transaction=True`): inside one, nothing is cached
(league/club/caching.py), which is what the other tests see.
"""

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.services import evening_create, game_record
from league.club.caching import books_cached, club_books_version
from league.club.services import member_create, member_update, season_get_or_create
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

# The tables of the books: a repeated read touches none of them (it reads the session, the
# user, the person, the club's books version and the season, and on the standings page the
# season report's state).
BOOKS_TABLES = (
    "games_game",
    "games_attendance",
    "games_schockaus",
    "league_ledgerentry",
    "league_payment",
    "games_rundegiven",
)
REPEATED_READ_MAX_QUERIES = 16


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def club_books():
    club = ClubFactory(name="Schockclub Cache")
    season = season_get_or_create(club=club, year=2026)
    bernd = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    anna = MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 10, 9),
        secretary=bernd,
        present_members=[bernd, anna],
    )
    game_record(evening=evening, loser=anna, schock_aus_throwers=[])
    return club, season, evening, bernd, anna


def _client(member) -> Client:
    client = Client()
    client.force_login(member.user)
    return client


def _api(member) -> Client:
    """An API client logged in by session (the token's path through the views is the
    same; its kind of token belongs to the accounts)."""
    return _client(member)


def _queries(client, url, **headers):
    """The response and the SQL of its queries."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers)
    return response, [q["sql"] for q in ctx.captured_queries]


def _without_csrf(html: bytes) -> bytes:
    """The page without its CSRF tokens (masked anew on every render)."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", html)


def _books_read(queries: list[str]) -> list[str]:
    return [sql for sql in queries if any(f'"{t}"' in sql for t in BOOKS_TABLES)]


def _row(standings: dict, name: str) -> dict:
    return next(r for r in standings["rows"] if r["member"]["name"] == name)


def test_a_game_entered_shows_in_the_next_standings_read(club_books):
    club, season, evening, bernd, anna = club_books
    api = _api(anna)
    url = f"/api/v1/seasons/{season.pk}/standings/"
    before = api.get(url).json()
    assert _row(before, "Anna Becker")["games_lost"] == 1
    assert api.get(url).json() == before  # the cached copy

    game_record(evening=evening, loser=anna, schock_aus_throwers=[bernd])

    after = api.get(url).json()
    assert _row(after, "Anna Becker")["games_lost"] == 2
    assert _row(after, "Bernd Krause")["schock_aus"] == 1


def test_a_game_entered_shows_on_the_next_standings_page(club_books):
    club, season, evening, bernd, anna = club_books
    client = _client(anna)
    assert "Gustav" not in client.get("/saison/2026/").content.decode()
    guest = MemberFactory(club=club, name="Gustav Meier", kind="guest")
    second = evening_create(
        club=club,
        date=datetime.date(2026, 10, 16),
        secretary=bernd,
        present_members=[bernd, anna],
        guests=[guest],
    )
    game_record(evening=second, loser=guest, schock_aus_throwers=[])
    assert "Gustav Meier" in client.get("/saison/2026/").content.decode()


def test_a_renamed_person_shows_in_the_next_read(club_books):
    club, season, evening, bernd, anna = club_books
    client = _client(bernd)
    assert "Anna Becker" in client.get("/saison/2026/").content.decode()
    member_update(member=anna, name="Anna Schmidt")
    page = client.get("/saison/2026/").content.decode()
    assert "Anna Schmidt" in page and "Anna Becker" not in page


@pytest.mark.parametrize(
    "path",
    [
        "/saison/2026/",
        "/abende/",
        "/kasse/",
        "/kasse/konto/{anna}/",
        "/kasse/konto/{anna}/?saison=alle",
        "/saison/2026/marken/{anna}/",
        "/abende/{evening}/",
        "/statistik/saisons/?saison=2026",
        "/statistik/rekorde/",
        "/runden/?saison=alle",
    ],
)
def test_a_second_page_read_does_not_read_the_books(club_books, path):
    club, season, evening, bernd, anna = club_books
    url = path.format(anna=anna.pk, evening=evening.pk)
    # A member: the secretary's evening page also carries the entry form of the next game.
    client = _client(anna) if "abende/" in url and "{evening}" in path else _client(bernd)
    first, cold = _queries(client, url)
    second, warm = _queries(client, url)
    assert first.status_code == second.status_code == 200
    assert _without_csrf(second.content) == _without_csrf(first.content)
    assert _books_read(cold)
    assert not _books_read(warm)
    assert len(warm) <= REPEATED_READ_MAX_QUERIES


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/seasons/{season}/standings/",
        "/api/v1/members/{anna}/dues/",
        "/api/v1/members/{anna}/statement/",
        "/api/v1/members/{anna}/statement/?season=all",
        "/api/v1/balances/",
        "/api/v1/seasons/{season}/statistics/",
        "/api/v1/statistics/records/",
    ],
)
def test_a_second_api_read_does_not_read_the_books(club_books, path):
    club, season, evening, bernd, anna = club_books
    url = path.format(anna=anna.pk, season=season.pk, evening=evening.pk)
    api = _api(bernd)
    first, cold = _queries(api, url)
    second, warm = _queries(api, url)
    assert first.status_code == second.status_code == 200
    assert second.json() == first.json()
    assert _books_read(cold)
    assert not _books_read(warm)
    assert len(warm) <= REPEATED_READ_MAX_QUERIES


@pytest.mark.parametrize(
    "path",
    [
        "/saison/2026/",
        "/abende/",
        "/kasse/",
        "/kasse/konto/{anna}/",
        "/saison/2026/marken/{anna}/",
        "/statistik/saisons/?saison=2026",
        "/statistik/rekorde/",
        "/verlauf/person/{anna}/",
        "/runden/?saison=alle",
    ],
)
def test_a_page_read_again_with_its_etag_is_304_until_the_books_change(club_books, path):
    club, season, evening, bernd, anna = club_books
    url = path.format(anna=anna.pk)
    client = _client(bernd)
    client.get(url)  # the first page of a session sets its CSRF cookie
    first = client.get(url)
    etag = first["ETag"]
    assert "Cookie" in first["Vary"]
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again["ETag"] == etag

    game_record(evening=evening, loser=bernd, schock_aus_throwers=[])

    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/seasons/{season}/standings/",
        "/api/v1/members/{anna}/dues/",
        "/api/v1/members/{anna}/statement/",
        "/api/v1/balances/",
        "/api/v1/statistics/records/",
    ],
)
def test_an_api_read_again_with_its_etag_is_304_until_the_books_change(club_books, path):
    club, season, evening, bernd, anna = club_books
    url = path.format(anna=anna.pk, season=season.pk)
    api = _api(bernd)
    first = api.get(url)
    etag = first["ETag"]
    assert "Authorization" in first["Vary"]
    assert api.get(url, headers={"If-None-Match": etag}).status_code == 304

    game_record(evening=evening, loser=bernd, schock_aus_throwers=[])

    changed = api.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_a_member_never_gets_the_secretarys_page_by_its_etag(club_books):
    club, season, evening, bernd, anna = club_books
    as_bernd, as_anna = _client(bernd), _client(anna)
    as_bernd.get("/saison/2026/")
    as_anna.get("/saison/2026/")
    etag = as_bernd.get("/saison/2026/")["ETag"]
    as_anna = as_anna.get("/saison/2026/", headers={"If-None-Match": etag})
    assert as_anna.status_code == 200
    assert as_anna["ETag"] != etag


def test_another_members_statement_stays_refused_with_an_etag(club_books):
    club, season, evening, bernd, anna = club_books
    url = f"/api/v1/members/{bernd.pk}/statement/"
    etag = _api(bernd).get(url)["ETag"]
    assert _api(anna).get(url, headers={"If-None-Match": etag}).status_code == 403


def test_a_page_with_a_message_pending_is_rendered_not_304(club_books):
    club, season, evening, bernd, anna = club_books
    client = _client(bernd)
    client.get(f"/kasse/konto/{anna.pk}/")
    etag = client.get(f"/kasse/konto/{anna.pk}/")["ETag"]
    form = client.get("/kasse/zahlung/").context["form"]
    client.post(
        "/kasse/zahlung/",
        {
            "member": anna.pk,
            "amount": "1,00",
            "paid_on": "2026-10-09",
            "method": "cash",
            "idempotency_key": form["idempotency_key"].value(),
        },
    )
    page = client.get(f"/kasse/konto/{anna.pk}/", headers={"If-None-Match": etag})
    assert page.status_code == 200
    assert "ETag" not in page


def test_the_books_version_moves_with_every_change_and_with_a_new_person(club_books):
    club, season, evening, bernd, anna = club_books
    first = club_books_version(club=club.pk)
    game_record(evening=evening, loser=bernd, schock_aus_throwers=[])
    second = club_books_version(club=club.pk)
    member_create(club=club, name="Neu Hinzu")
    third = club_books_version(club=club.pk)
    assert len({first, second, third}) == 3


def test_nothing_is_cached_inside_a_transaction():
    from django.db import transaction

    calls = []

    def build():
        calls.append(1)
        return len(calls)

    with transaction.atomic():
        assert books_cached("probe", 1, build=build) == 1
        assert books_cached("probe", 1, build=build) == 2
    assert books_cached("probe", 1, build=build) == 3
    assert books_cached("probe", 1, build=build) == 3


def test_an_unreachable_cache_computes_the_read(monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(cache, "get", broken)
    monkeypatch.setattr(cache, "set", broken)
    assert books_cached("probe", 2, build=lambda: "computed") == "computed"


def test_a_write_drops_the_kept_reads_it_superseded_once_per_season(club_books, monkeypatch):
    from league.club import caching

    club, season, evening, bernd, anna = club_books
    old_season = caching.books_cache_key(caching.season_part_version(season=season), "part")
    old_club = caching.books_cache_key(caching.club_books_version(club=club), "whole")
    other_club = ClubFactory(name="Nachbarn")
    kept_elsewhere = caching.books_cache_key(caching.club_books_version(club=other_club), "x")
    for key in (old_season, old_club, kept_elsewhere):
        cache.set(key, "kept")
    scans: list[str] = []
    real_forget = caching._forget_prefix
    monkeypatch.setattr(
        caching, "_forget_prefix", lambda prefix: scans.append(prefix) or real_forget(prefix)
    )
    with transaction.atomic():
        for _number in range(3):  # three games entered in one go
            game_record(evening=evening, loser=bernd, schock_aus_throwers=[])
        assert scans == [] and cache.get(old_season) == "kept"
    assert sorted(scans) == sorted([f"c{club.pk}:v:", f"c{club.pk}:s{season.pk}:"])
    assert cache.get(old_season) is None and cache.get(old_club) is None
    assert cache.get(kept_elsewhere) == "kept"
    scans.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        game_record(evening=evening, loser=anna, schock_aus_throwers=[])
        raise RuntimeError("the writer failed")
    assert scans == []
