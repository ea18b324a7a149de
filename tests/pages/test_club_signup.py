"""Clubs sign up themselves at /registrieren/ (only with SIGNUP_OPEN): the secretary's
link, the password, the club with its first season, the rate limit, names unique
ignoring case; the operator suspends a club (403 `club_suspended`, nothing deleted)."""

import datetime
import re

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.evenings.models import Evening, Game
from league.club.errors import BooksError
from league.club.models import Club, ClubSignup, Member, Season
from league.club.services import club_create, club_suspend

pytestmark = pytest.mark.django_db

PASSWORD = "Wuerfelbecher-1987"


@pytest.fixture
def signup_open(settings):
    settings.SIGNUP_OPEN = True
    settings.SITE_URL = "https://schock.example.org"
    return settings


def _sign_up(client, name="Kegelfreunde Nord", email="kasse@nord.example", who="Erika Nord"):
    return client.post(
        reverse("club_signup"), {"name": name, "secretary_name": who, "email": email}
    )


def _link_path() -> str:
    url = re.search(r"https://schock\.example\.org(/registrieren/\S+/)", mail.outbox[-1].body)
    assert url, mail.outbox[-1].body
    return url.group(1)


def test_signup_page_is_not_found_while_signup_is_closed(client, settings):
    settings.SIGNUP_OPEN = False
    assert client.get("/registrieren/").status_code == 404
    assert _sign_up(client).status_code == 404
    assert not ClubSignup.objects.exists()


def test_signup_is_closed_by_default():
    from django.conf import settings

    assert settings.SIGNUP_OPEN is False


@time_machine.travel(datetime.datetime(2026, 5, 1, 18, 0, tzinfo=datetime.UTC), tick=False)
def test_a_new_club_signs_up_confirms_logs_in_and_enters_an_evening(signup_open):
    client = Client()
    response = _sign_up(client)
    assert response.status_code == 200
    assert "kasse@nord.example" in response.content.decode()
    assert not Club.objects.filter(name="Kegelfreunde Nord").exists()
    path = _link_path()

    page = client.get(path)
    assert page.status_code == 200
    response = client.post(path, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302

    club = Club.objects.get(name="Kegelfreunde Nord")
    secretary = Member.objects.get(club=club)
    assert secretary.is_secretary and secretary.name == "Erika Nord"
    assert secretary.password_set_by_holder
    assert secretary.user.username == "kasse@nord.example"
    assert secretary.user.email == "kasse@nord.example"
    assert list(Season.objects.filter(club=club).values_list("year", flat=True)) == [2026]
    assert ClubSignup.objects.get().confirmed_at is not None

    fresh = Client()
    logged_in = fresh.post(
        reverse("login"), {"username": "kasse@nord.example", "password": PASSWORD}
    )
    assert logged_in.status_code == 302
    response = fresh.post(
        reverse("evening_create"),
        {
            "date": "2026-05-01",
            "secretary": secretary.pk,
            f"role_{secretary.pk}": "member",
            "new_guests": "Gerd Gast",
            "notes": "",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    evening = Evening.objects.get(club=club)
    response = fresh.post(
        reverse("game_entry", args=[evening.pk]), {"number": 1, "loser": secretary.pk}
    )
    assert response.status_code == 302
    assert Game.objects.filter(evening=evening).count() == 1


def test_a_used_link_makes_no_second_club(signup_open, client):
    _sign_up(client)
    path = _link_path()
    client.post(path, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    again = Client().post(path, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert again.status_code == 200
    assert "gibt es schon" in again.content.decode() or "existiert" in again.content.decode()
    assert Club.objects.count() == 1


def test_an_expired_link_is_refused(signup_open, client):
    with time_machine.travel(datetime.datetime(2026, 5, 1, 12, tzinfo=datetime.UTC)):
        _sign_up(client)
    path = _link_path()
    with time_machine.travel(datetime.datetime(2026, 5, 3, 13, tzinfo=datetime.UTC)):
        response = client.post(path, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 404
    assert not Club.objects.exists()


def test_an_altered_link_is_refused(signup_open, client):
    _sign_up(client)
    path = _link_path()
    response = client.get(path[:-3] + "xx/")
    assert response.status_code == 404


def test_a_weak_password_is_refused_and_makes_no_club(signup_open, client):
    _sign_up(client)
    response = client.post(_link_path(), {"new_password1": "1234", "new_password2": "1234"})
    assert response.status_code == 200
    assert not Club.objects.exists()


def test_signups_are_limited_per_email_address(signup_open, client):
    for n in range(3):
        assert _sign_up(client, name=f"Club {n}").status_code == 200
    response = _sign_up(client, name="Club 4")
    assert response.status_code == 429
    assert "Zu viele" in response.content.decode()
    assert ClubSignup.objects.count() == 3
    assert len(mail.outbox) == 3


def test_signups_are_limited_per_client_address(signup_open, client):
    signup_open.SIGNUP_MAX_PER_ADDRESS = 2
    for n in range(2):
        assert _sign_up(client, name=f"Club {n}", email=f"a{n}@example.org").status_code == 200
    response = _sign_up(client, name="Club 9", email="other@example.org")
    assert response.status_code == 429


def test_a_club_name_taken_in_other_case_is_refused_at_signup(signup_open, client):
    club_create(name="Kegelfreunde Nord", secretary_name="Otto")
    response = _sign_up(client, name="kegelfreunde nord")
    assert response.status_code == 200
    assert response.context["form"].errors["name"]
    assert not mail.outbox


def test_club_names_are_unique_ignoring_case():
    club_create(name="Kegelfreunde Nord", secretary_name="Otto")
    with pytest.raises(BooksError) as refused:
        club_create(name="KEGELFREUNDE NORD", secretary_name="Paul")
    assert refused.value.code == "club_exists"


def test_the_database_refuses_a_club_name_in_other_case():
    from django.db import IntegrityError, transaction

    Club.objects.create(name="Kegelfreunde Nord")
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.create(name="kegelfreunde NORD")


# --------------------------------------------------------------------------- suspension


def test_a_suspended_clubs_pages_answer_403_in_german(secretary_client, season, club):
    club_suspend(club=club)
    response = secretary_client.get(reverse("evening_list"))
    assert response.status_code == 403
    assert "gesperrt" in response.content.decode()
    assert secretary_client.get(reverse("home")).status_code == 403


def test_a_suspended_clubs_api_answers_403_club_suspended(member_client, season, club):
    club_suspend(club=club)
    response = member_client.get("/api/v1/evenings/")
    assert response.status_code == 403
    assert response.json()["code"] == "club_suspended"
    assert "gesperrt" in response.json()["message"]


def test_suspending_deletes_nothing_and_lifting_it_restores_access(secretary_client, evening, club):
    club_suspend(club=club)
    assert Evening.objects.filter(club=club).count() == 1
    club_suspend(club=club, suspended=False)
    assert secretary_client.get(reverse("evening_list")).status_code == 200


def test_another_clubs_people_are_not_affected(client, outsider, club):
    club_suspend(club=club)
    client.force_login(outsider.user)
    assert client.get(reverse("evening_list")).status_code == 200


def test_the_operator_suspends_a_club_by_the_admin_action(admin_client, club, secretary):
    response = admin_client.post(
        reverse("admin:league_club_changelist"),
        {"action": "suspend", "_selected_action": [club.pk]},
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.suspended_at is not None
    assert club.history.latest().history_change_reason == "club_suspended"


def test_the_admin_lists_clubs_with_their_counts(admin_client, evening, club):
    response = admin_client.get(reverse("admin:league_club_changelist"))
    assert response.status_code == 200
    row = response.context["cl"].result_list.get(pk=club.pk)
    assert (row.people_count, row.season_count, row.game_count) == (4, 1, 2)
    assert row.last_activity is not None
