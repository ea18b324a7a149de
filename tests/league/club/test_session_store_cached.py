"""The cached session store (used with Redis, README "Scaling"): sessions survive a cache
flush, and a malformed session cookie is no session, never a 500."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.test import Client

from league.club.session_store_cached import SessionStore
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def cached_sessions(settings):
    settings.SESSION_ENGINE = "league.club.session_store_cached"


def test_a_session_survives_a_flush_of_the_cache():
    store = SessionStore()
    store["answer"] = 42
    store.create()
    cache.clear()
    assert SessionStore(session_key=store.session_key)["answer"] == 42


def test_a_login_is_kept_in_the_cached_store():
    user = UserFactory(username="anna")
    client = Client()
    client.force_login(user)
    key = client.cookies["sessionid"].value
    assert SessionStore(session_key=key)[SESSION_KEY] == str(user.pk)


@pytest.mark.parametrize("key", ["abc\x00defghijklmnopqrstuvwxyz012345", "ABCDEFGH-ijklmnop"])
def test_a_malformed_session_cookie_is_no_session(key):
    client = Client()
    client.cookies["sessionid"] = key
    response = client.get("/")
    assert response.status_code == 302  # to the login page, as without a cookie
    assert SessionStore(session_key=key).load() == {}
