"""Real-browser tests: pytest-playwright driving Debian's chromium
(/usr/bin/chromium, installed by .ci/run; Playwright never downloads a browser) at phone
size (390 x 844, German) against pytest-django's live_server.

Without /usr/bin/chromium every test here is skipped with that reason (a developer's
machine without the package); CI installs it, so there they run.

The cast: the sample club of tests/samples (tests/sample.py) with its 2026 season, the
secretary Bernd Krause (login "bernd") and the member Anna Becker (login "anna").
"""

import datetime
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db.utils import OperationalError
from django.test import override_settings
from playwright.sync_api import sync_playwright

from games.evenings.services import evening_create
from league.club.services import member_login_set, season_get_or_create
from tests.factories import UserFactory
from tests.passwords import FAST_HASHERS
from tests.sample import enter_sample_evening, sample_club

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
PASSWORD = "Würfel-Becher-2026"
HERE = Path(__file__).parent

# Playwright's sync API runs an event loop in the test's thread; Django then refuses ORM
# calls there unless told that this thread is a plain synchronous one (it is).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config, items):
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=f"no chromium at {CHROMIUM} (apt-get install chromium)")
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(skip)


# Playwright's sync API marks its event loop as running in this thread for as long as
# Playwright is started. pytest-playwright starts it once per session, so on an xdist
# worker every later test ran "inside" that loop, and Django's test client could no longer
# call an async view (the health view: "You cannot use AsyncToSync in the same thread as
# an async event loop"). Here Playwright and the browser live for this package
# (tests/browser) and are stopped before a test of another package runs: pytest tears a
# package's fixtures down as soon as the next test is outside it, so they are started once
# for a run of the package's modules one after another, and again whenever another
# package's tests came in between.


@pytest.fixture(scope="package")
def playwright(_pw_api_request_contexts):
    pw = sync_playwright().start()
    if _pw_api_request_contexts:
        _pw_api_request_contexts.instrument(pw)
    yield pw
    pw.stop()


@pytest.fixture(scope="package")
def browser_type(playwright, browser_name):
    return getattr(playwright, browser_name)


@pytest.fixture(scope="package")
def launch_browser(browser_type_launch_args, browser_type):
    def launch(**kwargs):
        return browser_type.launch(**{**browser_type_launch_args, **kwargs})

    return launch


@pytest.fixture(scope="package")
def browser(launch_browser):
    browser = launch_browser()
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    }


@pytest.fixture(scope="module")
def browser_context_args():
    # Not built on pytest-playwright's own (session-scoped, it needs Playwright for its
    # device list, which we do not use).
    return {
        "viewport": {"width": 390, "height": 844},
        "locale": "de-DE",
        "timezone_id": "Europe/Berlin",
        # The service worker keeps fetching pages in the background after a test ended
        # (into the next test's database): only the offline test lets it run.
        "service_workers": "block",
    }


def make_club_cast(sample_evening: dict) -> tuple:
    """The sample's club, members and guest, its 2026 season, and two logins: (club,
    {name: Member})."""
    club, people = sample_club(sample_evening)
    season_get_or_create(club=club, year=2026)
    for name, username in (("Bernd Krause", "bernd"), ("Anna Becker", "anna")):
        person = people[name]
        member_login_set(person=person, user=UserFactory(username=username, password=PASSWORD))
    return club, people


@pytest.fixture
def club_cast(transactional_db, sample_evening):
    """The sample's club, members and guest, its 2026 season, and two logins."""
    return make_club_cast(sample_evening)


@contextmanager
def kept_for_the_module(django_db_blocker) -> Iterator[None]:
    """For a module-scoped fixture whose books its tests only read: the database open
    for the module (writes commit, as in a live-server test), and emptied at the end as
    pytest-django empties it after a live-server test. The module then overrides
    `transactional_db` (which live_server asks for by name) with a fixture that needs
    its books and empties nothing, so they are built once for the module instead of
    once per test. Passwords are hashed as the tests log in (tests/conftest.py)."""
    with django_db_blocker.unblock():
        try:
            with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
                yield
        finally:
            call_command("flush", verbosity=0, interactive=False, reset_sequences=False)
            for cache in caches.all():
                cache.clear()


@pytest.fixture(scope="module")
def sample_books(django_db_setup, django_db_blocker, sample_evening):
    """`club_cast` with the sample evening of 2026-10-09 entered, built once for the
    module that asks for it, whose tests only read it (they log in and open pages), and
    emptied after the last of them (kept_for_the_module). Such a module overrides
    `transactional_db` with a fixture that needs it."""
    with kept_for_the_module(django_db_blocker):
        cast = make_club_cast(sample_evening)
        enter_sample_evening(sample_evening, date=datetime.date(2026, 10, 9))
        yield cast


@pytest.fixture
def log_in(live_server):
    """log_in(page, username): the login form, as a person would fill it in."""

    def _log_in(page, username: str) -> None:
        page.goto(live_server.url + "/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_url(lambda url: "/login/" not in url)

    return _log_in


#: The games a page queued on the phone (static/js/queue.js's IndexedDB store), read by
#: `page.evaluate(QUEUE)`.
QUEUE = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("schockclub-entry", 1);
  open.onsuccess = () => {
    const get = open.result.transaction("games").objectStore("games").getAll();
    get.onsuccess = () => resolve(get.result);
    get.onerror = () => reject(get.error);
  };
})"""


@pytest.fixture
def phone(transactional_db, browser, browser_context_args):
    """A phone whose service worker runs (the other browser tests block it)."""
    context = browser.new_context(**{**browser_context_args, "service_workers": "allow"})
    yield context
    context.close()


@pytest.fixture
def sample_night(club_cast, sample_evening):
    """The sample evening's attendance on 9 October 2026 (`club_cast`'s club), no game
    entered yet."""
    club, people = club_cast
    ev = sample_evening["evening"]
    return evening_create(
        club=club,
        date=datetime.date(2026, 10, 9),
        secretary=people[ev["secretary"]],
        present_members=[people[n] for n in ev["present_members"]],
        guests=[people[n] for n in ev["guests"]],
        absent_members=[people[n] for n in ev["absent_members"]],
    )


def wait_for(check, seconds: float = 20) -> None:
    """Poll `check` against the database the live server writes to (page.wait_for_function
    would evaluate a string: the CSP refuses it); AssertionError after `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if check():
                return
        except OperationalError:
            pass  # SQLite's shared in-memory database is locked while the server writes
        time.sleep(0.2)
    raise AssertionError("timed out")


def fits_the_phone(page) -> bool:
    """No sideways scrolling: the document is no wider than the window.

    Waits for the page to have loaded first: right after a click that navigates, the new
    document may not have an element yet (evaluate then fails on a null documentElement).
    """
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
