"""A member on a phone: logs in, reads what they owe and the
standings, and reaches every place of the navigation (bottom bar and "Mehr") without any
page scrolling sideways; the same places fit a desktop window with a top navigation."""

import pytest

from tests.browser.conftest import fits_the_phone


@pytest.fixture
def transactional_db(sample_books):
    """pytest-django's live_server asks for `transactional_db` (a database emptied after
    each test); here it is the module's books instead, kept from test to test and emptied
    after the module (sample_books). The tests still count as live-server tests when
    pytest-django orders them (it goes by the fixtures' names)."""


def _places(page) -> list[str]:
    """Every link of the navigation: the bottom bar's and those under "Mehr"."""
    return page.eval_on_selector_all(
        "nav.mainnav a[href]", "links => links.map(a => a.getAttribute('href'))"
    )


def test_member_reads_what_they_owe_and_the_standings(page, live_server, sample_books, log_in):
    log_in(page, "anna")
    owed = page.inner_text("section.owed")
    assert "Offen: 2,00\u00a0€" in owed or "Offen: 2,00 €" in owed  # 4 Marks at 0,50 €
    assert "1 Runde offen" in page.inner_text("main")  # her first Schock-Aus of the evening
    assert fits_the_phone(page)
    page.goto(live_server.url + "/saison/2026/")
    first = page.locator("table.standings tbody tr").first.inner_text()
    assert "Frank Roth" in first
    assert fits_the_phone(page)
    # every figure of a row is in view without scrolling sideways (a card per row)
    for cell in page.locator("table.standings tbody tr").first.locator("td").all():
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390


@pytest.mark.parametrize("username", ["anna", "bernd"])
def test_every_place_of_the_navigation_is_reachable_and_fits(
    page, live_server, sample_books, log_in, username
):
    log_in(page, username)
    bar = page.locator("nav.mainnav > a")
    assert 4 <= bar.count() <= 5
    for i in range(bar.count()):
        box = bar.nth(i).bounding_box()
        assert box["y"] + box["height"] <= 844 and box["height"] >= 44  # on screen, tappable
    page.click("details.more > summary")
    assert page.locator(".more-menu a").first.is_visible()
    for href in _places(page):
        response = page.goto(live_server.url + href)
        assert response.status < 400, href
        assert fits_the_phone(page), href


def test_desktop_keeps_a_top_navigation(page, live_server, sample_books, log_in):
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(page, "bernd")
    box = page.locator("nav.mainnav").bounding_box()
    assert box["y"] < 60
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
