"""The answer to a login that django-axes has locked out (settings.AXES_LOCKOUT_CALLABLE): after
AXES_FAILURE_LIMIT failed logins (5 by default) for one login name
from one address, further logins of that name from there are refused for
AXES_COOLOFF_TIME (15 minutes by default), whether the password is right or not.

- API (`/api/...`): 429 `{"code": "locked_out", "message": "...", "field": null}` with a
  Retry-After header in seconds.
- Pages: 429 with registration/locked_out.html (German).

The same count throttles every other place a password is typed or a password link is
used (`password_guard_*`):

- the password change (page and API): a wrong old password counts as a failed login of
  that login name from that address, and while the name is locked out there the change is
  refused like the login (429, German page or `locked_out`);
- the invitation link and the reset link (`/einladung/...`, `/passwort/neu/...`): they
  check no password (their secret is the link's one-time token), so a link that does not
  work (unknown, used or expired) counts as a failed login of the name `#password-link`
  (no login can be called that: `#` is not allowed in a user name) from that address; after
  AXES_FAILURE_LIMIT of them every such link is refused from there for the cool-off. A
  lockout of a login name does not stop its reset link: setting a password by a reset (or
  the invitation) lifts that login's lockout.

Every lockout is logged (logger `league.club.accounts`, WARNING) besides axes' own access
log (AccessAttempt rows, admin "Axes").
"""

from __future__ import annotations

import logging
from datetime import timedelta

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from league.club.api_common import error_body

logger = logging.getLogger("league.club.accounts")

LOCKED_OUT = "locked_out"

#: The name the failures of password links are counted under (not a possible user name).
PASSWORD_LINK = "#password-link"


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


def password_guard_locked(request: HttpRequest, *, username: str) -> bool:
    """Whether django-axes locks `username` out from this request's address (the client's
    address behind our proxy, AXES_IPWARE_PROXY_COUNT). `request` is the plain
    HttpRequest (in the API: `request._request`)."""
    if not settings.AXES_ENABLED:
        return False
    locked: bool = AxesProxyHandler.is_locked(request, {"username": username})
    return locked


def password_guard_failed(request: HttpRequest, *, username: str) -> None:
    """Count a failed password of `username` from this request's address, as a failed
    login is counted (django-axes' `user_login_failed`). When it reaches the limit, axes
    marks the request locked out and its middleware answers with `lockout_response`."""
    user_login_failed.send(sender=__name__, credentials={"username": username}, request=request)


def password_link_locked(request: HttpRequest) -> bool:
    """Whether password links are refused from this request's address (too many links
    that did not work; see the module's docstring)."""
    return password_guard_locked(request, username=PASSWORD_LINK)


def password_link_failed(request: HttpRequest) -> None:
    """Count a password link that did not work, from this request's address."""
    password_guard_failed(request, username=PASSWORD_LINK)
