"""The API's throttle (REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]): requests counted per
login and per client address, each over a sliding window; past either rate the answer is
429 `throttled` with a German message and `Retry-After` (league.club.api_common), and the
schema documents the 429 on every operation (league.club.api_schema).

The rates are settings.API_THROTTLE_RATES, read on each request (tests raise them, one
test lowers them): "user" per login (an anonymous request counts by its address), and
"address" per client address whoever sends it: the address is the one the login lockout
reads (django-axes through settings.AXES_IPWARE_PROXY_COUNT, behind the TLS proxy the
client's). A rate that is missing or None is off.

Each count is Django REST framework's: the times of the requests let through in the last
window (newest first) under DRF's keys, `throttle_user_<user id or address>` and
`throttle_address_<address>`, and a scope that lets a request through records it even
when the other scope refuses it (as DRF's two throttles did). Both counts are read with
one cache call and written with one (two round trips to Redis a request, not DRF's four).
The counts live in the cache; a cache that cannot be reached throttles nobody
(league.club.caching.GuardedCache: a read is a miss, a write is skipped).
"""

from __future__ import annotations

import time
from typing import Any

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

from league.club.caching import GuardedCache

throttle_cache = GuardedCache(cache, "API throttle")

_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """ "n/s", "n/min", "n/hour", "n/day" (DRF's form: the period's first letter counts) as
    (requests, seconds); None for None. Raises ValueError or KeyError on another form."""
    if rate is None:
        return None
    count, period = rate.split("/")
    return int(count), _SECONDS[period[0]]


class ApiThrottle(BaseThrottle):
    """settings.API_THROTTLE_RATES["user"] per login (per address when anonymous) and
    ["address"] per client address, in one throttle (see the module)."""

    cache = throttle_cache
    timer = staticmethod(time.time)

    def allow_request(self, request: Any, view: Any) -> bool:
        """True when every scope with a rate lets the request through; records it in each
        scope that does. Sets what `wait` answers."""
        self._waits: list[float | None] = []
        address = client_address(request)
        user = getattr(request, "user", None)
        ident = user.pk if user is not None and user.is_authenticated else address
        limits: dict[str, tuple[int, int]] = {}
        for scope, key in (
            ("user", f"throttle_user_{ident}"),
            ("address", f"throttle_address_{address}"),
        ):
            limit = parse_rate(settings.API_THROTTLE_RATES.get(scope))
            if limit is not None:
                limits[key] = limit
        if not limits:
            return True
        stored = self.cache.get_many(list(limits))
        now = self.timer()
        through: dict[str, list[float]] = {}
        longest = 0
        for key, (count, seconds) in limits.items():
            history = [t for t in stored.get(key) or [] if t > now - seconds]
            if len(history) >= count:
                self._waits.append(_wait(history, count, seconds, now))
                continue
            history.insert(0, now)
            through[key] = history
            longest = max(longest, seconds)
        if through:
            self.cache.set_many(through, longest)
        return not self._waits

    def wait(self) -> float | None:
        """Seconds until the refusing scopes would let a request through (the longest;
        DRF's estimate), None when none can say."""
        waits = [w for w in self._waits if w is not None]
        return max(waits, default=None)


def _wait(history: list[float], count: int, seconds: int, now: float) -> float | None:
    """DRF's SimpleRateThrottle.wait for a full window."""
    remaining = seconds - (now - history[-1]) if history else seconds
    available = count - len(history) + 1
    if available <= 0:
        return None
    return remaining / float(available)


def client_address(request: Any) -> str:
    """The client's address as the login lockout reads it (see the module)."""
    return get_client_ip_address(getattr(request, "_request", request)) or "unknown"
