"""The reads of entering an evening: who has a game number, tonight's evening, the
evening on a date, and whether the evening's target count (Abendsoll) is reached; each
in a fixed number of queries."""

import datetime

import pytest

from games.evenings.selectors import (
    club_evening_tonight,
    evening_on_date,
    evening_target_reached,
    game_number_holder,
)
from games.evenings.services import evening_create, game_record
from tests.factories import ClubFactory, MemberFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 10, 9)


@pytest.fixture
def evening():
    club = ClubFactory(name="Heimclub")
    SeasonFactory(club=club, year=2026)
    bernd = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    anna = MemberFactory(club=club, name="Anna Becker")
    evening = evening_create(club=club, date=DAY, secretary=bernd, present_members=[bernd, anna])
    game_record(evening=evening, loser=anna, schock_aus_throwers=[bernd])
    return evening


def test_the_holder_of_a_number_is_named_in_three_queries(evening, django_assert_num_queries):
    with django_assert_num_queries(3):
        holder = game_number_holder(evening=evening, number=1)
    assert holder is not None
    assert (holder["number"], holder["loser_name"]) == (1, "Anna Becker")
    assert holder["schock_aus_names"] == ["Bernd Krause"]
    assert holder["entered_by"] == ""  # recorded outside a request: nobody's login


def test_a_free_number_has_no_holder(evening):
    assert game_number_holder(evening=evening, number=2) is None


def test_tonights_evening_is_read_in_one_query(evening, django_assert_num_queries):
    late = datetime.datetime(2026, 10, 9, 23, 0, tzinfo=datetime.UTC)  # 01:00 in Berlin
    with django_assert_num_queries(1):
        assert club_evening_tonight(club=evening.club, now=late) == evening
    next_noon = datetime.datetime(2026, 10, 10, 10, 0, tzinfo=datetime.UTC)
    assert club_evening_tonight(club=evening.club_id, now=next_noon) is None


def test_the_evening_on_a_date(evening, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert evening_on_date(club=evening.club, date=DAY) == evening
    assert evening_on_date(club=evening.club, date=DAY + datetime.timedelta(days=1)) is None


def test_the_target_count_is_five_games_per_present_member(evening, django_assert_num_queries):
    with django_assert_num_queries(2):
        assert evening_target_reached(evening=evening) == (False, 10)
