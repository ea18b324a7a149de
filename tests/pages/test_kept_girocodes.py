"""The GiroCode page's open amounts and the GiroCode PNG kept by the club's books version
(league/banking/views.py `my_girocodes`, league/banking/api.py): a payment or a game
through the services shows on the next read, a changed bank account too (it is not part of
the books), and a refusal is never kept.

Outside a transaction (`transaction=True`): inside one nothing is kept."""

import datetime
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client

from games.evenings.services import evening_create, game_record
from league.banking.services import club_bank_account_set
from league.club.services import season_get_or_create
from league.ledger.services import payment_record
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

IBAN = "DE89370400440532013000"


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def books():
    club = ClubFactory(name="Girocodeclub")
    anna = MemberFactory(club=club, name="Anna", is_secretary=True, user=UserFactory())
    bernd = MemberFactory(club=club, name="Bernd", user=UserFactory())
    season_get_or_create(club=club, year=2026)
    evening = evening_create(
        club=club, date=datetime.date(2026, 10, 9), secretary=anna, present_members=[anna, bernd]
    )
    for _ in range(5):  # 5 Marks at 0.50 EUR = 2.50 EUR
        game_record(evening=evening, loser=bernd)
    client = Client()
    client.force_login(bernd.user)
    return {"club": club, "bernd": bernd, "evening": evening, "client": client}


def test_a_payment_shows_on_the_next_read_of_the_kept_girocode_page(books):
    club_bank_account_set(club=books["club"], holder="Schockclub Kasse", iban=IBAN)
    client = books["client"]
    assert "2,50" in client.get("/marken/girocode/").content.decode()
    payment_record(
        member=books["bernd"], amount=Decimal("1.00"), paid_on=datetime.date(2026, 10, 10)
    )
    page = client.get("/marken/girocode/").content.decode()
    assert "1,50" in page and "2,50" not in page


def test_the_kept_girocode_png_follows_the_books_and_the_bank_account(books):
    client = books["client"]
    url = f"/api/v1/members/{books['bernd'].pk}/girocode.png"
    assert client.get(url).json()["code"] == "no_girocode"  # no account yet: never kept
    club_bank_account_set(club=books["club"], holder="Schockclub Kasse", iban=IBAN)
    first = client.get(url)
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    assert client.get(url).content == first.content

    game_record(evening=books["evening"], loser=books["bernd"])  # 3.00 EUR now
    after_game = client.get(url).content
    assert after_game != first.content

    club_bank_account_set(club=books["club"], holder="Schockclub Vereinskasse", iban=IBAN)
    assert client.get(url).content != after_game

    payment_record(
        member=books["bernd"], amount=Decimal("3.00"), paid_on=datetime.date(2026, 10, 10)
    )
    assert client.get(url).status_code == 404  # nothing open any more
