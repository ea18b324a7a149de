"""The all-time standings ("Ewige Tabelle"): every season's table added
up, each under its own statutes (the club of tests/league/standings/books.py).
"""

import datetime

from league.standings.all_time import all_time_standings
from tests.league.standings.books import enter_evening, figures, summed_tables


def test_the_figures_are_the_sums_of_the_season_tables_under_their_statutes(club_books):
    standings = all_time_standings(club=club_books["club"])
    total, places = summed_tables(club_books["seasons"])
    for row in standings.rows:
        assert figures(row) == dict(total[row.name]), row.name
        best_place, best_year = min(places[row.name])
        assert (row.best_place, row.best_year) == (best_place, best_year)
        assert row.title_years == [year for place, year in places[row.name] if place == 1]
    for row in standings.guests:
        expected = {**total[row.name], "points": 0}
        assert figures(row) == expected, row.name


def test_the_seasons_statutes_give_the_hand_counted_points(club_books):
    rows = {r.name: r for r in all_time_standings(club=club_books["club"]).rows}
    # Anna +1 + 5 + 0; Bernd -2 + 4 + 7 - 2; Carl 0 + 7 + 5 + 2.
    assert {name: r.points for name, r in rows.items()} == {"Anna": 6, "Bernd": 7, "Carl": 14}
    assert [(r.name, r.place) for r in rows.values()] == [("Carl", 1), ("Bernd", 2), ("Anna", 3)]
    # Titles: Anna 2001, Carl 2002 and 2003; Bernd never first, best 2002 (2nd).
    assert rows["Anna"].title_years == [2001]
    assert rows["Carl"].title_years == [2002, 2003]
    assert (rows["Bernd"].best_year, rows["Bernd"].best_place) == (2002, 2)
    assert (rows["Anna"].seasons, rows["Anna"].evenings_attended) == (3, 3)
    assert rows["Anna"].evenings_absent == 1


def test_guests_are_listed_apart_and_people_who_never_played_not_at_all(club_books):
    standings = all_time_standings(club=club_books["club"])
    assert [g.name for g in standings.guests] == ["Gast"]
    gast = standings.guests[0]
    assert (gast.place, gast.points, gast.titles, gast.best_year) == (None, 0, 0, None)
    assert (gast.seasons, gast.games_lost) == (2, 1)
    assert "Dora" not in {r.name for r in standings.rows}


def test_equal_points_share_a_place_and_more_schock_aus_list_first(club_books):
    # One more 2001 evening (seed 003): Bernd loses the only game, -1: Anna and Bernd 6.
    anna, bernd, carl = club_books["anna"], club_books["bernd"], club_books["carl"]
    enter_evening(club_books["club"], datetime.date(2001, 10, 12), [anna, bernd, carl], [bernd])
    rows = all_time_standings(club=club_books["club"]).rows
    # Anna threw 3 Schock-Aus over the seasons, Bernd none: Anna is listed first.
    assert [(r.name, r.points, r.place) for r in rows] == [
        ("Carl", 14, 1),
        ("Anna", 6, 2),
        ("Bernd", 6, 2),
    ]
