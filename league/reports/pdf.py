"""The PDFs of the season report and the evening sheet.

The builders render the data the selectors read (league/reports/selectors.py:
`season_report_data`) with Django templates under German and WeasyPrint and return the PDF
as bytes; they write nothing. Storing and serving the season report is
league/reports/builds.py; the Celery task is league/reports/tasks.py.

Sources: docs/rules.md section 5 (points, places, Marks, Runden).
Money is Decimal in the season's currency; Marks are integers.
"""

from __future__ import annotations

import datetime
import gc
import hashlib
import json
import logging
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation

from games.evenings.models import Evening
from games.evenings.selectors import EveningBooks, evening_books
from league.closing.selectors import (
    season_sign_offs,
)
from league.club.caching import KeptRead
from league.club.models import Season
from league.reports.selectors import (
    SeasonReport,
    season_report_data,
)

REPORT_LANGUAGE = "de"


logger = logging.getLogger(__name__)

# Drawn charts and rendered reports are kept this long in the cache (Redis when configured,
# else in memory).
CHART_CACHE_SECONDS = 30 * 24 * 3600
# Raise when the drawing of the charts changes: entries of the old drawing are not read.
CHART_FORMAT = 1


#: A PDF by the digest of its HTML (which holds everything it shows) and a chart by the
#: digest of what it draws: nothing of a club beyond that (the calls add the digest).
REPORT_PDF = KeptRead("report-pdf", depends=(), seconds=CHART_CACHE_SECONDS)
SEASON_REPORT_CHART = KeptRead("season-report-chart", depends=(), seconds=CHART_CACHE_SECONDS)


def _render_pdf(template: str, context: dict[str, Any], *, cached: bool = False) -> bytes:
    """Render a template under German and turn it into PDF bytes with WeasyPrint.

    With `cached`, the PDF is kept in the cache under a digest of the rendered HTML and
    taken from there when the same HTML is rendered again: the HTML holds every figure,
    name and date the PDF shows, so the same HTML gives the same PDF, and any change of
    the data (its version moved, a name, an earlier season's record) gives other HTML
    (WeasyPrint is nearly all of a build's time)."""
    with translation.override(REPORT_LANGUAGE):
        html = render_to_string(template, context)
    if not cached:
        return _weasyprint(html)
    # Kept through the one contract of kept reads (league/club/caching.py: computed when
    # the cache cannot be reached or inside a transaction).
    digest = hashlib.sha256(html.encode("utf-8")).hexdigest()
    return REPORT_PDF.cached(digest, build=lambda: _weasyprint(html))


def _weasyprint(html: str) -> bytes:
    from weasyprint import HTML

    with translation.override(REPORT_LANGUAGE):
        pdf: bytes = HTML(string=html, base_url=".").write_pdf()
    return pdf


def _chart_key(kind: str, content: Any) -> str:
    """What names a chart in the cache: a digest of everything it draws (dates, names,
    figures, the language), so it changes whenever the season's data version moves or a
    name changes, and never names a chart of other data."""
    text = json.dumps([CHART_FORMAT, kind, translation.get_language(), content], default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _cached_chart(kind: str, content: Any, draw: Callable[[], str]) -> str | None:
    """The chart `kind` from the cache, else drawn by `draw` and cached. A chart that cannot
    be drawn is logged with its traceback and answered None (the report says it is
    missing); a cache that cannot be reached only costs the drawing."""
    try:
        return SEASON_REPORT_CHART.cached(_chart_key(kind, content), build=draw)
    except Exception:  # a chart must not cost the whole report
        logger.exception("Season report chart %r could not be drawn", kind)
        return None


def season_report_charts(report: SeasonReport) -> None:
    """Fill `report.charts` ({"points", "schock_aus"}: data: URIs of SVGs, "" when there
    is nothing to draw) and `report.charts_failed` (the kinds that could not be drawn).
    Charts come from the cache when the same data was drawn before (matplotlib is most of a warm
    build's time)."""
    from league.reports.charts import points_chart_svg, schock_aus_chart_svg

    points_content = [
        report.evening_dates,
        [(s.member.pk, s.member.name, s.points) for s in report.series],
    ]
    schock_aus_content = [
        (m.pk, m.name, getattr(m, "is_guest", False), n) for m, n in report.schock_aus_by_person
    ]
    charts = {
        "points": _cached_chart(
            "points",
            points_content,
            lambda: points_chart_svg(report.evening_dates, report.series),
        ),
        "schock_aus": _cached_chart(
            "schock_aus",
            schock_aus_content,
            lambda: schock_aus_chart_svg(report.schock_aus_by_person),
        ),
    }
    report.charts = {kind: svg or "" for kind, svg in charts.items()}
    report.charts_failed = [kind for kind, svg in charts.items() if svg is None]


_gc_lock = threading.Lock()
# Builds running now in this process, and whether collection was on before the first.
_gc_pause = {"builds": 0, "was_enabled": True}


@contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection for the `with` block: a build makes hundreds of
    thousands of short-lived objects (WeasyPrint's boxes, matplotlib's artists), and each
    collection of the old generations walks every object of the process (Django, both
    libraries) again: about a sixth of WeasyPrint's CPU time. Reference
    counting still frees nearly all of it; the few cycles are collected later, as usual.
    Builds in several threads keep it paused until the last one ends; it is only turned
    back on when it was on before the first."""
    with _gc_lock:
        if _gc_pause["builds"] == 0:
            _gc_pause["was_enabled"] = gc.isenabled()
            gc.disable()
        _gc_pause["builds"] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pause["builds"] -= 1
            if _gc_pause["builds"] == 0 and _gc_pause["was_enabled"]:
                gc.enable()


def build_season_report_pdf(*, season: Season, today: datetime.date | None = None) -> bytes:
    """The season report as PDF bytes, German, A4: cover, standings, charts,
    dues, Schock-Aus chronicle, evenings, all-time records. A chart that cannot be drawn
    is left out with a note (logged); database and rendering errors propagate (the task
    retries them). Charts and the PDF come from the cache when the same data was drawn
    and rendered before (`season_report_charts`, `_render_pdf`). A failure is logged with
    its traceback before it propagates: the report page shows a German message, never the
    exception."""
    try:
        with _gc_paused():
            with translation.override(REPORT_LANGUAGE):
                report = season_report_data(season=season, today=today)
                season_report_charts(report)
                # The Kassenprüfer's signatures with their state (league.closing).
                sign_offs = season_sign_offs(season=season)
            context = {"report": report, "sign_offs": sign_offs}
            return _render_pdf("reports/season_report.html", context, cached=True)
    except Exception:
        logger.exception("The season report of season %s could not be built", season.pk)
        raise


def build_evening_sheet_pdf(*, evening: Evening) -> bytes:
    """One page to post in the club's chat after an evening: who came, games lost,
    Schock-Aus, points, Marks and money per person, totals, the Schock-Aus with their
    ordinals and the Runden owed (docs/rules.md 5). Returns PDF bytes."""
    books: EveningBooks = evening_books(evening=evening)
    by_number: dict[int, list[str]] = defaultdict(list)
    for line in books.schock_aus:
        by_number[line.game].append(line.thrower.name)
    games = [(g, by_number.get(g.number, [])) for g in books.games]
    reasons = {r.ordinal: r.reason for r in books.runden}
    members = [p for p in books.people if not p.guest and not p.absent]
    guests = [p for p in books.people if p.guest]
    absent = [p for p in books.people if p.absent]
    context = {
        "books": books,
        "evening": books.evening,
        "season": books.evening.season,
        "club": books.evening.club,
        "people": members + guests + absent,
        "games": games,
        "reasons": reasons,
        "runden_total": len(books.runden),
        "generated_on": timezone.localdate(),
        # Past about 30 games or 8 Schock-Aus the sheet is set denser to stay on one page.
        "dense": len(books.games) > 30 or len(books.schock_aus) > 8,
    }
    return _render_pdf("reports/evening_sheet.html", context)
