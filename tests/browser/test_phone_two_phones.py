"""Two phones enter one evening in a pub with a bad signal. Phone A queues game 6 while
offline; phone B saves its own game 6 (and 7) online. When A is back, its game 6 is
shown beside the game that took the number, the games after it are not held back, and
the secretary saves it as the next game or discards it as the same one: nothing is lost,
nothing doubled. Sending the queue never reloads the page nor touches a game being
entered; what arrived appears in the list in place."""

import pytest

from games.evenings.models import Game
from games.evenings.services import game_record
from tests.browser.conftest import QUEUE, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def evening_of_five(club_cast, sample_evening, sample_night):
    """The sample evening with its first five games saved."""
    club, people = club_cast
    ev = sample_evening["evening"]
    evening = sample_night
    for game in ev["games"][:5]:
        game_record(
            evening=evening,
            number=game["number"],
            loser=people[game["loser"]],
            schock_aus_throwers=[people[n] for n in game["schock_aus"]],
        )
    return evening


@pytest.fixture
def two_phones(browser, browser_context_args):
    phones = [browser.new_context(**browser_context_args) for _ in range(2)]
    yield phones
    for phone in phones:
        phone.close()


def _tap_game(page, loser: str, throwers: tuple[str, ...] = ()) -> None:
    page.locator("fieldset.taps label.tap", has_text=loser).click()
    for thrower in throwers:
        page.locator(".tap-sa", has_text=thrower).click()


def _save_online(page, number: int) -> None:
    page.click(".savebar button.primary")
    page.wait_for_selector(".msg-success")
    assert f"Spiel {number} gespeichert" in page.inner_text(".msg-success")


def _losers(evening) -> dict[int, str]:
    return dict(evening.games.values_list("number", "loser__name"))


def test_a_game_queued_offline_whose_number_was_taken_is_saved_as_the_next_game(
    two_phones, live_server, club_cast, log_in, evening_of_five
):
    evening = evening_of_five
    url = f"{live_server.url}/abende/{evening.pk}/"
    phone_a, phone_b = two_phones
    a, b = phone_a.new_page(), phone_b.new_page()
    for page in (a, b):
        log_in(page, "bernd")
        page.goto(url)
        assert page.input_value("#id_number") == "6"

    phone_a.set_offline(True)
    _tap_game(a, "Anna Becker", ("Carla Vogt",))
    a.click(".savebar button.primary")
    wait_for(lambda: a.locator("[data-queued]").count() == 1)
    assert a.locator(".queue-bar").is_visible()

    _tap_game(b, "Dieter Hahn")
    _save_online(b, 6)
    _tap_game(b, "Erik Lange", ("Anna Becker",))
    _save_online(b, 7)

    phone_a.set_offline(False)
    a.evaluate("window.dispatchEvent(new Event('online'))")
    wait_for(lambda: a.locator("[data-conflict=number]").count() == 1)
    conflict = a.inner_text("[data-conflict=number]")
    assert "Spiel 6 wurde inzwischen von Bernd Krause gespeichert" in conflict
    assert "Dieter Hahn verlor" in conflict
    assert a.locator("[data-resolve=next]").inner_text() == "als nächstes Spiel speichern"
    assert a.locator("[data-resolve=same]").inner_text() == "ist dasselbe Spiel"
    # the evening was read again: the form offers the next free number
    wait_for(lambda: a.input_value("#id_number") == "8")

    # a later game entered online is not held back by the conflict
    _tap_game(a, "Carla Vogt")
    _save_online(a, 8)
    assert _losers(evening) == {
        **{g.number: g.loser.name for g in evening.games.filter(number__lte=5)},
        6: "Dieter Hahn",
        7: "Erik Lange",
        8: "Carla Vogt",
    }

    # every page says a game waits, and leads to it
    a.goto(live_server.url + "/")
    # the bar is filled by queue.js from IndexedDB after the page loads
    wait_for(lambda: "1 Spiel wartet" in a.inner_text(".queue-bar"))
    a.click(".queue-bar a")
    a.wait_for_selector("[data-conflict=number]")

    a.click("[data-resolve=next]")
    wait_for(lambda: a.evaluate(QUEUE) == [])
    wait_for(lambda: evening.games.count() == 9)
    game = Game.objects.get(evening=evening, number=9)
    assert game.loser.name == "Anna Becker"
    assert list(game.schock_aus.values_list("thrower__name", flat=True)) == ["Carla Vogt"]
    wait_for(lambda: a.locator("table.games tbody tr").count() == 9)
    assert a.locator("[data-queue-bar]").is_hidden()


def test_a_queued_game_that_is_the_same_game_is_discarded_and_the_next_is_sent(
    two_phones, live_server, club_cast, log_in, evening_of_five
):
    evening = evening_of_five
    url = f"{live_server.url}/abende/{evening.pk}/"
    phone_a, phone_b = two_phones
    a, b = phone_a.new_page(), phone_b.new_page()
    for page in (a, b):
        log_in(page, "bernd")
        page.goto(url)

    phone_a.set_offline(True)
    _tap_game(a, "Dieter Hahn")
    a.click(".savebar button.primary")
    wait_for(lambda: a.locator("[data-queued]").count() == 1)
    _tap_game(a, "Erik Lange")
    a.click(".savebar button.primary")
    wait_for(lambda: a.locator("[data-queued]").count() == 2)

    _tap_game(b, "Dieter Hahn")  # the same game 6, entered on the other phone
    _save_online(b, 6)

    phone_a.set_offline(False)
    a.evaluate("window.dispatchEvent(new Event('online'))")
    # game 7, queued after the refused game 6, is sent all the same
    wait_for(lambda: evening.games.filter(number=7).exists())
    wait_for(lambda: a.locator("[data-conflict=number]").count() == 1)
    a.click("[data-resolve=same]")
    wait_for(lambda: a.evaluate(QUEUE) == [])
    assert _losers(evening)[6] == "Dieter Hahn" and _losers(evening)[7] == "Erik Lange"
    assert evening.games.count() == 7


def test_a_half_entered_game_survives_the_queue_being_sent(
    two_phones, live_server, club_cast, log_in, evening_of_five
):
    evening = evening_of_five
    phone = two_phones[0]
    page = phone.new_page()
    log_in(page, "bernd")
    page.goto(f"{live_server.url}/abende/{evening.pk}/")

    phone.set_offline(True)
    assert page.locator(".offline-note").is_visible()
    box = page.locator(".offline-note").bounding_box()
    assert box["y"] + box["height"] <= 844 - 56  # a fixed bar above the bottom navigation
    for loser in ("Erik Lange", "Bernd Krause"):
        _tap_game(page, loser)
        page.click(".savebar button.primary")
    wait_for(lambda: page.locator("[data-queued]").count() == 2)
    assert page.input_value("#id_number") == "8"
    _tap_game(page, "Anna Becker", ("Dieter Hahn", "Carla Vogt"))
    page.evaluate("() => { window.stillThisPage = true; }")

    phone.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_for(lambda: page.evaluate(QUEUE) == [])
    wait_for(lambda: page.locator("table.games tbody tr").count() == 7)
    assert page.evaluate("() => window.stillThisPage === true")  # never reloaded
    assert "jetzt gesendet: 2" in page.inner_text("[data-offline-queue]")
    assert page.input_value("#id_number") == "8"
    assert page.locator("input[name=loser]:checked").evaluate("i => i.value") == str(
        club_cast[1]["Anna Becker"].pk
    )
    chosen = page.eval_on_selector_all("select[name=schock_aus]", "ss => ss.map(s => s.value)")
    people = club_cast[1]
    assert chosen[:3] == [str(people["Dieter Hahn"].pk), str(people["Carla Vogt"].pk), ""]
    assert evening.games.count() == 7
