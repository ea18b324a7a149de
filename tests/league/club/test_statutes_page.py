"""The season's statutes page /saison/<jahr>/satzung/: every member reads
the statutes in German; the secretary changes them, on a season with evenings only after
the confirm step; bad figures are German messages; the statement and the report state the
season's figures instead of fixed ones."""

import datetime

import pytest
from django.urls import reverse

from games.evenings.services import evening_create, game_record
from league.club.models import Season
from league.club.services import member_create, member_login_set, season_create
from league.club.statutes import CLUB_STATUTES, season_statutes
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

FORM = {
    "scoring": "by_rank",
    "points_per_schock_aus": "1",
    "points_per_game_lost": "-1",
    "rank_points": "7, 5, 4, 3, 2, 1",
    "marks_per_game_lost": "1",
    "absence": "average_plus",
    "absence_marks": "6",
    "absence_surcharge": "1",
    "games_per_present_member": "5",
    "mark_eras": "1979 1,00 DM\n2002 0.50 EUR",
    "runden_first": "on",
    "runden_every": "3",
}


@pytest.fixture
def books(client):
    club = ClubFactory(name="Heimclub")
    season = season_create(club=club, year=2026)
    bernd = member_create(club=club, name="Bernd Krause", is_secretary=True)
    anna = member_create(club=club, name="Anna Becker")
    frank = member_create(club=club, name="Frank Roth")
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 10, 9),
        secretary=bernd,
        present_members=[bernd, anna],
        absent_members=[frank],
    )
    game_record(evening=evening, loser=anna)
    for person in (bernd, anna):
        member_login_set(person=person, user=UserFactory())
    return season, bernd, anna


def _url(season) -> str:
    return reverse("season_statutes", args=[season.year])


def test_a_member_reads_the_statutes_in_german(client, books):
    season, _, anna = books
    client.force_login(anna.user)
    page = client.get(_url(season)).content.decode()
    assert "Satzung 2026" in page
    assert "+1 je Schock-Aus" in page
    assert "1 Mark je verlorenem Spiel, 6 Mark je versäumtem Abend eines Vereinsmitglieds." in page
    assert "<form" not in page.split("</header>")[-1] or "Satzung speichern" not in page
    assert client.post(_url(season), FORM).status_code == 403


def test_the_secretary_confirms_a_change_of_a_season_with_evenings(client, books):
    season, bernd, _ = books
    client.force_login(bernd.user)
    asked = client.post(_url(season), FORM)
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "Die Saison hat schon 1 Abende; alle Beträge und Punkte werden neu berechnet." in text
    assert season_statutes(Season.objects.get(pk=season.pk)) == CLUB_STATUTES
    done = client.post(_url(season), {**FORM, "confirm": "1"})
    assert done.status_code == 302
    statutes = season_statutes(Season.objects.get(pk=season.pk))
    assert statutes.rank_points == (7, 5, 4, 3, 2, 1)
    assert (statutes.absence, statutes.absence_surcharge) == ("average_plus", 1)
    assert (statutes.runden_first, statutes.runden_last, statutes.runden_every) == (True, False, 3)
    page = client.get(_url(season)).content.decode()
    assert "Punkte nach dem Platz des Abends: 7/5/4/3/2/1" in page


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("rank_points", "7, fünf", "Bitte ganze Zahlen durch Kommas getrennt eingeben."),
        (
            "rank_points",
            "5, 7",
            "Ein besserer Platz bekommt nie weniger Punkte als ein schlechterer.",
        ),
        ("runden_every", "1000", "muss eine ganze Zahl von 0 bis 100 sein."),
        ("mark_eras", "2002 0.50", "Eine Epoche je Zeile: ab Jahr, Wert, Währung."),
        ("mark_eras", "2²02 0.50 EUR", "Eine Epoche je Zeile: ab Jahr, Wert, Währung."),
        ("rank_points", "7, ²", "Bitte ganze Zahlen durch Kommas getrennt eingeben."),
        ("mark_eras", "2002 0.505 EUR", "Der Wert einer Mark muss größer als null sein"),
    ],
)
def test_bad_figures_are_german_messages(client, books, field, value, message):
    season, bernd, _ = books
    client.force_login(bernd.user)
    response = client.post(_url(season), {**FORM, field: value, "confirm": "1"})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert season_statutes(Season.objects.get(pk=season.pk)) == CLUB_STATUTES


def test_the_statement_states_the_seasons_figures(client, books):
    season, bernd, _ = books
    client.force_login(bernd.user)
    frank = season.club.members.get(name="Frank Roth")
    page = client.get(reverse("ledger_statement", args=[frank.pk])).content.decode()
    assert "1 Mark je verlorenem Spiel, 6 Mark je versäumtem Abend eines Vereinsmitglieds" in page
    client.post(_url(season), {**FORM, "confirm": "1"})
    page = client.get(reverse("ledger_statement", args=[frank.pk])).content.decode()
    assert "der Schnitt des Abends plus 1 Mark je versäumtem Abend" in page
    assert "(6 Mark)" not in page


def test_the_standings_page_states_the_seasons_statutes(client, books):
    season, bernd, _ = books
    client.force_login(bernd.user)
    url = reverse("season_standings", args=[season.year])
    page = client.get(url).content.decode()
    assert "Punkte: +1 je Schock-Aus, −1 je verlorenem Spiel." in page
    assert reverse("season_statutes", args=[season.year]) in page
    client.post(_url(season), {**FORM, "confirm": "1"})
    page = client.get(url).content.decode()
    assert "Punkte nach dem Platz des Abends: 7/5/4/3/2/1" in page
