"""What a checkpoint changed: the difference of two checkpoints' decoded values, and the writes between them.

LangGraph's own tools show a checkpoint's whole state, not what an ``update_state`` or a step changed.
:func:`diff_values` compares two decoded states key by key (nested dicts key by key too): a key is
``added``, ``removed`` or ``changed``, and a list that only grew is ``appended`` with the items it
gained, so a step that adds one message reads "+1 message" instead of the whole conversation twice.
It is pure: no database, no Streamlit.

:func:`checkpoint_diff` reads two checkpoints of a thread (by default the head and its parent) with the
read-model's decoder (LangGraph's serializer) and the writes that led from their common ancestor to the
second one: a checkpoint is produced by the writes stored against its parent, those of the parent's
tasks for a step of the graph (``loop``), those of the ``update_state`` (task path ``~__interrupt__, i``)
for an update or a fork. An ``update_state`` that reused a task that had already written at that
checkpoint keeps no writes of its own (LangGraph keeps the first write under a task's key); its change
is still in the values.

The dashboard (``dashboard/diff_view.py``) and ``python -m agents diff`` show the same
:class:`CheckpointDiff`; ``CheckpointDiff.to_json`` is the CLI's ``--json`` document.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import BaseMessage

from agents import readmodel
from agents.db import Store
from agents.errors import InputError, ThreadNotFoundError
from agents.strings import STRINGS
from agents.tasknames import UPDATE_PREFIX
from agents.texts import text

ChangeKind = Literal["added", "removed", "changed", "appended"]
#: How two checkpoints of a thread are related: ``from`` is ``to``'s parent, an older ancestor, a
#: descendant of it, the same checkpoint, or on another branch (they share an ancestor).
Relation = Literal["parent", "ancestor", "descendant", "same", "branches", "unrelated"]

#: Steps of the way from the common ancestor to ``to`` whose writes are read (the nearest to ``to``).
MAX_WRITE_STEPS = 50


@dataclass(frozen=True)
class Change:
    """One difference between two states.

    Attributes:
        path: The keys from the state's top level to the value (``("case", "amount")``).
        kind: ``added``, ``removed``, ``changed``, or ``appended`` (a list that only grew).
        before: The old value (None when added or appended).
        after: The new value; for ``appended``, the items added (a list).
        messages: For ``appended``: every item added is a message.
    """

    path: tuple[str, ...]
    kind: ChangeKind
    before: Any = None
    after: Any = None
    messages: bool = False

    @property
    def key(self) -> str:
        """The path as one text, ``case.amount``."""
        return ".".join(self.path)

    @property
    def count(self) -> int:
        """Items appended (0 for any other change)."""
        return len(self.after) if self.kind == "appended" else 0

    def summary(self) -> str:
        """The change in a word or two: ``added``, ``changed``, ``removed``, ``+1 message``, ``+3 items``."""
        if self.kind != "appended":
            return self.kind
        noun = "message" if self.messages else "item"
        return f"+{self.count} {noun}{'' if self.count == 1 else 's'}"

    def to_json(self) -> dict[str, Any]:
        """The change as JSON-ready data (values as :func:`agents.readmodel.to_jsonable` gives them)."""
        data: dict[str, Any] = {"path": list(self.path), "key": self.key, "change": self.kind}
        data["summary"] = self.summary()
        if self.kind == "appended":
            data |= {"count": self.count, "messages": self.messages}
        if self.kind in ("removed", "changed"):
            data["before"] = readmodel.to_jsonable(self.before)
        if self.kind != "removed":
            data["after"] = readmodel.to_jsonable(self.after)
        return data


def _same(before: Any, after: Any) -> bool:
    """Whether two decoded values read the same (a message by its type and content, as everywhere shown)."""
    return bool(readmodel.to_jsonable(before) == readmodel.to_jsonable(after))


def diff_values(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Change]:
    """The changes from one decoded state to another, in the order of the keys (``before``'s, then new ones).

    Dicts are compared key by key, at any depth; a list (or tuple) whose old items are the first items of
    the new one is ``appended``; any other difference replaces the value (``changed``). Identical states
    give no change.
    """
    changes: list[Change] = []
    _diff_into(changes, (), before, after)
    return changes


def _diff_into(
    changes: list[Change], path: tuple[str, ...], before: Mapping[str, Any], after: Mapping[str, Any]
) -> None:
    for key, old in before.items():
        where = (*path, str(key))
        if key not in after:
            changes.append(Change(where, "removed", before=old))
        else:
            _diff_value(changes, where, old, after[key])
    for key, new in after.items():
        if key not in before:
            changes.append(Change((*path, str(key)), "added", after=new))


def _diff_value(changes: list[Change], path: tuple[str, ...], old: Any, new: Any) -> None:
    if _same(old, new):
        return
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        _diff_into(changes, path, old, new)
    elif isinstance(old, list | tuple) and isinstance(new, list | tuple) and _grew(old, new):
        added = list(new[len(old) :])
        changes.append(Change(path, "appended", after=added, messages=all(isinstance(m, BaseMessage) for m in added)))
    else:
        changes.append(Change(path, "changed", before=old, after=new))


def _grew(old: Sequence[Any], new: Sequence[Any]) -> bool:
    return len(new) > len(old) and _same(list(old), list(new[: len(old)]))


@dataclass(frozen=True)
class DiffWrite:
    """A write on the way to the compared checkpoint: stored against ``checkpoint_id``, it produced ``produced``."""

    checkpoint_id: str
    produced: str
    task_id: str
    node: str
    channel: str
    value: Any

    def to_json(self) -> dict[str, Any]:
        """The write as JSON-ready data."""
        return {
            "checkpoint_id": self.checkpoint_id,
            "produced": self.produced,
            "task_id": self.task_id,
            "node": self.node,
            "channel": self.channel,
            "value": readmodel.to_jsonable(self.value),
        }


@dataclass(frozen=True)
class Side:
    """One compared checkpoint: its id, step and source."""

    checkpoint_id: str
    step: int
    source: str

    def to_json(self) -> dict[str, Any]:
        """The checkpoint as JSON-ready data."""
        return {"checkpoint_id": self.checkpoint_id, "step": self.step, "source": self.source}


@dataclass(frozen=True)
class CheckpointDiff:
    """Two checkpoints of a thread compared: what changed from ``before`` to ``after`` and the writes that did it.

    ``before`` is None when ``after`` is the thread's first checkpoint and no other was named: it is
    compared with an empty state. ``writes`` are those on the way from the two checkpoints' common ancestor
    to ``after``, oldest first; ``writes_left_out`` counts the steps further back whose writes are not read.
    """

    thread_id: str
    before: Side | None
    after: Side
    relation: Relation
    common_ancestor: str | None
    changes: tuple[Change, ...]
    writes: tuple[DiffWrite, ...]
    writes_left_out: int = 0

    def to_json(self) -> dict[str, Any]:
        """The ``diff --json`` document (described in the README)."""
        return {
            "thread_id": self.thread_id,
            "from": self.before.to_json() if self.before else None,
            "to": self.after.to_json(),
            "relation": self.relation,
            "common_ancestor": self.common_ancestor,
            "changes": [change.to_json() for change in self.changes],
            "writes": [write.to_json() for write in self.writes],
            "writes_left_out": self.writes_left_out,
        }


def checkpoint_diff(
    store: Store, thread_id: str, from_id: str | None = None, to_id: str | None = None
) -> CheckpointDiff:
    """Compares two checkpoints of a thread: by default ``to_id`` is the head and ``from_id`` its parent.

    Raises:
        ThreadNotFoundError: The thread has no checkpoints.
        InputError: ``from_id`` or ``to_id`` names no checkpoint of the thread (the field is ``from`` or ``to``).
    """
    head = readmodel.head_checkpoint_id(store, thread_id)
    if head is None:
        raise ThreadNotFoundError(thread_id)
    for field, named in (("from", from_id), ("to", to_id)):
        if named is not None and not readmodel.has_checkpoint(store, thread_id, named):
            message = text(STRINGS, "error.no_checkpoint", checkpoint=repr(named), thread=repr(thread_id))
            raise InputError(field, message)
    after_id = to_id if to_id is not None else head
    after = readmodel.checkpoint_detail(store, thread_id, after_id)
    if after is None:  # deleted meanwhile
        raise ThreadNotFoundError(thread_id)
    parent = after.parent_checkpoint_id
    before_id = from_id if from_id is not None else parent
    before = readmodel.checkpoint_detail(store, thread_id, before_id) if before_id is not None else None
    if before_id is not None and before is None:
        raise ThreadNotFoundError(thread_id)
    relation: Relation
    if before_id == parent:  # the usual question, answered without reading the thread's tree
        relation, common, way = "parent", parent, ([(parent, after_id)] if parent is not None else [])
    else:
        parent_of = dict(readmodel.chain_links(store, thread_id))
        ancestors_of_after = _ancestors(after_id, parent_of)
        relation, common = _relation(before_id, after_id, ancestors_of_after, parent_of)
        way = _way_down(common, ancestors_of_after)
    writes, left_out = _writes_on(store, thread_id, way)
    return CheckpointDiff(
        thread_id=thread_id,
        before=_side(before) if before is not None else None,
        after=_side(after),
        relation=relation,
        common_ancestor=common,
        changes=tuple(diff_values(_state(before.values) if before else {}, _state(after.values))),
        writes=writes,
        writes_left_out=left_out,
    )


#: LangGraph's channels of a join (``join:a+b:c``, a node waiting for several), bookkeeping like ``branch:``.
JOIN_PREFIX = "join:"


def _state(values: Mapping[str, Any]) -> dict[str, Any]:
    """The agent's state keys of a checkpoint's values, without LangGraph's join channels."""
    return {key: value for key, value in values.items() if not key.startswith(JOIN_PREFIX)}


def _side(detail: readmodel.CheckpointDetail) -> Side:
    step = detail.metadata.get("step")
    return Side(detail.checkpoint_id, step if isinstance(step, int) else -1, str(detail.metadata.get("source") or ""))


def _ancestors(checkpoint_id: str, parent_of: Mapping[str, str | None]) -> list[str]:
    """The checkpoint and its ancestors, nearest first (a damaged chain's loop is cut)."""
    found: list[str] = []
    seen: set[str] = set()
    current: str | None = checkpoint_id
    while current is not None and current not in seen:
        found.append(current)
        seen.add(current)
        current = parent_of.get(current)
    return found


def _relation(
    before_id: str | None, after_id: str, ancestors_of_after: list[str], parent_of: Mapping[str, str | None]
) -> tuple[Relation, str | None]:
    """How ``before`` relates to ``after``, and their nearest common ancestor (None: none, or no ``before``)."""
    if before_id is None:
        return "parent", None
    if before_id == after_id:
        return "same", after_id
    if before_id in ancestors_of_after:
        return ("parent" if parent_of.get(after_id) == before_id else "ancestor"), before_id
    ancestors_of_before = _ancestors(before_id, parent_of)
    if after_id in ancestors_of_before:
        return "descendant", after_id
    shared = set(ancestors_of_before)
    common = next((cid for cid in ancestors_of_after if cid in shared), None)
    return ("branches" if common else "unrelated"), common


def _way_down(common: str | None, ancestors_of_after: list[str]) -> list[tuple[str, str]]:
    """(parent, child) pairs from the common ancestor down to ``after``, oldest first (from the root: none)."""
    if common is None or common not in ancestors_of_after:
        return []
    children = ancestors_of_after[: ancestors_of_after.index(common)][::-1]  # oldest first
    return list(zip([common, *children][: len(children)], children, strict=True))


def _writes_on(store: Store, thread_id: str, way: list[tuple[str, str]]) -> tuple[tuple[DiffWrite, ...], int]:
    """The writes that produced each child of ``way`` (the last :data:`MAX_WRITE_STEPS` steps), oldest first."""
    left_out = max(0, len(way) - MAX_WRITE_STEPS)
    way = way[left_out:]
    if not way:
        return (), left_out
    parents = [parent for parent, _ in way]
    with store.read() as cursor:
        sources = {row[0]: row[3] for row in store.queries.chain_of(cursor, thread_id, [child for _, child in way])}
        rows = store.queries.writes_between(cursor, thread_id, min(parents), max(parents))
        wanted = set(parents)
        rows = [row for row in rows if row[0] in wanted]
        known = readmodel.task_nodes(cursor, thread_id, list(dict.fromkeys(row[1] for row in rows)))
    by_parent: dict[str, list[Any]] = {}
    for row in rows:
        by_parent.setdefault(row[0], []).append(row)
    serde = store.saver.serde
    found: list[DiffWrite] = []
    for parent, child in way:
        by_update = sources.get(child) in ("update", "fork")
        for _, task_id, path, channel, type_, blob in by_parent.get(parent, []):
            if (path or "").startswith(UPDATE_PREFIX) != by_update:
                continue  # another child's writes: an update's beside a step's
            node = readmodel.node_of(task_id, path or "", known)
            found.append(DiffWrite(parent, child, task_id, node, channel, serde.loads_typed((type_, blob))))
    return tuple(found), left_out
