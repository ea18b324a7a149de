"""Sessions read through the cache (Redis) and written to the database as well, refusing
malformed session keys like league/club/session_store.py (issue 4: never a 500).

Used when REDIS_URL is set (settings.SESSION_ENGINE): every host behind the proxy reads a
session from Redis, and a Redis restart logs nobody out (README "Scaling").
"""

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDatabaseStore

from league.club.session_store import _KEY_CHARACTERS


class SessionStore(CachedDatabaseStore):
    """Django's cached-database session store, refusing keys outside Django's own alphabet
    (a NUL byte would reach PostgreSQL on a cache miss)."""

    def _validate_session_key(self, key) -> bool:
        valid = super()._validate_session_key(key)  # type: ignore[misc]
        return bool(valid) and set(key) <= _KEY_CHARACTERS
