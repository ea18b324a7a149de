"""The evening at a glance: the home page leads to tonight's evening, a new evening on a
date that has one leads to it, a game beyond the evening's target count (the Abendsoll,
docs/rules.md 5) is asked about on the page and refused by the API unless confirmed, and
the last game can be undone for two minutes (audited, moving the books version)."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from games.evenings.models import Game
from games.evenings.services import UNDO_SECONDS, evening_create, game_record
from league.club.models import Club
from league.ledger.models import LedgerEntry

pytestmark = pytest.mark.django_db

# The evening fixture has two club members present: its target count is 10 games.
TARGET = 10
MARCH_6_EVENING = datetime.datetime(2026, 3, 6, 21, 30, tzinfo=datetime.UTC)


def _fill_to_target(evening, loser) -> None:
    while evening.games.count() < TARGET:
        game_record(evening=evening, loser=loser)


def _post_game(client, evening, loser, **extra):
    number = evening.games.count() + 1
    data = {"number": number, "loser": loser.pk, **extra}
    return client.post(f"/abende/{evening.pk}/spiele/", data)


def test_the_home_page_leads_to_tonights_evening(secretary_client, evening):
    with time_machine.travel(MARCH_6_EVENING):
        page = secretary_client.get("/").content.decode()
    assert f'href="/abende/{evening.pk}/#erfassen"' in page
    assert "Zum heutigen Abend (06.03.2026)" in page


def test_after_midnight_the_home_page_still_leads_to_last_nights_evening(member_client, evening):
    with time_machine.travel(datetime.datetime(2026, 3, 7, 1, 30, tzinfo=datetime.UTC)):
        page = member_client.get("/").content.decode()
    assert f'href="/abende/{evening.pk}/"' in page


def test_the_home_page_names_no_evening_on_a_day_without_one(secretary_client, evening):
    with time_machine.travel(datetime.datetime(2026, 3, 9, 20, 0, tzinfo=datetime.UTC)):
        page = secretary_client.get("/").content.decode()
    assert "Zum heutigen Abend" not in page


def test_a_new_evening_on_a_date_that_has_one_leads_to_it(secretary_client, evening):
    with time_machine.travel(MARCH_6_EVENING):
        page = secretary_client.get("/abende/neu/").content.decode()
    assert "Am 06.03.2026 gibt es schon einen Abend." in page
    assert f'href="/abende/{evening.pk}/#erfassen"' in page


def test_a_new_evening_sent_for_a_taken_date_links_to_that_evening(
    secretary_client, evening, secretary, member
):
    answer = secretary_client.post(
        "/abende/neu/",
        {"date": "2026-03-06", "secretary": secretary.pk, f"role_{member.pk}": "member"},
    )
    page = answer.content.decode()
    assert f'href="/abende/{evening.pk}/#erfassen"' in page


def test_the_game_after_the_target_count_is_asked_about(secretary_client, evening, member):
    _fill_to_target(evening, member)
    answer = _post_game(secretary_client, evening, member)
    page = answer.content.decode()
    assert answer.status_code == 200
    assert "Das Abendsoll ist erreicht - trotzdem speichern?" in page
    assert 'name="confirm_target"' in page
    assert evening.games.count() == TARGET


def test_the_game_after_the_target_count_is_saved_when_confirmed(secretary_client, evening, member):
    _fill_to_target(evening, member)
    answer = _post_game(secretary_client, evening, member, confirm_target="1")
    assert answer.status_code == 302
    assert evening.games.count() == TARGET + 1


def test_the_api_refuses_a_game_beyond_the_target_with_a_stable_code(
    secretary_client, evening, member
):
    _fill_to_target(evening, member)
    body = {"evening": evening.pk, "loser": member.pk}
    answer = secretary_client.post("/api/v1/games/", body, content_type="application/json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "evening_target_reached"
    assert answer.json()["details"] == {"target": TARGET}
    body["beyond_target"] = True
    answer = secretary_client.post("/api/v1/games/", body, content_type="application/json")
    assert answer.status_code == 201
    assert answer.json()["number"] == TARGET + 1


def test_a_taken_number_names_the_game_that_has_it(secretary_client, evening, member, secretary):
    body = {"evening": evening.pk, "number": 1, "loser": secretary.pk}
    answer = secretary_client.post("/api/v1/games/", body, content_type="application/json")
    assert answer.status_code == 409
    details = answer.json()["details"]
    first = evening.games.get(number=1)
    assert details["id"] == first.pk and details["loser_name"] == "Anna Becker"
    assert details["schock_aus_names"] == ["Bernd Krause"]


def test_the_last_game_is_undone_within_two_minutes(secretary_client, evening, secretary, club):
    last = evening.games.get(number=2)
    version = Club.objects.get(pk=club.pk).books_version
    answer = secretary_client.post(f"/abende/{evening.pk}/spiele/{last.pk}/rueckgaengig/")
    assert answer.status_code == 302
    assert not Game.objects.filter(pk=last.pk).exists()
    assert Club.objects.get(pk=club.pk).books_version > version
    record = Game.history.filter(id=last.pk, history_type="-").get()
    assert record.history_user == secretary.user
    reversal = LedgerEntry.objects.get(game_id_ref=last.pk, kind=LedgerEntry.Kind.REVERSAL)
    assert reversal.amount == -LedgerEntry.objects.get(pk=reversal.reverses_id).amount
    page = secretary_client.get(f"/abende/{evening.pk}/").content.decode()
    assert "Spiel 2 rückgängig gemacht." in page


def test_undo_is_refused_after_two_minutes(secretary_client, evening):
    last = evening.games.get(number=2)
    later = timezone.now() + datetime.timedelta(seconds=UNDO_SECONDS + 1)
    with time_machine.travel(later):
        secretary_client.post(f"/abende/{evening.pk}/spiele/{last.pk}/rueckgaengig/")
        page = secretary_client.get(f"/abende/{evening.pk}/").content.decode()
    assert Game.objects.filter(pk=last.pk).exists()
    assert "kann nicht mehr rückgängig gemacht werden" in page


def test_undo_of_a_game_with_a_later_game_is_refused(secretary_client, evening):
    first = evening.games.get(number=1)
    answer = secretary_client.post(f"/api/v1/games/{first.pk}/undo/")
    assert answer.status_code == 409
    assert answer.json()["code"] == "undo_not_last"
    assert Game.objects.filter(pk=first.pk).exists()


def test_the_api_undoes_the_last_game(secretary_client, evening):
    last = evening.games.get(number=2)
    assert secretary_client.post(f"/api/v1/games/{last.pk}/undo/").status_code == 204
    assert evening.games.count() == 1


def test_a_member_cannot_undo_a_game(member_client, evening):
    last = evening.games.get(number=2)
    assert member_client.post(f"/api/v1/games/{last.pk}/undo/").status_code == 403
    assert (
        member_client.post(f"/abende/{evening.pk}/spiele/{last.pk}/rueckgaengig/").status_code
        == 403
    )
    assert Game.objects.filter(pk=last.pk).exists()


def test_the_entry_page_offers_undo_of_the_last_game_until_its_time_is_up(
    secretary_client, evening
):
    last = evening.games.get(number=2)
    page = secretary_client.get(f"/abende/{evening.pk}/").content.decode()
    until = (last.created_at + datetime.timedelta(seconds=UNDO_SECONDS)).isoformat()
    assert f'data-undo-until="{until}"' in page
    assert "Spiel 2 rückgängig machen" in page


def test_an_evening_of_another_day_is_not_tonights(secretary_client, evening, secretary, member):
    evening_create(
        club=evening.club,
        date=datetime.date(2026, 3, 13),
        secretary=secretary,
        present_members=[secretary, member],
    )
    with time_machine.travel(datetime.datetime(2026, 3, 13, 20, 0, tzinfo=datetime.UTC)):
        page = secretary_client.get("/").content.decode()
    assert f'href="/abende/{evening.pk}/#erfassen"' not in page
    assert "Zum heutigen Abend (13.03.2026)" in page
