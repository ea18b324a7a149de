"""Running a season report build, as the worker does it (league.reports.tasks): render
the PDF of the season's current data version, store it, mark the build ready or failed."""

from __future__ import annotations

import logging
import os
import uuid
from functools import partial

from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Count, Max, Subquery, Sum
from django.utils import timezone

from league.closing.models import SeasonSignOff
from league.club.models import Season
from league.reports.models import ReportBuild

logger = logging.getLogger(__name__)


def report_data_version(*, season: Season) -> int:
    """The data version a season report is built from: the sum of `data_version` over the
    club's seasons up to and including this one (the records read them all), plus the
    number of the season's Kassenprüfer signatures (league.closing: a signature is no
    change of the books and leaves `data_version`, but the report shows it), plus the
    club's `register_version` (the club's and the people's names it prints), plus today's
    day number (the report prints "Stand <day>" and whether the season still runs). Each
    only ever grows, so every change, signature, rename or new day gives a new version.
    One query."""
    signed = (
        SeasonSignOff.objects.filter(season_id=season.pk)
        .order_by()
        .values("season_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    total = Season.objects.filter(club_id=season.club_id, year__lte=season.year).aggregate(
        v=Sum("data_version"), signed=Max(Subquery(signed)), register=Max("club__register_version")
    )
    return (
        int(total["v"] or 0)
        + int(total["signed"] or 0)
        + int(total["register"] or 0)
        + timezone.localdate().toordinal()
    )


def _final_name(build: ReportBuild, version: int) -> str:
    season = build.season
    return f"reports/{season.club_id}/saisonbericht-{season.year}-v{version}-{build.pk}.pdf"


def _store_pdf(*, build: ReportBuild, version: int, pdf: bytes) -> str:
    """Write the PDF to the storage under a temporary name, check it is complete, then
    give it its final name (an atomic rename on the file system). Returns the final name.
    Nothing points to the file until the caller marks the build READY."""
    storage = build.file.storage
    tmp = storage.save(f"reports/tmp/{uuid.uuid4().hex}.part", ContentFile(pdf))
    final = _final_name(build, version)
    try:
        if storage.size(tmp) != len(pdf):
            raise OSError(f"incomplete write: {storage.size(tmp)} of {len(pdf)} bytes")
        try:
            tmp_path, final_path = storage.path(tmp), storage.path(final)
        except NotImplementedError:  # remote storages: copy to the final name
            with storage.open(tmp, "rb") as fh:
                final = storage.save(final, fh)
            storage.delete(tmp)
        else:
            os.makedirs(os.path.dirname(final_path), exist_ok=True)
            os.replace(tmp_path, final_path)
    except Exception:
        if storage.exists(tmp):
            storage.delete(tmp)
        raise
    return final


def report_build_run(*, build_id: int) -> ReportBuild | None:
    """Build one requested report (called by the Celery task). Marks it BUILDING, renders
    the PDF, stores it atomically and marks it READY with the data version read *before*
    the data (so a change during the build leaves the report stale, never wrong).
    Returns the build, or None when it no longer exists. Errors propagate (the task
    retries); the build is then not READY and its file is never served.

    Only READY is skipped: a build left "building" by a worker that died (the task is
    delivered again) is taken over and built anew, its attempt counted."""
    from league.reports.pdf import (
        build_season_report_pdf,
    )

    with transaction.atomic():
        build = (
            ReportBuild.objects.select_for_update()
            .select_related("season")
            .filter(pk=build_id)
            .first()
        )
        if build is None or build.status == ReportBuild.Status.READY:
            return build
        build.status = ReportBuild.Status.BUILDING
        build.attempts += 1
        build.error = ""
        build.save(update_fields=["status", "attempts", "error", "updated_at"])
    version = report_data_version(season=build.season)
    pdf = build_season_report_pdf(season=build.season)
    name = _store_pdf(build=build, version=version, pdf=pdf)
    with transaction.atomic():
        build = ReportBuild.objects.select_for_update().get(pk=build_id)
        build.file.name = name
        build.data_version = version
        build.status = ReportBuild.Status.READY
        build.error = ""
        build.save(update_fields=["file", "data_version", "status", "error", "updated_at"])
        old = list(
            ReportBuild.objects.filter(season_id=build.season_id)
            .exclude(pk=build.pk)
            .exclude(file="")
            .values_list("pk", "file")
        )
        ReportBuild.objects.filter(pk__in=[pk for pk, _f in old]).update(file="")
        transaction.on_commit(partial(_delete_files, [f for _pk, f in old]))
    return build


def _delete_files(names: list[str]) -> None:
    from django.core.files.storage import default_storage

    for name in names:
        try:
            default_storage.delete(name)
        except OSError:  # a file already gone is fine
            logger.info("Old report file %s was already gone", name)


def report_build_retrying(*, build_id: int, reason: str) -> None:
    """An attempt failed and the task will try again: back to QUEUED with the reason."""
    ReportBuild.objects.filter(pk=build_id).exclude(status=ReportBuild.Status.READY).update(
        status=ReportBuild.Status.QUEUED, error=reason[:2000], updated_at=timezone.now()
    )


def report_build_fail(*, build_id: int, reason: str) -> None:
    """The last attempt failed: FAILED with the reason (shown on the page and the API)."""
    ReportBuild.objects.filter(pk=build_id).exclude(status=ReportBuild.Status.READY).update(
        status=ReportBuild.Status.FAILED, error=reason[:2000], updated_at=timezone.now()
    )
