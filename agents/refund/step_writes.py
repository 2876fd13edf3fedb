"""A refund case's state as it stands: its head's values with what the tasks that finished at the head wrote.

LangGraph makes a step's writes the values of a checkpoint only when every task of the step has finished; until
then each finished task's writes are saved beside the head, as they happen. A case with items decides its
items in the tasks of one step (``agents.refund.items``): while one item waits, the items decided before it
(their payouts, their decisions, their trace lines) are such writes, and in the item ledger, but not in the
head's values. LangGraph's ``get_state`` of the thread applies them (the case panel reads it so); the audit
reads the heads' values directly (``agents.threadindex.head_values``), so :func:`case_values` applies them,
with the state's own channels (its reducers), in the order LangGraph applies a step's writes: a partly paid
case's trace has each item's payout from the moment it was paid, on the page, in ``ledger --audit`` and in
its JSON, as the finished case's trace keeps it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any, get_type_hints

from langgraph.channels.base import BaseChannel
from langgraph.channels.binop import BinaryOperatorAggregate
from langgraph.channels.last_value import LastValue
from langgraph.errors import InvalidUpdateError

from agents import readcache
from agents.damaged import DamagedValueError
from agents.db import Store
from agents.readsql import NULL_TASK_ID
from agents.refund.state import RefundState


@functools.cache
def _channels() -> dict[str, BaseChannel]:
    """The refund state's channels as :class:`RefundState` declares them, as LangGraph's ``StateGraph`` makes
    them: a key annotated with a channel keeps it (``WriteOnce``), one with a reducer folds its writes with it
    (the trace's ``operator.add``), any other keeps its last value. Made here, not by a ``StateGraph``: a
    command that reads the audit (``ledger --audit``) loads no graph module for it.
    """
    return {name: _channel(hint) for name, hint in get_type_hints(RefundState, include_extras=True).items()}


def _channel(hint: Any) -> BaseChannel:
    for declared in getattr(hint, "__metadata__", ()):
        if isinstance(declared, type) and issubclass(declared, BaseChannel):
            return declared(hint.__origin__)
        if callable(declared):
            return BinaryOperatorAggregate(hint.__origin__, declared)
    return LastValue(hint)


def case_values(store: Store, thread_id: str, head: str, values: Mapping[str, Any]) -> Mapping[str, Any]:
    """``values`` (the head's, decoded) with the writes of the head's finished tasks applied, as LangGraph's
    ``get_state`` of the thread applies them: the writes addressed to the graph first, then the tasks',
    in task path order, each channel by its reducer (a trace line appended, a last value replaced).

    ``values`` itself when the head holds none; the same object while the head's writes stay the same
    (shared: never change it). A write that cannot be read, or that its channel refuses (two last values
    in one step), leaves the values as the head holds them.
    """
    with store.read() as cursor:
        rows = store.queries.writes_between(cursor, thread_id, head, head)
    channels = _channels()
    written = [row for row in rows if row[3] in channels]  # the state's keys: no bookkeeping, no branch
    if not written:
        return values
    key = (thread_id, head, tuple((task_id, channel) for _, task_id, _path, channel, *_ in written))
    memo = readcache.cache_for(store, "refund-step-writes")
    kept = memo.lookup(key)
    if kept is not None and kept[0] is values:
        return kept[1]
    serde = store.saver.serde
    try:
        decoded = [
            (task_id, channel, serde.loads_typed((type_, blob))) for _, task_id, _, channel, type_, blob in written
        ]
        graph_writes = [(channel, value) for task_id, channel, value in decoded if task_id == NULL_TASK_ID]
        task_writes = [(channel, value) for task_id, channel, value in decoded if task_id != NULL_TASK_ID]
        found = _applied(_applied(values, graph_writes), task_writes)
    except (DamagedValueError, InvalidUpdateError):
        found = values
    memo.put(key, (values, found))
    return found


def _applied(values: Mapping[str, Any], writes: Iterable[tuple[str, Any]]) -> Mapping[str, Any]:
    """``values`` after one round of ``writes`` (channel, value), each channel updated once with its values
    in order, as LangGraph applies a step's writes."""
    grouped: dict[str, list[Any]] = {}
    for name, value in writes:
        grouped.setdefault(name, []).append(value)
    if not grouped:
        return values
    updated = {}
    for name, written in grouped.items():
        spec = _channels()[name]
        channel = spec.from_checkpoint(values[name]) if name in values else spec.copy()
        channel.update(written)
        updated[name] = channel.get()
    return {**values, **updated}
