"""The API's default permission: logged in, and from there in the login's club's scope.

Its own module: DRF's settings import the default permission while DRF itself is being
imported, before league.club.api_common (which imports DRF's views) can be.
"""

from rest_framework.permissions import IsAuthenticated


class ClubLogin(IsAuthenticated):
    """Logged in (DRF's IsAuthenticated); the request then runs in the scope of the
    login's club (league.club.api_common.club_scope_open), before the view reads
    anything. DRF reads a token inside the view, after the middleware: this is the first
    place that knows the club (league/club/scoping.py)."""

    def has_permission(self, request, view) -> bool:
        if not super().has_permission(request, view):
            return False
        from league.club.api_common import club_scope_open  # imports DRF's views

        club_scope_open(request)
        return True
