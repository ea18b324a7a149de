"""Web push switched on and off from the reminders page: the button shows only when the
site has a VAPID public key (and hands it to static/js/push.js); the page's script sends
the subscription with the login's session and CSRF token, and ``DELETE
/api/v1/push-subscriptions/`` forgets the person's own subscription only.

The browser's part (pushManager.subscribe and the status line) is tested in
tests/browser/test_phone_push.py."""

import json

import pytest
from django.test import Client

from league.banking.models import PushSubscription

pytestmark = pytest.mark.django_db

PAGE = "/benachrichtigungen/"
URL = "/api/v1/push-subscriptions/"
KEY = "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U"
BUTTON = "Push-Nachrichten auf diesem Gerät einschalten"
ENDPOINT = "https://updates.push.services.mozilla.com/wpush/v2/anna"
BODY = {"endpoint": ENDPOINT, "keys": {"p256dh": "BNcR", "auth": "tBHI"}}


def _page(cast) -> str:
    client = Client()
    client.force_login(cast.member.user)
    response = client.get(PAGE)
    assert response.status_code == 200
    return response.content.decode()


def test_without_a_vapid_key_the_page_offers_no_push_button(cast, settings):
    settings.VAPID_PUBLIC_KEY = ""
    page = _page(cast)
    assert "Erinnerungen" in page
    assert BUTTON not in page
    assert "data-push" not in page and "js/push.js" not in page


def test_with_a_vapid_key_the_page_offers_the_button_and_its_script(cast, settings):
    settings.VAPID_PUBLIC_KEY = KEY
    page = _page(cast)
    assert BUTTON in page
    assert f'data-key="{KEY}"' in page
    assert f'data-endpoint="{URL}"' in page
    assert "Push-Nachrichten sind auf diesem Gerät eingeschaltet." in page  # status text
    assert '<script src="/static/js/push.js" defer></script>' in page


def _session(user) -> tuple[Client, str]:
    """A browser's session: logged in, CSRF checked, its token as the page hands it out."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    page = client.get(PAGE).content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    return client, token


def _send(client: Client, method: str, body: dict, token: str | None):
    headers = {} if token is None else {"X-CSRFToken": token}
    return getattr(client, method)(
        URL, json.dumps(body), content_type="application/json", headers=headers
    )


def test_the_page_session_subscribes_and_unsubscribes_with_its_csrf_token(cast):
    client, token = _session(cast.member.user)
    assert _send(client, "post", BODY, token).status_code == 201
    assert list(PushSubscription.objects.values_list("member", "endpoint")) == [
        (cast.member.pk, ENDPOINT)
    ]
    assert _send(client, "delete", {"endpoint": ENDPOINT}, token).status_code == 204
    assert not PushSubscription.objects.exists()
    # Once more: nothing left to forget, the same answer.
    assert _send(client, "delete", {"endpoint": ENDPOINT}, token).status_code == 204


def test_without_the_csrf_token_a_session_neither_subscribes_nor_unsubscribes(cast):
    client, token = _session(cast.member.user)
    assert _send(client, "post", BODY, None).status_code == 403
    assert not PushSubscription.objects.exists()
    assert _send(client, "post", BODY, token).status_code == 201
    assert _send(client, "delete", {"endpoint": ENDPOINT}, None).status_code == 403
    assert PushSubscription.objects.count() == 1


def test_a_person_cannot_switch_off_another_persons_device(cast, api):
    assert api("member").post(URL, BODY, format="json").status_code == 201
    answer = api("secretary").delete(URL, {"endpoint": ENDPOINT}, format="json")
    assert answer.status_code == 204
    assert list(PushSubscription.objects.values_list("member", flat=True)) == [cast.member.pk]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "required"),
        ({"endpoint": "kein Link"}, "invalid"),
        ({"endpoint": ENDPOINT + "x" * 1000}, "max_length"),
    ],
)
def test_an_unsubscribe_without_a_valid_endpoint_is_refused(cast, api, body, code):
    assert api("member").post(URL, BODY, format="json").status_code == 201
    answer = api("member").delete(URL, body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, code)
    assert PushSubscription.objects.count() == 1


def _kept(client, endpoint: str | None):
    """GET push-subscriptions/?endpoint=...: does the asking person keep that one?"""
    return client.get(URL, {} if endpoint is None else {"endpoint": endpoint})


def test_a_person_asks_whether_the_server_keeps_this_browsers_subscription(cast, api):
    """The reminders page asks this before it says "on" (tests/browser/test_phone_push.py):
    true for the person's own endpoint only; asking subscribes nobody."""
    member = api("member")
    assert _kept(member, ENDPOINT).json() == {"subscribed": False}
    assert not PushSubscription.objects.exists()
    assert member.post(URL, BODY, format="json").status_code == 201
    answer = _kept(member, ENDPOINT)
    assert (answer.status_code, answer.json()) == (200, {"subscribed": True})
    # Exactly that endpoint: another one (or a longer one) is not kept.
    assert _kept(member, ENDPOINT + "x").json() == {"subscribed": False}
    assert _kept(member, ENDPOINT.replace("anna", "bert")).json() == {"subscribed": False}
    # Another person on the same phone (the secretary of the club, another club's
    # secretary): the browser's subscription is Anna's, not theirs.
    for role in ("secretary", "outsider"):
        answer = _kept(api(role), ENDPOINT)
        assert (answer.status_code, answer.json()) == (200, {"subscribed": False}), role
    assert PushSubscription.objects.count() == 1


def test_the_page_session_asks_without_a_csrf_token(cast):
    """A read: the session's GET needs no CSRF token (fetch sends none)."""
    client, token = _session(cast.member.user)
    assert _send(client, "post", BODY, token).status_code == 201
    answer = client.get(URL, {"endpoint": ENDPOINT})
    assert (answer.status_code, answer.json()) == (200, {"subscribed": True})


@pytest.mark.parametrize(
    ("endpoint", "code"),
    [
        (None, "required"),
        ("", "blank"),
        ("kein Link", "invalid"),
        (ENDPOINT + "x" * 1000, "max_length"),
    ],
)
def test_asking_without_a_valid_endpoint_is_refused(cast, api, endpoint, code):
    answer = _kept(api("member"), endpoint)
    assert answer.status_code == 400
    assert answer.json()["code"] == code


@pytest.mark.parametrize(("role", "status"), [("anonymous", 401), ("nobody", 404)])
def test_asking_needs_a_login_of_a_club_as_the_other_methods(cast, api, role, status):
    """Anonymous: 401 as POST and DELETE; a login without a club: 404 `no_club`."""
    client = api(role)
    for answer in (
        _kept(client, ENDPOINT),
        client.post(URL, BODY, format="json"),
        client.delete(URL, {"endpoint": ENDPOINT}, format="json"),
    ):
        assert answer.status_code == status, answer.content
    assert not PushSubscription.objects.exists()
