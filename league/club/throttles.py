"""The API's throttles (REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]): requests counted per
login and per client address, each over a sliding window; past the rate the answer is
429 `throttled` with a German message and `Retry-After` (league.club.api_common), and the
schema documents the 429 on every operation (league.club.api_schema).

The rates are settings.API_THROTTLE_RATES, read on each request (tests raise them, one
test lowers them): "user" per login (an anonymous request counts by its address), and
"address" per client address whoever sends it: the address is the one the login lockout
reads (django-axes through settings.AXES_IPWARE_PROXY_COUNT, behind the TLS proxy the
client's). The counts live in the cache; a cache that cannot be reached throttles nobody
(league.club.caching.GuardedCache: a read is a miss, a write is skipped).
"""

from __future__ import annotations

from typing import Any

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

from league.club.caching import GuardedCache

throttle_cache = GuardedCache(cache, "API throttle")


class _SettingsRate:
    """The rate of the throttle's scope from settings.API_THROTTLE_RATES (None: off)."""

    scope: str

    def get_rate(self) -> str | None:
        return settings.API_THROTTLE_RATES.get(self.scope)


class UserThrottle(_SettingsRate, UserRateThrottle):
    """settings.API_THROTTLE_RATES["user"] per login (per address when anonymous)."""

    scope = "user"
    cache = throttle_cache  # type: ignore[assignment]

    def get_ident(self, request: Any) -> str:
        return client_address(request)


class AddressThrottle(_SettingsRate, SimpleRateThrottle):
    """settings.API_THROTTLE_RATES["address"] per client address, logged in or not."""

    scope = "address"
    cache = throttle_cache  # type: ignore[assignment]

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


def client_address(request: Any) -> str:
    """The client's address as the login lockout reads it (see the module)."""
    return get_client_ip_address(getattr(request, "_request", request)) or "unknown"
