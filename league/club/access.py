"""Who may see and change what.

A user belongs to at most one club, through `Member.user`. A member reads the own club;
the club's secretary (`Member.is_secretary`) also writes it. Another club's data does not
exist for anyone: lookups are scoped to the user's club and answer 404 otherwise.
Superusers without a membership use the admin only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse

from league.club.models import Club, Member, Season

if TYPE_CHECKING:
    from league.club.caching import Version


class ClubRequest(HttpRequest):
    """A page request of a person of a club, as the page decorators hand it on:
    `member_required` sets `member` (the user's Member) and `club` (its club);
    `league.club.caching.books_page` sets `books_version` (the club's books and register
    versions) and, on a season's page, `season`. The views are annotated with it, so
    these attributes are typed where they are read."""

    member: Member
    club: Club
    user: User  # logged in: member_required lets no anonymous request through
    books_version: Version
    season: Season


def member_for_user(user) -> Member | None:
    """The user's Member (with its club loaded), or None for anonymous or club-less users."""
    if not user or not user.is_authenticated:
        return None
    return Member.objects.select_related("club").filter(user=user).first()


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
