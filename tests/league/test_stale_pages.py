"""Kept pages and API reads never answer 304 with what they showed before, when what they
show beyond the books changed: the viewer's frame (a login made staff gets the admin
link), who may sign a season, and the day (a read without ?season shows the season of
today). Each test warms the read, makes the change, and reads again with the old ETag.

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py)."""

import datetime

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import ClubFactory, MemberFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

# The last day of season 2026 and the second day of season 2027, noon in Berlin.
OLD_YEAR = datetime.datetime(2026, 12, 31, 11, 0, tzinfo=datetime.UTC)
NEW_YEAR = datetime.datetime(2027, 1, 2, 11, 0, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def club():
    club = ClubFactory(name="Schockclub Altstadt")
    for year in (2026, 2027):
        SeasonFactory(club=club, year=year)
    secretary = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    member = MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))
    return {"club": club, "secretary": secretary, "member": member}


def _page_client(person) -> Client:
    client = Client()
    client.force_login(person.user)
    client.get("/abende/")  # the session's CSRF cookie: the pages get an ETag
    return client


def _etag(client, url: str) -> str:
    client.get(url)
    response = client.get(url)
    assert response.status_code == 200, url
    assert response.get("ETag"), url
    return response["ETag"]


def _again(client, url: str, etag: str) -> str:
    response = client.get(url, headers={"If-None-Match": etag})
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def test_a_login_made_staff_gets_the_admin_link_not_its_old_page(club):
    client = _page_client(club["member"])
    etag = _etag(client, "/abende/")
    assert 'href="/admin/"' not in _again(client, "/abende/", '"other"')

    user = club["member"].user
    user.is_staff = True
    user.save(update_fields=["is_staff"])

    assert 'href="/admin/"' in _again(client, "/abende/", etag)


def test_a_renamed_login_holder_gets_a_new_page_etag(club):
    client = _page_client(club["member"])
    etag = _etag(client, "/abende/")
    person = club["member"]
    person.name = "Anna Schmidt"
    person.save(update_fields=["name"])
    _again(client, "/abende/", etag)


@pytest.mark.parametrize("path", ["/kasse/", "/kasse/konto/{member}/"])
def test_a_kasse_page_without_a_season_shows_the_season_of_the_new_day(club, path):
    url = path.format(member=club["member"].pk)
    with time_machine.travel(OLD_YEAR, tick=False):
        client = _page_client(club["secretary"])
        etag = _etag(client, url)
        assert 'saison=2026" aria-current="page"' in _again(client, url, '"other"')
    with time_machine.travel(NEW_YEAR, tick=False):
        assert 'saison=2027" aria-current="page"' in _again(client, url, etag)


def test_the_statement_api_without_a_season_answers_the_new_days_season(club):
    client = APIClient()
    client.force_authenticate(club["member"].user)
    url = f"/api/v1/members/{club['member'].pk}/statement/"
    with time_machine.travel(OLD_YEAR, tick=False):
        first = client.get(url)
        assert first.status_code == 200
    with time_machine.travel(NEW_YEAR, tick=False):
        again = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
