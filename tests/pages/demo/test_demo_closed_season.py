"""The demo's last season is closed and signed (league/management/commands/demo.py): the
season close wizard (/saison/<jahr>/abschluss/) shows Anna Becker's valid signature."""

import pytest
from django.urls import reverse

from league.club.models import Season

# On the demo's xdist worker (`make test`: --dist loadgroup), with the package's demo.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("demo")]


def test_the_demo_closes_last_season_with_annas_signature(demo_output, client):
    season = Season.objects.get(club__name="Schockclub Demo", year=2025)
    assert season.closed_at is not None
    assert list(season.sign_offs.values_list("auditor__name", flat=True)) == ["Anna Becker"]
    client.post(reverse("login"), {"username": "anna", "password": "schocken"})
    page = client.get("/saison/2025/abschluss/").content.decode()
    assert "Geprüft von Anna Becker" in page and "gültig" in page
    assert "Saison 2025 abschließen" not in page
