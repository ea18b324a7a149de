"""A club set up from nothing by its secretary, without the admin: the
club and its secretary by `manage.py club_create`, then on the pages: the secretary's own
password through the invitation, a season, members and a guest, a member's login, the
first evening. Nobody is staff; /admin/ is never opened."""

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from games.evenings.models import Evening
from league.club.models import Club, Member, Season

pytestmark = pytest.mark.django_db

PASSWORD = "Kneipe-am-Eck-7"


def _club_create(*args: str) -> str:
    out = io.StringIO()
    call_command("club_create", *args, stdout=out)
    return out.getvalue()


def test_a_secretary_sets_up_a_club_from_nothing(client):
    printed = _club_create(
        "Schockfreunde Süd", "--secretary", "Bernd Krause", "--username", "bernd"
    )
    link = re.search(r"http://127\.0\.0\.1:8000(/einladung/\S+)", printed).group(1)
    # 1. The secretary's own password through the invitation link; logged in after.
    response = client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302
    home = client.get(reverse("home")).content.decode()
    assert "Den Club einrichten" in home
    # 2. The first season.
    response = client.post(reverse("season_create"), {"year": 2026, "rule_preset": "club"})
    assert response.status_code == 302
    season = Season.objects.get(club__name="Schockfreunde Süd")
    assert (season.year, str(season.mark_value), season.currency) == (2026, "0.50", "EUR")
    # 3. Members and a guest.
    for name, kind in [
        ("Anna Becker", "member"),
        ("Carla Vogt", "member"),
        ("Gustav Meier", "guest"),
    ]:
        assert client.post(reverse("club_members"), {"name": name, "kind": kind}).status_code == 302
    people = {m.name: m for m in Member.objects.filter(club=season.club)}
    # The home still lists the first steps, the season ticked, the first evening now a link.
    home = client.get(reverse("home")).content.decode()
    assert "Den Club einrichten" in home and reverse("evening_create") in home
    # 4. A login for Anna: an invitation link (and its QR code) she opens herself.
    response = client.post(
        reverse("club_login_new", args=[people["Anna Becker"].pk]), {"username": "anna"}
    )
    page = response.content.decode()
    anna_link = re.search(r'value="http://testserver(/einladung/[^"]+)"', page).group(1)
    assert 'src="data:image/png;base64,' in page
    # 5. The first evening: Bernd and Anna present, Carla absent, Gustav as guest.
    form = {
        "date": "2026-03-06",
        "secretary": people["Bernd Krause"].pk,
        f"role_{people['Bernd Krause'].pk}": "member",
        f"role_{people['Anna Becker'].pk}": "member",
        f"role_{people['Carla Vogt'].pk}": "absent",
        "guests": [people["Gustav Meier"].pk],
        "new_guests": "",
        "notes": "",
    }
    response = client.post(reverse("evening_create"), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    evening = Evening.objects.get(club=season.club)
    assert evening.attendances.count() == 4
    assert "Den Club einrichten" not in client.get(reverse("home")).content.decode()
    # Anna sets her own password through her invitation, logs in and reads her home.
    client.post(reverse("logout"))
    response = client.post(anna_link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302
    client.post(reverse("logout"))
    response = client.post(reverse("login"), {"username": "anna", "password": PASSWORD})
    assert response.status_code == 302
    assert "Was ich schulde" in client.get(reverse("home")).content.decode()
    assert not Club.objects.filter(name="Schockfreunde Süd", members__user__is_staff=True).exists()


def test_a_club_name_taken_is_refused_in_german():
    _club_create("Schockfreunde Süd", "--secretary", "Bernd Krause", "--username", "bernd")
    with pytest.raises(CommandError, match="gibt es schon"):
        _club_create("Schockfreunde Süd", "--secretary", "Olga", "--username", "olga")


def test_club_create_prints_the_invitation_at_the_sites_address(settings):
    settings.SITE_URL = "https://schock.example.org/"
    printed = _club_create("Schockfreunde Ost", "--secretary", "Olaf", "--username", "olaf")
    assert re.search(r"Invitation: https://schock\.example\.org/einladung/\S+/", printed)
    assert "127.0.0.1" not in printed


def test_club_create_names_the_valid_presets_for_an_unknown_one():
    with pytest.raises(CommandError) as refused:
        _club_create("Schockfreunde West", "--secretary", "W", "--username", "w", "--rules", "foo")
    message = str(refused.value)
    assert "'foo'" in message
    for preset in ("club", "regelwerk2019", "stammtisch", "meisterschaft", "app"):
        assert preset in message
    assert not Club.objects.filter(name="Schockfreunde West").exists()
