"""The answer to a login that django-axes has locked out (settings.AXES_LOCKOUT_CALLABLE,
issue 13 item 3): after AXES_FAILURE_LIMIT failed logins (5 by default) for one login name
from one address, further logins of that name from there are refused for
AXES_COOLOFF_TIME (15 minutes by default), whether the password is right or not.

- API (`/api/...`): 429 `{"code": "locked_out", "message": "...", "field": null}` with a
  Retry-After header in seconds.
- Pages: 429 with registration/locked_out.html (German).

Every lockout is logged (logger `league.club.accounts`, WARNING) besides axes' own access
log (AccessAttempt rows, admin "Axes").
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from league.club.api_common import error_body

logger = logging.getLogger("league.club.accounts")

LOCKED_OUT = "locked_out"


def cool_off_minutes() -> int:
    """The lockout's length in whole minutes (at least 1)."""
    cool_off = settings.AXES_COOLOFF_TIME
    seconds = cool_off.total_seconds() if isinstance(cool_off, timedelta) else 0
    return max(1, round(seconds / 60))


def lockout_message() -> str:
    """The German sentence a locked-out login reads."""
    minutes = cool_off_minutes()
    return ngettext(
        "Too many failed logins. For your safety this login is locked for %(minutes)d minute. "
        "Please try again later.",
        "Too many failed logins. For your safety this login is locked for %(minutes)d "
        "minutes. Please try again later.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: 429 in JSON for the API, our German page otherwise."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    logger.warning(
        "Login locked out: username=%r address=%r path=%r",
        str(username)[:150],
        getattr(request, "axes_ip_address", None) or request.META.get("REMOTE_ADDR"),
        request.path[:200],
    )
    retry_after = str(cool_off_minutes() * 60)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(error_body(LOCKED_OUT, lockout_message()), status=429)
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {"message": lockout_message(), "minutes": cool_off_minutes()},
            status=429,
        )
    response["Retry-After"] = retry_after
    return response
