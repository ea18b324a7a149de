"""Every query of a club-owned model runs in the scope of one club (django-scopes).

A club-owned model (a Season, a Member, an Evening, a Game, ... everything with a path
to its Club) has `objects = ScopedManager(club="<path to its Club>")`. Its queries are
filtered to the club of the scope that is active, and raise `ScopeError` when no club
scope is active: isolation does not rest on every query remembering its filter. Their
audit trail (django-simple-history's rows, each with its `club_id`) is scoped alike:
`history = ClubHistoricalRecords()`, league/club/history.py.

Who opens which scope:

- a page request: league.club.middleware.ClubScopeMiddleware, with the logged-in
  person's club (a login without a club: the scope of no club, no rows; anonymous: an
  enforced scope without a club, where a club query raises); the operator's Django
  admin runs across clubs for staff users;
- an API call: DRF authenticates inside the view, after the middleware; its permission
  (league.club.api_login.ClubLogin, league.club.api_common.ClubRolePermission) reads the
  login's person (`request_member`) and switches the middleware's frame to that club
  (`club_scope_enter`) before the view reads anything;
- a page reached by a secret link without a login (wall screen, calendar feed, one-tap
  unsubscribe): the link is resolved across clubs (`across_clubs`) and the view opens
  `club_scope` of the club it names; setting a password by a link
  (league.club.accounts.services.password_set) and confirming a sign-up open the scope
  of the login's or the new club;
- a Celery task: `club_scope` of the club of the object it is given, or `across_clubs`
  for the selection of a periodic task that then handles each person in `club_scope`;
- a management command: `club_scope` of its club argument, or `across_clubs` for the
  commands that make or load whole clubs (restore, import, demo, club_create).

Nothing in the settings disables the scopes (django-scopes' `SCOPES_DISABLED`): a
forgotten scope fails loudly instead of showing another club's rows.

This module imports nothing of the app, so that every models module may use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from django_scopes import ScopeError, get_scope, scopes_disabled
from django_scopes.state import state

if TYPE_CHECKING:
    from django.db import models

    def ScopedManager(  # django-scopes' name
        _manager_class: type[models.Manager[Any]] = ..., **scopes: str
    ) -> Any:
        """django_scopes.ScopedManager, typed for the models' `objects` (see there)."""

else:
    from django_scopes import ScopedManager

__all__ = [
    "ScopeError",
    "ScopedManager",
    "across_clubs",
    "club_scope",
    "club_scope_enter",
    "clubless_scope",
    "no_club_scope",
    "scoped_club_id",
]


# The scope of a login without a club: `club__in=[]`, no rows (django-scopes filters by a
# list with `__in`).
NO_CLUB: tuple[int, ...] = ()


def _club_id(club: Any) -> int:
    """The primary key of `club`: a Club (anything with `pk`) or an int."""
    pk = getattr(club, "pk", club)
    if not isinstance(pk, int):
        raise TypeError(f"a club or its id is needed, not {club!r}")
    return pk


@contextmanager
def _scope_replaced(scope: dict[str, Any]) -> Iterator[None]:
    """Runs the block with django-scopes' state replaced by `scope` (not merged into the
    active one, as django_scopes.scope does), the state before put back at its end."""
    token = state.set(scope)
    try:
        yield
    finally:
        state.reset(token)


@contextmanager
def club_scope(club: Any) -> Iterator[None]:
    """Runs the block in the scope of `club` (a Club or its id): the club-owned models'
    queries return this club's rows only. Replaces whatever scope was active (also a
    disabled one) until the block ends. Raises TypeError for anything but a club or id."""
    with _scope_replaced({"_enabled": True, "club": _club_id(club)}):
        yield


@contextmanager
def no_club_scope() -> Iterator[None]:
    """Runs the block in an enforced scope without a club: a query of a club-owned model
    raises ScopeError (an anonymous request)."""
    with _scope_replaced({"_enabled": True}):
        yield


@contextmanager
def clubless_scope() -> Iterator[None]:
    """Runs the block in the scope of no club (a login without a club): every query of a
    club-owned model answers no rows, as the views' club filters did for such a login."""
    with _scope_replaced({"_enabled": True, "club": NO_CLUB}):
        yield


@contextmanager
def across_clubs() -> Iterator[None]:
    """Runs the block with the scopes disabled: the club-owned models' queries see every
    club. Only for work that is about many clubs by intent (the operator's admin, a
    periodic task walking the clubs, restoring or importing a club), or to resolve
    which club a token or an object belongs to before its `club_scope` is opened."""
    with scopes_disabled():
        yield


def club_scope_enter(club: Any) -> None:
    """Switches the scope of the running request to `club` (a Club or its id; None: a
    login without a club, `clubless_scope`) until the request's frame
    (league.club.middleware.ClubScopeMiddleware) ends. For the API, whose login DRF
    reads inside the view (league.club.api_common.request_member). Where the scopes
    are disabled (the admin, `across_clubs`: drf-spectacular's schema generation, the
    tests' own code) nothing changes: that block chose to see every club. Raises
    TypeError as `club_scope`."""
    if not get_scope().get("_enabled", True):
        return
    state.set({"_enabled": True, "club": NO_CLUB if club is None else _club_id(club)})


def scoped_club_id() -> int | None:
    """The club id of the active scope, or None when no club scope is active (also when
    the scopes are disabled)."""
    current = get_scope()
    if not current.get("_enabled", True):
        return None
    club = current.get("club")
    return club if isinstance(club, int) else None
