"""Reminders by e-mail and web push, as each person chooses per kind: an open amount, an
evening tomorrow, an objection answered, a season closed (`NotificationKind`).

Celery beat runs `notifications_send` hourly (settings.CELERY_BEAT_SCHEDULE). Nothing is
sent in the quiet hours (22 to 8 o'clock in the club's zone by default,
settings.NOTIFY_QUIET_FROM / NOTIFY_QUIET_UNTIL): what falls due meanwhile is held, not
dropped, because every run works out again what is due, and the first run after 8
o'clock sends it. Each person hears of each kind at most once a week (Monday to Sunday):
the row `NotificationSent` (unique per person, kind and week) is written in the same
transaction as the e-mail is handed to the mail backend, so a second run, or a second
worker, sends nothing more. Push messages (pywebpush, the site's VAPID keys from the
environment) follow once that row is committed; a subscription the push service reports
gone is deleted. Every e-mail and push message carries a signed one-tap unsubscribe link
for its kind (`notification_unsubscribe_token`); the e-mail also as `List-Unsubscribe`
with `List-Unsubscribe-Post` (RFC 8058), so a mail app unsubscribes in one tap.
"""

from __future__ import annotations

import datetime
import json
import logging
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.evenings.models import Objection
from games.evenings.selectors import club_planned_evenings
from league.banking.models import (
    NotificationChoice,
    NotificationKind,
    NotificationSent,
    PushSubscription,
)
from league.banking.reminders import REMINDER_THRESHOLD
from league.banking.selectors import member_open_seasons, push_endpoint_allowed
from league.club.models import Club, Member, Season
from league.club.scoping import across_clubs, club_scope

logger = logging.getLogger(__name__)

#: How far back an answered objection or a closed season is told of.
RECENT = datetime.timedelta(days=7)
_UNSUBSCRIBE_SALT = "league.banking.notifications.unsubscribe"


@dataclass(frozen=True)
class Notice:
    """One message due: to `member`, of `kind`, its German `title` and `body`, and the
    page it links to (`path`)."""

    member: Member
    kind: str
    title: str
    body: str
    path: str


def is_quiet(at: datetime.datetime) -> bool:
    """Whether `at` (aware) lies in the quiet hours, read in the club's zone: from
    NOTIFY_QUIET_FROM o'clock (22) up to NOTIFY_QUIET_UNTIL o'clock (8), over midnight
    when the first is the larger."""
    hour = timezone.localtime(at).hour
    start, end = settings.NOTIFY_QUIET_FROM, settings.NOTIFY_QUIET_UNTIL
    if start > end:
        return hour >= start or hour < end
    return start <= hour < end


def week_of(day: datetime.date) -> datetime.date:
    """The Monday of the week of `day`: the period a kind is sent once in."""
    return day - datetime.timedelta(days=day.weekday())


def _people():
    """The people messages go to: active, with a login that is not locked, in a club that
    is not suspended."""
    return Member.objects.filter(
        active=True, user__isnull=False, user__is_active=True, club__suspended_at__isnull=True
    ).select_related("user", "club")


def _money(amount: Decimal) -> str:
    return f"{amount:.2f}".replace(".", ",")


def _due_open_amount(now: datetime.datetime) -> list[Notice]:
    notices = []
    # Not to a person who turned payment reminders off on the GiroCode page: one consent
    # (the monthly reminder honours the notification choice the same way).
    for member in _people().filter(kind=Member.Kind.MEMBER, payment_reminders=True):
        total = sum((a for _s, a in member_open_seasons(member=member)), Decimal("0"))
        if total > REMINDER_THRESHOLD:
            notices.append(
                Notice(
                    member,
                    NotificationKind.OPEN_AMOUNT,
                    _("Open amount"),
                    _("You still owe %(total)s EUR to the kitty of %(club)s.")
                    % {"total": _money(total), "club": member.club.name},
                    reverse("my_girocodes"),
                )
            )
    return notices


def _due_evening_tomorrow(now: datetime.datetime) -> list[Notice]:
    tomorrow = timezone.localtime(now).date() + datetime.timedelta(days=1)
    people = list(_people())
    notices = []
    for club in Club.objects.filter(pk__in={p.club_id for p in people}):
        lines = club_planned_evenings(club=club, today=tomorrow, weeks=1)
        planned = [line for line in lines if line.date == tomorrow and not line.cancelled]
        if not planned:
            continue
        starts = timezone.localtime(planned[0].starts)
        for member in (p for p in people if p.club_id == club.pk):
            notices.append(
                Notice(
                    member,
                    NotificationKind.EVENING_TOMORROW,
                    _("Schock evening tomorrow"),
                    _("Tomorrow at %(time)s is the Schock evening of %(club)s.")
                    % {"time": f"{starts:%H:%M}", "club": club.name},
                    "/",
                )
            )
    return notices


def _due_objection_answered(now: datetime.datetime) -> list[Notice]:
    answered = (
        Objection.objects.filter(answered_at__gte=now - RECENT, raised_by__active=True)
        .exclude(raised_by__user__isnull=True)
        .select_related("raised_by__user", "raised_by__club", "evening")
        .order_by("answered_at")
    )
    return [
        Notice(
            objection.raised_by,
            NotificationKind.OBJECTION_ANSWERED,
            _("Objection answered"),
            _("Your objection to game %(number)s of %(date)s was answered: %(status)s.")
            % {
                "number": objection.game_number,
                "date": f"{objection.evening.date:%d.%m.%Y}",
                "status": objection.get_status_display(),
            },
            reverse("evening_objections", args=[objection.evening_id]),
        )
        for objection in answered
    ]


def _due_season_closed(now: datetime.datetime) -> list[Notice]:
    seasons = Season.objects.filter(closed_at__gte=now - RECENT).select_related("club")
    closed = {season.club_id: season for season in seasons}
    return [
        Notice(
            member,
            NotificationKind.SEASON_CLOSED,
            _("Season closed"),
            _("The season %(year)s of %(club)s is closed.")
            % {"year": closed[member.club_id].year, "club": member.club.name},
            reverse("season_close", args=[closed[member.club_id].year]),
        )
        for member in _people().filter(club_id__in=closed)
    ]


def notices_due(*, now: datetime.datetime) -> list[Notice]:
    """Every message due at `now` (aware), of every kind, before the once-a-week rule and
    the person's choices are applied."""
    with translation.override("de"):
        return [
            *_due_open_amount(now),
            *_due_evening_tomorrow(now),
            *_due_objection_answered(now),
            *_due_season_closed(now),
        ]


def notification_unsubscribe_token(*, member: Member, kind: str) -> str:
    """The signed token of a one-tap unsubscribe link: the person and the kind (Django's
    signing under SECRET_KEY; it does not expire)."""
    return signing.dumps({"m": member.pk, "k": kind}, salt=_UNSUBSCRIBE_SALT, compress=True)


def notification_unsubscribe_read(*, token: str) -> tuple[Member, str] | None:
    """(person, kind) of an unsubscribe token, or None when it is forged, malformed or
    names no person or kind."""
    try:
        data = signing.loads(token, salt=_UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("k") not in NotificationKind.values:
        return None
    member_id = data.get("m")
    member = None
    if isinstance(member_id, int):
        with across_clubs():  # the token names the person: the caller opens its club's scope
            member = Member.objects.filter(pk=member_id).first()
    return (member, data["k"]) if member is not None else None


def _link(path: str) -> str:
    return settings.SITE_URL + path


def _unsubscribe_url(notice: Notice) -> str:
    token = notification_unsubscribe_token(member=notice.member, kind=notice.kind)
    return _link(reverse("notification_unsubscribe", args=[token]))


def _mail(notice: Notice) -> None:
    unsubscribe = _unsubscribe_url(notice)
    with translation.override("de"):
        body = "\n".join(
            [
                _("Hello %(name)s,") % {"name": notice.member.name},
                "",
                notice.body,
                _link(notice.path),
                "",
                _("No more of these messages: %(url)s") % {"url": unsubscribe},
            ]
        )
        message = EmailMessage(
            subject=_("Schockclub: %(title)s") % {"title": notice.title},
            body=body,
            to=[notice.member.user.email] if notice.member.user else [],
            headers={
                "List-Unsubscribe": f"<{unsubscribe}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
        )
    message.send()


def _push(notice: Notice, subscriptions: list[PushSubscription]) -> None:
    from pywebpush import WebPushException, webpush  # only where push is configured

    data = json.dumps(
        {
            "title": notice.title,
            "body": notice.body,
            "url": notice.path,
            "unsubscribe": _unsubscribe_url(notice),
            "kind": notice.kind,
        }
    )
    for subscription in subscriptions:
        try:
            webpush(
                subscription_info={
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=data,
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=12 * 60 * 60,
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):  # the browser dropped the subscription
                subscription.delete()
            else:
                logger.warning("web push to %s failed: %s", subscription.pk, exc)


def notifications_send(*, now: datetime.datetime | None = None) -> int:
    """Send what is due at `now` (aware; default: the current time) and returns how many
    people were told something. Nothing in the quiet hours (held for the next run after
    them); at most one message per person, kind and week; by e-mail where the person
    chose it and has a login e-mail address, by web push where they chose it, a browser
    subscribed and the site has VAPID keys. A failed e-mail is not recorded, so the next
    run tries again."""
    now = now or timezone.now()
    if is_quiet(now):
        return 0
    period = week_of(timezone.localtime(now).date())
    with across_clubs():  # what is due, for the people of every club
        notices = notices_due(now=now)
        member_ids = {n.member.pk for n in notices}
        choices = {
            (c.member_id, c.kind): c
            for c in NotificationChoice.objects.filter(member_id__in=member_ids)
        }
        done = set(
            NotificationSent.objects.filter(member_id__in=member_ids, period=period).values_list(
                "member_id", "kind"
            )
        )
        subscriptions: dict[int, list[PushSubscription]] = {}
        if settings.VAPID_PRIVATE_KEY:
            for s in PushSubscription.objects.filter(member_id__in=member_ids):
                if not push_endpoint_allowed(s.endpoint):  # kept before the push services' list
                    logger.warning("push subscription %s names no push service: deleted", s.pk)
                    s.delete()
                    continue
                subscriptions.setdefault(s.member_id, []).append(s)
    sent = 0
    for notice in notices:
        with club_scope(notice.member.club_id):  # each person in the scope of its club
            sent += _notify(notice, period, choices, done, subscriptions)
    return sent


def _notify(
    notice: Notice,
    period: datetime.date,
    choices: dict[tuple[int, str], NotificationChoice],
    done: set[tuple[int, str]],
    subscriptions: dict[int, list[PushSubscription]],
) -> int:
    """Tells `notice`'s person by e-mail and/or web push (1), or not (0: told this week,
    or neither channel chosen). Adds the person and kind to `done`."""
    key = (notice.member.pk, notice.kind)
    if key in done:
        return 0
    choice = choices.get(key)
    user = notice.member.user
    email = (choice is None or choice.email) and user is not None and bool(user.email)
    push = subscriptions.get(notice.member.pk, []) if (choice is None or choice.push) else []
    if not email and not push:
        return 0
    channels = ",".join(name for name, on in (("email", email), ("push", push)) if on)
    try:
        with transaction.atomic():
            NotificationSent.objects.create(
                club_id=notice.member.club_id,
                member=notice.member,
                kind=notice.kind,
                period=period,
                channels=channels,
            )
            if email:
                _mail(notice)
    except IntegrityError:
        return 0  # another run told this person of this kind this week
    done.add(key)
    if push:
        _push(notice, push)
    return 1
