"""Browser flows of the robot page's teaching: a quiz answer shows on click, in English and in Korean."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Dashboard
from tests.browser.opening import open_page

#: The quiz is drawn last on a long page; on a busy machine that takes more than ``expect``'s 5 s.
DRAWN = 30_000


def _paused_robot_page(page: Page, dashboard: Dashboard, thread: str = "hitl_demo", lang: str = "en") -> None:
    started = dashboard.cli("run", "robot", "--thread", thread)
    assert started.returncode == 0, started.stderr
    open_page(page, dashboard, f"robot?thread={thread}&lang={lang}")


def _quiz_question(page: Page, text: str) -> Locator:
    """The quiz question (an expander) that asks ``text``."""
    return page.get_by_test_id("stMain").get_by_test_id("stExpander").filter(has_text=text)


def test_a_quiz_answer_shows_when_its_question_is_clicked(page: Page, shared_dashboard: Dashboard):
    _paused_robot_page(page, shared_dashboard, "quiz-en")
    text = "2. Under which checkpoint will your answer be stored?"
    question = _quiz_question(page, text)
    expect(question).to_be_visible(timeout=DRAWN)
    answer = page.get_by_test_id("stAlertContentInfo").filter(has_text="Under the paused one")
    expect(answer).to_have_count(0)  # hidden until asked: no lesson above prints it
    question.get_by_text(text).click()
    expect(answer).to_be_visible(timeout=DRAWN)
    question.get_by_text(text).click()  # closed again: made no more
    expect(answer).to_have_count(0, timeout=DRAWN)


def test_the_quiz_in_korean(page: Page, shared_dashboard: Dashboard):
    # Its answer names the default thread, which only this test makes on the module's dashboard.
    _paused_robot_page(page, shared_dashboard, lang="ko")
    name = "3. 처음부터 다시를 누르면, 어떤 ID가 그대로이고 어떤 ID가 새로 생길까요?"
    question = _quiz_question(page, name)
    expect(question).to_be_visible(timeout=DRAWN)
    quiz_answer = page.get_by_test_id("stAlertContentInfo").filter(has_text="여기서는: hitl_demo 그대로.")
    expect(quiz_answer).to_have_count(0)
    question.get_by_text(name).click()
    expect(quiz_answer).to_be_visible(timeout=DRAWN)
    expect(quiz_answer).to_contain_text("thread_id는 그대로입니다.")


def test_the_queue_is_drawn_when_its_expander_is_opened(page: Page, dashboard: Dashboard):
    # A fresh database: the queue's header counts every other waiting robot thread, and the default thread
    # is the Korean quiz's on the module's dashboard.
    other = dashboard.cli("run", "robot", "--thread", "other-robot")
    assert other.returncode == 0, other.stderr
    _paused_robot_page(page, dashboard)
    main = page.get_by_test_id("stMain")
    header = main.get_by_text("Other robot threads that need a human (1)", exact=True)
    expect(header).to_be_visible(timeout=DRAWN)
    tables = main.get_by_test_id("stDataFrame")
    expect(tables).to_have_count(2, timeout=DRAWN)  # the checkpoints and the writes; the queue's is not made
    expect(main.get_by_text("other-robot")).to_have_count(0)
    header.click()
    expect(tables).to_have_count(3, timeout=DRAWN)
    expect(tables.nth(2)).to_contain_text("other-robot")
    header.click()  # closed again: made no more
    expect(tables).to_have_count(2, timeout=DRAWN)
