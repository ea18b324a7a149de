"""Loading the report libraries ahead of the first report (issue 15 item 2).

WeasyPrint and matplotlib are imported lazily, so the web process starts without them;
their imports alone cost about 1.3 s and 0.5 s of CPU, which the first season report of a
process would pay on top of its build. A Celery worker is there to build reports, so it
loads them when it starts (`league.reports.tasks` connects `report_libraries_load` to
the worker's start) and its first report is as fast as any other whose data changed.
"""

from __future__ import annotations

import logging
import time

logger = logging.getLogger(__name__)

_TINY_PAGE = "<!doctype html><html lang='de'><body><p>Schock-Aus 1,50 €</p></body></html>"


def report_libraries_load(*, render: bool = True) -> float:
    """Import WeasyPrint and the chart backend (matplotlib, Agg) and, with `render`, lay
    out one tiny page so that Pango and the fonts are set up too. Returns the seconds it
    took. A library that cannot be loaded is logged, never raised: the build that needs it
    reports the error itself (league/reports/services.py).

    Call `render=False` before a worker forks its children (no Pango state is shared
    across a fork), `render=True` in the process that will build."""
    started = time.perf_counter()
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.figure  # noqa: F401 - what league/reports/charts.py draws with
        import weasyprint

        if render:
            weasyprint.HTML(string=_TINY_PAGE).write_pdf()
    except Exception:  # noqa: BLE001 - the first build will say what is missing
        logger.warning("The report libraries could not be loaded ahead", exc_info=True)
    return time.perf_counter() - started
