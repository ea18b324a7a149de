"""Sessions read through the cache (Redis) and written to the database as well, refusing
malformed session keys like league/club/session_store.py (never a 500).

Used when REDIS_URL is set (settings.SESSION_ENGINE): every host behind the proxy reads a
session from Redis, and a Redis restart logs nobody out (README "Scaling").

The database is the session's home; the cache only saves its read. When Redis cannot be
reached, every cache call of Django's store (the read, the write after a database read,
the "exists" test of a new key, the delete on logout) is a miss or skipped
(`league.club.caching.GuardedCache`), so logging in, logging out and every page keep
working from the database alone.

A cached copy is kept for at most SESSION_CACHE_SECONDS (5 minutes; then read from the
database again): a write or a logout whose cache call failed (Redis cut off from the host
but still holding its data) leaves an outdated copy behind, and that copy must not outlive
the outage by more than a few minutes.
"""

from django.conf import settings
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDatabaseStore
from django.core.cache import caches

from league.club.caching import GuardedCache
from league.club.session_store import _KEY_CHARACTERS

SESSION_CACHE_SECONDS = 5 * 60


class SessionStore(CachedDatabaseStore):
    """Django's cached-database session store over a cache that never raises, refusing
    keys outside Django's own alphabet (a NUL byte would reach PostgreSQL on a cache
    miss)."""

    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache = GuardedCache(
            caches[settings.SESSION_CACHE_ALIAS], "sessions", max_seconds=SESSION_CACHE_SECONDS
        )

    def _validate_session_key(self, key) -> bool:
        valid = super()._validate_session_key(key)  # type: ignore[misc]
        return bool(valid) and set(key) <= _KEY_CHARACTERS
