"""The API's refusals in the API's shape, also where no API view answered; and every
request in its club's scope (`ClubScopeMiddleware`, league/club/scoping.py).

Under `/api/`, DRF's views answer every refusal as `{code, message, field}`
(league.club.api_common.api_exception_handler). Two answers come from elsewhere: a path
that matches no route (an unknown path, or an id that is not a number, which the routes'
`[0-9]+` refuse before any view runs) is Django's 404 page, and a method a non-DRF view
refuses (the docs page) is Django's plain-text 405; the schema view negotiates its 405
into YAML. `ApiErrorsMiddleware` answers those 404s and 405s in JSON with DRF's stable
codes, `not_found` and `method_not_allowed` (with the view's `Allow` header). Pages keep
their HTML.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework import exceptions

from league.club.access import NOT_READ, login_member_read, member_read_with_login
from league.club.api_common import error_body
from league.club.scoping import across_clubs, club_scope, clubless_scope, no_club_scope

API_PREFIX = "/api/"


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


def api_error_response(request: HttpRequest, status: int) -> JsonResponse:
    """The API's JSON body for a 404 (`not_found`) or 405 (`method_not_allowed`, naming
    the request's method) that no API view gave: `{code, message, field: null}`."""
    if status == 405:
        error: exceptions.APIException = exceptions.MethodNotAllowed(request.method or "")
    else:
        error = exceptions.NotFound()
    detail = error.detail
    return JsonResponse(error_body(error.default_code, str(detail)), status=status)


class ApiErrorsMiddleware:
    """Replaces a 404 or 405 answer under /api/ that is not JSON by the API's JSON error
    (see the module). Everything else passes unchanged."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code in (404, 405)
            and request.path.startswith(API_PREFIX)
            and not _is_json(response)
        ):
            replaced = api_error_response(request, response.status_code)
            if "Allow" in response:
                replaced["Allow"] = response["Allow"]
            return replaced
        return response


ADMIN_PREFIX = "/admin/"  # schockclub/urls.py


def _is_admin_path(path: str) -> bool:
    return path.startswith(ADMIN_PREFIX)


class ClubScopeMiddleware:
    """Runs every request in a club scope (after AuthenticationMiddleware).

    - A staff user in the Django admin: across clubs (the operator's view of every club).
    - A logged-in person of a club: the scope of that club. The person is read once here
      (with its club) and kept on the user, where `league.club.access.member_for_user`
      and the templates' `membership` find it: no query is added to a page.
    - A login without a club: the scope of no club (`clubless_scope`): no club's rows.
    - Anyone else (anonymous, an API call before its token is read): an enforced scope
      without a club, where a club query raises ScopeError; the API (after reading the
      login) and the token pages open their club's scope inside.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if _is_admin_path(request.path) and user is not None and user.is_staff:
            with across_clubs():
                return self.get_response(request)
        if user is None or not user.is_authenticated:
            with no_club_scope():
                return self.get_response(request)
        club_id = _club_id_of_login(user)
        with club_scope(club_id) if club_id is not None else clubless_scope():
            return self.get_response(request)


def _club_id_of_login(user: Any) -> int | None:
    """The club id of a logged-in user's person: the one read with the login
    (league/club/accounts/backends.py), else read here with its club and kept on the user
    for this request (`league.club.access.member_for_user` trusts it); None for a login
    without a club. A suspended club is still its scope: the views refuse it."""
    member = member_read_with_login(user)
    if member is NOT_READ:
        member = login_member_read(user)
        user._state.fields_cache["member"] = member
        user.club_read_with_login = True
    return member.club_id if member is not None else None
