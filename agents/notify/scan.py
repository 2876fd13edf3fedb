"""Finds the events to tell people about, from what the database holds, and records each once.

A scan reads every thread's status (``agents.lifecycle``, the one status every page, the CLI and the API
show), so a thread started or answered by any path (a page, the sidebar form, raw mode, the CLI, the API,
``langgraph dev``) is seen without a hook in each. A waiting episode is a thread's ``waiting_since``: a
thread that waits gives ``waiting``; a thread that is stuck (``attention``: its run stopped, by a crash or a
cancel, a node raised, or it cannot go on by itself) gives ``attention``, once per stuck head, with its
status's reason and what resolves it (its episode ends when it runs on or is deleted; nothing is sent for
that); one past its agent's deadline (``HITL_SLA``) gives ``overdue``, and,
when the inbox says it escalated (its agent names whom to, from the roles file: the senior approvers of a
refund), ``escalated``; a recorded waiting episode whose thread is now done gives ``decided``, with what
the case paid; the agents' records of deleted unfinished threads (the refund's deletion audit, the core
record of the others: :func:`agents.deletion_record.deleted_threads`) give ``deleted``, and the refund's
record of a case deleted once a person decided it gives that decision (:func:`decided_events`), which no
status or history holds any more. Each event's id
holds its kind, thread and episode, so the outbox's key makes it once, however many processes scan.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from typing import Any

from agents import lifecycle, queue_rights, runtime, threadindex
from agents.damaged import DamagedValueError
from agents.db import Store
from agents.deletion_record import deleted_threads
from agents.identity import LOCAL_OPERATOR
from agents.notify import history
from agents.notify.facts import question_facts
from agents.notify.outbox import (
    NO_CHANNEL,
    Event,
    advance_cursor,
    is_stuck,
    open_episodes,
    record,
    recorded_ids,
    scan_cursor,
)
from agents.readmodel import checkpoint_time, to_jsonable
from agents.registry import AGENTS
from agents.settings import Settings

logger = logging.getLogger(__name__)

#: What an event keeps of the thread's values: who requested it (so the requester is never asked to approve
#: their own case), and, once decided, what the case paid beside what it requested.
VALUE_FACTS = ("requested_by", "requested_by_name", "requested_by_names")
DECIDED_FACTS = ("paid_amount", "requested_amount")
#: What a decided event keeps of its wait: not the question, nor how many questions waited.
WAIT_ONLY_FACTS = ("question", "waiting_count")
#: What a deleted event keeps of its record besides who, when and why: what waited and what was paid, and the
#: questions asked and who requested the case, from which its recipients are chosen.
DELETED_FACTS = (
    "requested_amount", "paid_amount", "item_count", "waiting_count", "questions", *VALUE_FACTS,
)  # fmt: skip
#: What a stuck thread's event keeps of its head's values: its case, which its subject names (a refund's).
STUCK_CASE_FACTS = ("case_id", "customer", "amount", "requested_amount")
#: A deletion older than this when first seen is not announced (news to no one by then).
DELETION_NEWS_SECONDS = 7 * 86400


def _questions(store: Store, status: lifecycle.ThreadStatus) -> list[Any]:
    """The questions a thread waits on now: its status's, or, when it asks several at once, each of them."""
    if status.status == "waiting" and status.waiting_count > 1:
        pending = threadindex.thread_of(store, status.thread_id).pending
        if len(pending) > 1:
            return [question.payload for question in pending]
    return [] if status.payload is None else [status.payload]


def _wait_facts(store: Store, status: lifecycle.ThreadStatus, lang: str) -> dict[str, Any]:
    """What the message says of a wait (:func:`agents.notify.facts.question_facts`): its case, the amount that
    waits, how many questions, and the question in ``lang``."""
    question = status.reason_in(lang) if status.status == "waiting" else ""
    return question_facts(status.agent, _questions(store, status), question)


def _stuck_facts(store: Store, status: lifecycle.ThreadStatus, lang: str) -> dict[str, Any]:
    """What the message says of a stuck thread: that it is stuck (``status``), why (its status's reason in
    ``lang``, as the inbox words it), the action that resolves it (``reason_code`` and ``action`` as the
    lifecycle gives them), and its case from its head's values (none when they cannot be read); and the
    stuck head, from which the end of its episode is dated (:func:`ended_episodes`)."""
    try:
        values = threadindex.head_values(store, status.thread_id, status.head_checkpoint_id) or {}
    except DamagedValueError:  # a damaged head is stuck for that: its message goes out without the case
        values = {}
    case = {key: to_jsonable(values[key]) for key in STUCK_CASE_FACTS if values.get(key) is not None}
    return case | {
        "status": status.status,
        "reason": status.reason_in(lang),
        "reason_code": status.reason_code,
        "action": status.action,
        "head_checkpoint_id": status.head_checkpoint_id,
    }


def _requester_facts(store: Store, agent: str, thread_id: str) -> dict[str, Any]:
    """Who requested the thread's case, from its head's values (none when the head cannot be read)."""
    try:
        values = runtime.graph(store, agent).get_state({"configurable": {"thread_id": thread_id}}).values
    except Exception as error:  # a damaged head is shown as such elsewhere; its message goes out without it
        logger.warning("thread %s: its values could not be read for a notification: %s", thread_id, error)
        return {}
    return {key: to_jsonable(values[key]) for key in VALUE_FACTS if key in values}


def unfinished_events(
    store: Store, statuses: list[lifecycle.ThreadStatus], settings: Settings, now: dt.datetime
) -> list[Event]:
    """The waiting, attention (stuck), overdue and escalated events of the unfinished threads at ``now`` not
    recorded yet. A stuck thread's events say it is stuck and why (:func:`_stuck_facts`), not a question.

    A thread past its deadline escalates when its inbox says it did: its agent's decision rights, read by
    :func:`agents.queue_rights.rights_of` as the inbox reads them, name whom it escalated to
    (``escalated_to``). Without a roles file, or for an agent that names no deciders, nothing escalates.
    """
    found: list[tuple[lifecycle.ThreadStatus, Event]] = []
    for status in statuses:
        since = status.waiting_since
        if status.status not in lifecycle.UNFINISHED or since is None:
            continue
        episode, start = since.isoformat(), since.timestamp()
        # A stuck thread waits for a person as much as a question does: told once per stuck head.
        found.append((status, Event(status.status, status.thread_id, status.agent, episode, start)))
        deadline = settings.deadline(status.agent)
        if deadline is not None and lifecycle.is_overdue(status, settings.deadlines, now):
            for kind in ("overdue", "escalated"):
                found.append((status, Event(kind, status.thread_id, status.agent, episode, start + deadline)))
    known = recorded_ids(store, [event.event_id for _status, event in found])
    fresh = [(status, event) for status, event in found if event.event_id not in known]
    late = [status for status, event in fresh if event.kind == "escalated"]
    rights = queue_rights.rights_of(store, settings.roles, late, settings.deadlines, now) if late else {}
    told: dict[str, dict[str, Any]] = {}
    events: list[Event] = []
    for status, event in fresh:
        if event.kind == "escalated" and not (status.thread_id in rights and rights[status.thread_id].escalated_to):
            continue
        if status.thread_id not in told:
            stuck = status.status == "attention"
            told[status.thread_id] = (_stuck_facts if stuck else _wait_facts)(store, status, settings.lang)
        facts = told[status.thread_id]
        if event.kind in ("overdue", "escalated"):
            facts = facts | {"deadline_seconds": settings.deadline(status.agent)}
        events.append(dataclasses.replace(event, facts=facts))
    return events


def _decided_facts(store: Store, status: lifecycle.ThreadStatus) -> dict[str, Any]:
    """What a decided case paid, and its whole request, from its head's values (none when unreadable)."""
    try:
        values = threadindex.head_values(store, status.thread_id, status.head_checkpoint_id)
    except DamagedValueError:  # shown as damaged elsewhere; its message goes out without the figures
        return {}
    found = {key: to_jsonable(values[key]) for key in DECIDED_FACTS if values is not None and key in values}
    if isinstance(found.get("paid_amount"), int) and not isinstance(found["paid_amount"], bool):
        found["amount"] = found["paid_amount"]  # what the case paid is the webhook's ``amount``
    return found


def _ran_on_at(store: Store, episode: Event, now_status: lifecycle.ThreadStatus | None, now: dt.datetime) -> float:
    """When a stuck thread left its stuck head: the time of its first checkpoint after it (the run that went
    on wrote it); else the time of its head now; ``now`` for a thread that is gone."""
    head = episode.facts.get("head_checkpoint_id")
    if now_status is None:
        return now.timestamp()
    if isinstance(head, str) and head:
        with store.read() as cursor:
            after = store.queries.next_checkpoint(cursor, episode.thread_id, head)
        try:
            return checkpoint_time(after).timestamp() if after else now_status.updated_at.timestamp()
        except ValueError:  # not a checkpoint id: a thread made by other tooling
            pass
    return now_status.updated_at.timestamp()


def _still_stuck(episode: Event, now_status: lifecycle.ThreadStatus | None) -> bool:
    """Whether a stuck episode goes on: its thread is still stuck at the same head, or runs from it now (a run
    that ends without a checkpoint leaves it stuck there still, the same episode)."""
    if now_status is None:
        return False
    if now_status.status == "running":
        return True
    since = now_status.waiting_since
    return now_status.status == "attention" and since is not None and since.isoformat() == episode.episode


def ended_episodes(
    store: Store, statuses: list[lifecycle.ThreadStatus], now: dt.datetime
) -> tuple[list[Event], list[Event]]:
    """(decided events, closing markers) of the recorded waiting and stuck episodes that are over.

    A waiting episode is decided when its thread is done (its event says what the case paid, not what the wait
    asked); it is closed without a message when the thread is gone (its deletion is an event of its own) or
    waits again in a new episode. A stuck episode (``attention``) is closed without a message once its thread
    left the stuck head (continued, re-run, restored, edited) or is gone; its marker is dated when it ran on
    (:func:`_ran_on_at`), the end a message sent after it counts to. A running thread is left for the next scan.
    """
    by_id = {status.thread_id: status for status in statuses}
    decided: list[Event] = []
    closed: list[Event] = []
    for episode in open_episodes(store):
        now_status = by_id.get(episode.thread_id)
        if episode.kind == "attention":
            if not _still_stuck(episode, now_status):
                at = _ran_on_at(store, episode, now_status, now)
                closed.append(Event("ended", episode.thread_id, episode.agent, episode.episode, at))
            continue
        if now_status is None:
            closed.append(Event("ended", episode.thread_id, episode.agent, episode.episode, episode.happened_at))
        elif now_status.status == "done":
            waited = {key: value for key, value in episode.facts.items() if key not in WAIT_ONLY_FACTS}
            over = {
                "outcome": now_status.outcome,
                "waited_seconds": max(0.0, now_status.updated_at.timestamp() - episode.happened_at),
            }
            facts = waited | _decided_facts(store, now_status) | over
            at = now_status.updated_at.timestamp()
            decided.append(Event("decided", episode.thread_id, episode.agent, episode.episode, at, facts))
        elif now_status.status != "running" and now_status.waiting_since is not None:
            if now_status.waiting_since.isoformat() != episode.episode:
                closed.append(Event("ended", episode.thread_id, episode.agent, episode.episode, episode.happened_at))
    return decided, closed


def deletion_events(store: Store, now: dt.datetime) -> list[Event]:
    """The ``deleted`` events of every agent's recorded deletions of unfinished threads
    (:func:`agents.deletion_record.deleted_threads`).

    Each says what its record keeps (:data:`DELETED_FACTS`): for a refund, its case, what still waited (of how
    many items) and what it had paid, and, for choosing whom it is told to, the questions it asked a person and
    who requested it: its recipients are then chosen as its waiting mails' were
    (:func:`agents.notify.channels.may_decide`).
    """
    events: list[Event] = []
    for gone in deleted_threads(store, AGENTS.values()):
        if gone.status == "done":  # decided before it was deleted: its decision is the news (decided_events)
            continue
        try:
            at = dt.datetime.fromisoformat(gone.deleted_at)
        except ValueError:
            continue
        if at.tzinfo is None:
            at = at.replace(tzinfo=dt.UTC)
        if (now - at).total_seconds() > DELETION_NEWS_SECONDS:
            continue
        row = gone.record
        facts = {key: to_jsonable(row[key]) for key in DELETED_FACTS if row.get(key) is not None}
        facts |= {
            "case_id": row.get("case_id"),
            "customer": row.get("customer"),
            "amount": row.get("amount") if row.get("amount") is not None else row.get("requested_amount"),
            "status": gone.status,
            "deleted_by": row.get("deleted_by_name") or gone.deleted_by,
            "reason": gone.reason,
        }
        if gone.deleted_by == LOCAL_OPERATOR.name:  # no one signed in: named in the reader's words
            facts["deleted_by_local"] = True
        episode = str(row["head_checkpoint_id"])
        events.append(Event("deleted", gone.thread_id, gone.agent, episode, at.timestamp(), facts))
    return events


def decided_events(store: Store, earliest: float) -> list[Event]:
    """The ``decided`` events of the threads deleted once decided (a refund case a person decided: its record's
    status ``done``), whose last wait began at ``earliest`` (POSIX seconds) or later.

    A thread decided and deleted between two scans is in no status and has no history left to read; its record
    kept its last wait (``waited_since``), its outcome and what it paid, so its decision is told as a scan that
    saw it would have told it: the same event id (``decided:THREAD:WAITED_SINCE``), so a decision already told
    is not told again, dated when its thread reached its end (its head at deletion), and sent to whoever may
    decide the case as it was asked (its amount, or the questions its items asked; never the requester).
    """
    events: list[Event] = []
    for gone in deleted_threads(store, AGENTS.values()):
        row = gone.record
        if gone.status != "done" or not isinstance(row.get("waited_since"), str):
            continue
        try:
            start = dt.datetime.fromisoformat(row["waited_since"])
            end = checkpoint_time(str(row["head_checkpoint_id"]))
        except ValueError:  # not a time, nor a checkpoint id: a record made by other tooling
            continue
        if start.timestamp() < earliest:
            continue
        kept = [key for key in DELETED_FACTS if key not in WAIT_ONLY_FACTS]  # nothing waits once decided
        facts = {key: to_jsonable(row[key]) for key in kept if row.get(key) is not None}
        facts |= {key: to_jsonable(row[key]) for key in ("case_id", "customer", "outcome") if row.get(key) is not None}
        facts["amount"] = row.get("amount") if row.get("amount") is not None else row.get("requested_amount")
        paid = row.get("paid_amount")
        if isinstance(paid, int) and not isinstance(paid, bool) and paid:
            facts["amount"] = paid  # what the case paid is the webhook's ``amount``, as for a decision seen live
        else:
            facts.pop("paid_amount", None)  # a rejection paid nothing: no "paid 0 KRW"
        facts["waited_seconds"] = max(0.0, end.timestamp() - start.timestamp())
        episode = start.isoformat()
        events.append(Event("decided", gone.thread_id, gone.agent, episode, end.timestamp(), facts))
    return events


def _with_requesters(store: Store, events: list[Event]) -> list[Event]:
    """The events, those of a case to approve with who requested it (read once per thread)."""
    read: dict[str, dict[str, Any]] = {}
    found = []
    for event in events:
        if event.kind in ("waiting", "overdue", "escalated") and "amount" in event.facts and not is_stuck(event):
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
    found = past + unfinished_events(store, statuses, settings, now) + deletion_events(store, now)
    if cursor is not None:  # a decision made before notifications were first on is not news, as in the history
        found += decided_events(store, history.horizon(cursor, settings.notify.keep_days, now))
    added = record(store, _with_requesters(store, _new(store, found)), channels, at)
    record(store, past_closed, (NO_CHANNEL,), at)
    decided, closed = ended_episodes(store, statuses, now)
    added += record(store, _new(store, decided), channels, at)
    record(store, closed, (NO_CHANNEL,), at)
    advance_cursor(store, newest, at)
    return added
