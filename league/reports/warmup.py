"""Loading the report libraries ahead of the first report.

WeasyPrint and matplotlib are imported lazily, so the web process starts without them;
their imports alone cost about 1.3 s and 0.5 s of CPU, which the first season report of a
process would pay on top of its build. A Celery worker is there to build reports, so it
loads them when it starts (`league.reports.tasks` connects `report_libraries_load` to
the worker's start) and its first report is as fast as any other whose data changed.
"""

from __future__ import annotations

import base64
import logging
import time

logger = logging.getLogger(__name__)

# What a report sets up on its first page the first time: the regular and the bold face,
# a table, and an SVG image with text (the charts are SVG with their text as text).
_TINY_SVG = "data:image/svg+xml;base64," + base64.b64encode(
    b"<svg xmlns='http://www.w3.org/2000/svg' width='40' height='10'>"
    b"<text x='0' y='8' font-family='DejaVu Sans' font-size='8'>Punkte 1</text></svg>"
).decode("ascii")
_TINY_PAGE = (
    "<!doctype html><html lang='de'><head><style>"
    "html { font-family: 'Liberation Sans', 'DejaVu Sans', sans-serif; }"
    "th { text-transform: uppercase; }</style></head><body>"
    "<p>Schock-Aus 1,50 € <b>Runde</b></p>"
    "<table><thead><tr><th>Platz</th></tr></thead><tbody><tr><td>−3</td></tr></tbody></table>"
    f'<img src="{_TINY_SVG}" alt=""></body></html>'
)


def report_libraries_load(*, render: bool = True) -> float:
    """Import WeasyPrint and the chart backend (matplotlib, Agg) and, with `render`, lay
    out one tiny page (regular and bold text, a table, an SVG image with text) and draw one
    tiny chart, so that Pango, the fonts and matplotlib's font manager are set up too: the
    first report then costs what any later one does. Returns the seconds it
    took. A library that cannot be loaded is logged, never raised: the build that needs it
    reports the error itself (league/reports/pdf.py).

    Call `render=False` before a worker forks its children (no Pango state is shared
    across a fork), `render=True` in the process that will build."""
    started = time.perf_counter()
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.figure  # what league/reports/charts.py draws with
        import weasyprint

        if render:
            from league.reports.charts import chart_backend_warm

            weasyprint.HTML(string=_TINY_PAGE).write_pdf()
            chart_backend_warm()
    except Exception:  # the first build will say what is missing
        logger.warning("The report libraries could not be loaded ahead", exc_info=True)
    try:
        _django_warm()
    except Exception:  # the first build will say what is missing
        logger.warning(
            "The report's catalogue and templates could not be loaded ahead", exc_info=True
        )
    return time.perf_counter() - started


def _django_warm() -> None:
    """Load the German message catalogue (every app's .mo file, read on the first
    translation under German) and the report's template with its tag libraries: about a
    tenth of a second the first report of a process would otherwise pay."""
    from django.template.loader import get_template
    from django.utils import translation

    with translation.override("de"):
        translation.gettext("Season report")
    get_template("reports/season_report.html")
