"""Web push switched on from the reminders page, in a real browser (static/js/push.js): the
button subscribes through the site's service worker with the VAPID public key and sends
the subscription to the API with the session's CSRF token; the status line says what
happened; switching off forgets it again.

Headless Chromium has no push service, so pushManager.subscribe() and getSubscription()
are replaced (page.add_init_script) by a fake that records what it was asked and answers
a subscription at web.push.apple.com (a push service the site accepts), or one the browser
already holds when the page opens; everything from there on is real: the page's script,
the request, the API, the database row. A subscription the browser holds is only looked
up when the page opens, never sent: push is switched on by a tap alone (on a shared phone
the browser keeps an earlier login's subscription after its logout).
"""

import base64

import pytest
from playwright.sync_api import expect

from league.banking.models import PushSubscription
from tests.browser.conftest import fits_the_phone, wait_for
from tests.browser.test_phone_accessibility import _serious

pytestmark = pytest.mark.django_db(transaction=True)

# An uncompressed P-256 point (65 bytes, 0x04 first), base64url without padding.
KEY = base64.urlsafe_b64encode(bytes([4]) + bytes(range(1, 65))).decode().rstrip("=")
ENDPOINT = "https://web.push.apple.com/phone-anna"

# The page keeps no copies for offline reading here (app.js warms them once per visit,
# and the worker would go on fetching them after the test ended).
NO_WARMING = 'try { sessionStorage.setItem("sc-warmed", "1"); } catch (e) {}'
FAKE_PUSH = """(() => {
  if (typeof PushManager === "undefined") { return; }
  const state = { subscribed: %(subscribed)s, asked: [] };
  self.__push = state;
  const subscription = {
    endpoint: "%(endpoint)s",
    expirationTime: null,
    toJSON() {
      const p256dh = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1"
        + "XbjhazAkj7I99e8QcYP7DkM";
      return { endpoint: this.endpoint, expirationTime: null,
               keys: { p256dh: p256dh, auth: "tBHItJI5svbpez7KI4CCXg" } };
    },
    unsubscribe() { state.subscribed = false; return Promise.resolve(true); }
  };
  PushManager.prototype.subscribe = function (options) {
    state.asked.push({ userVisibleOnly: options.userVisibleOnly,
                       key: Array.from(new Uint8Array(options.applicationServerKey)) });
    if (%(refuse)s) {
      return Promise.reject(new DOMException("permission denied", "NotAllowedError"));
    }
    state.subscribed = true;
    return Promise.resolve(subscription);
  };
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(state.subscribed ? subscription : null);
  };
})();"""
NO_PUSH = "delete window.PushManager;"

BUTTON = "Push-Nachrichten auf diesem Gerät einschalten"
OFF = "Push-Nachrichten auf diesem Gerät ausschalten"
ON_SAID = "Push-Nachrichten sind auf diesem Gerät eingeschaltet."
STALE_SAID = (
    "Push-Nachrichten sind auf diesem Gerät für dich nicht eingeschaltet. Du kannst sie mit "
    "dem Knopf einschalten."
)


def _fake_push(endpoint: str = ENDPOINT, *, refuse: bool = False, subscribed: bool = False):
    """The fake push manager: `refuse` the permission when asked; `subscribed`: the
    browser holds a subscription from an earlier visit when the page opens."""
    flag = {True: "true", False: "false"}
    return FAKE_PUSH % {
        "endpoint": endpoint,
        "refuse": flag[refuse],
        "subscribed": flag[subscribed],
    }


@pytest.fixture
def vapid(settings):
    settings.VAPID_PUBLIC_KEY = KEY
    return KEY


def _reminders(phone, live_server, log_in, script: str, *, worker: bool = False):
    """Anna's reminders page on the phone. `worker`: the site's service worker is ready
    before the page opens (app.js registers it on the page after the login), as on a
    phone that subscribed on an earlier visit: the page looks for a subscription only
    through a registered worker."""
    phone.add_init_script(script=NO_WARMING)
    phone.add_init_script(script=script)
    page = phone.new_page()
    log_in(page, "anna")
    if worker:
        assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(f"{live_server.url}/benachrichtigungen/")
    return page


def test_the_button_subscribes_this_phone_and_the_api_keeps_it(
    phone, live_server, club_cast, log_in, vapid
):
    club, people = club_cast
    anna = people["Anna Becker"]
    page = _reminders(phone, live_server, log_in, _fake_push())
    status = page.locator("[data-push-status]")
    button = page.get_by_role("button", name=BUTTON)
    expect(button).to_be_visible()
    expect(page.get_by_role("button", name=OFF)).to_be_hidden()

    button.click()
    expect(status).to_have_text(ON_SAID)
    wait_for(lambda: PushSubscription.objects.filter(endpoint=ENDPOINT).exists())
    row = PushSubscription.objects.get(endpoint=ENDPOINT)
    assert row.member_id == anna.pk
    assert (row.p256dh[:4], row.auth) == ("BNcR", "tBHItJI5svbpez7KI4CCXg")
    asked = page.evaluate("self.__push.asked")
    expected_key = list(base64.urlsafe_b64decode(KEY + "=" * (-len(KEY) % 4)))
    assert asked == [{"userVisibleOnly": True, "key": expected_key}]
    expect(button).to_be_hidden()
    off = page.get_by_role("button", name=OFF)
    expect(off).to_be_visible()

    # The page with its status line fits the phone and reads in light and dark mode.
    assert fits_the_phone(page)
    for scheme in ("light", "dark"):
        assert _serious(page, scheme) == [], scheme

    off.click()
    expect(status).to_have_text("Push-Nachrichten sind auf diesem Gerät ausgeschaltet.")
    wait_for(lambda: not PushSubscription.objects.exists())
    expect(button).to_be_visible()


def test_a_refused_permission_is_said_and_nothing_is_kept(
    phone, live_server, club_cast, log_in, vapid
):
    page = _reminders(phone, live_server, log_in, _fake_push(refuse=True))
    page.get_by_role("button", name=BUTTON).click()
    expect(page.locator("[data-push-status]")).to_contain_text("Push-Nachrichten wurden abgelehnt.")
    expect(page.get_by_role("button", name=BUTTON)).to_be_enabled()
    assert not PushSubscription.objects.exists()


def test_a_browser_without_push_says_so(phone, live_server, club_cast, log_in, vapid):
    page = _reminders(phone, live_server, log_in, NO_PUSH)
    expect(page.locator("[data-push-status]")).to_contain_text(
        "Push-Nachrichten sind in diesem Browser nicht möglich."
    )
    expect(page.get_by_role("button", name=BUTTON)).to_be_disabled()
    assert fits_the_phone(page)


def _api_requests(phone) -> list[tuple[str, str]]:
    """Every request the phone's pages make to push-subscriptions/ from now on: (method,
    URL), filled in as they go."""
    seen: list[tuple[str, str]] = []

    def record(request):
        if "/api/v1/push-subscriptions/" in request.url:
            seen.append((request.method, request.url))

    phone.on("request", record)
    return seen


def test_a_held_subscription_the_server_does_not_keep_for_this_login_is_not_sent(
    phone, live_server, club_cast, log_in, vapid
):
    """The phone holds a subscription the server does not keep for Anna (an earlier
    login's on a shared phone: its logout forgot it on the server only; or the server
    dropped it): opening the page only asks, subscribes nobody, and offers the button."""
    assert not PushSubscription.objects.exists()
    requests = _api_requests(phone)
    page = _reminders(phone, live_server, log_in, _fake_push(subscribed=True), worker=True)
    expect(page.locator("[data-push-status]")).to_have_text(STALE_SAID)
    button = page.get_by_role("button", name=BUTTON)
    expect(button).to_be_visible()
    expect(button).to_be_enabled()
    expect(page.get_by_role("button", name=OFF)).to_be_hidden()
    assert [method for method, _url in requests] == ["GET"]
    assert "endpoint=https%3A%2F%2Fweb.push.apple.com%2Fphone-anna" in requests[0][1]
    assert not PushSubscription.objects.exists()
    assert page.evaluate("self.__push.asked") == []
    assert fits_the_phone(page)

    # A tap switches it on: the browser answers the subscription it holds, the POST keeps it.
    button.click()
    expect(page.locator("[data-push-status]")).to_have_text(ON_SAID)
    wait_for(lambda: PushSubscription.objects.filter(endpoint=ENDPOINT).exists())
    assert PushSubscription.objects.get().member_id == club_cast[1]["Anna Becker"].pk
    expect(page.get_by_role("button", name=OFF)).to_be_visible()


def test_a_held_subscription_the_server_keeps_for_this_login_is_said_on(
    phone, live_server, club_cast, log_in, vapid
):
    club, people = club_cast
    PushSubscription.objects.create(
        club=club, member=people["Anna Becker"], endpoint=ENDPOINT, p256dh="BNcR", auth="a"
    )
    requests = _api_requests(phone)
    page = _reminders(phone, live_server, log_in, _fake_push(subscribed=True), worker=True)
    expect(page.locator("[data-push-status]")).to_have_text(ON_SAID)
    expect(page.get_by_role("button", name=OFF)).to_be_visible()
    expect(page.get_by_role("button", name=BUTTON)).to_be_hidden()
    # Asked, not sent again: the row is the one kept before.
    assert [method for method, _url in requests] == ["GET"]
    assert PushSubscription.objects.get().auth == "a"
    assert page.evaluate("self.__push.asked") == []


def test_without_an_answer_the_page_claims_nothing_and_the_button_works(
    phone, live_server, club_cast, log_in, vapid
):
    """The server cannot be asked (the connection is lost): the state stays unknown, no
    "on" is said, and the button can still be tapped."""
    phone.route("**/api/v1/push-subscriptions/**", lambda route: route.abort())
    requests = _api_requests(phone)
    with phone.expect_event(
        "requestfailed", lambda request: "/api/v1/push-subscriptions/" in request.url
    ):
        page = _reminders(phone, live_server, log_in, _fake_push(subscribed=True), worker=True)
    button = page.get_by_role("button", name=BUTTON)
    expect(button).to_be_enabled()
    expect(button).to_be_visible()
    expect(page.get_by_role("button", name=OFF)).to_be_hidden()
    expect(page.locator("[data-push-status]")).not_to_have_text(ON_SAID)
    assert [method for method, _url in requests] == ["GET"]
    assert not PushSubscription.objects.exists()
