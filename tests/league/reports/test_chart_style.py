"""The report's charts draw in their own style and leave matplotlib's global settings as
they were: a report built in a process never restyles the statistics charts after it."""

import datetime
from types import SimpleNamespace

import matplotlib

from league.reports.charts import chart_backend_warm, points_chart_svg, schock_aus_chart_svg
from league.statistics.charts import schock_aus_chart_svg as statistics_chart_svg


def _statistics_chart() -> str:
    return statistics_chart_svg(names=["Anna", "Bernd"], thrown=[3, 1], expected=[None, None])


def _settings() -> dict:
    # The backend is the process's choice (Agg, chosen once), not a chart's style.
    return {k: v for k, v in matplotlib.rcParams.items() if not k.startswith("backend")}


def test_report_charts_leave_matplotlibs_global_settings_as_they_were():
    matplotlib.use("Agg")
    before = _settings()
    person = SimpleNamespace(name="Anna", is_guest=False)
    points_chart_svg(
        [datetime.date(2026, 10, 9), datetime.date(2026, 10, 16)],
        [SimpleNamespace(member=person, points=[1, -1])],
    )
    schock_aus_chart_svg([(person, 2)])
    chart_backend_warm()
    assert _settings() == before


def test_a_statistics_chart_is_the_same_before_and_after_a_report_chart():
    with matplotlib.rc_context():  # matplotlib's defaults here, whatever ran before
        matplotlib.rcdefaults()
        first = _statistics_chart()
        person = SimpleNamespace(name="Anna", is_guest=False)
        schock_aus_chart_svg([(person, 2)])
        assert _statistics_chart() == first
