"""Charts of the season report: matplotlib, rendered to SVG text for WeasyPrint.

matplotlib is imported inside the functions (Agg backend, no pyplot), so the web process
starts without it and charts are safe to draw from any thread.

Names are drawn as plain text: matplotlib would read `$...$` in a label as mathtext, and a
member named `$x$` (or `$` alone) made the season report fail for good.
"""

from __future__ import annotations

import base64
import datetime
import io
from collections.abc import Sequence
from typing import Any

# A calm palette that stays apart on paper and for most colour-blind readers (Okabe-Ito,
# then darker tones); line styles repeat the distinction for more than eight people.
PALETTE = [
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#8C564B",
    "#7F3C8D",
    "#11A579",
    "#3969AC",
    "#F2B701",
    "#E73F74",
    "#80BA5A",
]
LINESTYLES = ["-", "--", "-.", ":"]
INK = "#222222"
GRID = "#DDDDDD"


#: The charts' matplotlib settings, applied per chart (`_style`), never to matplotlib's
#: global rcParams: a report built in a process must not restyle the statistics charts.
STYLE: dict[Any, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "axes.edgecolor": "#888888",
    "axes.labelcolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "svg.fonttype": "none",  # text stays text: smaller SVG, drawn with the PDF fonts
    "svg.hashsalt": "schockclub",  # stable ids: the same data gives the same SVG
    # Names are plain text: no mathtext for `$`, `_` or `^`.
    "text.parse_math": False,
}


def _style():
    """The charts' settings for the drawing and saving of one chart (a context manager:
    matplotlib's `rc_context`, which puts the global settings back afterwards)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    return matplotlib.rc_context(STYLE)


def _figure(width_cm: float, height_cm: float):
    """A new figure (inside `_style()`)."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width_cm / 2.54, height_cm / 2.54))


def _svg(fig) -> str:
    """The figure as a data: URI of its SVG. Each chart stays its own document, so the
    element ids matplotlib writes cannot clash between two charts of one report."""
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _style_axes(ax) -> None:
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.grid(True, axis="y", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)


def points_chart_svg(dates: Sequence[datetime.date], series: Sequence) -> str:
    """`_points_chart_svg` drawn in the charts' style (`_style`)."""
    with _style():
        return _points_chart_svg(dates, series)


def _points_chart_svg(dates: Sequence[datetime.date], series: Sequence) -> str:
    """Cumulative championship points per ranked member after each evening (one line per
    member, in standings order; docs/rules.md 5: +1 per Schock-Aus, -1 per lost game).

    `dates`: the season's evening dates in order; `series`: objects with `member.name`
    and `points` (one int per date). Returns a data: URI of the SVG ("" without evenings).
    """
    from django.utils.translation import gettext as _

    if not dates or not series:
        return ""
    from matplotlib.dates import AutoDateLocator, DateFormatter
    from matplotlib.ticker import FuncFormatter

    fig = _figure(17.5, 9.5)
    ax = fig.add_subplot()
    _style_axes(ax)
    for i, s in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        style = LINESTYLES[(i // len(PALETTE) + i // 8) % len(LINESTYLES)]
        ax.plot(
            list(dates),
            s.points,
            color=colour,
            linestyle=style,
            linewidth=1.6,
            marker="o" if len(dates) <= 15 else None,
            markersize=3,
            label=f"{s.member.name} ({s.points[-1]:+d})".replace("-", "\u2212"),
        )
    ax.axhline(0, color="#999999", linewidth=0.8)
    ax.set_ylabel(_("Points"))
    if len(dates) <= 12:
        ax.set_xticks(list(dates))
    else:
        ax.xaxis.set_major_locator(AutoDateLocator(minticks=4, maxticks=10))
    ax.xaxis.set_major_formatter(DateFormatter("%d.%m."))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{int(v)}".replace("-", "\u2212")))
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        frameon=False,
        fontsize=7.5,
        handlelength=2.4,
    )
    return _svg(fig)


def schock_aus_chart_svg(by_person: Sequence[tuple]) -> str:
    """`_schock_aus_chart_svg` drawn in the charts' style (`_style`)."""
    with _style():
        return _schock_aus_chart_svg(by_person)


def _schock_aus_chart_svg(by_person: Sequence[tuple]) -> str:
    """Schock-Aus per person in the season as horizontal bars, most first. `by_person`:
    (member, count) pairs in the order to show.

    Returns a data: URI of the SVG ("" without people).
    """
    from django.utils.translation import gettext as _

    if not by_person:
        return ""
    names = [
        m.name + (" (" + _("guest") + ")" if getattr(m, "is_guest", False) else "")
        for m, _n in by_person
    ]
    counts = [n for _m, n in by_person]
    height = 1.6 + 0.55 * len(names)
    fig = _figure(17.5, min(height, 12))
    ax = fig.add_subplot()
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.grid(True, axis="x", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    positions = list(range(len(names)))
    colours = ["#B8860B" if getattr(m, "is_guest", False) else "#0072B2" for m, _n in by_person]
    ax.barh(positions, counts, color=colours, height=0.62)
    ax.set_yticks(positions, names)
    ax.invert_yaxis()
    top = max(counts) if counts else 0
    ax.set_xlim(0, max(top * 1.12, 1))
    for y, n in zip(positions, counts, strict=True):
        ax.text(n + top * 0.01 + 0.05, y, str(n), va="center", fontsize=8, color=INK)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel(_("Schock-Aus"))
    return _svg(fig)


def chart_backend_warm() -> None:
    """Draw one tiny chart to SVG and drop it: matplotlib reads its font list and loads
    the chart font the first time a figure with text is saved, which the first report
    of a process would otherwise pay for (league/reports/warmup.py)."""
    with _style():
        fig = _figure(3, 2)
        ax = fig.add_subplot()
        _style_axes(ax)
        ax.plot([0, 1], [0, -1], label="Schock-Aus")
        ax.legend()
        _svg(fig)
