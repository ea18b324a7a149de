"""Shared fixtures: the small named cast of STYLE.md (a secretary, a member, a guest, an
outsider from another club) and the sample evening of tests/samples."""

import asyncio
import json
from pathlib import Path

import pytest
from django_scopes.state import state

from league.club.scoping import no_club_scope

SAMPLES = Path(__file__).resolve().parent / "samples"


@pytest.fixture(scope="session", autouse=True)
def _scopes_disabled_in_test_code():
    """Test code (factories, services called directly, fixtures of any scope) runs with
    the club scopes disabled (league/club/scoping.py). A request through the test client
    still opens its own club's scope in the middleware (and the API in request_member),
    which enforces the scopes again inside: every page and API test checks the views in
    their scope. A test marked `scopes_enforced` runs its body in an enforced scope
    without a club instead. Threads a test starts begin without any scope (contextvars
    are not inherited): their bodies open one (`across_clubs`)."""
    token = state.set({"_enabled": False})
    yield
    state.reset(token)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """`@pytest.mark.scopes_enforced`: the test's body (after its fixtures made their
    data) runs in an enforced scope without a club, where a query of a club-owned model
    raises ScopeError unless the test opens a club's scope. Other tests keep the scopes
    disabled."""
    if item.get_closest_marker("scopes_enforced") is None:
        yield
    else:
        with no_club_scope():
            yield


@pytest.fixture(scope="session")
def sample_evening() -> dict:
    """The sample evening of 2026-10-09 with its `expected` figures."""
    return json.loads((SAMPLES / "evening-2026-10-09.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests log in hundreds of times; PBKDF2's deliberate slowness only costs time here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _api_not_throttled(settings):
    """The API's throttles (league/club/throttles.py) count per login and address, and
    the tests send many requests from one address: raised far beyond any test. The test of
    the 429 lowers them again."""
    settings.API_THROTTLE_RATES = {"user": "100000/min", "address": "100000/min"}


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache.

    The books cache is on in tests (league/club/caching.py `in_writer_transaction` does not
    count the transaction a test runs in), and a rolled-back test leaves its kept reads
    under keys the next test meets again: the same ids and data versions, other books.
    With REDIS_URL each xdist worker has its own Redis database (tests/redis_per_worker.py),
    so this empties only the worker's own."""
    from django.core.cache import caches

    for cache in caches.all():
        cache.clear()


BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


@pytest.fixture(autouse=True)
def _no_event_loop_left_running(request):
    """A test outside tests/browser starts in a thread without a running event loop.

    Playwright's sync API marks its loop as running while it is started; left running, it
    made Django's test client fail on the async health view in whatever test an xdist
    worker ran next. tests/browser/conftest.py stops Playwright after each module; this
    names the cause at once if that ever breaks.
    """
    if BROWSER_TESTS not in Path(str(request.node.fspath)).parents:
        assert asyncio._get_running_loop() is None, "an event loop was left running"
    yield


@pytest.fixture(autouse=True)
def _games_before_attendance(request):
    """In a `transaction=True` test, the games go first when it ends.

    The flush after such a test deletes table by table, in an order that changes from run
    to run, and the database refuses to delete an attendance a game still uses
    (games/migrations/0002_integrity_triggers.py): the flush then failed now and then. This
    fixture sets up the transactional database itself, so its cleanup runs before the flush.
    """
    if "transactional_db" not in request.fixturenames and not _marked_transaction(request):
        yield
        return
    request.getfixturevalue("transactional_db")
    yield
    from django.db import connection

    with connection.cursor() as cursor:
        for table in (
            "games_rundegiven",
            "games_roundthrow",
            "games_round",
            "games_schockaus",
            "games_game",
        ):
            cursor.execute(f"DELETE FROM {table}")  # fixed table names


def _marked_transaction(request) -> bool:
    marker = request.node.get_closest_marker("django_db")
    return bool(marker and (marker.kwargs.get("transaction") or marker.args[:1] == (True,)))


@pytest.fixture(autouse=True)
def _cache_not_paused():
    """A test that met an unreachable cache pauses every GuardedCache of the process for a
    few seconds (league/club/caching.py): the next test starts with the cache in use."""
    from league.club.caching import GuardedCache

    GuardedCache._paused_until = 0.0
    yield
    GuardedCache._paused_until = 0.0
