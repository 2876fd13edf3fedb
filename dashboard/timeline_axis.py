"""Time axis of the node-call timeline: scaling, compressed waits, ticks and lanes.

Pure maths on resolved node calls (``agents.timing.NodeCall``), no Plotly, so
the figure builders in :mod:`dashboard.timeline_figure` stay about drawing.

Axis design: the x coordinate is *seconds since the first node start* of the
calls shown, not a date axis. Several runs of one thread (pause, human
answer, resume) follow each other on that axis. An idle gap between two runs
longer than ``compress_waits_over`` seconds is given a small fixed width
(``WAIT_FRACTION`` of the active time, never wider than the threshold itself);
the figure marks it with its real length. Inside a run the scale is exactly
1 display unit = 1 real second, so bar lengths are true durations; tick
labels always give the *real* elapsed time since the first start, so they
jump across a compressed wait instead of lying about it.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from agents.timing import NodeCall, RunSummary
from dashboard.i18n import t
from dashboard.text_fit import text_px

LANE_SEPARATOR = " · "
#: A compressed wait takes this share of the active (non-compressed) time.
WAIT_FRACTION = 0.08
#: The most ticks an x axis gets; the size of Plotly's tick labels (its default font), and the least room
#: left between two of them where the panel's width is known.
MAX_TICKS = 8
TICK_FONT_PX = 12
TICK_GAP_PX = 8


@dataclass(frozen=True)
class AxisSegment:
    """A stretch of real time and where it lands on the x axis.

    Attributes:
        real_start: Start, Unix epoch seconds.
        real_end: End, Unix epoch seconds.
        display_start: x coordinate of ``real_start``.
        display_end: x coordinate of ``real_end``.
        compressed: True for a compressed wait between runs.
        kind: ``run``, ``gap`` (short wait kept to scale), ``human wait``
            (the run before paused on ``interrupt()``) or ``idle``.
    """

    real_start: float
    real_end: float
    display_start: float
    display_end: float
    compressed: bool
    kind: str


@dataclass(frozen=True)
class TimeAxis:
    """Piecewise-linear map from epoch seconds to x coordinates.

    Attributes:
        origin: Epoch seconds elapsed times are counted from: the first start
            (x = 0), or for a window of the latest calls of a long run, the
            run's first start, so the tick labels still give the real elapsed time.
        segments: Contiguous segments in time order.
    """

    origin: float
    segments: tuple[AxisSegment, ...]
    _starts: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_starts", tuple(s.real_start for s in self.segments))

    @property
    def span(self) -> float:
        """Width of the whole axis in display units."""
        return self.segments[-1].display_end if self.segments else 0.0

    @property
    def waits(self) -> list[AxisSegment]:
        """The compressed waits, in time order."""
        return [segment for segment in self.segments if segment.compressed]

    def to_display(self, epoch_seconds: float) -> float:
        """x coordinate of a moment (clamped to the axis ends)."""
        if not self.segments:
            return 0.0
        index = max(bisect.bisect_right(self._starts, epoch_seconds) - 1, 0)
        segment = self.segments[index]
        real = segment.real_end - segment.real_start
        fraction = (epoch_seconds - segment.real_start) / real if real > 0 else 0.0
        fraction = min(max(fraction, 0.0), 1.0)
        return segment.display_start + fraction * (segment.display_end - segment.display_start)


def lane_name(call: NodeCall) -> str:
    """Lane of a call: the node, or ``node · label`` for a labelled task."""
    return f"{call.node}{LANE_SEPARATOR}{call.label}" if call.label else call.node


def _run_intervals(runs: Sequence[RunSummary]) -> list[tuple[float, float, bool]]:
    """Merged ``(start, end, paused)`` intervals of the runs, in time order.

    ``paused`` says a run in the interval has an interrupted call, so the gap
    after it is a wait for a human. Overlapping runs (two processes on one
    thread) merge into one interval so the axis stays monotonic.
    """
    spans = sorted((run.started_at, run.ended_at, run.interrupted > 0) for run in runs)
    merged: list[tuple[float, float, bool]] = []
    for start, end, paused in spans:
        if merged and start <= merged[-1][1]:
            last_start, last_end, last_paused = merged[-1]
            merged[-1] = (last_start, max(last_end, end), last_paused or paused)
        else:
            merged.append((start, end, paused))
    return merged


def _axis_pieces(
    intervals: Sequence[tuple[float, float, bool]], compress_waits_over: float
) -> list[tuple[float, float, str]]:
    """``(start, end, kind)`` for each run interval and each gap between them."""
    pieces: list[tuple[float, float, str]] = []
    for index, (start, end, _) in enumerate(intervals):
        if index:
            _, previous_end, paused = intervals[index - 1]
            long_wait = start - previous_end > compress_waits_over
            kind = ("human wait" if paused else "idle") if long_wait else "gap"
            pieces.append((previous_end, start, kind))
        pieces.append((start, end, "run"))
    return pieces


def time_axis_of_runs(
    runs: Sequence[RunSummary], compress_waits_over: float = 5.0, *, origin: float | None = None
) -> TimeAxis:
    """Lay the runs one after another, compressing waits over ``compress_waits_over`` seconds (``math.inf``
    keeps every gap to scale); empty when there are no runs. ``runs``: ``agents.timing.Timeline.runs``.

    Only each run's first start, last end and whether it was interrupted shape
    the axis, so a caller holding the summaries need not pass every call.
    ``origin`` (at most the first start) is the moment the tick labels count
    from; by default the first start itself.

    Raises:
        ValueError: ``compress_waits_over`` is negative or NaN.
    """
    if not compress_waits_over >= 0:
        raise ValueError(f"compress_waits_over must be >= 0, got {compress_waits_over!r}")
    intervals = _run_intervals(runs)
    if not intervals:
        return TimeAxis(origin=0.0, segments=())
    pieces = _axis_pieces(intervals, compress_waits_over)
    active = sum(end - start for start, end, kind in pieces if kind in ("run", "gap"))
    # Never wider than the threshold, so a compressed wait cannot look longer
    # than a gap that was kept to scale.
    wait_width = min(compress_waits_over, WAIT_FRACTION * active if active > 0 else 1.0)
    segments, cursor = [], 0.0
    for start, end, kind in pieces:
        compressed = kind not in ("run", "gap")
        width = wait_width if compressed else end - start
        segments.append(AxisSegment(start, end, cursor, cursor + width, compressed, kind))
        cursor += width
    first = intervals[0][0]
    return TimeAxis(origin=first if origin is None else min(origin, first), segments=tuple(segments))


#: Steps of ten seconds and more that read as a clock does: seconds, minutes and hours a clock's face divides.
CLOCK_STEPS = (10, 15, 20, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 21600, 43200, 86400)


def _nice_step(span: float, target_ticks: int = MAX_TICKS) -> float:
    """Smallest step giving at most ``target_ticks`` ticks: 1/2/5 x 10^k under ten seconds, then a step of
    :data:`CLOCK_STEPS` (so a long run is ticked every 10 or 30 minutes, not every 8m 20s), then whole days."""
    raw = span / target_ticks
    if raw <= 5:
        magnitude = 10 ** math.floor(math.log10(raw))
        return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    day = CLOCK_STEPS[-1]
    return next((step for step in CLOCK_STEPS if step >= raw), None) or day * _nice_step(raw / day, 1)


def _elapsed_label(seconds: float, decimals: int) -> str:
    """``12.5 s``, ``15m 01s`` or ``1h 00m 03.5s`` (``15분 01초``, ``1시간 00분 03.5초``) in the session's
    language: never mistakable for a clock."""
    seconds = round(seconds, decimals)  # so 59.96 s reads "1m 00.0s", not "60.0 s"
    if seconds < 60:
        return f"{seconds:.{decimals}f} s"  # seconds read the same in both languages
    minutes, secs = divmod(seconds, 60)
    width = 3 + decimals if decimals else 2
    secs_text = f"{secs:0{width}.{decimals}f}"
    if minutes < 60:
        return t("timeline.tick.minutes", minutes=int(minutes), seconds=secs_text)
    hours, minutes = divmod(int(minutes), 60)
    return t("timeline.tick.hours", hours=hours, minutes=f"{minutes:02d}", seconds=secs_text)


def _tick_candidates(axis: TimeAxis, step: float) -> list[tuple[float, bool]]:
    """``(elapsed, forced)`` tick candidates; run starts after a wait are forced."""
    candidates: list[tuple[float, bool]] = []
    previous_compressed = True  # the axis start deserves a tick too
    for segment in axis.segments:
        if segment.compressed:
            previous_compressed = True
            continue
        low, high = segment.real_start - axis.origin, segment.real_end - axis.origin
        if previous_compressed:
            candidates.append((low, True))
        first, last = math.ceil(low / step), math.floor(high / step)
        candidates.extend((k * step, False) for k in range(first, last + 1))
        previous_compressed = False
    return sorted(candidates)


def axis_ticks(
    axis: TimeAxis, span: float | None = None, unit_px: float | None = None
) -> tuple[list[float], list[str]]:
    """Tick positions and labels giving real elapsed time since the axis origin.

    Ticks fall on round elapsed values inside each to-scale stretch, and every
    run start after a compressed wait gets a tick of its own, so the jump
    across the wait shows in the labels.

    Args:
        axis: The time axis of a panel.
        span: The width the panel's x range shows, when wider than the axis
            (both panels of a comparison share the longer one's range): the
            tick step follows it, so a short run's ticks are as far apart as
            its neighbour's instead of crowding into a few pixels.
        unit_px: The pixels one x unit takes where the panel is drawn narrowest.
            The step is then the smallest that leaves room between two labels
            (:data:`TICK_FONT_PX`, :data:`TICK_GAP_PX`), and a tick whose label
            would print over the previous one is left out.

    Returns:
        ``(tickvals, ticktext)`` for the x axis.
    """
    shown = max(axis.span, span or 0.0)
    if shown <= 0:
        start = axis.segments[0].real_start - axis.origin if axis.segments else 0.0
        return [0.0], [_elapsed_label(start, 0)]
    for target in range(MAX_TICKS, 1, -1):
        step = _nice_step(shown, target)
        decimals = max(0, -math.floor(math.log10(step)))
        # The labels of the round values the range shows: the same for every panel of one range, so panels
        # side by side get one step (a panel's later labels after a compressed wait are thinned below).
        widest = max(_label_px(_elapsed_label(k * step, decimals)) for k in range(math.floor(shown / step) + 1))
        if unit_px is None or step * unit_px >= widest + TICK_GAP_PX:
            break
    ticks: list[tuple[float, str, bool]] = []
    for elapsed, forced in _tick_candidates(axis, step):
        position = axis.to_display(axis.origin + elapsed)
        label = _elapsed_label(elapsed, decimals)
        if ticks and _too_close(ticks[-1], position, label, 0.5 * step, unit_px):
            if not forced or ticks[-1][2]:
                continue  # too close to the previous tick to read
            ticks.pop()  # a run start matters more than a round number
            if ticks and _too_close(ticks[-1], position, label, 0.5 * step, unit_px):
                ticks.pop()
        ticks.append((position, label, forced))
    return [tick[0] for tick in ticks], [tick[1] for tick in ticks]


def _label_px(label: str) -> float:
    return text_px(label, TICK_FONT_PX)


def _too_close(
    previous: tuple[float, str, bool], position: float, label: str, least: float, unit_px: float | None
) -> bool:
    """Whether a tick at ``position`` is nearer ``previous`` than ``least`` x units, or, on a panel of ``unit_px``
    pixels a unit, whether their labels (centred on their ticks) would come nearer than :data:`TICK_GAP_PX`."""
    apart = position - previous[0]
    if apart < least:
        return True
    return unit_px is not None and apart * unit_px < (_label_px(previous[1]) + _label_px(label)) / 2 + TICK_GAP_PX
