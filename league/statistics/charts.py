"""Charts of the statistics pages: matplotlib SVG text for the page.

matplotlib is imported inside the function (Agg backend, no pyplot); names are plain text
(``text.parse_math`` off: a member named ``$x$`` must not be read as mathtext).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from decimal import Decimal

THROWN = "#0072B2"
EXPECTED = "#E69F00"
LOST = "#D55E00"


def schock_aus_chart_svg(
    *, names: Sequence[str], thrown: Sequence[int], expected: Sequence[Decimal | None]
) -> str:
    """A horizontal bar chart, one row per person: Schock-Aus thrown beside expected (the
    expectation drawn as 0 where unknown). Returns the SVG document as text (stable ids)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    with matplotlib.rc_context(
        {
            "font.family": "DejaVu Sans",
            "font.size": 9,
            "svg.fonttype": "none",
            "svg.hashsalt": "schockclub-statistics",
            "text.parse_math": False,
        }
    ):
        height = 1.2 + 0.32 * max(len(names), 1)
        fig = Figure(figsize=(6.4, height))
        ax = fig.add_subplot()
        rows = list(range(len(names)))
        ax.barh([r - 0.2 for r in rows], list(thrown), height=0.4, color=THROWN, label="Schock-Aus")
        ax.barh(
            [r + 0.2 for r in rows],
            [float(e) if e is not None else 0.0 for e in expected],  # drawing only, not money
            height=0.4,
            color=EXPECTED,
            label="Erwartet",
        )
        ax.set_yticks(rows, labels=list(names))
        ax.invert_yaxis()
        ax.legend(loc="lower right", frameon=False)
        ax.spines[["top", "right"]].set_visible(False)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buf.getvalue()
