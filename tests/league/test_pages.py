"""The pages of the kitty, the Runden, the club book and the audit trail, with the
permission matrix: member, secretary, outsider from another club, anonymous."""

import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.evenings.models import Evening, SchockAus
from league.club.models import Club, Member
from league.club.services import member_login_set
from league.clubbook.services import club_book_import
from league.ledger.models import Payment
from league.runden.models import RundeGiven
from tests.conftest import SAMPLES
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

ATTENDANCE = (SAMPLES / "club-book-attendance.csv").read_bytes()
GAMES = (SAMPLES / "club-book-games.csv").read_bytes()
CLUB = "Schockclub Sample"


@pytest.fixture
def club():
    club_book_import(club_name=CLUB, attendance=ATTENDANCE, games=GAMES)
    return Club.objects.get(name=CLUB)


def _login(client, member: Member, *, secretary: bool = False):
    member.is_secretary = secretary
    member_login_set(person=member, user=UserFactory(), also_saved=["is_secretary"])
    client.force_login(member.user)
    return member


@pytest.fixture
def secretary(client, club):
    return _login(client, Member.objects.get(club=club, name="Bernd Krause"), secretary=True)


@pytest.fixture
def member(client, club):
    return _login(client, Member.objects.get(club=club, name="Anna Becker"))


@pytest.fixture
def outsider(client, club):
    return _login(client, MemberFactory(club=ClubFactory(name="Anderer Club"), name="Olaf"))


def _evening(club) -> Evening:
    return Evening.objects.get(club=club)


def test_a_member_is_sent_from_the_kitty_to_the_own_account(client, member):
    response = client.get(reverse("ledger_home"))
    assert response.url == reverse("ledger_statement", args=[member.pk])


def test_the_secretary_sees_who_owes_what(client, secretary):
    response = client.get(reverse("ledger_home"))
    assert response.status_code == 200
    assert "Frank Roth" in response.content.decode()
    assert "3,00\u00a0€" in response.content.decode()


def test_anonymous_visitors_are_asked_to_log_in(client, club):
    response = client.get(reverse("ledger_home"))
    assert response.status_code == 302 and "/login/" in response.url


def test_a_member_reads_the_own_statement_line_by_line(client, member):
    response = client.get(reverse("ledger_statement", args=[member.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Spiel 8 verloren am 09.10.2026" in page


def test_a_member_cannot_read_another_members_statement(client, member, club):
    other = Member.objects.get(club=club, name="Frank Roth")
    assert client.get(reverse("ledger_statement", args=[other.pk])).status_code == 403


def test_the_secretary_reads_any_statement(client, secretary, club):
    other = Member.objects.get(club=club, name="Frank Roth")
    response = client.get(reverse("ledger_statement", args=[other.pk]))
    assert "Abwesend am 09.10.2026" in response.content.decode()


def test_an_outsider_cannot_see_the_clubs_statements(client, outsider, club):
    other = Member.objects.get(club=club, name="Frank Roth")
    assert client.get(reverse("ledger_statement", args=[other.pk])).status_code == 404


def test_the_secretary_enters_a_partial_payment(client, secretary, club):
    dieter = Member.objects.get(club=club, name="Dieter Hahn")
    response = client.post(
        reverse("payment_create"),
        {
            "member": dieter.pk,
            "amount": "1,50",
            "paid_on": "2026-10-10",
            "method": "cash",
            "note": "Rest kommt",
        },
    )
    assert response.url == reverse("ledger_statement", args=[dieter.pk])
    payment = Payment.objects.get(member=dieter)
    assert (payment.amount, payment.currency) == (Decimal("1.50"), "EUR")
    assert payment.history.get().history_user == secretary.user


def test_a_member_cannot_enter_payments(client, member):
    assert client.get(reverse("payment_create")).status_code == 403


def test_a_payment_without_a_season_is_refused_on_the_form(client, secretary, club):
    dieter = Member.objects.get(club=club, name="Dieter Hahn")
    response = client.post(
        reverse("payment_create"),
        {"member": dieter.pk, "amount": "1,50", "paid_on": "2030-01-01", "method": "cash"},
    )
    assert response.status_code == 200
    assert not Payment.objects.exists()


def test_the_secretary_cancels_a_payment_visibly(client, secretary, club):
    from league.ledger.services import payment_record

    dieter = Member.objects.get(club=club, name="Dieter Hahn")
    payment = payment_record(
        member=dieter, amount=Decimal("2.00"), paid_on=datetime.date(2026, 10, 10)
    )
    client.post(reverse("payment_cancel", args=[payment.pk]))
    page = client.get(reverse("ledger_statement", args=[dieter.pk])).content.decode()
    assert "Storno: Zahlung" in page


def test_members_see_the_open_runden(client, member):
    page = client.get(reverse("runden_list")).content.decode()
    assert "Anna Becker" in page and "Erik Lange" in page


def test_the_secretary_marks_a_runde_as_given(client, secretary, club):
    sa = SchockAus.objects.get(game__evening__club=club, game__number=3)
    client.post(reverse("runde_given", args=[sa.pk]), {"given_on": "2026-10-16"})
    assert RundeGiven.objects.get(schock_aus=sa).given_on == datetime.date(2026, 10, 16)


def test_a_member_cannot_mark_a_runde_as_given(client, member, club):
    sa = SchockAus.objects.get(game__evening__club=club, game__number=3)
    assert client.post(reverse("runde_given", args=[sa.pk])).status_code == 403


def test_the_secretary_takes_a_runde_back(client, secretary, club):
    sa = SchockAus.objects.get(game__evening__club=club, game__number=3)
    client.post(reverse("runde_given", args=[sa.pk]), {"given_on": "2026-10-16"})
    client.post(reverse("runde_undo", args=[sa.pk]))
    assert not RundeGiven.objects.exists()


def _upload(client, attendance: bytes, games: bytes):
    return client.post(
        reverse("club_book_upload"),
        {
            "attendance": SimpleUploadedFile("a.csv", attendance),
            "games": SimpleUploadedFile("g.csv", games),
        },
    )


def test_the_upload_shows_a_dry_run_with_totals_and_writes_nothing(client, secretary, club):
    attendance = ATTENDANCE.replace(b"2026-10-09", b"2026-10-16")
    games = GAMES.replace(b"2026-10-09", b"2026-10-16")
    response = _upload(client, attendance, games)
    assert response.context["result"].seasons[0].marks_total == 62
    assert Evening.objects.filter(club=club).count() == 1


def test_confirming_the_dry_run_imports_the_files(client, secretary, club, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    attendance = ATTENDANCE.replace(b"2026-10-09", b"2026-10-16")
    games = GAMES.replace(b"2026-10-09", b"2026-10-16")
    token = _upload(client, attendance, games).context["token"]
    client.post(reverse("club_book_confirm", args=[token]))
    assert Evening.objects.filter(club=club).count() == 2
    assert Evening.history.filter(history_user=secretary.user).count() == 1


def test_the_upload_lists_bad_rows_with_file_and_line(client, secretary, club):
    response = _upload(client, ATTENDANCE.replace(b",guest", b",gast"), GAMES)
    page = response.content.decode()
    assert response.context["result"].errors[0].line == 7
    assert "a.csv" in page


def test_a_member_cannot_import(client, member):
    assert client.get(reverse("club_book_upload")).status_code == 403


def test_the_export_downloads_the_club_book(client, secretary):
    response = client.get(reverse("club_book_export", args=["spiele"]))
    assert response.content == GAMES
    assert response["Content-Type"].startswith("text/csv")


def test_the_evening_history_shows_who_changed_a_loser(client, secretary, club):
    from games.evenings.services import game_update

    game = _evening(club).games.get(number=1)
    game_update(game=game, loser=Member.objects.get(club=club, name="Anna Becker"))
    page = client.get(reverse("audit_evening", args=[_evening(club).pk])).content.decode()
    assert "Dieter Hahn</del> → Anna Becker" in page


def test_the_person_history_lists_their_games(client, secretary, club):
    anna = Member.objects.get(club=club, name="Anna Becker")
    response = client.get(reverse("audit_member", args=[anna.pk]))
    assert response.status_code == 200
    assert any("Spiel 8" in line.what for line in response.context["lines"])


def test_the_history_index_renders(client, secretary):
    assert client.get(reverse("audit_index")).status_code == 200


def test_a_member_cannot_browse_the_history(client, member, club):
    assert client.get(reverse("audit_evening", args=[_evening(club).pk])).status_code == 403


def test_an_outsider_cannot_see_another_clubs_evening_history(client, club):
    outsider_member = MemberFactory(club=ClubFactory(name="Anderer Club"), name="Olaf")
    _login(client, outsider_member, secretary=True)
    assert client.get(reverse("audit_evening", args=[_evening(club).pk])).status_code == 404


def test_the_history_shows_who_cancelled_a_payment(client, secretary, club):
    dieter = Member.objects.get(club=club, name="Dieter Hahn")
    client.post(
        reverse("payment_create"),
        {"member": dieter.pk, "amount": "2,00", "paid_on": "2026-10-10", "method": "cash"},
    )
    client.post(reverse("payment_cancel", args=[Payment.objects.get().pk]))
    lines = client.get(reverse("audit_member", args=[dieter.pk])).context["lines"]
    cancelled = [line for line in lines if line.reason == "payment_cancelled"]
    assert [(line.who, line.reason_label) for line in cancelled] == [
        ("Bernd Krause", "Zahlung storniert")
    ]
