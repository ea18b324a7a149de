"""The club-book import's confirmation is bound to the club and the login that ran the dry
run (league/clubbook/views.py): another login of the same club, or the
secretary of another club, cannot confirm it with the token, and nothing is imported."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games.evenings.models import Evening
from league.club.services import season_get_or_create
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

ATTENDANCE = b"date,name,role\r\n2026-10-23,Bernd Krause,secretary\r\n"
GAMES = b"date,number,loser,schock_aus\r\n2026-10-23,1,Bernd Krause,\r\n"


def _secretary_client(club, name: str, username: str) -> Client:
    member = MemberFactory(
        club=club, name=name, is_secretary=True, user=UserFactory(username=username)
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(member.user)
    return client


@pytest.fixture
def club():
    club = ClubFactory(name="Schockclub Eintracht")
    season_get_or_create(club=club, year=2026)
    return club


@pytest.fixture
def bernd(club) -> Client:
    return _secretary_client(club, "Bernd Krause", "bernd")


@pytest.fixture
def token(bernd) -> str:
    """Bernd's dry run: the token the confirmation button carries."""
    response = bernd.post(
        reverse("club_book_upload"),
        {
            "attendance": SimpleUploadedFile("a.csv", ATTENDANCE),
            "games": SimpleUploadedFile("g.csv", GAMES),
        },
    )
    assert not Evening.objects.exists()
    return response.context["token"]


def _confirm(client: Client, token: str):
    return client.post(reverse("club_book_confirm", args=[token]), follow=True)


def test_the_login_that_ran_the_dry_run_confirms_it(bernd, token, club):
    response = _confirm(bernd, token)
    assert "Das Vereinsbuch wurde importiert." in response.content.decode()
    assert Evening.objects.filter(club=club).count() == 1


def test_another_login_of_the_same_club_cannot_confirm_it(club, bernd, token):
    carla = _secretary_client(club, "Carla Vogt", "carla")
    response = _confirm(carla, token)
    assert "Diese Prüfung hat eine andere Anmeldung" in response.content.decode()
    assert not Evening.objects.exists()
    _confirm(bernd, token)  # the upload stays for its owner
    assert Evening.objects.filter(club=club).count() == 1


def test_the_secretary_of_another_club_cannot_confirm_it(bernd, token):
    other = ClubFactory(name="Würfelfreunde Nord")
    season_get_or_create(club=other, year=2026)
    olga = _secretary_client(other, "Olga Außen", "olga")
    response = _confirm(olga, token)
    assert "Diese Prüfung hat eine andere Anmeldung" in response.content.decode()
    assert not Evening.objects.exists()
