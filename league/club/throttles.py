"""The API's throttle (REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]): requests counted per
login and per client address, each over a sliding window; past either rate the answer is
429 `throttled` with a German message and `Retry-After` (league.club.api_common), and the
schema documents the 429 on every operation (league.club.api_schema).

The rates are settings.API_THROTTLE_RATES, read on each request (tests raise them, one
test lowers them): "user" per login (an anonymous request counts by its address), and
"address" per client address whoever sends it: the address is the one the login lockout
reads (django-axes through settings.AXES_IPWARE_PROXY_COUNT, behind the TLS proxy the
client's). A rate that is missing or None is off.

Each scope counts by a sliding window counter: the requests let through in the current
fixed window of the rate's period and in the one before, the earlier count weighted by how
much of its window still overlaps the sliding one (`earlier * (1 - elapsed / period) +
current`); a request is let through while that estimate is under the rate. Two integers
per scope under `throttle_<scope>_<ident>_<window number>` (ident: the login's id, or the
address for "address" and for an anonymous request): the cost of a request does not grow
with the rate, as DRF's log of every request's time did (up to 1,200 times pickled and read
back per request at the address rate). A scope that lets a request through counts it even
when the other scope refuses it (as DRF's two throttles did). All counts are read with one
cache call and written with one (two round trips to Redis a request). Two requests at the
same moment may both read the same count and one of them go uncounted, as with DRF.

The counts live in the cache; a cache that cannot be reached throttles nobody
(league.club.caching.GuardedCache: a read is a miss, a write is skipped).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
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


@dataclass(frozen=True)
class _Window:
    """One scope's rate at one moment: `count` requests per `seconds`; the keys of the
    current window's count and the one before it; seconds elapsed in the current one."""

    count: int
    seconds: int
    current: str
    earlier: str
    elapsed: float

    @classmethod
    def at(cls, now: float, *, prefix: str, count: int, seconds: int) -> _Window:
        number, elapsed = divmod(now, seconds)
        return cls(count, seconds, f"{prefix}{int(number)}", f"{prefix}{int(number) - 1}", elapsed)

    def estimate(self, *, current: int, earlier: int) -> float:
        """The requests in the sliding window ending now (see the module)."""
        return earlier * (1 - self.elapsed / self.seconds) + current

    def wait(self, *, current: int, earlier: int) -> float:
        """Seconds until the estimate falls under the rate when nothing more comes."""
        if current < self.count:  # the earlier window's share must fall off far enough
            return max((1 - (self.count - current) / earlier) * self.seconds - self.elapsed, 0)
        # The current window is full: it must end, then weigh little enough as the earlier.
        return self.seconds - self.elapsed + self.seconds * (1 - self.count / current)


class ApiThrottle(BaseThrottle):
    """settings.API_THROTTLE_RATES["user"] per login (per address when anonymous) and
    ["address"] per client address, in one throttle (see the module)."""

    cache = throttle_cache
    timer = staticmethod(time.time)

    def allow_request(self, request: Any, view: Any) -> bool:
        """True when every scope with a rate lets the request through; counts it in each
        scope that does. Sets what `wait` answers."""
        self._waits: list[float] = []
        windows = self._windows(request)
        if not windows:
            return True
        stored = self.cache.get_many([k for w in windows for k in (w.current, w.earlier)])
        counted: dict[str, int] = {}
        for window in windows:
            current, earlier = (_count(stored.get(k)) for k in (window.current, window.earlier))
            if window.estimate(current=current, earlier=earlier) >= window.count:
                self._waits.append(window.wait(current=current, earlier=earlier))
            else:
                counted[window.current] = current + 1
        if counted:
            # A count is read as the earlier window's during the next one.
            self.cache.set_many(counted, 2 * max(w.seconds for w in windows))
        return not self._waits

    def _windows(self, request: Any) -> list[_Window]:
        """The request's scopes that have a rate, at this moment."""
        address = client_address(request)
        user = getattr(request, "user", None)
        ident = user.pk if user is not None and user.is_authenticated else address
        now = self.timer()
        windows = []
        for scope, name in (("user", ident), ("address", address)):
            limit = parse_rate(settings.API_THROTTLE_RATES.get(scope))
            if limit is not None:
                prefix = f"throttle_{scope}_{name}_"
                windows.append(_Window.at(now, prefix=prefix, count=limit[0], seconds=limit[1]))
        return windows

    def wait(self) -> float | None:
        """Seconds until every refusing scope would let a request through (the longest),
        None when none refused."""
        return max(self._waits, default=None)


def _count(value: Any) -> int:
    """A stored count; 0 for none (or anything else)."""
    return value if isinstance(value, int) else 0


def client_address(request: Any) -> str:
    """The client's address as the login lockout reads it (see the module)."""
    return get_client_ip_address(getattr(request, "_request", request)) or "unknown"
