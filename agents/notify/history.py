"""Waiting episodes read from the checkpoint history, so a wait that began and ended between two scans is told.

A thread's status says how it stands now: a thread that started waiting and was decided (or waited and was
answered twice) between two scans shows neither wait. But LangGraph keeps the ``__interrupt__`` write of
every checkpoint a thread waited at, answered or not, so each scan also reads those writes for the threads
whose head moved since the previous scan (:class:`agents.notify.outbox.Cursor`, kept in checkpoint ids, the
writers' own time, with :data:`MARGIN_SECONDS` for a write that lands late or a clock a little apart). Every
path that writes a checkpoint (a page, the CLI, the API, ``langgraph dev``) leaves those writes, so none
needs a hook.

Each past wait is a ``waiting`` event of the same key as a scan that saw it live would have made (its
checkpoint's time is its ``waiting_since``), so it is recorded once however it is found. A past wait that a
later one followed is closed without a message; the last one is decided by the scan like any recorded wait
(:func:`agents.notify.scan.ended_episodes`). History from before notifications were first on, or older than
the outbox keeps delivered events (``HITL_NOTIFY_KEEP_DAYS``), is not news.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections import defaultdict
from typing import Any

from agents import lifecycle
from agents.db import Store
from agents.loaded import is_instance
from agents.notify.facts import question_facts
from agents.notify.outbox import Cursor, Event, recorded_ids
from agents.readmodel import checkpoint_time

logger = logging.getLogger(__name__)

#: How far before the last scan's newest head a head counts as moved since: a checkpoint written a little
#: after its id was made, or by a process whose clock is a little apart, is still read.
MARGIN_SECONDS = 300.0


def _payloads(store: Store, writes: list[tuple[str, Any]]) -> list[Any]:
    """The questions of a checkpoint's interrupt writes, in order (a write that cannot be read is left out)."""
    found: list[Any] = []
    for type_, blob in writes:
        try:
            saved = store.saver.serde.loads_typed((type_, bytes(blob)))
        except Exception as error:  # a damaged write: the wait is still told, without its question
            logger.warning("an interrupt write could not be read for a notification: %s", error)
            continue
        for item in saved if isinstance(saved, list | tuple) else [saved]:
            found.append(item.value if is_instance(item, "langgraph.types", "Interrupt") else item)
    return found


def _facts(status: lifecycle.ThreadStatus, questions: list[Any], lang: str) -> dict[str, Any]:
    """What the message says of a past wait on ``questions`` (:func:`agents.notify.facts.question_facts`): its
    case and amount, and its question in ``lang`` worded as the inbox words a waiting thread's
    (:meth:`agents.lifecycle.ThreadStatus.reason_in`)."""
    question = ""
    if questions:
        asked = dataclasses.replace(status, status="waiting", payload=questions[0], reason="", reason_text=None)
        question = asked.reason_in(lang)
    return question_facts(status.agent, questions, question)


def horizon(cursor: Cursor, keep_days: int, now: dt.datetime) -> float:
    """The earliest time (POSIX seconds) a past wait may have begun and still be news."""
    oldest = now.timestamp() - keep_days * 86400.0
    if not cursor.first:
        return oldest
    return max(oldest, checkpoint_time(cursor.first).timestamp())


def past_episodes(
    store: Store, statuses: list[lifecycle.ThreadStatus], cursor: Cursor, keep_days: int, lang: str, now: dt.datetime
) -> tuple[list[Event], list[Event]]:
    """(``waiting`` events not recorded yet, closing markers) of the past waits of the threads that moved.

    A past wait is one at a checkpoint that is no longer its thread's head. It is closed (an ``ended``
    marker, no message) when a later wait followed it; the latest stays open for the scan to decide.
    """
    since = checkpoint_time(cursor.last).timestamp() - MARGIN_SECONDS if cursor.last else None
    moved = {s.thread_id: s for s in statuses if since is None or s.updated_at.timestamp() >= since}
    if not moved:
        return [], []
    with store.read() as read:
        rows = store.queries.interrupt_writes(read, sorted(moved))
    waits: dict[str, dict[str, list[tuple[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for thread_id, checkpoint_id, type_, blob in rows:
        waits[thread_id][checkpoint_id].append((type_, blob))  # every question the checkpoint waited on
    earliest = horizon(cursor, keep_days, now)
    candidates: list[tuple[lifecycle.ThreadStatus, str, dt.datetime]] = []
    closed: list[Event] = []
    for thread_id, at in waits.items():
        status = moved[thread_id]
        past = sorted(c for c in at if c < status.head_checkpoint_id)
        for index, checkpoint_id in enumerate(past):
            start = checkpoint_time(checkpoint_id)
            if start.timestamp() < earliest:
                continue
            candidates.append((status, checkpoint_id, start))
            if index < len(past) - 1 or status.head_checkpoint_id in at:  # a later wait followed it
                episode = start.isoformat()
                closed.append(Event("ended", thread_id, status.agent, episode, start.timestamp()))
    keys = [f"waiting:{status.thread_id}:{start.isoformat()}" for status, _c, start in candidates]
    known = recorded_ids(store, keys + [event.event_id for event in closed])
    found: list[Event] = []
    for key, (status, checkpoint_id, start) in zip(keys, candidates, strict=True):
        if key in known:
            continue
        facts = _facts(status, _payloads(store, waits[status.thread_id][checkpoint_id]), lang)
        with store.read() as read:
            after = store.queries.next_checkpoint(read, status.thread_id, checkpoint_id)
        end = checkpoint_time(after) if after else status.updated_at
        facts["waited_seconds"] = max(0.0, end.timestamp() - start.timestamp())
        found.append(Event("waiting", status.thread_id, status.agent, start.isoformat(), start.timestamp(), facts))
    return found, [event for event in closed if event.event_id not in known]
