"""Reads kept in the cache per version: what is kept is never another
viewer's and never stale, and a change to one season recomputes only that season's part
of the all-time reads (league/statistics/selectors.py, league/runden/listing.py).

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py).
"""

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.services import evening_create, game_record
from league.club.services import member_update, season_get_or_create
from league.runden import listing
from league.statistics import selectors as statistics_selectors
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def club():
    """Two seasons (2025, 2026) of one evening each; Bernd the secretary, Anna a member."""
    club = ClubFactory(name="Schockclub Vorrat")
    bernd = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    anna = MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))
    evenings = {}
    for year in (2025, 2026):
        season_get_or_create(club=club, year=year)
        evenings[year] = evening_create(
            club=club,
            date=datetime.date(year, 10, 9),
            secretary=bernd,
            present_members=[bernd, anna],
        )
        game_record(evening=evenings[year], loser=anna, schock_aus_throwers=[bernd])
    return {"club": club, "bernd": bernd, "anna": anna, "evenings": evenings}


def _client(member) -> Client:
    client = Client()
    client.force_login(member.user)
    return client


def test_a_member_is_not_served_the_secretarys_kept_standings(club):
    secretary_page = _client(club["bernd"]).get("/saison/2026/").content.decode()
    member_page = _client(club["anna"]).get("/saison/2026/").content.decode()
    # The secretary's part of the page links the new season and the new evening.
    assert "/saison/neu/" in secretary_page and "/abende/neu/" in secretary_page
    assert "/saison/neu/" not in member_page and "/abende/neu/" not in member_page
    assert "Anna Becker" in member_page


def test_the_kept_standings_page_carries_the_viewers_own_logout_token(club):
    bernd, anna = _client(club["bernd"]), _client(club["anna"])
    bernd.get("/saison/2026/")
    page = anna.get("/saison/2026/")
    token = page.content.decode().split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert anna.post("/logout/", {"csrfmiddlewaretoken": token}).status_code == 302


def test_a_change_outside_the_books_shows_on_the_next_history_page(club):
    client = _client(club["bernd"])
    url = f"/verlauf/person/{club['anna'].pk}/"
    before = client.get(url).content.decode()
    # The secretary flag moves no season's version: the person's own record keys the page.
    member_update(member=club["anna"], is_secretary=True)
    after = client.get(url).content.decode()
    assert after != before
    assert after.count("audit-") > before.count("audit-")


def test_a_second_history_page_reads_only_the_persons_latest_record(club):
    client = _client(club["bernd"])
    url = f"/verlauf/person/{club['anna'].pk}/"
    with CaptureQueriesContext(connection) as cold:
        first = client.get(url)
    with CaptureQueriesContext(connection) as warm:
        second = client.get(url)
    assert first.status_code == second.status_code == 200
    history = [q["sql"] for q in warm.captured_queries if "historical" in q["sql"]]
    assert len(history) == 1 and '"league_historicalmember"' in history[0]
    assert sum("historical" in q["sql"] for q in cold.captured_queries) > 5


def _without_csrf(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def _spy(monkeypatch, module, name):
    calls = []
    real = getattr(module, name)

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls


def test_one_changed_season_recomputes_only_its_part_of_the_records(club, monkeypatch):
    client = _client(club["anna"])
    built = _spy(monkeypatch, statistics_selectors, "_season_parts")
    first = client.get("/statistik/rekorde/").content.decode()
    assert [[s.year for s in args[0]] for args, _kw in built] == [[2025, 2026]]
    built.clear()
    assert _without_csrf(client.get("/statistik/rekorde/").content.decode()) == _without_csrf(first)
    assert built == []  # the page is kept

    game_record(evening=club["evenings"][2026], loser=club["bernd"], schock_aus_throwers=[])

    client.get("/statistik/rekorde/")
    assert [[s.year for s in args[0]] for args, _kw in built] == [[2026]]


def test_the_records_of_the_parts_are_those_of_one_pass(club):
    # The parts kept from the first read, combined again after a change, give the same
    # figures as a read that computes everything (inside a transaction nothing is kept).
    from django.db import transaction

    game_record(evening=club["evenings"][2025], loser=club["bernd"], schock_aus_throwers=[])
    statistics_selectors.club_statistics(club=club["club"])
    game_record(evening=club["evenings"][2026], loser=club["anna"], schock_aus_throwers=[])
    combined = statistics_selectors.club_statistics(club=club["club"])
    with transaction.atomic():
        computed = statistics_selectors.club_statistics(club=club["club"])
    assert repr(combined.people) == repr(computed.people)
    assert combined.records == computed.records
    assert combined.head_to_head == computed.head_to_head
    assert (combined.games, combined.evenings, combined.schock_aus) == (4, 2, 2)


def test_one_changed_season_recomputes_only_its_part_of_the_runden(club, monkeypatch):
    client = _client(club["bernd"])
    built = _spy(monkeypatch, listing, "runden_overview")
    first = client.get("/runden/?saison=alle").content.decode()
    assert [kw["season"] for _a, kw in built] == [None]  # both parts in one read
    assert first.count("(first)") + first.count("(erster)") == 2
    built.clear()

    third = evening_create(
        club=club["club"],
        date=datetime.date(2026, 10, 16),
        secretary=club["bernd"],
        present_members=[club["bernd"], club["anna"]],
    )
    game_record(evening=third, loser=club["bernd"], schock_aus_throwers=[club["anna"]])

    page = client.get("/runden/?saison=alle").content.decode()
    assert [kw["season"].year for _a, kw in built] == [2026]
    assert page.count("(first)") + page.count("(erster)") == 3


def test_a_kept_runden_page_carries_each_sessions_own_form_token(club):
    first = Client(enforce_csrf_checks=True)
    first.force_login(club["bernd"].user)
    first.get("/runden/?saison=alle")  # keeps the page's part with this session's forms
    second = Client(enforce_csrf_checks=True)
    second.force_login(club["bernd"].user)
    page = second.get("/runden/?saison=alle").content.decode()
    actions = re.findall(r'action="(/runden/\d+/gegeben/)"', page)
    assert len(actions) == 2, page
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    answer = second.post(actions[0], {"csrfmiddlewaretoken": token, "given_on": "2026-10-10"})
    assert answer.status_code == 302  # a token of another session would be a 403
    after = second.get("/runden/?saison=alle").content.decode()
    assert re.findall(r'action="(/runden/\d+/gegeben/)"', after) == actions[1:]
