"""Building, storing and serving the season report PDF.

A request creates a `ReportBuild` (QUEUED) and queues the Celery task after the
transaction commits. The task (`league.tasks.build_season_report`) calls
`report_build_run`, which renders the PDF, writes it to the storage under a temporary
name, moves it to its final name and only then marks the build READY. A file is served
only from a READY build whose `data_version` is the report's current data version: a
half-written file, a failed build or a stale report is never served.

The report's data version (`report_data_version`) is the sum of `Season.data_version` of
the club's seasons up to the report's season: the all-time records read the earlier
seasons too, and every season's counter only ever rises, so any change makes the sum rise.

States shown to people (`report_state`): none, queued, building, retrying, ready, stale,
failed, unavailable (the queue could not be reached: Redis or the broker is down).
"""

from __future__ import annotations

import datetime
import logging
import time
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.closing.models import SeasonSignOff
from league.club.models import Club, Season
from league.reports.models import ReportBuild
from league.reports.runs import report_data_version

logger = logging.getLogger(__name__)

# A build still queued after this long means no worker is taking tasks.
WORKER_PATIENCE = datetime.timedelta(seconds=120)
# A build still "building" after this long has died with its worker (past the task's hard
# time limit, settings.REPORT_BUILD_TIME_LIMIT, and the broker's redelivery): it is taken
# over by the next request, which queues it again.
BUILD_TIMEOUT = datetime.timedelta(
    seconds=max(settings.REPORT_BUILD_TIME_LIMIT, settings.BROKER_VISIBILITY_TIMEOUT) + 30
)
# How long a failed broker check is believed before the broker is tried again (seconds).
BROKER_CHECK_TTL = 15.0
_broker_status: dict[str, float | bool] = {"checked_at": 0.0, "ok": True}
# Connection options for the web process: one try, no pauses (the worker keeps Celery's
# own reconnecting defaults).
FAIL_FAST = {"max_retries": 0, "interval_start": 0, "interval_step": 0, "interval_max": 0}


# --------------------------------------------------------------------------- the queue


def tasks_run_eagerly() -> bool:
    """True without REDIS_URL: tasks run in the web process (developer default)."""
    from celery import current_app as app

    return bool(app.conf.task_always_eager)


def broker_available(*, use_cache: bool = True) -> bool:
    """Whether the Celery broker (Redis) answers. Always True when tasks run eagerly.

    The answer is kept for BROKER_CHECK_TTL seconds in this process, so a page that asks
    while Redis is down waits for the connection timeout at most once in a while.
    """
    if tasks_run_eagerly():
        return True
    now = time.monotonic()
    if use_cache and now - float(_broker_status["checked_at"]) < BROKER_CHECK_TTL:
        return bool(_broker_status["ok"])
    from celery import current_app as app

    ok = True
    try:
        with app.connection_for_write(transport_options=FAIL_FAST) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, interval_max=0)
    except Exception:  # any failure to connect means "not available"
        ok = False
    _note_broker(ok)
    return ok


def _note_broker(ok: bool) -> None:
    _broker_status["checked_at"] = time.monotonic()
    _broker_status["ok"] = ok


def _queue() -> str:
    """The queue the report task goes to, read at call time (tests point it elsewhere)."""
    return getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", None) or "celery"


def _unreachable_message() -> str:
    return _(
        "The report cannot be built now: the task queue (Redis) cannot be reached. "
        "Everything else works; try again later."
    )


def _enqueue(build_id: int) -> None:
    """Queue the build task; runs after commit. When the broker cannot be reached the
    build stays QUEUED with the reason in `error` (state "unavailable")."""
    from celery import current_app as app

    from league.reports.tasks import build_season_report

    if not tasks_run_eagerly() and not broker_available():
        ReportBuild.objects.filter(pk=build_id).update(error=_unreachable_message())
        return
    try:
        # retry=False and FAIL_FAST: when Redis is down, fail at once instead of retrying
        # the publish inside the web request.
        if tasks_run_eagerly():
            build_season_report.apply_async(args=(build_id,))
        else:
            with app.connection_for_write(transport_options=FAIL_FAST) as conn:
                build_season_report.apply_async(  # type: ignore[call-arg]  # kombu publish option
                    args=(build_id,), retry=False, connection=conn, queue=_queue()
                )
    except Exception as exc:  # kombu OperationalError, redis or socket errors
        logger.warning("Report build %s could not be queued: %s", build_id, exc)
        _note_broker(False)
        ReportBuild.objects.filter(pk=build_id).update(error=_unreachable_message())
    else:
        if not tasks_run_eagerly():
            _note_broker(True)


# --------------------------------------------------------------------------- versions


def _report_version_sql() -> str:
    """`report_data_version` of the season `%(season)s` of club `%(club)s` up to year
    `%(year)s` as an SQL expression (scalar subqueries), so the builds and the version they
    are compared with are read in one query. Written out: the ORM spends about 5 ms
    building the subqueries of a query PostgreSQL answers in 0.05 ms (every
    season page reads this)."""
    season, sign_off = Season._meta.db_table, SeasonSignOff._meta.db_table
    club = Club._meta.db_table
    return (
        f'(SELECT COALESCE(SUM(v."data_version"), 0) FROM "{season}" v'
        f' WHERE v."club_id" = %(club)s AND v."year" <= %(year)s)'
        f' + (SELECT COUNT(*) FROM "{sign_off}" o WHERE o."season_id" = %(season)s)'
        f' + (SELECT c."register_version" FROM "{club}" c WHERE c."id" = %(club)s)'
        " + %(day)s"
    )


def _season_builds(season: Season) -> tuple[ReportBuild | None, ReportBuild | None]:
    """(the ready build of the season's current data version whose file can be served, or
    None; the season's latest build of any state, or None), read in one query: the latest
    build and the READY builds of the current version (the season page reads
    this on every request)."""
    build = ReportBuild._meta.db_table
    version = _report_version_sql()
    sql = (
        f'SELECT b.*, {version} AS "current_version" FROM "{build}" b'
        f' WHERE b."season_id" = %(season)s AND (b."id" = (SELECT MAX(l."id") FROM "{build}" l'
        f' WHERE l."season_id" = %(season)s) OR (b."status" = %(ready)s AND b."file" <> \'\''
        f' AND b."data_version" = {version}))'
        ' ORDER BY b."updated_at" DESC, b."id" DESC'
    )
    params = {
        "season": season.pk,
        "club": season.club_id,
        "year": season.year,
        "day": timezone.localdate().toordinal(),
        "ready": ReportBuild.Status.READY.value,
    }
    rows = list(ReportBuild.objects.raw(sql, params))
    latest = max(rows, key=lambda b: b.pk) if rows else None
    ready = next(
        (
            b
            for b in rows
            if b.status == ReportBuild.Status.READY
            and b.data_version == b.current_version  # type: ignore[attr-defined]  # raw column
            and b.file.name
        ),
        None,
    )
    if ready is not None and not ready.file.storage.exists(str(ready.file.name)):
        ready = None
    return ready, latest


def report_build_current(*, season: Season) -> ReportBuild | None:
    """The READY build of the season's current data whose file can be served, or None.
    Never a build that is queued, building, failed or stale. One query (and a look at
    the storage)."""
    return _season_builds(season)[0]


# --------------------------------------------------------------------------- requests


@transaction.atomic
def report_build_request(*, season: Season, user=None) -> ReportBuild:
    """Ask for the season report. Returns the current READY build when there is one,
    the pending build of the current data when one is queued or building, or a new
    QUEUED build whose task is queued after commit. With eager tasks (no REDIS_URL) the
    returned build is already READY (or FAILED) when the transaction was the outermost.

    A pending build that could not be queued (broker down) or that waits longer than
    WORKER_PATIENCE is queued again.
    """
    season = Season.objects.select_for_update().get(pk=season.pk)
    version = report_data_version(season=season)
    current = report_build_current(season=season)
    if current is not None:
        return current
    pending = (
        ReportBuild.objects.filter(
            season=season,
            data_version=version,
            status__in=[ReportBuild.Status.QUEUED, ReportBuild.Status.BUILDING],
        )
        .order_by("-pk")
        .first()
    )
    if pending is not None:
        waited = timezone.now() - pending.updated_at
        queued = pending.status == ReportBuild.Status.QUEUED
        # Never reached the queue (broker down), waits in vain for a worker, or died while
        # building: queue it again. A build waiting for its retry is left alone.
        unqueued = queued and pending.error and pending.attempts == 0
        if unqueued or (queued and waited > WORKER_PATIENCE) or waited > BUILD_TIMEOUT:
            ReportBuild.objects.filter(pk=pending.pk).update(
                status=ReportBuild.Status.QUEUED, error="", updated_at=timezone.now()
            )
            transaction.on_commit(partial(_enqueue, pending.pk))
        build = pending
    else:
        build = ReportBuild.objects.create(
            club_id=season.club_id,
            season=season,
            status=ReportBuild.Status.QUEUED,
            data_version=version,
            requested_by=user if getattr(user, "is_authenticated", False) else None,
        )
        transaction.on_commit(partial(_enqueue, build.pk))
    return build


def report_refresh_if_stale(*, season: Season, user=None) -> ReportBuild | None:
    """Rebuild a report that was built before and went stale because the season's data
    changed ("served again until the season's data changes, then rebuilt").
    Does nothing when nobody asked for a report yet, when one is pending, or when the
    broker is known to be down. Returns the new or pending build, or None."""
    state = report_state(season=season, check_broker=False)
    if state.state != "stale" or not broker_available():
        return None
    build = report_build_request(season=season, user=user)
    build.refresh_from_db()
    return build


# --------------------------------------------------------------------------- the build


# --------------------------------------------------------------------------- state


@dataclass
class ReportState:
    """What the season page and the API say about the report.

    `state`: none, queued, building, retrying, ready, stale, failed or unavailable.
    `ready`: the build whose file may be downloaded (only in state ready).
    `build`: the latest build (any state). `message`: a sentence for people (German).
    `worker_late`: queued longer than WORKER_PATIENCE (no worker seems to run), or
    building longer than BUILD_TIMEOUT (the worker died).
    `broker_ok`: False when the queue (Redis) cannot be reached now.
    """

    state: str
    build: ReportBuild | None
    ready: ReportBuild | None
    message: str
    worker_late: bool = False
    broker_ok: bool = True

    @property
    def can_request(self) -> bool:
        return self.state in {"none", "stale", "failed", "unavailable"} or self.worker_late


def report_state(*, season: Season, check_broker: bool = True) -> ReportState:
    """The report's state for the season page and the API (see ReportState). One query,
    plus one broker check (cached) when a build could be asked for."""
    ready, latest = _season_builds(season)
    if ready is not None:
        return ReportState("ready", ready, ready, _("The report is ready."))
    state, message, late = "none", _("No report has been built for this season yet."), False
    if latest is not None:
        status = latest.status
        if status == ReportBuild.Status.READY:
            state, message = (
                "stale",
                _("The season's data changed since the last report; it has to be built again."),
            )
        elif status == ReportBuild.Status.FAILED:
            state = "failed"
            message = _("Building the report failed: %(reason)s") % {"reason": latest.error}
        elif status == ReportBuild.Status.BUILDING:
            state, message = "building", _("The report is being built.")
            late = timezone.now() - latest.updated_at > BUILD_TIMEOUT
            if late:
                message = _("Building the report stopped without an answer; build it again.")
        elif latest.error and latest.attempts == 0:
            state, message = "unavailable", latest.error
        elif latest.error:
            state = "retrying"
            message = _("Attempt %(n)s failed (%(reason)s); the report is tried again.") % {
                "n": latest.attempts,
                "reason": latest.error,
            }
        else:
            state, message = "queued", _("The report is queued and will be built shortly.")
            late = timezone.now() - latest.updated_at > WORKER_PATIENCE
            if late:
                message = _(
                    "The report has been waiting since %(time)s: the report worker does not "
                    "seem to be running."
                ) % {"time": timezone.localtime(latest.updated_at).strftime("%H:%M")}
    broker_ok = True
    if check_broker and state in {"none", "stale", "failed", "unavailable", "queued"}:
        broker_ok = broker_available()
        if not broker_ok:
            state, message, late = "unavailable", _unreachable_message(), False
    return ReportState(state, latest, None, message, worker_late=late, broker_ok=broker_ok)


def report_build_for_download(*, season: Season) -> ReportBuild | None:
    """The build to serve: READY, of the current data, its file in the storage. None
    otherwise (the caller answers 404 or shows the state)."""
    return report_build_current(season=season)
