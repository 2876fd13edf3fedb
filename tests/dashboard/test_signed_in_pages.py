"""The pages for a signed-in person (AppTest's ``user`` seeds ``st.user``): what each role is shown.

The pages hide what a role cannot do and say why; what counts is that ``agents.runs`` refuses it,
seen here when a control drawn for one role is used after the role changed (a stale or crafted
submit): the operation runs as the session's identity of that moment and is refused.
Chromium against a real provider: tests/browser/test_signin_flow.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents import readmodel, runs
from agents.errors import PermissionDenied
from agents.identity import Identity, Roles
from agents.refund import ledger
from agents.settings import DEFAULT_ROLES_PATH
from dashboard import resources
from tests.conftest import APP_FILE
from tests.factories import button_by_key, edit, messages, pause_robot

REQUESTER = Identity(email="rita@example.com", name="Rita", role="approver", limit_krw=5_000_000)
#: An address as long as an email address may be (254 characters).
LONGEST = "finance." * 30 + "f" * 2 + "@example.com"
ROLES = (
    """
[users]
"vera@example.com" = { role = "viewer" }
"ann@example.com" = { role = "approver", limit_krw = 1_000_000 }
"rita@example.com" = { role = "approver", limit_krw = 5_000_000 }
"ada@example.com" = { role = "admin" }
"""
    + f'"{LONGEST}" = {{ role = "approver", limit_krw = 1_000_000 }}\n'
)


@pytest.fixture(autouse=True)
def roles_file(use_roles: Callable[[str], Path]) -> None:
    use_roles(ROLES)


@pytest.fixture
def signed_in() -> Callable[..., AppTest]:
    """``open(email, page)``: the dashboard run once as ``email`` signed in, switched to ``page``."""

    def open_page(email: str, page: str = "app_pages/refund.py", **claims: object) -> AppTest:
        test = AppTest.from_file(APP_FILE, default_timeout=60)
        test.user = {"is_logged_in": True, "email": email, "name": email.split("@")[0].title(), **claims}
        test.run()
        test.switch_page(page)
        test.run()
        assert not test.exception, test.exception
        return test

    return open_page


def _case(store, settings, case: str, amount: int) -> str:
    done = runs.start_run(
        store,
        settings,
        "refund",
        {"case_id": case, "customer": "Kim", "amount": amount, "reason": "r"},
        actor=REQUESTER,
    )
    return done.thread_id


def _buttons(test: AppTest) -> set[str]:
    return {str(button.key) for button in test.button}


def test_not_signed_in_sees_the_sign_in_page_only() -> None:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.user = {"is_logged_in": False}
    test.run()
    assert not test.exception
    assert [b.label for b in test.button] == ["Sign in"]
    assert [title.value for title in test.title] == ["Sign in"]
    assert not test.sidebar.button  # no sign-out, no forms
    test.button[0].click().run()  # no [auth] reaches this AppTest: Streamlit refuses, the page says why
    assert "Sign-in is not configured correctly" in test.error[0].value


def test_a_viewer_sees_the_queue_and_no_decision_controls(store, settings, signed_in) -> None:
    thread = _case(store, settings, "V1", 300_000)
    test = signed_in("vera@example.com", "app_pages/refund.py")
    assert "V1" in list(test.dataframe[0].value.iloc[:, 0])
    assert not {"refund-approve", "refund-reject", "refund-edit"} & _buttons(test)
    assert "vera@example.com is a viewer; rejecting a refund needs an approver or above" in messages(test)
    assert all(form not in str(test.sidebar) for form in ("Delete thread", "Update state"))
    assert readmodel.head_checkpoint_id(store, thread) is not None


def test_an_approver_above_their_limit_is_told_why_and_may_reject(store, settings, signed_in) -> None:
    _case(store, settings, "BIG", 2_000_000)
    test = signed_in("ann@example.com")
    captions = " ".join(c.value for c in test.caption)
    assert "your limit is 1,000,000 KRW; this case pays 2,000,000 KRW and needs a senior approver" in captions
    assert "refund-approve" not in _buttons(test)
    button_by_key(test, "refund-reject").click().run()
    assert "Case BIG: reject by ann" in messages(test)
    assert ledger.audit_rows(store)[0].approver == "ann@example.com"
    assert ledger.audit_rows(store)[0].requested_by == REQUESTER.email


def test_an_approver_with_the_longest_email_approves_from_the_page(store, settings, signed_in) -> None:
    assert len(LONGEST) == 254
    _case(store, settings, "LONG", 300_000)
    test = signed_in(LONGEST)
    button_by_key(test, "refund-approve").click().run()
    assert not test.exception and not test.error, [e.value for e in test.error]
    assert ledger.payout_for(store, "LONG")["approver"] == LONGEST


def test_the_requester_may_not_approve_their_own_case(store, settings, signed_in) -> None:
    _case(store, settings, "OWN", 300_000)
    test = signed_in("rita@example.com")
    assert "refund-approve" not in _buttons(test)
    assert "you requested this refund" in " ".join(c.value for c in test.caption)


def test_an_unverified_email_gets_no_role(store, settings, signed_in) -> None:
    _case(store, settings, "U1", 300_000)
    test = signed_in("ann@example.com", email_verified=False)
    assert "refund-reject" not in _buttons(test)
    assert "ann@example.com is a viewer" in messages(test)


def test_a_delete_drawn_for_an_admin_does_nothing_once_the_role_is_gone(store, settings, signed_in) -> None:
    thread = _case(store, settings, "DEL", 300_000)
    test = signed_in("ada@example.com")
    test.sidebar.text_input(key=f"delete-confirm-{thread}").input(thread)
    test.user = {**test.user, "email": "ann@example.com"}  # the same session, now an approver
    next(b for b in test.sidebar.button if b.label == "Delete thread").click().run()
    assert "Deleted" not in messages(test)  # the submit of a form this role is not drawn changes nothing
    assert readmodel.head_checkpoint_id(store, thread) is not None
    # ... and had it reached the operation, the operation refuses the identity the frame computes:
    with pytest.raises(PermissionDenied, match="deleting a thread needs an admin"):
        runs.delete_thread(store, thread, actor=settings_roles().identity_for("ann@example.com"))
    test.user = {**test.user, "email": "ada@example.com"}
    test.run()
    test.sidebar.text_input(key=f"delete-confirm-{thread}").input(thread)
    test.sidebar.text_input(key=f"delete-reason-{thread}").input("entered twice")  # the case still waits
    next(b for b in test.sidebar.button if b.label == "Delete thread").click().run()
    assert f"Deleted thread {thread}." in messages(test)
    assert readmodel.head_checkpoint_id(store, thread) is None


def test_an_approver_taken_off_the_roles_file_acts_on_nothing_from_the_next_rerun(store, settings, signed_in) -> None:
    """The file edited while the dashboard runs: no restart, the next rerun acts on what it says now."""
    _case(store, settings, "OFF", 300_000)
    test = signed_in("ann@example.com")
    assert "refund-approve" in _buttons(test)
    viewer = ROLES.replace(
        '"ann@example.com" = { role = "approver", limit_krw = 1_000_000 }', '"ann@example.com" = { role = "viewer" }'
    )
    edit(Path(os.environ["HITL_ROLES_FILE"]), viewer)
    test.run()
    assert not test.exception, test.exception
    assert "refund-approve" not in _buttons(test)
    assert "ann@example.com is a viewer" in messages(test)
    assert ledger.payout_for(store, "OFF") is None


def settings_roles() -> Roles:
    """The roles the dashboard's settings loaded (from ``HITL_ROLES_FILE``)."""
    roles = resources.settings().roles
    assert roles is not None
    return roles


def test_without_a_roles_file_everyone_signed_in_is_a_viewer(monkeypatch, signed_in) -> None:
    if DEFAULT_ROLES_PATH.is_file():
        pytest.skip(f"{DEFAULT_ROLES_PATH} exists on this machine")
    monkeypatch.delenv("HITL_ROLES_FILE")
    test = signed_in("ada@example.com", "app_pages/home.py")
    assert "everyone signed in is a viewer" in " ".join(w.value for w in test.sidebar.warning)
    assert any("· viewer" in c.value for c in test.sidebar.caption)


def test_a_viewer_sees_the_robot_question_and_cannot_answer_or_start(store, settings, signed_in) -> None:
    pause_robot(store, settings)
    test = signed_in("vera@example.com", "app_pages/robot.py")
    assert not {"robot-yes", "robot-no", "robot-send"} & _buttons(test)
    assert "Start over" not in [b.label for b in test.button]
    assert "vera@example.com is a viewer; answering a question needs an approver or above" in messages(test)
    approver = signed_in("ann@example.com", "app_pages/robot.py")
    button_by_key(approver, "robot-yes").click().run()
    assert runs.current_result(store, settings, "hitl_demo").status == "done"


def test_an_approver_sees_no_fork_or_rerun_in_the_explorer(store, settings, signed_in) -> None:
    pause_robot(store, settings)
    test = signed_in("ann@example.com", "app_pages/explorer.py")
    assert not {"explorer-rerun-hitl_demo", "explorer-restore-hitl_demo"} & _buttons(test)
    assert "is for admins" in messages(test)
    admin = signed_in("ada@example.com", "app_pages/explorer.py")
    assert "explorer-rerun-hitl_demo" in _buttons(admin)
