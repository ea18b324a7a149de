""" "Meine Anmeldungen" (league/club/accounts/views.py): a person sees the
own API tokens (never the token itself) and revokes one or all of them."""

import pytest
from django.test import Client
from knox.models import AuthToken

from league.club.accounts.services import api_token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    return UserFactory(username="anna")


@pytest.fixture
def client(anna) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(anna)
    return client


def test_the_page_lists_the_own_tokens_by_their_start_only(client, anna):
    _row, token = api_token_create(user=anna)
    UserFactory(username="bernd")
    page = client.get("/anmeldungen/").content.decode()
    assert "Meine Anmeldungen" in page
    assert token[:8] in page
    assert token not in page
    assert "gültig bis" in page
    assert "Token" not in page  # no developer words


def test_without_tokens_the_page_says_so(client):
    assert "Keine App und kein Skript" in client.get("/anmeldungen/").content.decode()


def test_a_person_revokes_one_token(client, anna):
    row, _token = api_token_create(user=anna)
    other, _other_token = api_token_create(user=anna)
    response = client.post(f"/anmeldungen/{row.token_key}/widerrufen/", follow=True)
    assert "Die API-Anmeldung wurde widerrufen." in response.content.decode()
    assert list(AuthToken.objects.filter(user=anna)) == [other]


def test_another_persons_token_cannot_be_revoked_here(client):
    bernds, _token = api_token_create(user=UserFactory(username="bernd"))
    response = client.post(f"/anmeldungen/{bernds.token_key}/widerrufen/", follow=True)
    assert "Diese Anmeldung gibt es nicht." in response.content.decode()
    assert AuthToken.objects.filter(pk=bernds.pk).exists()


def test_a_person_revokes_all_tokens(client, anna):
    api_token_create(user=anna)
    api_token_create(user=anna)
    client.post("/anmeldungen/alle/widerrufen/")
    assert not AuthToken.objects.filter(user=anna).exists()


def test_revoking_needs_a_post(client, anna):
    row, _token = api_token_create(user=anna)
    assert client.get(f"/anmeldungen/{row.token_key}/widerrufen/").status_code == 405


def test_a_visitor_is_sent_to_the_login():
    response = Client().get("/anmeldungen/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_a_login_sets_its_email_address_for_a_forgotten_password(client, anna):
    response = client.post(
        "/anmeldungen/email/", {"email": "  Anna.Becker@Example.ORG "}, follow=True
    )
    anna.refresh_from_db()
    assert anna.email == "Anna.Becker@example.org"
    assert "E-Mail-Adresse ist gespeichert" in response.content.decode()
    assert 'value="Anna.Becker@example.org"' in response.content.decode()


@pytest.mark.parametrize(
    "bad",
    [
        "anna",
        "anna@",
        "a@b@c.de",
        "Anna <anna@example.org>",
        "anna@example.org\nBcc: x@y.de",
        "x" * 250 + "@example.org",
        "anna@example.org, bernd@example.org",
    ],
)
def test_a_bad_email_address_is_refused_in_german_and_nothing_saved(client, anna, bad):
    anna.email = "alt@example.org"
    anna.save()
    response = client.post("/anmeldungen/email/", {"email": bad}, follow=True)
    anna.refresh_from_db()
    assert anna.email == "alt@example.org"
    assert "Bitte eine gültige E-Mail-Adresse eingeben." in response.content.decode()


def test_an_empty_email_address_removes_it(client, anna):
    anna.email = "alt@example.org"
    anna.save()
    client.post("/anmeldungen/email/", {"email": ""})
    anna.refresh_from_db()
    assert anna.email == ""


def test_setting_the_email_address_needs_a_login_and_a_post():
    assert Client().post("/anmeldungen/email/", {"email": "x@example.org"}).status_code == 302
    user = UserFactory(username="carla")
    client = Client()
    client.force_login(user)
    assert client.get("/anmeldungen/email/").status_code == 405
