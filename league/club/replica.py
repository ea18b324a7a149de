"""Reads from a read replica (README "Scaling: a read replica").

With DATABASE_REPLICA_URL set, settings add the database alias "replica" (PostgreSQL
streaming replication: a hot standby of the primary) and `ReplicaRouter` sends reads
there, but only where a stale read cannot mislead:

- only inside a page or API request that `ReadYourWritesMiddleware` let read from the
  replica: a GET/HEAD/OPTIONS of a browser (or client) that has not written in the last
  settings.REPLICA_READ_YOUR_WRITES_SECONDS seconds. A write (any other method) answers
  with the cookie `sc_primary` for that long, so the secretary's entry flow (save a game,
  see the evening) reads the primary, which holds the game just saved, however far the
  replica lags;
- never inside a transaction a writer opened (a read there feeds a write: it must see the
  primary's rows and locks);
- never in Celery tasks and management commands (they run after a commit and must see it).

Writes always go to the primary ("default"); migrations run only there.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import HttpRequest, HttpResponse

from league.club.caching import in_writer_transaction

#: The replica's database alias (settings.DATABASES).
REPLICA = "replica"
#: The cookie a write answers with: its holder reads the primary while it lasts.
PRIMARY_COOKIE = "sc_primary"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

_replica_allowed: ContextVar[bool] = ContextVar("replica_allowed", default=False)


def replica_configured() -> bool:
    """Whether the settings name a replica database."""
    return REPLICA in connections.settings


def read_alias() -> str:
    """The alias a read goes to now: the replica inside a request allowed to read it
    (see the module), outside a writer's transaction; else the primary."""
    if _replica_allowed.get() and replica_configured() and not in_writer_transaction():
        return REPLICA
    return DEFAULT_DB_ALIAS


class ReplicaRouter:
    """settings.DATABASE_ROUTERS: reads as `read_alias` says, writes and migrations on the
    primary. Without a replica configured every answer is the primary."""

    def db_for_read(self, model: type, **hints: Any) -> str:
        return read_alias()

    def db_for_write(self, model: type, **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        # The replica holds the primary's rows: an object read there relates to one
        # read here.
        return True

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS


class ReadYourWritesMiddleware:
    """Lets a safe request of a client that has not written lately read from the replica;
    answers a write with the `sc_primary` cookie (settings.REPLICA_READ_YOUR_WRITES_SECONDS
    seconds), so that its next reads see what it wrote. Without a replica it sets nothing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not replica_configured():
            return self.get_response(request)
        if request.method in SAFE_METHODS:
            allowed = PRIMARY_COOKIE not in request.COOKIES
            token = _replica_allowed.set(allowed)
            try:
                return self.get_response(request)
            finally:
                _replica_allowed.reset(token)
        response = self.get_response(request)
        response.set_cookie(
            PRIMARY_COOKIE,
            "1",
            max_age=settings.REPLICA_READ_YOUR_WRITES_SECONDS,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
        return response
