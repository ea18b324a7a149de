"""The GiroCode's rules as the selectors hold them (league/banking/selectors.py): who may
see a person's code, which amount of which season it asks for, and when there is none."""

import datetime
from decimal import Decimal

import pytest
from django.utils.translation import gettext as _

from games.evenings.services import evening_create, game_record
from league.banking.selectors import (
    girocode_access_check,
    member_girocode_asked,
    member_girocode_rows,
    member_payment_girocode,
)
from league.banking.services import club_bank_account_set
from league.club.errors import BooksError
from league.club.reference import creditor_reference
from league.club.services import season_get_or_create
from league.ledger.services import payment_record
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

IBAN = "DE89370400440532013000"


@pytest.fixture
def books():
    club = ClubFactory(name="Selektorenclub")
    anna = MemberFactory(club=club, name="Anna", is_secretary=True, user=UserFactory())
    bernd = MemberFactory(club=club, name="Bernd", user=UserFactory())
    carla = MemberFactory(club=club, name="Carla", user=UserFactory())
    season = season_get_or_create(club=club, year=2026)
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 10, 9),
        secretary=anna,
        present_members=[anna, bernd, carla],
    )
    for _game in range(5):  # Bernd loses 5 games: 5 Marks at 0.50 EUR = 2.50 EUR
        game_record(evening=evening, loser=bernd)
    return {"club": club, "anna": anna, "bernd": bernd, "carla": carla, "season": season}


def test_the_person_themself_may_see_their_girocode(books):
    girocode_access_check(member=books["bernd"], viewer=books["bernd"])


def test_the_secretary_may_see_a_members_girocode(books):
    girocode_access_check(member=books["bernd"], viewer=books["anna"])


@pytest.mark.parametrize("viewer", ["carla", None])
def test_another_member_or_nobody_may_not_see_a_members_girocode(books, viewer):
    with pytest.raises(BooksError) as refused:
        girocode_access_check(member=books["bernd"], viewer=books.get(viewer or ""))
    assert (refused.value.code, refused.value.status) == ("not_own_statement", 403)


def test_without_a_bank_account_there_is_no_girocode(books):
    with pytest.raises(BooksError) as refused:
        member_girocode_asked(member=books["bernd"], season=None, account=None)
    assert (refused.value.code, refused.value.status) == ("no_girocode", 404)
    assert refused.value.message == _("The club has not entered its bank account yet.")


def test_the_girocode_asks_for_the_newest_open_season_by_default(books):
    account = club_bank_account_set(club=books["club"], holder="Kasse", iban=IBAN)
    code = member_girocode_asked(member=books["bernd"], season=None, account=account)
    assert code.amount == Decimal("2.50")
    assert code.reference == creditor_reference(
        member_id=books["bernd"].pk, season_id=books["season"].pk
    )


def test_nothing_open_in_the_season_asked_for_is_no_girocode(books):
    account = club_bank_account_set(club=books["club"], holder="Kasse", iban=IBAN)
    with pytest.raises(BooksError) as refused:
        member_girocode_asked(member=books["carla"], season=books["season"], account=account)
    assert refused.value.code == "no_girocode"
    assert refused.value.message == _("There is nothing open to pay.")


def test_the_payment_girocode_sums_every_open_season(books):
    club_bank_account_set(club=books["club"], holder="Kasse", iban=IBAN)
    payment_record(
        member=books["bernd"],
        amount=Decimal("1.00"),
        paid_on=datetime.date(2026, 10, 10),
        method="cash",
    )
    code = member_payment_girocode(club=books["club"], member=books["bernd"])
    assert code.amount == Decimal("1.50")


def test_the_page_rows_name_each_open_season_with_its_reference(books):
    rows = member_girocode_rows(club=books["club"], member=books["bernd"])
    assert [(r.season.year, r.amount) for r in rows] == [(2026, Decimal("2.50"))]
    assert rows[0].reference == creditor_reference(
        member_id=books["bernd"].pk, season_id=books["season"].pk
    )
