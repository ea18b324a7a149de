"""Database sessions that ignore a malformed session cookie (never a 500).

Django's own session keys are 32 lowercase letters and digits. A cookie with anything else
(a NUL byte, for example, which PostgreSQL refuses in a query) names no session: it is
treated like no cookie at all, so the request is simply not logged in.
"""

import string

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore

_KEY_CHARACTERS = frozenset(string.ascii_lowercase + string.digits)


class SessionStore(DatabaseSessionStore):
    """Django's database session store, refusing keys outside Django's own alphabet."""

    def _validate_session_key(self, key) -> bool:
        valid = super()._validate_session_key(key)  # type: ignore[misc]
        return bool(valid) and set(key) <= _KEY_CHARACTERS
