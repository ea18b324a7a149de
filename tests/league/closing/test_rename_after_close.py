"""A person belongs to the register, not the books: renaming them after a season close is
allowed (a closed season refuses changes of its books only) and shows at once on every
kept read, the closed season's included, through the people page and through
PATCH /api/v1/members/{id}/.

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py), and the kept reads are what is tested here.
"""

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from league.closing.services import season_close
from league.club.models import Member

pytestmark = pytest.mark.django_db(transaction=True)

NEW_NAME = "Anna Schmidt"


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def closed(books):
    season_close(season=books.season, by=books.secretary, confirm=True)
    return books


def _page_client(member) -> Client:
    client = Client()
    client.force_login(member.user)
    client.get("/abende/")  # the session's CSRF cookie: the pages get an ETag
    return client


def _warm(client, urls: list[str]) -> dict[str, str]:
    """Read each of `urls` twice (the second read is the kept one); their ETags."""
    tags = {}
    for url in urls:
        client.get(url)
        response = client.get(url)
        assert response.status_code == 200, url
        assert "Anna Becker" in response.content.decode(), url
        tags[url] = response.get("ETag", "")
    return tags


def _assert_renamed(client, tags: dict[str, str]) -> None:
    for url, etag in tags.items():
        response = client.get(url, headers={"If-None-Match": etag} if etag else {})
        assert response.status_code == 200, url
        body = response.content.decode()
        assert NEW_NAME in body and "Anna Becker" not in body, url


def _reads(books) -> tuple[list[str], list[str]]:
    anna = books.auditor.pk
    pages = [f"/saison/{books.season.year}/", f"/kasse/konto/{anna}/", "/ewige-tabelle/"]
    api = [
        f"/api/v1/seasons/{books.season.pk}/standings/",
        f"/api/v1/members/{anna}/statement/?season={books.season.pk}",
    ]
    return pages, api


def _api_client(member) -> APIClient:
    client = APIClient()
    client.force_authenticate(member.user)
    return client


def test_a_person_renamed_on_the_people_page_after_a_season_close_shows_on_the_closed_seasons_reads(
    closed,
):
    secretary = _page_client(closed.secretary)
    api = _api_client(closed.secretary)
    pages, api_urls = _reads(closed)
    page_tags, api_tags = _warm(secretary, pages), _warm(api, api_urls)

    response = secretary.post(f"/verein/personen/{closed.auditor.pk}/", {"rename-name": NEW_NAME})

    assert response.status_code == 302
    assert Member.objects.get(pk=closed.auditor.pk).name == NEW_NAME
    _assert_renamed(secretary, page_tags)
    _assert_renamed(api, api_tags)


def test_a_person_renamed_through_the_api_after_a_season_close_shows_on_the_closed_seasons_reads(
    closed,
):
    secretary = _page_client(closed.secretary)
    api = _api_client(closed.secretary)
    pages, api_urls = _reads(closed)
    page_tags, api_tags = _warm(secretary, pages), _warm(api, api_urls)

    response = api.patch(f"/api/v1/members/{closed.auditor.pk}/", {"name": NEW_NAME}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["name"] == NEW_NAME
    _assert_renamed(secretary, page_tags)
    _assert_renamed(api, api_tags)


def test_a_rename_moves_the_register_version_and_no_seasons_data_version(closed):
    closed.season.refresh_from_db()
    closed.club.refresh_from_db()
    data_version, books_version = closed.season.data_version, closed.club.books_version
    register_version = closed.club.register_version

    _api_client(closed.secretary).patch(
        f"/api/v1/members/{closed.auditor.pk}/", {"name": NEW_NAME}, format="json"
    )

    closed.season.refresh_from_db()
    closed.club.refresh_from_db()
    assert (closed.season.data_version, closed.club.books_version) == (
        data_version,
        books_version,
    )
    assert closed.club.register_version == register_version + 1
