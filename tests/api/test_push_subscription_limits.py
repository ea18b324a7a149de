"""What a browser push subscription may name and how long it is kept: only an endpoint
of a known browser push service (the worker POSTs every reminder there, so an address in
the site's own network must not get in), at most ten browsers a person, and none left
once the login's access ends (logout, a password set, the login locked): a shared phone
shows no more of the previous person's reminders."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from league.banking.models import PushSubscription
from league.club.accounts.services import password_set
from league.club.services import login_lock

pytestmark = pytest.mark.django_db

URL = "/api/v1/push-subscriptions/"
KEYS = {"p256dh": "BNcR", "auth": "tBHI"}


def _subscribe(client, endpoint: str):
    return client.post(URL, {"endpoint": endpoint, "keys": KEYS}, format="json")


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91b",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABf",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD",
        "https://web.push.apple.com/QGuQyavXutnMH6",
        "https://FCM.googleapis.com:443/fcm/send/a",
    ],
)
def test_the_browsers_push_services_are_accepted(cast, api, endpoint):
    assert _subscribe(api("member"), endpoint).status_code == 201
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [endpoint]


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://10.0.0.5/",
        "https://localhost/push",
        "https://127.0.0.1:443/x",
        "https://[::1]/x",
        "https://169.254.169.254/latest/meta-data/",
        "https://fcm.googleapis.com.attacker.example/fcm/send/a",
        "https://evilfcm.googleapis.com/fcm/send/a",
        "https://push.apple.com.internal/x",
        "https://user@fcm.googleapis.com/fcm/send/a",
        "https://fcm.googleapis.com@10.0.0.5/fcm/send/a",
        "https://fcm.googleapis.com:8443/fcm/send/a",
    ],
)
def test_any_other_address_is_refused_with_a_stable_code(cast, api, endpoint):
    answer = _subscribe(api("member"), endpoint)
    assert answer.status_code == 400
    body = answer.json()
    assert (body["code"], body["field"]) == ("push_endpoint_not_allowed", "endpoint")
    assert body["message"] == "Diese Adresse gehört zu keinem bekannten Push-Dienst eines Browsers."
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://intranet/",
        "http://fcm.googleapis.com/fcm/send/a",
        "https://fcm.googleapis.com:99999/fcm/send/a",
        "https://fcm.googleapis.com:/fcm/send/a",
        "https://:pw@fcm.googleapis.com/fcm/send/a",
        "https://fcm.googleapis.com\\@10.0.0.5/x",
        "https://fcm_googleapis.com/x",
        "https://googleapis.com/fcm/send/a",
        "https://push.services.mozilla.com.",
        "",
        "fcm.googleapis.com/fcm/send/a",
    ],
)
def test_the_endpoint_check_refuses_odd_addresses(endpoint):
    from league.banking.selectors import push_endpoint_allowed

    assert not push_endpoint_allowed(endpoint)


def test_the_list_of_push_services_is_a_setting(cast, api, settings):
    settings.PUSH_SERVICE_HOSTS = ["push.example.test"]
    assert _subscribe(api("member"), "https://push.example.test/send/a").status_code == 201
    answer = _subscribe(api("member"), "https://fcm.googleapis.com/fcm/send/a")
    assert answer.json()["code"] == "push_endpoint_not_allowed"


def test_a_person_keeps_at_most_ten_browsers_the_oldest_goes(cast, api, settings):
    assert settings.PUSH_SUBSCRIPTIONS_PER_PERSON == 10
    client = api("member")
    endpoints = [f"https://fcm.googleapis.com/fcm/send/{n}" for n in range(12)]
    for endpoint in endpoints[:10]:
        assert _subscribe(client, endpoint).status_code == 201
    # The first subscribes again: it is the newest now, the second is the oldest.
    assert _subscribe(client, endpoints[0]).status_code == 201
    for endpoint in endpoints[10:]:
        assert _subscribe(client, endpoint).status_code == 201
    kept = set(PushSubscription.objects.values_list("endpoint", flat=True))
    assert kept == {endpoints[0], *endpoints[3:]}
    assert len(kept) == 10
    # Another person's browsers do not count against Anna's.
    assert _subscribe(api("secretary"), "https://web.push.apple.com/bernd").status_code == 201
    assert PushSubscription.objects.filter(member=cast.member).count() == 10


@pytest.fixture
def phones(cast):
    """Anna has two subscribed browsers, Bernd one."""
    for name, member in (
        ("anna-1", cast.member),
        ("anna-2", cast.member),
        ("bernd", cast.secretary),
    ):
        PushSubscription.objects.create(
            member=member,
            endpoint=f"https://fcm.googleapis.com/fcm/send/{name}",
            p256dh="k",
            auth="a",
        )
    return cast


def _left(cast) -> tuple[int, int]:
    return (
        PushSubscription.objects.filter(member=cast.member).count(),
        PushSubscription.objects.filter(member=cast.secretary).count(),
    )


def test_locking_a_login_forgets_its_browsers(phones):
    login_lock(person=phones.member, by=phones.users["secretary"])
    assert _left(phones) == (0, 1)


def test_a_password_set_by_any_path_forgets_the_browsers(phones):
    password_set(user=phones.users["member"], password="Neues-Passwort-2026", by_holder=True)
    assert _left(phones) == (0, 1)


def test_a_password_set_by_the_admin_forgets_the_browsers(phones):
    password_set(user=phones.users["member"], password=None, by_holder=False)
    assert _left(phones) == (0, 1)


def test_the_api_password_change_forgets_the_browsers(phones, api):
    user = phones.users["member"]
    user.set_password("Altes-Passwort-2026")
    user.save()
    answer = api("member").post(
        "/api/v1/auth/password/",
        {"old_password": "Altes-Passwort-2026", "new_password": "Neues-Passwort-2026"},
        format="json",
    )
    assert answer.status_code in (200, 204), answer.content
    assert _left(phones) == (0, 1)


def test_the_page_logout_forgets_the_browsers(phones):
    client = Client()
    client.force_login(phones.users["member"])
    assert client.post("/logout/").status_code == 302
    assert _left(phones) == (0, 1)


def test_the_api_logout_with_a_token_forgets_the_browsers(phones, api):
    client = api("member")
    assert client.post("/api/v1/auth/logout/").status_code == 204
    assert _left(phones) == (0, 1)
    # The token is revoked as before.
    assert client.get("/api/v1/me/notifications/").status_code == 401


def test_the_api_logout_of_a_session_forgets_the_browsers(phones):
    client = Client()
    client.force_login(phones.users["member"])
    assert client.post("/api/v1/auth/logout/").status_code == 204
    assert _left(phones) == (0, 1)


def test_a_subscription_kept_before_the_list_is_never_sent_to(phones, settings, monkeypatch):
    """A row stored before the push services' list (an address in the site's network) is
    deleted by the worker instead of being POSTed to."""
    import pywebpush

    from league.banking.notifications import notifications_send

    settings.VAPID_PRIVATE_KEY = "test-key"
    sent: list[str] = []
    monkeypatch.setattr(
        pywebpush,
        "webpush",
        lambda subscription_info, **kw: sent.append(subscription_info["endpoint"]),
    )
    PushSubscription.objects.filter(endpoint__endswith="/anna-2").update(
        endpoint="https://10.0.0.5/x"
    )
    PushSubscription.objects.filter(member=phones.secretary).update(endpoint="https://10.0.0.6/y")
    thursday = datetime.datetime(2026, 11, 26, 9, 0, tzinfo=timezone.get_default_timezone())
    notifications_send(now=thursday)
    assert sent and not any("10.0.0." in endpoint for endpoint in sent)
    assert not PushSubscription.objects.filter(endpoint__startswith="https://10.0.0.").exists()
