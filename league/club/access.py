"""Who may see and change what.

A user belongs to at most one club, through `Member.user`. A member reads the own club;
the club's secretary (`Member.is_secretary`) also writes it. Another club's data does not
exist for anyone: lookups are scoped to the user's club and answer 404 otherwise.
Superusers without a membership use the admin only. The people of a club the operator
suspended are refused everywhere (403 `club_suspended`) until it is lifted.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from league.club.models import Club, Member, Season
from league.club.scoping import across_clubs


class ClubRequest(HttpRequest):
    """A page request of a person of a club, as the page decorators hand it on:
    `member_required` sets `member` (the user's Member) and `club` (its club);
    `league.club.caching.books_page` sets `books_version` (the club's books and register
    versions) and, on a season's page, `season`. The views are annotated with it, so
    these attributes are typed where they are read."""

    member: Member
    club: Club
    user: User  # logged in: member_required lets no anonymous request through
    # A league.club.caching.Version (a str with its cache namespace); typed as its str
    # here, so that this module, which the caching module uses, never imports it back.
    books_version: str
    season: Season
    # Read once a request by the pages whose ETag names them (set where first read):
    # the club's provisional evenings (ledger pages) and an evening's provisional state.
    provisional_evenings: tuple[int, ...]
    provisional_key: tuple[Any, ...]


class ClubSuspended(PermissionDenied):
    """The user's club is suspended by the operator (`Club.suspended_at`): pages answer
    403 with this message, the API 403 `club_suspended` (league.club.api_common)."""

    code = "club_suspended"

    def __init__(self) -> None:
        super().__init__(
            _(
                "This club is suspended by the operator. Its books are kept; please "
                "contact the operator."
            )
        )


NOT_READ: Any = object()  # member_read_with_login: the login's read did not read the person


def member_read_with_login(user) -> Any:
    """The user's Member (or None: no person) when the query that read the user for this
    request read it and its club too (the session's login backend and the API token read
    both `select_related` them and mark the user `club_read_with_login`), else NOT_READ.
    A user object without the mark (kept across requests, as a test client's forced login)
    may carry a stale person or club."""
    if not getattr(user, "club_read_with_login", False):
        return NOT_READ
    cache = getattr(getattr(user, "_state", None), "fields_cache", {})
    if "member" not in cache:
        return NOT_READ
    member = cache["member"]
    if member is not None and "club" not in member._state.fields_cache:
        return NOT_READ
    return member


def login_member_read(user) -> Member | None:
    """The person of the logged-in `user` with its club loaded, or None for a login
    without one: one query, across clubs (which club is the login's is what opens its
    scope). No suspension check (member_for_user makes it)."""
    with across_clubs():
        return Member.objects.select_related("club").filter(user=user).first()


def member_for_user(user) -> Member | None:
    """The user's Member (with its club loaded), or None for anonymous or club-less users.

    Raises ClubSuspended (403) when the member's club is suspended: every page and API
    call of a club's people reads the member here first."""
    if not user or not user.is_authenticated:
        return None
    member = member_read_with_login(user)
    if member is NOT_READ:
        member = login_member_read(user)
    if member is not None and member.club.suspended_at is not None:
        raise ClubSuspended()
    return member


def member_required(view: Callable) -> Callable:
    """Page decorator: logged in and a person of a club; sets `request.member` and
    `request.club`. A logged-in user without a club gets 404 (nothing exists for them)."""

    @login_required
    @wraps(view)
    def wrapper(request: ClubRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        member = member_for_user(request.user)
        if member is None:
            raise Http404
        request.member, request.club = member, member.club
        # The template's `membership` (league/club/context_processors.py) is this member:
        # the user object holds it too, so nothing reads a second copy.
        request.user.member = member
        return view(request, *args, **kwargs)

    return wrapper


def secretary_required(view: Callable) -> Callable:
    """Page decorator: as `member_required`, and the member is the club's secretary
    (403 for other members of the club)."""

    @member_required
    @wraps(view)
    def wrapper(request: ClubRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.member.is_secretary:
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper
