"""The season close wizard (/saison/<jahr>/abschluss/): what it shows,
who may close, reopen and sign, and that the pages of every writer refuse a closed season
in German (never a 500)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from league.closing.models import SeasonSignOff
from league.closing.services import season_close
from league.club.models import Season
from league.ledger.models import Payment
from tests.factories import MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

CLOSED = "Die Saison ist abgeschlossen. Zum Ändern muss sie erst wieder geöffnet werden."
PAGE = "/saison/2026/abschluss/"


@pytest.fixture
def closed(evening, secretary):
    return season_close(season=evening.season, by=secretary, confirm=True)


def test_the_wizard_shows_what_is_open(member_client, evening):
    page = member_client.get(PAGE).content.decode()
    assert "Saisonabschluss 2026" in page
    assert "Unvollständige Abende" in page
    assert "06.03.2026" in page  # 2 of 10 games entered
    assert "2 von 10 Spielen eingetragen" in page
    # Frank Roth (absent) owes 3,00 €: a member reads the open balances' count and sum only.
    assert "Personen mit offenem Saldo" in page
    assert "Frank Roth" not in page
    assert "Saison 2026 abschließen" not in page  # a member does not close


def test_the_wizard_lists_the_objection_time_until_it_ends(member_client, evening):
    import datetime

    import time_machine
    from django.utils import timezone

    page = member_client.get(PAGE).content.decode()
    assert "Einspruchsfrist" in page
    assert "06.03.2026</a>: Einspruch möglich bis" in page
    assert "Der Abschluss der Saison erklärt diese Abende für endgültig" in page
    later = timezone.now() + datetime.timedelta(hours=49)
    with time_machine.travel(later, tick=False):
        page = member_client.get(PAGE).content.decode()
    assert "Einspruch möglich bis" not in page
    assert "Keine: Bei keinem Abend läuft noch eine Einspruchsfrist." in page


def test_the_secretary_closes_after_confirming_the_open_items(secretary_client, evening):
    refused = secretary_client.post(PAGE + "abschliessen/")
    assert refused.status_code == 409
    assert "Trotzdem abschließen" in refused.content.decode()
    assert Season.objects.get(pk=evening.season_id).closed_at is None

    done = secretary_client.post(PAGE + "abschliessen/", {"confirm": "1"}, follow=True)
    assert "Die Saison 2026 ist abgeschlossen." in done.content.decode()
    assert Season.objects.get(pk=evening.season_id).closed_at is not None


def test_reopening_without_a_reason_is_refused_in_german(secretary_client, closed):
    page = secretary_client.post(PAGE + "wiedereroeffnen/", {"reason": " "})
    assert page.status_code == 400
    assert "Bitte den Grund für das Wiederöffnen angeben." in page.content.decode()
    reopened = secretary_client.post(PAGE + "wiedereroeffnen/", {"reason": "Spiel fehlt"})
    assert reopened.status_code == 302
    assert Season.objects.get(pk=closed.pk).closed_at is None
    page = secretary_client.get(PAGE).content.decode()
    assert "wieder geöffnet: „Spiel fehlt“ (bernd)" in page


@pytest.mark.parametrize("action", ["abschliessen/", "wiedereroeffnen/"])
def test_a_member_may_not_close_or_reopen(member_client, closed, action):
    assert member_client.post(PAGE + action, {"confirm": "1", "reason": "x"}).status_code == 403


def test_an_auditor_signs_and_sees_the_signature_break_after_a_change(
    client, member, secretary, closed, evening
):
    client.force_login(member.user)
    page = client.get(PAGE).content.decode()
    assert "Als Kassenprüfer unterschreiben" in page
    signed = client.post(PAGE + "pruefen/", follow=True).content.decode()
    assert "Geprüft von Anna Becker" in signed and "gültig" in signed
    assert "Als Kassenprüfer unterschreiben" not in signed

    client.force_login(secretary.user)
    client.post(PAGE + "wiedereroeffnen/", {"reason": "Spiel fehlt"})
    client.post(f"/abende/{evening.pk}/spiele/", {"number": 3, "loser": member.pk})
    page = client.get(PAGE).content.decode()
    assert "Unterschrift ungültig (Bücher nach der Prüfung geändert)" in page


def test_the_secretary_sees_no_sign_button_and_may_not_sign(secretary_client, closed):
    assert "Als Kassenprüfer unterschreiben" not in secretary_client.get(PAGE).content.decode()
    assert secretary_client.post(PAGE + "pruefen/").status_code == 403
    assert not SeasonSignOff.objects.exists()


def test_another_clubs_season_does_not_exist(client, outsider, closed):
    client.force_login(outsider.user)
    # The outsider's club has its own 2026 (open): the closed one is not theirs.
    page = client.post(PAGE + "wiedereroeffnen/", {"reason": "x"})
    assert page.status_code == 409
    assert "Die Saison ist nicht abgeschlossen." in page.content.decode()
    assert Season.objects.get(pk=closed.pk).closed_at is not None


# --------------------------------------------------------------------------- writers' pages


def test_entering_a_game_into_a_closed_season_is_refused_in_german(
    secretary_client, closed, evening, member
):
    page = secretary_client.post(f"/abende/{evening.pk}/spiele/", {"number": 3, "loser": member.pk})
    assert page.status_code == 200
    assert CLOSED in page.content.decode()
    assert evening.games.count() == 2


def test_a_payment_into_a_closed_season_is_refused_in_german(secretary_client, closed, member):
    form = {"member": member.pk, "amount": "1,00", "paid_on": "2026-03-07", "method": "cash"}
    page = secretary_client.post("/kasse/zahlung/", form)
    assert page.status_code == 200
    assert CLOSED in page.content.decode()
    assert not Payment.objects.exists()


def test_a_runde_given_in_a_closed_season_is_refused_in_german(secretary_client, closed, evening):
    schock_aus = evening.games.get(number=1).schock_aus.get()
    page = secretary_client.post(
        f"/runden/{schock_aus.pk}/gegeben/", {"given_on": "2026-03-07"}, follow=True
    )
    assert page.status_code == 200
    assert CLOSED in page.content.decode()


def test_a_club_book_import_into_a_closed_season_is_refused_in_german(secretary_client, closed):
    files = {
        "attendance": SimpleUploadedFile(
            "a.csv", b"date,name,role\r\n2026-05-08,Bernd Krause,secretary\r\n"
        ),
        "games": SimpleUploadedFile("g.csv", b"date,number,loser,schock_aus\r\n"),
    }
    page = secretary_client.post("/vereinsbuch/import/", files)
    assert page.status_code < 500
    assert CLOSED in page.content.decode()


def test_a_new_evening_in_a_closed_season_is_refused_in_german(secretary_client, closed, member):
    form = {
        "date": "2026-05-08",
        "secretary": closed.closed_by_id,
        f"role_{closed.closed_by_id}": "member",
        f"role_{member.pk}": "member",
    }
    page = secretary_client.post("/abende/neu/", form)
    assert page.status_code == 200
    assert CLOSED in page.content.decode()
    assert closed.evenings.count() == 1


def test_a_guest_with_a_login_may_not_sign(client, club, closed):
    guest = MemberFactory(club=club, name="Gast", kind="guest", user=UserFactory(username="g"))
    client.force_login(guest.user)
    assert client.post(PAGE + "pruefen/").status_code == 403
    assert client.get(PAGE).status_code == 200  # the page stays readable for a guest


def test_the_season_page_links_the_wizard_and_says_when_the_season_is_closed(
    member_client, evening, secretary
):
    assert "/saison/2026/abschluss/" in member_client.get("/saison/2026/").content.decode()
    season_close(season=evening.season, by=secretary, confirm=True)
    assert "Saison abgeschlossen" in member_client.get("/saison/2026/").content.decode()
