"""The club-book import ends with ANALYZE of the tables it wrote: thousands of rows in one
transaction would otherwise leave PostgreSQL's planner blind until autovacuum comes by."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.evenings.models import Evening, Game
from league.clubbook.services import club_book_import
from league.ledger.models import LedgerEntry
from tests.conftest import SAMPLES

pytestmark = pytest.mark.django_db


def _analyzed(queries: CaptureQueriesContext) -> str:
    return " ".join(q["sql"] for q in queries if q["sql"].upper().startswith("ANALYZE"))


def test_a_club_book_import_analyzes_the_tables_it_wrote():
    with CaptureQueriesContext(connection) as queries:
        result = club_book_import(
            club_name="Schockclub Sample",
            attendance=(SAMPLES / "club-book-attendance.csv").read_bytes(),
            games=(SAMPLES / "club-book-games.csv").read_bytes(),
        )
    assert result.ok
    analyzed = _analyzed(queries)
    for model in (Evening, Game, LedgerEntry, Game.history.model):
        assert model._meta.db_table in analyzed
