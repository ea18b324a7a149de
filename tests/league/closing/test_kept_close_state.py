"""The season close page and GET /api/v1/seasons/{id}/close/ kept by the club's books
version and the season's signatures: a repeated read is served from the cache
(fewer queries) or answered 304 with its ETag; a signature (which moves no data version),
a close, a reopen and a change of the books show on the very next read; what is kept is
never another viewer's (the secretary's forms, an auditor's sign button).

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py).
"""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.closing.services import season_close, season_reopen, season_sign_off
from league.club.services import member_update
from tests.factories import ClubFactory, MemberFactory, SeasonFactory, UserFactory
from tests.league.closing.test_services import _payment

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = "/saison/2026/abschluss/"
SIGN = "Als Kassenprüfer unterschreiben"
CLOSE_FORM = "/saison/2026/abschluss/abschliessen/"


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _client(member) -> Client:
    client = Client()
    client.force_login(member.user)
    client.get("/abende/")  # the session's CSRF cookie: the page gets an ETag
    return client


def _read(client: Client, url: str) -> tuple[int, str, str]:
    """(queries, body, ETag) of GET `url`, which must answer 200."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries), response.content.decode(), response.get("ETag", "")


def _without_csrf(html: str) -> str:
    return re.sub(r'(name="csrfmiddlewaretoken" value=)"[^"]*"', r"\1", html)


def _api(books) -> str:
    return f"/api/v1/seasons/{books.season.pk}/close/"


def _close(books):
    season_close(season=books.season, by=books.secretary, confirm=True)


def test_a_repeated_close_page_is_kept_and_answers_304_with_its_etag(books):
    client = _client(books.auditor)
    cold, first, etag = _read(client, PAGE)
    warm, second, _etag = _read(client, PAGE)
    assert warm < cold
    assert _without_csrf(second) == _without_csrf(first)
    assert client.get(PAGE, headers={"If-None-Match": etag}).status_code == 304


def test_a_signature_shows_at_once_on_the_kept_page_though_it_moves_no_data_version(books):
    _close(books)
    anna, carla = _client(books.auditor), _client(books.second_auditor)
    _q, before, etag = _read(anna, PAGE)
    assert SIGN in before and "Geprüft von" not in before
    assert SIGN in _read(carla, PAGE)[1]
    books.season.refresh_from_db()
    version = books.season.data_version

    season_sign_off(season=books.season, auditor=books.auditor)

    books.season.refresh_from_db()
    assert books.season.data_version == version
    again = anna.get(PAGE, headers={"If-None-Match": etag})
    assert again.status_code == 200
    after = again.content.decode()
    assert "Geprüft von Anna Becker" in after
    assert SIGN not in after  # Anna has signed
    assert SIGN in _read(carla, PAGE)[1]  # Carla may still sign


def test_the_secretary_is_never_served_an_auditors_kept_page(books):
    _close(books)
    auditor = _read(_client(books.auditor), PAGE)[1]
    secretary = _read(_client(books.secretary), PAGE)[1]
    assert SIGN in auditor and "Saison wieder öffnen" not in auditor
    assert SIGN not in secretary and "Saison wieder öffnen" in secretary


def test_a_close_and_a_change_after_reopening_show_at_once(books):
    client = _client(books.auditor)
    assert "Die Saison ist offen." in _read(client, PAGE)[1]
    _close(books)
    season_sign_off(season=books.season, auditor=books.auditor)
    signed = _read(client, PAGE)[1]
    assert "Die Saison ist abgeschlossen." in signed and "<strong>gültig</strong>" in signed

    season_reopen(season=books.season, by=books.secretary, reason="Zahlung fehlte")
    _payment(books)

    page = _read(client, PAGE)[1]
    assert "Die Saison ist offen." in page
    assert "Unterschrift ungültig (Bücher nach der Prüfung geändert)" in page
    assert "wieder geöffnet: „Zahlung fehlte“" in page


def test_a_refused_close_shows_its_message_once_and_is_not_kept(books):
    client = _client(books.secretary)
    refused = client.post(CLOSE_FORM)
    assert refused.status_code == 409
    assert "Trotzdem abschließen" in refused.content.decode()
    assert 'role="alert"' in refused.content.decode()
    assert 'role="alert"' not in _read(client, PAGE)[1]


def test_the_kept_close_form_carries_the_sessions_own_csrf_token(books):
    first = Client(enforce_csrf_checks=True)
    first.force_login(books.secretary.user)
    first.get(PAGE)  # keeps the page with this session's form
    second = Client(enforce_csrf_checks=True)
    second.force_login(books.secretary.user)
    page = second.get(PAGE).content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    answer = second.post(CLOSE_FORM, {"csrfmiddlewaretoken": token, "confirm": "1"})
    assert answer.status_code == 302  # another session's token would be a 403
    assert "Die Saison ist abgeschlossen." in second.get(PAGE).content.decode()


def test_a_repeated_close_state_api_read_is_kept_and_answers_304(books):
    client = _client(books.auditor)
    cold, first, etag = _read(client, _api(books))
    warm, second, _etag = _read(client, _api(books))
    assert warm < cold
    assert second == first
    assert client.get(_api(books), headers={"If-None-Match": etag}).status_code == 304


def test_a_signature_shows_at_once_in_the_kept_close_state_api(books):
    _close(books)
    client = _client(books.auditor)
    response = client.get(_api(books))
    assert response.json()["sign_offs"] == []

    season_sign_off(season=books.season, auditor=books.auditor)

    again = client.get(_api(books), headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 200
    assert [s["auditor"] for s in again.json()["sign_offs"]] == ["Anna Becker"]
    assert again.json()["sign_offs"][0]["state"] == "valid"


def test_another_clubs_member_gets_404_for_a_kept_close_state(books):
    assert _client(books.auditor).get(_api(books)).status_code == 200  # kept now
    club = ClubFactory(name="Andere Runde")
    SeasonFactory(club=club, year=2026)
    outsider = MemberFactory(club=club, name="Otto Außen", user=UserFactory(username="otto"))
    assert _client(outsider).get(_api(books)).status_code == 404


def test_an_auditor_made_inactive_loses_the_sign_button_at_once(books):
    _close(books)
    anna = _client(books.auditor)
    _q, page, etag = _read(anna, PAGE)
    assert SIGN in page

    member_update(member=books.auditor, active=False)

    again = anna.get(PAGE, headers={"If-None-Match": etag})
    assert again.status_code == 200
    assert SIGN not in again.content.decode()
