"""The secretary's club administration pages under /verein/: people,
logins, seasons; secretary only; every change through the services, in German."""

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.evenings.models import Game
from league.club.models import Member, Season

pytestmark = pytest.mark.django_db

PAGES = ["club_admin", "club_members", "club_logins", "club_seasons"]


@pytest.mark.parametrize("name", PAGES)
def test_a_member_gets_403_on_the_club_administration(member_client, season, name):
    assert member_client.get(reverse(name)).status_code == 403


@pytest.mark.parametrize("name", PAGES)
def test_a_visitor_is_sent_to_log_in(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", PAGES)
def test_the_secretary_reads_the_club_administration_in_german(secretary_client, season, name):
    response = secretary_client.get(reverse(name))
    assert response.status_code == 200
    assert "/admin/" not in response.content.decode()


def test_another_clubs_person_is_404(secretary_client, outsider):
    response = secretary_client.get(reverse("club_member", args=[outsider.pk]))
    assert response.status_code == 404


def test_the_secretary_adds_a_guest(secretary_client, club):
    response = secretary_client.post(
        reverse("club_members"), {"name": "  Ines   Brandt ", "kind": "guest"}
    )
    assert response.status_code == 302
    assert Member.objects.get(club=club, name="Ines Brandt").is_guest


def test_a_name_the_club_has_is_refused_with_the_name(secretary_client, member):
    response = secretary_client.post(
        reverse("club_members"), {"name": "Anna Becker", "kind": "member"}
    )
    assert response.status_code == 200
    assert "Anna Becker gibt es schon." in response.content.decode()


def test_the_secretary_renames_a_person(secretary_client, member):
    url = reverse("club_member", args=[member.pk])
    secretary_client.post(url, {"rename-name": "Anna Becker-Lange"})
    member.refresh_from_db()
    assert member.name == "Anna Becker-Lange"
    assert member.history.latest().history_user.username == "bernd"


def test_deactivate_and_reactivate(secretary_client, member):
    url = reverse("club_member_action", args=[member.pk])
    secretary_client.post(url, {"action": "deactivate"})
    member.refresh_from_db()
    assert not member.active
    secretary_client.post(url, {"action": "reactivate"})
    member.refresh_from_db()
    assert member.active


def test_a_guest_becomes_a_member(secretary_client, guest):
    secretary_client.post(reverse("club_member_action", args=[guest.pk]), {"action": "to_member"})
    guest.refresh_from_db()
    assert guest.kind == Member.Kind.MEMBER


def test_an_unknown_action_is_404(secretary_client, guest):
    url = reverse("club_member_action", args=[guest.pk])
    assert secretary_client.post(url, {"action": "explode"}).status_code == 404


def test_the_secretary_merges_a_guest_entered_twice(secretary_client, evening, guest, club):
    twice = Member.objects.create(club=club, name="G. Meier", kind="guest")
    url = reverse("club_member", args=[twice.pk])
    response = secretary_client.post(url, {"merge-target": guest.pk, "merge-confirm": "on"})
    assert response.status_code == 302
    assert not Member.objects.filter(pk=twice.pk).exists()


def test_a_merge_of_two_people_at_one_evening_names_them_on_the_page(
    secretary_client, evening, guest, member
):
    url = reverse("club_member", args=[guest.pk])
    response = secretary_client.post(url, {"merge-target": member.pk, "merge-confirm": "on"})
    text = response.content.decode()
    assert response.status_code == 200
    assert "06.03.2026" in text and "Gustav Meier" in text and "Anna Becker" in text
    assert Game.objects.filter(loser=guest).exists()


def test_a_merge_needs_the_confirmation(secretary_client, guest, member):
    url = reverse("club_member", args=[guest.pk])
    response = secretary_client.post(url, {"merge-target": member.pk})
    assert response.status_code == 200
    assert Member.objects.filter(pk=guest.pk).exists()


def test_a_password_posted_with_a_new_login_is_ignored(secretary_client, other_member):
    url = reverse("club_login_new", args=[other_member.pk])
    response = secretary_client.post(
        url, {"username": "frank", "how": "password", "password": "Kneipe-am-Eck-7"}
    )
    assert "Kneipe-am-Eck-7" not in response.content.decode()
    assert "/einladung/" in response.content.decode()
    assert not User.objects.get(username="frank").has_usable_password()


def test_a_taken_user_name_is_refused_with_the_name(secretary_client, other_member):
    url = reverse("club_login_new", args=[other_member.pk])
    response = secretary_client.post(url, {"username": "Anna"})
    assert response.status_code == 200
    assert "Anna" in response.content.decode()


def _invitation(secretary_client, person) -> str:
    url = reverse("club_login_new", args=[person.pk])
    response = secretary_client.post(url, {"username": "frank"})
    match = re.search(r'value="(http://testserver/einladung/[^"]+)"', response.content.decode())
    assert match, response.content.decode()
    return match.group(1).replace("http://testserver", "")


def test_an_invitation_link_lets_the_person_set_a_password_once(
    secretary_client, other_member, client
):
    link = _invitation(secretary_client, other_member)
    secretary_client.logout()
    page = client.get(link)
    assert page.status_code == 200
    password = {"new_password1": "Kneipe-am-Eck-7", "new_password2": "Kneipe-am-Eck-7"}
    assert client.post(link, password).status_code == 302
    assert User.objects.get(username="frank").check_password("Kneipe-am-Eck-7")
    client.logout()
    again = client.get(link)
    assert again.status_code == 404
    assert "Sekretär" in again.content.decode() or "Buchführer" in again.content.decode()


def test_a_bad_invitation_link_is_a_german_404(client):
    response = client.get(reverse("login_invitation_accept", args=["x!", "nonsense"]))
    assert response.status_code == 404


def test_a_locked_login_cannot_log_in(secretary_client, member, client):
    secretary_client.post(
        reverse("club_member_action", args=[member.pk]), {"action": "lock", "back": "logins"}
    )
    member.user.refresh_from_db()
    assert member.user.is_active is False
    secretary_client.logout()
    response = client.post(reverse("login"), {"username": "anna", "password": "geheim-123"})
    assert response.status_code == 200  # the form again, not the redirect of a login
    assert "_auth_user_id" not in client.session


def test_the_only_secretary_cannot_lock_themselves_out(secretary_client, secretary):
    response = secretary_client.post(
        reverse("club_member_action", args=[secretary.pk]), {"action": "lock"}, follow=True
    )
    secretary.user.refresh_from_db()
    assert secretary.user.is_active
    # no login locks itself (the last secretary's lock by anyone else: test_last_secretary)
    assert "deinen eigenen Zugang nicht sperren" in response.content.decode()


def test_make_and_unmake_a_secretary(secretary_client, member):
    url = reverse("club_member_action", args=[member.pk])
    secretary_client.post(url, {"action": "secretary_on", "back": "logins"})
    member.refresh_from_db()
    assert member.is_secretary
    secretary_client.post(url, {"action": "secretary_off", "back": "logins"})
    member.refresh_from_db()
    assert not member.is_secretary


def test_a_guest_cannot_be_secretary(secretary_client, guest):
    secretary_client.post(
        reverse("club_member_action", args=[guest.pk]), {"action": "secretary_on"}
    )
    guest.refresh_from_db()
    assert not guest.is_secretary


def test_the_next_season_follows_the_latest_and_its_mark_value_the_era(secretary_client, season):
    page = secretary_client.get(reverse("season_create"))
    assert 'value="2027"' in page.content.decode()
    response = secretary_client.post(
        reverse("season_create"), {"year": 2027, "rule_preset": "club"}
    )
    assert response.status_code == 302
    new = Season.objects.get(club=season.club, year=2027)
    assert (str(new.mark_value), new.currency) == ("0.50", "EUR")


def test_a_guest_who_joined_stays_a_guest_of_the_evenings_before(secretary_client, evening, guest):
    """Turned into a member, the former guest keeps the guest role of past evenings: the
    evening's page saves unchanged (and the expected games stay those of that evening)."""
    secretary_client.post(reverse("club_member_action", args=[guest.pk]), {"action": "to_member"})
    evening.refresh_from_db()
    page = secretary_client.get(reverse("evening_edit", args=[evening.pk]))
    form = page.context["form"]
    assert guest.pk not in [p.pk for p in form.members]
    data = {
        "date": "2026-03-06",
        "secretary": evening.secretary_id,
        "version": evening.version,
        "new_guests": "",
        "notes": "",
        "guests": [guest.pk],
    }
    for person in form.members:
        data[f"role_{person.pk}"] = form[f"role_{person.pk}"].initial
    response = secretary_client.post(reverse("evening_edit", args=[evening.pk]), data)
    assert response.status_code == 302
    assert evening.attendances.get(member=guest).role == "guest"


def test_locking_a_login_is_in_the_persons_audit_trail(secretary_client, member):
    secretary_client.post(reverse("club_member_action", args=[member.pk]), {"action": "lock"})
    record = member.history.latest()
    assert record.history_change_reason == "login_locked"
    assert record.history_user.username == "bernd"


def test_the_secretary_cannot_merge_their_own_entry_away(secretary_client, secretary, member):
    url = reverse("club_member", args=[secretary.pk])
    response = secretary_client.post(url, {"merge-target": member.pk, "merge-confirm": "on"})
    assert response.status_code == 200
    assert "Dein eigener Eintrag bleibt" in response.content.decode()
    assert Member.objects.filter(pk=secretary.pk).exists()
