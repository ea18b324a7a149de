"""Reads of a login's API tokens and of its lockout after failed logins."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone
from knox.models import AuthToken


def api_tokens_of(*, user: User) -> QuerySet[AuthToken]:
    """The API tokens of `user` that are still valid, newest first (one query)."""
    tokens: QuerySet[AuthToken] = AuthToken.objects.filter(
        user=user, expiry__gt=timezone.now()
    ).order_by("-created")
    return tokens


def logins_locked_out(*, usernames: Iterable[str]) -> set[str]:
    """Which of `usernames` django-axes locks out now, from at least one address: at least
    AXES_FAILURE_LIMIT failed logins since the last success, the latest within
    AXES_COOLOFF_TIME (one query)."""
    names = list(usernames)
    if not names or not settings.AXES_ENABLED:
        return set()
    query = AccessAttempt.objects.filter(
        username__in=names, failures_since_start__gte=settings.AXES_FAILURE_LIMIT
    )
    cool_off = settings.AXES_COOLOFF_TIME
    if isinstance(cool_off, timedelta):
        query = query.filter(attempt_time__gte=timezone.now() - cool_off)
    return set(query.values_list("username", flat=True))
