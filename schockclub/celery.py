"""The Celery app. Broker and result backend come from settings (REDIS_URL); without
REDIS_URL tasks run eagerly in the web process (the developer default).

Every worker writes a heartbeat (the time, seconds since the epoch) into the cache every
WORKER_HEARTBEAT_INTERVAL seconds (15); `/health/` reports the worker down when the last one
is older than settings.HEALTH_WORKER_MAX_AGE (60 s, schockclub/health.py), so a killed
worker is reported within a minute of its death, and a live one only after four beats in a
row went missing. The heartbeat expires from the cache at the same age.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from celery import Celery, bootsteps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schockclub.settings")

logger = logging.getLogger(__name__)

WORKER_HEARTBEAT_KEY = "schockclub:worker-heartbeat"
WORKER_HEARTBEAT_INTERVAL = 15.0  # seconds

app = Celery("schockclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["league.reports"])


def worker_heartbeat_write() -> None:
    """Store the time now (epoch seconds) as the workers' last heartbeat in the cache (Redis
    in production), kept for settings.HEALTH_WORKER_MAX_AGE seconds. A cache that cannot be
    reached is logged, never fatal to the worker."""
    from django.conf import settings
    from django.core.cache import cache

    try:
        cache.set(WORKER_HEARTBEAT_KEY, time.time(), timeout=settings.HEALTH_WORKER_MAX_AGE)
    except Exception:  # Redis down: the health check will say so
        logger.warning("Worker heartbeat could not be written", exc_info=True)


def worker_heartbeat_read() -> float | None:
    """The last heartbeat of any worker (epoch seconds), or None when none was written (or
    it expired). Raises the cache's error when the cache cannot be reached."""
    from django.core.cache import cache

    value = cache.get(WORKER_HEARTBEAT_KEY)
    return float(value) if value is not None else None


class WorkerHeartbeat(bootsteps.StartStopStep):
    """Worker bootstep: a heartbeat at start, then every WORKER_HEARTBEAT_INTERVAL seconds
    on the worker's own timer (the main process, so a long build does not delay it)."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref: Any = None

    def start(self, worker: Any) -> None:
        worker_heartbeat_write()
        self.tref = worker.timer.call_repeatedly(WORKER_HEARTBEAT_INTERVAL, worker_heartbeat_write)

    def stop(self, worker: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None


app.steps["worker"].add(WorkerHeartbeat)


#: Which queue each task module's tasks go to, by the name of the setting that names the
#: queue (settings.QUEUE_REPORTS etc.): a season report that takes seconds to build never
#: delays a payment reminder or a mail, and an import never delays either.
TASK_QUEUE_SETTINGS = {
    "league.reports.tasks.": "QUEUE_REPORTS",
    "league.banking.tasks.": "QUEUE_MAIL",
    "league.clubbook.tasks.": "QUEUE_IMPORTS",
}


def task_route(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **kw: Any):
    """settings.CELERY_TASK_ROUTES: the queue of the task `name` ({"queue": name}) by
    TASK_QUEUE_SETTINGS, read from the settings when the task is sent; None (the default
    queue, settings.CELERY_TASK_DEFAULT_QUEUE) for any other task."""
    from django.conf import settings

    for prefix, setting in TASK_QUEUE_SETTINGS.items():
        if name.startswith(prefix):
            return {"queue": getattr(settings, setting)}
    return None
