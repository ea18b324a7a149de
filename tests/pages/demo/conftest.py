"""The demo (league/management/commands/demo.py: two clubs, their members, logins,
payments and simulated evenings of two seasons), entered once for this package: every test
here reads it, and one tests that running the command again changes nothing."""

from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.db import connection, transaction

from tests.pages.demo.demo_rows import DEMO_TODAY, demo_entered


@pytest.fixture(scope="package")
def demo_output(django_db_setup, django_db_blocker) -> Iterator[str]:
    """What `manage.py demo` (run for DEMO_TODAY) printed on its first run into the empty
    database. The demo takes half a minute to build: it is entered once for the tests of
    tests/pages/demo (demo_rows.py: built once per process, copied again where another
    package of the xdist group "demo" built it first), inside a transaction rolled back
    after the package's last test; each test's own writes are rolled back after it, as
    always. The package's modules carry the xdist_group "demo", so `make test` runs them
    one after another on one worker."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            out = demo_entered(DEMO_TODAY)
            # The demo's foreign keys are checked here, once (PostgreSQL defers the checks
            # to the commit): left pending, every test's teardown (SET CONSTRAINTS ALL
            # IMMEDIATE in a savepoint rolled back after it) checked them all again.
            connection.check_constraints()
            yield out
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            for cache in caches.all():
                cache.clear()
