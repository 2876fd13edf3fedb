"""The refund page names an empty case id as a case id (its own label and words), never as a thread id."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import APP_FILE
from tests.factories import messages


@pytest.mark.parametrize(
    ("lang", "said", "not_said"),
    [
        ("en", "Case id: is empty; give a case id", "thread id"),
        ("ko", "건 번호: 비어 있습니다. 건 번호를 입력하세요", "스레드"),
    ],
)
def test_a_new_request_with_an_empty_case_id_is_told_to_give_a_case_id(store, lang, said, not_said):
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("app_pages/refund.py")
    at.run()
    at.text_input(key="refund-new-case").input(" ")
    at.text_input(key="refund-new-customer").input("kim")
    at.text_input(key="refund-new-amount").input("500,000")
    at.text_area(key="refund-new-reason").input("broken")
    next(b for b in at.button if b.label in ("Submit request", "요청 제출")).click().run()
    shown = messages(at)
    assert said in shown and not_said not in shown, shown
