"""The demo (league/management/commands/demo.py: two clubs, their members, logins,
payments and simulated evenings of two seasons), built once for this package: every test
here reads it, and one tests that running the command again changes nothing."""

import datetime
import io
from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection, transaction
from django.test import override_settings

DEMO_TODAY = datetime.date(2026, 3, 20)
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="package")
def demo_output(django_db_setup, django_db_blocker) -> Iterator[str]:
    """What `manage.py demo` (run for DEMO_TODAY) printed on its first run into the empty
    database. The demo takes half a minute to build: it is built once for the tests of
    tests/pages/demo, inside a transaction rolled back after the package's last test; each
    test's own writes are rolled back after it, as always. The package's modules carry one
    xdist_group, so `make test` runs them one after another on one worker."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            out = io.StringIO()
            # The hasher every test logs in with (tests/conftest.py).
            with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
                call_command("demo", today=DEMO_TODAY, stdout=out)
            # The demo's foreign keys are checked here, once (PostgreSQL defers the checks
            # to the commit): left pending, every test's teardown (SET CONSTRAINTS ALL
            # IMMEDIATE in a savepoint rolled back after it) checked them all again.
            connection.check_constraints()
            yield out.getvalue()
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            for cache in caches.all():
                cache.clear()
