"""The refund page says a refused decision in the page's language, from the one refusal ``agents.runs``
refuses with: the batch's result rows signed in (an approver's limit, four eyes), the case's own caption,
and in local mode, a batch under a typed name of the roles file (held to that person's limit).

The command line's side is ``tests/agents/refund/test_refund_permission_words.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents import runs
from agents.identity import Identity
from agents.refund import ledger
from app_pages.refund_batch import APPROVER_KEY, DRAWN_KEY, SELECTED_KEY
from dashboard import i18n
from dashboard.i18n import t
from tests.conftest import APP_FILE
from tests.factories import button_by_key, messages

PAGE = "app_pages/refund.py"
ROLES = """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim Minji" }
"rita@example.com" = { role = "approver", limit_krw = 5_000_000 }
"vera@example.com" = { role = "viewer" }
"""
RITA = Identity(email="rita@example.com", name="Rita", role="approver", limit_krw=5_000_000)
LIMIT_KO = "승인 한도는 1,000,000원인데 이 건은 1,260,000원을 지급하므로 선임 승인자가 필요합니다"
FOUR_EYES_KO = "이 환불은 본인이 요청했습니다. 다른 사람이 승인해야 합니다(4-eyes 원칙)"
ENGLISH_WORDS = ("not allowed", "your limit", "you requested", "is a viewer", "KRW")


@pytest.fixture(autouse=True)
def roles_file(use_roles: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    use_roles(ROLES)
    # AppTest words the sidebar's choices again between runs, outside the page's session: in its language.
    monkeypatch.setattr(i18n, "current_language", lambda: "ko")


def request(store, settings, case: str, amount: int) -> None:
    values = {"case_id": case, "customer": "c", "amount": amount, "reason": "r"}
    runs.start_run(store, settings, "refund", values, actor=RITA)


def korean_page(email: str | None = None, thread: str | None = None) -> AppTest:
    """The refund page in Korean, signed in as ``email`` (local mode without one)."""
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    if email is not None:
        test.user = {"is_logged_in": True, "email": email, "name": email.split("@")[0].title()}
    test.query_params["lang"] = "ko"
    if thread is not None:
        test.query_params["thread"] = thread
    test.run()
    test.switch_page(PAGE).run()
    assert not test.exception, test.exception
    return test


def approve_every_listed_item(test: AppTest) -> list[str]:
    """Selects every waiting item (as the table's selection callback records it) and approves them; the
    reason of each result row."""
    test.session_state[SELECTED_KEY] = list(test.session_state[DRAWN_KEY][1])
    test.run()
    button_by_key(test, "refund-batch-approve").click().run()
    assert not test.exception, test.exception
    why = t("refund.batch.col.why", "ko")
    frame = next(d for d in test.dataframe if why in d.value.columns)
    return list(frame.value[why])


def in_korean(shown: str) -> None:
    assert not any(english in shown for english in ENGLISH_WORDS), shown


def test_a_signed_in_batch_says_the_approvers_limit_in_korean(store, settings) -> None:
    request(store, settings, "C16", 1_260_000)
    request(store, settings, "C3", 300_000)
    reason, _paid = approve_every_listed_item(korean_page("kim@example.com"))
    assert LIMIT_KO in reason, reason
    in_korean(reason)
    assert [row["case_id"] for row in ledger.ledger_rows(store)] == ["C3"]


def test_a_signed_in_batch_says_four_eyes_in_korean(store, settings) -> None:
    request(store, settings, "OWN", 300_000)
    request(store, settings, "OWN2", 200_000)
    for reason in approve_every_listed_item(korean_page("rita@example.com")):
        assert FOUR_EYES_KO in reason, reason
        in_korean(reason)
    assert ledger.ledger_rows(store) == []


def test_the_case_page_says_the_limit_and_a_viewers_role_in_korean(store, settings) -> None:
    request(store, settings, "C16", 1_260_000)
    kim = korean_page("kim@example.com", "refund-C16")
    captions = " ".join(c.value for c in kim.caption)
    assert t("auth.cannot_act", "ko", reason=LIMIT_KO) in captions, captions
    vera = korean_page("vera@example.com", "refund-C16")
    shown = messages(vera)
    assert "vera@example.com의 역할은 열람자입니다. 환불 거절에는 승인자 이상의 역할이 필요합니다" in shown, shown
    in_korean(shown)


def test_a_local_batch_under_a_name_of_the_roles_file_is_held_to_that_persons_limit(store, settings) -> None:
    request(store, settings, "C16", 1_260_000)
    request(store, settings, "C3", 300_000)
    test = korean_page()
    test.text_input(key=APPROVER_KEY).input("KIM@example.com")
    reason, _paid = approve_every_listed_item(test)
    assert LIMIT_KO in reason, reason
    in_korean(reason)
    assert [(row["case_id"], row["approver"]) for row in ledger.ledger_rows(store)] == [("C3", "KIM@example.com")]
