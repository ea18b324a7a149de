"""The ledger's selectors read in a fixed number of queries, whatever the size of the books."""

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.evenings.services import game_delete
from league.audit.selectors import evening_audit, member_audit
from league.ledger.selectors import (
    club_balances,
    member_statement,
)
from league.ledger.services import (
    payment_record,
)
from league.runden.selectors import (
    runden_overview,
)
from tests.sample import enter_sample_evening_copied

pytestmark = pytest.mark.django_db


def _queries(function) -> int:
    with CaptureQueriesContext(connection) as context:
        function()
    return len(context.captured_queries)


@pytest.fixture
def books(sample_evening):
    """Counts of queries for one evening, then for three, each with a correction and a
    payment."""

    def count(evening, people):
        dieter = people["Dieter Hahn"]
        return {
            "statement": _queries(lambda: member_statement(member=dieter)),
            "balances": _queries(lambda: club_balances(club=evening.club)),
            "runden": _queries(lambda: runden_overview(club=evening.club, status="all")),
            "evening audit": _queries(lambda: evening_audit(evening_id=evening.pk)),
            "member audit": _queries(lambda: member_audit(member=dieter)),
        }

    def add_evening(day: int):
        evening, people = enter_sample_evening_copied(
            sample_evening, date=datetime.date(2026, 10, day)
        )
        game_delete(game=evening.games.get(number=1))
        payment_record(member=people["Dieter Hahn"], amount=Decimal("1.00"), paid_on=evening.date)
        return evening, people

    evening, people = add_evening(9)
    small = count(evening, people)
    add_evening(16)
    add_evening(23)
    return small, count(evening, people)


@pytest.mark.parametrize(
    "selector", ["statement", "balances", "runden", "evening audit", "member audit"]
)
def test_a_selector_reads_as_many_queries_for_three_evenings_as_for_one(books, selector):
    small, large = books
    assert large[selector] == small[selector]
