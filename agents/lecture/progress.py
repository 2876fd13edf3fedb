"""Plain-data views of a lecture run for the page: live progress lines and round tables.

Kept out of the page script so they can be tested without Streamlit.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def task_label(name: str, task_input: Any) -> str:
    """``research: <subtopic title>``, ``review_content`` ... : what a task is, in one line."""
    if name == "research" and isinstance(task_input, Mapping):
        subtopic = task_input.get("subtopic") or {}
        return f"research: {subtopic.get('title', '?')}"
    return name


#: The marks of :class:`TaskProgress`'s lines, in English (``{seconds}`` is a call's duration).
PROGRESS_WORDS = {
    "running": "▶ running",
    "waiting": "⏸ waiting for a human",
    "failed": "✗ failed after {seconds:.2f} s",
    "ok": "✓ {seconds:.2f} s",
}


@dataclass
class TaskProgress:
    """Turns LangGraph ``stream_mode="tasks"`` events into one line per node call.

    A start event (it has ``input``) adds a running line; the result event of
    the same task id marks it finished (or paused, or failed) with its time.
    ``words`` are the marks of the lines (the page passes them in its language).
    """

    clock: Any = time.monotonic
    words: Mapping[str, str] = field(default_factory=lambda: dict(PROGRESS_WORDS))
    _order: list[str] = field(default_factory=list)
    _label: dict[str, str] = field(default_factory=dict)
    _started: dict[str, float] = field(default_factory=dict)
    _ended: dict[str, str] = field(default_factory=dict)

    def feed(self, event: Mapping[str, Any]) -> None:
        """Records one event; events of unknown shape are ignored."""
        task_id = str(event.get("id", ""))
        if not task_id:
            return
        if "input" in event:
            self._order.append(task_id)
            self._label[task_id] = task_label(str(event.get("name", "")), event.get("input"))
            self._started[task_id] = self.clock()
            return
        seconds = self.clock() - self._started.get(task_id, self.clock())
        if event.get("error"):
            self._ended[task_id] = self.words["failed"].format(seconds=seconds)
        elif event.get("interrupts"):
            self._ended[task_id] = self.words["waiting"]
        else:
            self._ended[task_id] = self.words["ok"].format(seconds=seconds)

    @property
    def running(self) -> int:
        """How many calls have started and not ended."""
        return sum(1 for task_id in self._order if task_id not in self._ended)

    def text(self) -> str:
        """One line per call, in start order."""
        running = self.words["running"]
        return "\n".join(f"{self._label[task_id]} — {self._ended.get(task_id, running)}" for task_id in self._order)


def review_rows(values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per review, rounds in order: round, reviewer, score, feedback (joined)."""
    reviews = sorted(values.get("reviews", []), key=lambda r: (r["round"], r["reviewer"]))
    return [
        {"round": r["round"], "reviewer": r["reviewer"], "score": r["score"], "feedback": " · ".join(r["feedback"])}
        for r in reviews
    ]


def latest_reviews(values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The reviews of the latest round, reviewer by reviewer: what a gate decision is about.

    Each is ``{"round", "reviewer", "score", "feedback"}`` with ``feedback`` a list of lines, whole.
    """
    reviews = values.get("reviews", [])
    if not reviews:
        return []
    latest = max(r["round"] for r in reviews)
    return [
        {"round": r["round"], "reviewer": r["reviewer"], "score": r["score"], "feedback": list(r["feedback"])}
        for r in sorted(reviews, key=lambda r: r["reviewer"])
        if r["round"] == latest
    ]


def score_rows(values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per round: the combined score, the threshold, passed or not."""
    return [dict(score) for score in values.get("scores", [])]


def subtopic_rows(values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The plan, with whether each subtopic has its research result."""
    done = {result["subtopic_id"] for result in values.get("research", [])}
    return [
        {"id": s["id"], "title": s["title"], "description": s["description"], "researched": s["id"] in done}
        for s in values.get("subtopics", [])
    ]
