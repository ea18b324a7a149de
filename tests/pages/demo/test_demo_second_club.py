"""The demo's second club: it keeps other statutes (points by an
evening's rank 7/5/4/3/2/1, an absence at the evening's average plus one Mark, Runden for
the first and every third Schock-Aus), a season of its books entered through the
services, and a login for its secretary; the first demo club keeps seed 003's statutes."""

from collections import Counter
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.urls import reverse

from games.evenings.models import Attendance, Evening, Game
from league.club.models import Season
from league.club.statutes import CLUB_STATUTES, Statutes, season_statutes
from league.ledger.models import LedgerEntry
from league.management.commands.demo import SECOND_CLUB, SECOND_STATUTES
from league.runden.selectors import season_runden
from league.standings.selectors import season_standings

# On the demo's xdist worker (`make test`: --dist loadgroup), early.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("demo")]


@pytest.fixture
def demo(demo_output):
    """The demo, built once for tests/pages/demo (conftest.py)."""
    return demo_output


def test_the_second_club_keeps_its_own_statutes_and_the_first_seed_003s(demo):
    assert "kegel / schocken" in demo
    second = Season.objects.get(club__name=SECOND_CLUB, year=2026)
    assert season_statutes(second) == Statutes.from_data(SECOND_STATUTES)
    for season in Season.objects.filter(club__name="Schockclub Demo"):
        assert season_statutes(season) == CLUB_STATUTES


def test_its_standings_dues_and_runden_follow_its_statutes(demo):
    season = Season.objects.get(club__name=SECOND_CLUB, year=2026)
    evenings = list(Evening.objects.filter(season=season))
    assert len(evenings) == 3
    table = season_standings(season=season)
    # By rank every evening gives 7 to its best (fewest lost): nobody goes below zero.
    assert all(row.points >= 0 for row in table.rows)
    assert table.rows[0].points >= 7
    for evening in evenings:
        present = set(
            Attendance.objects.filter(evening=evening, role="member").values_list(
                "member_id", flat=True
            )
        )
        lost = Counter(Game.objects.filter(evening=evening).values_list("loser_id", flat=True))
        by_members = sum(n for member_id, n in lost.items() if member_id in present)
        expected = (
            int((Decimal(by_members) / len(present)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
            + 1
        )
        charges = LedgerEntry.objects.filter(
            evening_id_ref=evening.pk, kind=LedgerEntry.Kind.ABSENCE, reversed_by__isnull=True
        )
        absent = Attendance.objects.filter(evening=evening, role="absent").count()
        assert list(charges.values_list("marks", flat=True)) == [expected] * absent
    reasons = {r["reason"] for r in season_runden(season=season)}
    assert "last" not in reasons
    assert all(r["ordinal"] == 1 or r["ordinal"] % 3 == 0 for r in season_runden(season=season))


def test_its_secretary_reads_the_statutes_page(client, demo):
    client.post(reverse("login"), {"username": "kegel", "password": "schocken"})
    page = client.get(reverse("season_statutes", args=[2026])).content.decode()
    assert "Punkte nach dem Platz des Abends: 7/5/4/3/2/1" in page
    assert "Satzung speichern" in page
