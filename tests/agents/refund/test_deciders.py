"""Who may decide a waiting refund: chosen by the one rule (``identity.denial``), the requester never
listed, a case no limit covers flagged at once, an overdue case escalated to the senior approvers, and
the same facts in local mode without identities. The clock is a parameter (``now``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest
from fastapi.testclient import TestClient

from agents import ages, lifecycle, runs
from agents.api.app import create_app
from agents.decision_rights import DecisionRights
from agents.identity import LOCAL_OPERATOR, denial
from agents.refund import deciders
from agents.refund.permissions import APPROVE_REFUND
from agents.roles_file import parse_roles

ROLES_TEXT = """
[users]
"viewer@example.com" = { role = "viewer" }
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"lee@example.com" = { role = "approver", limit_krw = 3_000_000, name = "Lee" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"admin@example.com" = { role = "admin", name = "Admin" }
"""
ROLES = parse_roles(ROLES_TEXT)
#: Approvers only, each limit below 5,000,000 KRW.
LOW_LIMITS = parse_roles(
    """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }
"lee@example.com" = { role = "approver", limit_krw = 3_000_000 }
"viewer@example.com" = { role = "viewer" }
"""
)
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
DAY = 24 * 3600


def _emails(people) -> list[str]:
    return [person.email for person in people]


def _case(amount: int, requested_by: str | None = None, **more) -> dict:
    return {"amount": amount, "requested_by": requested_by, **more}


def test_deciders_are_chosen_by_limit_senior_ranks_first():
    small = deciders.deciders(ROLES, deciders.case_facts(_case(500_000)))
    middle = deciders.deciders(ROLES, deciders.case_facts(_case(2_000_000)))
    large = deciders.deciders(ROLES, deciders.case_facts(_case(5_000_000)))
    assert _emails(small) == ["admin@example.com", "park@example.com", "lee@example.com", "kim@example.com"]
    assert _emails(middle) == ["admin@example.com", "park@example.com", "lee@example.com"]
    assert _emails(large) == ["admin@example.com", "park@example.com"]


def test_deciders_agree_with_the_one_rule_for_every_person_and_amount():
    for amount in (1, 1_000_000, 1_000_001, 3_000_000, 3_000_001, 10**9):
        for requester in (None, "kim@example.com", "park@example.com"):
            case = deciders.case_facts(_case(amount, requester))
            chosen = set(_emails(deciders.deciders(ROLES, case)))
            allowed = {p.email for p in deciders.people(ROLES) if not denial(p, APPROVE_REFUND, **case)}
            assert chosen == allowed


@pytest.mark.parametrize(
    "values",
    [
        _case(500_000, "lee@example.com"),
        _case(500_000, "LEE@example.com"),  # emails compare without case
        _case(500_000, "someone@elsewhere.org", requested_by_names=["lee@example.com", "Lee"]),
        _case(500_000, None, requested_by_name="lee.example.com"),  # separators folded, as four eyes folds them
    ],
)
def test_the_requester_is_never_listed_as_a_decider(values):
    rights = deciders.decision_rights(ROLES, values, NOW - dt.timedelta(days=3), DAY, NOW)
    assert "lee@example.com" not in _emails(rights.deciders)
    assert "lee@example.com" not in _emails(rights.escalated_to)
    assert "kim@example.com" in _emails(rights.deciders)


def test_a_requesting_senior_is_not_escalated_to():
    rights = deciders.decision_rights(ROLES, _case(5_000_000, "park@example.com"), NOW - dt.timedelta(days=2), DAY, NOW)
    assert _emails(rights.deciders) == ["admin@example.com"]
    assert _emails(rights.escalated_to) == ["admin@example.com"]  # no other senior approver: the admins


def test_a_case_no_approver_limit_covers_is_flagged_at_once():
    fresh = NOW - dt.timedelta(seconds=1)  # not waiting long: the flag does not wait for the deadline
    rights = deciders.decision_rights(LOW_LIMITS, _case(5_000_000), fresh, DAY, NOW)
    assert rights.deciders == () and rights.escalated_to == () and rights.escalation is None
    assert rights.no_decider is not None
    assert rights.no_decider.render("en") == "no approver's limit covers 5,000,000 KRW"
    assert rights.no_decider.render("ko") == "5,000,000원을 한도로 감당하는 승인자가 없습니다"
    assert rights.summary("en", identities=True) == "no one may decide: no approver's limit covers 5,000,000 KRW"
    within = deciders.decision_rights(LOW_LIMITS, _case(2_000_000), fresh, DAY, NOW)
    assert within.no_decider is None and _emails(within.deciders) == ["lee@example.com"]


def test_a_case_only_its_requester_could_approve_is_flagged():
    only_kim = parse_roles('[users]\n"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }\n')
    rights = deciders.decision_rights(only_kim, _case(500_000, "kim@example.com"), NOW, DAY, NOW)
    assert rights.deciders == () and rights.no_decider is not None
    assert "requester may not approve" in rights.no_decider.render("en")


def test_an_overdue_case_escalates_to_the_senior_approvers_with_the_reason():
    waited = NOW - dt.timedelta(hours=26, minutes=5)
    rights = deciders.decision_rights(ROLES, _case(500_000), waited, DAY, NOW)
    assert _emails(rights.escalated_to) == ["park@example.com"]  # senior approvers, not the approvers
    assert rights.escalation is not None
    assert rights.escalation.render("en") == "waiting 1 d 2 h, past its 1 d 0 h deadline"
    assert rights.escalation.render("ko") == "1일 2시간째 대기, 기한 1일 0시간 지남"
    assert rights.summary("en", identities=True).endswith(
        "escalated to park@example.com (senior approver) (waiting 1 d 2 h, past its 1 d 0 h deadline)"
    )


@pytest.mark.parametrize(
    ("since", "deadline"),
    [(NOW - dt.timedelta(hours=23), DAY), (NOW - dt.timedelta(days=9), None), (None, DAY)],
)
def test_a_case_within_its_deadline_or_without_one_does_not_escalate(since, deadline):
    rights = deciders.decision_rights(ROLES, _case(500_000), since, deadline, NOW)
    assert rights.escalated_to == () and rights.escalation is None
    assert len(rights.deciders) == 4


def test_without_a_senior_approver_an_overdue_case_says_so():
    rights = deciders.decision_rights(LOW_LIMITS, _case(500_000), NOW - dt.timedelta(days=2), DAY, NOW)
    assert rights.escalated_to == () and rights.escalation is not None
    assert "no senior approver may decide it" in rights.summary("en", identities=False)


def test_local_mode_shows_the_same_facts_without_identities():
    rights = deciders.decision_rights(ROLES, _case(500_000), NOW - dt.timedelta(days=2), DAY, NOW)
    local = rights.summary("en", identities=False)
    assert "@" not in local and "Kim" not in local and "Park" not in local
    assert local == (
        "may decide: admin, senior approver, approver up to 3,000,000 KRW, approver up to 1,000,000 KRW"
        " · escalated to senior approver (waiting 2 d 0 h, past its 1 d 0 h deadline)"
    )
    assert "승인자" in rights.summary("ko", identities=False)
    data = rights.to_json("en", identities=False)
    assert "@" not in json.dumps(data)
    assert data["deciders"][2] == {"role": "approver", "limit_krw": 3_000_000}
    named = rights.to_json("en", identities=True)
    assert named["deciders"][0]["email"] == "admin@example.com"
    assert named["escalated_to"] == [
        {"email": "park@example.com", "name": "Park", "role": "senior_approver", "limit_krw": None}
    ]


def test_my_queue_holds_only_what_i_may_decide():
    rights = deciders.decision_rights(ROLES, _case(2_000_000), NOW, DAY, NOW)
    kim, lee = ROLES.identity_for("kim@example.com"), ROLES.identity_for("LEE@example.com")
    assert rights.includes(lee) and not rights.includes(kim)
    assert not rights.includes(LOCAL_OPERATOR)
    assert not DecisionRights(()).includes(lee)


# --- the CLI's inbox, with 200 waiting cases and the clock as a parameter ---------------------------

COUNT = 200
OVERDUE = 73
BIG = 5_000_000


@pytest.fixture
def roles_file(use_roles, monkeypatch):
    path = use_roles(ROLES_TEXT)
    monkeypatch.setenv("HITL_SLA", "refund=24h")
    monkeypatch.delenv("HITL_TIMEZONE", raising=False)
    return path


def _amount(index: int) -> int:
    """A case every 10th beyond every approver's limit; the rest within Kim's."""
    return 3_500_000 if index % 10 == 0 else 200_000 + index * 1_000


@pytest.fixture
def signed_cases(store, settings, roles_file) -> list[lifecycle.ThreadStatus]:
    """200 waiting refunds requested by Kim, through the write path, in order."""
    kim = ROLES.identity_for("kim@example.com")
    for index in range(COUNT):
        values = {"case_id": f"W{index:03d}", "customer": "c", "amount": _amount(index), "reason": "r"}
        runs.start_run(store, dataclasses.replace(settings, roles=ROLES), "refund", values, actor=kim)
    return lifecycle.inbox(store)


def _clock(items, overdue: int) -> dt.datetime:
    last, following = items[overdue - 1].waiting_since, items[overdue].waiting_since
    return last + (following - last) / 2 + dt.timedelta(days=1)


def test_cli_inbox_json_names_deciders_and_escalates_exactly_the_overdue_cases(signed_cases, run_cli, monkeypatch):
    monkeypatch.setattr(ages, "utc_now", lambda: _clock(signed_cases, OVERDUE))
    result = run_cli("inbox", "--json")
    assert result.code == 0, result.err
    items = json.loads(result.out)
    assert [item["thread_id"] for item in items] == [f"refund-W{index:03d}" for index in range(COUNT)]  # oldest first
    assert sum(item["overdue"] for item in items) == OVERDUE
    escalated = [item["thread_id"] for item in items if item["escalated_to"]]
    assert escalated == [f"refund-W{index:03d}" for index in range(OVERDUE)]
    for index, item in enumerate(items):
        emails = [d["email"] for d in item["deciders"]]
        assert "kim@example.com" not in emails  # the requester, on every case
        if index % 10 == 0:  # 3,500,000: beyond Lee's limit
            assert emails == ["admin@example.com", "park@example.com"]
        else:
            assert emails == ["admin@example.com", "park@example.com", "lee@example.com"]
        assert item["no_decider"] is None
    assert [d["email"] for d in items[0]["escalated_to"]] == ["park@example.com"]
    assert items[0]["escalation_reason"].startswith("waiting 1 d 0 h, past its 1 d 0 h deadline")
    assert items[OVERDUE]["escalation_reason"] is None
    overdue = run_cli("inbox", "--overdue", "--json")
    assert overdue.code == 3 and len(json.loads(overdue.out)) == OVERDUE


def test_cli_inbox_flags_a_case_no_limit_covers(store, settings, run_cli, use_roles):
    use_roles(
        '[users]\n"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }\n'
        '"lee@example.com" = { role = "approver", limit_krw = 3_000_000 }\n'
    )
    runs.start_run(store, settings, "refund", {"case_id": "B1", "customer": "c", "amount": BIG, "reason": "r"})
    (item,) = json.loads(run_cli("inbox", "--json").out)
    assert item["deciders"] == [] and item["no_decider"] == "no approver's limit covers 5,000,000 KRW"
    line = run_cli("inbox").out.splitlines()[0]
    assert line.endswith("\tno one may decide: no approver's limit covers 5,000,000 KRW")
    korean = run_cli("inbox", "--lang", "ko").out.splitlines()[0]
    assert korean.endswith("5,000,000원을 한도로 감당하는 승인자가 없습니다")


def test_cli_inbox_without_a_roles_file_states_no_deciders(store, settings, run_cli, monkeypatch):
    monkeypatch.setenv("HITL_ROLES_FILE", "")
    runs.start_run(store, settings, "refund", {"case_id": "N1", "customer": "c", "amount": BIG, "reason": "r"})
    (item,) = json.loads(run_cli("inbox", "--json").out)
    assert {key: item[key] for key in ("deciders", "no_decider", "escalated_to", "escalation_reason")} == dict.fromkeys(
        ("deciders", "no_decider", "escalated_to", "escalation_reason")
    )


def test_the_api_threads_say_who_may_decide_without_naming_anyone(store, settings, monkeypatch):
    settings = dataclasses.replace(settings, roles=ROLES, sla=(("refund", DAY),))
    kim = ROLES.identity_for("kim@example.com")
    values = {"case_id": "API1", "customer": "c", "amount": 2_000_000, "reason": "r"}
    runs.start_run(store, settings, "refund", values, actor=kim)
    (waiting,) = lifecycle.inbox(store)
    assert waiting.waiting_since is not None
    monkeypatch.setattr(ages, "utc_now", lambda: waiting.waiting_since + dt.timedelta(days=1, hours=2))
    with TestClient(create_app(store, settings), base_url="http://localhost") as client:
        (found,) = client.post("/threads/search", json={"status": "interrupted"}).json()
        one = client.get("/threads/refund-API1").json()
    for shape in (found["lifecycle"], one["lifecycle"]):
        assert shape["deciders"] == [
            {"role": "admin", "limit_krw": None},
            {"role": "senior_approver", "limit_krw": None},
            {"role": "approver", "limit_krw": 3_000_000},
        ]  # Kim requested it; Kim's limit is below it anyway
        assert shape["no_decider"] is None and shape["overdue"] is True
        assert shape["escalated_to"] == [{"role": "senior_approver", "limit_krw": None}]
        assert shape["escalation_reason"] == "waiting 1 d 2 h, past its 1 d 0 h deadline"
        assert "@" not in json.dumps(shape)
