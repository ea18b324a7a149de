"""The books cache is on in the tests: the transaction pytest-django's `db` fixture wraps
around a test (Django's TestCase atomics, marked `_from_testcase`) is not a writer's, so a
read inside it is kept as in production (league/club/caching.py `in_writer_transaction`);
a block a writer opens inside the test still keeps nothing."""

import pytest
from django.db import transaction

from league.club.caching import books_cached, in_writer_transaction

pytestmark = pytest.mark.django_db


def _counting():
    calls: list[int] = []

    def build() -> int:
        calls.append(1)
        return len(calls)

    return build


def test_a_read_inside_the_tests_own_transaction_is_kept():
    build = _counting()
    assert not in_writer_transaction()
    assert books_cached("probe-test-transaction", 1, build=build) == 1
    assert books_cached("probe-test-transaction", 1, build=build) == 1


def test_a_read_inside_a_writers_block_within_the_test_is_computed_each_time():
    build = _counting()
    with transaction.atomic():
        assert in_writer_transaction()
        assert books_cached("probe-writer-block", 1, build=build) == 1
        assert books_cached("probe-writer-block", 1, build=build) == 2
