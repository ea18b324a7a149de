"""Hand-built seasons for the statistics (every figure of the tests counted by hand).

Season 2025, club members Anna (secretary), Bernd, Carl; guest Gast:
- 2025-10-01, present Anna, Bernd, Carl: games lost by Bernd, Carl, Bernd, Anna (Vorleger
  Anna, Bernd, Carl, Bernd); Schock-Aus: game 1 Anna, game 3 Carl then Anna.
- 2025-10-08, present Anna, Bernd and the guest Gast, Carl absent: games lost by Bernd, Gast
  (Vorleger Anna, Bernd); Schock-Aus: game 2 Bernd.
Season 2026:
- 2026-10-07, present Anna, Carl, Bernd absent: game 1 entered round by round (two rounds,
  lost by Carl), games 2 and 3 short, lost by Carl and Anna; Schock-Aus: game 3 Anna.
Anna's first Schock-Aus of 2025 is marked given.
"""

import datetime

import pytest

from games.evenings.models import Game
from games.evenings.services import evening_create, game_record
from games.rounds.models import Round, RoundThrow
from league.club.services import season_get_or_create
from league.runden.services import runde_mark_given
from tests.copied import copied
from tests.factories import ClubFactory, MemberFactory


@pytest.fixture
def books(db):
    """Two seasons of a small club, entered once per process and copied (tests/copied.py)."""
    return copied("statistics books", _build_books)


def _build_books() -> dict:
    club = ClubFactory(name="Statistikclub")
    anna = MemberFactory(club=club, name="Anna", is_secretary=True)
    bernd = MemberFactory(club=club, name="Bernd")
    carl = MemberFactory(club=club, name="Carl")
    gast = MemberFactory(club=club, name="Gast", kind="guest")
    s2025 = season_get_or_create(club=club, year=2025)
    s2026 = season_get_or_create(club=club, year=2026)
    e1 = evening_create(
        club=club,
        date=datetime.date(2025, 10, 1),
        secretary=anna,
        present_members=[anna, bernd, carl],
    )
    g1 = game_record(evening=e1, loser=bernd, schock_aus_throwers=[anna])
    game_record(evening=e1, loser=carl)
    game_record(evening=e1, loser=bernd, schock_aus_throwers=[carl, anna])
    game_record(evening=e1, loser=anna)
    e2 = evening_create(
        club=club,
        date=datetime.date(2025, 10, 8),
        secretary=anna,
        present_members=[anna, bernd],
        guests=[gast],
        absent_members=[carl],
    )
    game_record(evening=e2, loser=bernd)
    game_record(evening=e2, loser=gast, schock_aus_throwers=[bernd])
    runde_mark_given(schock_aus=g1.schock_aus.get(), given_on=datetime.date(2025, 10, 1))
    e3 = evening_create(
        club=club,
        date=datetime.date(2026, 10, 7),
        secretary=anna,
        present_members=[anna, carl],
        absent_members=[bernd],
    )
    rounds_game = game_record(evening=e3, loser=carl, entry_mode=Game.EntryMode.ROUNDS)
    r1 = Round.objects.create(game=rounds_game, number=1, vorleger=anna, loser=carl, deckel=1)
    RoundThrow.objects.create(
        round=r1, position=1, player=anna, die1=6, die2=6, die3=1, attempts=2, natural=True
    )
    RoundThrow.objects.create(
        round=r1, position=2, player=carl, die1=4, die2=2, die3=1, attempts=2, natural=True
    )
    r2 = Round.objects.create(game=rounds_game, number=2, vorleger=carl, loser=carl, deckel=12)
    RoundThrow.objects.create(
        round=r2, position=1, player=carl, die1=3, die2=2, die3=1, attempts=3, natural=True
    )
    RoundThrow.objects.create(
        round=r2, position=2, player=anna, die1=6, die2=6, die3=6, attempts=1, natural=True
    )
    game_record(evening=e3, loser=carl)
    game_record(evening=e3, loser=anna, schock_aus_throwers=[anna])
    return {
        "club": club,
        "anna": anna,
        "bernd": bernd,
        "carl": carl,
        "gast": gast,
        "s2025": s2025,
        "s2026": s2026,
        "evenings": [e1, e2, e3],
        "rounds_game": rounds_game,
    }
