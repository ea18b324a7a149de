"""The wall screen in a real browser: a game saved by the secretary shows on the screen
within 5 s (static/js/wall.js polls with the board's ETag every 4 s), and a revoked
link says so.

The screen's clock is Playwright's (page.clock): the test moves it on by those 5 s at
once instead of waiting for them, so the page's timers (the poll) fire as they would in
5 s of its time, and the test does not sit idle for them."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.evenings.services import game_record
from league.sharing.services import wall_screen_create, wall_screen_revoke
from tests.sample import enter_sample_evening

#: How long after a change the screen has asked again (its poll runs every 4 s).
POLLED_WITHIN_MS = 5000


@pytest.fixture
def wall(club_cast, sample_evening):
    evening, people = enter_sample_evening(sample_evening, date=timezone.localdate())
    screen, token = wall_screen_create(club=evening.club, name="TV")
    return evening, people, screen, token


@pytest.fixture
def tv(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="de-DE")
    yield context.new_page()
    context.close()


def test_a_saved_game_shows_on_the_wall_within_five_seconds(tv, live_server, wall):
    evening, people, _screen, token = wall
    tv.clock.install()
    tv.goto(f"{live_server.url}/tafel/{token}/")
    newest = tv.locator(".wall-games li").first
    assert newest.inner_text().startswith("25.")
    game_record(evening=evening, loser=people["Carla Vogt"])
    tv.clock.run_for(POLLED_WITHIN_MS)
    # The page's own CSP forbids Playwright's evaluated predicates: a locator waits instead
    # (for the poll's answer, which takes real time; the page's clock no longer moves).
    expect(newest).to_contain_text("26.", timeout=5000)
    assert "Carla Vogt" in newest.inner_text()


def test_a_revoked_link_says_so_on_the_wall(tv, live_server, wall):
    evening, _people, screen, token = wall
    tv.clock.install()
    tv.goto(f"{live_server.url}/tafel/{token}/")
    wall_screen_revoke(club=evening.club, screen_id=screen.pk)
    tv.clock.run_for(POLLED_WITHIN_MS)
    expect(tv.locator("[data-wall-status]")).to_contain_text("zurückgezogen", timeout=5000)
    assert tv.locator(".wall-games").count() == 0


def test_the_wall_fits_a_tablet_without_sideways_scrolling(tv, live_server, wall):
    tv.set_viewport_size({"width": 800, "height": 1280})
    tv.goto(f"{live_server.url}/tafel/{wall[3]}/")
    assert tv.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
