"""The checkpoint graph's hover lines, and which points each source and ring draws, in one pass.

Apart from `dashboard.checkpoint_figure` because it runs once per point: a 10,000-checkpoint thread
makes 10,000 hover lines, so each is one f-string of pieces made once (a long thread repeats the
same few sources and (writers, next, lane) lines thousands of times). Every name is escaped, never
read as HTML.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from agents.chain_layout import ChainColumns
from agents.errors import SHORT_ID_LENGTH


@dataclass(frozen=True, slots=True)
class PointRows:
    """What the point traces take from the checkpoints, gathered in one pass, in walk order."""

    ids: list[str]
    hover: list[str]
    by_source: dict[str, list[int]]  # source → its points, in walk order
    heads: list[int]
    waiting: list[int]


def point_rows(columns: ChainColumns, text: Mapping[str, str]) -> PointRows:
    """Ids, hover lines, points per source and ringed points of every point, in one pass.

    Hover names are escaped, never read as HTML. One f-string per point from pieces made once:
    a long thread repeats the same few sources and (writers, next, lane) lines thousands of times.
    """
    step, writers, next_, lane = text["step"], text["writers"], text["next"], text["lane"]
    lane_names = {n: html.escape(lane_label(n, text)) for n in set(columns.lanes)}
    lead = f"<b>{step} "
    middles: dict[str, str] = {}  # source → the line's text between the step and the short id
    tails: dict[tuple[tuple[str, ...], tuple[str, ...], int], str] = {}
    orphans = set(columns.orphans)
    ids: list[str] = []
    hover: list[str] = []
    by_source: dict[str, list[int]] = {}
    heads: list[int] = []
    waiting: list[int] = []
    add_id, add_hover = ids.append, hover.append
    last: tuple[object, object, int] = ((), (), -1)  # the tail's key of the point before
    tail = middle = ""
    last_source: str | None = None
    no_points: list[int] = []
    add_to_source: Callable[[int], None] = no_points.append  # replaced at the first point: a source is never None
    for i, (point, lane_of) in enumerate(zip(columns.points, columns.lanes, strict=True)):
        checkpoint_id, source_of = point.checkpoint_id, point.source
        add_id(checkpoint_id)
        # Neighbours mostly share their source: its pieces are looked up when it changes.
        if source_of != last_source:
            last_source = source_of
            known_middle = middles.get(source_of)
            if known_middle is None:
                shown_source = html.escape(text.get(f"source.{source_of}", source_of))
                known_middle = middles[source_of] = f"</b> · {shown_source}<br>id "
                by_source[source_of] = []
            middle, add_to_source = known_middle, by_source[source_of].append
        add_to_source(i)
        wrote, then = point.writers, point.next
        # Neighbours along a lane mostly share their (writers, next) tuples: the same objects.
        if wrote is not last[0] or then is not last[1] or lane_of != last[2]:
            key = last = (wrote, then, lane_of)
            known = tails.get(key)
            if known is None:
                known = tails[key] = (
                    f"<br>{writers}: {names_text(wrote)}<br>{next_}: {names_text(then)}"
                    f"<br>{lane}: {lane_names[lane_of]}"
                )
            tail = known
        # short_checkpoint_id inline: up to 8 characters after the last '-' (the start, without one).
        cut = checkpoint_id.rfind("-") + 1
        short = checkpoint_id[cut : cut + SHORT_ID_LENGTH]
        if not short.isalnum():  # LangGraph's ids are hex; anything else is escaped
            short = html.escape(short)
        line = f"{lead}{point.step}{middle}{short}{tail}"
        is_waiting, is_head = point.is_waiting, point.is_head
        if is_waiting or is_head or i in orphans:
            flags = (text["waiting"], text["head"], text["orphan"])
            wanted = (is_waiting, is_head, i in orphans)
            line += "".join(f"<br>{flag}" for flag, on in zip(flags, wanted, strict=True) if on)
            if is_waiting:
                waiting.append(i)
            if is_head:
                heads.append(i)
        add_hover(line)
    return PointRows(ids, hover, by_source, heads, waiting)


@functools.lru_cache(maxsize=1024)
def names_text(names: tuple[str, ...]) -> str:
    """Comma-joined node names, escaped; a hyphen when there are none.

    Cached: a long thread repeats the same few name tuples thousands of times.
    """
    return html.escape(", ".join(names)) if names else "-"


def lane_label(lane: int, text: Mapping[str, str]) -> str:
    """Axis label of a lane: "main" for 0, "branch n" otherwise."""
    return text["main"] if lane == 0 else text["branch"].format(n=lane)


@functools.lru_cache(maxsize=1024)
def label_text(names: tuple[str, ...]) -> str:
    """A point's label: its writers in a few characters, escaped (the hover keeps every name).

    Labels stand a step apart, so a long one runs into its neighbour ("reseawrite"). One writer is its
    name; several of one node, or of one family (``review_content``, ``review_difficulty``), are the
    node or family once with a count (``research ×5``, ``review ×3``); any others, the first and how
    many more (``plan +1``).
    """
    if not names:
        return ""
    if len(names) == 1:
        return html.escape(names[0])
    if len(set(names)) == 1:
        return html.escape(f"{names[0]} ×{len(names)}")
    families = {name.split("_", 1)[0] for name in names}
    if len(families) == 1 and all("_" in name for name in names):
        return html.escape(f"{families.pop()} ×{len(names)}")
    return html.escape(f"{names[0]} +{len(names) - 1}")
