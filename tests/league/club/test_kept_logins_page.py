"""The logins page's list kept per what it shows of each person (league/club/views.py
`club_logins`): a login locked, a secretary named or a person renamed shows on the next
read, and the kept forms carry each viewer's own CSRF token.

Outside a transaction (`transaction=True`): inside one nothing is kept."""

import pytest
from django.core.cache import cache
from django.test import Client

from league.club.services import login_lock, member_update, secretary_set
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
    client = Client(enforce_csrf_checks=True)
    client.force_login(bernd.user)
    return {"bernd": bernd, "anna": anna, "client": client}


def _page(client) -> str:
    return client.get("/verein/zugaenge/").content.decode()


def test_a_lock_a_secretary_and_a_rename_show_on_the_next_read(club):
    client = club["client"]
    assert "Zugang gesperrt" not in _page(client)
    login_lock(person=club["anna"], locked=True)
    assert "Zugang gesperrt" in _page(client)
    secretary_set(person=club["anna"], is_secretary=True)
    assert _page(client).count('value="secretary_off"') == 2
    member_update(member=club["anna"], name="Anna Schmidt")
    assert "Anna Schmidt" in _page(client)


def test_the_kept_list_carries_each_viewers_own_token(club):
    club["client"].get("/verein/zugaenge/")
    carla = MemberFactory(
        club=club["bernd"].club, name="Carla Vogt", is_secretary=True, user=UserFactory()
    )
    other = Client(enforce_csrf_checks=True)
    other.force_login(carla.user)
    page = _page(other)
    token = page.split('name="csrfmiddlewaretoken" value="')[2].split('"')[0]
    response = other.post(
        f"/verein/personen/{club['anna'].pk}/aendern/",
        {"csrfmiddlewaretoken": token, "action": "lock", "back": "logins"},
    )
    assert response.status_code == 302
    assert "Zugang gesperrt" in _page(other)
