"""Celery tasks of money in (STYLE.md 5: thin). Scheduled by settings.CELERY_BEAT_SCHEDULE."""

from celery import shared_task
from django.utils import timezone

from league.banking.notifications import notifications_send
from league.banking.reminders import payment_reminders_send


@shared_task(ignore_result=True)
def send_payment_reminders() -> int:
    """This month's payment reminders (league.banking.reminders); the club's date."""
    return payment_reminders_send(today=timezone.localdate())


@shared_task(ignore_result=True)
def send_notifications() -> int:
    """The reminders by e-mail and web push due now (league.banking.notifications); run
    hourly by beat, quiet at night."""
    return notifications_send(now=timezone.now())
