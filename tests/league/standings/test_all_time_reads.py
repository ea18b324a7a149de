"""The all-time standings' kept reads, page and API: a change to one
season rebuilds that season's part only and shows on the next read; 304 for a repeated
GET; the club's people only.

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py).
"""

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.club.services import season_get_or_create
from league.standings import all_time as all_time_module
from league.standings.all_time import all_time_standings
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.league.standings.books import enter_evening, figures, summed_tables

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = "/ewige-tabelle/"
API = "/api/v1/standings/all-time/"


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def built(monkeypatch):
    """The years of every batch of season parts built, in order."""
    batches: list[list[int]] = []
    real = all_time_module.seasons_standings

    def counting(*, seasons):
        batches.append([s.year for s in seasons])
        return real(seasons=seasons)

    monkeypatch.setattr(all_time_module, "seasons_standings", counting)
    return batches


def _client(member) -> Client:
    client = Client()
    client.force_login(member.user)
    return client


def test_a_change_to_one_season_rebuilds_only_that_seasons_part(club_books, built):
    club = club_books["club"]
    all_time_standings(club=club)
    assert built == [[2001, 2002, 2003]]
    all_time_standings(club=club)
    assert built == [[2001, 2002, 2003]]  # every part kept
    anna, bernd, carl = club_books["anna"], club_books["bernd"], club_books["carl"]
    enter_evening(club, datetime.date(2002, 10, 18), [anna, bernd, carl], [carl, carl])
    standings = all_time_standings(club=club)
    assert built == [[2001, 2002, 2003], [2002]]
    total, _places = summed_tables(club_books["seasons"])
    assert {r.name: figures(r) for r in standings.rows} == {
        name: dict(total[name]) for name in ("Anna", "Bernd", "Carl")
    }


def test_a_repeated_read_makes_two_queries_whatever_the_number_of_seasons(club_books):
    club = club_books["club"]

    def warm_queries() -> int:
        all_time_standings(club=club)
        with CaptureQueriesContext(connection) as ctx:
            all_time_standings(club=club)
        return len(ctx.captured_queries)

    small = warm_queries()
    anna, bernd = club_books["anna"], club_books["bernd"]
    for year in (2004, 2005, 2006):
        season_get_or_create(club=club, year=year)
        enter_evening(club, datetime.date(year, 10, 1), [anna, bernd], [bernd])
    assert warm_queries() == small == 2


def test_a_change_shows_on_the_next_page_and_api_read(club_books):
    client = _client(club_books["anna"])
    assert "Ewige Tabelle" in client.get(PAGE).content.decode()
    before = client.get(API).json()
    carl = next(r for r in before["rows"] if r["member"]["name"] == "Carl")
    anna, bernd = club_books["anna"], club_books["bernd"]
    # 2003 (+2 a Schock-Aus, -2 a lost game): Carl loses twice, -4.
    enter_evening(
        club_books["club"],
        datetime.date(2003, 10, 24),
        [anna, bernd, club_books["carl"]],
        [club_books["carl"], club_books["carl"]],
    )
    after = client.get(API).json()
    carl_after = next(r for r in after["rows"] if r["member"]["name"] == "Carl")
    assert carl_after["points"] == carl["points"] - 4
    assert carl_after["games_lost"] == carl["games_lost"] + 2
    assert (carl["points"], carl_after["points"]) == (14, 10)
    page = client.get(PAGE).content.decode()
    assert '<td class="name">Carl</td>\n  <td class="num points">+10</td>' in page


def test_the_page_answers_304_to_its_etag_until_the_books_change(club_books):
    client = _client(club_books["anna"])
    client.get(PAGE)  # sets the CSRF cookie: the next answer carries an ETag
    etag = client.get(PAGE)["ETag"]
    assert client.get(PAGE, headers={"If-None-Match": etag}).status_code == 304
    enter_evening(club_books["club"], datetime.date(2003, 10, 24), [club_books["anna"]], [])
    assert client.get(PAGE, headers={"If-None-Match": etag}).status_code == 200


def test_the_api_answers_304_to_its_etag_until_the_books_change(club_books):
    client = _client(club_books["anna"])
    first = client.get(API)
    assert first.status_code == 200
    etag = first["ETag"]
    assert client.get(API, headers={"If-None-Match": etag}).status_code == 304
    enter_evening(club_books["club"], datetime.date(2003, 10, 24), [club_books["anna"]], [])
    assert client.get(API, headers={"If-None-Match": etag}).status_code == 200


def test_the_api_lists_members_ranked_and_guests_apart(club_books):
    body = _client(club_books["anna"]).get(API).json()
    assert [(r["member"]["name"], r["place"], r["points"]) for r in body["rows"]] == [
        ("Carl", 1, 14),
        ("Bernd", 2, 7),
        ("Anna", 3, 6),
    ]
    carl = body["rows"][0]
    assert (carl["titles"], carl["title_years"]) == (2, [2002, 2003])
    assert carl["best_season"] == {"year": 2002, "place": 1}
    assert [g["member"]["name"] for g in body["guests"]] == ["Gast"]
    assert body["guests"][0]["best_season"] is None
    assert (body["seasons"], body["first_year"], body["last_year"]) == (3, 2001, 2003)
    assert (body["evenings"], body["games"]) == (4, 11)
    assert "money" not in carl


def test_a_member_of_another_club_sees_only_their_own_club(club_books):
    other = ClubFactory(name="Anderer Club")
    otto = MemberFactory(club=other, name="Otto", user=UserFactory(username="otto"))
    client = _client(otto)
    page = client.get(PAGE)
    assert page.status_code == 200
    assert "Carl" not in page.content.decode()
    body = client.get(API).json()
    assert body["rows"] == [] and body["guests"] == [] and body["seasons"] == 0


def test_without_a_login_nothing_is_shown(club_books):
    client = Client()
    page = client.get(PAGE)
    assert page.status_code == 302 and "/login/" in page["Location"]
    assert client.get(API).status_code in (401, 403)


def test_a_login_without_a_club_gets_404_on_the_page_and_403_from_the_api(club_books):
    client = Client()
    client.force_login(UserFactory(username="niemand"))
    assert client.get(PAGE).status_code == 404
    assert client.get(API).status_code == 403


def test_the_standings_page_and_the_navigation_link_the_all_time_table(club_books):
    page = _client(club_books["anna"]).get("/saison/2003/").content.decode()
    assert page.count(f'href="{PAGE}"') == 2
