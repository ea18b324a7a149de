"""Who sees which money: a member and a guest read only their own payments, balances and
open amounts; the secretary reads everyone's; a Kassenprüfer reads every balance of the
closed season being audited; a person of another club reads nothing of the club.

The permission matrix walks every page and API read of the route table
(tests/test_query_counts.py ROUTES: a route added to the URL conf joins it there) as a
member, a guest and an outsider, with a distinctive payment (4,321.97 EUR) and balance
(a credit of 4,318.97 EUR) on a fourth person, and asserts neither figure is in any answer.
"""

import datetime
from decimal import Decimal

import pytest
from django.test import Client

from games.evenings.services import evening_create, game_record
from league.closing.models import SeasonSignOff
from league.closing.services import season_close, season_sign_off
from league.club.services import season_get_or_create
from league.ledger.services import payment_record
from league.reports.pdf import (
    build_season_report_pdf,
)
from league.sharing.services import wall_screen_create
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.league.reports.conftest import pdf_text
from tests.test_query_counts import ROUTES

pytestmark = pytest.mark.django_db

PAID = Decimal("4321.97")
# Frank's figures as the pages ("4.321,97 €"), the CSV files ("4321,97") and the API
# ("4321.97") write them: his payment and his balance (3.00 EUR absence charge - PAID).
SECRETS = ("4321,97", "4321.97", "4.321,97", "4318,97", "4318.97", "4.318,97")

READS = {name: build for name, build in ROUTES.items() if build is not None}


def _leaked(body: str) -> list[str]:
    return [secret for secret in SECRETS if secret in body]


@pytest.fixture
def club():
    """A club's season 2026 with one evening: Bernd (secretary), Anna (member), Gustav
    (guest with a login) present, Frank absent; Frank paid PAID, Anna 2.00 EUR. Carla:
    another club."""
    club = ClubFactory(name="Schockclub Geldbeutel")
    people = {
        "secretary": MemberFactory(
            club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bk")
        ),
        "member": MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="ab")),
        "guest": MemberFactory(
            club=club, name="Gustav Meier", kind="guest", user=UserFactory(username="gm")
        ),
        "frank": MemberFactory(club=club, name="Frank Roth", user=UserFactory(username="fr")),
    }
    outsider_club = ClubFactory(name="Kegelclub Nebenan")
    people["outsider"] = MemberFactory(
        club=outsider_club, name="Carla Vogt", user=UserFactory(username="cv")
    )
    season = season_get_or_create(club=club, year=2026)
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 10, 9),
        secretary=people["secretary"],
        present_members=[people["secretary"], people["member"]],
        guests=[people["guest"]],
        absent_members=[people["frank"]],
    )
    games = [
        game_record(evening=evening, loser=people[loser], schock_aus_throwers=throwers)
        for loser, throwers in (
            ("member", [people["secretary"]]),
            ("guest", []),
            ("secretary", [people["member"]]),
        )
    ]
    payment = payment_record(member=people["frank"], amount=PAID, paid_on=evening.date)
    # Anna paid too, so the club's totals are no one person's figures.
    payment_record(member=people["member"], amount=Decimal("2.00"), paid_on=evening.date)
    cast = {
        "club": club.pk,
        "season": season.pk,
        "member": people["frank"].pk,  # every read of one person asks for Frank's
        "evening": evening.pk,
        "game": games[1].pk,
        "payment": payment.pk,
        # the club's wall screen (a secret link, no login): it must show no one's money
        "wall": wall_screen_create(club=club, name="TV")[1],
    }
    return people, cast, season


def _client(member) -> Client:
    client = Client()
    client.force_login(member.user)
    return client


def _body(response) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode("utf-8", "replace")
    return response.content.decode("utf-8", "replace")


@pytest.mark.parametrize("role", ["member", "guest", "outsider"])
def test_no_read_shows_another_persons_payment_or_balance(club, role):
    people, cast, _season = club
    secretary = _client(people["secretary"])
    for url in ("/saison/2026/abschluss/", "/saison/2026/kasse.csv", "/api/v1/balances/"):
        assert _leaked(_body(secretary.get(url.format(**cast))))  # the figures are there
    client = _client(people[role])
    leaks = {}
    for name, build in READS.items():
        response = client.get(build(cast))
        assert response.status_code < 500, (name, response.status_code)
        if leaked := _leaked(_body(response)):
            leaks[name] = leaked
    assert not leaks, f"{role} reads Frank's money on: {leaks}"


def test_a_member_reads_the_open_balances_total_on_the_close_page(club):
    people, _cast, _season = club
    page = _client(people["member"]).get("/saison/2026/abschluss/").content.decode()
    # Anna 0.50 - 2.00 EUR, Bernd and Gustav 0.50 EUR each, Frank 3.00 EUR - PAID.
    assert "-4.319,47" in page
    assert "Frank Roth" not in page


def test_the_close_api_gives_a_member_the_count_and_total_only(club):
    people, cast, _season = club
    data = _client(people["member"]).get(f"/api/v1/seasons/{cast['season']}/close/").json()
    items = data["open_items"]
    assert items["open_balances"] == []
    assert items["open_balance_count"] == 4
    balances = _client(people["secretary"]).get(f"/api/v1/seasons/{cast['season']}/close/")
    every = balances.json()["open_items"]["open_balances"]
    assert Decimal(items["open_balance_total"]) == sum(Decimal(b["balance"]) for b in every)


def test_a_member_downloads_only_the_own_line_of_the_dues_file(club):
    people, _cast, _season = club
    text = _client(people["member"]).get("/saison/2026/kasse.csv").content.decode("utf-8-sig")
    lines = text.strip().splitlines()
    assert len(lines) == 2
    assert lines[1].startswith("Anna Becker;")


def test_a_guest_never_reads_the_balances_of_a_closed_season(club):
    people, cast, season = club
    season_close(season=season, by=people["secretary"], confirm=True)
    client = _client(people["guest"])
    assert not _leaked(client.get("/saison/2026/abschluss/").content.decode())
    assert not _leaked(client.get(f"/api/v1/seasons/{cast['season']}/close/").content.decode())


def test_a_kassenpruefer_reads_the_balances_until_two_auditors_signed(club):
    people, cast, season = club
    season_close(season=season, by=people["secretary"], confirm=True)
    dieter = MemberFactory(club=season.club, name="Dieter Hahn", user=UserFactory(username="dh"))
    assert _leaked(_client(dieter).get("/saison/2026/abschluss/").content.decode())
    season_sign_off(season=season, auditor=people["member"])
    season_sign_off(season=season, auditor=people["frank"])
    assert SeasonSignOff.objects.filter(season=season).count() == 2
    client = _client(dieter)
    assert not _leaked(client.get("/saison/2026/abschluss/").content.decode())
    assert not _leaked(client.get(f"/api/v1/seasons/{cast['season']}/close/").content.decode())
    # The auditors who signed keep reading what they signed.
    assert _leaked(_client(people["member"]).get("/saison/2026/abschluss/").content.decode())


def test_the_season_report_gives_the_paid_and_open_totals_not_each_persons(club):
    _people, _cast, season = club
    text = " ".join(pdf_text(build_season_report_pdf(season=season)).split())
    assert not _leaked(text)
