"""A game queued on the phone without a connection is sent by the service worker's
background sync (static/js/sw.js, its "sync" handler over static/js/queue.js's flush), not
only by a page load. The phone goes back online with the page left as it is (no reload, no
navigation); the page's own sending and the browser's own first sync on reconnecting are
made to fail, so the game still waits; then the sync event is fired at the worker through
the Chrome DevTools Protocol (ServiceWorker.dispatchSyncEvent, as the browser fires it on
its next try), and the worker alone delivers the game: it is in the books once, the queue
is empty and the open page says it was sent."""

import re
from pathlib import Path

import pytest

from games.evenings.models import Game
from tests.browser.conftest import QUEUE, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"


def _sync_tag() -> str:
    """The tag the pages register and the worker answers (static/js/queue.js's TAG, which
    sw.js compares each sync event's tag with)."""
    queue = (STATIC_JS / "queue.js").read_text()
    assert "event.tag !== self.SchockQueue.TAG" in (STATIC_JS / "sw.js").read_text()
    return re.search(r'TAG = "([^"]+)"', queue).group(1)


def test_a_game_queued_offline_is_sent_by_the_workers_background_sync(
    phone, live_server, club_cast, log_in, sample_evening, sample_night
):
    club, people = club_cast
    ev = sample_evening["evening"]
    evening = sample_night
    page = phone.new_page()
    log_in(page, "bernd")
    page.goto(f"{live_server.url}/abende/{evening.pk}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")

    # The worker's registration, as DevTools sees it.
    cdp = phone.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    scope = live_server.url + "/"

    def registration_id() -> str | None:
        ours = [r for r in registrations if r["scopeURL"] == scope and not r["isDeleted"]]
        return ours[-1]["registrationId"] if ours else None

    wait_for(lambda: page.evaluate("true") and registration_id() is not None)

    # One game entered without a connection: it waits on the phone.
    phone.set_offline(True)
    game = ev["games"][0]
    page.locator("fieldset.taps label.tap", has_text=game["loser"]).click()
    for thrower in game["schock_aus"]:
        page.locator(".tap-sa", has_text=thrower).click()
    page.click(".savebar button.primary")
    wait_for(lambda: page.evaluate("document.querySelectorAll('[data-queued]').length === 1"))
    queued = page.evaluate(QUEUE)
    assert len(queued) == 1 and not Game.objects.exists()

    # Back online, the page left as it is. The page sends the queue itself when the
    # connection comes back (app.js, its "online" listener), and the browser fires the
    # worker's sync on its own once the connection is back (the page registered it when
    # the game was queued). Both sendings are cut here (their requests to the API fail, as
    # on a flaky connection): the game keeps waiting, and the browser puts its next try
    # minutes away (a failed sync is retried with a back-off).
    cut: list[str] = []

    def fail(route):
        cut.append("worker" if route.request.service_worker else "page")
        route.abort()

    phone.route("**/api/v1/games/", fail)
    phone.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_for(lambda: page.evaluate("true") and {"page", "worker"} <= set(cut))
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    assert len(page.evaluate(QUEUE)) == 1 and not Game.objects.exists()
    phone.unroute("**/api/v1/games/", fail)
    sent_by: list[str] = []
    phone.on(
        "request",
        lambda request: (
            sent_by.append("worker" if request.service_worker else "page")
            if request.method == "POST" and request.url.endswith("/api/v1/games/")
            else None
        ),
    )

    # The browser's background sync, fired at the worker.
    origin = live_server.url
    cdp.send(
        "ServiceWorker.dispatchSyncEvent",
        {
            "origin": origin,
            "registrationId": registration_id(),
            "tag": _sync_tag(),
            "lastChance": False,
        },
    )
    wait_for(lambda: Game.objects.filter(evening=evening).exists())
    wait_for(lambda: page.evaluate(QUEUE) == [])
    saved = Game.objects.get(evening=evening)
    assert saved.number == game["number"] and saved.loser.name == game["loser"]
    assert str(saved.client_key) == queued[0]["client_key"]
    assert [sa.thrower.name for sa in saved.schock_aus.order_by("position")] == game["schock_aus"]
    # the open page is told by the worker and says so
    wait_for(lambda: "Wieder Netz, jetzt gesendet: 1" in page.inner_text("[data-offline-queue]"))
    assert page.locator("[data-queued]").count() == 0
    assert Game.objects.filter(evening=evening).count() == 1
    assert sent_by == ["worker"]
