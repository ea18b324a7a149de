"""The all-time records of the season report come from the books cache while the club's
books version is the same, and are counted anew after any change.

These tests run outside a transaction (`transaction=True`): inside one, nothing is cached
(league/club/caching.py)."""

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.evenings.services import game_record
from league.club.services import member_update
from league.reports import selectors
from league.reports.selectors import (
    club_records,
    club_records_cached,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def counted(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = selectors.club_records

    def counting(**kwargs):
        calls.append(1)
        return real(**kwargs)

    monkeypatch.setattr(selectors, "club_records", counting)
    return calls


def test_the_records_are_counted_once_while_the_books_stay_the_same(sample_season, monkeypatch):
    season = sample_season.season
    calls = counted(monkeypatch)
    first = club_records_cached(club=season.club, up_to_year=season.year)
    with CaptureQueriesContext(connection) as queries:
        again = club_records_cached(club=season.club, up_to_year=season.year)
    assert calls == [1]
    assert len(queries) == 1  # the books version
    assert again == first == club_records(club=season.club, up_to_year=season.year)


def test_the_records_are_counted_anew_after_a_game_is_recorded(sample_season, monkeypatch):
    season, evening = sample_season.season, sample_season
    before = club_records_cached(club=season.club, up_to_year=season.year)
    loser = evening.attendances.filter(role="member").first().member
    for number in range(evening.games.count() + 1, evening.games.count() + 9):
        with transaction.atomic():
            game_record(evening=evening, number=number, loser=loser)
    after = club_records_cached(club=season.club, up_to_year=season.year)
    assert after == club_records(club=season.club, up_to_year=season.year)
    lost = {r.key: r for r in after[0]}["lost_evening"]
    assert lost != {r.key: r for r in before[0]}["lost_evening"]
    assert any(loser.name in holder for holder in lost.holders)


def test_a_renamed_record_holder_is_shown_with_the_new_name(sample_season):
    season = sample_season.season
    records, _champions, _first = club_records_cached(club=season.club, up_to_year=season.year)
    holder = records[0].holders[0].split(" (")[0]
    member = season.club.members.get(name=holder)
    with transaction.atomic():
        member_update(member=member, name="Aaron Neu")
    records, _champions, _first = club_records_cached(club=season.club, up_to_year=season.year)
    holders = " ".join(h for r in records for h in r.holders)
    assert "Aaron Neu" in holders and f"{holder} (" not in holders


def test_inside_a_transaction_the_records_are_counted_and_not_stored(sample_season, monkeypatch):
    season = sample_season.season
    calls = counted(monkeypatch)
    with transaction.atomic():
        club_records_cached(club=season.club, up_to_year=season.year)
    club_records_cached(club=season.club, up_to_year=season.year)
    assert calls == [1, 1]
