"""Home's inbox search reads each reason as the page shows it, in the reader's language, whatever language
the run asked in; it still matches what it matched besides (thread ids, agents)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from agents import runs
from tests.conftest import APP_FILE
from tests.factories import pause_robot, start_refund

INBOX = "home-inbox"


def open_home(lang: str, user: dict | None = None) -> AppTest:
    """Home in ``lang``, signed in as ``user`` when given."""
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    if user is not None:
        test.user = user
    test.query_params["lang"] = lang
    test.run()
    assert not test.exception, test.exception
    return test


def found_threads(test: AppTest, query: str) -> list[str]:
    """The inbox's threads that match ``query`` (none when the inbox says no row matches); a thread cell cut
    over lines is read as one line."""
    test.text_input(key=f"{INBOX}:search").input(query).run()
    assert not test.exception, test.exception
    no_match = (f"No row matches “{query}”.", f"“{query}”에 맞는 행이 없습니다.")
    if any(c.value in no_match for c in test.caption):
        return []
    inbox = test.dataframe[0].value
    return sorted(" ".join(cell.split()) for cell in inbox["thread" if "thread" in inbox else "스레드"])


def test_a_korean_home_finds_english_runs_by_the_korean_reason_it_shows(app, store, settings):
    start_refund(store, settings, "C30", 900_000, customer="최민수")  # asked in English
    pause_robot(store, settings, "r3")  # asked in English
    start_refund(store, settings, "C31", 200_000, customer="이영희", lang="ko")
    home = open_home("ko")
    reasons = list(home.dataframe[0].value["사유"])
    assert any(reason.startswith("환불 C30 (최민수)") for reason in reasons), reasons
    assert "이 작업을 실행할까요? (yes/no)" in reasons
    assert found_threads(home, "환불 C30") == ["refund-C30"]
    assert found_threads(home, "실행할까요") == ["r3"]
    assert found_threads(home, "Refund C30") == []  # the question as the run asked it is shown nowhere here
    assert found_threads(home, "Execute") == []
    assert found_threads(home, "refund-C3") == ["refund-C30", "refund-C31"]  # thread ids still match


def test_an_english_home_finds_korean_runs_by_the_english_reason_it_shows(app, store, settings):
    start_refund(store, settings, "C31", 200_000, customer="이영희", lang="ko")
    pause_robot(store, settings, "r4", lang="ko")
    home = open_home("en")
    assert found_threads(home, "Refund C31 for 이영희") == ["refund-C31"]
    assert found_threads(home, "execute this") == ["r4"]  # case folded
    assert found_threads(home, "환불") == []
    assert found_threads(home, "실행할까요") == []


def test_a_reason_that_needs_attention_is_searched_in_the_readers_language(app, store, settings):
    pause_robot(store, settings, "r5")
    runs.update_thread(store, settings, "r5", {"decision": "yes"}, as_node="approval")  # edited, not continued
    home = open_home("ko")
    (shown,) = home.dataframe[0].value["사유"]
    assert shown.startswith("상태가 편집되었지만(update_state) 실행이 이어지지 않았습니다"), shown
    assert found_threads(home, "이어지지 않았습니다") == ["r5"]
    assert found_threads(home, "was not continued") == []  # the English reason is shown nowhere on this page
