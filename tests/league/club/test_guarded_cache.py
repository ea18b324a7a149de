"""GuardedCache (league/club/caching.py): a cache that cannot be reached is a miss, costs
one failed call per pause rather than one per use, and a capped cache keeps nothing
longer than its cap (the sessions' cached copies)."""

import pytest
from django.core.cache.backends.locmem import LocMemCache

from league.club.caching import GuardedCache
from league.club.session_store_cached import SESSION_CACHE_SECONDS, SessionStore


class Unreachable:
    """A cache backend whose every call fails as an unreachable Redis does."""

    def __init__(self) -> None:
        self.calls = 0

    def get(self, key, default=None):
        self.calls += 1
        raise ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    set = delete = get_many = set_many = get


class Recording(LocMemCache):
    def __init__(self) -> None:
        super().__init__("recording", {})
        self.timeouts: list = []

    def set(self, key, value, timeout=300, version=None):
        self.timeouts.append(timeout)
        super().set(key, value, timeout, version)


def test_after_a_failure_the_backend_is_left_alone_for_the_pause():
    backend = Unreachable()
    guarded = GuardedCache(backend, "test")
    assert guarded.get("a", "missing") == "missing"
    assert guarded.set("a", 1) is False
    assert guarded.get_many(["a", "b"]) == {}
    assert "a" not in guarded
    assert backend.calls == 1


def test_a_capped_cache_keeps_a_value_no_longer_than_its_cap():
    backend = Recording()
    guarded = GuardedCache(backend, "test", max_seconds=300)
    guarded.set("long", 1, 14 * 24 * 3600)
    guarded.set("short", 2, 60)
    guarded.set("forever", 3, None)
    assert backend.timeouts == [300, 60, 300]


@pytest.mark.django_db
def test_the_sessions_cached_copy_is_kept_five_minutes_at_most():
    store = SessionStore()
    backend = Recording()
    store._cache._backend = backend  # the GuardedCache's backend: recorded
    store["answer"] = 42
    store.create()
    assert backend.timeouts == [SESSION_CACHE_SECONDS] == [5 * 60]
