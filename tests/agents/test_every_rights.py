"""Who may decide every waiting item (``queue_rights.every_rights``, what home counts and puts first as "my
queue"): the same answer as ``rights_of`` over the whole inbox (the CLI's and the refund queue's rule), read from
the kept index of statuses, kept per process while an item and the roles file are as they were, and weighed
again for the items a change moved: a decided case leaves, a new one comes, an answered item of a case with
several changes who may decide it."""

from __future__ import annotations

import datetime as dt
from unittest import mock

from agents import lifecycle, queue_rights, runs, threadindex
from agents.roles_file import parse_roles

ROLES = parse_roles(
    """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"""
)
FEWER = parse_roles('[users]\n"park@example.com" = { role = "senior_approver", name = "Park" }\n')
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
KIM = ROLES.identity_for("kim@example.com")


def _start(store, settings, case: str, amount: int | None = None, items: list | None = None) -> None:
    values = {"case_id": case, "customer": "c", "reason": "r"}
    values |= {"items": items} if items is not None else {"amount": amount}
    runs.start_run(store, settings, "refund", values)


def _kims(found: dict) -> set[str]:
    return {thread_id for thread_id, rights in found.items() if rights.includes(KIM)}


def test_every_waiting_item_is_weighed_by_the_one_rule_the_cli_uses(store, settings):
    _start(store, settings, "BIG", 5_000_000)
    _start(store, settings, "SMALL", 500_000)
    runs.start_run(store, settings, "robot", {}, thread_id="robot-1")  # an agent that names no deciders
    items, found = queue_rights.every_rights(store, ROLES, NOW)
    assert [x.thread_id for x in items] == ["refund-BIG", "refund-SMALL"]
    whole = queue_rights.rights_of(store, ROLES, lifecycle.inbox(store), {}, NOW)
    assert found == whole  # the same answer, item by item
    assert _kims(found) == {"refund-SMALL"}
    assert queue_rights.every_rights(store, None, NOW) == ([], {})  # without a roles file: nothing stated


def test_only_the_items_a_change_moved_are_weighed_again(store, settings):
    _start(store, settings, "C1", 500_000)
    _start(store, settings, "C2", 600_000)
    items = [{"item": "A-1", "amount": 2_000_000}, {"item": "A-2", "amount": 300_000}]
    _start(store, settings, "M1", items=items)
    assert _kims(queue_rights.every_rights(store, ROLES, NOW)[1]) == {"refund-C1", "refund-C2", "refund-M1"}
    with mock.patch.object(queue_rights, "rights_of", wraps=queue_rights.rights_of) as weigh:
        assert _kims(queue_rights.every_rights(store, ROLES, NOW)[1]) == {"refund-C1", "refund-C2", "refund-M1"}
        assert not weigh.called  # nothing moved: nothing weighed
        runs.resume_thread(store, settings, "refund-C1", {"action": "reject", "approver": "park"})
        _start(store, settings, "C3", 700_000)
        _answer_item(store, settings, "refund-M1", "A-2")  # Kim's item answered: A-1 is above Kim's limit
        _items, found = queue_rights.every_rights(store, ROLES, NOW)
        assert _kims(found) == {"refund-C2", "refund-C3"}
        assert {x.thread_id for call in weigh.call_args_list for x in call.args[2]} == {"refund-C3", "refund-M1"}
    assert found == queue_rights.rights_of(store, ROLES, lifecycle.inbox(store), {}, NOW)
    # Another roles file: every item weighed again under it.
    fewer = queue_rights.every_rights(store, FEWER, NOW)[1]
    assert set(fewer) == set(found) and _kims(fewer) == set()
    assert all([person.email for person in rights.deciders] == ["park@example.com"] for rights in fewer.values())


def _answer_item(store, settings, thread_id: str, item: str) -> None:
    """Approves one waiting item of a case with several, by its question's id."""
    question = next(
        q for q in threadindex.pending_interrupts(store) if q.thread_id == thread_id and q.payload.get("item") == item
    )
    answer = {"action": "approve", "approver": "park"}
    runs.resume_thread(store, settings, thread_id, answer, interrupt_id=question.interrupt_id)
