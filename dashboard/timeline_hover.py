"""Hover texts and words of the node-call timeline, and how a panel draws one call.

Used by :mod:`dashboard.timeline_figure`: the hover box of a call gives its
node, label, exact start, end and duration (to the millisecond, or to the
microsecond below one second), superstep, run and status, in the session's
language; a call drawn wider than it lasted (``Pen.min_width``) says so.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from agents.durations import exact_duration
from agents.timing import NodeCall
from dashboard.i18n import t
from dashboard.timeline_axis import TimeAxis

#: The statuses a node-log row ends in, in the order the timeline draws and lists them.
STATUS_ORDER = ("ok", "error", "interrupted", "running")


@dataclass(frozen=True)
class Texts:
    """The figure's words in the session's language, looked up once per figure, not per call."""

    hover: str
    statuses: dict[str, str]
    open_end: str
    so_far: str
    widened: str
    error: str

    @staticmethod
    def now() -> Texts:
        hover = (
            "<b>%{customdata[0]}</b><br>"
            + t("timeline.hover.label")
            + ": %{customdata[1]}<br>"
            + t("timeline.hover.start")
            + ": %{customdata[2]}<br>"
            + t("timeline.hover.end")
            + ": %{customdata[3]}<br>"
            + t("timeline.hover.duration")
            + ": %{customdata[4]}<br>"
            + t("timeline.hover.step")
            + ": %{customdata[5]} ("
            + t("timeline.hover.run")
            + " %{customdata[6]})<br>"
            + t("timeline.hover.status")
            + ": %{customdata[7]}%{customdata[8]}<extra></extra>"
        )
        return Texts(
            hover=hover,
            statuses={status: t(f"timeline.status.{status}") for status in STATUS_ORDER},
            open_end=t("timeline.hover.open_end"),
            so_far=t("timeline.hover.so_far"),
            widened=t("timeline.hover.widened"),
            error=t("timeline.hover.error"),
        )

    def status(self, status: str) -> str:
        return self.statuses.get(status, escape(status))


def clock_text(epoch_seconds: float) -> str:
    moment = datetime.fromtimestamp(epoch_seconds, tz=UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + " UTC"


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` escaped, so Plotly shows it as text."""
    # quote=False: Plotly decodes &amp; &lt; &gt; but not &quot;.
    return html.escape(text, quote=False)


def customdata(call: NodeCall, texts: Texts, min_width: float = 0.0) -> list[str | int]:
    end = clock_text(call.ended_at)
    if call.open:
        end = texts.open_end.format(end=end)
    error = f"<br>{texts.error}: {escape(call.error[:300])}" if call.error else ""
    duration = exact_duration(call.duration) + (texts.so_far if call.open else "")
    if call.duration < min_width:  # drawn wider than it lasted, so it can be seen
        duration += texts.widened.format(width=exact_duration(min_width))
    return [
        escape(call.node),
        escape(call.label) or "—",
        clock_text(call.started_at),
        end,
        duration,
        call.step,
        escape(call.run_id[:12]),
        texts.status(call.status),
        error,
    ]


@dataclass(frozen=True)
class Pen:
    """How one panel draws a call: its axis, the narrowest bar, its words and its axes' names."""

    axis: TimeAxis
    min_width: float
    texts: Texts
    xaxis: str = "x"
    yaxis: str = "y"

    def span(self, calls: Sequence[NodeCall]) -> tuple[np.ndarray, np.ndarray]:
        """Starts and drawn ends on the x axis: never closer than ``min_width``."""
        starts = np.array([self.axis.to_display(call.started_at) for call in calls], dtype=float)
        ends = np.array([self.axis.to_display(call.ended_at) for call in calls], dtype=float)
        return starts, np.maximum(ends, starts + self.min_width)

    def hover(self, calls: Sequence[NodeCall]) -> list[list[str | int]]:
        return [customdata(call, self.texts, self.min_width) for call in calls]
