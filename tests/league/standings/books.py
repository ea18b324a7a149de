"""Three seasons under three statutes for the all-time standings' tests.

The club plays 2001 under seed 003's statutes (+1 per Schock-Aus, -1 per lost game; Marks
in DM), 2002 under the Kegelbahn's (points by an evening's rank 7/5/4/...) and 2003 under
its own (+2 per Schock-Aus, -2 per lost game). Anna (the secretary, with a login), Bernd
and Carl are club members, Gast a guest; Dora (a member) never played. Hand-counted points:
Anna +1, 5, 0 (6); Bernd -2, 4 + 7, -2 (7); Carl 0, 7 + 5, +2 (14).
"""

import datetime
from collections import defaultdict

from games.evenings.services import evening_create, game_record
from league.club.services import season_get_or_create, season_statutes_update
from league.standings.selectors import season_standings
from tests.factories import ClubFactory, MemberFactory, UserFactory

KEGELBAHN = {
    "scoring": {"mode": "by_rank", "rank_points": [7, 5, 4, 3, 2, 1]},
    "absence": {"mode": "average_plus", "surcharge": 1},
    "runden": {"first": True, "last": False, "every": 3, "shift": False},
}
DOUBLE = {"scoring": {"mode": "per_event", "points_per_schock_aus": 2, "points_per_game_lost": -2}}


def enter_evening(club, day, present, losers, throwers=None, guests=(), absent=()):
    evening = evening_create(
        club=club,
        date=day,
        secretary=present[0],
        present_members=list(present),
        guests=list(guests),
        absent_members=list(absent),
    )
    throwers = throwers or {}
    for n, loser in enumerate(losers):
        game_record(evening=evening, loser=loser, schock_aus_throwers=throwers.get(n, []))
    return evening


def three_seasons() -> dict:
    """The club of the module's docstring, entered through the services."""
    club = ClubFactory(name="Ewiger Club")
    anna = MemberFactory(
        club=club, name="Anna", is_secretary=True, user=UserFactory(username="anna-ewig")
    )
    bernd = MemberFactory(club=club, name="Bernd")
    carl = MemberFactory(club=club, name="Carl")
    gast = MemberFactory(club=club, name="Gast", kind="guest")
    MemberFactory(club=club, name="Dora")
    s2001 = season_get_or_create(club=club, year=2001)
    s2002 = season_statutes_update(
        season=season_get_or_create(club=club, year=2002), statutes=KEGELBAHN
    )
    s2003 = season_statutes_update(
        season=season_get_or_create(club=club, year=2003), statutes=DOUBLE
    )
    # 2001: Anna 2 Schock-Aus, 1 lost (+1); Bernd 2 lost (-2); Carl 1 lost, 1 Schock-Aus (0).
    enter_evening(
        club,
        datetime.date(2001, 10, 5),
        [anna, bernd, carl],
        [bernd, anna, carl, bernd],
        throwers={0: [anna], 1: [anna, carl]},
        guests=[gast],
    )
    # 2002 by rank: evening 1 Carl 0 lost (7), Anna 1 (5), Bernd 2 (4); evening 2 with Anna
    # absent: Bernd 0 (7), Carl 1 (5).
    enter_evening(club, datetime.date(2002, 10, 4), [anna, bernd, carl], [anna, bernd, bernd])
    enter_evening(
        club,
        datetime.date(2002, 10, 11),
        [bernd, carl],
        [carl, gast],
        guests=[gast],
        absent=[anna],
    )
    # 2003 double: Anna 1 Schock-Aus 1 lost (0); Bernd 1 lost (-2); Carl 1 Schock-Aus (+2).
    enter_evening(
        club,
        datetime.date(2003, 10, 3),
        [anna, bernd, carl],
        [anna, bernd],
        throwers={0: [carl], 1: [anna]},
    )
    return {
        "club": club,
        "anna": anna,
        "bernd": bernd,
        "carl": carl,
        "gast": gast,
        "seasons": [s2001, s2002, s2003],
    }


def summed_tables(seasons):
    """Per person name the figures added up from the season tables, computed here season
    by season with the season selector (independently of the all-time parts)."""
    total = defaultdict(lambda: defaultdict(int))
    places = defaultdict(list)
    for season in seasons:
        table = season_standings(season=season)
        for row in table.rows:
            total[row.member.name]["points"] += row.points
            places[row.member.name].append((row.place, season.year))
        for row in table.everyone:
            figures = total[row.member.name]
            figures["seasons"] += 1 if row.evenings_attended else 0
            figures["evenings_attended"] += row.evenings_attended
            figures["evenings_absent"] += row.evenings_absent
            figures["games_played"] += row.games_played
            figures["games_lost"] += row.games_lost
            figures["schock_aus"] += row.schock_aus
    return total, places


def figures(row):
    return {
        "points": row.points,
        "seasons": row.seasons,
        "evenings_attended": row.evenings_attended,
        "evenings_absent": row.evenings_absent,
        "games_played": row.games_played,
        "games_lost": row.games_lost,
        "schock_aus": row.schock_aus,
    }
