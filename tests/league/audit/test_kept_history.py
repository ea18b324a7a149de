"""The history reads kept by the club's books version and `AuditState`: the
club's latest changes, an evening's history and a person's history (pages and API).
Nothing kept is stale: a change through the services, and a change to the club or a
person that moves no books version (a secretary flag, a locked login, the club's own
record), shows on the next read; a repeat with the ETag gets 304 until then.

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py).
"""

import datetime
import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.services import evening_create, evening_delete, game_record
from league.audit.selectors import audit_state
from league.club.services import login_lock, member_update, season_get_or_create
from league.ledger.services import payment_record
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def club():
    """The 2026 season with two evenings of one game each; Bernd the secretary, Anna a
    member with a login; another club with an evening of its own."""
    club = ClubFactory(name="Schockclub Verlauf")
    bernd = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    anna = MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))
    season_get_or_create(club=club, year=2026)
    evenings = []
    for day in (8, 9):
        evening = evening_create(
            club=club,
            date=datetime.date(2026, 10, day),
            secretary=bernd,
            present_members=[bernd, anna],
        )
        game_record(evening=evening, loser=anna, schock_aus_throwers=[bernd])
        evenings.append(evening)
    other = ClubFactory(name="Nachbarclub")
    otto = MemberFactory(club=other, name="Otto", is_secretary=True)
    season_get_or_create(club=other, year=2026)
    foreign = evening_create(
        club=other, date=datetime.date(2026, 10, 9), secretary=otto, present_members=[otto]
    )
    return {"club": club, "bernd": bernd, "anna": anna, "evenings": evenings, "foreign": foreign}


def _client(member) -> Client:
    client = Client()
    client.force_login(member.user)
    client.get("/")  # the CSRF cookie: a page without one gets no ETag
    return client


def _reads(club) -> dict[str, str]:
    evening, anna = club["evenings"][0], club["anna"]
    return {
        "index": "/verlauf/",
        "evening": f"/verlauf/abend/{evening.pk}/",
        "member": f"/verlauf/person/{anna.pk}/",
        "api": "/api/v1/history/",
        "api_evening": f"/api/v1/history/?evening={evening.pk}",
        "api_member": f"/api/v1/history/?member={anna.pk}",
    }


def _bodies(client, urls: dict[str, str]) -> dict[str, bytes]:
    out = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        # Without the form tokens of the frame (masked anew on every render).
        out[name] = re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", response.content)
    return out


def _changed(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {name for name in before if before[name] != after[name]}


def test_a_repeated_read_is_the_same_and_a_change_of_the_books_shows_on_the_next(club):
    client = _client(club["bernd"])
    urls = _reads(club)
    first = _bodies(client, urls)
    assert _bodies(client, urls) == first  # kept, and the same
    # A game on the first evening: its history, the club's, the person's (Anna lost).
    game_record(evening=club["evenings"][0], loser=club["anna"])
    after = _bodies(client, urls)
    assert _changed(first, after) == set(urls)
    assert after["index"].count(b"audit-") > first["index"].count(b"audit-")
    assert after["evening"].count(b"audit-") > first["evening"].count(b"audit-")


def test_a_payment_shows_in_the_clubs_and_the_persons_history_at_once(club):
    client = _client(club["bernd"])
    urls = _reads(club)
    first = _bodies(client, urls)
    payment_record(member=club["anna"], amount=Decimal("5.00"), paid_on=datetime.date(2026, 10, 10))
    after = _bodies(client, urls)
    assert {"index", "api", "member", "api_member"} <= _changed(first, after)
    assert b"5,00" in after["index"]


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda c: member_update(member=c["anna"], is_secretary=True), id="secretary"),
        pytest.param(lambda c: login_lock(person=c["anna"]), id="login-locked"),
        pytest.param(lambda c: member_update(member=c["anna"], active=False), id="inactive"),
    ],
)
def test_a_change_of_a_person_outside_the_books_shows_on_the_next_read(club, change):
    """These move no season's data version (league/club/services.py): the people's newest
    history record keys the kept reads."""
    client = _client(club["bernd"])
    urls = _reads(club)
    version_before = audit_state(club=club["club"])
    first = _bodies(client, urls)
    change(club)
    assert audit_state(club=club["club"]).people_record > version_before.people_record
    after = _bodies(client, urls)
    assert {"index", "api", "member", "api_member"} <= _changed(first, after)


def test_a_change_of_the_clubs_own_record_shows_on_the_next_read(club):
    """The club's record (its name in the admin, its statutes) moves no books version."""
    client = _client(club["bernd"])
    first = _bodies(client, {"index": "/verlauf/", "api": "/api/v1/history/"})
    club["club"].name = "Schockclub Verlauf 1979"
    club["club"].save()
    after = _bodies(client, {"index": "/verlauf/", "api": "/api/v1/history/"})
    assert _changed(first, after) == {"index", "api"}
    assert b"Schockclub Verlauf 1979" in after["index"]


def test_a_repeat_with_the_etag_is_304_until_the_history_changes(club):
    client = _client(club["bernd"])
    for url in _reads(club).values():
        first = client.get(url)
        assert first.status_code == 200 and first.has_header("ETag"), url
        etag = first["ETag"]
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304, url
    etags = {url: client.get(url)["ETag"] for url in _reads(club).values()}
    member_update(member=club["anna"], is_secretary=True)
    for url, etag in etags.items():
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200, url


def test_a_deleted_evening_keeps_its_history_and_another_clubs_evening_or_person_is_404(club):
    client = _client(club["bernd"])
    evening = club["evenings"][1]
    url, api = f"/verlauf/abend/{evening.pk}/", f"/api/v1/history/?evening={evening.pk}"
    assert client.get(url).status_code == client.get(api).status_code == 200
    evening_delete(evening=evening, with_games=True)
    page = client.get(url)
    assert page.status_code == 200
    assert "gelöscht".encode() in page.content or b"deleted" in page.content
    assert client.get(api).json()["count"] > 0
    foreign = club["foreign"].pk
    for path in (f"/verlauf/abend/{foreign}/", f"/api/v1/history/?evening={foreign}"):
        assert client.get(path).status_code == 404, path
        assert client.get(path).status_code == 404, path  # also when asked again
    otto = club["foreign"].secretary_id
    for path in (f"/verlauf/person/{otto}/", f"/api/v1/history/?member={otto}"):
        assert client.get(path).status_code == 404, path
    assert client.get("/api/v1/history/?member=999999").status_code == 404
    assert client.get("/verlauf/person/999999/").status_code == 404


def test_a_member_sees_no_history(club):
    client = _client(club["anna"])
    for url in _reads(club).values():
        assert client.get(url).status_code in (302, 403), url


def test_a_warm_read_asks_the_history_tables_once(club):
    """A kept read reads the two newest records (one query), not the history itself."""
    client = _client(club["bernd"])
    for url in _reads(club).values():
        client.get(url)
        with CaptureQueriesContext(connection) as warm:
            assert client.get(url).status_code == 200
        history = [q["sql"] for q in warm.captured_queries if "historical" in q["sql"]]
        assert len(history) == 1, (url, history)
