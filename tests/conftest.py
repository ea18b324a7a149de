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
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    """pytest-django's hook for the test databases' settings (after its per-worker name
    suffix): on PostgreSQL each test database is a copy of a template migrated once per
    schema (tests/template_database.py) instead of being migrated again."""
    from django.conf import settings

    from tests.template_database import use_templates

    use_templates(settings.DATABASES)


@pytest.fixture(scope="session")
def sample_evening() -> dict:
    """The sample evening of 2026-10-09 with its `expected` figures."""
    return json.loads((SAMPLES / "evening-2026-10-09.json").read_text(encoding="utf-8"))


# The tables the integrity triggers of games/migrations/0002_integrity_triggers.py guard:
# emptied first, children before parents.
GAME_TABLES = (
    "games_rundegiven",
    "games_roundthrow",
    "games_round",
    "games_schockaus",
    "games_game",
)


def _games_first(tables) -> list[str]:
    """`tables` with the game tables first (children before parents)."""
    return [t for t in GAME_TABLES if t in tables] + [t for t in tables if t not in GAME_TABLES]


@pytest.fixture(scope="session", autouse=True)
def _flush_by_delete():
    """After a `transaction=True` test the game tables are emptied first, and PostgreSQL's
    tables with DELETE.

    The database refuses to delete an attendance a game still uses (the triggers of
    games/migrations/0002_integrity_triggers.py), and the flush takes the tables in an
    order that changes from run to run: it failed now and then until the game tables went
    first. The foreign keys are checked at the end of the flush's transaction (Django
    declares them DEFERRABLE INITIALLY DEFERRED), so the order matters for those triggers
    only. On PostgreSQL Django empties the tables with one TRUNCATE of every table, which
    gives each of the ~60 tables new files: 0.8 s after every such test, measured, against
    0.1 s for DELETE of the few rows a test leaves. The content types and permissions,
    which no test changes, stay, so the flush need not create them again (post_migrate:
    another 0.2 s). A flush that resets sequences keeps Django's TRUNCATE and post_migrate.
    """
    from django.core.management.commands import flush
    from django.db.backends.postgresql.operations import DatabaseOperations

    # Through the backend's base module: its operations module imports the base (a cycle).
    from django.db.backends.sqlite3.base import DatabaseOperations as SQLiteOperations

    truncate = DatabaseOperations.sql_flush
    sqlite_flush = SQLiteOperations.sql_flush
    emit_post_migrate = flush.emit_post_migrate_signal
    kept = {"django_content_type", "auth_permission"}
    by_delete = [False]  # whether the flush running now deletes (and keeps the kept)

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        by_delete[0] = not reset_sequences and bool(tables)
        if not by_delete[0]:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return ["SET CONSTRAINTS ALL DEFERRED"] + [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(t))}"
            for t in _games_first(tables)
            if t not in kept
        ]

    def sqlite_sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        return sqlite_flush(
            self,
            style,
            _games_first(tables),
            reset_sequences=reset_sequences,
            allow_cascade=allow_cascade,
        )

    def post_migrate(*args, **kwargs):
        if not by_delete[0]:
            emit_post_migrate(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
        patch.setattr(SQLiteOperations, "sql_flush", sqlite_sql_flush)
        patch.setattr(flush, "emit_post_migrate_signal", post_migrate)
        yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests log in hundreds of times; PBKDF2's deliberate slowness only costs time here."""
    from tests.passwords import FAST_HASHERS

    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture(autouse=True)
def _api_not_throttled(settings):
    """The API's throttles (league/club/throttles.py) count per login and address, and
    the tests send many requests from one address: raised far beyond any test. The test of
    the 429 lowers them again."""
    settings.API_THROTTLE_RATES = {"user": "100000/min", "address": "100000/min"}


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache, and no kept read pending to be dropped.

    The books cache is on in tests (league/club/caching.py `in_writer_transaction` does not
    count the transaction a test runs in), and a rolled-back test leaves its kept reads
    under keys the next test meets again: the same ids and data versions, other books.
    With REDIS_URL each xdist worker has its own Redis database (tests/redis_per_worker.py),
    so this empties only the worker's own."""
    from django.core.cache import caches

    from league.club.caching import _superseded

    for cache in caches.all():
        cache.clear()
    # Nor any kept read waiting to be dropped at this thread's next commit: a test in a
    # transaction (rolled back, never committed) leaves its writes' pairs pending, and the
    # next test's first commit would drop that test's own reads of the same ids.
    _superseded.pending = set()


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
def _cache_not_paused():
    """A test that met an unreachable cache pauses every GuardedCache of the process for a
    few seconds (league/club/caching.py): the next test starts with the cache in use."""
    from league.club.caching import GuardedCache

    GuardedCache._paused_until = 0.0
    yield
    GuardedCache._paused_until = 0.0
