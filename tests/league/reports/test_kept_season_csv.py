"""The season's CSV files (tabelle, kasse, schock-aus) kept by the club's books version: a repeated
download is served from the cache (fewer queries, the same bytes)
or answered 304 with its ETag; a game, a payment or a rename shows in the very next
download, the formula guard included; another club's member gets their own club's file.

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py).
"""

import datetime
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.services import game_record
from league.club.services import member_update
from league.ledger.services import payment_record

pytestmark = pytest.mark.django_db(transaction=True)

FILES = ["tabelle", "kasse", "schock-aus"]


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def client(member_client):
    member_client.get("/abende/")  # the session's CSRF cookie: the file gets an ETag
    return member_client


def _read(client: Client, url: str):
    """(queries, response) of GET `url`, which must answer 200."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries), response


def _people(sample_season) -> dict:
    return {m.name: m for m in sample_season.club.members.all()}


@pytest.mark.parametrize("kind", FILES)
def test_a_repeated_csv_download_is_kept_and_answers_304_with_its_etag(client, kind):
    url = f"/saison/2026/{kind}.csv"
    cold, first = _read(client, url)
    warm, second = _read(client, url)
    assert warm < cold
    assert second.content == first.content
    assert first.content.startswith("\ufeff".encode())
    assert second["Content-Disposition"] == f'attachment; filename="{kind}-2026.csv"'
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304


def test_a_game_shows_at_once_in_the_kept_standings_and_chronicle(client, sample_season):
    anna = _people(sample_season)["Anna Becker"]
    tabelle, chronik = (
        client.get("/saison/2026/tabelle.csv"),
        client.get("/saison/2026/schock-aus.csv"),
    )
    lines = chronik.content.decode().count("\r\n")

    game_record(evening=sample_season, loser=anna, schock_aus_throwers=[anna])

    again = client.get("/saison/2026/tabelle.csv", headers={"If-None-Match": tabelle["ETag"]})
    assert again.status_code == 200 and again.content != tabelle.content
    assert client.get("/saison/2026/schock-aus.csv").content.decode().count("\r\n") == lines + 1


def test_a_payment_shows_at_once_in_the_kept_kasse_file(client, sample_season):
    anna = _people(sample_season)["Anna Becker"]
    before = client.get("/saison/2026/kasse.csv").content.decode()
    anna_line = next(line for line in before.splitlines() if line.startswith("Anna Becker;"))
    assert anna_line.split(";")[4] == "0,00"  # paid

    payment_record(member=anna, amount=Decimal("1.50"), paid_on=datetime.date(2026, 10, 10))

    after = client.get("/saison/2026/kasse.csv").content.decode()
    anna_line = next(line for line in after.splitlines() if line.startswith("Anna Becker;"))
    assert anna_line.split(";")[4] == "1,50"


def test_a_renamed_person_shows_at_once_with_the_formula_guard(client, sample_season):
    carla = _people(sample_season)["Carla Vogt"]
    assert "Carla Vogt" in client.get("/saison/2026/tabelle.csv").content.decode()

    member_update(member=carla, name="=HYPERLINK(1)")

    text = client.get("/saison/2026/tabelle.csv").content.decode()
    assert ";'=HYPERLINK(1);" in text
    assert "Carla Vogt" not in text


def test_another_clubs_member_gets_their_own_clubs_kept_file(client, outsider_client):
    assert "Anna Becker" in client.get("/saison/2026/tabelle.csv").content.decode()  # kept
    outsider_client.get("/abende/")
    theirs = outsider_client.get("/saison/2026/tabelle.csv")
    assert theirs.status_code == 200
    assert "Anna Becker" not in theirs.content.decode()
    assert outsider_client.get("/saison/2025/tabelle.csv").status_code == 404
