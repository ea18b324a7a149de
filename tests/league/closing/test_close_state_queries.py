"""The close state (league/closing/services.py `season_close_state`) reads the season's
balances once, for the fingerprint and the open items together (its cold read
at 48 seasons)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.closing.selectors import (
    season_close_state,
    season_fingerprint,
    season_open_items,
)
from league.ledger.models import LedgerEntry

pytestmark = pytest.mark.django_db


def _balance_reads(ctx) -> int:
    table = f'FROM "{LedgerEntry._meta.db_table}"'
    return sum(table in q["sql"] and "SUM(" in q["sql"] for q in ctx.captured_queries)


def test_the_close_state_reads_the_balances_once(books):
    with CaptureQueriesContext(connection) as ctx:
        state = season_close_state(season=books.season)
    assert _balance_reads(ctx) == 1
    assert state.fingerprint == season_fingerprint(season=books.season)
    alone = season_open_items(season=books.season)
    assert [b.member.pk for b in state.open_items.open_balances] == [
        b.member.pk for b in alone.open_balances
    ]
    assert state.open_items.open_balances  # the sample evening leaves balances open
