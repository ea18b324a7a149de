"""Every way a password is set goes through `password_set` (league/club/accounts/
services.py): the invitation, a reset by e-mail, a change (page and API) and the admin.
Each revokes the login's API tokens; only the holder's own flows record the password as
theirs; a reset lifts a lockout after failed logins; the password change is throttled
like the login (a wrong old password counts as a failed login)."""

import re

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client
from knox.models import AuthToken
from rest_framework.test import APIClient

from league.club.accounts.services import api_token_create
from tests.factories import MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

OLD = "geheim-123"  # tests/factories.py UserFactory
NEW = "Wuerfelbecher-1979"


@pytest.fixture
def anna():
    """Anna Becker with a login whose password she did not set herself (a first password
    of old, or set by the admin)."""
    user = UserFactory(username="anna", email="anna@example.org")
    person = MemberFactory(name="Anna Becker", user=user)
    person.password_set_by_holder = False
    person.save(update_fields=["password_set_by_holder"])
    return person


def _logged_in(person, address: str = "10.0.0.1") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de", REMOTE_ADDR=address)
    client.force_login(person.user)
    return client


def _change_on_page(client: Client, old: str):
    return client.post(
        "/passwort/", {"old_password": old, "new_password1": NEW, "new_password2": NEW}
    )


def _reset(person) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.post("/passwort/vergessen/", {"email": person.user.email})
    link = re.search(r"https?://[^/\s]+(/passwort/neu/\S+/)", mail.outbox[-1].body).group(1)
    form_url = client.get(link)["Location"]
    response = client.post(form_url, {"new_password1": NEW, "new_password2": NEW})
    assert response["Location"] == "/passwort/neu/fertig/"


def test_a_password_change_on_the_page_records_that_the_holder_set_it(anna):
    _change_on_page(_logged_in(anna), OLD)
    anna.refresh_from_db()
    assert anna.password_set_by_holder
    assert anna.history.latest().history_change_reason == "password_set"


def test_a_password_change_in_the_api_records_that_the_holder_set_it(anna):
    client = APIClient()
    client.force_authenticate(anna.user)
    body = {"old_password": OLD, "new_password": NEW}
    assert client.post("/api/v1/auth/password/", body, format="json").status_code == 204
    anna.refresh_from_db()
    assert anna.password_set_by_holder


def test_a_password_reset_records_that_the_holder_set_it(anna):
    _reset(anna)
    anna.refresh_from_db()
    assert anna.password_set_by_holder


def test_a_password_reset_lifts_the_lockout_after_failed_logins(anna):
    for _attempt in range(5):
        Client(REMOTE_ADDR="10.0.0.1").post("/login/", {"username": "anna", "password": "x"})
    _reset(anna)
    assert not AccessAttempt.objects.filter(username="anna").exists()
    response = Client(REMOTE_ADDR="10.0.0.1").post("/login/", {"username": "anna", "password": NEW})
    assert response.status_code == 302


def test_the_admins_password_change_revokes_the_tokens_and_is_not_the_holders(anna):
    anna.password_set_by_holder = True
    anna.save(update_fields=["password_set_by_holder"])
    api_token_create(user=anna.user)
    admin = Client()
    admin.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    response = admin.post(
        f"/admin/auth/user/{anna.user.pk}/password/",
        {"password1": NEW, "password2": NEW, "usable_password": "true"},
    )
    assert response.status_code == 302
    anna.refresh_from_db()
    anna.user.refresh_from_db()
    assert anna.user.check_password(NEW)
    assert not AuthToken.objects.filter(user=anna.user).exists()
    assert not anna.password_set_by_holder


def test_the_password_change_page_is_locked_after_five_wrong_old_passwords(anna):
    client = _logged_in(anna)
    for _attempt in range(4):
        assert _change_on_page(client, "falsch").status_code == 200
    locked = _change_on_page(client, "falsch")
    assert locked.status_code == 429
    assert "Zu viele fehlgeschlagene Anmeldungen" in locked.content.decode()
    assert _change_on_page(client, OLD).status_code == 429
    anna.user.refresh_from_db()
    assert anna.user.check_password(OLD)


def test_the_api_password_change_is_locked_after_five_wrong_old_passwords(anna):
    client = APIClient(REMOTE_ADDR="10.0.0.1")
    client.force_authenticate(anna.user)

    def change(old: str):
        body = {"old_password": old, "new_password": NEW}
        return client.post("/api/v1/auth/password/", body, format="json")

    for _attempt in range(4):
        assert change("falsch").json()["code"] == "wrong_password"
    assert (change("falsch").status_code, change(OLD).json()["code"]) == (429, "locked_out")
    anna.user.refresh_from_db()
    assert anna.user.check_password(OLD)


def test_wrong_old_passwords_count_with_failed_logins(anna):
    client = _logged_in(anna)
    for _attempt in range(3):
        _change_on_page(client, "falsch")
    for _attempt in range(2):
        Client(REMOTE_ADDR="10.0.0.1").post("/login/", {"username": "anna", "password": "x"})
    assert _change_on_page(client, OLD).status_code == 429
