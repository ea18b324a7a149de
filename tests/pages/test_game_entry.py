"""The secretary's game entry: next number and Vorleger pre-filled, Post/Redirect/Get back
to the evening ready for the next game, correcting and deleting a game."""

import datetime

import pytest
import time_machine
from django.urls import reverse

from games.evenings.models import Game
from games.evenings.services import evening_create
from tests.pages.html import page_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_evening(season, secretary, member, guest):
    return evening_create(
        club=season.club,
        date=datetime.date(2026, 4, 3),
        secretary=secretary,
        present_members=[secretary, member],
        guests=[guest],
    )


def _entry_form(client, evening):
    return client.get(reverse("evening_detail", args=[evening.pk])).context["form"]


def test_first_game_is_opened_by_the_secretary(secretary_client, fresh_evening, secretary):
    form = _entry_form(secretary_client, fresh_evening)
    assert form.initial == {"number": 1, "vorleger": secretary.pk}


def test_next_game_is_opened_by_the_previous_loser(secretary_client, fresh_evening, guest):
    secretary_client.post(
        reverse("game_entry", args=[fresh_evening.pk]), {"number": 1, "loser": guest.pk}
    )
    form = _entry_form(secretary_client, fresh_evening)
    assert form.initial == {"number": 2, "vorleger": guest.pk}


def test_prefilled_vorleger_is_selected_in_the_page(secretary_client, fresh_evening, guest):
    secretary_client.post(
        reverse("game_entry", args=[fresh_evening.pk]), {"number": 1, "loser": guest.pk}
    )
    html = secretary_client.get(reverse("evening_detail", args=[fresh_evening.pk])).content
    assert f'<option value="{guest.pk}" selected>Gustav Meier</option>'.encode() in html
    assert b'name="number" id="id_number" min="1" inputmode="numeric" required value="2"' in html


def test_saved_game_redirects_back_to_the_entry_form(secretary_client, fresh_evening, member):
    response = secretary_client.post(
        reverse("game_entry", args=[fresh_evening.pk]), {"number": 1, "loser": member.pk}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("evening_detail", args=[fresh_evening.pk]) + "#erfassen"


def test_saved_game_is_confirmed_with_loser_and_schock_aus(
    secretary_client, fresh_evening, member, secretary, guest
):
    response = secretary_client.post(
        reverse("game_entry", args=[fresh_evening.pk]),
        {"number": 1, "loser": member.pk, "schock_aus": [guest.pk, secretary.pk]},
        follow=True,
    )
    message = (
        "Spiel 1 gespeichert: Anna Becker hat verloren. Schock-Aus: Gustav Meier, Bernd Krause."
    )
    assert message in response.content.decode()
    assert response.context["last_game"].number == 1


def test_schock_aus_keep_their_throwing_order(
    secretary_client, fresh_evening, member, secretary, guest
):
    secretary_client.post(
        reverse("game_entry", args=[fresh_evening.pk]),
        {"number": 1, "loser": member.pk, "schock_aus": ["", guest.pk, "", secretary.pk]},
    )
    game = Game.objects.get(evening=fresh_evening)
    assert [sa.thrower for sa in game.schock_aus.order_by("position")] == [guest, secretary]


def test_entry_page_shows_the_warning_of_missing_games(secretary_client, fresh_evening):
    response = secretary_client.get(reverse("evening_detail", args=[fresh_evening.pk]))
    assert "Es fehlen 10 von 10 Spielen." in response.content.decode()


def test_one_game_missing_is_said_in_the_singular(secretary_client, fresh_evening, member):
    for number in range(1, 10):
        secretary_client.post(
            reverse("game_entry", args=[fresh_evening.pk]), {"number": number, "loser": member.pk}
        )
    response = secretary_client.get(reverse("evening_detail", args=[fresh_evening.pk]))
    assert "Es fehlt 1 von 10 Spielen." in response.content.decode()


def test_members_see_the_sheet_without_entry_form(member_client, fresh_evening):
    response = member_client.get(reverse("evening_detail", args=[fresh_evening.pk]))
    assert response.context["form"] is None
    assert b'id="erfassen"' not in response.content


def test_correcting_a_game_changes_loser_and_schock_aus(
    secretary_client, evening, secretary, member, guest
):
    game = evening.games.get(number=2)
    secretary_client.post(
        reverse("game_edit", args=[evening.pk, game.pk]),
        {
            "number": 2,
            "vorleger": member.pk,
            "loser": secretary.pk,
            "schock_aus": [guest.pk],
            "version": game.version,
        },
    )
    game.refresh_from_db()
    assert (game.loser, game.vorleger) == (secretary, member)
    assert [sa.thrower for sa in game.schock_aus.all()] == [guest]


def test_correcting_form_is_filled_with_the_game(secretary_client, evening, secretary):
    game = evening.games.get(number=1)
    form = secretary_client.get(reverse("game_edit", args=[evening.pk, game.pk])).context["form"]
    assert form.initial["schock_aus"] == [secretary.pk]
    assert form.thrower_slots()[0] == {"index": 1, "value": str(secretary.pk)}


def test_deleting_a_game_asks_first(secretary_client, evening):
    game = evening.games.get(number=2)
    response = secretary_client.get(reverse("game_delete", args=[evening.pk, game.pk]))
    assert "Spiel 2 löschen?" in response.content.decode()
    assert Game.objects.filter(pk=game.pk).exists()


def test_deleting_a_game_after_confirmation(secretary_client, evening):
    game = evening.games.get(number=2)
    secretary_client.post(reverse("game_delete", args=[evening.pk, game.pk]))
    assert not Game.objects.filter(pk=game.pk).exists()


def test_new_evening_form_defaults_to_today_and_the_secretary(
    secretary_client, season, secretary, member
):
    # 23:30 UTC is already the next day in Berlin: the form must say the club's today.
    moment = datetime.datetime(season.year, 6, 12, 23, 30, tzinfo=datetime.UTC)
    with time_machine.travel(moment, tick=False):
        form = secretary_client.get(reverse("evening_create")).context["form"]
    assert form.fields["date"].initial == datetime.date(season.year, 6, 13)
    assert form.fields["secretary"].initial == secretary.pk
    assert form[f"role_{member.pk}"].initial == "member"


def test_new_evening_with_existing_guest_and_absent_member(
    secretary_client, season, secretary, member, other_member, guest
):
    response = secretary_client.post(
        reverse("evening_create"),
        {
            "date": "2026-06-05",
            "secretary": secretary.pk,
            "guests": [guest.pk],
            f"role_{secretary.pk}": "member",
            f"role_{member.pk}": "none",
            f"role_{other_member.pk}": "absent",
        },
    )
    evening = season.evenings.get(date=datetime.date(2026, 6, 5))
    assert response["Location"].startswith(reverse("evening_detail", args=[evening.pk]))
    roles = dict(evening.attendances.values_list("member__name", "role"))
    assert roles == {"Bernd Krause": "member", "Frank Roth": "absent", "Gustav Meier": "guest"}


def test_deleting_an_evening_without_games(secretary_client, fresh_evening):
    response = secretary_client.post(reverse("evening_delete", args=[fresh_evening.pk]))
    assert response["Location"] == reverse("season_standings", args=[2026])
    assert not type(fresh_evening).objects.filter(pk=fresh_evening.pk).exists()


def test_entry_form_shows_the_last_game_with_its_schock_aus(
    secretary_client, fresh_evening, member, guest, secretary
):
    secretary_client.post(
        reverse("game_entry", args=[fresh_evening.pk]),
        {"number": 1, "loser": member.pk, "schock_aus": [guest.pk, secretary.pk]},
    )
    response = secretary_client.get(reverse("evening_detail", args=[fresh_evening.pk]))
    text = page_text(response)
    assert (
        "Zuletzt erfasst: Spiel 1 – verloren: Anna Becker; Schock-Aus: Gustav Meier, Bernd Krause"
        in text
    )
