"""Reads of a login's API tokens (issue 13 item 3)."""

from __future__ import annotations

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
