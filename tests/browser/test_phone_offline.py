"""An evening entered without a connection arrives once: the
entry page queues the games on the phone (IndexedDB) while offline, sends them when the
connection is back, and a game sent a second time (its first answer lost) is not recorded
twice. Pages read before stay readable offline, marked as such."""

import pytest

from games.evenings.models import Game
from tests.browser.conftest import QUEUE, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

PUT = """item => new Promise((resolve) => {
  const open = indexedDB.open("schockclub-entry", 1);
  open.onsuccess = () => {
    const t = open.result.transaction("games", "readwrite");
    t.objectStore("games").put(item);
    t.oncomplete = () => resolve(true);
  };
})"""


def test_an_evening_entered_offline_arrives_once(
    phone, live_server, club_cast, log_in, sample_evening, sample_night
):
    club, people = club_cast
    ev = sample_evening["evening"]
    evening = sample_night
    page = phone.new_page()
    log_in(page, "bernd")
    page.goto(f"{live_server.url}/abende/{evening.pk}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")

    phone.set_offline(True)
    games = ev["games"][:3]
    for game in games:
        assert page.input_value("#id_number") == str(game["number"])
        page.locator("fieldset.taps label.tap", has_text=game["loser"]).click()
        for thrower in game["schock_aus"]:
            page.locator(".tap-sa", has_text=thrower).click()
        page.click(".savebar button.primary")
        count = f"document.querySelectorAll('[data-queued]').length === {game['number']}"
        wait_for(lambda: page.evaluate(count))  # noqa: B023 (polled at once, in this loop)
    assert "Auf diesem Telefon gespeichert" in page.inner_text("[data-offline-queue]")
    assert page.input_value("#id_number") == "4"
    queued = page.evaluate(QUEUE)
    assert len(queued) == 3 and not Game.objects.exists()

    phone.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_for(lambda: page.evaluate(QUEUE) == [])
    page.wait_for_load_state()
    wait_for(lambda: Game.objects.filter(evening=evening).count() == 3)
    losers = list(evening.games.order_by("number").values_list("loser__name", flat=True))
    assert losers == [g["loser"] for g in games]
    assert {str(g.client_key) for g in evening.games.all()} == {q["client_key"] for q in queued}

    # the same game once more, as if its first answer had been lost on the way back
    page.evaluate(PUT, queued[0])
    page.reload()
    wait_for(lambda: page.evaluate(QUEUE) == [])
    assert Game.objects.filter(evening=evening).count() == 3


def test_a_page_read_before_stays_readable_offline(phone, live_server, club_cast, log_in):
    page = phone.new_page()
    log_in(page, "anna")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(live_server.url + "/saison/2026/")
    wait_for(lambda: page.evaluate("navigator.serviceWorker.controller !== null"))
    page.reload()  # now through the worker, which keeps its copy
    phone.set_offline(True)
    page.goto(live_server.url + "/saison/2026/")
    assert page.locator("table.standings").count() == 1
    assert page.evaluate("document.documentElement.classList.contains('is-offline')")
    assert page.locator(".offline-note").is_visible()
