"""Who may decide each waiting item of a queue, read once for the inbox, the queues and the CLI.

Each waiting item's agent says it (``AgentSpec.ask.decision_rights``) from the item's head state, the
questions it waits on at that head (each of them, when it asks several at once: a refund's waiting items)
and the roles file; an agent that states nothing, a thread that is not waiting, or a dashboard without a
roles file has no entry. The orders a queue offers (:data:`ORDERS`) live here too, so the home inbox, the
refund queue and the CLI sort alike.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from agents import lifecycle, readcache, statuspages, threadindex
from agents.damaged import DamagedValueError
from agents.decision_rights import DecisionRights
from agents.identity import Identity, Roles
from agents.registry import AGENTS

T = TypeVar("T")

#: A queue's orders, the first the default: oldest first (who waited longest), newest first, largest
#: amount first (by :func:`case_amount`; an item without an amount last).
ORDERS = ("oldest", "newest", "amount")


def rights_of(
    store: Any,
    roles: Roles | None,
    items: Sequence[lifecycle.ThreadStatus],
    deadlines: Mapping[str, int],
    now: dt.datetime,
) -> dict[str, DecisionRights]:
    """Each waiting item's :class:`DecisionRights`, by thread id (none without a roles file).

    The agent weighs every question the item waits on at its head (:func:`waiting_questions`), so a refund
    with several items is decided item by item here as on its page: never by its whole request.
    """
    if roles is None:
        return {}
    asked = waiting_questions(store, items)
    found: dict[str, DecisionRights] = {}
    for item in items:
        spec = AGENTS.get(item.agent)
        if spec is None or item.status != "waiting":
            continue
        try:
            values = threadindex.head_values(store, item.thread_id, item.head_checkpoint_id)
        except DamagedValueError:  # the inbox shows it as needing attention; nothing to weigh
            continue
        if values is None:  # deleted since the inbox was read
            continue
        questions = asked.get(item.thread_id, ())
        deadline = deadlines.get(item.agent)
        rights = spec.ask.decision_rights(roles, values, item.waiting_since, deadline, now, questions)
        if rights is not None:
            found[item.thread_id] = rights
    return found


def every_rights(
    store: Any, roles: Roles | None, now: dt.datetime
) -> tuple[list[lifecycle.ThreadStatus], dict[str, DecisionRights]]:
    """Every waiting item of the agents that state who may decide their items, oldest first per agent, and who
    may decide each (:func:`rights_of`, without a deadline): what a queue shown a page at a time counts and puts
    first as "my queue", and flags when no one may decide it (nothing without a roles file).

    The items are read from the kept index of statuses (:func:`agents.statuspages.every_unfinished`), not from
    every thread's checkpoints. Their rights leave escalation out, which moves with the clock (the rows a page
    shows are weighed with their deadlines by :func:`rights_of`); so they are kept per process while an item's
    head, its questions and the roles file are as they were, and a change weighs only the items it moved.
    """
    if roles is None:
        return [], {}
    items = [
        item
        for name, spec in AGENTS.items()
        if spec.ask.states_rights
        for item in statuspages.every_unfinished(store, name)
        if item.status == "waiting"
    ]
    memo, people = readcache.cache_for(store, "every-rights"), _roles_key(roles)

    def key(item: lifecycle.ThreadStatus) -> tuple[Any, ...]:
        # At one head the questions only go (each answered one), so their count says which still wait.
        return (people, item.thread_id, item.head_checkpoint_id, item.waiting_count)

    found = {item.thread_id: memo.lookup(key(item)) for item in items}
    weighed = [item for item in items if found[item.thread_id] is None]
    fresh = rights_of(store, roles, weighed, {}, now) if weighed else {}
    for item in weighed:
        if item.thread_id in fresh:
            memo.put(key(item), fresh[item.thread_id])
        found[item.thread_id] = fresh.get(item.thread_id)
    return items, {thread_id: rights for thread_id, rights in found.items() if rights is not None}


def _roles_key(roles: Roles) -> tuple[Any, ...]:
    """What of the roles file decides who may decide: its people (role, limit, name) and its tokens' names."""
    return (tuple(sorted(roles.users.items())), tuple(sorted(roles.tokens.items())))


def waiting_questions(store: Any, items: Sequence[lifecycle.ThreadStatus]) -> dict[str, tuple[Any, ...]]:
    """The questions each waiting item waits on at its head, by thread id, as the run asked them.

    One question is the item's own (``payload``); an item that asks several at once (``waiting_count``) has
    each of them read from the index of what waits (one read, shared with the inbox's), those of its head
    only, so they belong to the state its rights are weighed on.
    """
    found = {item.thread_id: (item.payload,) for item in items if item.status == "waiting" and item.payload is not None}
    several = {
        item.thread_id: item.head_checkpoint_id for item in items if item.status == "waiting" and item.waiting_count > 1
    }
    if not several:
        return found
    at_head: dict[str, list[Any]] = {}
    for pending in threadindex.thread_index(store).pending:
        if several.get(pending.thread_id) == pending.checkpoint_id:
            at_head.setdefault(pending.thread_id, []).append(pending.payload)
    return found | {thread_id: tuple(questions) for thread_id, questions in at_head.items()}


def case_amount(store: Any, item: lifecycle.ThreadStatus) -> int | None:
    """The amount "largest amount first" ranks an item by, on home and in the refund queue alike: its case's
    ``amount`` at the thread's head. That is what a case with one amount pays and, for a case with several
    items, its whole request (the total of its items) until every item is decided, never the one item its
    first waiting question names. None for a thread without one (another agent's, a damaged or deleted head).
    """
    try:
        values = threadindex.head_values(store, item.thread_id, item.head_checkpoint_id)
    except DamagedValueError:
        return None
    amount = values.get("amount") if values is not None else None
    return amount if isinstance(amount, int) and not isinstance(amount, bool) else None


def ordered(
    entries: Sequence[T],
    order: str,
    *,
    status: Callable[[T], lifecycle.ThreadStatus],
    amount: Callable[[T], int | None],
    mine: Callable[[T], bool] = lambda _entry: False,
) -> list[T]:
    """``entries`` in ``order`` (one of :data:`ORDERS`), the ones ``mine`` says first ("my queue").

    Oldest and newest go by ``waiting_since`` (an item that waits for no one, running, last either way);
    ties keep the given order.
    """
    if order not in ORDERS:
        raise ValueError(f"unknown order {order!r}; orders: {', '.join(ORDERS)}")

    def since(entry: T) -> float:
        found = status(entry).waiting_since
        return found.timestamp() if found is not None else 0.0

    def key(entry: T) -> tuple[Any, ...]:
        unwaiting = status(entry).waiting_since is None
        if order == "amount":
            value = amount(entry)
            rest: tuple[Any, ...] = (value is None, -(value or 0), since(entry))
        else:
            rest = (unwaiting, since(entry) if order == "oldest" else -since(entry))
        return (not mine(entry), *rest)

    return sorted(entries, key=key)


def mine_of(rights: Mapping[str, DecisionRights], me: Identity) -> Callable[[str], bool]:
    """Whether ``me`` may decide the item of a thread id (always false for the local operator)."""
    return lambda thread_id: thread_id in rights and rights[thread_id].includes(me)
