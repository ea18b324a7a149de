"""Fixtures of the standings tests."""

import pytest

from tests.copied import copied
from tests.league.standings.books import three_seasons


@pytest.fixture
def club_books(db):
    """Three seasons under three statutes (tests/league/standings/books.py)."""
    return copied("standings three seasons", three_seasons)
