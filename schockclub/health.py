"""`GET /health/`: is the site able to serve and build.

Anonymous, JSON, never cached, 200 when every check passes and 503 when one fails, for a
load balancer or a monitor. The checks are django-health-check's (database, cache, Redis,
media storage, free disk under MEDIA_ROOT) and our own worker heartbeat (every Celery worker
writes one into the cache every 15 s, schockclub/celery.py; older than
settings.HEALTH_WORKER_MAX_AGE, 60 s, means no worker is alive).

    {"status": "ok" | "failing",
     "checks": {"database": "OK", "cache": "OK", "redis": "OK", "media_storage": "OK",
                "media_disk": "OK", "worker": "OK" | "not needed: ..." | "<failure>"}}

The worker check is "not needed" when tasks run eagerly in the web process (no REDIS_URL).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import JsonResponse
from health_check.base import HealthCheck
from health_check.checks import Cache, Database, Storage
from health_check.contrib.psutil import Disk
from health_check.contrib.redis import Redis
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView
from redis.asyncio import Redis as RedisClient

from league.reports.builds import tasks_run_eagerly
from schockclub.celery import worker_heartbeat_read


@dataclasses.dataclass
class WorkerHeartbeat(HealthCheck):
    """Fails (ServiceUnavailable) when no Celery worker wrote a heartbeat within `max_age`
    seconds (settings.HEALTH_WORKER_MAX_AGE). `needed` is False when tasks run eagerly:
    then nothing is checked."""

    max_age: float = 60
    needed: bool = True

    def run(self) -> None:
        if not self.needed:
            return
        try:
            beat = worker_heartbeat_read()
        except Exception as exc:  # Redis down: the worker cannot work either
            raise ServiceUnavailable(f"worker heartbeat unreadable: {exc}") from exc
        if beat is None:
            raise ServiceUnavailable(
                f"no worker heartbeat within {self.max_age:.0f} s: is the worker running?"
            )
        age = time.time() - beat
        if age > self.max_age:
            raise ServiceUnavailable(
                f"last worker heartbeat {age:.0f} s ago (more than {self.max_age:.0f} s)"
            )


def _existing(path: Path) -> Path:
    """The path, or its nearest folder that exists (MEDIA_ROOT may not exist yet)."""
    path = path.resolve()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def health_checks() -> dict[str, HealthCheck]:
    """The checks by name, built for this request from the settings."""
    checks: dict[str, HealthCheck] = {
        "database": Database(),
        "cache": Cache(),
    }
    if settings.REDIS_URL:
        url = settings.REDIS_URL
        checks["redis"] = Redis(client_factory=lambda: RedisClient.from_url(url))
    checks["media_storage"] = Storage()
    checks["media_disk"] = Disk(
        path=_existing(Path(settings.MEDIA_ROOT)),
        max_disk_usage_percent=settings.HEALTH_DISK_MAX_PERCENT,
    )
    checks["worker"] = WorkerHeartbeat(
        max_age=settings.HEALTH_WORKER_MAX_AGE, needed=not tasks_run_eagerly()
    )
    return checks


class HealthView(HealthCheckView):
    """JSON only; 503 (not the library's 500) when a check fails, so that a 500 stays what
    it is everywhere else: a bug."""

    def get_checks(self):
        self.named = health_checks()
        yield from self.named.values()

    async def get(self, request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
        with self.get_executor() as executor:
            results = await asyncio.gather(
                *(check.get_result(executor) for check in self.get_checks())
            )
        names = {id(check): name for name, check in self.named.items()}
        report: dict[str, str] = {}
        for result in results:
            name = names[id(result.check)]
            if result.error is not None:
                report[name] = str(result.error)
            elif isinstance(result.check, WorkerHeartbeat) and not result.check.needed:
                report[name] = "not needed: tasks run in the web process (no REDIS_URL)"
            else:
                report[name] = "OK"
        failing = any(result.error is not None for result in results)
        return JsonResponse(
            {"status": "failing" if failing else "ok", "checks": report},
            status=503 if failing else 200,
        )
