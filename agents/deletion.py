"""Deleting a thread: the agent's say first, then its checkpoints, writes and node log.

A thread is deleted under its lock and lease, never while it runs. Before anything is deleted the agent
sees what is about to go (:class:`agents.spec.DeleteRequest`: the head's values and whether the thread is
``waiting``, ``attention`` or ``done``), so it can refuse (an unfinished refund needs a reason) or keep a
record that outlives the thread (the refund's deletion audit row). The status is read from the head
under the lock, not from the lifecycle's list, where a thread held by this very operation reads as
running.
"""

from __future__ import annotations

from typing import Any

from agents import changefeed, identity, lifecycle, readmodel, runtime
from agents.damaged import DamagedValueError
from agents.db import Store
from agents.errors import StaleFormError, ThreadNotFoundError
from agents.identity import LOCAL_OPERATOR, Identity, check_allowed
from agents.leases import thread_guard
from agents.nodelog import delete_node_runs
from agents.registry import AGENTS
from agents.spec import DeleteRequest
from agents.validation import validate_text

#: The longest reason a deletion may give.
REASON_MAX_LENGTH = 500


def check_head(store: Store, thread_id: str, expected_head: str | None) -> str:
    """The thread's head; refuses a missing thread, and a head other than the one the user saw."""
    head = readmodel.head_checkpoint_id(store, thread_id)
    if head is None:
        raise ThreadNotFoundError(thread_id)
    if expected_head is not None and head != expected_head:
        raise StaleFormError(thread_id, expected_head, head)
    return head


def erase_thread(store: Store, thread_id: str) -> None:
    """Deletes the thread's node-log rows, then its checkpoints and writes (no check, no record)."""
    # The node log goes first: if the process dies in between, the checkpoints are still
    # there and a second delete finishes the job; no orphan log rows can outlive the thread.
    with store.transaction() as cursor:
        delete_node_runs(cursor, thread_id)
    store.saver.delete_thread(thread_id)


def deletion_reason(reason: Any) -> str | None:
    """A deletion's reason, trimmed; None when none was given (blank counts as none)."""
    if reason is None or (isinstance(reason, str) and not reason.strip()):
        return None
    return validate_text(reason, "reason", max_length=REASON_MAX_LENGTH)


def head_status(store: Store, agent: str, thread_id: str) -> tuple[str, dict[str, Any]]:
    """(``waiting``, ``attention`` or ``done``, the head's values), read from the head as LangGraph sees it.

    A head that cannot be decoded is ``attention`` with no values: whether it had finished is not known,
    so the agent's rules for an unfinished thread apply (an unfinished refund needs a reason).
    """
    try:
        snapshot = runtime.graph(store, agent).get_state({"configurable": {"thread_id": thread_id}})
    except DamagedValueError:
        return "attention", {}
    values = dict(snapshot.values)
    if snapshot.interrupts:
        return "waiting", values
    if snapshot.next:
        return "attention", values
    _outcome, problem = AGENTS[agent].show.finished_outcome(store, thread_id, values)
    return ("attention" if problem else "done"), values


def delete_thread(
    store: Store,
    thread_id: str,
    *,
    expected_head: str | None = None,
    actor: Identity = LOCAL_OPERATOR,
    reason: str | None = None,
) -> None:
    """Deletes one thread's checkpoints, writes and node-log rows; no other thread is touched. Admins only.

    ``expected_head`` is the head the user saw (None: not checked). An agent that keeps a record of
    deletions records ``actor`` and ``reason``, and may require a reason (an unfinished refund).

    Raises:
        InputError: The reason is not valid text, or the agent refuses the deletion (naming ``reason``).
        StaleFormError, ThreadNotFoundError, ThreadBusyError: as for every operation.
    """
    check_allowed(actor, identity.DELETE_THREAD)
    thread_id = lifecycle.thread_named(store, thread_id, exact=True)
    why = deletion_reason(reason)
    seen: list[tuple[str, DeleteRequest]] = []

    def check() -> None:
        head = check_head(store, thread_id, expected_head)
        try:
            agent = readmodel.thread_agent(store, thread_id)
        except DamagedValueError:  # its metadata cannot be read: no agent is known to ask
            agent = None
        seen.clear()
        if agent in AGENTS:  # a thread of an agent not run here has no rules to ask
            status, values = head_status(store, agent, thread_id)
            request = DeleteRequest(thread_id, head, values, status, why, actor)
            AGENTS[agent].edit.check_delete(store, request)
            seen.append((agent, request))

    with thread_guard(store, thread_id, wait=False, check=check):
        for agent, request in seen:
            AGENTS[agent].edit.record_delete(store, request)
        erase_thread(store, thread_id)
    changefeed.prune(store)  # the changes noted of deleted threads stay bounded


def take_back_start(store: Store, thread_id: str, head: str) -> None:
    """Deletes a thread this process just started and takes back (its first answer was refused), with no
    deletion record: nobody saw the thread, and the file holds nothing of the refused request.

    Raises:
        StaleFormError: Another request acted on the thread since (its head moved on); the thread stays.
        ThreadNotFoundError, ThreadBusyError: as for every operation.
    """
    with thread_guard(store, thread_id, wait=False, check=lambda: check_head(store, thread_id, head)):
        erase_thread(store, thread_id)
    changefeed.prune(store)
