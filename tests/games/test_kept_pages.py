"""The pages of play kept by the club's books version: the Schock-Aus
statistics (`/statistik/`), the evenings of a season (`/abende/`) and the evening sheet
(`/abende/<pk>/`). A repeated read is served from the cache (fewer queries) or answered
304 with its ETag; a change through the services (a game entered short or round by round,
a game deleted) shows on the very next read; what is kept is never another viewer's (the
secretary's entry form, another club's evening, another session's CSRF token).

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py).
"""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.models import Game
from games.evenings.services import game_delete, game_record
from games.rounds.services import game_record_rounds
from league.club.services import member_login_set
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.games.rounds.sample import game_20_rounds
from tests.games.rounds.test_services import _evening_copied

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def evening(sample_evening):
    """The sample evening of 25 games, all entered short; Bernd (the secretary) and Anna
    (a member) have logins."""
    evening, people = _evening_copied(sample_evening, rounds_games=())
    for name, username in (("Bernd Krause", "bernd"), ("Anna Becker", "anna")):
        member_login_set(person=people[name], user=UserFactory(username=username))
    return evening, people


def _client(member, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(member.user)
    return client


def _queries(client: Client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries), response.content.decode()


def _erik_turns(html: str) -> int:
    return int(re.search(r'<td class="name">Erik Lange</td>\s*<td class="num">(\d+)</td>', html)[1])


def _without_csrf(html: str) -> str:
    return re.sub(r'(name="csrfmiddlewaretoken" value=)"[^"]*"', r"\1", html)


# --- the Schock-Aus statistics ---------------------------------------------------------------


def test_a_repeated_statistics_page_is_kept(evening):
    client = _client(evening[1]["Anna Becker"])
    client.get("/abende/")  # the session's CSRF cookie
    cold, first = _queries(client, "/statistik/")
    warm, second = _queries(client, "/statistik/")
    assert warm < cold
    assert _without_csrf(second) == _without_csrf(first)


def test_a_repeated_statistics_page_with_its_etag_is_not_modified(evening):
    client = _client(evening[1]["Anna Becker"])
    client.get("/abende/")
    first = client.get("/statistik/")
    assert first["ETag"]
    again = client.get("/statistik/", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304


def test_a_game_entered_round_by_round_shows_at_once_on_the_statistics_page(
    evening, sample_evening
):
    evening_row, people = evening
    client = _client(people["Anna Becker"])
    client.get("/abende/")
    before = client.get("/statistik/")
    assert _erik_turns(before.content.decode()) == 0  # every game entered short

    # Game 20 again, now round by round: each write moves the books version, the ETag
    # with it (the page between the two is kept under the version after the delete).
    game_delete(game=evening_row.games.get(number=20))
    between = client.get("/statistik/", headers={"If-None-Match": before["ETag"]})
    assert between.status_code == 200
    shown = between.content.decode()
    assert "Erik Lange" not in shown or _erik_turns(shown) == 0  # no row without game 20
    game_record_rounds(
        evening=evening_row, number=20, rounds=game_20_rounds(sample_evening, people)
    )

    after = client.get("/statistik/", headers={"If-None-Match": between["ETag"]})
    assert after.status_code == 200
    assert _erik_turns(after.content.decode()) > 0
    assert evening_row.games.get(number=20).entry_mode == Game.EntryMode.ROUNDS


def test_a_game_entered_short_shows_at_once_in_all_schock_aus(evening):
    evening_row, people = evening
    client = _client(people["Anna Becker"])
    url = "/statistik/?saison=2026"
    before = client.get(url).content.decode()
    erik = r'<td class="name">Erik Lange</td>(?:\s*<td class="num">[^<]*</td>){3}\s*'
    total = int(re.search(erik + r'<td class="num">(\d+)</td>', before)[1])

    game_record(
        evening=evening_row, loser=people["Anna Becker"], schock_aus_throwers=[people["Erik Lange"]]
    )

    after = client.get(url).content.decode()
    assert int(re.search(erik + r'<td class="num">(\d+)</td>', after)[1]) == total + 1


def test_an_unknown_year_shows_the_default_season_on_the_statistics_page(evening):
    client = _client(evening[1]["Anna Becker"])
    default = client.get("/statistik/").content.decode()
    unknown = client.get("/statistik/?saison=1850").content.decode()
    assert "2026" in unknown.split("<h1>")[1].split("</h1>")[0]
    assert _without_csrf(unknown) == _without_csrf(default)


# --- the evenings of a season ---------------------------------------------------------------


def test_a_repeated_evenings_page_is_kept_and_a_new_game_shows_at_once(evening):
    evening_row, people = evening
    client = _client(people["Anna Becker"])
    client.get("/statistik/")  # sets the CSRF cookie
    cold, first = _queries(client, "/abende/?saison=2026")
    warm, second = _queries(client, "/abende/?saison=2026")
    assert warm < cold
    assert "25 Spiele" in first or "25 games" in first
    assert _without_csrf(second) == _without_csrf(first)

    game_record(evening=evening_row, loser=people["Anna Becker"], schock_aus_throwers=[])

    page = client.get("/abende/?saison=2026").content.decode()
    assert "26 Spiele" in page or "26 games" in page


def test_the_member_is_not_served_the_secretarys_kept_evenings_page(evening):
    _evening_row, people = evening
    secretary = _client(people["Bernd Krause"]).get("/abende/?saison=2026").content.decode()
    member = _client(people["Anna Becker"]).get("/abende/?saison=2026").content.decode()
    assert "button primary" in secretary
    assert "button primary" not in member


def test_an_unknown_season_on_the_evenings_page_is_not_found(evening):
    client = _client(evening[1]["Anna Becker"])
    assert client.get("/abende/?saison=1850").status_code == 404
    assert client.get("/abende/?saison=1850").status_code == 404  # nothing kept


# --- the evening sheet ----------------------------------------------------------------------


def test_a_repeated_evening_sheet_is_kept_and_answers_304_with_its_etag(evening):
    evening_row, people = evening
    client = _client(people["Anna Becker"])
    url = f"/abende/{evening_row.pk}/"
    client.get("/abende/")  # sets the CSRF cookie
    cold, first = _queries(client, url)
    response = client.get(url)
    warm, second = _queries(client, url)
    assert warm < cold
    assert _without_csrf(second) == _without_csrf(first)
    again = client.get(url, headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304


def test_a_game_saved_from_the_kept_sheet_shows_at_once_with_the_next_number(evening):
    evening_row, people = evening
    url = f"/abende/{evening_row.pk}/"
    first = _client(people["Bernd Krause"], enforce_csrf_checks=True)
    first.get(url)  # keeps the sheet with this session's form
    second = _client(people["Bernd Krause"], enforce_csrf_checks=True)
    page = second.get(url).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    assert 'name="number" id="id_number" min="1" inputmode="numeric" required value="26"' in page
    version = re.search(r'name="version" value="(\d+)"', page)
    posted = {
        "csrfmiddlewaretoken": token,
        "number": "26",
        "vorleger": str(people["Anna Becker"].pk),
        "loser": str(people["Bernd Krause"].pk),
        # the sample evening has its target of 25 games: the secretary says "play on"
        "confirm_target": "1",
        **({"version": version[1]} if version else {}),
    }
    answer = second.post(f"/abende/{evening_row.pk}/spiele/", posted)
    assert answer.status_code == 302  # another session's token would be a 403

    after = second.get(url).content.decode()
    assert 'required value="27"' in after
    assert '<td class="num game-no">26<' in after


def test_the_member_is_not_served_the_secretarys_kept_evening_sheet(evening):
    evening_row, people = evening
    url = f"/abende/{evening_row.pk}/"
    secretary = _client(people["Bernd Krause"]).get(url).content.decode()
    member = _client(people["Anna Becker"]).get(url).content.decode()
    assert 'id="erfassen"' in secretary and "js/entry.js" in secretary
    assert 'id="erfassen"' not in member and "js/entry.js" not in member
    assert f"/abende/{evening_row.pk}/bearbeiten/" not in member


def test_a_deleted_game_is_gone_at_once_from_the_evening_sheet(evening):
    evening_row, people = evening
    client = _client(people["Anna Becker"])
    url = f"/abende/{evening_row.pk}/"
    last_row = '<td class="num game-no">25<'
    before = client.get(url).content.decode()  # kept now
    assert last_row in before.split('class="table games')[1]

    game_delete(game=evening_row.games.get(number=25))

    after = client.get(url).content.decode()
    assert last_row not in after.split('class="table games')[1]


def test_another_clubs_member_gets_404_for_a_kept_evening_sheet(evening):
    evening_row, people = evening
    url = f"/abende/{evening_row.pk}/"
    assert _client(people["Anna Becker"]).get(url).status_code == 200  # kept now
    outsider = MemberFactory(club=ClubFactory(name="Anderer Club"), user=UserFactory())
    assert _client(outsider).get(url).status_code == 404
