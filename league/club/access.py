"""Who may see and change what.

A user belongs to at most one club, through `Member.user`. A member reads the own club;
the club's secretary (`Member.is_secretary`) also writes it. Another club's data does not
exist for anyone: lookups are scoped to the user's club and answer 404 otherwise.
Superusers without a membership use the admin only.
"""

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from league.club.models import Club, Member


class ClubRequest(HttpRequest):
    """A page request of a person of a club, as `member_required` hands it on: `member`
    (the user's Member) and `club` (its club) are set. For type checking of the views."""

    member: Member
    club: Club
    user: User  # logged in: member_required lets no anonymous request through


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
    def wrapper(request: HttpRequest, *args, **kwargs):
        member = member_for_user(request.user)
        if member is None:
            raise Http404
        request.member, request.club = member, member.club  # type: ignore[attr-defined]
        # The template's `membership` (league/club/context_processors.py) is this member:
        # the user object holds it too, so nothing reads a second copy.
        request.user.member = member  # type: ignore[union-attr]
        return view(request, *args, **kwargs)

    return wrapper


def secretary_required(view: Callable) -> Callable:
    """Page decorator: as `member_required`, and the member is the club's secretary
    (403 for other members of the club)."""

    @member_required
    @wraps(view)
    def wrapper(request: ClubRequest, *args, **kwargs):
        if not request.member.is_secretary:
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper
