"""Passwords (league/club/accounts/views.py): a person changes the own
password (the session stays, the API tokens go), resets a forgotten one by e-mail (Django's
flow, German texts), and Django's four validators refuse weak ones. Logging out on the page
revokes the API tokens too."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.test import Client
from knox.models import AuthToken

from league.club.accounts.services import api_token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

OLD = "geheim-123"  # tests/factories.py UserFactory
NEW = "Wuerfelbecher-1979"


@pytest.fixture
def anna():
    user = UserFactory(username="anna", email="anna@example.org", first_name="Anna")
    return user


@pytest.fixture
def logged_in(anna) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(anna)
    return client


def _change(client: Client, old: str, new: str, again: str | None = None):
    return client.post(
        "/passwort/",
        {"old_password": old, "new_password1": new, "new_password2": again or new},
    )


def test_the_password_change_page_is_german(logged_in):
    page = logged_in.get("/passwort/").content.decode()
    assert "Passwort ändern" in page
    assert "Altes Passwort" in page


def test_a_person_changes_the_password_and_stays_logged_in(logged_in, anna):
    response = _change(logged_in, OLD, NEW)
    assert response.status_code == 302
    assert response["Location"] == "/passwort/geaendert/"
    anna.refresh_from_db()
    assert anna.check_password(NEW)
    assert logged_in.get("/passwort/geaendert/").status_code == 200
    assert logged_in.get("/passwort/").status_code == 200  # still logged in


def test_a_password_change_revokes_the_api_tokens(logged_in, anna):
    api_token_create(user=anna)
    api_token_create(user=anna)
    _change(logged_in, OLD, NEW)
    assert not AuthToken.objects.filter(user=anna).exists()


def test_a_wrong_old_password_changes_nothing(logged_in, anna):
    api_token_create(user=anna)
    response = _change(logged_in, "falsch", NEW)
    assert response.status_code == 200
    assert "Das alte Passwort war falsch" in response.content.decode()
    anna.refresh_from_db()
    assert anna.check_password(OLD)
    assert AuthToken.objects.filter(user=anna).count() == 1


@pytest.mark.parametrize(
    ("weak", "german"),
    [
        ("kurz1", "zu kurz"),
        ("password", "zu üblich"),
        ("83749261", "komplett numerisch"),
        ("anna@example.org", "zu ähnlich"),
    ],
)
def test_djangos_validators_refuse_a_weak_password_in_german(logged_in, anna, weak, german):
    response = _change(logged_in, OLD, weak)
    assert response.status_code == 200
    assert german in response.content.decode()
    anna.refresh_from_db()
    assert anna.check_password(OLD)


def test_all_four_validators_are_on():
    names = {v["NAME"].rsplit(".", 1)[1] for v in django_settings.AUTH_PASSWORD_VALIDATORS}
    assert names == {
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    }


def test_factories_and_scripts_still_set_any_password():
    # set_password does not validate: the demo's "schocken" and the factories' passwords
    # are set directly, as every test's cast shows.
    user = UserFactory(username="demo")
    user.set_password("schocken")
    user.save()
    assert user.check_password("schocken")


def test_the_login_page_links_to_the_password_reset():
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get("/login/").content.decode()
    assert 'href="/passwort/vergessen/"' in page
    assert "Passwort vergessen?" in page


def _reset_link(client: Client, email: str) -> str:
    response = client.post("/passwort/vergessen/", {"email": email})
    assert response.status_code == 302
    assert response["Location"] == "/passwort/vergessen/gesendet/"
    assert len(mail.outbox) == 1
    match = re.search(r"https?://[^/\s]+(/passwort/neu/\S+/)", mail.outbox[0].body)
    assert match, mail.outbox[0].body
    return match.group(1)


def test_a_forgotten_password_is_reset_by_the_link_in_a_german_email(anna):
    api_token_create(user=anna)
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    link = _reset_link(client, "anna@example.org")
    message = mail.outbox[0]
    assert message.to == ["anna@example.org"]
    assert message.subject == "Schockclub: neues Passwort wählen"
    assert "Dein Anmeldename: anna" in message.body
    form_url = client.get(link)["Location"]  # Django hides the token behind a redirect
    page = client.get(form_url).content.decode()
    assert "Neues Passwort wählen" in page
    response = client.post(form_url, {"new_password1": NEW, "new_password2": NEW})
    assert response["Location"] == "/passwort/neu/fertig/"
    anna.refresh_from_db()
    assert anna.check_password(NEW)
    assert not AuthToken.objects.filter(user=anna).exists()


def test_a_reset_link_works_once(anna):
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    link = _reset_link(client, "anna@example.org")
    form_url = client.get(link)["Location"]
    client.post(form_url, {"new_password1": NEW, "new_password2": NEW})
    again = Client(HTTP_ACCEPT_LANGUAGE="de").get(link, follow=True).content.decode()
    assert "Dieser Link gilt nicht" in again


def test_the_reset_refuses_a_weak_new_password(anna):
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    form_url = client.get(_reset_link(client, "anna@example.org"))["Location"]
    response = client.post(form_url, {"new_password1": "12345678", "new_password2": "12345678"})
    assert response.status_code == 200
    assert "zu üblich" in response.content.decode()
    anna.refresh_from_db()
    assert anna.check_password(OLD)


def test_an_unknown_address_gets_the_same_answer_and_no_email(anna):
    response = Client().post("/passwort/vergessen/", {"email": "niemand@example.org"})
    assert response["Location"] == "/passwort/vergessen/gesendet/"
    assert mail.outbox == []


def test_logging_out_on_the_page_revokes_the_api_tokens(logged_in, anna):
    api_token_create(user=anna)
    response = logged_in.post("/logout/")
    assert response.status_code == 302
    assert not AuthToken.objects.filter(user=anna).exists()


def _setting(name: str, **env: str) -> str:
    root = Path(__file__).resolve().parents[3]
    environ = {k: v for k, v in os.environ.items() if not k.startswith("EMAIL_")}
    environ.update(env, DJANGO_SETTINGS_MODULE="schockclub.settings")
    code = f"from django.conf import settings; print(settings.{name})"
    out = subprocess.run(
        [sys.executable, "-c", code], env=environ, cwd=root, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_email_goes_to_the_console_unless_an_smtp_host_is_set():
    assert _setting("EMAIL_BACKEND") == "django.core.mail.backends.console.EmailBackend"
    smtp = "django.core.mail.backends.smtp.EmailBackend"
    assert _setting("EMAIL_BACKEND", EMAIL_HOST="mail.example.org") == smtp
    assert _setting("EMAIL_PORT", EMAIL_HOST="mail.example.org", EMAIL_PORT="465") == "465"
