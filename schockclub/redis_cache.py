"""Django's Redis cache backend with one Redis client per connection pool, kept
(settings.CACHES with REDIS_URL).

Django's `RedisCacheClient.get_client` builds a new `redis.Redis` for every cache call; its
constructor fills a table of some 170 response callbacks each time, which cost about
0.07 ms of CPU a call: more than the round trip to a local Redis, and each API request
makes two such calls for its throttles (bench/bench_api_profile.py). A `redis.Redis` is
safe to share between threads (each command takes a connection from the pool), so one per
pool is kept and reused. Everything else (pools, serializer, timeouts, errors) is Django's.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class KeptClientRedisCacheClient(RedisCacheClient):
    """Django's client that builds its `redis.Redis` once per connection pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        """The `redis.Redis` of the pool that serves `write` (or reads): built on first
        use, then the same object."""
        django: Any = self  # Django's private helpers, which the type stubs leave out
        index = django._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = django._get_connection_pool(write)
            client = self._clients.setdefault(index, django._client(connection_pool=pool))
        return client


class KeptClientRedisCache(RedisCache):
    """settings.CACHES backend: Django's RedisCache with KeptClientRedisCacheClient."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClientRedisCacheClient
