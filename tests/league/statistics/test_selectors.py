"""club_statistics against hand counts (tests/league/statistics/conftest.py)."""

import datetime
from decimal import Decimal
from fractions import Fraction

from games.rules.odds import turn_schock_aus_probability
from games.rules.ruleset import PRESETS
from league.club.caching import books_cache_forget
from league.statistics.selectors import HeadToHead, club_statistics

CLUB = PRESETS["club"]


def _people(stats):
    return {p.name: p for p in stats.people}


def test_season_games_losses_and_loss_rate_match_the_hand_count(books):
    people = _people(club_statistics(club=books["club"], season=books["s2025"]))
    assert {n: (p.games, p.losses) for n, p in people.items()} == {
        "Anna": (6, 1),
        "Bernd": (6, 3),
        "Carl": (4, 1),
        "Gast": (2, 1),
    }
    assert people["Anna"].loss_rate == Decimal("16.67")
    assert people["Bernd"].loss_rate == Decimal("50.00")
    assert people["Carl"].loss_rate == Decimal("25.00")


def test_season_schock_aus_and_runden_owed_and_given_match_the_hand_count(books):
    people = _people(club_statistics(club=books["club"], season=books["s2025"]))
    # 2025-10-01: Anna, Carl, Anna -> first and last are Anna's (2); 2025-10-08: Bernd's one.
    assert {n: (p.schock_aus, p.runden_owed, p.runden_given) for n, p in people.items()} == {
        "Anna": (2, 2, 1),
        "Bernd": (1, 1, 0),
        "Carl": (1, 0, 0),
        "Gast": (0, 0, 0),
    }


def test_attendance_counts_present_and_absent_evenings(books):
    people = _people(club_statistics(club=books["club"], season=books["s2025"]))
    assert (people["Carl"].evenings_present, people["Carl"].evenings_absent) == (1, 1)
    assert people["Carl"].attendance_rate == Decimal("50.00")
    assert people["Gast"].evenings_present == 1
    all_time = _people(club_statistics(club=books["club"]))
    assert (all_time["Bernd"].evenings_present, all_time["Bernd"].evenings_absent) == (2, 1)


def test_streaks_match_the_hand_count(books):
    people = _people(club_statistics(club=books["club"], season=books["s2025"]))
    # Anna: won, won, won, lost | won, won; Bernd: L, w, L, w | L, w; Carl: w, L, w, w.
    assert {n: p.longest_without_loss for n, p in people.items()} == {
        "Anna": 3,
        "Bernd": 1,
        "Carl": 2,
        "Gast": 1,
    }
    assert {n: p.longest_present for n, p in people.items()} == {
        "Anna": 2,
        "Bernd": 2,
        "Carl": 1,
        "Gast": 1,
    }
    assert {n: p.longest_schock_aus_evenings for n, p in people.items()} == {
        "Anna": 1,
        "Bernd": 1,
        "Carl": 1,
        "Gast": 0,
    }


def test_all_time_streaks_run_across_seasons(books):
    people = _people(club_statistics(club=books["club"]))
    # Anna threw a Schock-Aus 2025-10-01, none 2025-10-08, one 2026-10-07 -> 1;
    # Anna present at all three evenings -> 3; Anna's games: w w w L | w w | w w L -> 4.
    assert people["Anna"].longest_present == 3
    assert people["Anna"].longest_without_loss == 4
    assert people["Anna"].longest_schock_aus_evenings == 1


def test_records_of_a_season(books):
    records = club_statistics(club=books["club"], season=books["s2025"]).records
    assert records.most_schock_aus_evening.name == "Anna"
    assert records.most_schock_aus_evening.count == 2
    assert records.most_schock_aus_evening.date == datetime.date(2025, 10, 1)
    assert (records.most_losses_evening.name, records.most_losses_evening.count) == ("Bernd", 2)
    # Points (+1 per Schock-Aus, -1 per game lost): Anna 2-1, Bernd 1-3, Carl 1-1.
    assert (records.best_season.name, records.best_season.year) == ("Anna", 2025)
    assert records.best_season.points == 1
    assert records.fastest_game is None  # no game entered round by round in 2025
    assert (records.longest_without_loss.name, records.longest_without_loss.length) == (
        "Anna",
        3,
    )


def test_all_time_records_name_the_fastest_game_and_best_season(books):
    records = club_statistics(club=books["club"]).records
    assert records.fastest_game.rounds == 2
    assert records.fastest_game.date == datetime.date(2026, 10, 7)
    assert records.fastest_game.loser == "Carl"
    # 2026: Anna 1-1 = 0, Carl 0-2; 2025's Anna (1) stays the best season.
    assert (records.best_season.name, records.best_season.year) == ("Anna", 2025)


def test_head_to_head_follows_the_vorleger_chain(books):
    stats = club_statistics(club=books["club"], season=books["s2025"])
    # Vorleger -> loser: Anna->Bernd (10-01 g1, 10-08 g1), Bernd->Carl, Carl->Bernd,
    # Bernd->Anna, Bernd->Gast.
    assert stats.head_to_head == [
        HeadToHead(after="Anna", loser="Bernd", count=2),
        HeadToHead(after="Bernd", loser="Anna", count=1),
        HeadToHead(after="Bernd", loser="Carl", count=1),
        HeadToHead(after="Bernd", loser="Gast", count=1),
        HeadToHead(after="Carl", loser="Bernd", count=1),
    ]


def test_attendance_by_evening(books):
    rows = club_statistics(club=books["club"], season=books["s2025"]).attendance
    assert [
        (r.date, r.secretary, r.members_present, r.guests, r.members_absent, r.games, r.schock_aus)
        for r in rows
    ] == [
        (datetime.date(2025, 10, 1), "Anna", 3, 0, 0, 4, 3),
        (datetime.date(2025, 10, 8), "Anna", 2, 1, 1, 2, 1),
    ]


def test_expected_schock_aus_sums_entered_turns_and_estimates_short_games(books):
    people = _people(club_statistics(club=books["club"], season=books["s2026"]))
    p3 = turn_schock_aus_probability(CLUB, max_attempts=3)
    p2 = turn_schock_aus_probability(CLUB, max_attempts=2)
    # Rounds game: Anna opens round 1 (cap 3) and throws second in round 2 after Carl's 3
    # attempts (cap 3); Carl throws after Anna's 2 attempts (cap 2), then opens (cap 3).
    # Short games 2 and 3: the mean of 2 turns (4 turns / 2 people) at cap 3 each.
    assert people["Anna"].expected_schock_aus == 2 * p3 + 2 * (2 * p3)
    assert people["Carl"].expected_schock_aus == p2 + p3 + 2 * (2 * p3)
    assert people["Anna"].luck == (Decimal(1) - _dec(6 * p3)).quantize(Decimal("0.01"))
    assert people["Carl"].games == 3


def _dec(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def test_without_any_game_entered_round_by_round_luck_is_unknown(books):
    books["rounds_game"].rounds.all().delete()
    people = _people(club_statistics(club=books["club"], season=books["s2025"]))
    assert people["Anna"].expected_schock_aus is None
    assert people["Anna"].luck is None


def test_queries_stay_constant_as_seasons_grow(books, django_assert_num_queries):
    # Cold reads: the per-season parts kept by the first read are forgotten before each.
    with django_assert_num_queries(11):
        club_statistics(club=books["club"])
    books_cache_forget()
    with django_assert_num_queries(11):
        club_statistics(club=books["club"], season=books["s2025"])
    from games.evenings.services import evening_create, game_record
    from league.club.services import season_get_or_create

    for year in (2021, 2022, 2023):
        season_get_or_create(club=books["club"], year=year)
        evening = evening_create(
            club=books["club"],
            date=datetime.date(year, 3, 3),
            secretary=books["anna"],
            present_members=[books["anna"], books["bernd"]],
        )
        game_record(evening=evening, loser=books["bernd"], schock_aus_throwers=[books["anna"]])
    books_cache_forget()
    with django_assert_num_queries(11):
        stats = club_statistics(club=books["club"])
    assert stats.seasons == 5
    assert stats.evenings == 6
