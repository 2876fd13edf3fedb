"""Finds the events to tell people about, from what the database holds, and records each once.

A scan reads every thread's status (``agents.lifecycle``, the one status every page, the CLI and the API
show), so a thread started or answered by any path (a page, the sidebar form, raw mode, the CLI, the API,
``langgraph dev``) is seen without a hook in each. A waiting episode is a thread's ``waiting_since``: a
thread that waits gives ``waiting``; one past its agent's deadline (``HITL_SLA``) gives ``overdue``, and,
when it asks for an amount to be approved, ``escalated`` (to the senior approvers); a recorded waiting
episode whose thread is now done gives ``decided``; the agents' records of deleted unfinished threads
(the refund's deletion audit) give ``deleted``. Each event's id holds its kind, thread and episode, so the
outbox's key makes it once, however many processes scan.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from agents import lifecycle, runtime
from agents.db import Store
from agents.notify import history
from agents.notify.outbox import NO_CHANNEL, Event, advance_cursor, open_episodes, record, recorded_ids, scan_cursor
from agents.readmodel import to_jsonable
from agents.registry import AGENTS
from agents.settings import Settings

logger = logging.getLogger(__name__)

#: What an event keeps of a waiting question and of the thread's values: what its message says, and who
#: requested it (so the requester is never asked to approve their own case).
PAYLOAD_FACTS = ("case_id", "customer", "amount", "requested_amount")
VALUE_FACTS = ("requested_by", "requested_by_name", "requested_by_names")
#: A deletion older than this when first seen is not announced (news to no one by then).
DELETION_NEWS_SECONDS = 7 * 86400


def _payload_facts(status: lifecycle.ThreadStatus, lang: str) -> dict[str, Any]:
    """What the message says of a waiting question: its case, amount, and the question in ``lang``."""
    payload = status.payload if isinstance(status.payload, dict) else {}
    facts = {key: to_jsonable(payload[key]) for key in PAYLOAD_FACTS if key in payload}
    if status.status == "waiting":
        facts["question"] = status.reason_in(lang)
    return facts


def _requester_facts(store: Store, agent: str, thread_id: str) -> dict[str, Any]:
    """Who requested the thread's case, from its head's values (none when the head cannot be read)."""
    try:
        values = runtime.graph(store, agent).get_state({"configurable": {"thread_id": thread_id}}).values
    except Exception as error:  # a damaged head is shown as such elsewhere; its message goes out without it
        logger.warning("thread %s: its values could not be read for a notification: %s", thread_id, error)
        return {}
    return {key: to_jsonable(values[key]) for key in VALUE_FACTS if key in values}


def unfinished_events(statuses: list[lifecycle.ThreadStatus], settings: Settings, now: dt.datetime) -> list[Event]:
    """The waiting, overdue and escalated events of the unfinished threads at ``now``."""
    events: list[Event] = []
    for status in statuses:
        since = status.waiting_since
        if status.status not in lifecycle.UNFINISHED or since is None:
            continue
        facts = _payload_facts(status, settings.lang)
        episode, start = since.isoformat(), since.timestamp()
        if status.status == "waiting":
            events.append(Event("waiting", status.thread_id, status.agent, episode, start, facts))
        deadline = settings.deadline(status.agent)
        if deadline is not None and lifecycle.is_overdue(status, settings.deadlines, now):
            late = facts | {"deadline_seconds": deadline}
            events.append(Event("overdue", status.thread_id, status.agent, episode, start + deadline, late))
            if "amount" in facts:  # a payout to approve: the senior approvers are told
                events.append(Event("escalated", status.thread_id, status.agent, episode, start + deadline, late))
    return events


def ended_episodes(store: Store, statuses: list[lifecycle.ThreadStatus]) -> tuple[list[Event], list[Event]]:
    """(decided events, closing markers) of the recorded waiting episodes that are over.

    An episode is decided when its thread is done; it is closed without a message when the thread is gone
    (its deletion is an event of its own) or waits again in a new episode. A running thread is left for the
    next scan.
    """
    by_id = {status.thread_id: status for status in statuses}
    decided: list[Event] = []
    closed: list[Event] = []
    for episode in open_episodes(store):
        now_status = by_id.get(episode.thread_id)
        if now_status is None:
            closed.append(Event("ended", episode.thread_id, episode.agent, episode.episode, episode.happened_at))
        elif now_status.status == "done":
            facts = episode.facts | {
                "outcome": now_status.outcome,
                "waited_seconds": max(0.0, now_status.updated_at.timestamp() - episode.happened_at),
            }
            at = now_status.updated_at.timestamp()
            decided.append(Event("decided", episode.thread_id, episode.agent, episode.episode, at, facts))
        elif now_status.status != "running" and now_status.waiting_since is not None:
            if now_status.waiting_since.isoformat() != episode.episode:
                closed.append(Event("ended", episode.thread_id, episode.agent, episode.episode, episode.happened_at))
    return decided, closed


def deletion_events(store: Store, now: dt.datetime) -> list[Event]:
    """The ``deleted`` events of every agent's recorded deletions of unfinished threads."""
    events: list[Event] = []
    for spec in AGENTS.values():
        for row in spec.edit.deleted_unfinished(store):
            try:
                at = dt.datetime.fromisoformat(str(row["deleted_at"]))
            except ValueError:
                continue
            if at.tzinfo is None:
                at = at.replace(tzinfo=dt.UTC)
            if (now - at).total_seconds() > DELETION_NEWS_SECONDS:
                continue
            facts = {
                "case_id": row.get("case_id"),
                "customer": row.get("customer"),
                "amount": row.get("amount") if row.get("amount") is not None else row.get("requested_amount"),
                "status": row.get("status"),
                "deleted_by": row.get("deleted_by_name") or row.get("deleted_by"),
                "reason": row.get("reason"),
            }
            episode = str(row["head_checkpoint_id"])
            events.append(Event("deleted", str(row["thread_id"]), spec.name, episode, at.timestamp(), facts))
    return events


def _with_requesters(store: Store, events: list[Event]) -> list[Event]:
    """The events, those of a case to approve with who requested it (read once per thread)."""
    read: dict[str, dict[str, Any]] = {}
    found = []
    for event in events:
        if event.kind in ("waiting", "overdue", "escalated") and "amount" in event.facts:
            if event.thread_id not in read:
                read[event.thread_id] = _requester_facts(store, event.agent, event.thread_id)
            event = Event(
                event.kind, event.thread_id, event.agent, event.episode, event.happened_at,
                event.facts | read[event.thread_id],
            )  # fmt: skip
        found.append(event)
    return found


def _new(store: Store, events: list[Event]) -> list[Event]:
    known = recorded_ids(store, [event.event_id for event in events])
    return [event for event in events if event.event_id not in known]


def scan(store: Store, settings: Settings, now: dt.datetime) -> int:
    """Records every event found at ``now`` that is not recorded yet, once per configured channel.

    The waits of the threads that moved since the last scan are read from their history first
    (:mod:`agents.notify.history`), so a wait that began and was decided in between is told too, and is
    decided below like one a scan saw live.

    Returns:
        How many outbox rows were added.
    """
    channels = settings.notify.channels
    if not channels:
        return 0
    statuses = lifecycle.thread_statuses(store)
    newest = max((status.head_checkpoint_id for status in statuses), default="")
    cursor = scan_cursor(store)
    past, past_closed = ([], []) if cursor is None else (
        history.past_episodes(store, statuses, cursor, settings.notify.keep_days, settings.lang, now)
    )  # fmt: skip
    at = now.timestamp()
    found = past + unfinished_events(statuses, settings, now) + deletion_events(store, now)
    added = record(store, _with_requesters(store, _new(store, found)), channels, at)
    record(store, past_closed, (NO_CHANNEL,), at)
    decided, closed = ended_episodes(store, statuses)
    added += record(store, _new(store, decided), channels, at)
    record(store, closed, (NO_CHANNEL,), at)
    advance_cursor(store, newest, at)
    return added
