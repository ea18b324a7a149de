"""Monthly payment reminders with the GiroCode."""

import datetime

import pytest
from django.core import mail

from games.evenings.services import evening_create, game_record
from league.banking.models import PaymentReminder
from league.banking.reminders import payment_reminders_send
from league.banking.services import club_bank_account_set
from league.banking.tasks import send_payment_reminders
from league.club.services import season_get_or_create
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def books():
    club = ClubFactory(name="Erinnerungsclub")
    anna = MemberFactory(club=club, name="Anna", is_secretary=True, user=UserFactory())
    bernd = MemberFactory(
        club=club, name="Bernd", user=UserFactory(username="bernd", email="bernd@example.org")
    )
    carl = MemberFactory(
        club=club, name="Carl", user=UserFactory(username="carl", email="carl@example.org")
    )
    season_get_or_create(club=club, year=2026)
    club_bank_account_set(club=club, holder="Kasse", iban="DE89370400440532013000")
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 10, 9),
        secretary=anna,
        present_members=[anna, bernd, carl],
    )
    # Bernd loses 12 games: 6.00 EUR (above 5.00); Carl 4 games: 2.00 EUR (below).
    for loser in [bernd] * 12 + [carl] * 4:
        game_record(evening=evening, loser=loser)
    return {"club": club, "bernd": bernd, "carl": carl}


def test_a_member_above_the_threshold_gets_one_mail_with_the_girocode(books):
    assert payment_reminders_send(today=datetime.date(2026, 11, 1)) == 1
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["bernd@example.org"]
    assert "Du schuldest der Kasse noch 6,00 EUR" in message.body
    name, content, mimetype = message.attachments[0]
    assert (name, mimetype) == ("girocode-2026.png", "image/png")
    assert content.startswith(b"\x89PNG")


def test_reminders_are_sent_once_a_month(books):
    payment_reminders_send(today=datetime.date(2026, 11, 1))
    assert payment_reminders_send(today=datetime.date(2026, 11, 20)) == 0
    assert len(mail.outbox) == 1
    assert payment_reminders_send(today=datetime.date(2026, 12, 1)) == 1
    assert len(mail.outbox) == 2
    assert PaymentReminder.objects.count() == 2


def test_opt_out_is_respected(books):
    books["bernd"].payment_reminders = False
    books["bernd"].save()
    assert payment_reminders_send(today=datetime.date(2026, 11, 1)) == 0
    assert mail.outbox == []


def test_the_task_sends_them(books, monkeypatch):
    """The task runs in this process (eager) even when REDIS_URL points Celery at a broker:
    the app is configured at import, so the setting is changed on the app itself."""
    from schockclub.celery import app

    monkeypatch.setattr(app.conf, "task_always_eager", True)
    send_payment_reminders.delay()
    assert [m.to for m in mail.outbox] == [["bernd@example.org"]]


def test_a_member_turns_reminders_off_on_the_girocode_page(client, books):
    client.force_login(books["bernd"].user)
    response = client.post("/marken/girocode/", {})
    assert response.status_code == 302
    books["bernd"].refresh_from_db()
    assert books["bernd"].payment_reminders is False
    client.post("/marken/girocode/", {"reminders": "on"})
    books["bernd"].refresh_from_db()
    assert books["bernd"].payment_reminders is True


def test_the_beat_schedule_names_the_task():
    from django.conf import settings

    task = settings.CELERY_BEAT_SCHEDULE["payment-reminders"]["task"]
    assert task == send_payment_reminders.name


def test_the_open_amount_turned_off_by_email_stops_the_monthly_reminder_too(books):
    from league.banking.models import NotificationKind
    from league.banking.services import notification_choice_set

    notification_choice_set(
        member=books["bernd"], kind=NotificationKind.OPEN_AMOUNT, email=False, push=True
    )
    assert payment_reminders_send(today=datetime.date(2026, 11, 1)) == 0
    assert mail.outbox == []


def test_another_kind_turned_off_by_email_keeps_the_monthly_reminder(books):
    from league.banking.models import NotificationKind
    from league.banking.services import notification_choice_set

    bernd = books["bernd"]
    notification_choice_set(
        member=bernd, kind=NotificationKind.EVENING_TOMORROW, email=False, push=True
    )
    notification_choice_set(member=bernd, kind=NotificationKind.OPEN_AMOUNT, email=True, push=False)
    assert payment_reminders_send(today=datetime.date(2026, 11, 1)) == 1
    assert mail.outbox[0].to == ["bernd@example.org"]
