"""Who may decide a refund with several items is weighed on each waiting item, never on the whole request nor
on what the waiting items ask for together: a person may decide the case when they may decide at least one
waiting item (its amount within their limit, four eyes on the requester), and no one may decide it only when
some waiting item has no one, named by that item's amount. One function (``deciders.case_deciders``) says it
for the inbox, the CLI, the pages and the mails; the clock is a parameter."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from agents import lifecycle, queue_rights, runs
from agents.identity import Identity
from agents.refund import deciders
from agents.roles_file import parse_roles

ROLES_TEXT = """
[users]
"viewer@example.com" = { role = "viewer" }
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"lee@example.com" = { role = "approver", limit_krw = 500_000, name = "Lee" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"admin@example.com" = { role = "admin", name = "Admin" }
"""
ROLES = parse_roles(ROLES_TEXT)
APPROVERS_TEXT = """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"lee@example.com" = { role = "approver", limit_krw = 500_000, name = "Lee" }
"""
APPROVERS = parse_roles(APPROVERS_TEXT)
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
DAY = 24 * 3600
EVERYONE = ["admin@example.com", "park@example.com", "kim@example.com", "lee@example.com"]


def _emails(people) -> list[str]:
    return [person.email for person in people]


def _question(item: str, amount: int, case: str = "C1") -> dict:
    """One waiting item's question as the run asks it (the parts the rule reads)."""
    return {"case_id": case, "item": item, "amount": amount, "requested_amount": amount, "question": "?"}


def _items_case(*amounts: int, requested_by: str | None = None) -> dict:
    """A case's head values: its items and whole request (what the old reading weighed), its requester."""
    items = [{"item": f"A-{index}", "amount": amount} for index, amount in enumerate(amounts, 1)]
    total = sum(amounts)
    return {"case_id": "C1", "items": items, "amount": total, "requested_amount": total, "requested_by": requested_by}


def test_two_items_each_within_an_approvers_limit_are_theirs_though_together_they_are_not():
    values = _items_case(600_000, 600_000)  # C08: 1,200,000 in all, above Kim's 1,000,000
    questions = [_question("TV-1", 600_000), _question("TV-2", 600_000)]
    found = deciders.case_deciders(ROLES, values, questions)
    assert _emails(found.deciders) == ["admin@example.com", "park@example.com", "kim@example.com"]  # Lee: 500,000
    assert found.no_decider is None
    rights = deciders.decision_rights(ROLES, values, NOW, DAY, NOW, questions)
    assert rights.includes(ROLES.identity_for("kim@example.com"))  # in Kim's queue
    assert not rights.includes(ROLES.identity_for("lee@example.com"))


def test_items_are_weighed_at_their_limits_and_paid_items_weigh_nothing():
    # C07: A-1 300,000 and A-3 200,000 wait (580,000 requested, 500,000 waiting), A-2 (80,000) paid at once.
    values = _items_case(300_000, 80_000, 200_000)
    waiting = [_question("A-1", 300_000), _question("A-3", 200_000)]
    assert _emails(deciders.case_deciders(ROLES, values, waiting).deciders) == EVERYONE
    # Exactly at Lee's limit is within it; one KRW more is not, whatever else waits beside it.
    at_limit = [_question("B-1", 500_000), _question("B-2", 900_000)]
    assert _emails(deciders.case_deciders(ROLES, values, at_limit).deciders) == EVERYONE
    above = [_question("B-1", 500_001), _question("B-2", 1_000_001)]
    assert _emails(deciders.case_deciders(ROLES, values, above).deciders) == [
        "admin@example.com",
        "park@example.com",
        "kim@example.com",
    ]
    only_large = [_question("B-2", 1_000_001)]
    assert _emails(deciders.case_deciders(ROLES, values, only_large).deciders) == EVERYONE[:2]


def test_a_case_waiting_only_on_a_small_item_is_not_flagged_by_its_whole_request():
    # C12: 3,100,000 requested; only B-2 (150,000) still waits, the rest paid.
    values = _items_case(2_950_000, 150_000)
    rights = deciders.decision_rights(APPROVERS, values, NOW, DAY, NOW, [_question("B-2", 150_000)])
    assert _emails(rights.deciders) == ["kim@example.com", "lee@example.com"]
    assert rights.no_decider is None
    assert rights.summary("en", identities=True).startswith("may decide: kim@example.com")


def test_an_item_no_one_may_decide_flags_the_case_naming_that_items_amount():
    values = _items_case(1_500_000, 2_500_000, 300_000)
    questions = [_question("A-1", 1_500_000), _question("A-2", 2_500_000), _question("A-3", 300_000)]
    rights = deciders.decision_rights(APPROVERS, values, NOW, DAY, NOW, questions)
    assert _emails(rights.deciders) == ["kim@example.com", "lee@example.com"]  # A-3 is theirs
    assert rights.no_decider is not None
    assert rights.no_decider.render("en") == "no approver's limit covers 2,500,000 KRW"  # not 4,300,000
    assert rights.summary("en", identities=True) == (
        "may decide: kim@example.com (approver up to 1,000,000 KRW), lee@example.com (approver up to 500,000 KRW)"
        " · no one may decide: no approver's limit covers 2,500,000 KRW"
    )
    assert "2,500,000원을 한도로 감당하는 승인자가 없습니다" in rights.summary("ko", identities=False)
    nobody = deciders.decision_rights(APPROVERS, values, NOW, DAY, NOW, questions[:2])
    assert nobody.deciders == ()
    assert nobody.summary("en", identities=True) == "no one may decide: no approver's limit covers 2,500,000 KRW"


def test_the_requester_decides_no_item_of_their_own_case():
    values = _items_case(300_000, 200_000, requested_by="kim@example.com")
    questions = [_question("A-1", 300_000), _question("A-2", 200_000)]
    assert _emails(deciders.case_deciders(ROLES, values, questions).deciders) == [
        "admin@example.com",
        "park@example.com",
        "lee@example.com",
    ]
    only_kim = parse_roles('[users]\n"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }\n')
    flagged = deciders.case_deciders(only_kim, values, questions)
    assert flagged.deciders == () and flagged.no_decider is not None
    assert "requester may not approve" in flagged.no_decider.render("en")


def test_an_overdue_case_with_items_escalates_to_those_above_the_deciders_of_its_items():
    values = _items_case(600_000, 600_000, requested_by="park@example.com")
    questions = [_question("TV-1", 600_000), _question("TV-2", 600_000)]
    late = NOW - dt.timedelta(days=2)
    rights = deciders.decision_rights(ROLES, values, late, DAY, NOW, questions)
    assert _emails(rights.deciders) == ["admin@example.com", "kim@example.com"]
    assert _emails(rights.escalated_to) == ["admin@example.com"]  # Park requested it
    approvers = deciders.decision_rights(APPROVERS, values, late, DAY, NOW, questions)
    assert _emails(approvers.deciders) == ["kim@example.com"] and approvers.escalated_to == ()
    assert approvers.escalation is not None and approvers.no_decider is None


def test_a_case_without_items_is_weighed_on_its_amount_as_before():
    values = {"case_id": "S1", "amount": 600_000, "requested_amount": 600_000}
    question = {"case_id": "S1", "amount": 600_000, "requested_amount": 600_000, "question": "?"}
    for questions in ((), (question,)):
        found = deciders.case_deciders(ROLES, values, questions)
        assert _emails(found.deciders) == EVERYONE[:3] and found.no_decider is None
        assert found.deciders == deciders.deciders(ROLES, deciders.case_facts(values))


# --- the paths: the CLI's inbox on real runs ------------------------------------------------------------

REQUESTER = Identity(email="rita@example.com", name="Rita", role="approver", limit_krw=5_000_000)


@pytest.fixture
def roles_file(use_roles):
    return use_roles


def _start(store, settings, case: str, items: list[tuple[str, int]]) -> str:
    values = {"case_id": case, "customer": "c", "reason": "r", "items": [{"item": i, "amount": a} for i, a in items]}
    return runs.start_run(store, settings, "refund", values, actor=REQUESTER).thread_id


def _ids(store, settings, thread_id: str) -> dict[str, str]:
    snapshot = runs.thread_snapshot(store, settings, thread_id)[1]
    return {i.value["item"]: str(i.id) for i in snapshot.interrupts}


def test_cli_inbox_names_who_may_decide_each_waiting_item(store, settings, run_cli, roles_file):
    roles_file(ROLES_TEXT)
    _start(store, settings, "C08", [("TV-1", 600_000), ("TV-2", 600_000)])
    _start(store, settings, "C07", [("A-1", 300_000), ("A-2", 80_000), ("A-3", 200_000)])
    by_thread = {item["thread_id"]: item for item in json.loads(run_cli("inbox", "--json").out)}
    assert [d["email"] for d in by_thread["refund-C08"]["deciders"]] == EVERYONE[:3]  # Kim: each within 1,000,000
    assert [d["email"] for d in by_thread["refund-C07"]["deciders"]] == EVERYONE  # Lee: each within 500,000
    assert by_thread["refund-C08"]["no_decider"] is None and by_thread["refund-C07"]["no_decider"] is None
    lines = {line.split("\t")[0]: line for line in run_cli("inbox").out.splitlines()}
    assert lines["refund-C08"].endswith("kim@example.com (approver up to 1,000,000 KRW)")
    assert lines["refund-C07"].endswith("kim@example.com (approver up to 1,000,000 KRW), 1 more")  # and Lee


def test_cli_inbox_weighs_only_the_items_still_waiting(store, settings, run_cli, roles_file):
    thread = _start(store, settings, "C12", [("B-1", 2_950_000), ("B-2", 150_000)])
    park = Identity(email="park@example.com", name="Park", role="senior_approver")
    approve = {"action": "approve", "approver": "park"}
    runs.resume_thread(store, settings, thread, approve, interrupt_id=_ids(store, settings, thread)["B-1"], actor=park)
    assert list(_ids(store, settings, thread)) == ["B-2"]  # 3,100,000 requested, 150,000 waiting
    roles_file(APPROVERS_TEXT)
    (item,) = json.loads(run_cli("inbox", "--json").out)
    assert [d["email"] for d in item["deciders"]] == ["kim@example.com", "lee@example.com"]
    assert item["no_decider"] is None
    line = run_cli("inbox").out.splitlines()[0]
    assert "no one may decide" not in line and "3,100,000" not in line, line


def test_my_queue_counts_a_case_whose_waiting_items_are_within_my_limit(store, settings):
    _start(store, settings, "C08", [("TV-1", 600_000), ("TV-2", 600_000)])
    _start(store, settings, "C09", [("TV-1", 1_200_000), ("TV-2", 50_000)])  # TV-2 paid at once
    items = lifecycle.inbox(store)
    rights = queue_rights.rights_of(store, ROLES, items, {}, NOW)
    mine = queue_rights.mine_of(rights, ROLES.identity_for("kim@example.com"))
    assert [item.thread_id for item in items if mine(item.thread_id)] == ["refund-C08"]
