"""A secretary looking at the API in a browser gets DRF's HTML pages, never an error."""

import pytest

from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

URLS = [
    "/api/v1/",
    "/api/v1/clubs/",
    "/api/v1/seasons/",
    "/api/v1/seasons/{season}/",
    "/api/v1/seasons/{season}/standings/",
    "/api/v1/seasons/{season}/runden/",
    "/api/v1/members/",
    "/api/v1/members/{member}/",
    "/api/v1/members/{member}/dues/",
    "/api/v1/evenings/",
    "/api/v1/evenings/{evening}/",
    "/api/v1/evenings/{evening}/summary/",
    "/api/v1/games/",
    "/api/v1/games/{game}/",
    "/api/v1/games/{game}/rounds/",
    "/api/v1/runden/",
    "/api/v1/me/",
]


@pytest.mark.parametrize("url", URLS)
def test_browsable_page_renders_for_the_secretary(cast, url):
    url = url.format(
        season=cast.season.pk, member=cast.member.pk, evening=cast.evening.pk, game=cast.games[0].pk
    )
    response = client_for(cast, "secretary").get(url, HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
