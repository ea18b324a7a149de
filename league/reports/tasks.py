"""Celery tasks of the league (STYLE.md 5: thin, primary keys only, retries live here)."""

from typing import Any

from celery import shared_task
from celery.signals import worker_init, worker_process_init
from django.conf import settings

from league.club.scoping import across_clubs, club_scope
from league.reports.models import ReportBuild
from league.reports.runs import report_build_fail, report_build_retrying, report_build_run
from league.reports.warmup import report_libraries_load

MAX_RETRIES = 3


def _backoff(retries: int) -> int:
    """Seconds before the next attempt: base, 2 x base, 4 x base (REPORT_RETRY_BACKOFF)."""
    return int(getattr(settings, "REPORT_RETRY_BACKOFF", 5)) * 2**retries


@worker_init.connect
def _load_report_libraries(**_kwargs: Any) -> None:
    """The worker's main process imports the report libraries before it forks its pool,
    so no child pays for them at its first report (league/reports/warmup.py)."""
    report_libraries_load(render=False)


@worker_process_init.connect
def _warm_report_libraries(**_kwargs: Any) -> None:
    """Each pool process lays out one tiny page at its start (Pango and the fonts)."""
    report_libraries_load(render=True)


@shared_task(
    bind=True,
    max_retries=MAX_RETRIES,
    acks_late=True,
    ignore_result=True,
    # Below the broker's visibility timeout (settings.py): a build still running is never
    # handed to a second worker; the soft limit leaves time to mark the attempt failed.
    soft_time_limit=max(settings.REPORT_BUILD_TIME_LIMIT - 10, 1),
    time_limit=settings.REPORT_BUILD_TIME_LIMIT,
)
def build_season_report(self, build_id: int) -> None:
    """Build the season report of `ReportBuild` `build_id`. A failing attempt is
    retried with growing pauses; after the last one the build is FAILED with the reason.

    Acknowledged late and given back when its worker dies: a task
    delivered again finds the build "building" from the dead attempt and builds it anew."""
    with across_clubs():  # which club's build it is; the build runs in that club's scope
        club_id = (
            ReportBuild.objects.filter(pk=build_id)
            .values_list("season__club_id", flat=True)
            .first()
        )
    if club_id is None:
        return  # deleted with its season: nothing to build
    with club_scope(club_id):
        _build_in_scope(self, build_id)


def _build_in_scope(self, build_id: int) -> None:
    """`build_season_report`'s attempt, in the build's club's scope."""
    try:
        report_build_run(build_id=build_id)
    except Exception as exc:
        reason = f"{type(exc).__name__}: {exc}"
        if self.request.retries >= self.max_retries:
            report_build_fail(build_id=build_id, reason=reason)
            raise
        report_build_retrying(build_id=build_id, reason=reason)
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc
