"""Reminders that respect the night (league/banking/notifications.py): by e-mail (Django's
mail outbox) and web push (pywebpush's webpush replaced by a fake push service), as each
person chooses per kind; none in the quiet hours 22 to 8 (held until 8); one a week per
person and kind; a signed one-tap unsubscribe link."""

import datetime
import json
import re
from zoneinfo import ZoneInfo

import pytest
import pywebpush
import time_machine
from django.conf import settings
from django.core import mail
from django.test import Client

from games.evenings.services import objection_answer, objection_create
from league.banking.models import NotificationChoice, NotificationSent, PushSubscription
from league.banking.notifications import notifications_send

pytestmark = pytest.mark.django_db

BERLIN = ZoneInfo("Europe/Berlin")
# Thursday: the statutes' evening is on Fridays, so "evening tomorrow" falls due.
THURSDAY = datetime.datetime(2026, 11, 26, 9, 0, tzinfo=BERLIN)
ENDPOINT = "https://push.example.org/send/anna"


class FakePushService:
    """Stands in for pywebpush.webpush: records each push, or fails with `status`."""

    def __init__(self):
        self.sent: list[dict] = []
        self.status: int | None = None

    def __call__(self, subscription_info, data, **kwargs):
        if self.status is not None:
            response = type("Response", (), {"status_code": self.status})()
            raise pywebpush.WebPushException("gone", response=response)
        self.sent.append({"endpoint": subscription_info["endpoint"], **json.loads(data)})


@pytest.fixture
def push(monkeypatch, settings):
    settings.VAPID_PRIVATE_KEY = "test-key"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    fake = FakePushService()
    monkeypatch.setattr(pywebpush, "webpush", fake)
    return fake


@pytest.fixture
def anna(cast, api):
    """Anna (a member with a login) with an e-mail address and a subscribed browser; the
    other logins have no e-mail address and no browser."""
    user = cast.member.user
    user.email = "anna@example.org"
    user.save()
    answer = api("member").post(
        "/api/v1/push-subscriptions/",
        {"endpoint": ENDPOINT, "keys": {"p256dh": "BNcR", "auth": "tBHI"}},
        format="json",
    )
    assert answer.status_code == 201
    return cast.member


def send_at(moment: datetime.datetime) -> int:
    with time_machine.travel(moment, tick=False):
        return notifications_send()


def test_the_evening_of_tomorrow_is_mailed_and_pushed(push, anna):
    assert send_at(THURSDAY) == 1
    [message] = mail.outbox
    assert message.to == ["anna@example.org"]
    assert "Morgen um 20:00 ist der Schockabend von Heimclub." in message.body
    assert [p["endpoint"] for p in push.sent] == [ENDPOINT]
    assert push.sent[0]["title"] == "Schockabend morgen"


def test_each_kind_is_sent_once_a_week(push, anna):
    send_at(THURSDAY)
    assert send_at(THURSDAY + datetime.timedelta(hours=3)) == 0
    assert len(mail.outbox) == 1 and len(push.sent) == 1
    assert NotificationSent.objects.filter(member=anna).count() == 1
    # The next week's Thursday: told again.
    assert send_at(THURSDAY + datetime.timedelta(weeks=1)) == 1


def test_nothing_is_sent_in_the_quiet_hours_and_it_is_held_until_eight(push, anna):
    for hour in (22, 23):
        assert send_at(THURSDAY.replace(day=25, hour=hour)) == 0
    for hour in (0, 3, 7):
        assert send_at(THURSDAY.replace(hour=hour, minute=59)) == 0
    assert mail.outbox == [] and push.sent == []
    assert send_at(THURSDAY.replace(hour=8, minute=0)) == 1
    assert len(mail.outbox) == 1


def test_a_person_chooses_the_channel_per_kind(push, anna, api):
    answer = api("member").put(
        "/api/v1/me/notifications/",
        {"choices": [{"kind": "evening_tomorrow", "email": False, "push": True}]},
        format="json",
    )
    assert answer.status_code == 200
    kinds = {c["kind"]: c for c in answer.json()["choices"]}
    assert kinds["evening_tomorrow"] == {"kind": "evening_tomorrow", "email": False, "push": True}
    assert kinds["open_amount"]["email"] is True
    send_at(THURSDAY)
    assert mail.outbox == []
    assert len(push.sent) == 1


def test_nothing_goes_to_a_person_who_turned_a_kind_off(push, anna, api):
    api("member").put(
        "/api/v1/me/notifications/",
        {"choices": [{"kind": "evening_tomorrow", "email": False, "push": False}]},
        format="json",
    )
    assert send_at(THURSDAY) == 0
    assert mail.outbox == [] and push.sent == []


def test_the_one_tap_unsubscribe_link_turns_the_kind_off(push, anna):
    send_at(THURSDAY)
    [message] = mail.outbox
    url = re.search(r"<(http[^>]+)>", message.extra_headers["List-Unsubscribe"]).group(1)
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert url in message.body
    assert push.sent[0]["unsubscribe"] == url
    path = url.removeprefix(settings.SITE_URL)
    assert Client().get(path).status_code == 200
    answer = Client().post(path, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    choice = NotificationChoice.objects.get(member=anna, kind="evening_tomorrow")
    assert (choice.email, choice.push) == (False, False)
    assert send_at(THURSDAY + datetime.timedelta(weeks=1)) == 0


def test_a_forged_unsubscribe_link_is_not_found(push, anna):
    assert Client().get("/benachrichtigungen/abbestellen/nichts:echt/").status_code == 404


def test_an_answered_objection_is_told_to_its_author(push, anna, cast, settings):
    settings.NOTIFY_QUIET_FROM, settings.NOTIFY_QUIET_UNTIL = 0, 0  # never quiet here
    objection = objection_create(
        evening=cast.evening, game=cast.games[1], by=anna, text="Falscher Verlierer"
    )
    objection_answer(objection=objection, by=cast.secretary, outcome="dismissed", reason="nein")
    notifications_send()
    kinds = set(NotificationSent.objects.filter(member=anna).values_list("kind", flat=True))
    assert "objection_answered" in kinds
    assert any("wurde beantwortet: zurückgewiesen" in m.body for m in mail.outbox)


def test_a_subscription_the_push_service_reports_gone_is_deleted(push, anna):
    push.status = 410
    send_at(THURSDAY)
    assert not PushSubscription.objects.exists()
    assert len(mail.outbox) == 1


def test_a_push_subscription_needs_an_https_endpoint(api, cast):
    answer = api("member").post(
        "/api/v1/push-subscriptions/",
        {"endpoint": "http://push.example.org/x", "keys": {"p256dh": "a", "auth": "b"}},
        format="json",
    )
    assert answer.status_code == 400
    assert not PushSubscription.objects.exists()


def test_beat_sends_the_reminders_hourly():
    entry = settings.CELERY_BEAT_SCHEDULE["notifications"]
    assert entry["task"] == "league.banking.tasks.send_notifications"
    assert entry["schedule"] == 3600


def test_a_person_sets_the_choices_and_revokes_the_calendar_link_on_the_page(cast, api):
    client = Client()
    client.force_login(cast.member.user)
    old = api("member").get("/api/v1/me/").json()["calendar_url"]
    page = client.get("/benachrichtigungen/").content.decode()
    assert "Erinnerungen" in page and old in page
    client.post("/benachrichtigungen/", {"open_amount-email": "on"})
    choices = {
        c.kind: (c.email, c.push) for c in NotificationChoice.objects.filter(member=cast.member)
    }
    assert choices["open_amount"] == (True, False)
    assert choices["season_closed"] == (False, False)
    client.post("/benachrichtigungen/", {"action": "revoke"})
    assert Client().get(old).status_code == 404
    assert api("member").get("/api/v1/me/").json()["calendar_url"] != old


def test_nothing_goes_to_a_locked_login_or_a_suspended_club(push, anna):
    from league.club.services import club_suspend, login_lock

    login_lock(person=anna)
    assert send_at(THURSDAY) == 0
    login_lock(person=anna, locked=False)
    club_suspend(club=anna.club)
    assert send_at(THURSDAY) == 0
    assert mail.outbox == [] and push.sent == []


def test_reminders_turned_off_on_the_girocode_page_stop_the_weekly_open_amount(push, anna, cast):
    from games.evenings.services import game_record

    for _ in range(12):  # 6.00 EUR open: above the reminder's threshold
        game_record(evening=cast.evening, loser=anna)
    anna.payment_reminders = False
    anna.save()
    send_at(THURSDAY)
    sent = NotificationSent.objects.filter(member=anna).values_list("kind", flat=True)
    assert "open_amount" not in set(sent)
    anna.payment_reminders = True
    anna.save()
    send_at(THURSDAY + datetime.timedelta(hours=1))
    assert "open_amount" in set(sent.all())
