"""Celery tasks of the league (STYLE.md 5: thin, primary keys only, retries live here)."""

from celery import shared_task
from django.conf import settings

from league.reports.runs import report_build_fail, report_build_retrying, report_build_run

MAX_RETRIES = 3


def _backoff(retries: int) -> int:
    """Seconds before the next attempt: base, 2 x base, 4 x base (REPORT_RETRY_BACKOFF)."""
    return int(getattr(settings, "REPORT_RETRY_BACKOFF", 5)) * 2**retries


@shared_task(
    bind=True,
    max_retries=MAX_RETRIES,
    acks_late=True,
    ignore_result=True,
    soft_time_limit=240,
    time_limit=300,
)
def build_season_report(self, build_id: int) -> None:
    """Build the season report of `ReportBuild` `build_id` (issue 5). A failing attempt is
    retried with growing pauses; after the last one the build is FAILED with the reason."""
    try:
        report_build_run(build_id=build_id)
    except Exception as exc:
        reason = f"{type(exc).__name__}: {exc}"
        if self.request.retries >= self.max_retries:
            report_build_fail(build_id=build_id, reason=reason)
            raise
        report_build_retrying(build_id=build_id, reason=reason)
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc
