"""The entry page on a phone: a game number that is not the next one is
saved only after a question, a complete evening says so, an evening with its games goes in
one step, and the Runden page marks all of an evening's Runden given at once."""

import datetime

import pytest
from django.urls import reverse

from games.evenings.models import Evening, Game
from games.evenings.services import game_record
from league.ledger.models import LedgerEntry
from league.runden.models import RundeGiven
from tests.pages.html import page_text

pytestmark = pytest.mark.django_db


def _post_game(client, evening, loser, number, **extra):
    data = {"number": number, "loser": loser.pk, "vorleger": "", **extra}
    return client.post(reverse("game_entry", args=[evening.pk]), data)


def test_a_skipped_game_number_is_asked_about_and_not_saved(secretary_client, evening, member):
    response = _post_game(secretary_client, evening, member, 99)
    assert response.status_code == 200
    text = page_text(response)
    assert "Spiel 99? Das nächste Spiel dieses Abends ist Spiel 3" in text
    assert "Ja, als Spiel 99 speichern" in text
    assert not evening.games.filter(number=99).exists()


def test_a_skipped_game_number_is_saved_once_confirmed(secretary_client, evening, member):
    response = _post_game(secretary_client, evening, member, 99, confirm_number="1")
    assert response.status_code == 302
    assert evening.games.filter(number=99).exists()


def test_the_next_game_number_needs_no_question(secretary_client, evening, member):
    assert _post_game(secretary_client, evening, member, 3).status_code == 302


def test_a_repeated_game_number_is_refused(secretary_client, evening, member):
    response = _post_game(secretary_client, evening, member, 2, confirm_number="1")
    assert response.status_code == 200
    assert evening.games.count() == 2


def test_a_complete_evening_says_so_and_offers_the_sheet(secretary_client, evening, member):
    # two present club members: 10 games make the evening
    for _n in range(8):
        game_record(evening=evening, loser=member)
    response = secretary_client.get(reverse("evening_detail", args=[evening.pk]))
    html = response.content.decode()
    assert "Abend vollständig: 10 von 10 Spielen" in page_text(response)
    assert reverse("evening_sheet_pdf", args=[evening.pk]) in html


def test_an_incomplete_evening_does_not_say_complete(secretary_client, evening):
    text = page_text(secretary_client.get(reverse("evening_detail", args=[evening.pk])))
    assert "Abend vollständig" not in text


def test_the_delete_page_names_what_goes(secretary_client, evening):
    text = page_text(secretary_client.get(reverse("evening_delete", args=[evening.pk])))
    assert "2 Spiele" in text
    assert "1 Schock-Aus" in text
    assert "die Anwesenheit von 4 Personen" in text


def test_an_evening_with_games_is_deleted_in_one_step(secretary_client, evening):
    charged = LedgerEntry.objects.filter(season=evening.season).count()
    evening.refresh_from_db()
    response = secretary_client.post(
        reverse("evening_delete", args=[evening.pk]), {"version": evening.version}
    )
    assert response.status_code == 302
    assert not Evening.objects.filter(pk=evening.pk).exists()
    assert not Game.objects.filter(evening_id=evening.pk).exists()
    assert charged and LedgerEntry.objects.filter(season=evening.season).count() > charged


def test_deleting_with_a_stale_version_is_refused(secretary_client, evening, member):
    evening.refresh_from_db()
    version = evening.version
    game_record(evening=evening, loser=member)
    secretary_client.post(reverse("evening_delete", args=[evening.pk]), {"version": version})
    assert Evening.objects.filter(pk=evening.pk).exists()


def test_a_member_cannot_delete_an_evening(member_client, evening):
    member_client.post(reverse("evening_delete", args=[evening.pk]), {"version": evening.version})
    assert Evening.objects.filter(pk=evening.pk).exists()


def _evening_with_runden(evening, secretary, member):
    # three Schock-Aus: the first and the last owe a Runde
    game_record(evening=evening, loser=member, schock_aus_throwers=[member])
    game_record(evening=evening, loser=member, schock_aus_throwers=[secretary])
    return evening


def test_the_runden_page_marks_all_of_an_evening_given(
    secretary_client, evening, secretary, member
):
    _evening_with_runden(evening, secretary, member)
    page = page_text(secretary_client.get(reverse("runden_list") + "?saison=2026"))
    assert "2 Runden offen" in page
    response = secretary_client.post(
        reverse("runden_evening_given", args=[evening.pk]), {"given_on": "2026-03-07"}
    )
    assert response.status_code == 302
    given = RundeGiven.objects.filter(schock_aus__game__evening=evening)
    assert given.count() == 2
    assert {g.given_on for g in given} == {datetime.date(2026, 3, 7)}
    assert all(g.history.count() == 1 for g in given)


def test_marking_all_given_twice_marks_nothing_more(secretary_client, evening, secretary, member):
    _evening_with_runden(evening, secretary, member)
    url = reverse("runden_evening_given", args=[evening.pk])
    secretary_client.post(url, {"given_on": "2026-03-07"})
    secretary_client.post(url, {"given_on": "2026-03-08"})
    assert RundeGiven.objects.filter(schock_aus__game__evening=evening).count() == 2


def test_runden_cannot_be_given_before_the_evening(secretary_client, evening, secretary, member):
    _evening_with_runden(evening, secretary, member)
    url = reverse("runden_evening_given", args=[evening.pk])
    secretary_client.post(url, {"given_on": "2026-03-01"})
    assert not RundeGiven.objects.filter(schock_aus__game__evening=evening).exists()


def test_a_member_cannot_mark_all_runden_given(member_client, evening, secretary, member):
    _evening_with_runden(evening, secretary, member)
    member_client.post(reverse("runden_evening_given", args=[evening.pk]))
    assert not RundeGiven.objects.exists()
