"""Hostile input on the pages: the payment form's amount (0,01 is the
least, PAYMENT_MAX the most, digits only) and the Runden page's note (at most 200
characters, no NUL byte) are answered with a German message and nothing is saved."""

from decimal import Decimal

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.evenings.models import SchockAus
from league.club.models import Club, Member
from league.clubbook.services import club_book_import
from league.ledger.models import Payment
from league.runden.models import RundeGiven
from tests.league.test_pages import ATTENDANCE, CLUB, GAMES, _login

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club_book_import(club_name=CLUB, attendance=ATTENDANCE, games=GAMES)
    return Club.objects.get(name=CLUB)


@pytest.fixture
def secretary(client, club):
    return _login(client, Member.objects.get(club=club, name="Bernd Krause"), secretary=True)


def _pay(client, club, amount: str):
    dieter = Member.objects.get(club=club, name="Dieter Hahn")
    return client.post(
        reverse("payment_create"),
        {"member": dieter.pk, "amount": amount, "paid_on": "2026-10-10", "method": "cash"},
    )


@pytest.mark.parametrize("amount,saved", [("0,01", "0.01"), ("10000,00", "10000.00")])
def test_the_payment_page_takes_the_least_and_the_most_amount(
    client, secretary, club, amount, saved
):
    response = _pay(client, club, amount)
    assert response.status_code == 302
    assert Payment.objects.get().amount == Decimal(saved)


@pytest.mark.parametrize(
    "amount,message",
    [
        ("0", "größer oder gleich 0"),
        ("10000,01", "kleiner oder gleich 10000"),
        ("1E2", "Bitte eine Zahl eingeben"),
        ("1_000", "Bitte eine Zahl eingeben"),
        ("١٢", "Bitte eine Zahl eingeben"),
        ("1,005", "Bitte eine Zahl eingeben"),
        ("9" * 5000, "Bitte eine Zahl eingeben"),
    ],
)
def test_the_payment_page_refuses_a_bad_amount_in_german(client, secretary, club, amount, message):
    response = _pay(client, club, amount)
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors["amount"])
    assert not Payment.objects.exists()


def _runde(club) -> SchockAus:
    return SchockAus.objects.get(game__evening__club=club, game__number=3)


@pytest.mark.parametrize(
    "note,message",
    [
        ("x" * 201, "höchstens 200 Zeichen"),
        ("Bier\x00", "Nullzeichen sind nicht erlaubt"),
    ],
    ids=["over 200 characters", "NUL byte"],
)
def test_a_hostile_runde_note_is_refused_in_german(client, secretary, club, note, message):
    response = client.post(
        reverse("runde_given", args=[_runde(club).pk]), {"given_on": "2026-10-16", "note": note}
    )
    assert response.status_code == 302
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert any(message in m and m.startswith("Notiz") for m in shown), shown
    assert not RundeGiven.objects.exists()


def test_a_runde_note_of_200_characters_is_saved(client, secretary, club):
    client.post(
        reverse("runde_given", args=[_runde(club).pk]),
        {"given_on": "2026-10-16", "note": "x" * 200},
    )
    assert RundeGiven.objects.get().note == "x" * 200
