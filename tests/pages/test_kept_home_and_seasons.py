"""The home page's figures and the club's seasons list are kept by the club's books version: a
repeated read reads them from the cache, and a payment, an evening or a new
season shows on the very next read (nothing stale).

Outside a transaction (`transaction=True`): inside one nothing is kept.
"""

import datetime
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.services import evening_create, game_record
from league.club.services import season_create, season_get_or_create
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
    club = ClubFactory(name="Schockclub Vorrat")
    bernd = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    anna = MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))
    season_get_or_create(club=club, year=2026)
    return {"club": club, "bernd": bernd, "anna": anna}


def _client(member) -> Client:
    client = Client()
    client.force_login(member.user)
    return client


def _queries(client: Client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_home_is_kept_and_follows_a_game_and_a_payment(club):
    anna = _client(club["anna"])
    first, text = _queries(anna, "/")
    assert "Nichts offen" in text
    evening = evening_create(
        club=club["club"],
        date=datetime.date(2026, 3, 6),
        secretary=club["bernd"],
        present_members=[club["bernd"], club["anna"]],
    )
    game_record(evening=evening, loser=club["anna"])
    cold, text = _queries(anna, "/")
    assert "Offen: 0,50" in text
    warm, text = _queries(anna, "/")
    assert "Offen: 0,50" in text
    assert warm < cold
    payment_record(member=club["anna"], amount=Decimal("0.50"), paid_on=datetime.date(2026, 3, 6))
    assert "Nichts offen" in anna.get("/").content.decode()


def test_the_first_steps_go_when_the_first_evening_is_entered(club):
    bernd = _client(club["bernd"])
    for _ in range(2):  # the second read is the kept one
        assert 'class="steps"' in bernd.get("/").content.decode()
    evening_create(
        club=club["club"],
        date=datetime.date(2026, 3, 6),
        secretary=club["bernd"],
        present_members=[club["bernd"], club["anna"]],
    )
    assert 'class="steps"' not in bernd.get("/").content.decode()


def test_the_seasons_list_is_kept_and_shows_a_new_season(club):
    bernd = _client(club["bernd"])
    cold, text = _queries(bernd, "/verein/saisons/")
    assert "<strong>2026</strong>" in text
    warm, text = _queries(bernd, "/verein/saisons/")
    assert warm <= cold
    season_create(club=club["club"], year=2027)
    text = bernd.get("/verein/saisons/").content.decode()
    assert "<strong>2027</strong>" in text and "<strong>2026</strong>" in text
