"""Bad input on the secretary's pages: the German message appears at the field where it was
typed, and nothing is saved (not even half)."""

import datetime

import pytest
from django.urls import reverse

from games.evenings.models import Attendance, Evening, Game, SchockAus
from league.club.models import Member

pytestmark = pytest.mark.django_db


def _counts() -> dict:
    return {
        "evenings": Evening.objects.count(),
        "attendances": Attendance.objects.count(),
        "games": Game.objects.count(),
        "schock_aus": SchockAus.objects.count(),
        "people": Member.objects.count(),
    }


def _post_game(client, evening, **data):
    data = {"number": 3, "vorleger": "", **data}
    return client.post(reverse("game_entry", args=[evening.pk]), data)


def _roles(*people, role="member"):
    return {f"role_{p.pk}": role for p in people}


def _post_evening(client, secretary, date, **extra):
    data = {
        "date": date,
        "secretary": secretary.pk,
        "new_guests": "",
        "notes": "",
        **_roles(secretary),
        **extra,
    }
    return client.post(reverse("evening_create"), data)


def test_loser_not_present_is_refused_at_the_loser(secretary_client, evening, member, other_member):
    before = _counts()
    response = _post_game(secretary_client, evening, loser=other_member.pk)
    assert response.status_code == 200
    assert response.context["form"].errors["loser"] == [
        "Frank Roth war an diesem Abend nicht anwesend."
    ]
    assert "Frank Roth war an diesem Abend nicht anwesend." in response.content.decode()
    assert _counts() == before


def test_thrower_not_present_is_refused_at_the_schock_aus(
    secretary_client, evening, member, other_member
):
    before = _counts()
    response = _post_game(
        secretary_client, evening, loser=member.pk, schock_aus=[member.pk, other_member.pk]
    )
    assert response.context["form"].errors["schock_aus"] == [
        "Frank Roth war an diesem Abend nicht anwesend."
    ]
    assert _counts() == before


def test_duplicate_game_number_is_refused_at_the_number(secretary_client, evening, member):
    before = _counts()
    response = _post_game(secretary_client, evening, number=1, loser=member.pk)
    assert response.context["form"].errors["number"] == [
        "Dieser Abend hat schon ein Spiel mit dieser Nummer."
    ]
    assert _counts() == before


def test_unknown_loser_id_is_refused_as_unknown_person(secretary_client, evening):
    before = _counts()
    response = _post_game(secretary_client, evening, loser=987654)
    assert response.context["form"].errors["loser"] == ["Unbekannte Person."]
    assert _counts() == before


def test_person_of_another_club_is_unknown_here(secretary_client, evening, outsider):
    before = _counts()
    response = _post_game(secretary_client, evening, loser=outsider.pk)
    assert response.context["form"].errors["loser"] == ["Unbekannte Person."]
    assert _counts() == before


def test_unknown_thrower_id_is_refused_as_unknown_person(secretary_client, evening, member):
    before = _counts()
    response = _post_game(secretary_client, evening, loser=member.pk, schock_aus=["x1"])
    assert response.context["form"].errors["schock_aus"] == ["Unbekannte Person."]
    assert _counts() == before


def test_one_thrower_twice_in_a_game_is_refused(secretary_client, evening, member):
    before = _counts()
    response = _post_game(
        secretary_client, evening, loser=member.pk, schock_aus=[member.pk, member.pk]
    )
    assert response.context["form"].errors["schock_aus"] == [
        "Anna Becker steht doppelt in der Liste: ein Schock-Aus pro Person und Spiel."
    ]
    assert _counts() == before


def test_missing_loser_asks_for_the_loser(secretary_client, evening):
    before = _counts()
    response = _post_game(secretary_client, evening)
    assert response.context["form"].errors["loser"] == ["Bitte wählen, wer das Spiel verloren hat."]
    assert _counts() == before


def test_date_without_season_is_refused_at_the_date(secretary_client, season, secretary):
    before = _counts()
    response = _post_evening(secretary_client, secretary, "2025-05-01")
    assert response.context["form"].errors["date"] == [
        "Für den 01.05.2025 gibt es keine Saison. Bitte zuerst die Saison anlegen."
    ]
    assert _counts() == before


def test_date_outside_a_shortened_season_is_refused_at_the_date(secretary_client, club, secretary):
    from league.club.services import season_create

    season_create(club=club, year=2027, starts_on=datetime.date(2027, 3, 1))
    before = _counts()
    response = _post_evening(secretary_client, secretary, "2027-02-12")
    assert "Für den 12.02.2027 gibt es keine Saison." in response.context["form"].errors["date"][0]
    assert _counts() == before


def test_moving_an_evening_outside_every_season_is_refused(
    secretary_client, evening, secretary, member, other_member, guest
):
    evening.refresh_from_db()
    data = {
        "date": "2025-01-01",
        "secretary": secretary.pk,
        "guests": [guest.pk],
        "new_guests": "",
        "notes": "",
        "version": evening.version,
        **_roles(secretary, member),
        **_roles(other_member, role="absent"),
    }
    response = secretary_client.post(reverse("evening_edit", args=[evening.pk]), data)
    assert "Für den 01.01.2025 gibt es keine Saison." in response.context["form"].errors["date"][0]
    evening.refresh_from_db()
    assert evening.date == datetime.date(2026, 3, 6)


def test_new_guest_is_not_kept_when_the_evening_is_refused(secretary_client, season, secretary):
    before = _counts()
    response = _post_evening(secretary_client, secretary, "2025-05-01", new_guests="Hannes Neu")
    assert response.status_code == 200
    assert not Member.objects.filter(name="Hannes Neu").exists()
    assert _counts() == before


def test_new_guest_with_a_club_members_name_is_refused_at_the_new_guests(
    secretary_client, season, secretary, member
):
    before = _counts()
    response = _post_evening(secretary_client, secretary, "2026-05-01", new_guests="Anna Becker")
    assert response.context["form"].errors["new_guests"] == ["Anna Becker gibt es schon."]
    assert _counts() == before


def test_unknown_secretary_id_is_refused_at_the_secretary(secretary_client, season, secretary):
    before = _counts()
    data = {"date": "2026-05-01", "secretary": 424242, **_roles(secretary)}
    response = secretary_client.post(reverse("evening_create"), data)
    assert response.context["form"].errors["secretary"] == ["Unbekannte Person."]
    assert _counts() == before


def test_second_evening_on_a_date_is_refused_at_the_date(secretary_client, evening, secretary):
    before = _counts()
    response = _post_evening(secretary_client, secretary, "2026-03-06")
    assert response.context["form"].errors["date"] == ["An diesem Datum gibt es schon einen Abend."]
    assert _counts() == before


def test_absent_secretary_is_refused_at_the_secretary(secretary_client, season, secretary, member):
    before = _counts()
    data = {
        "date": "2026-05-01",
        "secretary": secretary.pk,
        **_roles(member),
        **_roles(secretary, role="absent"),
    }
    response = secretary_client.post(reverse("evening_create"), data)
    assert response.context["form"].errors["secretary"] == [
        "Der Buchführer des Abends muss anwesend sein."
    ]
    assert _counts() == before


def test_making_a_loser_absent_is_refused_at_the_attendance(
    secretary_client, evening, secretary, member, other_member, guest
):
    evening.refresh_from_db()
    data = {
        "date": "2026-03-06",
        "secretary": secretary.pk,
        "guests": [guest.pk],
        "version": evening.version,
        **_roles(secretary),
        **_roles(member, other_member, role="absent"),
    }
    before = _counts()
    response = secretary_client.post(reverse("evening_edit", args=[evening.pk]), data)
    assert (
        response.context["form"]
        .errors["attendance"][0]
        .startswith(f"{member.name} hat Spiel 1 dieses Abends gespielt")
    )
    assert evening.attendances.get(member=member).role == "member"
    assert _counts() == before


def test_correcting_a_game_to_an_absent_loser_keeps_the_game(
    secretary_client, evening, other_member, member
):
    game = evening.games.get(number=1)
    data = {"number": 1, "vorleger": "", "loser": other_member.pk, "version": game.version}
    response = secretary_client.post(reverse("game_edit", args=[evening.pk, game.pk]), data)
    assert response.context["form"].errors["loser"] == [
        "Frank Roth war an diesem Abend nicht anwesend."
    ]
    game.refresh_from_db()
    assert game.loser == member


def test_deleting_an_evening_with_a_runde_given_is_refused_with_a_message(
    secretary_client, evening
):
    # An evening with games goes in one step, but not while a Runde of
    # one of its Schock-Aus is marked as given.
    from league.runden.services import runde_mark_given

    runde_mark_given(schock_aus=SchockAus.objects.get(game__evening=evening), given_on=evening.date)
    response = secretary_client.post(reverse("evening_delete", args=[evening.pk]), follow=True)
    assert Evening.objects.filter(pk=evening.pk).exists()
    assert "die Runde schon gegeben" in response.content.decode()


def test_stale_version_is_refused_with_a_message_on_top(
    secretary_client, evening, secretary, member
):
    data = {
        "date": "2026-03-06",
        "secretary": secretary.pk,
        "version": 1,
        **_roles(secretary, member),
    }
    response = secretary_client.post(reverse("evening_edit", args=[evening.pk]), data)
    assert response.context["form"].non_field_errors() == [
        "Jemand anderes hat das inzwischen geändert. Bitte neu laden und noch einmal eingeben."
    ]
