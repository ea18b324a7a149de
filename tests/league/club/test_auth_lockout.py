"""Lockout after repeated failed logins (django-axes with
league/club/accounts/lockout.py): per login name AND address, after AXES_FAILURE_LIMIT
failures (5) for AXES_COOLOFF_TIME (15 minutes), on the login page (429, German page) and
the API's token endpoint (429, `locked_out`), logged.

Axes stays on in the tests. Its attempts are rows in the database, so each test's rollback
starts the next one with a clean slate: no other test is locked out by these."""

import datetime
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
import time_machine
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "geheim-123"


@pytest.fixture
def bernd():
    return UserFactory(username="bernd")


def _page_login(password: str, username: str = "bernd", address: str = "10.0.0.1"):
    return Client(HTTP_ACCEPT_LANGUAGE="de", REMOTE_ADDR=address).post(
        "/login/", {"username": username, "password": password}
    )


def _api_login(password: str, username: str = "bernd", address: str = "10.0.0.1"):
    return APIClient(HTTP_ACCEPT_LANGUAGE="de", REMOTE_ADDR=address).post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json"
    )


def test_the_limit_and_cool_off_default_to_five_and_fifteen_minutes():
    assert django_settings.AXES_ENABLED
    assert django_settings.AXES_FAILURE_LIMIT == 5
    assert django_settings.AXES_COOLOFF_TIME == datetime.timedelta(minutes=15)
    assert django_settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_four_wrong_passwords_on_the_page_are_still_answered_with_the_form(bernd):
    for _attempt in range(4):
        response = _page_login("falsch")
        assert response.status_code == 200
    assert _page_login(PASSWORD).status_code == 302


def test_the_fifth_wrong_password_locks_the_page_login_with_a_german_429(bernd):
    for _attempt in range(4):
        _page_login("falsch")
    response = _page_login("falsch")
    page = response.content.decode()
    assert response.status_code == 429
    assert "Zu viele fehlgeschlagene Anmeldungen" in page
    assert "15 Minuten" in page
    assert response["Retry-After"] == "900"


def test_a_locked_login_is_refused_even_with_the_right_password(bernd):
    for _attempt in range(5):
        _page_login("falsch")
    assert _page_login(PASSWORD).status_code == 429


def test_the_lockout_is_per_name_and_address(bernd):
    UserFactory(username="anna")
    for _attempt in range(5):
        _page_login("falsch")
    assert _page_login(PASSWORD, address="10.0.0.2").status_code == 302
    assert _page_login(PASSWORD, username="anna").status_code == 302


def test_after_the_cool_off_the_right_password_works_again(bernd):
    for _attempt in range(5):
        _page_login("falsch")
    with time_machine.travel(timezone.now() + datetime.timedelta(minutes=16)):
        assert _page_login(PASSWORD).status_code == 302


def test_the_token_endpoint_locks_out_with_429_locked_out(bernd):
    for _attempt in range(4):
        response = _api_login("falsch")
        assert (response.status_code, response.json()["code"]) == (400, "authorization")
    response = _api_login("falsch")
    body = response.json()
    assert response.status_code == 429
    assert body["code"] == "locked_out"
    assert "Zu viele fehlgeschlagene Anmeldungen" in body["message"]
    assert response["Retry-After"] == "900"
    right = _api_login(PASSWORD)
    assert (right.status_code, right.json()["code"]) == (429, "locked_out")


def test_page_and_api_failures_count_together(bernd):
    for _attempt in range(3):
        _page_login("falsch")
    _api_login("falsch")
    assert _api_login("falsch").status_code == 429


def test_failures_are_in_axes_access_log(bernd):
    for _attempt in range(2):
        _page_login("falsch")
    attempt = AccessAttempt.objects.get(username="bernd")
    assert (attempt.ip_address, attempt.failures_since_start) == ("10.0.0.1", 2)


def test_a_lockout_is_logged(bernd, caplog):
    with caplog.at_level(logging.WARNING, logger="league.club.accounts"):
        for _attempt in range(5):
            _api_login("falsch")
    locked = [r for r in caplog.records if r.name == "league.club.accounts"]
    assert len(locked) == 1
    assert "'bernd'" in locked[0].getMessage()
    assert "10.0.0.1" in locked[0].getMessage()


def test_a_successful_login_clears_the_earlier_failures(bernd):
    for _attempt in range(4):
        _page_login("falsch")
    assert _page_login(PASSWORD).status_code == 302
    for _attempt in range(4):
        assert _page_login("falsch").status_code == 200


def test_a_forged_forwarded_for_header_does_not_escape_the_lockout(bernd):
    for attempt in range(5):
        response = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"6.6.6.{attempt}").post(
            "/login/", {"username": "bernd", "password": "falsch"}
        )
    assert response.status_code == 429


def _addresses_seen(env: dict[str, str], *forwarded_for: str) -> list[str]:
    """The address django-axes keys a login on, under the settings `env` gives, for a
    request from our proxy (REMOTE_ADDR 127.0.0.1) with each X-Forwarded-For value."""
    root = Path(__file__).resolve().parents[3]
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("AXES_", "DEBUG"))}
    environ.update(env, DJANGO_SETTINGS_MODULE="schockclub.settings")
    code = (
        "import sys, django; django.setup()\n"
        "from axes.helpers import get_client_ip_address\n"
        "from django.test import RequestFactory\n"
        "for header in sys.argv[1:]:\n"
        "    request = RequestFactory().get('/', REMOTE_ADDR='127.0.0.1', "
        "HTTP_X_FORWARDED_FOR=header)\n"
        "    print(get_client_ip_address(request))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *forwarded_for],
        env=environ,
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


PRODUCTION = {"DEBUG": "false", "SECRET_KEY": "x" * 50}


def test_in_production_the_lockout_keys_on_the_address_our_tls_proxy_appended():
    # nginx's $proxy_add_x_forwarded_for: the client's own header, then the address the
    # proxy saw. Without AXES_IPWARE_PROXY_COUNT the production settings expect that proxy.
    seen = _addresses_seen(PRODUCTION, "203.0.113.7", "6.6.6.6, 198.51.100.2")
    assert seen == ["203.0.113.7", "198.51.100.2"]


def test_behind_two_proxies_the_address_the_outer_one_appended_counts():
    env = {**PRODUCTION, "AXES_IPWARE_PROXY_COUNT": "2"}
    assert _addresses_seen(env, "6.6.6.6, 203.0.113.7, 10.0.0.5") == ["203.0.113.7"]


def test_behind_our_proxy_one_clients_lockout_leaves_the_others_free(bernd, settings):
    # The production settings of one TLS proxy (settings.py, AXES_IPWARE_PROXY_COUNT=1).
    settings.AXES_IPWARE_PROXY_COUNT = 0
    settings.AXES_IPWARE_PROXY_ORDER = "left-most"
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR",)
    settings.IPWARE_STRICT = False

    def login(client_address: str, password: str = "falsch"):
        return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=client_address).post(
            "/login/", {"username": "bernd", "password": password}
        )

    for _attempt in range(5):
        login("203.0.113.7")
    assert login("203.0.113.7", PASSWORD).status_code == 429
    assert login("198.51.100.2", PASSWORD).status_code == 302
    assert AccessAttempt.objects.get(username="bernd").ip_address == "203.0.113.7"
